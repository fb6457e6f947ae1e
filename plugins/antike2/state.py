"""Antike II's state: where each nation stands on the rondel, what it holds, its cities,
units, know-how and personages, the neutral temples, the temples destroyed and who holds
Bellona.

Plain data only, so that a snapshot is a JSON document. Nothing countable is stored
twice: cities, temples and seas per nation, the bank's coins, what is left in the box
are derived (``supply.py``). The kernel validates every field against ``SHAPES`` when a
save is loaded. The order of ``players`` is the order of play (clockwise), the start
player first: setup rotates the seating so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from mnrules.core import engine
from mnrules.core.state import KERNEL_SHAPES, at_least
from mnrules.core.state import State as KernelState
from mnrules.errors import StateError

RESOURCES = ("marble", "iron", "gold")
"""The three resources; a coin stands for any of them in a payment."""
COIN = "coin"
HOLDINGS = (*RESOURCES, COIN)
"""What a nation's stock holds."""
UNITS = ("legion", "galley")
CITY_KEYS = ("owner", "resource", "temple")

_INT_MAP = (dict, int)


@dataclass
class State(KernelState):
    """Everything of Antike II that changes during a game, each part with the plugin
    that writes it (the rest only read it)."""

    SHAPES: ClassVar[dict[str, Any]] = {
        **KERNEL_SHAPES,
        "side": str, "rondel": (dict, str), "stock": (dict, _INT_MAP),
        "cities": (dict, dict), "neutral": (list, str),
        "units": (dict, (dict, _INT_MAP)), "know_how": (dict, (list, str)),
        "personages": (dict, (list, str)), "destroyed": _INT_MAP, "bellona": str,
        "firsts": (dict, str),
    }

    side: str = ""
    # nation -> the rondel space its marker stands on ("" before its first turn): rondel
    rondel: dict[str, str] = field(default_factory=dict)
    # nation -> {marble, iron, gold, coin}: production, payments (supply.py)
    stock: dict[str, dict[str, int]] = field(default_factory=dict)
    # region -> {"owner": nation, "resource": marble|iron|gold, "temple": bool}; a region
    # without an entry has no city: founding, templum, conquest
    cities: dict[str, dict[str, Any]] = field(default_factory=dict)
    # regions still holding a neutral temple (from the board): conquest removes them
    neutral: list[str] = field(default_factory=list)
    # nation -> area (region or sea) -> {"legion": n, "galley": n}, zero entries pruned:
    # militia, movere, conquest
    units: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    # nation -> know-how ids in the order learnt: scientia
    know_how: dict[str, list[str]] = field(default_factory=dict)
    # nation -> personage card ids taken (a kind may repeat: "king" twice), never lost
    personages: dict[str, list[str]] = field(default_factory=dict)
    # nation -> temples it destroyed, neutral ones included: conquest
    destroyed: dict[str, int] = field(default_factory=dict)
    # the nation holding the Bellona card: bellona
    bellona: str = ""
    # know-how id -> the nation that learnt it first (the scholar's claim): scientia
    firsts: dict[str, str] = field(default_factory=dict)

    # -- units -------------------------------------------------------------------------
    def count(self, nation: str, area: str, kind: str) -> int:
        return self.units.get(nation, {}).get(area, {}).get(kind, 0)

    def add_units(self, nation: str, area: str, kind: str, n: int = 1) -> None:
        here = self.units.setdefault(nation, {}).setdefault(area, {})
        here[kind] = here.get(kind, 0) + n

    def remove_units(self, nation: str, area: str, kind: str, n: int = 1) -> None:
        areas = self.units.get(nation, {})
        here = areas.get(area, {})
        left = here.get(kind, 0) - n
        if left < 0:
            raise StateError(f"{nation} has fewer than {n} {kind} in {area}")
        if left:
            here[kind] = left
        else:
            here.pop(kind, None)
            if not here:
                areas.pop(area, None)

    def owners_in(self, area: str) -> list[str]:
        """The nations with units in ``area``, in order of play."""
        return [p for p in self.players if self.units.get(p, {}).get(area)]

    # -- stock ---------------------------------------------------------------------------
    def gain(self, nation: str, key: str, n: int = 1) -> None:
        stock = self.stock[nation]
        stock[key] = stock.get(key, 0) + n

    def spend(self, nation: str, key: str, n: int = 1) -> None:
        stock = self.stock[nation]
        left = stock.get(key, 0) - n
        if left < 0:
            raise StateError(f"{nation} has fewer than {n} {key}")
        stock[key] = left

    def cards_held(self, player: str) -> Sequence[str]:
        """The cards whose scripts act for ``player``: his know-how, his personages and
        Bellona while he holds it."""
        held = [*self.know_how.get(player, ()), *self.personages.get(player, ())]
        if self.bellona == player:
            held.append("bellona")
        return held

    @classmethod
    def check_counts(cls, data: dict[str, Any]) -> None:
        """No negative units, stock or destroyed temples; cities name their owner and
        resource; no know-how learnt twice."""
        for nation, areas in data.get("units", {}).items():
            for area, kinds in areas.items():
                for kind, n in kinds.items():
                    at_least(f"units.{nation}.{area}.{kind}", n, 0)
        for nation, items in data.get("stock", {}).items():
            for k, n in items.items():
                at_least(f"stock.{nation}.{k}", n, 0)
        for nation, n in data.get("destroyed", {}).items():
            at_least(f"destroyed.{nation}", n, 0)
        for region, city in data.get("cities", {}).items():
            for key in CITY_KEYS:
                if key not in city:
                    raise StateError(f"a city names its {key}", f"cities.{region}")
            if city["resource"] not in RESOURCES:
                raise StateError(f"{city['resource']!r} is not one of {', '.join(RESOURCES)}",
                                 f"cities.{region}.resource")
            if not isinstance(city["temple"], bool) or not isinstance(city["owner"], str):
                raise StateError("owner is a nation, temple true or false",
                                 f"cities.{region}")
        for nation, learnt in data.get("know_how", {}).items():
            if len(set(learnt)) != len(learnt):
                raise StateError("a know-how is learnt once", f"know_how.{nation}")


Game = engine.Game[State]
"""A game of Antike II (the kernel's game, typed with this state)."""

Step = engine.Step[State]
"""A step of Antike II's rules."""
