"""Founding cities (book 002, «Ход игры», 2. «Основать город»): after its action a nation
founds cities where it has a unit, for 1 marble, 1 iron and 1 gold (coins for any), one
city a region, none under a neutral temple, while it has city tokens left."""

from __future__ import annotations

from typing import Any

import pytest

from a2_helpers import RULES, asked, at_turn, options, play
from antike2.state import Game
from antike2.supply import tokens_left
from mnrules.errors import IllegalChoice

PAID = {"marble": 1, "iron": 1, "gold": 1}


def _founding(position: dict[str, Any]) -> Game:
    """Yellow at its founding step: it plays Templum with no marble to build with."""
    game = at_turn(position, "yellow")
    play(game, "templum")
    return game


def test_a_new_city_shows_the_sites_resource_and_has_no_temple() -> None:
    game = _founding({"units": {"yellow": {"LUNA": {"legion": 1}}}, "stock": {"yellow": PAID}})
    site = RULES.board.regions["LUNA"].city
    assert options(game) == {("done",), ("found", "LUNA", site)}
    play(game, ("found", "LUNA", site))
    assert game.state.cities["LUNA"] == {"owner": "yellow", "resource": site,
                                         "temple": False}
    assert game.state.stock["yellow"] == {"marble": 0, "iron": 0, "gold": 0, "coin": 0}


def test_without_the_three_resources_or_coins_for_them_no_city_is_offered() -> None:
    game = _founding({"units": {"yellow": {"LUNA": {"legion": 1}}},
                      "stock": {"yellow": {"marble": 1, "iron": 1}}})
    assert asked(game) != ("yellow", "a2.found")


def test_a_region_whose_units_are_all_gone_founds_nothing() -> None:
    """A unit of its own must stand in the region: an entry with no unit left (after a
    battle) is no unit."""
    game = _founding({"units": {"yellow": {"LUNA": {"legion": 0, "galley": 0},
                                           "MEDIOLANUM": {"legion": 1}}},
                      "stock": {"yellow": PAID}})
    assert {o[1] for o in options(game) if o[0] == "found"} == {"MEDIOLANUM"}
    with pytest.raises(IllegalChoice, match="Yellow has no unit in Luna"):
        game.apply(("found", "LUNA", RULES.board.regions["LUNA"].city))


def test_the_last_city_token_may_still_be_placed() -> None:
    regions = [r for r, site in RULES.board.regions.items() if site.city != "universal"
               and not site.neutral_temple and r != "LUNA"]
    cities = dict.fromkeys(regions[:RULES.components["city_tokens"] - 1], "yellow")
    game = _founding({"cities": cities, "units": {"yellow": {"LUNA": {"legion": 1}}},
                      "stock": {"yellow": PAID}})
    assert tokens_left(game, "yellow") == 1
    assert asked(game) == ("yellow", "a2.found")
    play(game, ("found", "LUNA", RULES.board.regions["LUNA"].city))
    assert tokens_left(game, "yellow") == 0


def test_done_stops_founding_with_resources_left() -> None:
    game = _founding({"units": {"yellow": {"LUNA": {"legion": 1}, "MEDIOLANUM": {"legion": 1}}},
                      "stock": {"yellow": {"marble": 2, "iron": 2, "gold": 2}}})
    play(game, ("found", "LUNA", RULES.board.regions["LUNA"].city), ("done",))
    assert asked(game) != ("yellow", "a2.found")
    assert "MEDIOLANUM" not in game.state.cities
    assert game.state.stock["yellow"]["gold"] == 1


def test_a_refusal_says_which_rule_stops_the_city() -> None:
    game = _founding({"cities": {"MEDIOLANUM": "green"}, "neutral": ["ANCONA"],
                      "units": {"yellow": {"LUNA": {"legion": 1}, "MEDIOLANUM": {"legion": 1},
                                           "ANCONA": {"legion": 1}}},
                      "stock": {"yellow": PAID}})
    with pytest.raises(IllegalChoice, match="has a city already"):
        game.apply(("found", "MEDIOLANUM", "iron"))
    with pytest.raises(IllegalChoice, match="a neutral temple stands in"):
        game.apply(("found", "ANCONA", "iron"))
    with pytest.raises(IllegalChoice, match="yellow cannot found \\('found', 'LUNA', 'coin'\\)"):
        game.apply(("found", "LUNA", "coin"))
