"""A card's text is generated from its script in every bundled language (issue 13, item
4): the sentences and every word's text are data in the packs (words.yaml), the names
are the pack's, so an edition's overridden card reads as the rule it plays."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, TESTS, moon_plugin
from mnrules.content.ruleset import Ruleset, load_ruleset, vocabulary
from mnrules.errors import MnrulesError
from mnrules.frontends.cli import main
from mnrules.language.explain import ENGLISH, Explainer, Texts, gist
from mnrules.language.syntax import parse_script
from mnrules.language.texts import bundled_languages, load_texts, missing_texts, read_texts

GAME = ROOT / "editions" / "mare_nostrum"
LANGUAGES = ("fr", "nl", "pl", "uk")


@pytest.fixture(scope="module")
def en() -> Ruleset:
    return load_ruleset("en")


def explained(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    pack = [] if "--edition" in argv else ["--edition", "en"]   # Mare Nostrum's cards
    assert main(["cards", "explain", *pack, *argv]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_every_bundled_language_has_a_words_file() -> None:
    assert set(bundled_languages(GAME)) >= {"en", *LANGUAGES}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_and_sentence_has_a_text_in_every_language(lang: str) -> None:
    """Under the pack of that language and under English (whose vocabulary is the base),
    no word, sentence or 'whose' lacks a text, and no text names a word that is gone."""
    for pack in ("en", lang):
        rules = load_ruleset(pack)
        texts = load_texts(rules, lang)
        assert missing_texts(texts, vocabulary(rules), stale=False) == [], (pack, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_reads_without_english_or_unknown_words(lang: str) -> None:
    rules = load_ruleset(lang)
    vocab = vocabulary(rules)
    writer = Explainer(vocab, load_texts(rules))
    english = [w.doc for kind in vocab.by_kind.values() for w in kind if len(w.doc) > 12]
    for card in rules.cards.values():
        if not card.effects:
            continue
        for rule in parse_script(card.effects, card.file, *card.effects_at):
            text = writer.rule(rule)
            assert "<" not in text and "{" not in text, (card.id, text)
            assert not [doc for doc in english if doc in text], (card.id, text)


def test_caesar_in_french_uses_the_french_books_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = explained(capsys, "caesar", "--edition", "fr")
    assert out == (
        "César:\n"
        "  - Quand les règles calculent pour vous ce qu'un camp ajoute au total de ses dés "
        "avant qu'il ne soit divisé en touches, si c'est une Bataille terrestre et vous êtes "
        "le joueur actif de la Bataille : ajoutez 1 pour chaque dé de vos Légions (un par "
        "Légion, pas un dé supplémentaire).\n")


def test_an_overridden_card_reads_as_the_rule_its_edition_plays(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The PL pack plays Caesar's per_die variant: the Polish text says each die, not
    each legion's die as the English card file's text does."""
    out = explained(capsys, "caesar", "--edition", "pl")
    assert out.startswith("Cezar:\n")
    assert "za każdą kość, którą rzucasz, łącznie z dodatkowymi" in out
    assert "legion" not in out
    # the FR pack plays Circe's friendly_provinces variant
    out = explained(capsys, "circe", "--edition", "fr")
    assert "dans vos provinces ou les provinces neutres sans unité ennemie" in out


def test_the_language_and_the_rules_are_chosen_apart(
        capsys: pytest.CaptureFixture[str]) -> None:
    """English rules told in Ukrainian: Caesar per legion, the Ukrainian names."""
    out = explained(capsys, "caesar", "--lang", "uk")
    assert out.startswith("Цезар:\n")
    assert "кожен кубик ваших Легіонів" in out
    out = explained(capsys, "gilgamesh", "--lang", "nl")
    assert "1 munt of 1 steen" in out           # the Dutch pack's goods


