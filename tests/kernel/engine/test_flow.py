"""Rounds and phases as the kernel runs them, for any game (mnrules/core/flow.py), shown on
"the watch", a toy game written here as a modder would write one (a pack and a plugin
file beside it): two lighthouse keepers, north and south, play rounds of two phases.
At dawn each keeper (each of ``vars["awake"]`` if set) is asked in turn whether he
lights the lamp (only in the rounds ``vars["asks_in"]`` lists, if set); lighting it costs
oil (a quantity cards may modify) and is an event (``lit``) cards may replace or react
to. Dusk asks nothing. A keeper who has lit the lamp ``vars["goal"]`` times wins at the
end of dawn. The game knows nothing of rounds: the kernel runs them.

The rules of rounds stated here: each round runs the pack's phases in order, each
started and ended once; what reacts to a phase's start runs before the phase; a game
won at a phase's end starts no further phase; the round cap ends the game with nobody
winning, between rounds; the driver's stop pauses a game at the start of the round it
names, and the game goes on from there; and a game whose rounds ask nobody anything
ends after ten such rounds in a row, saying so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnrules import Game, load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event, Trigger
from mnrules.core.engine import CONTINUE, DONE, Decision, Frame, Outcome, Step
from mnrules.core.flow import IDLE_ROUNDS, IDLE_VICTORY
from mnrules.hooks.contract import DecisionKind, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl

KEEPERS = ["north", "south"]


def lamps_lit(game: Game[Any], keeper: str) -> int:
    return sum(1 for who, _ in game.state.vars.get("lit", []) if who == keeper)


class Dawn(Step[Any]):
    """Each keeper in seating order is asked whether he lights the lamp: the step pushes
    one question per keeper and hands its place to them (it returns DONE after pushing,
    so it is not advanced again)."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        asks_in = game.state.vars.get("asks_in")
        if asks_in is None or game.state.round in asks_in:
            awake = game.state.vars.get("awake", game.state.players)
            game.push_all(("watch.ask", {"keeper": p}) for p in awake)
        return DONE


class Ask(Step[Any]):
    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        if frame.get("answered"):
            return DONE
        return Decision(frame["keeper"], "watch.rise", "light the lamp?", ("rise", "sleep"))

    def choose(self, game: Game[Any], frame: Frame, choice: Any) -> None:
        frame["answered"] = True
        keeper = frame["keeper"]
        if choice == "rise":
            oil = game.fold("watch.oil", 1, keeper=keeper)
            game.perform(Event("lit", keeper, {"oil": oil}),
                         lambda e: game.state.vars.setdefault("lit", []).append(
                             [e.player, e.data["oil"]]))


class Dusk(Step[Any]):
    """Nothing to decide at dusk."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        return DONE


class Spin(Step[Any]):
    """A broken step: it neither asks nor finishes."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        frame["spins"] = frame.get("spins", 0) + 1
        return CONTINUE


class Omen(Step[Any]):
    """A question pushed by a card reacting to a phase's start."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        if frame.get("answered"):
            return DONE
        return Decision(frame["keeper"], "watch.omen", "read the omen?", ("read", "ignore"))

    def choose(self, game: Game[Any], frame: Frame, choice: Any) -> None:
        frame["answered"] = True


@hookimpl
def mn_steps() -> dict[str, Step[Any]]:
    return {"dawn": Dawn(), "dusk": Dusk(), "watch.ask": Ask(), "spin": Spin(),
            "watch.omen": Omen()}


@hookimpl
def mn_contract() -> list[Any]:
    return [
        Part("watch", "", "Two lighthouse keepers light the lamp, or not."),
        Quantity("watch.oil", "watch", "The oil a keeper burns to light the lamp.", "int",
                 (("keeper", "who lights it"),), subject="keeper"),
        Quantity("watch.wick", "watch", "The wicks a keeper trims.", "int",
                 (("keeper", "who trims them"),), subject="keeper"),
        EventKind("lit", "watch", "A keeper lights the lamp.", True,
                  (("oil", "the oil burnt"),), player="the keeper"),
        DecisionKind("watch.rise", "watch", "A keeper says whether he lights the lamp."),
        DecisionKind("watch.omen", "watch", "A keeper says whether he reads an omen."),
    ]


@hookimpl
def mn_phase_start(game: Game[Any], phase: str) -> None:
    game.state.vars.setdefault("diary", []).append(f"{phase} starts")


@hookimpl
def mn_phase_end(game: Game[Any], phase: str) -> None:
    game.state.vars.setdefault("diary", []).append(f"{phase} ends")
    goal = game.state.vars.get("goal")
    if phase == "dawn" and goal is not None:
        winners = [p for p in game.state.players if lamps_lit(game, p) >= goal]
        if winners:
            game.end(winners, "lamp")


@hookimpl
def mn_report(game: Game[Any], player: str) -> dict[str, Any]:
    return {"lamps": lamps_lit(game, player)}


GAME_FILE = """\
# the watch: its rules are in tests/kernel/engine/test_flow.py
from mnrules.api import GameDefinition
from test_flow import KEEPERS, mn_contract, mn_phase_end, mn_phase_start, mn_report, mn_steps

