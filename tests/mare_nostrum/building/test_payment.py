"""Payment sets (FR 3.1; NL/PL/UK 3.0): EX-BUILD-1 to -3, EX-PROD-3 and EX-HW-1.

Each purchase is paid with one set of its cost: coins only, or goods all of different
types (a legendary good counts as its type). Hannibal lets one goods type appear
twice in a goods set; Cleopatra allows one coin in a goods set and one good in a coin
set. The cards' powers are scripts (cards/); the game tests below check the compiled
Hannibal and Cleopatra, and also give the same powers to Greece (Pericles: no payment
power) through a test-only plugin's ``payment`` modifier, the hook a card compiles to.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import pending, play
from mare_nostrum import position as pos
from mare_nostrum.payment import SetRules, can_pay, payments
from mare_nostrum.state import base_good
from mnrules import Game, IllegalChoice, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Modifier
from mnrules.hooks.hookspecs import hookimpl

BASE = SetRules()
HANNIBAL = SetRules(repeated_types=1)
CLEOPATRA = SetRules(coins_in_goods_set=1, goods_in_coin_set=1)

# EX-BUILD-1: Serge / David after trade (identical in all four books).
NINE = {"coin": 3, "grain": 2, "wood": 1, "sheep": 1, "gold": 1, "gladiators": 1}


def pays(screen: dict[str, int], cost: int, rules: SetRules) -> set[tuple[str, ...]]:
    return set(payments(screen, cost, rules))


def s(*keys: str) -> tuple[str, ...]:
    return tuple(sorted(keys))


class Loosen:
    """A test-only plugin: the payment modifier a card would give one empire."""

    def __init__(self, player: str, **more: int) -> None:
        self.player = player
        self.more = more

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str,
                     ctx: dict[str, Any]) -> list[Modifier] | None:
        if quantity != "payment" or ctx.get("player") != self.player:
            return None
        more = self.more
        return [Modifier(f"test:{self.player}", lambda r: r.loosen(**more))]


def with_card(fresh_rules: Any, player: str, **more: int) -> Ruleset:
    rules: Ruleset = fresh_rules()
    rules.pm.register(Loosen(player, **more), name=f"test-{player}-payment")
    return rules


# --- EX-BUILD-1: nine resources, three sets, no set of 6 --------------------------


def test_nine_resources_make_these_three_sets() -> None:
    three = pays(NINE, 3, BASE)
    assert s("coin", "coin", "coin") in three
    assert s("grain", "wood", "sheep") in three
    assert s("grain", "gold", "gladiators") in three
    # 1 coin set + every 3 of the 5 goods types; nothing mixes coins and goods
    assert len(three) == 1 + 10
    assert all(set(p) == {"coin"} or "coin" not in p for p in three)


def test_no_set_of_six_with_five_distinct_goods() -> None:
    assert pays(NINE, 6, BASE) == set()
    assert not can_pay(NINE, 6, BASE)
    # the 6-set of the Hannibal example is refused without Hannibal
    assert s("grain", "grain", "wood", "sheep", "gold", "gladiators") not in pays(NINE, 6, BASE)
    assert pays(NINE, 5, BASE) == {s("grain", "wood", "sheep", "gold", "gladiators")}


def test_coins_and_goods_never_mix() -> None:
    screen = {"coin": 2, "grain": 1, "wood": 1}
    assert pays(screen, 3, BASE) == set()
    assert not can_pay(screen, 3, BASE)
    assert pays(screen, 2, BASE) == {s("coin", "coin"), s("grain", "wood")}


# --- EX-PROD-3: a legendary good counts as its ordinary type ------------------------


def test_legendary_sheep_and_sheep_cannot_share_a_set() -> None:
    assert pays({"legendary:sheep": 1, "sheep": 1, "wood": 1}, 3, BASE) == set()
    assert pays({"legendary:sheep": 1, "grain": 1, "wood": 1}, 3, BASE) == {
        s("legendary:sheep", "grain", "wood")}
    # PL uses grain
    assert pays({"legendary:grain": 1, "grain": 1, "wood": 1}, 3, BASE) == set()


def test_legendary_or_ordinary_good_of_the_same_type() -> None:
    screen = {"legendary:sheep": 1, "sheep": 1, "grain": 1, "wood": 1}
    assert pays(screen, 3, BASE) == {s("legendary:sheep", "grain", "wood"),
                                     s("sheep", "grain", "wood")}


def test_hannibal_may_use_legendary_sheep_with_sheep() -> None:
    assert pays({"legendary:sheep": 1, "sheep": 1, "wood": 1}, 3, HANNIBAL) == {
        s("legendary:sheep", "sheep", "wood")}


# --- EX-BUILD-2 / EX-HW-1: Hannibal ------------------------------------------------------


def test_hannibal_six_goods_set() -> None:
    six = pays(NINE, 6, HANNIBAL)
    assert six == {s("grain", "grain", "sheep", "gladiators", "gold", "wood")}
    assert s("coin", "coin", "coin") in pays(NINE, 3, HANNIBAL)


def test_hannibal_metal_metal_wood() -> None:
    assert pays({"metal": 2, "wood": 1}, 3, HANNIBAL) == {s("metal", "metal", "wood")}
    assert pays({"metal": 2, "wood": 1}, 3, BASE) == set()


def test_hannibal_repeats_one_type_only_and_only_twice() -> None:
    assert pays({"metal": 2, "wood": 2}, 4, HANNIBAL) == set()
    assert pays({"metal": 3}, 3, HANNIBAL) == set()
    assert pays({"metal": 3, "wood": 2}, 3, HANNIBAL) == {s("metal", "metal", "wood"),
                                                          s("metal", "wood", "wood")}


# --- EX-BUILD-3: Cleopatra ------------------------------------------------------------------


def test_cleopatra_one_coin_in_a_goods_set_one_good_in_a_coin_set() -> None:
    assert s("grain", "wood", "coin") in pays({"grain": 1, "wood": 1, "coin": 1}, 3, CLEOPATRA)
    assert s("coin", "coin", "grain") in pays({"coin": 2, "grain": 1}, 3, CLEOPATRA)
    assert pays({"coin": 2, "grain": 1, "wood": 1}, 4, CLEOPATRA) == set()
    six = {"grain": 1, "wood": 1, "sheep": 1, "gold": 1, "gladiators": 1, "coin": 1}
    assert s(*six) in pays(six, 6, CLEOPATRA)
    for screen, cost in (({"grain": 1, "wood": 1, "coin": 1}, 3), ({"coin": 2, "grain": 1}, 3),
                         (six, 6)):
        assert pays(screen, cost, BASE) == set()


def test_cleopatra_turns_the_nine_resources_into_a_six_set_and_a_three_set() -> None:
    six = s("grain", "wood", "sheep", "gold", "gladiators", "coin")
    assert six in pays(NINE, 6, CLEOPATRA)
    rest = Counter(NINE)
    rest.subtract(six)
    assert s("grain", "coin", "coin") in pays(+rest, 3, CLEOPATRA)


# --- the same through a game, with the cards given by a test-only plugin ---------------


def build_turn(rules: Ruleset, screens: dict[str, dict[str, int]], player: str) -> Game:
    """A blank board with two provinces each for Carthage, Egypt, Rome and Greece;
    ``player``'s build turn."""
    game = new_game(rules, 4, seed=1)
    pos.clear(game)
    for prov, who in (("LIBYA", "carthage"), ("AFRICA", "carthage"), ("AEGYPTUS", "egypt"),
                      ("CYRENAICA", "egypt"), ("LATIUM", "rome"), ("ITALIA", "rome"),
                      ("ACHAEA", "greece"), ("MACEDONIA", "greece")):
        pos.set_marker(game, prov, who)
    for p, res in screens.items():
        pos.give(game, p, res)
    pos.start_phase(game, "build", round=2)
    play(game, player)
    assert pending(game) == (player, "build.action")
    return game