def test_the_packs_names_fill_the_placeholders(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = explained(capsys, "statue_of_zeus", "--edition", "nl")
    assert "als de fase Verplaatsen en vechten is" in out     # a phase, not the track
    out = explained(capsys, "pyramids", "--edition", "uk")
    assert "«Культура (Піраміди)»" in out                   # the pack's victory name
    out = explained(capsys, "castor_pollux", "--edition", "fr")
    assert "sauf Persée" in out                              # a card by its French name
    out = explained(capsys, "statue_of_zeus")
    assert "if the phase is Move & Fight" in out


def test_bonuses_and_powerless_cards_are_told_in_the_language(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = explained(capsys, "hercules", "--edition", "pl")
    assert out == "Herkules:\n  Brak mocy.\n  Premie przywództwa: +2 Handel, +2 Kultura, " \
                  "+2 Wojsko.\n"


def test_an_unknown_language_is_refused_naming_the_known(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "explain", "--edition", "en", "caesar", "--lang", "de"]) == 2
    err = capsys.readouterr().err
    assert "no texts in 'de'" in err and "en, fr, nl, pl, uk" in err


def test_english_is_unchanged_by_the_texts(en: Ruleset) -> None:
    caesar = en.cards["caesar"]
    assert caesar.effects is not None
    rules = parse_script(caesar.effects)
    plain = Explainer(vocabulary(en)).rule(rules[0])
    assert plain == Explainer(vocabulary(en), load_texts(en)).rule(rules[0])
    assert plain.startswith("When the rules work out for you what a side adds")


def test_french_elision_joins_words_where_they_meet() -> None:
    texts = Texts("fr", contractions=(("que un", "qu'un"), ("de le", "du")))
    assert texts.contract("après que un joueur, à côté de le Marché") == \
        "après qu'un joueur, à côté du Marché"
    assert texts.contract("Que un") == "Qu'un"
    assert texts.contract("pourquoi que une") == "pourquoi que une"   # whole words only


def test_a_modders_pack_adds_the_words_of_its_plugin(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    moon_plugin(tmp_path)
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "lunatic.yaml").write_text(
        "id: lunatic\nkind: hero\nnames: {en: Lunatic, fr: Lunatique}\neffects: |\n"
        "  modify battle.total when the moon is full: add 1\n", encoding="utf-8")
    (tmp_path / "pack.yaml").write_text(
        "extends: fr\nplugins: {add: [./plugin.py]}\ncards: {add: [./cards]}\n",
        encoding="utf-8")
    (tmp_path / "words.yaml").write_text(
        "format: mnrules-words/1\nlanguage: fr\nwords:\n  condition:\n"
        "    the moon is full: \"c'est la pleine lune\"\n", encoding="utf-8")
    assert main(["cards", "explain", "lunatic", "--edition", str(tmp_path / "pack.yaml")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Lunatique:\n") and "si c'est la pleine lune : ajoutez 1." in out


@pytest.mark.parametrize(("text", "says"), [
    ("format: mnrules-words/2\nlanguage: fr\n", "format: expected 'mnrules-words/1'"),
    ("format: mnrules-words/1\nlanguage: [fr]\n", "language: expected a language code"),
    ("format: mnrules-words/1\nlanguage: fr\nframs: {}\n", "did you mean 'frames'?"),
    ("format: mnrules-words/1\nlanguage: fr\nframes:\n  substract: 'x {value}'\n",
     "frames.substract: no such sentence; did you mean 'subtract'?"),
    ("format: mnrules-words/1\nlanguage: fr\nframes:\n  add: 'ajoutez {valeur}'\n",
     "names {valeur}, which this text does not have (it has: {value})"),
    ("format: mnrules-words/1\nlanguage: fr\nwords:\n  conditoin: {}\n",
     "words.conditoin: no such kind of word; did you mean 'condition'?"),
    ("format: mnrules-words/1\nlanguage: fr\nwords:\n  action:\n    take {n} x: 'prenez {m}'\n",
     "names {m}"),
    ("format: mnrules-words/1\nlanguage: fr\nwords:\n  action:\n    a: [1, 2]\n",
     "expected a text"),
    ("format: mnrules-words/1\nlanguage: fr\ncontractions: [[a]]\n", "expected a pair"),
    ("format: mnrules-words/1\nlanguage: fr\nwords: [1]\n", "words: expected a mapping"),
    ("- 1\n", "a words file is a mapping"),
    ("format: mnrules-words/1\nlanguage: fr\nframes: {add: \"x\n", "is never closed"),
])
def test_a_bad_words_file_is_refused_with_its_place(tmp_path: Path, text: str,
                                                    says: str) -> None:
    path = tmp_path / "words.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MnrulesError) as caught:
        read_texts(path)
    assert says in str(caught.value)
    assert str(caught.value).startswith(str(path))


def test_a_binary_words_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "words.yaml"
    path.write_bytes(b"\x00\x01\xff\xfe" * 100)
    with pytest.raises(MnrulesError, match="binary file"):
        read_texts(path)


def test_every_sentence_of_every_language_keeps_to_its_fields() -> None:
    for lang, file in bundled_languages(GAME).items():
        _, got = read_texts(file)
        assert set(got["frames"]) <= set(ENGLISH), lang


def test_the_frames_test_can_fail(en: Ruleset) -> None:
    texts = load_texts(en, "fr")
    frames = dict(texts.frames)
    del frames["add"]
    words = {k: dict(v) for k, v in texts.words.items()}
    del words["condition"]["land battle"]
    words["condition"]["a word nobody has"] = "x"
    lacking = Texts("fr", frames, words, texts.whose, texts.names, texts.cards)
    found = missing_texts(lacking, vocabulary(en))
    assert "frames.add" in found and "words.condition.land battle" in found
    assert "words.condition.a word nobody has: no such word" in found


def test_cards_show_never_shows_the_printed_text_of_another_rule(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Caesar's file prints 'each of your legions adds +1': true of the English card, not
    of the PL pack's per-die variant, nor in French: there the text comes from the script."""
    assert main(["cards", "show", "--edition", "en", "caesar"]) == 0
    assert "text: When you are the active player, each of your legions adds +1" in \
        capsys.readouterr().out
    assert main(["cards", "show", "caesar", "--edition", "pl"]) == 0
    out = capsys.readouterr().out
    assert "legions adds" not in out
    assert "tekst (według skryptu): Gdy zasady wyliczają" in out and "za każdą kość" in out
    assert main(["cards", "show", "--edition", "en", "caesar", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "legions adds" not in out and "texte (d’après son script) : Quand les règles" in out


def test_a_pack_in_a_language_without_texts_explains_in_english(tmp_path: Path) -> None:
    """Asked for, a language without texts is refused; by default, English is written."""
    pack = tmp_path / "pack.yaml"
    pack.write_text("extends: en\nlanguage: la\n", encoding="utf-8")
    rules = load_ruleset(pack)
    assert load_texts(rules).lang == "en"
    with pytest.raises(MnrulesError, match="no texts in 'la'"):
        load_texts(rules, "la")


def test_counts_compared_and_divided_read_as_sentences(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from mnrules.language.highlight import grammar
    if "least" not in grammar().keywords:
        pytest.skip("the grammar has no comparisons yet")
    (tmp_path / "h.yaml").write_text(
        "id: counter\nkind: hero\nnames: {en: Counter}\neffects: |\n"
        "  modify income: add 1 coin per 2 markets you control\n"
        "  modify battle.total when at least 2 legions you have here: add 1\n",
        encoding="utf-8")
    out = explained(capsys, str(tmp_path))
    assert "add 1 coin for every 2, counting each market you control" in out
    assert "if counting each of your legion pieces in the battle's area or the province, " \
           "there are at least 2: add 1." in out
    out = explained(capsys, str(tmp_path), "--lang", "fr")
    assert "ajoutez 1 Impôt par tranche de 2, en comptant chaque Marché que vous contrôlez" \
        in out
    assert "si en comptant chacune de vos pièces Légion" in out


def test_a_rule_on_an_opponents_value_says_whose_value_it_changes(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Medusa's "an opponent ... rolls one die fewer": her text once read "for you", which
    # told her holder the opposite of what the card does
    medusa = str(TESTS / "language" / "modders" / "modder" / "cards")
    out = explained(capsys, medusa)
    assert "When the rules work out for another player the dice a side rolls" in out
    assert "for you the dice" not in out
    out = explained(capsys, medusa, "--lang", "fr")
    assert "calculent pour un autre joueur les dés" in out
    out = explained(capsys, medusa, "--lang", "nl")
    assert "(voor een andere speler)" in out


def _fill(pattern: str, vocab: Any) -> str:
    """The pattern with each placeholder filled by a value it takes, as a script says it."""
    s = vocab.sets
    values = {"n": "1", "good": min(s.goods), "unit": min(s.units), "card": min(s.cards),
              "track": min(s.tracks), "player": min(s.players), "name": "military",
              **{k: min(v).lower() for k, v in getattr(s, "named", {}).items() if v}}
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "x"), pattern)


def _scripts(vocab: Any) -> list[str]:
    """A rule using each word of the vocabulary where its kind goes."""
    q = vocab.words("quantity")[0].pattern
    e = vocab.words("event")[0].pattern
    place = {"condition": f"modify {q} when {{}}: add 1",
             "count": f"modify {q}: add 1 per {{}}",
             "action": f"after {e}: {{}}", "change": f"replace {e}: {{}}",
             "allowance": f"modify {q}: allow 1 {{}}", "include": f"modify {q}: include {{}}",
             "item": "offer {} for 1 coin"}
    # a set of ids a script cannot write (the board's provinces are upper case, the
    # grammar's words lower case) leaves its words unwritable: not explained here
    unwritable = {k for k, v in getattr(vocab.sets, "named", {}).items()
                  if any(x != x.lower() for x in v)}
    out = [place[k].format(_fill(w.pattern, vocab)) for k in place for w in vocab.words(k)
           if not any("{" + u + "}" in w.pattern for u in unwritable)]
    out += [f"modify {w.pattern}: add 1" for w in vocab.words("quantity")]
    out += [f"after {w.pattern}: take 1 good of your choice" for w in vocab.words("event")]
    return out


@pytest.mark.parametrize("lang", ("en", *LANGUAGES))
def test_every_word_explains_in_every_language(en: Ruleset, lang: str) -> None:
    """Not only the bundled cards' words: each word of the vocabulary, in a rule, reads
    as a sentence of the language, with no placeholder left and no English meaning."""
    vocab = vocabulary(en)
    writer = Explainer(vocab, load_texts(en, lang))
    english = {w.doc for kind in vocab.by_kind.values() for w in kind if len(w.doc) > 20}
    for script in _scripts(vocab):
        for rule in parse_script(script):
            text = writer.rule(rule)
            assert "<" not in text and "{" not in text, (script, text)
            if lang != "en":
                assert not [doc for doc in english if gist(doc) in text], (script, text)


def test_cards_words_lists_a_languages_texts_and_what_is_missing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "words", "--edition", "en", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "land battle" in out and "c'est une Bataille terrestre" in out
    assert out.rstrip().endswith("0 text(s) missing in fr")
    (tmp_path / "pack.yaml").write_text("extends: en\nlanguage: la\n", encoding="utf-8")
    (tmp_path / "words.yaml").write_text(
        "format: mnrules-words/1\nlanguage: la\nwords:\n  condition:\n"
        "    land battle: proelium terrestre est\n", encoding="utf-8")
    assert main(["cards", "words", "--lang", "la", "--edition",
                 str(tmp_path / "pack.yaml")]) == 1
    out, err = capsys.readouterr()
    assert "proelium terrestre est" in out and "(no text)" in out
    assert "missing in the la texts (words.yaml): frames.add" in err
    assert "missing in the la texts (words.yaml): words.condition.sea battle" in err


def test_every_games_word_files_cover_its_vocabulary() -> None:
    """Each game's bundled words.yaml (Mare Nostrum's four, Antike II's Russian) gives a
    text for every word and sentence the pack of its language uses, and none for a word
    that is gone."""
    checked = []
    for game in sorted(p for p in (ROOT / "editions").iterdir() if p.is_dir()):
        for lang, file in bundled_languages(game).items():
            if lang == "en":        # English is the vocabulary's own; its file only adds
                continue
            pack = file.parent / "pack.yaml"
            rules = load_ruleset(pack)
            assert missing_texts(load_texts(rules, lang), vocabulary(rules), stale=False) \
                == [], file
            checked.append((game.name, lang))
    assert ("antike2", "ru") in checked and ("mare_nostrum", "uk") in checked


def test_antike_in_russian_names_its_nations_and_know_how(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = explained(capsys, "metallum", "--edition", "antike2-ru")
    assert out.startswith("Metallum (металл):\n")
    assert "если неверно, что вы разработали Ноу-Хау Moneta (валюта): прибавьте 1." in out


@pytest.mark.parametrize("lang", ("en", *LANGUAGES))
def test_the_modders_heroes_explain_in_every_language(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """modders/modder/cards (the 22 heroes of issue 13, pure scripts): each explains, with
    its 'may pay ... to', 'if you do' and 'each opponent ...' parts as sentences."""
    cards = TESTS / "language" / "modders" / "modder" / "cards"
    out = explained(capsys, str(cards), "--lang", lang)
    assert "<" not in out and "{" not in out
    said = {"en": ("you may pay 2 coin to take 1 good of your choice",
                   "if you do, each other player, in seating order: "),
            "fr": ("si vous le souhaitez, payez 2 Impôt et prenez 1 ressource",
                   "si vous l'avez fait, chaque autre joueur"),
            "nl": ("naar keuze: betaal 2 munt en neem 1 grondstof", "als u dat deed: "),
            "pl": ("jeśli chcesz, zapłać 2 × moneta i weź", "jeśli to zrobiłeś, "),
            "uk": ("за бажанням сплатіть 2 × Монета і візьміть", "якщо ви це зробили, ")}
    for part in said[lang]:
        assert part in out, part


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_item_kinds_read_in_every_language(lang: str) -> None:
    """The bug of issue 35: 'the item is a building' read 'building' under --lang fr."""
    from mare_nostrum.words import ITEM_KINDS

    rules = load_ruleset("en")
    writer = Explainer(vocabulary(rules), load_texts(rules, lang))
    for kind in ITEM_KINDS:
        script = f"modify cost when the item is a {kind}: subtract 1\n"
        text = writer.rule(parse_script(script, "t.yaml")[0])
        assert not re.search(rf"\b{kind}\b", text), (kind, text)