GAME = GameDefinition(name="watch", seating={2: list(KEEPERS)})
"""


def watch_rules(folder: Path, phases: tuple[str, ...] = ("dawn", "dusk")) -> Ruleset:
    """The watch as a pack: a pack file and its game file, side by side in ``folder``."""
    (folder / "watch.py").write_text(GAME_FILE, encoding="utf-8")
    (folder / "pack.yaml").write_text(
        "format: mnrules-pack/1\ngame: ./watch.py\nid: watch\nname: The watch\n"
        "language: en\nengine: \">=0.1\"\nplugins: []\n"
        f"phases: [{', '.join(phases)}]\n"
        "names:\n  north: the north keeper\n  south: the south keeper\n", encoding="utf-8")
    return load_ruleset(str(folder / "pack.yaml"))


@pytest.fixture
def watch(tmp_path: Path) -> Ruleset:
    return watch_rules(tmp_path)


def answer(game: Game[Any], *choices: str) -> list[tuple[str, str, int]]:
    """Apply choices; each decision as (keeper, kind, round) when it was asked."""
    asked = []
    for choice in choices:
        dec = game.pending
        assert dec is not None, "the game ended first"
        asked.append((dec.player, dec.kind, game.state.round))
        game.apply(choice)
    return asked


def test_each_round_runs_the_packs_phases_in_order(watch: Ruleset) -> None:
    """Round 1: dawn starts, both keepers are asked (north first, the seating order),
    dawn ends, dusk starts and ends; then round 2 begins with dawn."""
    game = new_game(watch, 2, seed=1)
    assert answer(game, "rise", "sleep") == [("north", "watch.rise", 1),
                                               ("south", "watch.rise", 1)]
    assert game.pending == Decision("north", "watch.rise", "light the lamp?", ("rise", "sleep"))
    assert game.state.round == 2 and game.state.phase == "dawn"
    assert game.state.vars["diary"] == ["dawn starts", "dawn ends", "dusk starts",
                                        "dusk ends", "dawn starts"]
    assert game.state.vars["lit"] == [["north", 1]]


def test_what_reacts_to_a_phase_start_runs_before_the_phase(watch: Ruleset) -> None:
    """A card "at the start of dawn, the south keeper reads an omen" asks its question
    before dawn asks the keepers."""

    class OmenCard:
        TRIGGERED_BY = frozenset({"phase_start"})

        @hookimpl
        def mn_triggers(self, game: Game[Any], event: Event) -> Any:
            if event.data["phase"] != "dawn":
                return None
            return Trigger("test:omen", lambda e: game.push("watch.omen", keeper="south"))

    watch.pm.register(OmenCard(), name="test:omen")
    game = new_game(watch, 2, seed=1)
    assert answer(game, "read", "rise", "rise", "ignore") == [
        ("south", "watch.omen", 1), ("north", "watch.rise", 1), ("south", "watch.rise", 1),
        ("south", "watch.omen", 2)]


def test_what_reacts_to_a_phase_end_runs_before_the_phase_ends(watch: Ruleset) -> None:
    """A card "at the end of dawn, the north keeper reads an omen" asks its question
    once dawn's keepers are done and before the rules end dawn (its goal checked) and
    dusk starts; each phase of each round ends once, in order."""

    class EveningOmen:
        TRIGGERED_BY = frozenset({"phase_end"})

        @hookimpl
        def mn_triggers(self, game: Game[Any], event: Event) -> Any:
            if event.data["phase"] != "dawn":
                return None
            return Trigger("test:omen", lambda e: game.push("watch.omen", keeper="north"))

    watch.pm.register(EveningOmen(), name="test:omen")
    game = new_game(watch, 2, seed=1)
    ended: list[tuple[str, int]] = []
    game.listeners.append(lambda ev: ended.append((ev.data["phase"], game.state.round))
                          if ev.kind == "phase_end" else None)
    assert answer(game, "rise", "sleep") == [("north", "watch.rise", 1),
                                               ("south", "watch.rise", 1)]
    assert game.pending is not None and game.pending.kind == "watch.omen"
    assert game.state.phase == "dawn" and game.state.vars["diary"] == ["dawn starts"]
    assert answer(game, "read", "sleep", "sleep", "read") == [
        ("north", "watch.omen", 1), ("north", "watch.rise", 2), ("south", "watch.rise", 2),
        ("north", "watch.omen", 2)]
    assert ended == [("dawn", 1), ("dusk", 1), ("dawn", 2), ("dusk", 2)]
    assert game.state.vars["diary"] == ["dawn starts", "dawn ends", "dusk starts",
                                        "dusk ends"] * 2 + ["dawn starts"]


def test_a_game_won_at_a_phases_end_starts_no_further_phase(watch: Ruleset) -> None:
    """North lights the lamp, the game's goal: he wins as dawn ends; dusk never starts."""
    game = new_game(watch, 2, seed=1)
    game.state.vars["goal"] = 1
    answer(game, "rise", "sleep")
    assert game.outcome == Outcome(("north",), "lamp")
    assert game.state.vars["diary"] == ["dawn starts", "dawn ends"]
    assert game.state.phase == "dawn" and game.state.stack == []
    assert game.legal() == ()


