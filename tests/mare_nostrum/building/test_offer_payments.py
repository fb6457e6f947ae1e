"""A card's way to build names its prices (`offer legion for 1 coin or 2 grain and 1
wine`); the buyer pays one with the keys behind his screen, a legendary good as its type
(FR 8; NL/PL/UK 10-11). The sets are counted per type, so a price of many goods of a type
lists its few ways to be paid, not a key for each good in turn."""

from __future__ import annotations

from collections import Counter
from itertools import product
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mare_nostrum.build import offer_payments
from mare_nostrum.state import base_good
from mnrules import load_ruleset, new_game
from mnrules.language.compiler import Offer
from test_card_scripts import refused_at

KEYS = ("coin", "grain", "legendary:grain", "wine", "legendary:wine", "oil")
GAME = new_game(load_ruleset("en"), 3, seed=1)


def key_by_key(screen: dict[str, int], payments: Any) -> list[tuple[str, ...]]:
    """The sets as choosing a key for each resource of a price in turn finds them (the
    listing before it counted per type): what the count must equal, order included."""
    out: list[tuple[str, ...]] = []
    for price in payments:
        choices = [[k for k in sorted(screen) if base_good(k) == want] for want in price]
        for combo in product(*choices):
            pay = tuple(sorted(combo))
            if all(screen.get(k, 0) >= n for k, n in Counter(combo).items()) \
                    and pay not in out:
                out.append(pay)
    return out


def paying(screen: dict[str, int], *payments: tuple[str, ...]) -> list[tuple[str, ...]]:
    GAME.state.screens["rome"] = dict(screen)
    return offer_payments(GAME, "rome", Offer("card:x#0", "rome", "legion", "any", payments))


def test_one_grain_is_paid_with_a_grain_or_a_legendary_one() -> None:
    assert paying({"grain": 1, "legendary:grain": 1, "coin": 3}, ("coin",), ("grain",)) == \
        [("coin",), ("grain",), ("legendary:grain",)]


def test_a_price_of_two_resources_takes_both() -> None:
    assert paying({"coin": 1, "grain": 2}, ("coin", "grain")) == [("coin", "grain")]
    assert paying({"grain": 2}, ("coin", "grain")) == []


def test_twenty_grain_with_a_legendary_grain_has_two_ways_not_a_million() -> None:
    assert paying({"grain": 19, "legendary:grain": 1}, ("grain",) * 20) == \
        [("grain",) * 19 + ("legendary:grain",)]
    assert len(paying({"grain": 20, "legendary:grain": 1}, ("grain",) * 20)) == 2


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), st.integers(1, 3), max_size=5),
       st.lists(st.lists(st.sampled_from(("coin", "grain", "wine", "oil")), max_size=4)
                .map(tuple), min_size=1, max_size=3))
def test_counted_per_type_the_sets_are_those_key_by_key(screen: dict[str, int],
                                                         payments: list[tuple[str, ...]]
                                                         ) -> None:
    # a price as the compiler makes it: each type's resources together
    prices = [tuple(sorted(p, key=p.index)) for p in payments]
    assert paying(screen, *prices) == key_by_key(screen, prices)


def test_a_price_totals_twenty_resources_at_most(tmp_path: Path) -> None:
    refused_at(tmp_path, "offer legion for 20 grain and 20 wine", 1, 18,
               "a payment of 40 resources for 'legion': at most 20 allowed in all")
