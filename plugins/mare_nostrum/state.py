"""Mare Nostrum's state: the board (markers, buildings, occupations, units), each
empire's box and screen, the supply, the legendary pile, the tiles and the titles.

Plain data only, so that a snapshot is a JSON document; tracks are not stored but
derived from the board (``tracks.py``). The kernel validates every field against
``SHAPES`` when a save is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mnrules.core import engine
from mnrules.core.state import KERNEL_SHAPES, at_least, seen_by
from mnrules.core.state import State as KernelState
from mnrules.errors import StateError

if TYPE_CHECKING:
    from _typeshed import IdentityFunction

try:  # the compiled core's marks (docs/speed.md), read by mypyc alone
    from mypy_extensions import mypyc_attr
except ImportError:  # a pure-Python install without mypy: the mark does nothing
    def mypyc_attr(*attrs: str, **kwattrs: object) -> IdentityFunction:
        return lambda x: x

LEGENDARY = "legendary:"
"""Prefix of a legendary good's resource key ("legendary:grain")."""


TRACKS: tuple[str, ...] = ("trade", "culture", "military")
"""The leadership tracks, in the order titles are claimed (FR 5; NL/PL/UK 5). Their levels
are derived from the board (``tracks.py``), never stored; every module names them from here."""


def base_good(key: str) -> str:
    """The ordinary type a resource key counts as (a legendary good counts as its type)."""
    return key[len(LEGENDARY):] if key.startswith(LEGENDARY) else key


_INT_MAP = (dict, int)


@mypyc_attr(native_class=False)   # a subclass of the kernel's (Python) state
@dataclass
class State(KernelState):
    """Everything of Mare Nostrum that changes during a game, each part with the plugin
    that owns it (the only one that writes it)."""

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
    # Resources behind each screen, by resource key: each empire sees its own, the
    # others how many (FR 1.2: « Chaque joueur place ses Ressources collectées derrière
    # son paravent »).
    screens: dict[str, dict[str, int]] = field(default_factory=dict,
                                                 metadata=seen_by("own"))
    # The general supply: resource keys and building kinds.
    supply: dict[str, int] = field(default_factory=dict)
    legendary_pile: list[str] = field(default_factory=list,   # face down
                                      metadata=seen_by("count"))
    legendary_discard: list[str] = field(default_factory=list)
    # Heroes and wonders.
    tiles: dict[str, list[str]] = field(default_factory=dict)
    display: list[str] = field(default_factory=list)
    display_hidden: list[str] = field(default_factory=list,   # face down
                                      metadata=seen_by("count"))
    titles: dict[str, str] = field(default_factory=dict)

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

    def cards_held(self, player: str) -> Sequence[str]:
        return self.tiles.get(player, ())

    def holdings(self) -> Mapping[str, list[str]]:
        return self.tiles

    def card_holders(self, card: str) -> list[str]:
        # Asked at every fold a card answers (a few times a decision) while the tiles
        # change a few times a game: who holds what is indexed once, and the index kept
        # only while the tiles and seats equal the copies it was made from (compared
        # whole at each question, so that no write to them, wherever made, leaves it
        # stale; the index is no field: snapshots and saves never see it).
        seen: tuple[dict[str, list[str]], list[str], dict[str, list[str]]] | None = \
            getattr(self, "_held_by", None)
        tiles = self.tiles
        if seen is None or seen[0] != tiles or seen[1] != self.players:
            index: dict[str, list[str]] = {}
            for p in self.players:
                for t in tiles.get(p, ()):
                    who = index.setdefault(t, [])
                    if p not in who:
                        who.append(p)
            seen = ({p: list(ts) for p, ts in tiles.items()}, list(self.players), index)
            self._held_by = seen
        return list(seen[2].get(card, ()))

    @classmethod
    def check_counts(cls, data: dict[str, Any]) -> None:
        """No negative units, pieces, resources or supply; no tile in two places."""
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
        seen: dict[str, str] = {}
        places = [(f"tiles.{who}", ts) for who, ts in data.get("tiles", {}).items()]
        places += [(key, data.get(key, [])) for key in ("display", "display_hidden")]
        for where, tiles in places:
            for i, t in enumerate(tiles):
                if t in seen:
                    raise StateError(f"the tile {t!r} is also in {seen[t]}", f"{where}[{i}]")
                seen[t] = where


# (set after the class: compiled, a ClassVar in a dataclass's body reads as a field)
State.SHAPES = {
    **KERNEL_SHAPES,
    "control": (dict, (str, type(None))), "built": (dict, (list, bool)),
    "occupied": (dict, (list, (str, type(None)))), "marker_occupier": (dict, str),
    "units": (dict, (dict, (dict, int))), "pieces": (dict, _INT_MAP),
    "screens": (dict, _INT_MAP), "supply": _INT_MAP, "legendary_pile": (list, str),
    "legendary_discard": (list, str), "tiles": (dict, (list, str)),
    "display": (list, str), "display_hidden": (list, str), "titles": (dict, str),
}


Game = engine.Game[State]
"""A game of Mare Nostrum (the kernel's game, typed with this state)."""

Step = engine.Step[State]
"""A step of Mare Nostrum's rules."""
