"""The Antike II board: one side (Mare Nostrum or Orient) read from a YAML file.

No map of Antike II survives outside the printed board, so each side is a data file
(``editions/antike2/boards/<side>.yaml``, schema in docs/antike-board.md) whose every area
says where it comes from: the rulebook's examples or a historical reconstruction.
``load`` reports every fault of a file at once, each at its file:line:col and key,
because whoever fixes it holds the printed board, not a debugger.

Areas are land regions (with a city site) and seas. Borders are red (legions cross),
blue (galleys cross: coast to sea, sea to sea, or coast to coast across water) or
combined (both: a strait). The game package wires the kernel's ``mn_load_board`` hook to
:func:`from_pack` (``plugins/antike2/__init__.py``: ``return from_pack(path, data, where)``).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mnrules.content.yamlsource import (
    KeyPath,
    Problem,
    Sourced,
    describe,
    did_you_mean,
    load_yaml,
    lookalike_key,
    name_problem,
)
from mnrules.errors import DataFileError

FORMAT = "mnrules-antike2-board/1"
GAME = "antike2"
SIDES: tuple[str, ...] = ("mare_nostrum", "orient")
RESOURCES: tuple[str, ...] = ("marble", "iron", "gold")
UNIVERSAL = "universal"
"""A city site bearing all three resources; its founder picks one (book: «Есть несколько
универсальных городов - "Orient"»): by that name they are the Orient side's alone."""
CITY_KINDS: tuple[str, ...] = (*RESOURCES, UNIVERSAL)
BORDER_KINDS: tuple[str, ...] = ("red", "blue", "combined")
UNITS: tuple[str, ...] = ("legion", "galley")
CROSSES: Mapping[str, frozenset[str]] = {
    "legion": frozenset({"red", "combined"}),
    "galley": frozenset({"blue", "combined"}),
}
NATIONS: tuple[str, ...] = ("yellow", "red", "green", "blue", "black", "grey")
PLAYER_COUNTS: tuple[int, ...] = (3, 4, 5, 6)
TEMPLES_IN_BOX = 20
PROVENANCE_KINDS: tuple[str, ...] = ("book", "reconstructed")

_TOP_KEYS = ("format", "game", "side", "names", "sources", "regions", "seas", "borders",
             "nations", "start", "note")
_TOP_REQUIRED = ("format", "side", "regions", "seas", "borders", "nations", "start")
_REGION_KEYS = ("city", "temple", "provenance", "at", "note")
_REGION_REQUIRED = ("city", "provenance")
_SEA_KEYS = ("galley_symbol", "provenance", "at", "note")
_SEA_REQUIRED = ("provenance",)


MAX_SHOWN = 100
"""Most problems a BoardError prints (all are kept in ``problems``)."""
MAX_HINTS = 10
"""Most did-you-mean guesses one check makes: each compares a name with every area, so a
hostile file of thousands of unknown names must not cost millions of comparisons."""


