"""Templum (book 002, «TEMPLUM / Храм»): a temple for 5 marble (coins for marble) in a city
of the nation's own without one; several in a turn; the box holds 20, the neutral temples
standing on the board among them («Если все 20 храмов на игровом поле, то больше их
построить нельзя до тех пор, пока они не будут разрушены и не вернутся в резерв»)."""

from __future__ import annotations

import pytest

from a2_helpers import RULES, asked, at_turn, options, play, until
from antike2.supply import temples_left
from mnrules.core.effects import Event
from mnrules.errors import IllegalChoice

YELLOW = {"ROMA": "yellow", "NEAPOLIS": "yellow", "SYRACUS": "yellow"}
NEUTRAL = RULES.board.neutral_temples()
"""The board's neutral temples, standing at the start: six of the box's twenty."""


def _with_temples(n: int) -> dict[str, str]:
    """``n`` black cities with temples, away from yellow's."""
    regions = [r for r, site in RULES.board.regions.items() if site.city != "universal"
               and not site.neutral_temple and r not in YELLOW]
    return {r: "black temple" for r in regions[:n]}


def test_the_last_temple_of_the_box_may_be_built_and_then_none() -> None:
    """The six neutral temples and 13 black ones stand: one of the 20 is left."""
    cities = {**_with_temples(RULES.components["temples"] - 1 - len(NEUTRAL)), **YELLOW}
    game = at_turn({"cities": cities, "stock": {"yellow": {"marble": 10}}}, "yellow")
    assert len(game.state.neutral) == len(NEUTRAL) == 6
    assert temples_left(game) == 1
    play(game, "templum")
    assert options(game) == {("done",), ("temple", "ROMA"), ("temple", "NEAPOLIS"),
                             ("temple", "SYRACUS")}
    play(game, ("temple", "SYRACUS"))
    assert temples_left(game) == 0
    assert asked(game) != ("yellow", "a2.templum")
    assert game.state.stock["yellow"]["marble"] == 5


def test_with_the_six_neutral_temples_standing_fourteen_more_fill_the_box() -> None:
    """«Если все 20 храмов на игровом поле, то больше их построить нельзя»: the board's six
    neutral temples stand and 14 black cities hold one — the 20 are on the board, and
    yellow, with 10 marble and three cities without a temple, builds none."""
    game = at_turn({"cities": {**_with_temples(14), **YELLOW},
                    "stock": {"yellow": {"marble": 10}}}, "yellow")
    assert len(game.state.neutral) == 6
    assert temples_left(game) == 0
    play(game, "templum")
    assert asked(game) != ("yellow", "a2.templum")
    assert game.state.stock["yellow"]["marble"] == 10


def test_a_destroyed_neutral_temple_goes_back_to_the_box_and_may_be_built_again() -> None:
    """«... пока они не будут разрушены и не вернутся в резерв»: the 20 stand (six
    neutral); yellow's three legions destroy the neutral temple of ANCONA, and one temple
    is back in the box for the next to build."""
    game = at_turn({"cities": {**_with_temples(14), **YELLOW},
                    "units": {"yellow": {"ANCONA": {"legion": 3}}}}, "yellow")
    assert "ANCONA" in game.state.neutral and temples_left(game) == 0
    play(game, "movere")
    until(game, "a2.conquest", "yellow")
    play(game, ("conquer", "ANCONA"))
    assert "ANCONA" not in game.state.neutral
    assert temples_left(game) == 1


def test_coins_pay_for_the_marble_missing_and_the_event_says_what_was_paid() -> None:
    """«Монеты в игре заменяют любые ресурсы»: 3 marble and 2 coins build a temple."""
    game = at_turn({"cities": YELLOW, "stock": {"yellow": {"marble": 3, "coin": 2}}},
                   "yellow")
    seen: list[Event] = []
    game.listeners.append(seen.append)
    play(game, "templum", ("temple", "ROMA"))
    assert game.state.cities["ROMA"]["temple"] is True
    assert game.state.stock["yellow"] == {"marble": 0, "iron": 0, "gold": 0, "coin": 0}
    assert [e.data for e in seen if e.kind == "temple"] == [
        {"region": "ROMA", "paid": {"marble": 3, "coin": 2}}]


def test_four_marble_and_no_coin_build_nothing() -> None:
    game = at_turn({"cities": YELLOW, "stock": {"yellow": {"marble": 4}}}, "yellow")
    play(game, "templum")
    assert asked(game) != ("yellow", "a2.templum")
    assert not any(c["temple"] for c in game.state.cities.values())


def test_done_stops_building_with_marble_left() -> None:
    game = at_turn({"cities": YELLOW, "stock": {"yellow": {"marble": 10}}}, "yellow")
    play(game, "templum", ("temple", "ROMA"), ("done",))
    assert asked(game) != ("yellow", "a2.templum")
    assert game.state.stock["yellow"]["marble"] == 5
    assert [r for r, c in game.state.cities.items() if c["temple"]] == ["ROMA"]


def test_no_temple_in_another_nations_city() -> None:
    game = at_turn({"cities": {**YELLOW, "CARTHAGO": "green"},
                    "stock": {"yellow": {"marble": 5}}}, "yellow")
    play(game, "templum")
    assert ("temple", "CARTHAGO") not in options(game)
    with pytest.raises(IllegalChoice, match="yellow cannot build \\('temple', 'CARTHAGO'\\)"):
        game.apply(("temple", "CARTHAGO"))