MARKET = {"carthage": ("building", "LIBYA", 2), "rome": ("building", "ITALIA", 2),
          "egypt": ("building", "CYRENAICA", 1), "greece": ("building", "MACEDONIA", 2)}
LEGION = {"carthage": ("legion", "LIBYA"), "egypt": ("legion", "CYRENAICA"),
          "greece": ("legion", "MACEDONIA")}
SIX = s("grain", "grain", "sheep", "gladiators", "gold", "wood")


def hannibal_buys(game: Game, player: str) -> None:
    """EX-BUILD-2: one set of 6 goods (a market) and one set of 3 coins (a legion)."""
    dec = game.pending
    assert dec is not None and MARKET[player] in dec.options
    play(game, MARKET[player])
    dec = game.pending
    assert dec is not None
    assert dec.options == (SIX,)
    play(game, SIX)
    play(game, LEGION[player], s("coin", "coin", "coin"))
    prov = LEGION[player][1]
    assert game.state.screens[player] == {}
    assert game.state.built[prov][MARKET[player][2]]
    assert game.state.count(prov, player, "legion") == 1


def test_the_hannibal_card(rules: Ruleset) -> None:
    hannibal_buys(build_turn(rules, {"carthage": NINE}, "carthage"), "carthage")


def test_a_payment_modifier_plugin_gives_hannibals_set(fresh_rules: Any) -> None:
    rules = with_card(fresh_rules, "greece", repeated_types=1)
    hannibal_buys(build_turn(rules, {"greece": NINE}, "greece"), "greece")


