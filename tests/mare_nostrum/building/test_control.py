"""Who controls what and where a player may place (FR 3.5-3.7, 4.5; NL/PL/UK 3.1.1-3.1.2,
4.2.1; digest §8.5-8.9), and the position checks every rule relies on: units stand only
where they may, one fortress per player and province, an occupier stands on a building."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mare_nostrum import position as pos
from mare_nostrum.control import buildable, may_build_in, trireme_seas
from mnrules import Game, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check
from test_movement import empty_board


# -- where a trireme may be placed (D24) ------------------------------------------------------
def sicilia_at_war(rules: Ruleset) -> Game:
    """Rome holds Italia and Sicilia; a Carthaginian legion stands in Sicilia (on Mare
    Ionium, Tyrrhenum, Sardum and Africum)."""
    game = empty_board(rules)
    pos.set_marker(game, "ITALIA", "rome")
    pos.set_marker(game, "SICILIA", "rome")
    pos.add_units(game, "carthage", "SICILIA", "legion")
    return game


def test_one_clean_province_beside_the_sea_anchors_a_trireme(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """NL/PL 3.1.2 (FR 3.6 with 3.5.1): a province you control beside the sea with no
    enemy unit, or your capital, is enough. Sicilia is at war, but Italia and Latium
    touch Mare Ionium, Tyrrhenum and Hadriaticum."""
    game = sicilia_at_war(fresh_rules(trireme_anchor="anchor_clean"))
    assert set(buildable(game, "rome")) == {"LATIUM", "ITALIA"}
    assert set(trireme_seas(game, "rome")) == {"MARE IONIUM", "MARE TYRRHENUM",
                                               "MARE HADRIATICUM"}


def test_read_literally_every_province_you_control_beside_the_sea_must_be_clean(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """UK 3.1.2 read literally: Sicilia at war closes every sea it touches (Ionium,
    Tyrrhenum) to Rome's new triremes; Mare Hadriaticum stays open."""
    game = sicilia_at_war(fresh_rules(trireme_anchor="all_adjacent_clean"))
    assert trireme_seas(game, "rome") == ["MARE HADRIATICUM"]


@pytest.mark.parametrize("anchor", ["anchor_clean", "all_adjacent_clean"])
def test_an_enemy_in_your_capital_closes_no_sea(fresh_rules: Callable[..., Ruleset],
                                                anchor: str) -> None:
    """FR 4.6; NL/PL/UK 4.3.5: the owner may always build in his capital province, enemy
    units there or not; so a Carthaginian legion in Latium closes none of its seas."""
    game = empty_board(fresh_rules(trireme_anchor=anchor))
    pos.set_marker(game, "ITALIA", "rome")
    pos.add_units(game, "carthage", "LATIUM", "legion")
    assert may_build_in(game, "rome", "LATIUM") is None
    assert set(trireme_seas(game, "rome")) == {"MARE IONIUM", "MARE TYRRHENUM",
                                               "MARE HADRIATICUM"}


# -- what a player is told he holds -----------------------------------------------------------
def test_the_report_counts_the_provinces_bearing_his_marker(rules: Ruleset) -> None:
    """Each empire starts with three provinces; a marker placed makes four, a marker of
    his taken off three again."""
    game = new_game(rules, 5, seed=1)
    assert {p: r["provinces"] for p, r in game.report().items()} == dict.fromkeys(
        game.state.players, 3)
    pos.set_marker(game, "SICILIA", "rome")
    assert game.report()["rome"]["provinces"] == 4
    pos.set_marker(game, "SICILIA", None)
    assert game.report()["rome"]["provinces"] == 3


# -- the position checks ----------------------------------------------------------------------
def test_a_position_set_up_by_the_rules_has_no_problem(rules: Ruleset) -> None:
    """The setup of every player count, and one with units of every kind where they
    may stand (legions, a fortress, triremes, an occupied building)."""
    for n in (3, 4, 5):
        assert check(new_game(rules, n, seed=1)) == []
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    i = pos.build(game, "CYRENAICA", "city")
    pos.add_units(game, "egypt", "CYRENAICA", "fortress")
    pos.add_units(game, "rome", "CYRENAICA", "legion", 2)
    pos.add_units(game, "rome", "MARE AFRICUM", "trireme", 2)
    game.state.occupied["CYRENAICA"][i] = "rome"
    assert check(game) == []


@pytest.mark.parametrize(("players", "area", "kind", "problem"), [
    (5, "LATIUM", "trireme", "rome's trireme stands in LATIUM"),
    (5, "MARE TYRRHENUM", "legion", "rome's legion stands in MARE TYRRHENUM"),
    (5, "MARE TYRRHENUM", "fortress", "rome's fortress stands in MARE TYRRHENUM"),
    (3, "CYRENAICA", "legion", "units in CYRENAICA, which is not in play"),
])
def test_a_unit_where_it_may_not_stand_is_a_problem(rules: Ruleset, players: int, area: str,
                                                    kind: str, problem: str) -> None:
    """Triremes stand at sea, legions and fortresses on land (FR/NL/PL/UK 4.1), and
    nothing in a province out of play (setup 1)."""
    game = new_game(rules, players, seed=1)
    game.state.pieces["rome"][kind] -= 1
    game.state.add_units(area, "rome", kind)
    assert problem in check(game)


def test_a_second_fortress_in_a_province_is_a_problem(rules: Ruleset) -> None:
    """One fortress per player and province (3.1.3 / FR 3.7)."""
    game = empty_board(rules)
    pos.add_units(game, "rome", "LATIUM", "fortress", 2)
    assert "rome has 2 fortresses in LATIUM" in check(game)


def test_no_units_counted_as_a_unit_is_a_problem(rules: Ruleset) -> None:
    game = empty_board(rules)
    game.state.units["LATIUM"] = {"rome": {"legion": 0}}
    assert "rome has 0 legion in LATIUM" in check(game)


def test_an_occupier_stands_on_a_building(rules: Ruleset) -> None:
    """4.3.2: a legion occupies a building; on an empty slot there is nothing to occupy."""
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    game.state.occupied["CYRENAICA"][0] = "rome"
    assert not game.state.built["CYRENAICA"][0]
    assert "rome occupies an empty slot in CYRENAICA" in check(game)
