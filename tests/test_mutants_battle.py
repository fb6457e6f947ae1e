"""Battle rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mnrules.plugins.mare_nostrum import api
from mnrules.plugins.mare_nostrum import position as pos
from mnrules.plugins.mare_nostrum.battle import distribution, side_for
from mnrules.ruleset import Ruleset
from test_movement import empty_board

PLAIN = {"area": "CYRENAICA", "kind": "land", "attacker": "carthage", "defender": "egypt"}


@pytest.mark.parametrize(("attackers", "defenders", "fortress"),
                         [(2, 1, False), (3, 2, True), (1, 3, False)])
def test_the_odds_the_bots_read_are_the_battles_exact_odds(
        rules: Ruleset, attackers: int, defenders: int, fortress: bool) -> None:
    """Carthage attacks Egypt in Cyrenaica (with or without Egypt's fortress): the odds a
    bot reads (``api.battle_odds``, floats from the cached calculator) are the exact
    distribution of both sides' losses, capped at the units each side has there.

    Kills: deleting either side's hit distribution, or swapping the loss caps, in
    ``battle._odds`` (the odds every bot plans its battles with)."""
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "carthage", "CYRENAICA", "legion", attackers)
    pos.add_units(game, "egypt", "CYRENAICA", "legion", defenders)
    if fortress:
        pos.add_units(game, "egypt", "CYRENAICA", "fortress")
    exact = distribution(side_for(game, PLAIN, "carthage"), side_for(game, PLAIN, "egypt"),
                         attackers, defenders, game.param("land_die"),
                         game.param("hit_divisor"))
    read = api.battle_odds(game, "CYRENAICA", "carthage", "egypt")
    assert {(a, d): p for a, d, p in read} == pytest.approx(
        {k: float(v) for k, v in exact.items()})
    assert sum(p for _, _, p in read) == pytest.approx(1.0)
    assert sum(exact.values()) == Fraction(1)
