"""Templum (book 002, «TEMPLUM / Храм»): a temple for 5 marble (coins for marble) in a city
of the nation's own without one; several in a turn; the box holds 20."""

from __future__ import annotations

import pytest
from a2_helpers import RULES, asked, at_turn, options, play

from mnrules.effects import Event
from mnrules.errors import IllegalChoice
from mnrules.plugins.antike2.supply import temples_left

YELLOW = {"ROMA": "yellow", "NEAPOLIS": "yellow", "SYRACUS": "yellow"}


def _with_temples(n: int) -> dict[str, str]:
    """``n`` black cities with temples, away from yellow's."""
    regions = [r for r, site in RULES.board.regions.items() if site.city != "universal"
               and not site.neutral_temple and r not in YELLOW]
    return {r: "black temple" for r in regions[:n]}


def test_the_last_temple_of_the_box_may_be_built_and_then_none() -> None:
    cities = {**_with_temples(RULES.components["temples"] - 1), **YELLOW}
    game = at_turn({"cities": cities, "stock": {"yellow": {"marble": 10}}}, "yellow")
    assert temples_left(game) == 1
    play(game, "templum")
    assert options(game) == {("done",), ("temple", "ROMA"), ("temple", "NEAPOLIS"),
                             ("temple", "SYRACUS")}
    play(game, ("temple", "SYRACUS"))
    assert temples_left(game) == 0
    assert asked(game) != ("yellow", "a2.templum")
    assert game.state.stock["yellow"]["marble"] == 5


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
