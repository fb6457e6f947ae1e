"""Mare Nostrum's state (plugins/mare_nostrum/state.py): units on the board, resources
behind the screens, a legendary good counted as its type, who holds a card, and what a
saved game may not claim (negative counts, a tile in two places) — mutation testing,
issue 19."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from mare_nostrum import position as pos
from mare_nostrum.state import State, base_good
from mnrules import new_game
from mnrules.content.ruleset import Ruleset
from mnrules.errors import StateError


def test_units_come_and_go_and_an_empty_area_lists_nobody(rules: Ruleset) -> None:
    """Who is in an area is who has units there: Rome's two legions in GALLIA, one
    removed, one left; the last one gone, GALLIA lists nobody (its battle is over)."""
    state = new_game(rules, 5, seed=1).state
    state.units.pop("GALLIA", None)  # Rome's starting legion in GALLIA taken away
    assert state.unit_owners("GALLIA") == []
    state.add_units("GALLIA", "rome", "legion", 2)
    state.add_units("GALLIA", "rome", "fortress")
    assert (state.count("GALLIA", "rome", "legion"), state.unit_owners("GALLIA")) == \
        (2, ["rome"])
    state.remove_units("GALLIA", "rome", "legion")
    assert state.count("GALLIA", "rome", "legion") == 1
    state.remove_units("GALLIA", "rome", "legion")
    assert state.units["GALLIA"] == {"rome": {"fortress": 1}}
    state.remove_units("GALLIA", "rome", "fortress")
    assert "GALLIA" not in state.units and state.unit_owners("GALLIA") == []
    assert state.count("GALLIA", "rome", "legion") == 0


def test_the_last_of_two_players_leaving_keeps_the_other(rules: Ruleset) -> None:
    state = new_game(rules, 5, seed=1).state
    state.units.pop("SICILIA", None)
    state.add_units("SICILIA", "rome", "legion")
    state.add_units("SICILIA", "carthage", "legion", 3)
    state.remove_units("SICILIA", "rome", "legion")
    assert state.units["SICILIA"] == {"carthage": {"legion": 3}}
    state.remove_units("SICILIA", "carthage", "legion", 3)
    assert "SICILIA" not in state.units


def test_no_more_units_are_removed_than_stand_there(rules: Ruleset) -> None:
    state = new_game(rules, 5, seed=1).state
    state.units.pop("GALLIA", None)
    state.add_units("GALLIA", "rome", "legion", 2)
    with pytest.raises(StateError, match="rome has no legion left to remove in GALLIA"):
        state.remove_units("GALLIA", "rome", "legion", 3)
    assert state.count("GALLIA", "rome", "legion") == 2


def test_resources_behind_a_screen(rules: Ruleset) -> None:
    """Rome gains two wine and a legendary grain, spends the wine one at a time; a
    resource spent to the last is gone from his screen; he may not spend what he has
    not."""
    game = new_game(rules, 5, seed=1)
    pos.clear_screen(game, "rome")
    state = game.state
    state.gain("rome", "wine", 2)
    state.gain("rome", "legendary:grain")
    assert state.held("rome") == 3
    state.spend("rome", "wine")
    assert state.screens["rome"] == {"wine": 1, "legendary:grain": 1}
    with pytest.raises(StateError, match="rome has fewer than 2 wine"):
        state.spend("rome", "wine", 2)
    assert state.screens["rome"] == {"wine": 1, "legendary:grain": 1}
    state.spend("rome", "wine")
    assert state.screens["rome"] == {"legendary:grain": 1}
    assert state.held("rome") == 1


def test_a_legendary_good_counts_as_its_type() -> None:
    assert base_good("legendary:grain") == "grain"
    assert base_good("grain") == "grain"
    assert base_good("coin") == "coin"


def test_who_holds_a_card(rules: Ruleset) -> None:
    """Each empire holds its starting hero (Rome: Caesar); a card nobody holds has no
    holder."""
    state = new_game(rules, 5, seed=1).state
    assert list(state.cards_held("rome")) == state.tiles["rome"]
    caesar = state.tiles["rome"][0]
    assert state.card_holders(caesar) == ["rome"]
    assert state.card_holders(state.display[0]) == []
    assert list(state.cards_held("atlantis")) == []


def saved(rules: Ruleset) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(new_game(rules, 5, seed=1).state.to_json())
    return data


def set_in(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *keys, last = path.split(".")
        node = data
        for k in keys:
            node = node[k]
        node[last] = value
    return change


def tile_twice(data: dict[str, Any]) -> None:
    data["display"].append(data["tiles"]["rome"][0])


def tile_twice_hidden(data: dict[str, Any]) -> None:
    data["display_hidden"].append(data["display"][0])


@pytest.mark.parametrize(("change", "message"), [
    (set_in("units.LATIUM.rome.legion", -1), "units.LATIUM.rome.legion: -1 is out of bounds"),
    (set_in("pieces.rome.legion", -2), "pieces.rome.legion: -2 is out of bounds"),
    (set_in("screens.rome.coin", -1), "screens.rome.coin: -1 is out of bounds"),
    (set_in("supply.wine", -3), "supply.wine: -3 is out of bounds"),
    (tile_twice, "display["),
    (tile_twice_hidden, "display_hidden["),
])
def test_a_save_may_not_claim_what_no_game_reaches(
        rules: Ruleset, change: Callable[[dict[str, Any]], None], message: str) -> None:
    """A saved game with a negative count, or a tile both held and on display (or both
    face up and face down), is refused, naming the key."""
    data = saved(rules)
    State.from_dict(json.loads(json.dumps(data)))  # as saved: accepted
    change(data)
    with pytest.raises(StateError) as err:
        State.from_dict(data)
    assert message in str(err.value)
    if message.endswith("["):
        assert "is also in" in str(err.value)


def test_zero_counts_are_saved_and_loaded(rules: Ruleset) -> None:
    data = saved(rules)
    data["supply"]["wine"] = 0
    data["pieces"]["rome"]["legion"] = 0
    data["units"]["LATIUM"]["rome"]["legion"] = 0
    assert State.from_dict(data).supply["wine"] == 0