def test_the_round_cap_ends_the_game_between_rounds_with_nobody_winning(
        watch: Ruleset) -> None:
    """With a cap of 3 rounds, the keepers are asked in rounds 1 to 3 and then the game
    ends: no winner, by the round cap, in no phase."""
    game = new_game(watch, 2, seed=1, round_cap=3)
    asked = answer(game, *["sleep"] * 6)
    assert [r for _, _, r in asked] == [1, 1, 2, 2, 3, 3]
    assert game.outcome == Outcome((), "round cap")
    assert game.state.finished and game.state.round == 4 and game.state.phase == ""
    assert game.state.stack == []  # nothing left to run: a save of it plays nothing


def test_the_driver_stops_at_the_start_of_the_round_it_names(watch: Ruleset) -> None:
    """``--rounds 2`` from round 1 is a stop at round 3: rounds 1 and 2 are played, the
    game waits (not over, no decision asked) and goes on with round 3 when resumed."""
    game = new_game(watch, 2, seed=1)
    game.max_rounds = 3
    answer(game, *["sleep"] * 4)
    assert game.pending is None and not game.state.finished
    assert game.state.round == 3 and game.state.phase == ""
    game.max_rounds = None
    assert answer(game, "rise") == [("north", "watch.rise", 3)]


def test_a_game_whose_rounds_ask_nothing_ends_after_ten_of_them(watch: Ruleset) -> None:
    """The keepers are asked in rounds 1 and 5 only. Rounds 2 to 4 ask nothing, but
    round 5 asks again, so the count starts over; rounds 6 to 15 ask nothing: ten in a
    row, and the game ends as round 15 does, nobody winning, saying why."""
    assert IDLE_ROUNDS == 10
    game = new_game(watch, 2, seed=1)
    game.state.vars["asks_in"] = [1, 5]
    asked = answer(game, "rise", "sleep", "sleep", "rise")
    assert [r for _, _, r in asked] == [1, 1, 5, 5]
    assert game.pending is None
    assert game.outcome == Outcome((), IDLE_VICTORY)
    assert game.state.round == 16 and game.state.stack == []


def test_a_game_that_asks_nothing_at_all_ends_after_ten_rounds(watch: Ruleset) -> None:
    """Nobody is ever asked: the game ends after round 10 without a single decision."""
    game = new_game(watch, 2, seed=1)
    game.state.vars["asks_in"] = []
    assert game.over
    assert game.outcome == Outcome((), "no decision")
    assert game.state.round == IDLE_ROUNDS + 1 and game.state.choices == 0
    assert game.state.stack == []


def test_a_round_cap_not_a_whole_number_is_refused(watch: Ruleset) -> None:
    from mnrules.errors import StateError

    game = new_game(watch, 2, seed=1)
    game.state.vars["round_cap"] = "3"
    with pytest.raises(StateError, match=r"vars\.round_cap: expected a whole number, not '3'"):
        game.pending  # noqa: B018
