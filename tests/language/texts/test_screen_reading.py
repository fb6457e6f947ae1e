"""The screen read like a player, in every pack: a count says what it counts and agrees
with its number (the defender's force, a price, the pieces on the table, goods), the end
of a game says "the winner is" or "the winners are" in the player's language, a replay
speaks the log's language with the pack's names, the kernel's own ends of a game are
named, and a narrow terminal wraps a table's words rather than cutting them off."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from mare_nostrum.reports import good, goods, table
from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.core.effects import Event
from mnrules.core.engine import Game
from mnrules.frontends.cli import main
from mnrules.frontends.terminal import Terminal
from mnrules.language.present import presenter

PACKS = ["en", "fr", "nl", "pl", "uk"]


def _battle(pack: str) -> str:
    rules = load_ruleset(pack)
    game = new_game(rules, players=5, seed=1)
    return presenter(rules).event(game, Event("battle", "rome", {
        "area": "ITALIA", "kind": "land", "defender": "greece",
        "units": {"rome": 2, "greece": 5}, "rolls": {"rome": [5, 0], "greece": [3, 1, 1]},
        "hits": {"rome": 1, "greece": 2}}), None)


@pytest.mark.parametrize(("pack", "defender"), [
    ("en", "Greece (5 units)"), ("fr", "Grèce (5 unités)"), ("nl", "Griekenland (5 eenheden)"),
    ("pl", "Grecja (5 jednostek)"), ("uk", "Греція (5 одиниць)")])
def test_the_defenders_force_is_counted_in_units(pack: str, defender: str) -> None:
    assert defender in _battle(pack)


def test_the_defenders_hits_have_their_word() -> None:
    assert _battle("en").endswith("Rome scores 1 hit, Greece 2 hits.")


def _at(pack: str, kind: str, seed: int = 3) -> Game[Any]:
    game = new_game(load_ruleset(pack), players=5, seed=seed)
    bots = {p: RandomBot(i) for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None and dec.kind != kind:
        game.apply(bots[dec.player].choose(game))
    assert game.pending is not None
    return game


@pytest.mark.parametrize(("pack", "unit"), [
    ("en", r"— costs \d+ resources?$"), ("fr", r"— coûte \d+ ressources?$"),
    ("nl", r"— kost \d+ grondstof(fen)?$"), ("pl", r"— koszt \d+ surow(iec|ce|ców)$"),
    ("uk", r"— ціна \d+ ресурс(и|ів)?$")])
def test_a_price_says_what_it_costs(pack: str, unit: str) -> None:
    game = _at(pack, "build.action")
    dec = game.pending
    assert dec is not None
    texts = presenter(game.rules).options(game, dec)
    priced = [t for t in texts if "—" in t]
    assert priced and all(re.search(unit, t) for t in priced), priced


@pytest.mark.parametrize(("pack", "lang", "many"), [
    ("en", None, "5 legions"), ("pl", None, "5 legionów"), ("uk", None, "5 легіонів"),
    ("en", "fr", "5 légions"), ("nl", None, "5 legioenen")])
def test_the_tables_pieces_agree_with_their_number(pack: str, lang: str | None,
                                                  many: str) -> None:
    rules = load_ruleset(pack)
    game = new_game(rules, players=5, seed=1)
    game.state.units.setdefault("LATIUM", {})["rome"] = {"legion": 5}
    shown = table(presenter(rules, lang), game, "rome")
    cells = [c for sec in shown["sections"] for row in sec["rows"] for c in row]
    assert any(many in c for c in cells)
    assert not any(re.search(r"\b5 (legion|legioen|легіон)\b", c) for c in cells)


@pytest.mark.parametrize(("pack", "counted"), [
    ("en", "2 coins"), ("fr", "2 Impôts"), ("nl", "2 munten"), ("pl", "5 monet"),
    ("uk", "5 Монет")])
def test_goods_are_counted_with_their_plural(pack: str, counted: str) -> None:
    say = presenter(load_ruleset(pack))
    n = int(counted.split()[0])
    assert re.fullmatch(rf"{counted}\b.*", goods(say, {"coin": n})), goods(say, {"coin": n})


def test_several_legendary_goods_read_as_a_plural() -> None:
    say = presenter(load_ruleset("en"))
    assert goods(say, {"legendary": 2}) == "2 legendary goods"


@pytest.mark.parametrize(("pack", "key", "text"), [
    ("pl", "legendary:spices", "legendarne przyprawy"),
    ("pl", "legendary:oil", "legendarny olej"),
    ("uk", "legendary:wine", "легендарне Вино"),
    ("nl", "legendary:gold", "legendarisch goud")])
def test_legendary_agrees_with_its_good(pack: str, key: str, text: str) -> None:
    assert good(presenter(load_ruleset(pack)), key) == text


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(("pack", "one"), [
    ("en", "the winner is "), ("fr", "le vainqueur est "), ("pl", "zwycięża "),
    ("uk", "переможець — "), ("nl", "de winnaar is ")])
def test_the_end_of_play_names_one_winner_as_one(pack: str, one: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "play", "--edition", pack, "--players", "3", "--seed", "3",
               "--bots", "heuristic")
    last = out.splitlines()[-1]
    assert one in last and "(s)" not in last, last


def test_a_game_at_its_round_cap_names_why_nobody_won(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "play", "--game", "antike2", "--lang", "ru", "--players", "3",
               "--max-rounds", "2")
    assert out.splitlines()[-1].endswith("никто не победил (предел раундов достигнут)")
    out = _run(capsys, "play", "--edition", "fr", "--players", "3", "--max-rounds", "1")
    assert "round cap" not in out and "limite de tours atteinte" in out


def test_a_replay_speaks_the_logs_language_with_its_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    _run(capsys, "play", "--edition", "fr", "--players", "3", "--seed", "3",
         "--bots", "heuristic", "--log", str(log))
    winners = json.loads(log.read_text().splitlines()[-1]).get("winners")
    out = _run(capsys, "replay", str(log))
    assert "choix rejoués" in out and "le vainqueur est" in out, out
    assert "winner" not in out and "rome" not in out and "carthage " not in out
    out = _run(capsys, "replay", str(log), "--lang", "uk")
    assert "відтворено вибори" in out and "переможець —" in out, out
    assert winners is None or isinstance(winners, list)


def test_a_narrow_terminal_reads_the_table_a_row_a_line_rather_than_cutting_it() -> None:
    """At 80 columns the empires' table does not fit: each empire is a line of labelled
    values, so no header or name is cut ("…") or broken mid-word ("Province" / "s")."""
    pytest.importorskip("rich")
    rules = load_ruleset("en")
    game = new_game(rules, players=5, seed=1)
    out = io.StringIO()
    term = Terminal({"rome"}, {}, out=out, colour=True)
    term.watch(game)
    term.show_table(game, "rome")
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
    assert "…" not in text
    rome = next(line for line in text.splitlines() if line.startswith("  Rome \u2014 "))
    assert "Provinces: 3" in rome and "Resources: 9" in rome and "Tiles: Caesar" in rome


@pytest.mark.parametrize("pack", ["fr", "nl", "pl", "uk", "antike2-ru", "antike2-la"])
def test_the_front_ends_own_sentences_speak_every_packs_language(pack: str) -> None:
    """The terminal's help, menus and undo, the web app's buttons: a pack in another
    language than English says each in its own (the kernel's English is the fallback)."""
    from mnrules.language.present import KERNEL_MESSAGES, PLACEHOLDER

    say = presenter(load_ruleset(pack))
    # the header is the program's name and values ("seed" is Dutch too); a template of
    # punctuation alone ("{label}: {value}") has no word to translate
    english = [k for k in KERNEL_MESSAGES if k.startswith(("ui.", "decision.", "play."))
               and k != "play.header" and say.messages[k] == KERNEL_MESSAGES[k]
               and f"{k}.other" not in say.messages        # said in counted forms
               and re.search(r"[^\W\d_]", PLACEHOLDER.sub("", KERNEL_MESSAGES[k]))]
    assert english == []


def _antike_read(pack: str, lang: str | None = None, seed: int = 2) -> list[str]:
    """Every event, question and option of a bot game of Antike II as its players read
    them."""
    rules = load_ruleset(pack)
    game = new_game(rules, players=3, seed=seed, round_cap=12)
    say = presenter(rules, lang)
    read: list[str] = []
    game.listeners.append(lambda ev: read.append(say.event(game, ev, None)))
    bots = {p: RandomBot(i) for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None:
        read.append(say.prompt(game, dec))
        read.extend(say.options(game, dec))
        game.apply(bots[dec.player].choose(game))
    return [t for t in read if t]


def test_antike_english_counts_and_articles() -> None:
    read = _antike_read("antike2")
    assert [t for t in read if re.search(r"\ba [aeio]", t)] == []       # "pay a iron"
    assert [t for t in read if re.search(r"pay \d+ for|raised 1 units", t)] == []
    assert any(re.search(r"is to pay \d+ resources? for the spaces", t) for t in read)


@pytest.mark.parametrize(("pack", "lang"), [("antike2-la", None), ("antike2", "la")])
def test_antike_in_latin_reads_latin(pack: str, lang: str | None) -> None:
    read = _antike_read(pack, lang)
    english = re.compile(r"\b(moves|pays|pay|raises|founds|takes|the|your|choose|paying)\b")
    assert [t for t in read if english.search(t)] == []
    assert any("procedit" in t for t in read)


def test_simulate_and_sweep_reports_use_the_packs_names(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "simulate", "--edition", "pl", "--players", "3", "--games", "6",
               "--seed", "1", "--jobs", "1", "--quiet")
    assert "Rzym" in out and "Kartagina" in out and "Wiszące Ogrody" in out
    ids = re.compile(r"\b(rome|greece|carthage|temple_of_artemis|castor_pollux|fifth|"
                     r"leadership|prestige|conquest|military|culture)\b")
    assert ids.findall(out) == []
    out = _run(capsys, "sweep", "--param", "hit_divisor=4..5", "--games", "2", "--players",
               "3", "--edition", "uk", "--jobs", "1", "--quiet")
    assert "Карфаген" in out and ids.findall(out) == []


def test_cards_show_and_list_speak_the_packs_words(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "cards", "show", "caesar", "--edition", "uk")
    assert out.startswith("Цезар (стартовий герой)") and "текст (за скриптом): " in out
    out = _run(capsys, "cards", "show", "hercules", "--edition", "fr")
    assert "bonus : Commerce +2, Politique +2, Militaire +2" in out
    out = _run(capsys, "cards", "list", "--edition", "pl")
    assert re.search(r"antigone +bohater +Antygona +Handel \+2, Kultura \+2", out)
    out = _run(capsys, "cards", "list", "--game", "antike2", "--lang", "ru")
    assert "know-how" not in out and "ноу-хау" in out


def test_french_elides_de_before_a_vowel() -> None:
    rules = load_ruleset("fr")
    game = _at("fr", "trade.pick", seed=2)
    say = presenter(rules)
    assert say.say("option.pick", good="Impôt", source=say.player("egypt")) == \
        "Impôt de l’Égypte"
    assert say.say("option.move", unit="légion", source="Aegyptus", to="Italia") == \
        "légion d’Aegyptus vers Italia"
    assert say.say("option.pick", good="Impôt", source=say.player("rome")) == "Impôt de Rome"
    dec = game.pending
    assert dec is not None
    assert not [t for t in say.options(game, dec) if re.search(r"\bde [AEIOUÉ]", t)]


def test_french_gives_the_empires_their_articles_after_a_preposition() -> None:
    """A country takes its article (« à la Grèce », « de l’Égypte »), a city none (« à
    Rome », « de Carthage »), and a free purchase is « sans rien payer », never « paie
    rien »."""
    say = presenter(load_ruleset("fr"))
    pick = [say.say("event.trade_pick", player=say.player("rome"), good="Or",
                    source=say.player(p)) for p in ("greece", "egypt", "babylon")]
    assert pick == ["Rome prend Or à la Grèce.", "Rome prend Or à l’Égypte.",
                    "Rome prend Or à Babylone."]
    assert say.say("event.title_from", player="Rome", title="Leader du Commerce",
                   source=say.player("greece")).endswith("à la place de la Grèce.")
    assert say.say("decision.trade.giveback", player="Rome", to=say.player("egypt")) \
        .startswith("Rome, donnez à l’Égypte une ressource")
    assert say.say("event.built_marker", player="Rome", where="Gallia",
                   paid=say.say("word.free")).endswith("en Gallia sans rien payer.")
    assert say.say("event.built_marker", player="Rome", where="Gallia",
                   paid="3 Impôts").endswith("en Gallia et paie 3 Impôts.")
    assert say.say("event.trade_pick", player="Rome", good="Or", source="Phénicie") == \
        "Rome prend Or à Phénicie."             # a name the cases do not know: the default
    # French typography: a space before a colon and a semicolon, in the offers too
    assert say.say("ui.labelled", label="Rome", value="Or") == "Rome : Or"
    assert say.say("ui.list_sep") == " ; "


@pytest.mark.parametrize(("pack", "free", "paid"), [
    ("pl", "nic nie płaci (za darmo)", "płaci 3 monety"),
    ("uk", "нічого не платить (безкоштовно)", "платить 3 монети")])
def test_a_free_purchase_reads_with_its_double_negation(pack: str, free: str,
                                                         paid: str) -> None:
    """Polish and Ukrainian deny with two negatives: « nic nie płaci », never « płaci
    nic »."""
    say = presenter(load_ruleset(pack))
    assert say.say("event.built_tile", player="X", tile="Y",
                   paid=say.say("word.free")).endswith(f"; {free}.")
    assert say.say("event.built_tile", player="X", tile="Y",
                   paid=paid.split(" ", 1)[1]).endswith(f"; {paid}.")


def test_a_case_no_messages_file_declares_is_refused_at_its_line(tmp_path: Path) -> None:
    from mnrules.errors import MnrulesError
    from mnrules.language.present import read_messages

    f = tmp_path / "messages.yaml"
    f.write_text("format: mnrules-messages/1\nlanguage: fr\ncases:\n  à: {default: "
                 "\"à {name}\"}\nmessages:\n  event.trade_pick: \"{player} prend {good} "
                 "{source:a}.\"\n", encoding="utf-8")
    with pytest.raises(MnrulesError) as err:
        read_messages(f, {}, {}, {})
    assert f"{f}:6:" in str(err.value) and "{source:a}" in str(err.value) \
        and "(declared: à)" in str(err.value), str(err.value)


@pytest.mark.parametrize(("pack", "one", "two"), [
    ("fr", "Fin de la partie : Rome gagne — ", "Fin de la partie : Rome et Grèce gagnent — "),
    ("pl", "Koniec gry: wygrywa Rzym — ", "Koniec gry: wygrywają Rzym i Grecja — "),
    ("nl", "Einde van het spel: Rome wint — ", "Einde van het spel: Rome en Griekenland winnen"),
    ("en", "Game over: Rome won — Fame (a fifth hero or wonder).", "Rome and Greece won")])
def test_the_game_over_line_agrees_with_its_winners(pack: str, one: str, two: str) -> None:
    say = presenter(load_ruleset(pack))
    assert say.outcome(["rome"], "fifth").startswith(one), say.outcome(["rome"], "fifth")
    assert two in say.outcome(["rome", "greece"], "fifth")
    assert not re.search(r"\([^()]*\(", say.outcome(["rome"], "fifth"))   # no nesting


@pytest.mark.parametrize(("pack", "read"), [
    ("en", "Rome pillages the legendary city in Asia and takes coin or a legendary good."),
    ("fr", "Rome pille : cité légendaire en Asia, et prend Impôt ou une ressource légendaire."),
    ("pl", " lub "), ("uk", " або "), ("nl", " of ")])
def test_a_pillage_whose_gain_is_the_conquerors_choice_reads_both(pack: str, read: str
                                                                  ) -> None:
    """A legendary city pillaged gives a coin or a legendary good, the conqueror's choice
    (digest 9.6, 4.3.1): the event says both, never the parameter's "coin|legendary"."""
    rules = load_ruleset(pack)
    game = new_game(rules, players=5, seed=1)
    text = presenter(rules).event(game, Event("pillage", "rome", {
        "province": "ASIA", "slot": 0, "building": "legendary",
        "gains": ["coin|legendary"]}), None)
    assert "|" not in text and "legendary\n" not in text
    assert read in text
