"""``mnrules play``'s round summaries are said by the presentation layer in the language
asked (``--lang``, else the pack's), for both games: no English word of the sentence
templates and no internal id in a French, Ukrainian or Russian summary; counts take the
language's plural (2 легиона, 5 легионов, 21 легион)."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT, TESTS
from mnrules import load_ruleset, new_game
from mnrules.content.yamlsource import load_yaml
from mnrules.core.effects import Event
from mnrules.frontends.cli import main
from mnrules.language.present import KERNEL_MESSAGES, PLACEHOLDER, plural_category, presenter
from test_present import LEAKS

EDITIONS = ROOT / "editions"
# the scan of test_present.py, less brackets (a list of titles is bracketed), and
# upper-case ids with underscores (MARE_GALLICUM)
IDS = re.compile(LEAKS.pattern.replace(r"[{}\[\]]|", r"[{}]|") + r"|\b[A-Z]+_[A-Z_]+\b")
WORD = re.compile(r"[^\W\d_]{3,}")


def messages(game: str, pack: str) -> dict[str, str]:
    data = load_yaml(EDITIONS / game / pack / "messages.yaml").data
    return {str(k): str(v) for k, v in (data.get("messages") or {}).items()}


def words(texts: list[str]) -> set[str]:
    return {w.lower() for t in texts for w in WORD.findall(PLACEHOLDER.sub(" ", t))}


def english_words(game: str, base: str, lang_pack: str) -> set[str]:
    """The words of the English templates a reader of ``lang_pack`` never reads in his
    own language's templates and names (``provinces`` is French too)."""
    english = words([*messages(game, base).values(), *KERNEL_MESSAGES.values()])
    own = words(list(messages(game, lang_pack).values()))
    say = presenter(load_ruleset(lang_pack))
    own |= words([n for kind in say.names.values() for n in kind.values()])
    return english - own


