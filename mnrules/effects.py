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
from dataclasses import dataclass, field
from typing import Any, TypeVar

# Modifier layers: overrides first, then additions, then multiplications,
# so "+1 per die" and "double" compose the same way whichever card was bought first.
SET = 100
ADD = 200
MULTIPLY = 300

RULES_RANK = 0
"""Rank of the base rules; cards rank after them in the order they were acquired."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happens in the game: ``kind`` names it, ``data`` says to whom and what."""

    kind: str
    player: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Modifier:
    source: str
    fn: Callable[[Any], Any]
    layer: int = ADD
    rank: int = RULES_RANK

    def key(self) -> tuple[int, int, str]:
        return (self.layer, self.rank, self.source)


@dataclass(frozen=True, slots=True)
class Replacement:
    """``fn`` returns the event as it will now happen, or None to cancel it."""

    source: str
    fn: Callable[[Event], Event | None]
    layer: int = ADD
    rank: int = RULES_RANK

    def key(self) -> tuple[int, int, str]:
        return (self.layer, self.rank, self.source)


@dataclass(frozen=True, slots=True)
class Trigger:
    """``fn`` runs after the event; it may change the state or push decision frames."""

    source: str
    fn: Callable[[Event], None]
    layer: int = ADD
    rank: int = RULES_RANK

    def key(self) -> tuple[int, int, str]:
        return (self.layer, self.rank, self.source)


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
