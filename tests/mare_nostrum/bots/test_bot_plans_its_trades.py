"""The heuristic bot plans its trade (issue 14, the table under the default bots): a
hero, wonder or special wonder a few coins or types of goods short is worth assembling
with the picks still to come, a good of a type a dangerous empire's income brings does
not feed him, and ``heuristic:greedy`` keeps the bot that traded for its screen only."""

from __future__ import annotations

import pytest

from mare_nostrum.api import SetRules
from mare_nostrum.bots import evaluate as ev
from mare_nostrum.bots import threat
from mare_nostrum.bots.heuristic import HeuristicBot
from mare_nostrum.bots.profiles import PROFILES
from mnrules import new_game
from mnrules.content.ruleset import Ruleset

FIFTH = ev.Targets(((10, 250.0),), 2, SetRules())
"""A fifth hero or wonder at 10: ten coins or ten different goods."""


def goods(*types: str, each: int = 1) -> dict[str, int]:
    return {t: each for t in types}


EIGHT = goods("grain", "oil", "sheep", "wine", "gold", "metal", "stone", "wood")


def test_a_set_two_short_is_worth_assembling_with_two_picks_to_come() -> None:
    now = ev.screen_value(EIGHT, 0, FIFTH)
    assert ev.screen_value(EIGHT, 0, FIFTH, ahead=2) > now + 20.0
    # one pick is not enough to close a gap of two: nothing is promised
    assert ev.screen_value(EIGHT, 0, FIFTH, ahead=1) == now


def test_a_pick_of_a_new_type_is_worth_more_than_a_duplicate_or_a_coin() -> None:
    base = ev.screen_value(EIGHT, 0, FIFTH, ahead=2)
    new, _ = ev.with_key(EIGHT, 0, "gems", 1)
    dup, _ = ev.with_key(EIGHT, 0, "grain", 1)
    by_type = ev.screen_value(new, 0, FIFTH, ahead=2) - base
    by_dup = ev.screen_value(dup, 0, FIFTH, ahead=2) - base
    by_coin = ev.screen_value(EIGHT, 1, FIFTH, ahead=2) - base
    assert by_type > 10.0 * max(by_dup, by_coin, 0.1)


def test_coins_are_assembled_the_same_way() -> None:
    base = ev.screen_value({}, 8, FIFTH, ahead=2)
    assert ev.screen_value({}, 9, FIFTH, ahead=2) - base > 20.0
    assert ev.screen_value(goods("wine"), 8, FIFTH, ahead=2) - base < 1.0


def test_the_set_in_hand_is_worth_what_it_was() -> None:
    ten = {**EIGHT, "gems": 1, "papyrus": 1}
    assert ev.screen_value(ten, 0, FIFTH, ahead=3) == ev.screen_value(ten, 0, FIFTH)


def danger(types: frozenset[str]) -> threat.Danger:
    d = threat.Danger(0.0, 0.0, 0.0, 0.0, 2, len(types) + 2, 99, 10, False, None, types)
    fifth, prestige = d.build_chances()
    return threat.Danger(fifth, prestige, 0.0, 0.0, 2, len(types) + 2, 99, 10, False, None,
                         types)


def test_a_good_of_a_type_his_income_brings_feeds_nothing(rules: Ruleset) -> None:
    game = new_game(rules, 3, seed=1)
    d = danger(frozenset({"grain", "oil", "sheep", "wine", "gold", "metal", "stone"}))
    assert d.builds
    assert threat.feed(game, d, "wine") == 0.0
    assert threat.feed(game, d, "legendary:wine") == 0.0
    assert threat.feed(game, d, "gems") > 0.0
    # the bot before the plan read every good as a new type
    assert threat.feed(game, d, "wine", typed=False) == threat.feed(game, d, "gems")


def test_coin_income_is_worth_more_to_the_planning_bot() -> None:
    inc = {"coin": 3, "grain": 2}
    assert ev.income_worth(inc, ev.COIN_W) > ev.income_worth(inc) + 3 * ev.TYPE_W * 0.5


@pytest.mark.parametrize("name", ["greedy", "naive"])
def test_the_bots_before_the_plan_stay_selectable(rules: Ruleset, name: str) -> None:
    assert PROFILES[name].plan == 0.0
    assert PROFILES["balanced"].plan > 0.0
    game = new_game(rules, 3, seed=1)
    dec = game.pending
    assert dec is not None and dec.kind == "trade.token"
    game.apply(dec.options[0])
    while (dec := game.pending) is not None and dec.kind != "trade.offer":
        game.apply(dec.options[0])
    assert dec is not None
    assert HeuristicBot(1, PROFILES[name])._picks_ahead(game, dec.player) == 0
    assert HeuristicBot(1, PROFILES["balanced"])._picks_ahead(game, dec.player) > 0


def test_coins_kept_are_no_types_of_goods(rules: Ruleset) -> None:
    game = new_game(rules, 3, seed=1)
    t = ev.table(game)
    t.all_incomes()
    kept_coins, kept_goods = 2, 0   # the en pack: two coins, no goods
    inc = t.income("carthage")
    kinds = {k for k in inc if k != "coin"}
    now = threat.danger(game, t, "carthage")
    before = threat.danger(game, t, "carthage", kept_apart=False)
    assert now.types == len(kinds) + kept_goods
    assert before.types == len(kinds) + kept_coins
    assert now.coins == before.coins == inc["coin"] + kept_coins
