"""The pack's box for Mare Nostrum (NL "Spelonderdelen"): every component the game
needs, each count a whole number; checked with the pack's file:line:col when a rule set
is assembled, before the board is read."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mnrules.content.box import MAX_COUNT as MAX_COUNT
from mnrules.content.box import known_keys, whole_count
from mnrules.content.yamlsource import did_you_mean, lookalike_key, name_problem
from mnrules.errors import PackError

BUILDING_KINDS = ("caravan", "market", "city", "capital", "legendary", "temple")
PIECES = ("legion", "trireme", "fortress", "marker")
RESERVED = frozenset({"coin", "legendary", "good", *BUILDING_KINDS, *PIECES})
COMPONENTS: dict[str, str] = {
    "coins": "the coins in the box", "goods": "each good's tokens",
    "legendary_goods": "how the legendary goods are drawn (one_of_each)",
    "buildings": "each building kind's pieces", "pieces": "each empire's units and markers",
    "trade_tokens": "the trade tokens, each 'a/b' (its faces)",
    "creatures": "unit kinds the pack adds: each kind's count per empire, where it may "
                 "stand and its role",
}
CREATURE_KEYS = {"count": "how many each empire's box holds",
                 "enters": "where it may stand: 'land' (any province in play) or a list "
                           "of the board's provinces",
                 "role": "'token': it rolls no die, is never lost in a battle, counts on "
                         "no track; a card's script gives it its power",
                 "note": "where the kind comes from"}
CREATURE_ROLES = ("token",)
_TOKEN = re.compile(r"\d{1,2}(/\d{1,2}){0,5}")


def check_components(components: Any, where: Callable[..., str]) -> None:
    """The pack's box: every component it needs, each count a whole number from 0 to
    MAX_COUNT. ``where(*path)`` gives the file:line:col of a key under ``components``."""
    if not isinstance(components, dict):
        raise PackError(f"{where()}: components: expected a mapping, got "
                        f"{components!r:.80}")
    known_keys(components, COMPONENTS, "components", where)
    for key in ("coins", "goods", "buildings", "pieces", "trade_tokens"):
        if key not in components:
            raise PackError(f"{where()}: components: missing {key} ({COMPONENTS[key]})")
    _count(components["coins"], "components.coins", where("coins"))
    goods = components["goods"]
    if not isinstance(goods, dict) or not 1 <= len(goods) <= 40:
        raise PackError(f"{where('goods')}: components.goods: expected a mapping of 1 to "
                        f"40 goods to their number of tokens, got {goods!r:.80}")
    seen: dict[str, str] = {}
    for good, n in goods.items():
        at = where("goods", good)
        problem = name_problem(good) if isinstance(good, str) else "a good is named by text"
        if problem is None and good in RESERVED:
            problem = f"{good!r} already names a building, a unit or a coin"
        if problem is None and lookalike_key(good) in seen:
            problem = f"{good!r} looks like {seen[lookalike_key(good)]!r}"
        if problem is not None:
            raise PackError(f"{at}: components.goods.{good}: {problem}")
        seen[lookalike_key(good)] = good
        _count(n, f"components.goods.{good}", at)
    if components.get("legendary_goods", "one_of_each") != "one_of_each":
        raise PackError(f"{where('legendary_goods')}: components.legendary_goods: expected "
                        f"'one_of_each', got {components['legendary_goods']!r:.80}")
    for key, names in (("buildings", BUILDING_KINDS), ("pieces", PIECES)):
        value = components[key]
        if not isinstance(value, dict):
            raise PackError(f"{where(key)}: components.{key}: expected a mapping of "
                            f"{', '.join(names)} to numbers, got {value!r:.80}")
        known_keys(value, names, f"components.{key}", lambda name, key=key: where(key, name),
                   "building kind" if key == "buildings" else "piece")
        for name in names:
            if name not in value:
                raise PackError(f"{where(key)}: components.{key}: missing {name}")
            _count(value[name], f"components.{key}.{name}", where(key, name))
    _check_creatures(components.get("creatures", {}), goods, where)
    tokens = components["trade_tokens"]
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= 9:
        raise PackError(f"{where('trade_tokens')}: components.trade_tokens: expected a "
                        f"list of 1 to 9 tokens such as '5/0', got {tokens!r:.80}")
    for i, token in enumerate(tokens):
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            raise PackError(f"{where('trade_tokens', i)}: components.trade_tokens[{i}]: "
                            f"expected a token such as '5/0' or '4/3' (its faces, whole "
                            f"numbers up to 99), got {token!r:.80}")


def _count(value: Any, key: str, where: str) -> None:
    whole_count(value, key, where, MAX_COUNT)


def creature_kinds(components: Any) -> dict[str, dict[str, Any]]:
    """The unit kinds a pack adds (checked by :func:`check_components`), by id."""
    return dict(components.get("creatures") or {})


def _check_creatures(creatures: Any, goods: Any, where: Callable[..., str]) -> None:
    """A creature is a unit kind the pack declares as data: a new id (no good, building,
    unit or coin), its count in each empire's box, where it may stand and its role."""
    if not isinstance(creatures, dict) or len(creatures) > 20:
        raise PackError(f"{where('creatures')}: components.creatures: expected a mapping "
                        f"of up to 20 unit kinds to their count, enters and role, got "
                        f"{creatures!r:.80}")
    for kind, spec in creatures.items():
        at = where("creatures", kind)
        problem = name_problem(kind) if isinstance(kind, str) else "a kind is named by text"
        if problem is None and (kind in RESERVED or kind in goods):
            problem = f"{kind!r} already names a good, a building, a unit or a coin"
        if problem is not None:
            raise PackError(f"{at}: components.creatures.{kind}: {problem}")
        if not isinstance(spec, dict):
            raise PackError(f"{at}: components.creatures.{kind}: expected a mapping with "
                            f"{', '.join(CREATURE_KEYS)}, got {spec!r:.80}")
        for key in spec:
            if key not in CREATURE_KEYS:
                raise PackError(f"{where('creatures', kind, key)}: components.creatures."
                                f"{kind}.{key}: unknown key"
                                + did_you_mean(str(key), CREATURE_KEYS,
                                               f" (expected {', '.join(CREATURE_KEYS)})"))
        for key in ("count", "enters", "role"):
            if key not in spec:
                raise PackError(f"{at}: components.creatures.{kind}: missing {key} "
                                f"({CREATURE_KEYS[key]})")
        _count(spec["count"], f"components.creatures.{kind}.count",
               where("creatures", kind, "count"))
        enters = spec["enters"]
        if enters != "land" and not (isinstance(enters, list) and enters
                                     and all(isinstance(a, str) for a in enters)):
            raise PackError(f"{where('creatures', kind, 'enters')}: components.creatures."
                            f"{kind}.enters: expected 'land' or a list of provinces, got "
                            f"{enters!r:.80}")
        if spec["role"] not in CREATURE_ROLES:
            raise PackError(f"{where('creatures', kind, 'role')}: components.creatures."
                            f"{kind}.role: expected {' or '.join(CREATURE_ROLES)}, got "
                            f"{spec['role']!r:.80}"
                            + did_you_mean(str(spec["role"]), CREATURE_ROLES))
