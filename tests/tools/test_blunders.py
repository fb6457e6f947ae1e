"""The blunder check (``mnrules bots check``, :mod:`mnrules.tools.blunders` and each game's
``mn_blunders``): a decision a one-step lookahead shows strictly dominated is flagged,
with a sentence in the pack's names, and the heuristic bots no longer make the ones it
found (issue 31). Positions are built by hand: no long runs here."""

from __future__ import annotations

from typing import Any

import pytest

from mnrules import load_ruleset, new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from mnrules.frontends.cli import main
from mnrules.language.present import presenter
from mnrules.tools.blunders import Finding, check, check_decision, format_report


def _first_legion_move(rules: Ruleset) -> Any:
    """Seed 1's first legion decision: Egypt, one legion in AEGYPTUS (and a fortress),
    JUDAEA next door Babylon's."""
    game = new_game(rules, 5, seed=1)
    bots = {p: make_bot("heuristic", 1009 + i, rules)
            for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None and dec.kind != "military.legion":
        game.apply(bots[dec.player].choose(game))
    assert dec is not None and dec.player == "egypt"
    assert game.state.control["JUDAEA"] == "babylon"
    game.state.units["JUDAEA"] = {"babylon": {"fortress": 1}}   # a lone fortress
    return game


def test_one_legion_against_a_lone_fortress_is_flagged(rules: Ruleset) -> None:
    game = _first_legion_move(rules)
    say = presenter(rules)
    move = ("move", "AEGYPTUS", "JUDAEA")
    assert move in game.pending.options
    found = check_decision(game, move, [], {}, say)
    assert [(f.kind, f.text, f.player) for f in found] == [(
        "hopeless attack", "Egypt attacks Babylon in Judaea with 1 legion against 1 "
        "fortress: he cannot win nor destroy a unit, and must lose one.", "egypt")]
    assert check_decision(game, ("done",), [], {}, say) == []
    # the bot does not make it
    assert make_bot("heuristic", 7, rules).choose(game) != move


def test_an_attack_begun_is_not_left_hopeless(rules: Ruleset) -> None:
    game = _first_legion_move(rules)
    state = game.state
    # one legion moved into the fortress's province this turn, another still at home
    state.add_units("JUDAEA", "egypt", "legion")
    state.add_units("AEGYPTUS", "egypt", "legion")
    state.stack[-1]["arrived"] = {"JUDAEA": 1}
    dec = game.pending
    assert dec is not None and ("move", "AEGYPTUS", "JUDAEA") in dec.options
    say = presenter(rules)
    assert [f.kind for f in check_decision(game, ("done",), [], {}, say)] == ["hopeless attack"]
    choice = make_bot("heuristic", 7, rules).choose(game)
    assert choice == ("move", "AEGYPTUS", "JUDAEA")      # it sends the second one in
    assert check_decision(game, choice, [], {}, say) == []


def test_a_trade_that_buys_back_what_it_sold_is_flagged() -> None:
    from antike2.blunders import check as trades

    rules = load_ruleset("antike2")
    game = new_game(rules, 3, seed=1)
    dec = game.pending
    assert dec is not None
    me = dec.player
    say = presenter(rules)
    notes: dict[str, Any] = {}
    stock = game.state.stock[me]

    def events(*evs: tuple[str, dict[str, Any]]) -> list[Event]:
        return [Event(kind, me, data) for kind, data in evs]
    trades(game, me, "x", None, events(("turn_start", {})), notes, say)  # type: ignore[arg-type]
    # two marble sold for an iron
    stock["marble"] -= 2
    stock["iron"] += 1
    first = trades(game, me, "x", None, events(
        ("paid", {"what": "marble", "why": "bank_trade"}),
        ("paid", {"what": "marble", "why": "bank_trade"}),
        ("trade", {"paid": 2, "took": ["iron"]})), notes, say)
    assert first == []
    # then that iron and a gold paid for a marble: a loop both ways
    stock["iron"] -= 1
    stock["gold"] -= 1
    stock["marble"] += 1
    second = trades(game, me, "x", None, events(
        ("paid", {"what": "iron", "why": "bank_trade"}),
        ("paid", {"what": "gold", "why": "bank_trade"}),
        ("trade", {"paid": 2, "took": ["marble"]})), notes, say)
    name = say.player(me)
    played = game.state.round
    assert second == [("trade loop", f"{name} pays the bank 1 iron taken from the bank "
                       "earlier this turn and not spent since (paying 1 gold and 1 iron for "
                       "1 marble).", me, played)]
    # the iron went back to the bank: what was bought is not all idle
    assert trades(game, me, "x", None, events(("turn_end", {})), notes, say) == []
    # a turn whose one trade buys what it never spends: idle
    trades(game, me, "x", None, events(("turn_start", {})), notes, say)
    stock["gold"] -= 2
    stock["iron"] += 1
    assert trades(game, me, "x", None, events(
        ("paid", {"what": "gold", "why": "bank_trade"}),
        ("paid", {"what": "gold", "why": "bank_trade"}),
        ("trade", {"paid": 2, "took": ["iron"]})), notes, say) == []
    # the turn's end is read at the next nation's decision, maybe in the next round:
    # the finding is the nation's, in the round its turn was played
    game.state.round += 1
    other = next(p for p in game.state.players if p != me)
    end = trades(game, other, "x", None, events(("turn_end", {})), notes, say)
    assert end == [("idle trade", f"{name} trades with the bank (1 trade, paying 2 gold for "
                    "1 iron) and spends none of it before the turn ends: the same trades "
                    "could wait for the next turn.", me, played)]


def test_the_report_counts_by_kind_and_the_command_runs(rules: Ruleset,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    report = check(rules, 3, 1, 2, ["heuristic"], cap=2)
    assert report.games == 1 and report.decisions > 50 and not report.findings
    report.findings = [Finding("hopeless attack", f"sentence {i}", 5, 3, "rome")
                       for i in range(3)]
    report.checked["hopeless attack"] = 40
    text = format_report(report, "t", presenter(rules), show=2)
    assert text.splitlines() == [
        f"t: 1 games, {report.decisions:,} decisions, 3 strictly dominated",
        "  hopeless attack: 3 of 40 checked",
        f"  resources thrown away: 0 of {report.checked['resources thrown away']} checked",
        "hopeless attack:",
        "  seed 5, Round 3: sentence 0", "  seed 5, Round 3: sentence 1", "  ... and 1 more"]
    assert main(["bots", "check", "--edition", "en",
                 "--bots", "heuristic", "--players", "3", "--games", "1",
                 "--max-rounds", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "0 strictly dominated" in out


def _first_build_turn(rules: Ruleset, screen: dict[str, int]) -> Any:
    """Seed 1's first build turn, the builder's screen set to ``screen``."""
    game = new_game(rules, 5, seed=1)
    bots = {p: make_bot("heuristic", 1009 + i, rules)
            for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None and dec.kind != "build.action":
        game.apply(bots[dec.player].choose(game))
    assert dec is not None
    game.state.screens[dec.player] = dict(screen)
    return game


def test_ending_a_build_turn_that_discards_a_legions_price_is_flagged(
        rules: Ruleset) -> None:
    """FR 3.1 / NL/PL/UK 3.0: he keeps 2 coins at the end of his build turn. With 5
    coins, the 3 he loses would buy a legion: ending the turn first is dominated."""
    game = _first_build_turn(rules, {"coin": 5})
    me = game.pending.player
    say = presenter(rules)
    found = check_decision(game, ("end",), [], {}, say)
    assert [(f.kind, f.player) for f in found] == [("resources thrown away", me)]
    assert found[0].text.startswith(f"{say.player(me)} ends his build turn throwing away "
                                    "3 coins, which alone would pay for 1 ")
    # buying first is not flagged, and the bot does not end the turn
    buy = next(o for o in game.pending.options if o != ("end",))
    assert check_decision(game, buy, [], {}, say) == []
    assert make_bot("heuristic", 7, rules).choose(game) != ("end",)


def test_what_the_storage_keeps_is_never_thrown_away(rules: Ruleset) -> None:
    """4 coins: 2 kept, the 2 lost pay for nothing (every item costs 3 or more)."""
    game = _first_build_turn(rules, {"coin": 4})
    assert check_decision(game, ("end",), [], {}, presenter(rules)) == []


def test_goods_lost_count_as_a_set_of_different_types(rules: Ruleset) -> None:
    """Goods go whole: three of one type are no set (FR 3.1: des Marchandises toutes
    différentes), three types are."""
    say = presenter(rules)
    same = _first_build_turn(rules, {"grain": 3})
    assert check_decision(same, ("end",), [], {}, say) == []
    mixed = _first_build_turn(rules, {"grain": 1, "wine": 1, "metal": 1})
    assert [f.kind for f in check_decision(mixed, ("end",), [], {}, say)] == \
        ["resources thrown away"]


def test_nothing_lost_matters_once_the_phase_decides_the_game(rules: Ruleset) -> None:
    """NL 6.2: a fifth hero or wonder bought wins at the end of the phase; once one is
    claimed, what another buys with his losses changes nothing."""
    game = _first_build_turn(rules, {"coin": 5})
    game.state.vars["victory.build"] = {"fifth": ["rome"]}
    assert check_decision(game, ("end",), [], {}, presenter(rules)) == []
