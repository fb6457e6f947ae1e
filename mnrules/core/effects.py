"""The three kinds of rule effect, and the one order they are applied in.

* A **modifier** folds a value (a cost, a dice total, a hit count, a storage limit).
* A **replacement** changes what an event does before it happens (or cancels it).
* A **trigger** reacts after an event has happened.

Plugins and compiled cards return effect objects from the ``mn_modifiers``,
``mn_replacements`` and ``mn_triggers`` hooks; the engine sorts them by
``(layer, rank, source)`` before applying them. pluggy's own call order (last
registered first, tryfirst/trylast) is therefore never what decides a result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

# Modifier layers: overrides first, then additions, then multiplications, then limits,
# so "+1 per die" and "double" compose the same way whichever card was bought first.
SET = 100
ADD = 200
MULTIPLY = 300
LIMIT = 400   # 'at least' / 'at most': bounds on what the others made of it

RULES_RANK = 0
"""Rank of the base rules; cards rank after them in the order they were acquired."""


# The four are plain classes with their own ``__init__``, equal by value, as ``Decision``
# is (not frozen slotted dataclasses): an event is made at every ``perform`` and a
# modifier at every fold a card answers, and the compiled core (docs/speed.md) builds
# such a class natively, while a dataclass keeps its generated Python ``__init__`` there
# (a frozen one, an ``object.__setattr__`` per field). Read them, never change them.


class Event:
    """Something that happens in the game: ``kind`` names it, ``data`` says to whom and what."""

    kind: str
    player: str | None
    data: dict[str, Any]

    def __init__(self, kind: str, player: str | None = None,
                 data: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.player = player
        self.data = {} if data is None else data

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Event:
            return NotImplemented
        assert isinstance(other, Event)
        return (self.kind, self.player, self.data) == (other.kind, other.player, other.data)

    def __hash__(self) -> int:
        return hash((self.kind, self.player, self.data))   # (a dict: unhashable, as before)

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, player={self.player!r}, data={self.data!r})"


class Modifier:
    source: str
    fn: Callable[[Any], Any]
    layer: int
    rank: int

    def __init__(self, source: str, fn: Callable[[Any], Any], layer: int = ADD,
                 rank: int = RULES_RANK) -> None:
        self.source = source
        self.fn = fn
        self.layer = layer
        self.rank = rank

    def key(self) -> tuple[int, int, str]:
        return (self.layer, self.rank, self.source)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Modifier:
            return NotImplemented
        assert isinstance(other, Modifier)
        return _values(self) == _values(other)

    def __hash__(self) -> int:
        return hash(_values(self))

    def __repr__(self) -> str:
        return _repr("Modifier", self)


class Replacement:
    """``fn`` returns the event as it will now happen, or None to cancel it."""

    source: str
    fn: Callable[[Event], Event | None]
    layer: int
    rank: int

    def __init__(self, source: str, fn: Callable[[Event], Event | None], layer: int = ADD,
                 rank: int = RULES_RANK) -> None:
        self.source = source
        self.fn = fn
        self.layer = layer
        self.rank = rank

    def key(self) -> tuple[int, int, str]:
        return (self.layer, self.rank, self.source)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Replacement:
            return NotImplemented
        assert isinstance(other, Replacement)
        return _values(self) == _values(other)

    def __hash__(self) -> int:
        return hash(_values(self))

    def __repr__(self) -> str:
        return _repr("Replacement", self)


class Trigger:
    """``fn`` runs after the event; it may change the state or push decision frames."""

    source: str
    fn: Callable[[Event], None]
    layer: int
    rank: int

    def __init__(self, source: str, fn: Callable[[Event], None], layer: int = ADD,
                 rank: int = RULES_RANK) -> None:
        self.source = source
        self.fn = fn
        self.layer = layer
        self.rank = rank

    def key(self) -> tuple[int, int, str]:
        return (self.layer, self.rank, self.source)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Trigger:
            return NotImplemented
        assert isinstance(other, Trigger)
        return _values(self) == _values(other)

    def __hash__(self) -> int:
        return hash(_values(self))

    def __repr__(self) -> str:
        return _repr("Trigger", self)


def _values(e: Modifier | Replacement | Trigger) -> tuple[Any, ...]:
    return (e.source, e.fn, e.layer, e.rank)


def _repr(name: str, e: Modifier | Replacement | Trigger) -> str:
    return f"{name}(source={e.source!r}, fn={e.fn!r}, layer={e.layer!r}, rank={e.rank!r})"


Effect = TypeVar("Effect", Modifier, Replacement, Trigger)


def ordered(results: list[list[Effect] | Effect]) -> list[Effect]:
    """Flatten what a hook returned and sort it into the one order effects apply in."""
    out: list[Effect] = []
    for r in results:
        if isinstance(r, list):
            out.extend(r)
        else:
            out.append(r)
    out.sort(key=lambda e: e.key())
    return out
