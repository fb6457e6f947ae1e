"""Battle rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from conftest import play
from mare_nostrum import api
from mare_nostrum import position as pos
from mare_nostrum.battle import distribution, side_for, situation_distributions
from mnrules.content.ruleset import Ruleset
from test_movement import empty_board, record

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


SMALL = {"attacker": "rome", "defender": "egypt", "province": "CYRENAICA",
         "attacker_legions": [2], "defender_legions": [1]}


def test_a_pack_compared_with_itself_has_identical_battles(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """`editions diff en en`: every comparison battle comes out the same under both.

    Kills: ``diff > worst`` -> ``>=`` in ``battle.mn_compare`` (a tie at zero reported
    as a change)."""
    a, b = fresh_rules(), fresh_rules()
    a.data["battles"] = b.data["battles"] = [{"name": "small", **SMALL}]
    assert compare(a, b) == ["battle 'small': identical outcomes for every force size "
                             "(2 battles)"]


def test_the_diff_fights_both_packs_battles_each_once(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """The first pack's comparison battles, then the ones the second adds under another
    name; a name both packs use is fought once.

    Kills: deleting ``names`` in ``battle.mn_compare``; the default force sizes of
    ``situation_distributions`` (1-3 attacking legions against 1-2, with and without a
    fortress) changed."""
    a, b = fresh_rules(), fresh_rules()
    a.data["battles"] = [{"name": "small", **SMALL}]
    b.data["battles"] = [{"name": "small", **SMALL},
                         {"name": "default sizes", "attacker": "rome", "defender": "egypt",
                          "province": "CYRENAICA"}]
    assert [line.split(":")[0] for line in compare(a, b)] == ["battle 'small'",
                                                              "battle 'default sizes'"]
    assert compare(a, b)[1].endswith("(12 battles)")
    assert set(situation_distributions(a, b.data["battles"][1])) == {
        (n, d, f) for n in (1, 2, 3) for d in (1, 2) for f in (0, 1)}


def compare(a: Ruleset, b: Ruleset) -> list[str]:
    return [line for found in a.hook.mn_compare(a=a, b=b) for line in found]


def test_a_naval_battle_rolls_sea_dice_and_a_land_battle_land_dice(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """4.2: one sea die per trireme at sea, one land die per legion on land. Under a
    variant whose sea die shows only V and whose land die only a blank, Carthage's
    naval battle in Mare Aegyptium scores a hit a side, and the land battle in Cyrenaica
    that follows none.

    Kills: the sea/land test of ``battle._dice`` swapped (each battle rolling the other
    kind's dice), which the default dice, alike, cannot show."""
    game = empty_board(fresh_rules(sea_die=[5], land_die=[0]))
    pos.set_marker(game, "CYRENAICA", "egypt")
    for area, unit in (("MARE AEGYPTIUM", "trireme"), ("CYRENAICA", "legion")):
        pos.add_units(game, "carthage", area, unit)
        pos.add_units(game, "egypt", area, unit)
    rolls = record(game, "battle_roll")
    pos.start_phase(game, "military")
    play(game, "carthage", ("done",), ("battle", "MARE AEGYPTIUM", "egypt"), ("done",))
    assert [(e.data["kind"], e.data["rolls"], e.data["hits"]) for e in rolls] == [
        ("sea", {"carthage": [5], "egypt": [5]}, {"carthage": 1, "egypt": 1}),
        ("land", {"carthage": [0], "egypt": [0]}, {"carthage": 0, "egypt": 0})]
    assert "MARE AEGYPTIUM" not in game.state.units


def test_the_diff_tells_both_sides_expected_losses_where_battles_differ(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """`editions diff` against a variant with a hit per 4 instead of 5: the small battle
    comes out differently, and the line gives, for the force sizes that change most,
    each side's expected losses under both rule sets, exactly as the battles' odds say.

    Kills: the side index of the defender's expected losses changed in
    ``battle.mn_compare`` (the line for a battle that differs)."""
    a, b = fresh_rules(), fresh_rules(hit_divisor=4)
    a.data["battles"] = b.data["battles"] = [{"name": "small", **SMALL}]
    [line] = compare(a, b)
    assert line.startswith("battle 'small': outcomes differ; largest change at 2 vs 1 legions")
    where = (2, 1, 1 if "+ fortress" in line else 0)
    da = situation_distributions(a, a.data["battles"][0])[where]
    db = situation_distributions(b, b.data["battles"][0])[where]
    for side, who in ((0, "rome"), (1, "egypt")):
        before = float(sum((p * k[side] for k, p in da.items()), Fraction(0)))
        after = float(sum((p * k[side] for k, p in db.items()), Fraction(0)))
        assert f"{who} {before:.3f} → {after:.3f}" in line


def expected_losses(dist: dict[tuple[int, int], Fraction], side: int) -> Fraction:
    return sum((p * k[side] for k, p in dist.items()), Fraction(0))


def test_default_sea_die_is_a_blank_and_one_to_five(rules: Ruleset) -> None:
    """Kills: any change to the default faces of ``sea_die``.

    Two triremes against two, no hero helping at sea: each side's two dice (blank, I-V)
    total 10 once in 36 and 5 to 9 twenty times in 36, so each side exactly scores
    two hits with 1/36, one with 20/36."""
    situation = {"name": "fleets", "attacker": "carthage", "defender": "egypt",
                 "sea": "MARE AEGYPTIUM", "attacker_triremes": [2], "defender_triremes": [2]}
    dist = situation_distributions(rules, situation)[(2, 2, 0)]
    one = {0: Fraction(15, 36), 1: Fraction(20, 36), 2: Fraction(1, 36)}
    assert dist == {(a, d): one[a] * one[d] for a in one for d in one}


def test_edition_comparison_places_the_marker_and_the_fortress(rules: Ruleset) -> None:
    """Kills, in ``battle.situation_distributions``: deleting the marker placement, and
    swapping the fortress cases (the fortress standing where the situation says none).

    One Carthaginian legion attacks one Egyptian legion in CYRENAICA. Without a fortress
    each hits on a V (1/6); with one, Egypt's +5 always hits and Carthage's hit is
    cancelled. Nebuchadnezzar's +5 helps Babylon only on his own marker."""
    plain = {"name": "plain", "attacker": "carthage", "defender": "egypt",
             "province": "CYRENAICA", "attacker_legions": [1], "defender_legions": [1]}
    dist = situation_distributions(rules, plain)
    v = Fraction(1, 6)
    assert dist[(1, 1, 0)] == {(0, 0): (1 - v) ** 2, (1, 0): v * (1 - v),
                               (0, 1): (1 - v) * v, (1, 1): v * v}
    assert dist[(1, 1, 1)] == {(1, 0): Fraction(1)}
    marker = {"name": "marker", "attacker": "rome", "defender": "babylon",
              "province": "SYRIA", "tiles": {"babylon": ["nebuchadnezzar"]},
              "attacker_legions": [1], "defender_legions": [1], "fortress": [0]}
    own = situation_distributions(rules, marker)[(1, 1, 0)]
    other = situation_distributions(rules, {**marker, "marker": "rome"})[(1, 1, 0)]
    # On his marker, Babylon's one die + 5 always hits: Rome surely loses his legion.
    assert expected_losses(own, 0) == 1
    assert expected_losses(other, 0) < 1