class BoardError(DataFileError):
    """A board file with problems; str() lists them, each at its line (the first
    MAX_SHOWN, then how many more)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        lines = [str(p) for p in self.problems[:MAX_SHOWN]]
        if len(self.problems) > MAX_SHOWN:
            lines.append(f"... and {len(self.problems) - MAX_SHOWN} more problems")
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class Region:
    """A land region: its city site (a resource, or ``universal``), whether a neutral
    temple stands there at the start, and where the data comes from."""

    name: str
    city: str
    neutral_temple: bool
    provenance: str
    at: tuple[float, float] | None = None  # where to draw it (board picture), if given
    note: str = ""


@dataclass(frozen=True)
class Sea:
    """A sea region; one with the galley symbol counts double for navigators."""

    name: str
    galley_symbol: bool
    provenance: str
    at: tuple[float, float] | None = None
    note: str = ""


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    kind: str  # red | blue | combined


@dataclass(frozen=True)
class Board:
    """One side of the board, as checked: built only by :func:`load`."""

    side: str
    names: Mapping[str, str]
    regions: Mapping[str, Region]
    seas: Mapping[str, Sea]
    borders: tuple[Border, ...]
    nations: tuple[str, ...]
    starts: Mapping[int, Mapping[str, tuple[str, ...]]]
    file: str = ""
    source: Sourced | None = field(default=None, repr=False, compare=False)
    _adjacent: dict[str, dict[str, tuple[str, ...]]] = field(
        init=False, repr=False, compare=False, default_factory=dict)
    _kinds: dict[frozenset[str], str] = field(
        init=False, repr=False, compare=False, default_factory=dict)
    _reached: dict[tuple[str, str, int], frozenset[str]] = field(
        init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        adjacent: dict[str, dict[str, list[str]]] = {
            unit: {area: [] for area in (*self.regions, *self.seas)} for unit in UNITS}
        for border in self.borders:
            self._kinds[frozenset((border.a, border.b))] = border.kind
            for unit in UNITS:
                if border.kind in CROSSES[unit]:
                    adjacent[unit][border.a].append(border.b)
                    adjacent[unit][border.b].append(border.a)
        for unit, areas in adjacent.items():
            self._adjacent[unit] = {area: tuple(sorted(found)) for area, found in areas.items()}

    def __str__(self) -> str:
        return (f"Antike II, {self.names.get('en', self.side)} side: {len(self.regions)} "
                f"regions, {len(self.seas)} seas, {len(self.borders)} borders")

    @property
    def areas(self) -> tuple[str, ...]:
        """Every land region and sea, regions first, in file order."""
        return (*self.regions, *self.seas)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.starts))

    def is_sea(self, area: str) -> bool:
        return area in self.seas

    def neighbours(self, area: str, unit: str) -> tuple[str, ...]:
        """The areas a ``legion`` (red and combined borders) or a ``galley`` (blue and
        combined borders) reaches from area in one step, sorted."""
        return self._adjacent[unit][area]

    def border(self, a: str, b: str) -> str | None:
        """The kind of the border between a and b (red, blue, combined), or None."""
        return self._kinds.get(frozenset((a, b)))

    def coastal(self, region: str) -> bool:
        """A region with a blue or combined border: galleys may be raised there."""
        return region in self.regions and bool(self._adjacent["galley"][region])

    def reach(self, area: str, unit: str, steps: int) -> frozenset[str]:
        """Areas unit reaches from area crossing at most ``steps`` borders it may cross
        (Strata and Navigatio give two), area itself excluded. Kept once found: the
        board does not change, and the bots ask it at every position they weigh."""
        key = (area, unit, steps)
        found = self._reached.get(key)
        if found is not None:
            return found
        seen = {area}
        frontier = [area]
        for _ in range(steps):
            frontier = [n for a in frontier for n in self.neighbours(a, unit) if n not in seen]
            seen.update(frontier)
        found = self._reached[key] = frozenset(seen - {area})
        return found

    def start(self, players: int) -> dict[str, tuple[str, ...]]:
        """Each nation playing with this many players -> its three start regions (one
        marble, one iron, one gold city), in seating order as the file lists them."""
        if players not in self.starts:
            counts = ", ".join(map(str, self.player_counts))
            raise DataFileError(f"{self.file}: start: this side seats {counts} players, "
                                f"not {players}")
        return dict(self.starts[players])

    def neutral_temples(self) -> tuple[str, ...]:
        """Regions holding a neutral temple at the start, in file order."""
        return tuple(r.name for r in self.regions.values() if r.neutral_temple)

    def sea_weight(self, sea: str) -> int:
        """What a galley's presence in sea counts towards navigators: 2 with the galley
        symbol, else 1."""
        return 2 if self.seas[sea].galley_symbol else 1

    def distances(self, origin: str, unit: str | None = None) -> dict[str, int]:
        """Fewest borders from origin to each area it reaches (any border when unit is
        None: the map's own geometry)."""
        dist = {origin: 0}
        queue = deque([origin])
        while queue:
            here = queue.popleft()
            nexts = self._adjacent_any(here) if unit is None else self.neighbours(here, unit)
            for n in nexts:
                if n not in dist:
                    dist[n] = dist[here] + 1
                    queue.append(n)
        return dist

    def _adjacent_any(self, area: str) -> tuple[str, ...]:
        return tuple(sorted({*self._adjacent["legion"][area], *self._adjacent["galley"][area]}))


def layout(board: Board, width: float, height: float, margin: float = 20.0
           ) -> dict[str, tuple[float, float]]:
    """Where to draw each area in a width x height picture, from the files' ``at``
    (longitude, latitude): an equirectangular projection (a degree of longitude shrunk by
    the cosine of the map's middle latitude), north up, scaled to fit inside the margin
    with its proportions kept. An area without ``at`` is drawn at the mean of its drawn
    neighbours (repeatedly, so a chain of them fills in); one with none at the centre."""
    known = {name: at for name, at in (*((r.name, r.at) for r in board.regions.values()),
                                       *((s.name, s.at) for s in board.seas.values()))
             if at is not None}
    centre = (width / 2, height / 2)
    if not known:
        return dict.fromkeys(board.areas, centre)
    lats = [lat for _, lat in known.values()]
    shrink = math.cos(math.radians((min(lats) + max(lats)) / 2))
    flat = {a: (lon * shrink, -lat) for a, (lon, lat) in known.items()}
    xs = [x for x, _ in flat.values()]
    ys = [y for _, y in flat.values()]
    span_x = max(max(xs) - min(xs), 1e-9)
    span_y = max(max(ys) - min(ys), 1e-9)
    scale = min((width - 2 * margin) / span_x, (height - 2 * margin) / span_y)
    left = (width - scale * span_x) / 2
    top = (height - scale * span_y) / 2
    out = {a: (left + (x - min(xs)) * scale, top + (y - min(ys)) * scale)
           for a, (x, y) in flat.items()}
    missing = [a for a in board.areas if a not in out]
    while missing:
        placed = []
        for area in missing:
            near = [out[n] for n in board._adjacent_any(area) if n in out]
            if near:
                placed.append((area, (sum(p[0] for p in near) / len(near),
                                      sum(p[1] for p in near) / len(near))))
        if not placed:
            out.update(dict.fromkeys(missing, centre))
            break
        out.update(placed)
        missing = [a for a in missing if a not in out]
    return out


def load(path: str | Path, text: str | None = None, source: Sourced | None = None) -> Board:
    """Read and check a board file; raise :class:`BoardError` naming every fault at its
    file:line:col and key. ``source`` is the file already read (and patched by a pack)."""
    src = source if source is not None else load_yaml(path, text)
    checker = _Checker(src)
    problems = checker.run()
    if problems:
        raise BoardError(problems)
    return checker.board()


def from_pack(path: Path, data: Mapping[str, Any], where: Any = None) -> Board:
    """The kernel's ``mn_load_board`` for Antike II: the board file the pack names, as the
    pack's ``patch: {board: ...}`` changes it (the kernel reads and patches it)."""
    from mnrules.content.packs import PATCHED

    patched = (data.get(PATCHED) or {}).get("board")
    return load(path, source=patched)


def default_board_path(side: str) -> Path:
    """The shipped board file of a side (in this game's data package
    ``antike2.editions``, however the game is installed)."""
    from importlib import resources

    return Path(str(resources.files("antike2.editions"))) / "boards" / f"{side}.yaml"


def _name(value: object) -> str:
    """A name as a message quotes it: text in quotes, anything else described."""
    return repr(value[:60]) if isinstance(value, str) else describe(value)


class _Checker:
    """One pass that collects every problem and keeps what parsed cleanly, so the Board
    is built from exactly what was checked."""

    def __init__(self, src: Sourced) -> None:
        self.src = src
        self.problems: list[Problem] = []
        self.side = ""
        self.names: dict[str, str] = {}
        self.regions: dict[str, Region] = {}
        self.seas: dict[str, Sea] = {}
        self.borders: list[Border] = []
        self.border_paths: dict[frozenset[str], KeyPath] = {}
        self.nations: tuple[str, ...] = ()
        self.starts: dict[int, dict[str, tuple[str, ...]]] = {}
        self.lookalikes: dict[str, str] = {}
        self.hints = 0
        self.area_names: frozenset[str] = frozenset()

    def report(self, path: KeyPath, message: str) -> None:
        self.problems.append(self.src.problem(path, message))

    def expect(self, path: KeyPath, value: Any, kind: type, what: str) -> bool:
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            self.report(path, f"expected {what}, got {describe(value)}")
        return ok

    def keys(self, path: KeyPath, entry: Mapping[Any, Any], allowed: Sequence[str],
             required: Sequence[str]) -> None:
        for key in entry:
            if key not in allowed:
                self.report((*path, key), f"unknown key {key!r}"
                            + did_you_mean(str(key), allowed,
                                           f"; known: {', '.join(allowed)}"))
        for key in required:
            if key not in entry:
                self.report((*path, key), "missing key")

    def area(self, path: KeyPath, name: Any, what: str = "area",
             among: Collection[str] | None = None) -> str | None:
        """name if it is a known area (of ``among`` if given), else report it."""
        known: Collection[str] = among if among is not None else self.area_names
        if isinstance(name, str) and name in known:
            return name
        if not isinstance(name, str):
            self.report(path, f"expected the name of {what}, got {describe(name)}")
            return None
        if among is not None and name in self.seas:
            self.report(path, f"{name!r} is a sea, not a land region")
        else:
            self.hints += 1
            hint = did_you_mean(name, known) if self.hints <= MAX_HINTS else ""
            self.report(path, f"unknown {what} {name!r}{hint}")
        return None

    # --- the pass ----------------------------------------------------------------------

    def run(self) -> list[Problem]:
        data = self.src.data
        if not isinstance(data, dict):
            self.report((), f"expected a mapping with keys {', '.join(_TOP_REQUIRED)}, "
                        f"got {describe(data)}")
            return self.problems
        self.keys((), data, _TOP_KEYS, _TOP_REQUIRED)
        if "format" in data and data["format"] != FORMAT:
            self.report(("format",), f"expected {FORMAT!r}, got {describe(data['format'])}")
        if "game" in data and data["game"] != GAME:
            self.report(("game",), f"expected {GAME!r}, got {describe(data['game'])}")
        if "side" in data:
            side = data["side"]
            if isinstance(side, str) and side in SIDES:
                self.side = side
            else:
                self.report(("side",), f"expected one of {', '.join(SIDES)}, got "
                            f"{describe(side)}" + (did_you_mean(side, SIDES)
                                                    if isinstance(side, str) else ""))
        self._names(data)
        self._sources(data)
        for name, entry in self._section(data, "regions"):
            self._region(name, entry)
        for name, entry in self._section(data, "seas"):
            self._sea(name, entry)
        self.area_names = frozenset((*self.regions, *self.seas))
        if "borders" in data:
            self._borders(data["borders"])
        self._connected()
        if "nations" in data:
            self._nations(data["nations"])
        if "start" in data:
            self._starts(data["start"])
        temples = [r for r in self.regions.values() if r.neutral_temple]
        if len(temples) > TEMPLES_IN_BOX:
            self.report(("regions", temples[TEMPLES_IN_BOX].name, "temple"),
                        f"{len(temples)} neutral temples, but the box holds "
                        f"{TEMPLES_IN_BOX} temples in all")
        self.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
        return self.problems

    def board(self) -> Board:
        return Board(side=self.side, names=self.names, regions=self.regions, seas=self.seas,
                     borders=tuple(self.borders), nations=self.nations, starts=self.starts,
                     file=self.src.file, source=self.src)

    def _names(self, data: dict[Any, Any]) -> None:
        value = data.get("names", {})
        if not self.expect(("names",), value, dict, "a mapping language -> name"):
            return
        for lang, text in value.items():
            if self.expect(("names", lang), text, str, "a name"):
                self.names[str(lang)] = text

    def _sources(self, data: dict[Any, Any]) -> None:
        value = data.get("sources", {})
        if not self.expect(("sources",), value, dict, "a mapping key -> description"):
            return
        for key, text in value.items():
            self.expect(("sources", key), text, str, "a description")

    def _section(self, data: dict[Any, Any], key: str) -> list[tuple[str, dict[Any, Any]]]:
        if key not in data:
            return []
        value = data[key]
        if not self.expect((key,), value, dict, f"a mapping of {key}"):
            return []
        out: list[tuple[str, dict[Any, Any]]] = []
        for name, entry in value.items():
            path: KeyPath = (key, name)
            if not isinstance(name, str):
                self.report(path, f"a name must be text, got {describe(name)}")
                continue
            problem = name_problem(name)
            like = self.lookalikes.get(lookalike_key(name))
            if problem is None and like is not None:
                problem = (f"{name!r} is both a region and a sea" if like == name else
                           f"{name!r} looks like {like!r} (they differ only in case or form)")
            if problem is not None:
                self.report(path, problem)
                continue
            self.lookalikes[lookalike_key(name)] = name
            if self.expect(path, entry, dict, "a mapping of keys"):
                out.append((name, entry))
        return out

    def _provenance(self, path: KeyPath, entry: dict[Any, Any]) -> str:
        value = entry.get("provenance")
        if "provenance" not in entry:
            return ""
        kind = value.partition(":")[0].strip() if isinstance(value, str) else ""
        if not isinstance(value, str) or kind not in PROVENANCE_KINDS \
                or not value.partition(":")[2].strip():
            self.report((*path, "provenance"), "expected 'book: <where the rulebook says "
                        "it>' or 'reconstructed: <why>', got " + describe(value))
            return ""
        return value

    def _at(self, path: KeyPath, entry: dict[Any, Any]) -> tuple[float, float] | None:
        if "at" not in entry:
            return None
        value = entry["at"]
        if isinstance(value, list) and len(value) == 2 and all(
                isinstance(v, int | float) and not isinstance(v, bool) for v in value):
            return (float(value[0]), float(value[1]))
        self.report((*path, "at"), f"expected two numbers [x, y], got {describe(value)}")
        return None

    def _note(self, path: KeyPath, entry: dict[Any, Any]) -> str:
        if "note" in entry and self.expect((*path, "note"), entry["note"], str, "text"):
            return str(entry["note"])
        return ""

    def _region(self, name: str, entry: dict[Any, Any]) -> None:
        path: KeyPath = ("regions", name)
        self.keys(path, entry, _REGION_KEYS, _REGION_REQUIRED)
        city = entry.get("city")
        if "city" in entry and (not isinstance(city, str) or city not in CITY_KINDS):
            self.report((*path, "city"), f"expected one of {', '.join(CITY_KINDS)}, got "
                        f"{describe(city)}" + (did_you_mean(city, CITY_KINDS)
                                                if isinstance(city, str) else ""))
            city = None
        if city == UNIVERSAL and self.side == "mare_nostrum":
            self.report((*path, "city"), "universal city sites are the Orient side's alone "
                        "(the book calls them \"Orient\" cities)")
        temple = entry.get("temple")
        if "temple" in entry and temple != "neutral":
            self.report((*path, "temple"), f"expected 'neutral' (a neutral temple stands "
                        f"here at the start), got {describe(temple)}")
        self.regions[name] = Region(name, city if isinstance(city, str) else "",
                                    temple == "neutral", self._provenance(path, entry),
                                    self._at(path, entry), self._note(path, entry))

    def _sea(self, name: str, entry: dict[Any, Any]) -> None:
        path: KeyPath = ("seas", name)
        self.keys(path, entry, _SEA_KEYS, _SEA_REQUIRED)
        symbol = entry.get("galley_symbol", False)
        if not self.expect((*path, "galley_symbol"), symbol, bool, "true or false"):
            symbol = False
        self.seas[name] = Sea(name, bool(symbol), self._provenance(path, entry),
                              self._at(path, entry), self._note(path, entry))

    def _borders(self, value: Any) -> None:
        if not self.expect(("borders",), value, list, "a list of [AREA, AREA, KIND]"):
            return
        for i, item in enumerate(value):
            path: KeyPath = ("borders", i)
            if not isinstance(item, list) or len(item) != 3:
                self.report(path, f"expected [AREA, AREA, KIND] (kind: "
                            f"{', '.join(BORDER_KINDS)}), got {describe(item)}")
                continue
            a = self.area((*path, 0), item[0])
            b = self.area((*path, 1), item[1])
            kind = item[2]
            if not isinstance(kind, str) or kind not in BORDER_KINDS:
                self.report((*path, 2), f"expected a border kind ({', '.join(BORDER_KINDS)})"
                            f", got {describe(kind)}"
                            + (did_you_mean(kind, BORDER_KINDS) if isinstance(kind, str)
                               else ""))
                continue
            if a is None or b is None:
                continue
            if a == b:
                self.report(path, f"{a} cannot border itself")
                continue
            pair = frozenset((a, b))
            if pair in self.border_paths:
                line = self.src.position(self.border_paths[pair])
                at = f" (first on line {line[0]})" if line else ""
                self.report(path, f"the border {a}-{b} is listed twice{at}")
                continue
            seas = (a in self.seas) + (b in self.seas)
            if seas and kind != "blue":
                what = "two seas" if seas == 2 else "a region and a sea"
                self.report((*path, 2), f"a border between {what} is crossed by galleys "
                            f"alone: write blue, not {kind}")
                continue
            self.border_paths[pair] = path
            self.borders.append(Border(a, b, kind))

    def _connected(self) -> None:
        """Every area has a border, and every area is reachable from the first."""
        areas = [*self.regions, *self.seas]
        if not areas:
            return
        links: dict[str, set[str]] = {a: set() for a in areas}
        for border in self.borders:
            links[border.a].add(border.b)
            links[border.b].add(border.a)
        for area in areas:
            if not links[area]:
                section = "seas" if area in self.seas else "regions"
                self.report((section, area), f"{area} has no border: list it under borders")
        # the largest connected part is the map; anything outside it is cut off
        part: dict[str, int] = {}
        sizes: list[int] = []
        for start in areas:
            if start in part:
                continue
            part[start] = len(sizes)
            queue = deque([start])
            size = 0
            while queue:
                size += 1
                for n in links[queue.popleft()]:
                    if n not in part:
                        part[n] = len(sizes)
                        queue.append(n)
            sizes.append(size)
        main = max(range(len(sizes)), key=sizes.__getitem__)
        for area in areas:
            if part[area] != main and links[area]:
                section = "seas" if area in self.seas else "regions"
                self.report((section, area), f"{area} cannot be reached from the rest of the "
                            f"map ({sizes[main]} areas): the map falls apart")

    def _nations(self, value: Any) -> None:
        if not self.expect(("nations",), value, list, "a list of nations"):
            return
        out: list[str] = []
        for i, nation in enumerate(value):
            if not isinstance(nation, str) or nation not in NATIONS:
                self.report(("nations", i), f"unknown nation {_name(nation)}"
                            + (did_you_mean(nation, NATIONS, f"; the nations are "
                                                             f"{', '.join(NATIONS)}")
                               if isinstance(nation, str) else ""))
            elif nation in out:
                self.report(("nations", i), f"{nation} is listed twice")
            else:
                out.append(nation)
        self.nations = tuple(out)

    def _starts(self, value: Any) -> None:
        if not self.expect(("start",), value, dict, "a mapping player count -> nations"):
            return
        for count in value:
            if count not in PLAYER_COUNTS:
                self.report(("start", count), f"a side seats 3 to 6 players, not "
                            f"{describe(count)}")
        for count in PLAYER_COUNTS:
            if count not in value:
                self.report(("start",), f"missing start for {count} players")
            else:
                self._start(count, value[count])

    def _start(self, count: int, value: Any) -> None:
        path: KeyPath = ("start", count)
        if not self.expect(path, value, dict, "a mapping nation -> its three start regions"):
            return
        if len(value) != count:
            self.report(path, f"{count} players, but {len(value)} nations listed")
        taken: dict[str, str] = {}
        out: dict[str, tuple[str, ...]] = {}
        for nation, regions in value.items():
            npath: KeyPath = (*path, nation)
            if not isinstance(nation, str) or nation not in self.nations:
                self.report(npath, f"unknown nation {_name(nation)}: not in this side's "
                            f"nations" + (did_you_mean(nation, self.nations)
                                          if isinstance(nation, str) else ""))
                continue
            if not isinstance(regions, list):
                self.report(npath, f"expected a list of three regions, got "
                            f"{describe(regions)}")
                continue
            kept: list[str] = []
            for i, item in enumerate(regions):
                region = self.area((*npath, i), item, "land region", self.regions)
                if region is None:
                    continue
                if region in taken:
                    self.report((*npath, i), f"{region} is already {taken[region]}'s start "
                                "region")
                    continue
                if self.regions[region].neutral_temple:
                    self.report((*npath, i), f"{region} holds a neutral temple: no nation "
                                "starts there")
                    continue
                taken[region] = nation
                kept.append(region)
            resources = sorted(self.regions[r].city for r in kept)
            if "" in resources:
                continue  # a city site already refused: said once, where it is written
            if len(regions) != 3 or (len(kept) == 3 and resources != sorted(RESOURCES)):
                shown = ", ".join(f"{r} ({self.regions[r].city})" for r in kept)
                self.report(npath, f"{nation} must start with one marble, one iron and one "
                            f"gold city, got {shown or 'none'}"
                            + ("" if len(regions) == 3 else f" ({len(regions)} regions)"))
                continue
            out[nation] = tuple(kept)
        self.starts[count] = out


@dataclass(frozen=True)
class StartMeasure:
    """How a nation's start sits on the map, for judging start sets fair.

    Distances count borders of any kind (a nation has legions and galleys both), from the
    nearest of its start regions. ``territory`` counts the free city sites (no start city,
    no neutral temple) nearer to this nation than to any rival, a tie shared equally: the
    room it can found cities in before anyone contests it."""

    nation: str
    rival: int            # borders to the nearest rival start region
    sites_near: int       # free city sites within 2 borders
    territory: float      # free city sites nearer to it than to any rival (ties shared)
    temples_near: int     # neutral temples within 2 borders
    seas_near: int        # sea weight (galley symbol counts 2) within 2 borders
    coastal: int          # start regions where galleys may be raised


def start_measures(board: Board, players: int) -> dict[str, StartMeasure]:
    """The :class:`StartMeasure` of every nation of a start set."""
    starts = board.start(players)
    taken = {r for regions in starts.values() for r in regions}
    dist: dict[str, dict[str, int]] = {}
    for nation, regions in starts.items():
        best: dict[str, int] = {}
        for region in regions:
            for area, steps in board.distances(region).items():
                best[area] = min(steps, best.get(area, steps))
        dist[nation] = best
    free = [r.name for r in board.regions.values()
            if r.name not in taken and not r.neutral_temple]
    far = len(board.areas)
    territory = dict.fromkeys(starts, 0.0)
    for site in free:
        ds = {n: dist[n].get(site, far) for n in starts}
        nearest = min(ds.values())
        winners = [n for n, d in ds.items() if d == nearest]
        for n in winners:
            territory[n] += 1 / len(winners)
    out: dict[str, StartMeasure] = {}
    for nation, regions in starts.items():
        d = dist[nation]
        rivals = [d.get(r, far) for other, rs in starts.items() if other != nation for r in rs]
        out[nation] = StartMeasure(
            nation=nation,
            rival=min(rivals, default=far),
            sites_near=sum(1 for s in free if d.get(s, far) <= 2),
            territory=territory[nation],
            temples_near=sum(1 for t in board.neutral_temples() if d.get(t, far) <= 2),
            seas_near=sum(board.sea_weight(s) for s in board.seas if d.get(s, far) <= 2),
            coastal=sum(1 for r in regions if board.coastal(r)))
    return out
