"""The board as data: provinces, seas, who plays, and the starting setups.

The printed map survives only as a picture, so the board is a replaceable
YAML file (editions/<code>/board.yaml, format described in docs/board.md).
``check_board`` reports every structural mistake at once, each with its key
path and line, because the people who fix this file are players holding the
printed board, not programmers reading a traceback. Rule values (production,
track levels) are checked by the rules plugins, not here.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mare_nostrum.box_data import creature_kinds
from mare_nostrum.state import LEGENDARY, TRACKS, State
from mnrules.content.yamlsource import (
    KeyPath,
    Problem,
    Sourced,
    describe,
    load_yaml,
    lookalike_key,
    name_problem,
    suggest,
)
from mnrules.errors import DataFileError, StateError

FORMAT = "mnrules-board/1"
BUILDING_KINDS: tuple[str, ...] = ("caravan", "market", "city", "capital", "legendary", "temple")
PROVENANCES: tuple[str, ...] = ("transcribed", "reconstructed")
MAX_PLAYERS = 12

_TOP_KEYS = ("format", "provinces", "seas", "players", "start_titles", "empires")
_PROVINCE_KEYS = ("provenance", "slots", "neighbours", "seas", "min_players", "note", "at")
_PROVINCE_REQUIRED = ("provenance", "slots", "neighbours", "seas")
_SEA_KEYS = ("provenance", "neighbours", "at")
_SEA_REQUIRED = ("provenance", "neighbours")
_EMPIRE_KEYS = (
    "name",
    "colour",
    "capital",
    "starting_hero",
    "provinces",
    "buildings",
    "legions",
    "fortresses",
    "triremes",
    "tracks",
)
# Kinds whose slot spec carries a goods id or a proper name after the colon.
_GOOD_KINDS = frozenset({"caravan"})
_NAMED_KINDS = frozenset({"capital", "legendary"})
_PLAIN_KINDS = frozenset({"market", "city", "temple"})


class BoardError(DataFileError):
    """The board file has structural problems; str() lists all of them."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Slot:
    """A printed building space: its kind, and the good or name it carries."""

    kind: str
    good: str | None = None
    name: str | None = None

    @property
    def spec(self) -> str:
        """The slot as written in the board file, e.g. ``caravan:grain``."""
        extra = self.good if self.good is not None else self.name
        return self.kind if extra is None else f"{self.kind}:{extra}"


@dataclass(frozen=True)
class Province:
    name: str
    slots: tuple[Slot, ...]
    neighbours: tuple[str, ...]
    seas: tuple[str, ...]
    provenance: str
    min_players: int = 3
    note: str = ""
    at: tuple[float, float] | None = None  # where to draw it (mnrules.render), if given


@dataclass(frozen=True)
class Sea:
    name: str
    neighbours: tuple[str, ...]
    provenance: str
    at: tuple[float, float] | None = None


@dataclass(frozen=True)
class EmpireSetup:
    """An empire's identity and the pieces it starts with."""

    id: str
    name: str
    colour: str
    capital: str
    starting_hero: str
    provinces: tuple[str, ...]
    buildings: dict[str, tuple[int, ...]]  # province -> indices into its slots
    legions: dict[str, int]
    fortresses: tuple[str, ...]
    triremes: dict[str, int]
    tracks: dict[str, int]


