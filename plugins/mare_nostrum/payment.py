"""Payment sets (FR 3.1; NL/PL/UK 3.0): each purchase is paid with one set whose size is
its cost — coins only, or goods all of different types (a legendary good counts as
its type). Heroes loosen this through the ``payment`` modifier (one coin in a goods
set, one good in a coin set, one goods type twice)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from mare_nostrum.state import LEGENDARY, Game, base_good

Payment = tuple[str, ...]


class SetRules:
    """What a payment set may contain beyond the base rule.

    (A plain class equal and hashed by value, as the kernel's ``Event`` is, not a frozen
    dataclass: a hero's loosening makes one at every listing and purchase, and the
    compiled core builds a plain class natively. Read it, never change it.)"""

    coins_in_goods_set: int
    goods_in_coin_set: int
    repeated_types: int

    def __init__(self, coins_in_goods_set: int = 0, goods_in_coin_set: int = 0,
                 repeated_types: int = 0) -> None:
        self.coins_in_goods_set = coins_in_goods_set
        self.goods_in_coin_set = goods_in_coin_set
        self.repeated_types = repeated_types

    def _values(self) -> tuple[int, int, int]:
        return (self.coins_in_goods_set, self.goods_in_coin_set, self.repeated_types)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not SetRules:
            return NotImplemented
        assert isinstance(other, SetRules)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return (f"SetRules(coins_in_goods_set={self.coins_in_goods_set!r}, "
                f"goods_in_coin_set={self.goods_in_coin_set!r}, "
                f"repeated_types={self.repeated_types!r})")

    def loosen(self, **more: int) -> SetRules:
        # (a hero's fold at every listing and purchase; a name that is no field is
        # refused as dataclasses.replace would)
        now = {"coins_in_goods_set": self.coins_in_goods_set,
               "goods_in_coin_set": self.goods_in_coin_set,
               "repeated_types": self.repeated_types}
        for k, v in more.items():
            if k not in now:
                raise TypeError(f"SetRules has no field {k!r}")
            now[k] += v
        return SetRules(now["coins_in_goods_set"], now["goods_in_coin_set"],
                        now["repeated_types"])


BASE_RULES = SetRules()
"""The base rule (immutable, so one value serves every fold)."""


def set_rules(game: Game, player: str) -> SetRules:
    rules: SetRules = game.fold("payment", BASE_RULES, player=player)
    return rules


def _goods_by_type(screen: dict[str, int]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, n in sorted(screen.items()):
        if key == "coin" or n <= 0:
            continue
        out.setdefault(base_good(key), []).extend([key] * min(n, 2))
    return out


Choice = tuple[tuple[str, ...], tuple[tuple[str, str], ...]]
"""A goods type's ways into a set: one of its keys, or (with a repeat) a pair of them."""


def _choices(types: list[tuple[str, list[str]]], pairs: bool = True) -> list[Choice]:
    """Per type, its distinct keys and its distinct pairs, each sorted (computed once per
    listing rather than at every step of the search; the pairs only if ``pairs``: the
    search reads them only when a type may be paid twice)."""
    out: list[Choice] = []
    for _, keys in types:
        two = sorted({(a, b) if a <= b else (b, a) for j, a in enumerate(keys)
                      for b in keys[j + 1:]}) if pairs else ()
        out.append((tuple(sorted(set(keys))), tuple(two)))
    return out


def _pick_goods(types: list[Choice], need: int, repeats: int,
                start: int = 0) -> Iterator[tuple[str, ...]]:
    """Multisets of ``need`` goods, one per type (two for up to ``repeats`` types)."""
    if need == 0:
        yield ()
        return
    if len(types) - start < need - repeats and repeats == 0:
        return
    for i in range(start, len(types)):
        variants, pairs = types[i]
        if need == 1:
            for v in variants:
                yield (v,)
        else:
            for v in variants:
                for rest in _pick_goods(types, need - 1, repeats, i + 1):
                    yield (v, *rest)
        if repeats and need >= 2:
            for a, b in pairs:
                for rest in _pick_goods(types, need - 2, repeats - 1, i + 1):
                    yield (a, b, *rest)


def _pick_into(out: list[tuple[str, ...]], types: list[Choice], need: int, repeats: int,
               start: int, head: tuple[str, ...]) -> None:
    """:func:`_pick_goods`'s multisets, in its order, each appended to ``out`` after
    ``head`` (no generator to resume at each depth for every set: a listing takes them
    all; a head and its next keys joined by ``+``, which makes the tuple at once, where
    an unpacking ``(*head, v)`` goes through a list: RUF005 is waived for it)."""
    if need == 0:
        out.append(head)
        return
    if repeats == 0 and len(types) - start < need:
        return
    for i in range(start, len(types)):
        variants, pairs = types[i]
        if need == 1:
            for v in variants:
                out.append(head + (v,))  # noqa: RUF005
        else:
            for v in variants:
                _pick_into(out, types, need - 1, repeats, i + 1, head + (v,))  # noqa: RUF005
        if repeats and need >= 2:
            for a, b in pairs:
                _pick_into(out, types, need - 2, repeats - 1, i + 1,
                           head + (a, b))  # noqa: RUF005


