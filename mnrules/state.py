"""The game state: plain data only (str, int, bool, list, dict), so that a
snapshot is a JSON document that round-trips exactly.

The kernel's state holds only what every game has; a game adds its components by
subclassing :class:`State`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar, Self

from .errors import StateError

# The shape of each state key: a type, or (container, item shape) for nested data.
KERNEL_SHAPES: dict[str, Any] = {
    "seed": int, "players": (list, str), "round": int, "phase": str, "choices": int,
    "vars": dict, "stack": (list, dict), "rng": list, "winners": (list, str), "victory": str,
    "finished": bool,
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
    """What every game has: its seed and players, the round and phase, the decision
    stack, the generator, the outcome. A game declares its own state as a subclass
    (dataclass fields with their ``SHAPES``) through the ``mn_state_class`` hook; the
    kernel validates and round-trips whatever was declared."""

    SHAPES: ClassVar[dict[str, Any]] = KERNEL_SHAPES

    seed: int
    players: list[str]
    round: int = 1
    phase: str = ""
    choices: int = 0          # choices applied so far (like chess's move number)
    # Plain data a plugin keeps between steps, under keys it owns ("trade.tokens", ...).
    vars: dict[str, Any] = field(default_factory=dict)
    # The decision stack: frames are dicts with a "step" key.
    stack: list[dict[str, Any]] = field(default_factory=list)
    rng: list[Any] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    victory: str = ""
    finished: bool = False

    def cards_held(self, player: str) -> Sequence[str]:
        """The cards ``player`` holds (whose effects act for him); a game with cards
        says where they lie in its state."""
        return ()

    # -- snapshots -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def copy(self) -> Self:
        return self.from_dict(copy.deepcopy(self.to_dict()))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
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
            _check_type(key, value, cls.SHAPES[key])
        return cls(**data)

    @classmethod
    def from_json(cls, text: str) -> Self:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateError(f"state is not valid JSON: line {exc.lineno} column {exc.colno}: "
                             f"{exc.msg}") from None
        return cls.from_dict(data)
