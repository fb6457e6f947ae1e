"""Antike II's state: the units and stock a nation holds never go below nothing (the box
is limited, «Снабжение ограничено»: what is not there cannot be removed or spent), and
a save that breaks the game's counts is refused naming the key, while a true one loads."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a2_helpers import RULES
from antike2.state import State
from mnrules import new_game
from mnrules.core.start import load_game
from mnrules.errors import StateError

AREAS = ("ROMA", "MARE_TYRRHENUM")
MOVES = st.lists(st.tuples(st.sampled_from(("add", "remove")), st.sampled_from(AREAS),
                           st.sampled_from(("legion", "galley")), st.integers(1, 3)),
                 max_size=25)


@settings(max_examples=60, deadline=None)
@given(moves=MOVES)
def test_units_are_counted_and_never_removed_beyond_those_there(
        moves: list[tuple[str, str, str, int]]) -> None:
    """Adding and removing units keeps each count; removing more than a nation has there
    is refused and changes nothing; an area where it has none is no longer listed."""
    state = State(seed=1, players=["red", "yellow"])
    held: dict[tuple[str, str], int] = {}
    for what, area, kind, n in moves:
        here = held.get((area, kind), 0)
        if what == "add":
            state.add_units("red", area, kind, n)
            held[(area, kind)] = here + n
        elif n > here:
            before = json.dumps(state.units, sort_keys=True)
            with pytest.raises(StateError, match=f"red has fewer than {n} {kind} in {area}"):
                state.remove_units("red", area, kind, n)
            assert json.dumps(state.units, sort_keys=True) == before
        else:
            state.remove_units("red", area, kind, n)
            held[(area, kind)] = here - n
        for (a, k), count in held.items():
            assert state.count("red", a, k) == count
        assert all(kinds and all(v > 0 for v in kinds.values())
                   for kinds in state.units.get("red", {}).values())
        assert state.owners_in(area) == (["red"] if state.units.get("red", {}).get(area)
                                         else [])
        assert state.count("yellow", area, kind) == 0


@settings(max_examples=60, deadline=None)
@given(moves=st.lists(st.tuples(st.sampled_from(("gain", "spend")),
                                st.sampled_from(("marble", "gold", "coin")),
                                st.integers(1, 4)), max_size=20))
def test_a_nation_spends_only_what_it_holds(moves: list[tuple[str, str, int]]) -> None:
    """A payment takes what the nation holds, down to nothing; one beyond is refused."""
    state = State(seed=1, players=["red"], stock={"red": {"marble": 0, "gold": 0, "coin": 0}})
    held = {"marble": 0, "gold": 0, "coin": 0}
    for what, key, n in moves:
        if what == "gain":
            state.gain("red", key, n)
            held[key] += n
        elif n > held[key]:
            with pytest.raises(StateError, match=f"red has fewer than {n} {key}"):
                state.spend("red", key, n)
        else:
            state.spend("red", key, n)
            held[key] -= n
        assert state.stock["red"] == held


def save(edit: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    game = new_game(RULES, 4, seed=2)
    data: dict[str, Any] = json.loads(game.snapshot().to_json())
    if edit is not None:
        edit(data)
    return data


def test_a_true_save_loads_with_every_city_know_how_and_empty_stock() -> None:
    """A game's own save loads again: stock at 0, cities with and without a temple,
    know-how learnt, units on the board."""
    def fill(s: dict[str, Any]) -> None:
        first = s["players"][0]
        s["stock"][first] = {"marble": 0, "iron": 0, "gold": 0, "coin": 0}
        region = next(r for r, c in s["cities"].items() if c["owner"] == first)
        s["cities"][region]["temple"] = True
        s["know_how"][first] = ["strata", "regnum"]
        s["units"][first] = {region: {"legion": 2}}
    data = save(fill)
    game = load_game(RULES, data)
    first = game.state.players[0]
    assert game.state.know_how[first] == ["strata", "regnum"]
    assert game.state.stock[first]["coin"] == 0


def _first(s: dict[str, Any]) -> str:
    return str(s["players"][0])


def _a_city(s: dict[str, Any]) -> dict[str, Any]:
    city: dict[str, Any] = next(iter(s["cities"].values()))
    return city


@pytest.mark.parametrize(("edit", "says"), [
    (lambda s: s["units"][_first(s)].update(ROMA={"legion": -1}), "units"),
    (lambda s: s["destroyed"].update({_first(s): -1}), "destroyed"),
    (lambda s: _a_city(s).update(resource="wood"), "'wood' is not one of marble, iron, gold"),
    (lambda s: _a_city(s).update(temple="yes"), "owner is a nation, temple true or false"),
    (lambda s: _a_city(s).update(owner=3), "owner is a nation, temple true or false"),
    (lambda s: _a_city(s).pop("temple"), "a city names its temple"),
    (lambda s: s["know_how"].update({_first(s): ["strata", "strata"]}),
     "a know-how is learnt once"),
])
def test_a_save_breaking_the_counts_is_refused_naming_the_rule(
        edit: Callable[[dict[str, Any]], Any], says: str) -> None:
    with pytest.raises(StateError, match=says):
        load_game(RULES, save(edit))