def payments(screen: dict[str, int], cost: int, rules: SetRules) -> Iterator[Payment]:
    """Every distinct set of exactly ``cost`` resources from ``screen`` that may pay."""
    if cost == 0:
        yield ()
        return
    coins = screen.get("coin", 0)
    seen: set[Payment] = set()
    repeats = rules.repeated_types
    # No legendary good and no type twice (most screens): each goods key is a type of
    # its own, with one variant and no pair, so the types and their singles are the
    # held keys, sorted (what _goods_by_type and _choices would find, without them).
    singles: list[str] = []
    for key, n in screen.items():
        if key != "coin" and n > 0:
            if repeats or key.startswith(LEGENDARY):
                singles = []
                break
            singles.append(key)
    else:
        singles.sort()
    types = [] if singles else \
        _choices(sorted(_goods_by_type(screen).items()), bool(repeats))
    # Coin sets, with up to `goods_in_coin_set` goods in them.
    for j in range(rules.goods_in_coin_set + 1):
        if cost - j > coins or cost - j < 0:
            continue
        if j == 0:
            found: Iterator[list[str]] = iter([[]])
        elif j == 1:   # one good of any type: each key held, in order (_any_goods's)
            found = iter([[good] for good, held in sorted(screen.items())
                          if good != "coin" and held > 0])
        else:
            found = (list(g) for g in _any_goods(screen, j))
        for goods in found:
            pay = tuple(sorted(["coin"] * (cost - j) + goods))
            if pay not in seen:
                seen.add(pay)
                yield pay
    # Goods sets, with up to `coins_in_goods_set` coins in them.
    # One key per type and no type twice (most screens): the search's sets are the
    # combinations of those keys, in the same order, made without the recursion.
    one_key = bool(types) and all(len(keys) == 1 for keys, _ in types)
    if one_key and not repeats:
        singles = [keys[0] for keys, _ in types]
    # ... and if each type has one key and those keys sort after "coin" in type order,
    # every set comes out sorted (a type's pair is its key twice, in its place), and new
    # when it holds more goods than a coin set may (no coin set is it, each multiset is
    # found once, and the goods sets of another number of coins differ): nothing to sort,
    # nothing to look up.
    firsts = singles or ([keys[0] for keys, _ in types] if one_key else [])
    ordered = bool(firsts) and firsts[0] > "coin" and firsts == sorted(firsts)
    for k in range(min(rules.coins_in_goods_set, coins, cost) + 1):
        need = cost - k
        if need == 0:
            continue
        coins_k = ("coin",) * k
        if singles:
            found_goods: Iterable[tuple[str, ...]] = combinations(singles, need)
        else:
            found_goods = []
            _pick_into(found_goods, types, need, repeats, 0, ())
        if ordered and need > rules.goods_in_coin_set:
            for picked in found_goods:
                yield coins_k + picked
            continue
        for picked in found_goods:
            pay = tuple(sorted(coins_k + picked))
            if pay not in seen:
                seen.add(pay)
                yield pay


def _any_goods(screen: dict[str, int], n: int) -> Iterator[tuple[str, ...]]:
    """Every multiset of ``n`` goods from ``screen``, of any types."""
    held = [(k, v) for k, v in sorted(screen.items()) if k != "coin" and v > 0]

    def pick(i: int, need: int) -> Iterator[tuple[str, ...]]:
        if need == 0:
            yield ()
            return
        if i == len(held):
            return
        key, have = held[i]
        for take in range(min(have, need), -1, -1):
            for rest in pick(i + 1, need - take):
                yield (key,) * take + rest

    yield from pick(0, n)


def can_pay(screen: dict[str, int], cost: int, rules: SetRules) -> bool:
    """Whether :func:`payments` would find a set, counted without listing one (see
    :class:`Purse`)."""
    return Purse(screen).can_pay(cost, rules)


class Purse:
    """What a screen holds, as affordability counts it (made once per listing, asked of
    each price): a coin set with ``j`` goods needs ``cost - j`` coins and ``j`` goods of
    any types; a goods set with ``k`` coins needs ``cost - k`` goods, one per type held
    plus a second of up to ``repeated_types`` types held twice (more coins in it only
    ever help)."""

    def __init__(self, screen: dict[str, int]) -> None:
        self.coins = screen.get("coin", 0)
        goods = 0
        per_type: dict[str, int] = {}
        for key, n in screen.items():
            if key != "coin" and n > 0:
                goods += n
                # (base_good, inlined: no call per key)
                kind = key[len(LEGENDARY):] if key.startswith(LEGENDARY) else key
                per_type[kind] = per_type.get(kind, 0) + n
        self.goods = goods
        self.types = len(per_type)
        self.doubles = sum(1 for n in per_type.values() if n >= 2)

    def can_pay(self, cost: int, rules: SetRules) -> bool:
        coins = self.coins
        if cost <= coins:
            return True
        for j in range(1, rules.goods_in_coin_set + 1):
            if 0 <= cost - j <= coins and j <= self.goods:
                return True
        most = self.types + min(rules.repeated_types, self.doubles)
        return cost - min(rules.coins_in_goods_set, coins, cost) <= most

