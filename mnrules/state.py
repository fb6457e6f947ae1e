"""The game state: plain data only (str, int, bool, list, dict), so that a
snapshot is a JSON document that round-trips exactly.

The state knows the *components* (areas, slots, units, markers, screens,
piles, tiles); what they mean is for the rule plugins to say.
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from .errors import StateError

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


def _check_type(path: str, value: Any, shape: Any) -> None:
    """Refuse a state whose key holds the wrong kind of value (a hostile or broken file)."""
    if isinstance(shape, tuple) and len(shape) == 2 and shape[0] in (dict, list):
        container, item = shape
        if not isinstance(value, container):
            raise StateError(f"{path}: expected a {container.__name__}, got "
                             f"{type(value).__name__}")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            if isinstance(value, dict) and not isinstance(k, str):
                raise StateError(f"{path}: keys must be text, got {k!r}")
            _check_type(f"{path}.{k}" if isinstance(value, dict) else f"{path}[{k}]", v, item)
        return
    kinds = shape if isinstance(shape, tuple) else (shape,)
    if isinstance(value, bool) and bool not in kinds:
        raise StateError(f"{path}: expected {' or '.join(k.__name__ for k in kinds)}, "
                         f"got {value!r}")
    if not isinstance(value, kinds):
        raise StateError(f"{path}: expected {' or '.join(k.__name__ for k in kinds)}, "
                         f"got {type(value).__name__}")


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
        if not isinstance(data, dict):
            raise StateError(f"a state must be a mapping, got {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise StateError(f"unknown state key(s): {', '.join(unknown)}")
        missing = [n for n in ("seed", "players") if n not in data]
        if missing:
            raise StateError(f"missing state key(s): {', '.join(missing)}")
        for key, value in data.items():
            _check_type(key, value, _SHAPES[key])
        return cls(**data)

    @classmethod
    def from_json(cls, text: str) -> State:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateError(f"state is not valid JSON: line {exc.lineno} column {exc.colno}: "
                             f"{exc.msg}") from None
        return cls.from_dict(data)