def summary(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    pack = [] if "--edition" in args or "--load" in args else ["--edition", "en"]
    assert main(["play", *pack, *args]) == 0
    out = capsys.readouterr().out.splitlines()
    # the header names the game as its pack does (the pack's own data, not a sentence)
    out[0] = re.sub(r"^mnrules ?: [^;]*;", "mnrules;", out[0])
    assert len(out) > 20
    return out


def english_in(body: list[str], english: set[str]) -> list[str]:
    return [f"{ln!r}: {sorted(set(w.lower() for w in WORD.findall(ln)) & english)}"
            for ln in body if set(w.lower() for w in WORD.findall(ln)) & english]


def ids_in(body: list[str]) -> list[str]:
    return [f"{ln!r}: {IDS.findall(ln)}" for ln in body if IDS.findall(ln)]


@pytest.mark.parametrize(("args", "lang_pack", "first"), [
    (("--edition", "fr", "--lang", "fr"), "fr", "Tour 1"),
    (("--edition", "en", "--lang", "fr"), "fr", "Tour 1"),
    (("--edition", "uk"), "uk", "Раунд 1"),
    (("--edition", "pl"), "pl", "Runda 1"),
])
def test_a_mare_nostrum_summary_speaks_the_language_asked(
        capsys: pytest.CaptureFixture[str], args: tuple[str, ...], lang_pack: str,
        first: str) -> None:
    body = summary(capsys, *args, "--seed", "4")
    assert body[1] == first
    english = english_words("mare_nostrum", "en", lang_pack)
    assert {"the", "takes", "plays", "each", "offers", "round", "winner", "players",
            "stopped"} <= english
    assert english_in(body, english) == []
    assert ids_in(body) == []


def test_antike2_in_russian_speaks_russian_to_the_end(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    body = summary(capsys, "--game", "antike2", "--players", "5", "--seed", "1",
                   "--lang", "ru")
    assert body[1] == "Раунд 1" and any("города" in ln for ln in body)
    assert re.search(r"^mnrules; 5 игроков \(.*\); зерно 1$", body[0])
    assert body[-1].startswith("Игра окончена в раунде ")
    english = english_words("antike2", "antike2", "antike2-ru")
    assert {"cities", "stock", "paid", "moves", "trades"} <= english
    assert english_in(body, english) == []
    assert ids_in(body) == []
    assert any("перемещает" in ln for ln in body)


def test_antike2_in_latin_says_the_summary_in_latin(capsys: pytest.CaptureFixture[str]
                                                   ) -> None:
    body = summary(capsys, "--game", "antike2", "--players", "3", "--seed", "2",
                   "--rounds", "6", "--lang", "la")
    assert body[1] == "Circuitus 1" and any("urbes" in ln for ln in body)
    assert not any(re.search(r"\b(cities|stock|and)\b", ln) for ln in body[1:-1])


@pytest.mark.parametrize(("lang", "cats"), [
    ("ru", ["one", "few", "many", "one", "many", "many", "few"]),
    ("uk", ["one", "few", "many", "one", "many", "many", "few"]),
    ("pl", ["one", "few", "many", "many", "many", "many", "few"]),
    ("fr", ["one", "other", "other", "other", "other", "other", "other"]),
    ("en", ["one", "other", "other", "other", "other", "other", "other"]),
])
def test_the_plural_categories_are_cldrs(lang: str, cats: list[str]) -> None:
    assert [plural_category(lang, n) for n in (1, 2, 5, 21, 11, 12, 22)] == cats
    assert plural_category("fr", 0) == "one" and plural_category("en", 0) == "other"


@pytest.mark.parametrize(("pack", "lang", "word", "said"), [
    ("antike2", "ru", "legion", ["1 легион", "2 легиона", "5 легионов", "21 легион"]),
    ("antike2", "ru", "galley", ["1 галера", "2 галеры", "5 галер", "21 галера"]),
    ("antike2", None, "legion", ["1 legion", "2 legions", "5 legions", "21 legions"]),
    ("antike2", "la", "legion", ["1 legio", "2 legiones", "5 legiones", "21 legiones"]),
    ("uk", None, "resource", ["1 ресурс", "2 ресурси", "5 ресурсів", "21 ресурс"]),
    ("uk", None, "unit", ["1 одиниця", "2 одиниці", "5 одиниць", "21 одиниця"]),
    ("pl", None, "resource", ["1 surowiec", "2 surowce", "5 surowców", "21 surowców"]),
    ("pl", None, "unit", ["1 jednostka", "2 jednostki", "5 jednostek", "21 jednostek"]),
    ("pl", None, "player", ["1 gracz", "2 gracze", "5 graczy", "21 graczy"]),
    ("uk", None, "round", ["1 раунд", "2 раунди", "5 раундів", "21 раунд"]),
    ("antike2", "ru", "player", ["1 игрок", "2 игрока", "5 игроков", "21 игрок"]),
    ("en", None, "player", ["1 player", "2 players", "5 players", "21 players"]),
    ("fr", None, "resource", ["1 ressource", "2 ressources", "5 ressources",
                              "21 ressources"]),
])
def test_counts_take_the_languages_plural(pack: str, lang: str | None, word: str,
                                          said: list[str]) -> None:
    say = presenter(load_ruleset(pack), lang)
    assert [say.count(n, word) for n in (1, 2, 5, 21)] == said


@pytest.mark.parametrize(("game", "base", "others"), [
    ("mare_nostrum", "en", ["fr", "nl", "pl", "uk"]),
    ("antike2", "antike2", ["antike2-ru", "antike2-la"]),
])
def test_every_language_gives_every_plural_form_its_rule_uses(game: str, base: str,
                                                              others: list[str]) -> None:
    english = messages(game, base)
    counted = {k[len("plural."):k.rindex(".")] for k in english if k.startswith("plural.")}
    assert counted
    for pack in others:
        own = messages(game, pack)
        lang = str(load_yaml(EDITIONS / game / pack / "messages.yaml").data["language"])
        needed = {plural_category(lang, n) for n in range(200)}
        missing = [f"plural.{w}.{c}" for w in sorted(counted) for c in sorted(needed)
                   if f"plural.{w}.{c}" not in own]
        assert missing == [], pack


def test_a_battle_in_the_russian_summary_counts_the_losses() -> None:
    from antike2.reports import round_lines

    rules = load_ruleset("antike2")
    game = new_game(rules, 3, seed=1)
    say = presenter(rules, "ru")
    red, other = game.state.players[:2]
    lines = round_lines(say, game, 4, [
        Event("battle", red, {"defender": other, "area": "MARE_GALLICUM", "unit": "galley",
                              "lost": {red: 2, other: 2}}),
        Event("battle", other, {"defender": red, "area": "NARBO", "unit": "legion",
                                "lost": 5})])
    assert lines[0] == "Раунд 4"
    said = "\n".join(lines)
    assert "сражается с Зеленым в Mare Gallicum (потери каждого: 2 галеры)" in said
    assert "в Narbo (потери каждого: 5 легионов)" in said


def test_the_scan_sees_ids() -> None:
    assert ids_in(["Battle in MARE_GALLICUM", "Rome takes legendary:gems", "[Chef]"]) == [
        "'Battle in MARE_GALLICUM': ['MARE_GALLICUM']",
        "'Rome takes legendary:gems': ['legendary:']"]


def test_a_refusal_names_the_area_not_its_id() -> None:
    from antike2.conquest import refusal

    game = new_game(load_ruleset("antike2"), 3, seed=1)
    found = refusal(game, game.state.players[0], "MARE_GALLICUM")
    assert found is not None
    assert found[1] == "Mare Gallicum holds no city nor neutral temple"


def test_a_game_with_no_summary_is_summed_up_by_its_reports(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Tic-tac-toe gives no ``round_summary``: each player's report, by the pack's
    names, under the kernel's round line."""
    pack = str(TESTS / "kernel" / "tictactoe" / "pack.yaml")
    rules = load_ruleset(pack)
    game = new_game(rules, 2, seed=1)
    assert rules.definition.presentation.round_summary(say=presenter(rules), game=game,
                                                       round=1, events=[]) is None
    assert main(["play", "--edition", pack, "--players", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Round 1\n  Crosses " in out and "\n  x " not in out
