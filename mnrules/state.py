"""The game state: plain data only (str, int, bool, list, dict), so that a
snapshot is a JSON document that round-trips exactly.

The state knows the *components* (areas, slots, units, markers, screens,
piles, tiles); what they mean is for the rule plugins to say.
"""

from __future__ import annotations

import copy
import json
import math
import random
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from .errors import StateError, _short

LEGENDARY = "legendary:"
"""Prefix of a legendary good's resource key ("legendary:grain")."""


def base_good(key: str) -> str:
    """The ordinary type a resource key counts as (a legendary good counts as its type)."""
    return key[len(LEGENDARY):] if key.startswith(LEGENDARY) else key


# The shape of each state key: a type, or (container, item shape) for nested data.
_INT_MAP = (dict, int)
_SHAPES: dict[str, Any] = {
    "seed": int, "players": (list, str), "round": int, "phase": str, "choices": int,
    "control": (dict, (str, type(None))), "built": (dict, (list, bool)),
    "occupied": (dict, (list, (str, type(None)))), "marker_occupier": (dict, str),
    "units": (dict, (dict, (dict, int))), "pieces": (dict, _INT_MAP),
    "screens": (dict, _INT_MAP), "supply": _INT_MAP, "legendary_pile": (list, str),
    "legendary_discard": (list, str), "tiles": (dict, (list, str)), "display": (list, str),
    "display_hidden": (list, str), "titles": (dict, str), "vars": dict, "stack": (list, dict),
    "rng": list, "winners": (list, str), "victory": str, "finished": bool,
}


MAX_DEPTH = 24
"""How deep plain data may nest in a state (a real game's frames and vars: about 6)."""
MAX_INT = 2**63 - 1
"""The largest whole number a state may hold, either sign (a real game's: a few hundred)."""
MAX_ROUND = 10_000
RNG_WORDS = 625     # random.Random's state: 624 words of Mersenne Twister and an index