def test_without_hannibal_the_market_is_refused_for_want_of_a_set(fresh_rules: Any) -> None:
    rules = with_card(fresh_rules, "greece", repeated_types=1)
    game = build_turn(rules, {"greece": NINE, "rome": NINE}, "rome")
    dec = game.pending
    assert dec is not None
    assert MARKET["rome"] not in dec.options
    before = game.state.to_json()
    with pytest.raises(IllegalChoice) as refused:
        game.apply(MARKET["rome"])
    assert refused.value.rule is not None and refused.value.rule.id == "payment-set"
    assert game.state.to_json() == before


def cleopatra_buys(game: Game, player: str) -> None:
    """EX-BUILD-3 on the nine resources: a 6-set with a coin, a coin set with a good."""
    play(game, MARKET[player], s("grain", "wood", "sheep", "gold", "gladiators", "coin"))
    play(game, LEGION[player])
    dec = game.pending
    assert dec is not None and dec.kind == "build.pay"
    assert dec.options == (s("coin", "coin", "grain"),)
    play(game, dec.options[0])
    assert game.state.screens[player] == {}


def test_the_cleopatra_card(rules: Ruleset) -> None:
    cleopatra_buys(build_turn(rules, {"egypt": NINE}, "egypt"), "egypt")


def test_a_payment_modifier_plugin_gives_cleopatras_sets(fresh_rules: Any) -> None:
    rules = with_card(fresh_rules, "greece", coins_in_goods_set=1, goods_in_coin_set=1)
    cleopatra_buys(build_turn(rules, {"greece": NINE}, "greece"), "greece")


def test_a_mixed_set_is_refused_naming_the_payment_rule(rules: Ruleset) -> None:
    game = build_turn(rules, {"rome": NINE}, "rome")
    play(game, ("legion", "LATIUM"))
    before = game.state.to_json()
    with pytest.raises(IllegalChoice) as refused:
        game.apply(s("coin", "coin", "grain"))
    assert refused.value.rule is not None and refused.value.rule.id == "payment-set"
    assert game.state.to_json() == before
    with pytest.raises(IllegalChoice):
        game.apply(s("grain", "grain", "wood"))
    play(game, s("grain", "wood", "gold"))
    assert game.state.screens["rome"] == {"coin": 3, "grain": 1, "sheep": 1, "gladiators": 1}
    # spent goods went back to the supply
    assert game.state.supply["gold"] == 7


# --- property: payments() is exactly the valid sets ----------------------------------------

KEYS = ("coin", "grain", "wood", "sheep", "metal", "legendary:grain", "legendary:metal")


def valid(pay: tuple[str, ...], rules: SetRules) -> bool:
    """The rule text, written out independently of the engine."""
    coins = pay.count("coin")
    goods = [base_good(k) for k in pay if k != "coin"]
    if len(goods) <= rules.goods_in_coin_set and coins >= 1:
        return True  # a coin set
    if coins > rules.coins_in_goods_set or not goods:
        return False
    counts = Counter(goods)
    doubled = sum(1 for n in counts.values() if n == 2)
    return max(counts.values()) <= 2 and doubled <= rules.repeated_types


def sub_multisets(screen: dict[str, int], size: int) -> set[tuple[str, ...]]:
    tokens = [k for k, n in sorted(screen.items()) for _ in range(n)]
    return {tuple(sorted(c)) for c in itertools.combinations(tokens, size)}


@settings(max_examples=300, deadline=None)
@given(screen=st.dictionaries(st.sampled_from(KEYS), st.integers(1, 3), max_size=6),
       cost=st.integers(1, 7),
       rules=st.sampled_from([BASE, HANNIBAL, CLEOPATRA,
                              SetRules(coins_in_goods_set=1, goods_in_coin_set=1,
                                       repeated_types=1),
                              SetRules(coins_in_goods_set=2, goods_in_coin_set=2,
                                       repeated_types=2)]))
def test_payments_are_exactly_the_valid_sets(screen: dict[str, int], cost: int,
                                             rules: SetRules) -> None:
    found = list(payments(screen, cost, rules))
    assert len(found) == len(set(found)), "a set is offered twice"
    expected = {p for p in sub_multisets(screen, cost) if valid(p, rules)}
    assert set(found) == expected
    assert can_pay(screen, cost, rules) == bool(expected)


def test_a_spent_legendary_good_goes_to_the_legendary_discard(rules: Ruleset) -> None:
    game = build_turn(rules, {"rome": {"legendary:sheep": 1, "sheep": 1, "grain": 1,
                                       "wood": 1}}, "rome")
    play(game, ("legion", "LATIUM"))
    dec = game.pending
    assert dec is not None
    assert set(dec.options) == {s("legendary:sheep", "grain", "wood"),
                                s("sheep", "grain", "wood")}
    sheep = game.state.supply["sheep"]
    play(game, s("legendary:sheep", "grain", "wood"))
    assert game.state.legendary_discard == ["sheep"]
    assert game.state.supply["sheep"] == sheep
    assert game.state.screens["rome"] == {"sheep": 1}
