"""The battle odds the bots ask (battle._hits, cached) are counted in whole rolls and
divided once; they are exactly the floats of the exact calculator's fractions
(battle.hits_distribution, which the rule-set comparison prints), for any dice, faces,
bonus, extra hits, shield and divisor."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from mare_nostrum.battle import (
    Side,
    _hits,
    hits_distribution,
    total_distribution,
    total_ways,
)

faces_sets = st.lists(st.integers(0, 9), min_size=1, max_size=10).map(tuple)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 7), faces_sets, st.integers(0, 8), st.integers(0, 2),
       st.integers(0, 3), st.integers(1, 9))
def test_the_cached_odds_are_the_exact_fractions_rounded(
        dice: int, faces: tuple[int, ...], bonus: int, extra: int, shield: int,
        divisor: int) -> None:
    exact = hits_distribution(Side("", dice, bonus, extra, 0), Side("", 0, 0, 0, shield),
                              faces, divisor)
    assert _hits.__wrapped__(dice, bonus, extra, shield, faces, divisor) == \
        tuple((h, float(p)) for h, p in sorted(exact.items()))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 6), faces_sets)
def test_the_ways_to_roll_a_total_count_the_rolls(dice: int, faces: tuple[int, ...]) -> None:
    ways = total_ways(dice, faces)
    assert sum(ways.values()) == len(faces) ** dice
    assert {s: Fraction(n, len(faces) ** dice) for s, n in ways.items()} == \
        total_distribution(dice, faces)


def test_two_six_sided_dice_make_seven_six_ways() -> None:
    assert total_ways(2, (1, 2, 3, 4, 5, 6))[7] == 6
