"""Affordability is counted without listing payments (payment.can_pay): for every screen,
cost and loosening by heroes it agrees with whether the payment sets of FR 3.1 / NL 3.0
(listed by payment.payments, which the pay decision offers) hold at least one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mare_nostrum.payment import SetRules, can_pay, payments

KEYS = ("coin", "grain", "wine", "oil", "marble", "legendary:grain", "legendary:oil")

screens = st.dictionaries(st.sampled_from(KEYS), st.integers(0, 3), max_size=len(KEYS))
loosenings = st.builds(SetRules, st.integers(0, 2), st.integers(0, 2), st.integers(0, 2))


@settings(max_examples=400, deadline=None)
@given(screens, st.integers(0, 9), loosenings)
def test_can_pay_agrees_with_the_payment_sets(screen: dict[str, int], cost: int,
                                              rules: SetRules) -> None:
    assert can_pay(screen, cost, rules) == (next(payments(screen, cost, rules), None)
                                            is not None)


def test_a_grain_and_its_legendary_twin_are_one_type() -> None:
    # 3 goods but two of one type: a set of 3 needs Pericles-like repeats or a coin
    screen = {"grain": 1, "legendary:grain": 1, "wine": 1}
    assert not can_pay(screen, 3, SetRules())
    assert can_pay(screen, 3, SetRules(repeated_types=1))
    assert can_pay({**screen, "coin": 1}, 3, SetRules(coins_in_goods_set=1))
    assert can_pay({"coin": 2, "oil": 1}, 3, SetRules(goods_in_coin_set=1))
    assert not can_pay({"coin": 2, "oil": 1}, 3, SetRules())



def _searched(screen: dict[str, int], cost: int, rules: SetRules) -> list[tuple[str, ...]]:
    """The payment sets as the recursive search lists them (payments before its short
    way for screens of one key per type)."""
    from mare_nostrum import payment

    if cost == 0:
        return [()]
    coins = screen.get("coin", 0)
    out: list[tuple[str, ...]] = []
    types = payment._choices(sorted(payment._goods_by_type(screen).items()))
    for j in range(rules.goods_in_coin_set + 1):
        if cost - j > coins or cost - j < 0:
            continue
        found = [[]] if j == 0 else [list(g) for g in payment._any_goods(screen, j)]
        for goods in found:
            pay = tuple(sorted(["coin"] * (cost - j) + goods))
            if pay not in out:
                out.append(pay)
    for k in range(min(rules.coins_in_goods_set, coins, cost) + 1):
        if cost - k == 0:
            continue
        for picked in payment._pick_goods(types, cost - k, rules.repeated_types):
            pay = tuple(sorted(("coin",) * k + picked))
            if pay not in out:
                out.append(pay)
    return out


@settings(max_examples=600, deadline=None)
@given(screens, st.integers(0, 9), loosenings)
def test_the_payment_sets_are_the_searchs_in_its_order(screen: dict[str, int], cost: int,
                                                       rules: SetRules) -> None:
    assert list(payments(screen, cost, rules)) == _searched(screen, cost, rules)


def test_one_key_per_type_lists_every_combination_in_order() -> None:
    screen = {"coin": 1, "grain": 1, "oil": 2, "wine": 1, "marble": 1}
    assert list(payments(screen, 3, SetRules())) == [
        ("grain", "marble", "oil"), ("grain", "marble", "wine"), ("grain", "oil", "wine"),
        ("marble", "oil", "wine")]
    assert list(payments(screen, 3, SetRules(coins_in_goods_set=1)))[4:6] == [
        ("coin", "grain", "marble"), ("coin", "grain", "oil")]


@settings(max_examples=100, deadline=None)
@given(loosenings, st.dictionaries(st.sampled_from(["coins_in_goods_set", "goods_in_coin_set",
                                                    "repeated_types"]), st.integers(0, 3)))
def test_a_loosening_adds_to_the_fields_named(rules: SetRules, more: dict[str, int]) -> None:
    fields = ("coins_in_goods_set", "goods_in_coin_set", "repeated_types")
    assert rules.loosen(**more) == SetRules(**{k: getattr(rules, k) + more.get(k, 0)
                                               for k in fields})


def test_a_loosening_of_no_field_is_refused() -> None:
    import pytest

    with pytest.raises(TypeError):
        SetRules().loosen(coins=1)


PLAIN_KEYS = ("amber", "bronze", "coin", "grain", "wine", "oil", "marble", "slaves")
plain_screens = st.dictionaries(st.sampled_from(PLAIN_KEYS), st.integers(0, 3),
                                max_size=len(PLAIN_KEYS))


@settings(max_examples=500, deadline=None)
@given(plain_screens, st.integers(0, 9), loosenings)
def test_screens_without_legendary_goods_list_the_searchs_sets(
        screen: dict[str, int], cost: int, rules: SetRules) -> None:
    """A screen of no legendary good (most screens: its keys are its types, read
    without grouping them) lists the search's sets in its order, with keys that sort
    before and after ``coin``, held or at zero."""
    assert list(payments(screen, cost, rules)) == _searched(screen, cost, rules)


def test_a_legendary_good_or_a_repeat_takes_the_search() -> None:
    screen = {"coin": 1, "grain": 1, "legendary:grain": 1, "oil": 2, "wine": 1}
    assert list(payments(screen, 2, SetRules())) == _searched(screen, 2, SetRules())
    assert ("grain", "legendary:grain") not in list(payments(screen, 2, SetRules()))
    twice = SetRules(repeated_types=1)
    assert ("oil", "oil") in list(payments(screen, 2, twice)) == _searched(screen, 2, twice)


@settings(max_examples=300, deadline=None)
@given(screens, st.integers(0, 7), st.integers(0, 2))
def test_the_picks_listed_are_the_searchs_in_its_order(screen: dict[str, int], need: int,
                                                      repeats: int) -> None:
    """The goods sets a listing takes whole (``_pick_into``) are those the recursive
    generator yields, in its order, for every type layout, need and number of types
    allowed twice."""
    from mare_nostrum import payment

    types = payment._choices(sorted(payment._goods_by_type(screen).items()))
    out: list[tuple[str, ...]] = []
    payment._pick_into(out, types, need, repeats, 0, ())
    assert out == list(payment._pick_goods(types, need, repeats))


def test_sets_are_taken_unsorted_only_with_one_key_a_type() -> None:
    """A type held as itself and as its legendary good has two keys: its sets are sorted
    (a legendary grain sorts after ivory), whatever the first keys' order; with one key
    a type, a pair sits in its type's place."""
    screen = {"grain": 1, "legendary:grain": 1, "ivory": 1}
    twice = SetRules(repeated_types=1)
    for rules in (SetRules(), twice):
        assert list(payments(screen, 2, rules)) == _searched(screen, 2, rules)
    assert ("ivory", "legendary:grain") in list(payments(screen, 2, SetRules()))
    held = {"coin": 1, "grain": 2, "ivory": 1, "wine": 2}
    for rules in (twice, SetRules(repeated_types=1, coins_in_goods_set=1)):
        assert list(payments(held, 3, rules)) == _searched(held, 3, rules)