@dataclass(frozen=True)
class Board:
    provinces: dict[str, Province]
    seas: dict[str, Sea]
    players: dict[int, tuple[str, ...]]
    start_titles: dict[str, dict[str, str]]  # track -> {"default" | "3" | ...: empire}
    empires: dict[str, EmpireSetup]
    file: str = ""
    # The file as loaded, for the positions of problems found later (against the cards).
    source: Sourced | None = field(default=None, repr=False, compare=False)
    # provinces_on_sea's answers, by sea (read whole by a listing that asks every sea:
    # a Python call per sea cost the compiled core more than the listing's own work)
    on_sea: dict[str, tuple[str, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    # the provinces along each chain of a fleet's seas, by fleet (geometry.fleet_shores):
    # kept with the board it answers for, so no answer outlives its board
    shores: dict[frozenset[str], dict[str, frozenset[str]]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    # the provinces next to or connected with a player's bases, by (provinces in play,
    # fleet, bases) (build.marker_sites): what a marker may reach, before control
    marker_reach: dict[tuple[frozenset[str], frozenset[str], tuple[str, ...]],
                       frozenset[str]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    # the provinces in play the last time marker_sites asked, as the frozenset its key
    # holds: taken again while the provinces in play are the same (compared whole at
    # each ask), so that a key's frozenset is neither built nor hashed anew each time
    in_play: list[frozenset[str]] = field(
        init=False, repr=False, compare=False, default_factory=list
    )

    def __str__(self) -> str:
        return f"{len(self.provinces)} provinces, {len(self.seas)} seas"

    def __post_init__(self) -> None:
        on_sea: dict[str, list[str]] = {sea: [] for sea in self.seas}
        for province in self.provinces.values():
            for sea in province.seas:
                on_sea.setdefault(sea, []).append(province.name)
        object.__setattr__(self, "on_sea", {s: tuple(p) for s, p in on_sea.items()})

    def problem(self, path: KeyPath, message: str) -> Problem:
        """A problem at a key path of the board file (with its position if known)."""
        if self.source is not None:
            return self.source.problem(path, message)
        return Problem(self.file, ".".join(str(p) for p in path), message)

    def provinces_in_play(self, n_players: int) -> list[str]:
        """Provinces on the board (not covered) with n_players, in file order."""
        return [p.name for p in self.provinces.values() if p.min_players <= n_players]

    def start_title(self, track: str, n_players: int) -> str:
        """The empire holding the title of track at the start of the game."""
        holders = self.start_titles[track]
        return holders.get(str(n_players), holders["default"])

    def sea_neighbours(self, sea: str) -> tuple[str, ...]:
        return self.seas[sea].neighbours

    def provinces_on_sea(self, sea: str) -> tuple[str, ...]:
        """Provinces whose coast touches sea, in file order."""
        return self.on_sea[sea]

    def is_adjacent(self, a: str, b: str) -> bool:
        """Land border between provinces, coast between a province and a sea,
        or a sea border between seas."""
        if a in self.provinces:
            province = self.provinces[a]
            return b in province.neighbours or b in province.seas
        if a in self.seas:
            if b in self.seas:
                return b in self.seas[a].neighbours
            return b in self.provinces and a in self.provinces[b].seas
        return False


def default_board_path() -> Path:
    """The board file shipped with the English edition pack (this game's data package
    ``mare_nostrum.editions``, however the game is installed)."""
    from importlib import resources

    return Path(str(resources.files("mare_nostrum.editions"))) / "en" / "board.yaml"


def check_board(
    src: Sourced,
    goods: Collection[str],
    building_kinds: Collection[str] = BUILDING_KINDS,
) -> list[Problem]:
    """Every structural problem of a loaded board file (empty when it is sound)."""
    return _Checker(src, goods, building_kinds).run()


def load_board(
    path: str | Path,
    goods: Collection[str],
    building_kinds: Collection[str] = BUILDING_KINDS,
    text: str | None = None,
    source: Sourced | None = None,
) -> Board:
    """Load and check a board file; raise BoardError listing every problem. ``source``
    is the file already read (as a pack's ``patch: {board: ...}`` changes it: a problem
    in a patched value is then reported at the patch's line)."""
    src = source if source is not None else load_yaml(path, text)
    checker = _Checker(src, goods, building_kinds)
    problems = checker.run()
    if problems:
        raise BoardError(problems)
    return checker.board()


def with_names(board: Board, empire_names: dict[str, str]) -> Board:
    """The board with its empires named as a pack names them (``names: {empires: ...}``);
    an empire the pack does not name keeps the board file's ``name``."""
    if not any(e in board.empires for e in empire_names):
        return board
    return dataclasses.replace(board, empires={
        e: dataclasses.replace(setup, name=empire_names.get(e, setup.name))
        for e, setup in board.empires.items()})


def parse_slot(spec: str, kinds: Collection[str], goods: Collection[str]) -> Slot:
    """Parse a slot spec such as ``caravan:grain``; ValueError explains a bad one."""
    kind, colon, extra = spec.partition(":")
    kind, extra = kind.strip(), extra.strip()
    if kind not in kinds:
        hint = _did_you_mean(kind, kinds)
        raise ValueError(f"unknown slot kind {kind!r}{hint}")
    if colon and not extra:
        raise ValueError(f"nothing after ':' in slot {spec!r}")
    if kind in _GOOD_KINDS:
        if not extra:
            raise ValueError(f"a {kind} slot needs its good: write {kind}:GOOD")
        if extra not in goods:
            raise ValueError(f"unknown good {extra!r}{_did_you_mean(extra, goods)}")
        return Slot(kind, good=extra)
    if kind in _NAMED_KINDS:
        if not extra:
            raise ValueError(f"a {kind} slot needs its city's name: write {kind}:NAME")
        problem = name_problem(extra)
        if problem is not None:
            raise ValueError(problem)
        return Slot(kind, name=extra)
    if kind in _PLAIN_KINDS and extra:
        raise ValueError(f"a {kind} slot takes nothing after ':' (got {spec!r})")
    return Slot(kind, name=extra or None)


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    guess = suggest(word, choices)
    return f" (did you mean {guess!r}?)" if guess is not None else ""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """One pass over the file that both collects problems and keeps whatever
    parsed cleanly, so the Board is built from exactly what was checked."""

    def __init__(self, src: Sourced, goods: Collection[str], kinds: Collection[str]) -> None:
        self.src = src
        self.goods = goods
        self.kinds = kinds
        self.problems: list[Problem] = []
        self.provinces: dict[str, Province] = {}
        self.seas: dict[str, Sea] = {}
        self.players: dict[int, tuple[str, ...]] = {}
        self.start_titles: dict[str, dict[str, str]] = {}
        self.empires: dict[str, EmpireSetup] = {}
        # Raw name lists with their key paths, for cross-checks after all names are known.
        self._province_links: dict[str, list[tuple[KeyPath, str]]] = {}
        self._province_seas: dict[str, list[tuple[KeyPath, str]]] = {}
        self._sea_links: dict[str, list[tuple[KeyPath, str]]] = {}
        self._empire_ids: list[str] = []
        # Player counts whose empire list had a mistake: checks that depend on
        # who plays are skipped there, so one typo is reported once.
        self._unsure_counts: set[int] = set()
        # Names by their lookalike key, per namespace, to refuse two that look the same.
        self._lookalikes: dict[str, dict[str, str]] = {}

    # --- reporting and typed access -------------------------------------

    def report(self, path: KeyPath, message: str) -> None:
        self.problems.append(self.src.problem(path, message))

    def _expect(self, path: KeyPath, value: Any, kind: type, what: str) -> bool:
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            self.report(path, f"expected {what}, got {describe(value)}")
        return ok

    def _keys(
        self,
        path: KeyPath,
        entry: dict[Any, Any],
        allowed: Sequence[str],
        required: Sequence[str],
    ) -> None:
        for key in entry:
            if key not in allowed:
                hint = _did_you_mean(str(key), allowed)
                self.report((*path, key), f"unknown key {key!r}{hint}")
        for key in required:
            if key not in entry:
                self.report((*path, key), "missing key")

    def _names(self, path: KeyPath, value: Any, what: str) -> list[tuple[KeyPath, str]]:
        """A list of distinct names, each with its own key path."""
        if not self._expect(path, value, list, f"a list of {what}"):
            return []
        out: list[tuple[KeyPath, str]] = []
        seen: set[str] = set()
        for i, item in enumerate(value):
            item_path = (*path, i)
            if not self._expect(item_path, item, str, f"the name of {what[:-1]}"):
                continue
            if item in seen:
                self.report(item_path, f"{item!r} is listed twice")
                continue
            seen.add(item)
            out.append((item_path, item))
        return out

    def _named_entries(self, path: KeyPath, value: Any, what: str) -> list[tuple[str, Any]]:
        if not self._expect(path, value, dict, f"a mapping of {what}"):
            return []
        out: list[tuple[str, Any]] = []
        # Provinces and seas are named in one another's lists: one namespace.
        namespace = self._lookalikes.setdefault("empires" if what == "empires" else "places", {})
        for name, entry in value.items():
            if not isinstance(name, str):
                self.report((*path, name), f"a name must be text, got {describe(name)}")
                continue
            problem = name_problem(name)
            like = namespace.get(lookalike_key(name))
            if problem is None and like is not None and like != name:
                problem = f"{name!r} looks like {like!r} (they differ only in case or form)"
            if problem is not None:
                self.report((*path, name), problem)
            namespace.setdefault(lookalike_key(name), name)
            if self._expect((*path, name), entry, dict, "a mapping of keys"):
                out.append((name, entry))
        return out

    def _section(self, data: dict[Any, Any], key: str) -> list[tuple[str, Any]]:
        return self._named_entries((key,), data[key], key) if key in data else []

    def _known(
        self, path: KeyPath, name: str, known: Collection[str], what: str, other: str = ""
    ) -> bool:
        if name in known:
            return True
        # A name that is known as something else needs no spelling guess.
        hint = other or _did_you_mean(name, known)
        self.report(path, f"unknown {what} {name!r}{hint}")
        return False

    # --- the pass -------------------------------------------------------

    def run(self) -> list[Problem]:
        data = self.src.data
        if not isinstance(data, dict):
            self.report((), f"expected a mapping with keys {', '.join(_TOP_KEYS)}")
            return self.problems
        self._keys((), data, _TOP_KEYS, _TOP_KEYS)
        if "format" in data and data["format"] != FORMAT:
            self.report(("format",), f"expected {FORMAT!r}, got {describe(data['format'])}")
        empires = data.get("empires")
        self._empire_ids = (
            [e for e in empires if isinstance(e, str)] if isinstance(empires, dict) else []
        )
        for name, entry in self._section(data, "provinces"):
            self._province(name, entry)
        for name, entry in self._section(data, "seas"):
            self._sea(name, entry)
        self._links()
        self._city_names()
        if "players" in data:
            self._players(data["players"])
        self._connectivity()
        if "start_titles" in data:
            self._start_titles(data["start_titles"])
        for name, entry in self._section(data, "empires"):
            self._empire(name, entry)
        self._empires_play()
        # In file order, as an editor or compiler would list them.
        self.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
        return self.problems

    def board(self) -> Board:
        return Board(
            provinces=self.provinces,
            seas=self.seas,
            players=self.players,
            start_titles=self.start_titles,
            empires=self.empires,
            file=self.src.file,
            source=self.src,
        )

    def _provenance(self, path: KeyPath, entry: dict[Any, Any]) -> str:
        value = entry.get("provenance")
        if "provenance" not in entry:
            return ""
        if not isinstance(value, str) or value not in PROVENANCES:
            hint = _did_you_mean(value, PROVENANCES) if isinstance(value, str) else ""
            self.report(
                (*path, "provenance"),
                f"expected one of {', '.join(PROVENANCES)}, got {describe(value)}{hint}",
            )
            return ""
        return value

    def _province(self, name: str, entry: dict[Any, Any]) -> None:
        path: KeyPath = ("provinces", name)
        self._keys(path, entry, _PROVINCE_KEYS, _PROVINCE_REQUIRED)
        provenance = self._provenance(path, entry)
        slots: list[Slot] = []
        if "slots" in entry and self._expect(
            (*path, "slots"), entry["slots"], list, "a list of slot specs"
        ):
            for i, spec in enumerate(entry["slots"]):
                slot_path = (*path, "slots", i)
                if not self._expect(slot_path, spec, str, "a slot spec such as caravan:grain"):
                    continue
                try:
                    slots.append(parse_slot(spec, self.kinds, self.goods))
                except ValueError as exc:
                    self.report(slot_path, str(exc))
        links = self._names((*path, "neighbours"), entry.get("neighbours", []), "provinces")
        seas = self._names((*path, "seas"), entry.get("seas", []), "seas")
        min_players = 3
        if "min_players" in entry:
            value = entry["min_players"]
            if self._expect((*path, "min_players"), value, int, "a whole number of players"):
                if value < 1:
                    self.report((*path, "min_players"), f"must be at least 1, got {value}")
                else:
                    min_players = value
        note = ""
        if "note" in entry and self._expect((*path, "note"), entry["note"], str, "text"):
            note = entry["note"]
        self._province_links[name] = links
        self._province_seas[name] = seas
        self.provinces[name] = Province(
            name=name,
            slots=tuple(slots),
            neighbours=tuple(n for _, n in links),
            seas=tuple(s for _, s in seas),
            provenance=provenance,
            min_players=min_players,
            note=note,
            at=self._at(path, entry),
        )

    def _sea(self, name: str, entry: dict[Any, Any]) -> None:
        path: KeyPath = ("seas", name)
        self._keys(path, entry, _SEA_KEYS, _SEA_REQUIRED)
        if name in self.provinces:
            self.report(path, f"{name!r} is both a province and a sea")
        provenance = self._provenance(path, entry)
        links = self._names((*path, "neighbours"), entry.get("neighbours", []), "seas")
        self._sea_links[name] = links
        self.seas[name] = Sea(
            name, tuple(n for _, n in links), provenance, at=self._at(path, entry)
        )

    def _at(self, path: KeyPath, entry: dict[Any, Any]) -> tuple[float, float] | None:
        """The optional drawing position ``at: [x, y]`` (two numbers)."""
        if "at" not in entry:
            return None
        value = entry["at"]
        numbers = isinstance(value, list) and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value
        )
        if numbers and not all(math.isfinite(v) for v in value):
            self.report((*path, "at"), f"expected two finite numbers [x, y], got {value}")
            return None
        if not numbers or len(value) != 2:
            if not isinstance(value, list):
                got = describe(value)
            elif len(value) != 2:
                got = f"a list of {len(value)}"
            else:
                got = f"[{', '.join(describe(v) for v in value)}]"
            self.report((*path, "at"), f"expected two numbers [x, y], got {got}")
            return None
        return (float(value[0]), float(value[1]))

    def _links(self) -> None:
        """Names must exist and every border must be listed from both sides."""
        for name, links in self._province_links.items():
            kept: list[str] = []
            for path, other in links:
                if other == name:
                    self.report(path, f"{name} cannot be its own neighbour")
                    continue
                where = " (it is a sea: list it under seas)" if other in self.seas else ""
                if not self._known(path, other, self.provinces, "province", where):
                    continue
                kept.append(other)
                if name not in self.provinces[other].neighbours:
                    self.report(
                        path,
                        f"{name} lists {other} as a neighbour, but {other} does not list {name}",
                    )
            self._replace_province(name, neighbours=tuple(kept))
        for name, seas in self._province_seas.items():
            kept = []
            for path, sea in seas:
                where = (
                    " (it is a province: list it under neighbours)" if sea in self.provinces else ""
                )
                if self._known(path, sea, self.seas, "sea", where):
                    kept.append(sea)
            self._replace_province(name, seas=tuple(kept))
        for name, links in self._sea_links.items():
            kept = []
            for path, other in links:
                if other == name:
                    self.report(path, f"{name} cannot be its own neighbour")
                    continue
                if not self._known(path, other, self.seas, "sea"):
                    continue
                kept.append(other)
                if name not in self.seas[other].neighbours:
                    self.report(
                        path,
                        f"{name} lists {other} as a neighbour, but {other} does not list {name}",
                    )
            self.seas[name] = dataclasses.replace(self.seas[name], neighbours=tuple(kept))

    def _replace_province(self, name: str, **changes: Any) -> None:
        self.provinces[name] = dataclasses.replace(self.provinces[name], **changes)

    def _city_names(self) -> None:
        """A capital or legendary city exists once; two slots of one name would
        let two players build the same city marker."""
        seen: dict[str, str] = {}
        looks: dict[str, str] = {}
        for name, province in self.provinces.items():
            for i, slot in enumerate(province.slots):
                if slot.kind not in _NAMED_KINDS or slot.name is None:
                    continue
                like = looks.setdefault(lookalike_key(slot.name), slot.name)
                if slot.name in seen:
                    self.report(
                        ("provinces", name, "slots", i),
                        f"{slot.kind} {slot.name} is already a slot of {seen[slot.name]}",
                    )
                elif like != slot.name:
                    self.report(
                        ("provinces", name, "slots", i),
                        f"{slot.name!r} looks like the city {like!r} (they differ only in "
                        f"case or form)",
                    )
                else:
                    seen[slot.name] = name

    def _player_counts(self) -> list[int | None]:
        """Player counts to check the map for (None: the whole map)."""
        if not self.players:
            return [None]
        return [*sorted(self.players)]

    def _connectivity(self) -> None:
        """Every province on the board must be reachable by land or sea."""
        reported: set[str] = set()
        for n in self._player_counts():
            in_play = [p for p in self.provinces.values() if n is None or p.min_players <= n]
            if not in_play:
                continue
            graph: dict[str, set[str]] = {f"sea:{s}": set() for s in self.seas}
            for p in in_play:
                graph[p.name] = set()
            for sea_entry in self.seas.values():
                graph[f"sea:{sea_entry.name}"].update(f"sea:{s}" for s in sea_entry.neighbours)
            for p in in_play:
                for other in p.neighbours:
                    if other in graph:
                        graph[p.name].add(other)
                        graph[other].add(p.name)
                for s in p.seas:
                    graph[p.name].add(f"sea:{s}")
                    graph[f"sea:{s}"].add(p.name)
            components = _components(graph)
            main = max(components, key=lambda c: sum(1 for p in in_play if p.name in c))
            anchor = next(p.name for p in in_play if p.name in main)
            players = f" with {n} players" if n is not None else ""
            for p in in_play:
                if p.name not in main and p.name not in reported:
                    reported.add(p.name)
                    self.report(
                        ("provinces", p.name),
                        f"{p.name} is cut off from the rest of the map{players}: "
                        f"no chain of land borders and seas joins it to {anchor}",
                    )
            if n == max(self.players, default=None):
                for sea_name in self.seas:
                    if f"sea:{sea_name}" not in main:
                        self.report(
                            ("seas", sea_name),
                            f"{sea_name} touches no province or sea joined to the rest of the map",
                        )

    def _players(self, value: Any) -> None:
        path: KeyPath = ("players",)
        if not self._expect(path, value, dict, "a mapping of player count to empires"):
            return
        if not value:
            self.report(path, "no player count: give at least one, such as 3: [rome, greece, "
                        "carthage]")
        for count, listed in value.items():
            count_path = (*path, count)
            if not _is_int(count) or not 1 <= count <= MAX_PLAYERS:
                self.report(count_path, f"expected a player count from 1 to {MAX_PLAYERS}, "
                            f"got {describe(count)}")
                continue
            before = len(self.problems)
            names = self._names(count_path, listed, "empires")
            if isinstance(listed, list) and len(listed) != count:
                self.report(count_path, f"{count} players, but {len(listed)} empires listed")
            kept = []
            for item_path, empire in names:
                if self._known(item_path, empire, self._empire_ids, "empire"):
                    kept.append(empire)
            self.players[count] = tuple(kept)
            if len(self.problems) > before:
                self._unsure_counts.add(count)

    def _sure_players(self) -> list[tuple[int, tuple[str, ...]]]:
        return [(n, p) for n, p in sorted(self.players.items()) if n not in self._unsure_counts]

    def _start_titles(self, value: Any) -> None:
        path: KeyPath = ("start_titles",)
        if not self._expect(path, value, dict, "a mapping of track to holders"):
            return
        for track in TRACKS:
            if track not in value:
                self.report((*path, track), "missing key")
        for track, holders in value.items():
            track_path = (*path, track)
            if track not in TRACKS:
                self.report(
                    track_path, f"unknown track {track!r}{_did_you_mean(str(track), TRACKS)}"
                )
                continue
            if not self._expect(track_path, holders, dict, "a mapping such as {default: rome}"):
                continue
            resolved: dict[str, str] = {}
            for key, empire in holders.items():
                key_path = (*track_path, key)
                if key != "default" and not (_is_int(key) and key in self.players):
                    counts = ", ".join(str(c) for c in sorted(self.players))
                    self.report(
                        key_path, f"expected 'default' or a player count ({counts}), got {key!r}"
                    )
                    continue
                if self._expect(key_path, empire, str, "an empire id") and self._known(
                    key_path, empire, self._empire_ids, "empire"
                ):
                    resolved[str(key)] = empire
            self.start_titles[str(track)] = resolved
            for n, playing in self._sure_players():
                holder = resolved.get(str(n), resolved.get("default"))
                if holder is None:
                    self.report(track_path, f"no holder with {n} players: add 'default' or {n}")
                elif holder not in playing:
                    key = str(n) if str(n) in resolved else "default"
                    self.report(
                        (*track_path, n if key != "default" else "default"),
                        f"{holder} holds the {track} title with {n} players but does not play then",
                    )

    def _empire(self, empire_id: str, entry: dict[Any, Any]) -> None:
        path: KeyPath = ("empires", empire_id)
        self._keys(path, entry, _EMPIRE_KEYS, _EMPIRE_KEYS)
        texts: dict[str, str] = {}
        for key in ("name", "colour", "starting_hero", "capital"):
            if key in entry and self._expect((*path, key), entry[key], str, "text"):
                problem = name_problem(entry[key])
                if problem is not None:
                    self.report((*path, key), problem)
                else:
                    texts[key] = entry[key]

        owned: list[str] = []
        for item_path, province in self._names(
            (*path, "provinces"), entry.get("provinces", []), "provinces"
        ):
            if not self._known(item_path, province, self.provinces, "province"):
                continue
            holder = next((e.id for e in self.empires.values() if province in e.provinces), None)
            if holder is not None:
                self.report(item_path, f"{province} is already a starting province of {holder}")
                continue
            owned.append(province)

        capital = texts.get("capital", "")
        if capital and self._known((*path, "capital"), capital, self.provinces, "province"):
            if capital not in owned:
                self.report(
                    (*path, "capital"), f"{capital} is not among the provinces of {empire_id}"
                )
            if not any(s.kind == "capital" for s in self.provinces[capital].slots):
                self.report((*path, "capital"), f"{capital} has no capital slot")

        buildings = self._buildings(path, entry.get("buildings", {}), owned)
        legions = self._units((*path, "legions"), entry.get("legions", {}), owned, "legion")
        fortresses: list[str] = []
        for item_path, province in self._names(
            (*path, "fortresses"), entry.get("fortresses", []), "provinces"
        ):
            if self._own(item_path, province, owned, "fortress"):
                fortresses.append(province)
        triremes = self._triremes((*path, "triremes"), entry.get("triremes", {}), owned)
        tracks = self._tracks((*path, "tracks"), entry.get("tracks", {}))

        self.empires[empire_id] = EmpireSetup(
            id=empire_id,
            name=texts.get("name", ""),
            colour=texts.get("colour", ""),
            capital=capital,
            starting_hero=texts.get("starting_hero", ""),
            provinces=tuple(owned),
            buildings=buildings,
            legions=legions,
            fortresses=tuple(fortresses),
            triremes=triremes,
            tracks=tracks,
        )

    def _own(self, path: KeyPath, province: str, owned: Sequence[str], piece: str) -> bool:
        if province in owned:
            return True
        if province in self.provinces:
            self.report(path, f"a starting {piece} in {province}, which is not a starting province")
        else:
            self._known(path, province, self.provinces, "province")
        return False

    def _buildings(
        self, path: KeyPath, value: Any, owned: Sequence[str]
    ) -> dict[str, tuple[int, ...]]:
        path = (*path, "buildings")
        out: dict[str, tuple[int, ...]] = {}
        if not self._expect(path, value, dict, "a mapping of province to slot specs"):
            return out
        for province, specs in value.items():
            province_path = (*path, province)
            if not isinstance(province, str) or not self._own(
                province_path, province, owned, "building"
            ):
                continue
            if not self._expect(province_path, specs, list, "a list of slot specs"):
                continue
            slots = self.provinces[province].slots
            used: list[int] = []
            for i, spec in enumerate(specs):
                spec_path = (*province_path, i)
                if not self._expect(spec_path, spec, str, "a slot spec such as caravan:grain"):
                    continue
                try:
                    wanted = parse_slot(spec, self.kinds, self.goods)
                except ValueError as exc:
                    self.report(spec_path, str(exc))
                    continue
                free = [j for j, s in enumerate(slots) if s == wanted and j not in used]
                if free:
                    used.append(free[0])
                    continue
                taken = any(s == wanted for s in slots)
                reason = "is already built in" if taken else "is not a slot of"
                listed = ", ".join(s.spec for s in slots) or "none"
                self.report(
                    spec_path,
                    f"{wanted.spec} {reason} {province} (its slots: {listed})",
                )
            out[province] = tuple(sorted(used))
        return out

    def _count(self, path: KeyPath, value: Any, what: str) -> int | None:
        if not self._expect(path, value, int, f"a whole number of {what}"):
            return None
        if value < 1:
            self.report(path, f"expected at least 1 {what[:-1]}, got {value}")
            return None
        return int(value)

    def _units(self, path: KeyPath, value: Any, owned: Sequence[str], piece: str) -> dict[str, int]:
        out: dict[str, int] = {}
        if not self._expect(path, value, dict, f"a mapping of province to number of {piece}s"):
            return out
        for province, count in value.items():
            item_path = (*path, province)
            if not isinstance(province, str) or not self._own(item_path, province, owned, piece):
                continue
            number = self._count(item_path, count, f"{piece}s")
            if number is not None:
                out[province] = number
        return out

    def _triremes(self, path: KeyPath, value: Any, owned: Sequence[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        if not self._expect(path, value, dict, "a mapping of sea to number of triremes"):
            return out
        coasts = {s for p in owned for s in self.provinces[p].seas}
        for sea, count in value.items():
            item_path = (*path, sea)
            if not isinstance(sea, str) or not self._known(item_path, sea, self.seas, "sea"):
                continue
            if sea not in coasts:
                self.report(item_path, f"{sea} touches none of the starting provinces")
                continue
            number = self._count(item_path, count, "triremes")
            if number is not None:
                out[sea] = number
        return out

    def _tracks(self, path: KeyPath, value: Any) -> dict[str, int]:
        out: dict[str, int] = {}
        if not self._expect(
            path, value, dict, "a mapping such as {trade: 7, culture: 1, military: 3}"
        ):
            return out
        self._keys(path, value, TRACKS, TRACKS)
        for track in TRACKS:
            if track not in value:
                continue
            level = value[track]
            if self._expect((*path, track), level, int, "a whole number"):
                if level < 0:
                    self.report((*path, track), f"a track level cannot be negative, got {level}")
                else:
                    out[track] = level
        return out

    def _empires_play(self) -> None:
        """An empire's provinces are on the board exactly when it plays: the
        leadership and Heroes & Wonders boards cover absent empires' provinces."""
        for empire in self.empires.values():
            counts = [n for n, playing in self.players.items() if empire.id in playing]
            if self.players and not counts and not self._unsure_counts:
                self.report(("empires", empire.id), f"{empire.id} is in no players list")
            for n, playing in self._sure_players():
                for i, province in enumerate(empire.provinces):
                    item = ("empires", empire.id, "provinces", i)
                    on_board = self.provinces[province].min_players <= n
                    if empire.id in playing and not on_board:
                        self.report(
                            item,
                            f"{province} is covered with {n} players (min_players "
                            f"{self.provinces[province].min_players}) but {empire.id} plays then",
                        )
                    elif empire.id not in playing and on_board:
                        self.report(
                            item,
                            f"{province} is on the board with {n} players but {empire.id} "
                            f"does not play then: its min_players must be above {n}",
                        )


def _components(graph: dict[str, set[str]]) -> list[set[str]]:
    seen: set[str] = set()
    out: list[set[str]] = []
    for start in graph:
        if start in seen:
            continue
        component = {start}
        stack = [start]
        while stack:
            for nxt in graph[stack.pop()]:
                if nxt not in component:
                    component.add(nxt)
                    stack.append(nxt)
        seen |= component
        out.append(component)
    return out


def fits(rules: Any, state: State) -> list[str]:
    """Refuse (a StateError naming the key) a state that does not fit this rule set's
    board and box; the kernel checks the seating, phases and steps."""
    board = rules.board
    players = state.players
    for i, p in enumerate(players):
        if p not in board.empires:
            raise StateError(f"{p!r} is not an empire of this board", f"players[{i}]")
    allowed = board.players.get(len(players))
    if allowed is None or sorted(players) != sorted(allowed):
        raise StateError(f"a {len(players)}-player game on this board is played by "
                         f"{', '.join(allowed or ())}" if allowed else
                         f"this board plays with "
                         f"{', '.join(str(n) for n in sorted(board.players))} players",
                         "players")
    for key in ("screens", "pieces", "tiles"):
        for who in getattr(state, key):
            if who not in players:
                raise StateError(f"{who!r} does not play", f"{key}.{who}")
    areas = set(board.provinces) | set(board.seas)
    in_play = board.provinces_in_play(len(players))
    for key in ("control", "built", "occupied"):
        for prov in getattr(state, key):
            if prov not in board.provinces:
                raise StateError(f"{prov!r} is not a province of this board", key)
        missing = [p for p in in_play if p not in getattr(state, key)]
        extra = [p for p in getattr(state, key) if p not in in_play]
        if missing or extra:
            raise StateError(f"the provinces in play with {len(players)} players are "
                             f"not these (missing: {', '.join(missing) or 'none'}; not in "
                             f"play: {', '.join(extra) or 'none'})", key)
    for track, who in state.titles.items():
        if who not in players:
            raise StateError(f"{who!r} does not play", f"titles.{track}")
    for prov, who in state.control.items():
        if who is not None and who not in players:
            raise StateError(f"{who!r} does not play", f"control.{prov}")
    for prov, who in state.marker_occupier.items():
        if prov not in state.control:
            raise StateError("not a province in play", f"marker_occupier.{prov}")
        if who not in players:
            raise StateError(f"{who!r} does not play", f"marker_occupier.{prov}")
    for prov, row in state.occupied.items():
        for i, who in enumerate(row):
            if who is not None and who not in players:
                raise StateError(f"an occupier {who!r} who does not play",
                                 f"occupied.{prov}[{i}]")
    for prov, slots in state.built.items():
        if len(slots) != len(board.provinces[prov].slots) or \
                len(state.occupied.get(prov, [])) != len(slots):
            raise StateError(f"{len(slots)} slots, the board has "
                             f"{len(board.provinces[prov].slots)}", f"built.{prov}")
    for p, tiles in state.tiles.items():
        for i, t in enumerate(tiles):
            if t not in rules.cards:
                raise StateError(f"no card {t!r} in this rule set", f"tiles.{p}[{i}]")
    for key in ("screens", "pieces", "tiles"):
        for p in players:
            if p not in getattr(state, key):
                raise StateError(f"{p} has no entry", key)
    for area, here in state.units.items():
        if area not in areas:
            raise StateError(f"{area!r} is not an area of this board", "units")
        for who, kinds in here.items():
            if who not in players:
                raise StateError(f"{who!r} does not play", f"units.{area}")
            for kind in kinds:
                if kind not in state.pieces[who]:
                    raise StateError(f"no {kind!r} in an empire's box",
                                     f"units.{area}.{who}.{kind}")
    for key in ("display", "display_hidden"):
        for i, t in enumerate(getattr(state, key)):
            if t not in rules.cards:
                raise StateError(f"no card {t!r} in this rule set", f"{key}[{i}]")
    goods = {str(g) for g in (rules.components.get("goods") or {})}
    resources = {"coin", *goods, *(f"{LEGENDARY}{g}" for g in goods)}
    for p, screen in state.screens.items():
        for key in screen:
            if key not in resources:
                raise StateError(f"no resource {key!r} in this box", f"screens.{p}.{key}")
    stock = {"coin", *goods, *(str(k) for k in rules.components.get("buildings") or {})}
    for key in state.supply:
        if key not in stock:
            raise StateError(f"no {key!r} in this box", f"supply.{key}")
    box_pieces = {str(k) for k in [*(rules.components.get("pieces") or {}),
                                   *creature_kinds(rules.components)]}
    for p, pieces in state.pieces.items():
        for key in pieces:
            if key not in box_pieces:
                raise StateError(f"no piece {key!r} in this box", f"pieces.{p}.{key}")
    for key in ("legendary_pile", "legendary_discard"):
        for i, g in enumerate(getattr(state, key)):
            if g not in goods:
                raise StateError(f"no good {g!r} in this box", f"{key}[{i}]")
    return []