def _dotted(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def check_plain(data: Any, root: tuple[str | int, ...] = (), depth: int = MAX_DEPTH) -> None:
    """Refuse what JSON cannot hold or a game never does: other types, floats, keys that
    are not text, nesting deeper than ``depth``, whole numbers beyond :data:`MAX_INT`.
    Iterative, so that hostile nesting cannot exhaust the stack."""
    todo: list[tuple[Any, tuple[str | int, ...]]] = [(data, root)]
    while todo:
        value, path = todo.pop()
        if isinstance(value, dict):
            if len(path) - len(root) >= depth:
                raise StateError(f"nests more than {depth} deep", _dotted(path))
            for k, v in value.items():
                if not isinstance(k, str):
                    raise StateError(f"keys must be text, got {_short(k)}", _dotted(path))
                todo.append((v, (*path, k)))
        elif isinstance(value, list | tuple):
            if len(path) - len(root) >= depth:
                raise StateError(f"nests more than {depth} deep", _dotted(path))
            todo.extend((v, (*path, i)) for i, v in enumerate(value))
        elif isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        elif isinstance(value, int):
            if not -MAX_INT <= value <= MAX_INT:
                raise StateError(f"a number beyond ±{MAX_INT:,}", _dotted(path))
        elif isinstance(value, float) and path == ("rng", 2) and math.isfinite(value):
            continue  # the generator's spare Gaussian: the only number not whole
        elif isinstance(value, float):
            raise StateError(f"{value!r}: a state holds whole numbers only", _dotted(path))
        else:
            raise StateError(f"a {type(value).__name__} is not plain data", _dotted(path))


def _check_type(path: str, value: Any, shape: Any) -> None:
    """Refuse a state whose key holds the wrong kind of value (a hostile or broken file)."""
    if isinstance(shape, tuple) and len(shape) == 2 and shape[0] in (dict, list):
        container, item = shape
        if not isinstance(value, container):
            raise StateError(f"expected a {container.__name__}, got {type(value).__name__}",
                             path)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            if isinstance(value, dict) and not isinstance(k, str):
                raise StateError(f"keys must be text, got {k!r}", path)
            _check_type(f"{path}.{k}" if isinstance(value, dict) else f"{path}[{k}]", v, item)
        return
    kinds = shape if isinstance(shape, tuple) else (shape,)
    if isinstance(value, bool) and bool not in kinds:
        raise StateError(f"expected {' or '.join(k.__name__ for k in kinds)}, got {value!r}",
                         path)
    if not isinstance(value, kinds):
        raise StateError(f"expected {' or '.join(k.__name__ for k in kinds)}, "
                         f"got {type(value).__name__}", path)


def _check_counts(data: dict[str, Any]) -> None:
    """Bounds no game leaves: negative counts, a round before the first, duplicates."""
    def at_least(path: str, n: int, low: int, high: int = MAX_INT) -> None:
        if not low <= n <= high:
            raise StateError(f"{n} is out of bounds ({low} to {high:,})", path)

    if "round" in data:
        at_least("round", data["round"], 1, MAX_ROUND)
    if "choices" in data:
        at_least("choices", data["choices"], 0)
    for area, owners in data.get("units", {}).items():
        for who, kinds in owners.items():
            for kind, n in kinds.items():
                at_least(f"units.{area}.{who}.{kind}", n, 0)
    for key in ("pieces", "screens"):
        for who, items in data.get(key, {}).items():
            for k, n in items.items():
                at_least(f"{key}.{who}.{k}", n, 0)
    for k, n in data.get("supply", {}).items():
        at_least(f"supply.{k}", n, 0)
    players = data["players"]
    if not players:
        raise StateError("no players", "players")
    for i, p in enumerate(players):
        if p in players[:i]:
            raise StateError(f"{p!r} is seated twice", f"players[{i}]")
    seen: dict[str, str] = {}
    places = [(f"tiles.{who}", ts) for who, ts in data.get("tiles", {}).items()]
    places += [(key, data.get(key, [])) for key in ("display", "display_hidden")]
    for where, tiles in places:
        for i, t in enumerate(tiles):
            if t in seen:
                raise StateError(f"the tile {t!r} is also in {seen[t]}", f"{where}[{i}]")
            seen[t] = where
    winners = data.get("winners", [])
    for i, who in enumerate(winners):
        if who not in players or who in winners[:i]:
            raise StateError(f"{who!r} is not a player of this game, or is named twice",
                             f"winners[{i}]")
    if not data.get("finished", False) and (winners or data.get("victory")):
        raise StateError("a game not finished has no winner nor victory", "winners")
    for i, frame in enumerate(data.get("stack", [])):
        if not isinstance(frame.get("step"), str):
            raise StateError("a frame names its step as text", f"stack[{i}].step")
    cap = data.get("vars", {}).get("round_cap")
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
        raise StateError(f"expected a whole number of rounds or null, not {_short(cap)}",
                         "vars.round_cap")
    forced = data.get("vars", {}).get("forced")
    if forced is not None and not (isinstance(forced, dict) and
                                   all(isinstance(v, list) for v in forced.values())):
        raise StateError("expected a mapping of chance labels to lists of outcomes",
                         "vars.forced")
    rng = data.get("rng")
    if rng:
        check_rng(rng)


def check_rng(rng: list[Any]) -> None:
    """Refuse anything but a saved ``random.Random`` state: [3, 625 words, gauss]."""
    ok = (len(rng) == 3 and rng[0] == 3 and not isinstance(rng[0], bool)
          and isinstance(rng[1], list) and len(rng[1]) == RNG_WORDS
          and all(type(w) is int and 0 <= w < 2**32 for w in rng[1])
          and (rng[2] is None or type(rng[2]) is float))
    if ok:
        try:
            random.Random().setstate((3, tuple(rng[1]), rng[2]))
        except (TypeError, ValueError, OverflowError):
            ok = False
    if not ok:
        raise StateError("not a random generator state (as a snapshot saves it: "
                         f"[3, {RNG_WORDS} words, null or a number])", "rng")


@dataclass
class State:
    """Everything that changes during a game. Tracks are not stored: they are derived."""

    seed: int
    players: list[str]
    round: int = 1
    phase: str = ""
    choices: int = 0          # choices applied so far (like chess's move number)
    # Board: per province, the marker holder and, per printed slot, whether it is built
    # and who occupies it.
    control: dict[str, str | None] = field(default_factory=dict)
    built: dict[str, list[bool]] = field(default_factory=dict)
    occupied: dict[str, list[str | None]] = field(default_factory=dict)
    marker_occupier: dict[str, str] = field(default_factory=dict)
    # units[area][player][kind] = count; empty entries are pruned so that "who is here"
    # is just the keys.
    units: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    # What each empire still has in its box (legions, triremes, fortresses, markers).
    pieces: dict[str, dict[str, int]] = field(default_factory=dict)
    # Resources behind each screen, by resource key.
    screens: dict[str, dict[str, int]] = field(default_factory=dict)
    # The general supply: resource keys and building kinds.
    supply: dict[str, int] = field(default_factory=dict)
    legendary_pile: list[str] = field(default_factory=list)
    legendary_discard: list[str] = field(default_factory=list)
    # Heroes and wonders.
    tiles: dict[str, list[str]] = field(default_factory=dict)
    display: list[str] = field(default_factory=list)
    display_hidden: list[str] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)
    # Plain data a plugin keeps between steps, under keys it owns ("trade.tokens", ...).
    vars: dict[str, Any] = field(default_factory=dict)
    # The decision stack: frames are dicts with a "step" key.
    stack: list[dict[str, Any]] = field(default_factory=list)
    rng: list[Any] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    victory: str = ""
    finished: bool = False

    # -- units -------------------------------------------------------------------------
    def count(self, area: str, player: str, kind: str) -> int:
        return self.units.get(area, {}).get(player, {}).get(kind, 0)

    def unit_owners(self, area: str) -> list[str]:
        return list(self.units.get(area, {}))

    def add_units(self, area: str, player: str, kind: str, n: int = 1) -> None:
        here = self.units.setdefault(area, {}).setdefault(player, {})
        here[kind] = here.get(kind, 0) + n

    def remove_units(self, area: str, player: str, kind: str, n: int = 1) -> None:
        area_units = self.units[area]
        here = area_units[player]
        left = here[kind] - n
        if left < 0:
            raise StateError(f"{player} has no {kind} left to remove in {area}")
        if left:
            here[kind] = left
        else:
            del here[kind]
            if not here:
                del area_units[player]
                if not area_units:
                    del self.units[area]

    # -- resources -----------------------------------------------------------------------
    def gain(self, player: str, key: str, n: int = 1) -> None:
        screen = self.screens[player]
        screen[key] = screen.get(key, 0) + n

    def spend(self, player: str, key: str, n: int = 1) -> None:
        screen = self.screens[player]
        left = screen.get(key, 0) - n
        if left < 0:
            raise StateError(f"{player} has fewer than {n} {key}")
        if left:
            screen[key] = left
        else:
            screen.pop(key, None)

    def held(self, player: str) -> int:
        return sum(self.screens[player].values())

    # -- snapshots -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def copy(self) -> State:
        return State.from_dict(copy.deepcopy(self.to_dict()))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        """A state from plain data, refused (:class:`StateError`, naming the key) unless
        it is plain data of the right shape within the bounds a game keeps; what the
        rules and the board say of it is checked by :func:`mnrules.start.load_game`."""
        if not isinstance(data, dict):
            raise StateError(f"a state must be a mapping, got {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in data if k not in names)
        if unknown:
            raise StateError(f"unknown state key(s): {', '.join(_short(k, 40) for k in unknown)}")
        missing = [n for n in ("seed", "players") if n not in data]
        if missing:
            raise StateError(f"missing state key(s): {', '.join(missing)}")
        check_plain(data)
        for key, value in data.items():
            _check_type(key, value, _SHAPES[key])
        _check_counts(data)
        return cls(**data)

    @classmethod
    def from_json(cls, text: str | bytes) -> State:
        """A state from its JSON text (see :meth:`from_dict`)."""
        return cls.from_dict(read_json(text))


def read_json(text: str | bytes) -> Any:
    """JSON text as plain data; anything JSON cannot read, or reads only by exhausting
    the stack or by a number too long to convert, is a :class:`StateError`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StateError(f"not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateError(f"not JSON: line {exc.lineno} column {exc.colno}: "
                         f"{exc.msg}") from None
    except RecursionError:
        raise StateError("not JSON: it nests too deep") from None
    except ValueError as exc:  # a number of thousands of digits
        raise StateError(f"not JSON: {exc}") from None
