"""A picture of the board (``mnrules render``): provinces and seas where the board
file's ``at`` keys put them, who controls what, the buildings, units, occupations,
titles, tracks and the round, with a legend.

One layout (:func:`layout`, a list of drawing primitives in pixels) is computed from
the board and the state; two back ends draw it, so the SVG and the PNG agree:
:func:`render_svg` writes SVG text (no dependency, no external fonts or files) and
:func:`render_png` paints the same primitives with Pillow (the optional ``render``
extra: ``pip install 'mnrules[render]'``).
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

from mare_nostrum.board import Board, Province
from mare_nostrum.state import Game, State
from mnrules.core import engine
from mnrules.core.start import fits
from mnrules.errors import MnrulesError, StateError

if TYPE_CHECKING:
    from mnrules.content.ruleset import Ruleset

# --- drawing primitives (pixels) -------------------------------------------------------


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None = None
    width: float = 1.0
    radius: float = 0.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float
    fill: str | None
    stroke: str | None = None
    width: float = 1.0


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float = 1.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Poly:
    points: tuple[tuple[float, float], ...]
    fill: str | None
    stroke: str | None = None
    width: float = 1.0


@dataclass(frozen=True)
class Text:
    """Text whose vertical centre is at ``y``; ``anchor`` is start, middle or end."""

    x: float
    y: float
    text: str
    size: float
    fill: str = "#222222"
    anchor: str = "middle"
    bold: bool = False
    italic: bool = False


Item = Rect | Ellipse | Line | Poly | Text


@dataclass
class Scene:
    width: int
    height: int
    background: str
    items: list[Item] = field(default_factory=list)
    title: str = ""


# --- colours -------------------------------------------------------------------------

# The board file names each empire's colour; these are the shades drawn for the
# common names (a board file may also give "#rrggbb").
PALETTE = {
    "red": "#d32f2f",
    "green": "#2e7d32",
    "purple": "#7b1fa2",
    "yellow": "#f9c20f",
    "black": "#1f1f1f",
    "blue": "#1565c0",
    "orange": "#ef6c00",
    "brown": "#6d4c41",
    "white": "#f5f5f5",
    "grey": "#757575",
    "gray": "#757575",
    "pink": "#d81b60",
    "cyan": "#00838f",
}
INK = "#222222"
PAPER = "#f3ead7"
PANEL = "#fbf8f1"
SEA_FILL = "#b3d4f0"
SEA_EDGE = "#5b9bd5"
SEA_INK = "#1f4e79"
COAST = "#2f74c0"
LAND_LINK = "#9c8a74"
NEUTRAL_HEAD = "#8c8c8c"
NEUTRAL_BODY = "#fffdf8"
COVERED = "#ddd7ca"
BUILT = "#5d4037"
EMPTY_EDGE = "#a09a90"
TITLE_MARK = "#f2c94c"
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


def colour(name: str) -> str:
    """The hex colour drawn for a board file's colour name (grey when unknown)."""
    name = name.strip().lower()
    if name.startswith("#") and len(name) in (4, 7):
        try:
            int(name[1:], 16)
        except ValueError:
            return PALETTE["grey"]
        if len(name) == 4:
            return "#" + "".join(c * 2 for c in name[1:])
        return name
    return PALETTE.get(name, PALETTE["grey"])


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _mix(a: str, b: str, t: float) -> str:
    """``t`` of colour a and the rest of colour b."""
    ra, rb = _rgb(a), _rgb(b)
    return "#" + "".join(f"{round(x * t + y * (1 - t)):02x}" for x, y in zip(ra, rb, strict=True))


def _tint(fill: str) -> str:
    """The pale body of a province whose marker is ``fill`` (paler for dark colours)."""
    r, g, b = _rgb(fill)
    return _mix(fill, "#ffffff", 0.22 if 0.299 * r + 0.587 * g + 0.114 * b > 60 else 0.13)


def _ink(fill: str) -> str:
    """Black or white, whichever reads on ``fill``."""
    r, g, b = _rgb(fill)
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


# --- sizes (pixels) --------------------------------------------------------------------

SCALE = 1.5  # pixels per board unit (the board's x runs 0-1000, y 0-600)
MARGIN = 24
BOX_W, BOX_H, HEAD_H = 152, 88, 21
SLOT, SLOT_GAP = 24, 4
UNIT_ROW = 24
SEA_RX, SEA_RY = 80, 38
PANEL_W = 440


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """An estimate of the drawn width (DejaVu Sans is about 0.6 em a letter)."""
    return len(text) * size * (0.66 if bold else 0.6)


# --- what is drawn -------------------------------------------------------------------


def good_abbreviations(goods: Iterable[str],
                       names: dict[str, str] | None = None) -> dict[str, str]:
    """Two letters per good, unique among the goods (Gr grain, Go gold, Ge gems, ...),
    taken from its name in ``names`` (the picture's language) where it has one."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    names = names or {}
    for good in sorted(goods, key=lambda g: names.get(g, g)):
        word = (names.get(good) or good).capitalize()
        choice = word[:2]
        for c in word[2:]:
            if choice not in taken:
                break
            choice = word[0] + c
        out[good] = choice
        taken.add(choice)
    return out


SLOT_LETTERS = {"market": "M", "city": "Ci", "capital": "Ca", "legendary": "L", "temple": "T"}


def slot_letters(names: dict[str, str]) -> dict[str, str]:
    """The building slots' letters from their names in the picture's language: one
    letter where no other slot's name starts with it, else two (as :data:`SLOT_LETTERS`
    says them in English: M market, Ci city, Ca capital, L legendary, T temple)."""
    firsts = [n[:1].upper() for n in names.values()]
    two = good_abbreviations(names, names)
    return {kind: name[:1].upper() if firsts.count(name[:1].upper()) == 1 else two[kind]
            for kind, name in names.items()}


@dataclass
class _View:
    """What the layout reads: the board, the state, the per-empire report, and the
    presenter that names everything in the picture's language."""

    board: Board
    state: State
    colours: dict[str, str]
    reports: dict[str, dict[str, Any]]
    goods: dict[str, str]
    rules_name: str = ""
    covered: str = "covered"  # a province not in play at this player count
    say: Any = None  # the presenter whose language the panel speaks (the pack's by default)
    slots: dict[str, str] = field(default_factory=lambda: dict(SLOT_LETTERS))

    def t(self, key: str, **values: Any) -> str:
        """The panel's sentence ``render.KEY`` (or a kernel's ``ui.*``/``table.*`` one)
        in the picture's language."""
        own = key.split(".", 1)[0] in ("ui", "table", "map")
        return str(self.say.say(key if own else f"render.{key}", **values))


def _as_game(game: Game | Ruleset, state: State | None) -> Game:
    if isinstance(game, engine.Game):
        if state is not None:
            return Game(game.rules, state)
        return game
    if state is None:
        raise MnrulesError("render: give a game, or a rule set and a state")
    return Game(game, state)


def _view(game: Game, say: Any = None) -> _View:
    from mnrules.language.present import presenter

    rules = game.rules
    board = rules.board
    state = game.state
    fits(rules, state)  # the same checks a loaded game passes
    try:
        reports = game.report()
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise StateError(f"this state cannot be read: {type(exc).__name__}: {exc}") from None
    goods = [str(g) for g in (rules.components.get("goods") or {})]
    goods += sorted({s.good for pr in board.provinces.values() for s in pr.slots
                     if s.good is not None} - set(goods))
    say = say if say is not None else presenter(rules)
    return _View(
        board=board,
        state=state,
        colours={e: colour(s.colour) for e, s in board.empires.items()},
        reports=reports,
        goods=good_abbreviations(goods, {g: str(say.name(g, "goods")) for g in goods}),
        rules_name=str(rules.data.get("name", rules.pack)),
        say=say,
        slots=slot_letters({k: str(say.name(k, "buildings")) for k in SLOT_LETTERS}),
    )


# --- layout ----------------------------------------------------------------------------


def positions(board: Board) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Pixel centres of every province and sea, and the map's width and height.

    Areas without ``at`` are lined up in rows under the map, so that a board file
    without positions still draws (unreadably, but completely)."""
    placed = {n: p.at for n, p in board.provinces.items() if p.at is not None}
    placed.update({n: s.at for n, s in board.seas.items() if s.at is not None})
    xs = [a[0] for a in placed.values()] or [0.0]
    ys = [a[1] for a in placed.values()] or [0.0]
    x0 = MARGIN + BOX_W / 2 - min(xs) * SCALE
    y0 = MARGIN + BOX_H / 2 - min(ys) * SCALE
    out = {n: (x0 + x * SCALE, y0 + y * SCALE) for n, (x, y) in placed.items()}
    width = (max(xs) - min(xs)) * SCALE + BOX_W + 2 * MARGIN
    height = (max(ys) - min(ys)) * SCALE + BOX_H + 2 * MARGIN + 16
    missing = [n for n in [*board.provinces, *board.seas] if n not in out]
    per_row = max(1, int((width - MARGIN) // (BOX_W + 16)))
    for i, name in enumerate(missing):
        row, col = divmod(i, per_row)
        out[name] = (MARGIN + BOX_W / 2 + col * (BOX_W + 16),
                     height + BOX_H / 2 + row * (BOX_H + 40))
    if missing:
        height += ((len(missing) - 1) // per_row + 1) * (BOX_H + 40)
    return out, width, height


def layout(game: Game | Ruleset, state: State | None = None, say: Any = None) -> Scene:
    """Everything to draw, in pixels, back to front; the panel in ``say``'s language (the
    pack's by default)."""
    view = _view(_as_game(game, state), say)
    view.covered = view.t("map.covered") or view.covered
    st = view.state
    items, map_w, map_h = _map(view)
    height = _panel(items, view, map_w, map_h)
    return Scene(math.ceil(map_w + PANEL_W), math.ceil(max(map_h, height)), PAPER,
                 items, title=f"{view.rules_name}: round {st.round}")


def map_svg(game: Game, say: Any = None, titles: dict[str, str] | None = None) -> str:
    """The map and its legend as SVG for the web app: every province and sea under a clickable
    ``<g class="area" data-area=ID>`` hot spot, its pixel box the area's own, its
    tooltip (``<title>``) what ``titles`` says of the area (the goods' letters are the
    names' in ``say``'s language)."""
    view = _view(game, say)
    if say is not None:
        view.covered = say.say("map.covered") or view.covered
    items, map_w, map_h = _map(view)
    # the picture's legend under the map (the side panel holds the rest of its panel)
    bottom = _legend(items, view, 30.0, min(map_w - 30.0, 700.0), map_h + 34.0, 1.5)
    where, _, _ = positions(view.board)
    svg = scene_svg(Scene(math.ceil(map_w), math.ceil(bottom + 16.0), PAPER, items,
                          title=view.rules_name))
    spots = []
    for name, (cx, cy) in where.items():
        tip = (titles or {}).get(name)
        end = f"><title>{escape(tip)}</title></" + ("ellipse>" if name in view.board.seas
                                                    else "rect>") if tip else "/>"
        if name in view.board.seas:
            spots.append(f'<ellipse class="area" data-area={quoteattr(name)} cx="{_n(cx)}" '
                         f'cy="{_n(cy)}" rx="{_n(SEA_RX)}" ry="{_n(SEA_RY)}"{end}')
        else:
            spots.append(f'<rect class="area" data-area={quoteattr(name)} '
                         f'x="{_n(cx - BOX_W / 2)}" y="{_n(cy - BOX_H / 2)}" '
                         f'width="{_n(BOX_W)}" height="{_n(BOX_H)}" rx="8"{end}')
    return svg.replace("</svg>", "\n".join(spots) + "\n</svg>")


def _map(view: _View) -> tuple[list[Item], float, float]:
    """The map's items (paper, links, seas, provinces) and its size."""
    board, st = view.board, view.state
    where, map_w, map_h = positions(board)
    in_play = set(board.provinces_in_play(len(st.players)))
    items: list[Item] = []
    # The map: paper, then the links (under every shape), then seas and provinces.
    items.append(Rect(0, 0, map_w, map_h, PAPER))
    for a, b in _pairs((s.name, n) for s in board.seas.values() for n in s.neighbours):
        items.append(Line(*where[a], *where[b], "#7fb0e0", 3.0, (9, 6)))
    for prov in board.provinces.values():
        for sea in prov.seas:
            grey = prov.name not in in_play
            items.append(Line(*where[prov.name], *where[sea], "#b9c7d6" if grey else COAST,
                              1.4, (5, 4)))
    for a, b in _pairs((p.name, n) for p in board.provinces.values() for n in p.neighbours):
        grey = a not in in_play or b not in in_play
        items.append(Line(*where[a], *where[b], "#cfc5b6" if grey else LAND_LINK, 2.0))
    for sea in board.seas:
        _sea(items, view, sea, *where[sea])
    for prov in board.provinces.values():
        _province(items, view, prov, *where[prov.name], prov.name in in_play)
    return items, map_w, map_h


def _pairs(links: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    out: list[tuple[str, str]] = []
    for a, b in links:
        key = (min(a, b), max(a, b))
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


def _sea(items: list[Item], view: _View, sea: str, cx: float, cy: float) -> None:
    items.append(Ellipse(cx, cy, SEA_RX, SEA_RY, SEA_FILL, SEA_EDGE, 1.5))
    here = view.state.units.get(sea, {})
    label_y = cy - 10 if here else cy
    items.append(Text(cx, label_y, _title_case(sea), 11.5, SEA_INK, italic=True, bold=True))
    players = [p for p in view.state.players if here.get(p, {}).get("trireme", 0)]
    groups = [[("trireme", here[p]["trireme"])] for p in players]
    _unit_rows(items, view, players, groups, cx, cy + 11, SEA_RX * 2 - 20)


def _title_case(name: str) -> str:
    return " ".join(w.capitalize() for w in name.split())


def _province(items: list[Item], view: _View, prov: Province, cx: float, cy: float,
              in_play: bool) -> None:
    st = view.state
    x, y = cx - BOX_W / 2, cy - BOX_H / 2
    if not in_play:
        items.append(Rect(x, y, BOX_W, BOX_H, COVERED, "#b5ad9c", 1.2, 8, (4, 3)))
        items.append(Text(cx, cy - 8, _title_case(prov.name), 12, "#8a8271", bold=True))
        items.append(Text(cx, cy + 10, view.covered, 11, "#8a8271", italic=True))
        return
    owner = st.control.get(prov.name)
    head = view.colours[owner] if owner else NEUTRAL_HEAD
    body = _tint(head) if owner else NEUTRAL_BODY
    here = st.units.get(prov.name, {})
    players = [p for p in st.players if here.get(p)]
    groups = [_province_units(here[p]) for p in players]
    rows = _rows(groups, BOX_W - 10)
    h = BOX_H + max(0, len(rows) - 1) * UNIT_ROW
    occupier = st.marker_occupier.get(prov.name)
    if occupier:
        items.append(Rect(x - 6, y - 6, BOX_W + 12, h + 12, None, view.colours[occupier], 6, 12))
    items.append(Rect(x, y, BOX_W, h, body, head, 2.0, 8))
    items.append(Rect(x, y, BOX_W, HEAD_H, head, None, 0, 8))
    items.append(Rect(x, y + HEAD_H - 8, BOX_W, 8, head))  # square off the band's bottom
    items.append(Text(cx, y + HEAD_H / 2 + 0.5, _title_case(prov.name), 12.5, _ink(head),
                      bold=True))
    if occupier:
        fx = x + BOX_W - 14
        items.append(Poly(((fx, y + 4), (fx + 10, y + 8), (fx, y + 12)),
                          view.colours[occupier], _ink(head), 1.2))
        items.append(Line(fx, y + 3, fx, y + HEAD_H - 3, _ink(head), 1.5))
    # The printed slots, in file order.
    n = len(prov.slots)
    sx = cx - (n * SLOT + (n - 1) * SLOT_GAP) / 2
    sy = y + HEAD_H + 6
    built = st.built.get(prov.name, [False] * n)
    occupied = st.occupied.get(prov.name, [None] * n)
    for i, slot in enumerate(prov.slots):
        who = occupied[i] if i < len(occupied) else None
        _slot_glyph(items, view, slot.kind, slot.good, sx + i * (SLOT + SLOT_GAP), sy,
                    bool(built[i]) if i < len(built) else False, who)
    _unit_rows(items, view, players, groups, cx, sy + SLOT + 6 + UNIT_ROW / 2, BOX_W - 10)


def _slot_glyph(items: list[Item], view: _View, kind: str, good: str | None, x: float,
                y: float, built: bool, occupier: str | None) -> None:
    if occupier is not None:
        fill = view.colours[occupier]
        stroke, ink, width = INK, _ink(fill), 2.0
    elif built:
        fill, stroke, ink, width = BUILT, BUILT, "#ffffff", 1.0
    else:
        fill, stroke, ink, width = "#ffffff", EMPTY_EDGE, "#8a8378", 1.2
    if kind == "caravan":
        items.append(Ellipse(x + SLOT / 2, y + SLOT / 2, SLOT / 2, SLOT / 2, fill, stroke, width))
        label = view.goods.get(good or "", (good or "?")[:2].capitalize())
    else:
        items.append(Rect(x, y, SLOT, SLOT, fill, stroke, width, 3))
        label = view.slots.get(kind) or SLOT_LETTERS.get(kind, kind[:2].capitalize())
        if kind in ("capital", "legendary"):  # a crown notch: the great cities
            items.append(Poly(((x + 5, y), (x + 8, y + 4), (x + 12, y), (x + 16, y + 4),
                               (x + 19, y)), ink, None))
    items.append(Text(x + SLOT / 2, y + SLOT / 2 + (1.5 if kind in ("capital", "legendary")
                                                      else 0.5),
                      label, 10.5 if len(label) > 1 else 11.5, ink, bold=True))


def _province_units(units: dict[str, int]) -> list[tuple[str, int]]:
    order = ("fortress", "legion", "trireme")
    kinds = [k for k in order if units.get(k)] + sorted(k for k in units if k not in order)
    return [(k, units[k]) for k in kinds if units[k]]


def _group_width(group: Sequence[tuple[str, int]]) -> float:
    return sum(_unit_width(k) for k, _ in group) + 3 * (len(group) - 1)


def _unit_width(kind: str) -> float:
    return {"fortress": 20, "legion": 22, "trireme": 32}.get(kind, 22)


def _rows(groups: Sequence[Sequence[tuple[str, int]]], width: float) -> list[list[int]]:
    """Player groups (by index) packed into rows no wider than ``width``."""
    rows: list[list[int]] = []
    used = 0.0
    for i, g in enumerate(groups):
        w = _group_width(g)
        if rows and used + 8 + w <= width:
            rows[-1].append(i)
            used += 8 + w
        else:
            rows.append([i])
            used = w
    return rows


def _unit_rows(items: list[Item], view: _View, players: Sequence[str],
               groups: Sequence[Sequence[tuple[str, int]]], cx: float, cy: float,
               width: float) -> None:
    for r, row in enumerate(_rows(groups, width)):
        total = sum(_group_width(groups[i]) for i in row) + 8 * (len(row) - 1)
        x = cx - total / 2
        y = cy + r * UNIT_ROW
        for i in row:
            for kind, n in groups[i]:
                _unit(items, kind, n, view.colours[players[i]], x, y)
                x += _unit_width(kind) + 3
            x += 5


def _unit(items: list[Item], kind: str, n: int, fill: str, x: float, cy: float) -> None:
    """One unit piece in the owner's colour, its count on it, left edge at x."""
    ink = _ink(fill)
    edge = "#ffffff" if fill == PALETTE["black"] else INK
    if kind == "fortress":
        top, bottom = cy - 9, cy + 9
        pts = ((x, bottom), (x, top), (x + 5, top), (x + 5, top + 4), (x + 7.5, top + 4),
               (x + 7.5, top), (x + 12.5, top), (x + 12.5, top + 4), (x + 15, top + 4),
               (x + 15, top), (x + 20, top), (x + 20, bottom))
        items.append(Poly(pts, fill, edge, 1.3))
        if n > 1:
            items.append(Text(x + 10, cy + 2.5, str(n), 10.5, ink, bold=True))
    elif kind == "trireme":
        w = _unit_width(kind)
        items.append(Line(x + w / 2, cy - 11, x + w / 2, cy - 2, INK, 1.4))
        items.append(Poly(((x + w / 2 + 1, cy - 11), (x + w / 2 + 9, cy - 4),
                           (x + w / 2 + 1, cy - 4)), "#ffffff", INK, 1.0))
        items.append(Poly(((x, cy - 3), (x + w, cy - 3), (x + w - 6, cy + 9), (x + 6, cy + 9)),
                          fill, edge, 1.3))
        items.append(Text(x + w / 2, cy + 3, str(n), 10.5, ink, bold=True))
    else:
        items.append(Ellipse(x + 11, cy, 10.5, 10.5, fill, edge, 1.3))
        items.append(Text(x + 11, cy + 0.5, str(n), 11, ink, bold=True))


# --- the side panel -----------------------------------------------------------------


def _panel(items: list[Item], view: _View, x0: float, map_h: float) -> float:
    """The panel right of the map; returns its height."""
    st = view.state
    start = len(items)
    x = x0 + 18
    right = x0 + PANEL_W - 18
    y = 30.0
    items.append(Text(x, y, "Mare Nostrum: Empires", 21, INK, "start", bold=True))
    y += 28
    say = view.say
    phase = say.name(st.phase, "phases") if st.phase else view.t("ui.setup")
    items.append(Text(x, y, view.t("round", round=st.round, phase=phase), 16, INK, "start"))
    y += 22
    if st.finished:
        items.append(Text(x, y, view.t("game_over", winners=say.players(st.winners),
                                       victory=say.name(st.victory, "victories")), 13,
                          "#b71c1c", "start", bold=True))
        y += 20
    items.append(Text(x, y, view.rules_name, 10.5, "#6b6459", "start", italic=True))
    y += 30

    y = _heading(items, view.t("table.titles"), x, right, y)
    for track in ("trade", "culture", "military"):
        holder = st.titles.get(track)
        items.append(Text(x, y, say.name(track, "tracks"), 13, INK, "start"))
        if holder:
            _chip(items, view.colours.get(holder, PALETTE["grey"]), x + 90, y)
            items.append(Text(x + 114, y, say.player(holder), 13, INK, "start", bold=True))
        else:
            items.append(Text(x + 90, y, view.t("ui.nobody"), 13, "#8a8378", "start",
                              italic=True))
        y += 22
    y += 10

    y = _heading(items, view.t("table.empires"), x, right, y)
    cols, size = _columns(view, x + 130, right)
    for key, cx in cols:
        label = view.t("provinces_short") if key == "provinces" else say.name(key, "tracks")
        items.append(Text(cx, y, label, size, "#6b6459", bold=True))
    y += 22
    for p in st.players:
        rep = view.reports.get(p, {})
        _chip(items, view.colours[p], x, y)
        items.append(Text(x + 24, y, say.player(p), 13.5, INK, "start", bold=True))
        for key, cx in cols:
            if st.titles.get(key) == p:
                items.append(Rect(cx - 17, y - 10, 34, 20, TITLE_MARK, "#c9a227", 1, 6))
            items.append(Text(cx, y, str(rep.get(key, 0)), 13, INK))
        y += 24
    items.append(Text(x, y, view.t("highlighted"), 10.5, "#6b6459", "start", italic=True))
    y += 26

    y = _heading(items, view.t("tiles"), x, right, y)
    for p in st.players:
        tiles = [say.card_name(t) for t in st.tiles.get(p, [])]
        _chip(items, view.colours[p], x, y, 12)
        lines = _wrap(", ".join(tiles) or view.t("ui.none"), right - (x + 22), 12)
        for line in lines:
            items.append(Text(x + 22, y, line, 12, INK if tiles else "#8a8378", "start"))
            y += 17
        y += 3
    if st.display:
        shown = [say.card_name(t) for t in st.display]
        for i, line in enumerate(_wrap(view.t("on_display", tiles=", ".join(shown)),
                                       right - x, 11)):
            items.append(Text(x, y, line, 11, "#4e4940", "start", italic=i == 0))
            y += 15
    y += 14

    y = _legend(items, view, x, right, y)
    bottom = max(y + 10, map_h)
    items.insert(start, Rect(x0, 0, PANEL_W, bottom, PANEL))
    items.insert(start + 1, Line(x0, 0, x0, bottom, "#c8bda8", 2))
    return bottom


def _heading(items: list[Item], text: str, x: float, right: float, y: float) -> float:
    items.append(Text(x, y, text, 14.5, "#4e342e", "start", bold=True))
    items.append(Line(x, y + 11, right, y + 11, "#d8cdb8", 1))
    return y + 27


def _chip(items: list[Item], fill: str, x: float, cy: float, size: float = 16) -> None:
    items.append(Rect(x, cy - size / 2, size, size, fill, INK, 1, 3))


def _columns(view: _View, left: float, right: float
             ) -> tuple[list[tuple[str, float]], float]:
    """The centres of the empires table's columns (the three tracks, in the pack's
    words, and the provinces), spaced by their headers' widths, between ``left`` and
    ``right``; and the headers' size (smaller where long names would not fit)."""
    keys = ("trade", "culture", "military", "provinces")
    labels = [view.t("provinces_short") if k == "provinces" else view.say.name(k, "tracks")
              for k in keys]
    gap, size = 10.0, 11.0
    while True:
        widths = [max(_text_width(label, size, True), 36.0) for label in labels]
        if left + sum(widths) + gap * (len(widths) - 1) <= right or size <= 7:
            break
        size -= 0.5
    out, at = [], left
    for key, w in zip(keys, widths, strict=True):
        out.append((key, at + w / 2))
        at += w + gap
    return out, size


def _wrap(text: str, width: float, size: float) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if current and _text_width(trial, size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    return [*lines, current]


def _legend(items: list[Item], view: _View, x: float, right: float, y: float,
            spread: float = 1.0) -> float:
    """The legend from ``y`` down, its columns ``spread`` times as far apart as the
    panel's (the web map under which it stands has room for longer words)."""
    y = _heading(items, view.t("legend"), x, right, y)
    col2 = x + 205 * spread
    kinds = ["caravan", "market", "city", "capital", "legendary", "temple"]
    sample_good = next(iter(sorted(view.goods)), None)
    for i, kind in enumerate(kinds):
        gx = x if i % 2 == 0 else col2
        gy = y + (i // 2) * 28
        _slot_glyph(items, view, kind, sample_good, gx, gy - SLOT / 2, True, None)
        items.append(Text(gx + SLOT + 8, gy, view.t(f"slot.{kind}"), 11.5, INK, "start"))
    y += 3 * 28 + 2
    someone = view.state.players[0]
    for i, (label, built, who) in enumerate(((view.t("built"), True, None),
                                             (view.t("empty_slot"), False, None),
                                             (view.t("occupied"), True, someone))):
        gx = x + i * 130 * spread
        _slot_glyph(items, view, "market", None, gx, y - SLOT / 2, built, who)
        items.append(Text(gx + SLOT + 6, y, label, 11.5, INK, "start"))
    y += 22
    items.append(Text(x, y, view.t("occupied_note"), 10.5, "#6b6459", "start", italic=True))
    y += 24
    grey = PALETTE["grey"]
    for i, (kind, label) in enumerate((("legion", view.t("legions")),
                                       ("fortress", view.t("fortress")),
                                       ("trireme", view.t("triremes")))):
        gx = x + i * 130 * spread
        _unit(items, kind, 2 if kind != "fortress" else 1, grey, gx, y)
        items.append(Text(gx + _unit_width(kind) + 6, y, label, 11.5, INK, "start"))
    y += 22
    items.append(Text(x, y, view.t("pieces_note"), 10.5, "#6b6459", "start", italic=True))
    y += 26
    # Province looks.
    red = next(iter(view.colours.values()), PALETTE["red"])
    _mini_province(items, x, y, red, _tint(red), None)
    items.append(Text(x + 44, y, view.t("controlled"), 11.5, INK, "start"))
    _mini_province(items, col2, y, NEUTRAL_HEAD, NEUTRAL_BODY, None)
    items.append(Text(col2 + 44, y, view.t("neutral"), 11.5, INK, "start"))
    y += 28
    other = list(view.colours.values())[1] if len(view.colours) > 1 else PALETTE["green"]
    _mini_province(items, x, y, red, _tint(red), other)
    items.append(Text(x + 44, y, view.t("marker_occupied"), 11.5, INK, "start"))
    items.append(Rect(col2, y - 10, 34, 20, COVERED, "#b5ad9c", 1.2, 5, (4, 3)))
    items.append(Text(col2 + 44, y, view.covered, 11.5, INK, "start"))
    y += 28
    for i, (label, stroke, width, dash) in enumerate((
            (view.t("land_border"), LAND_LINK, 2.0, ()),
            (view.t("coast"), COAST, 1.4, (5.0, 4.0)),
            (view.t("sea_to_sea"), "#7fb0e0", 3.0, (9.0, 6.0)))):
        gx = x + i * 135 * spread
        items.append(Line(gx, y, gx + 34, y, stroke, width, dash))
        items.append(Text(gx + 40, y, label, 11.5, INK, "start"))
    y += 28
    items.append(Text(x, y, view.t("goods"), 12, "#4e342e", "start", bold=True))
    y += 18
    entries = sorted(view.goods.items(), key=lambda kv: kv[1])
    per_col = (len(entries) + 2) // 3
    for i, (good, abbr) in enumerate(entries):
        col, row = divmod(i, per_col)
        gx = x + col * 135 * spread
        gy = y + row * 16
        items.append(Text(gx, gy, abbr, 11, BUILT, "start", bold=True))
        items.append(Text(gx + 22, gy, view.say.name(good, "goods"), 11, INK, "start"))
    return y + per_col * 16


def _mini_province(items: list[Item], x: float, cy: float, head: str, body: str,
                   occupier: str | None) -> None:
    if occupier:
        items.append(Rect(x - 3, cy - 13, 40, 26, None, occupier, 3.5, 6))
    items.append(Rect(x, cy - 10, 34, 20, body, head, 1.5, 5))
    items.append(Rect(x, cy - 10, 34, 7, head, None, 0, 2))


# --- SVG -------------------------------------------------------------------------------


BASELINE = 0.35


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _paint(fill: str | None, stroke: str | None, width: float) -> str:
    out = f' fill="{fill or "none"}"'
    if stroke and width > 0:
        out += f' stroke="{stroke}" stroke-width="{_n(width)}"'
    return out


def scene_svg(scene: Scene) -> str:
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" '
        f'height="{scene.height}" viewBox="0 0 {scene.width} {scene.height}" '
        f'font-family="{FONT}">',
        f"<title>{escape(scene.title)}</title>",
        f'<rect width="100%" height="100%" fill="{scene.background}"/>',
    ]
    for it in scene.items:
        if isinstance(it, Rect):
            dash = f' stroke-dasharray="{",".join(_n(d) for d in it.dash)}"' if it.dash else ""
            r = f' rx="{_n(it.radius)}"' if it.radius else ""
            out.append(f'<rect x="{_n(it.x)}" y="{_n(it.y)}" width="{_n(it.w)}" '
                       f'height="{_n(it.h)}"{r}{_paint(it.fill, it.stroke, it.width)}{dash}/>')
        elif isinstance(it, Ellipse):
            out.append(f'<ellipse cx="{_n(it.cx)}" cy="{_n(it.cy)}" rx="{_n(it.rx)}" '
                       f'ry="{_n(it.ry)}"{_paint(it.fill, it.stroke, it.width)}/>')
        elif isinstance(it, Line):
            dash = f' stroke-dasharray="{",".join(_n(d) for d in it.dash)}"' if it.dash else ""
            out.append(f'<line x1="{_n(it.x1)}" y1="{_n(it.y1)}" x2="{_n(it.x2)}" '
                       f'y2="{_n(it.y2)}" stroke="{it.stroke}" stroke-width="{_n(it.width)}"'
                       f'{dash}/>')
        elif isinstance(it, Poly):
            pts = " ".join(f"{_n(px)},{_n(py)}" for px, py in it.points)
            out.append(f'<polygon points="{pts}"{_paint(it.fill, it.stroke, it.width)} '
                       'stroke-linejoin="round"/>')
        else:
            style = ' font-weight="bold"' if it.bold else ""
            style += ' font-style="italic"' if it.italic else ""
            # The baseline sits 0.35 em under the centre (DejaVu Sans' ascent 0.93 and
            # descent 0.24, as Pillow's "m" anchor centres); no dominant-baseline, which
            # viewers honour differently.
            out.append(f'<text x="{_n(it.x)}" y="{_n(it.y + BASELINE * it.size)}" '
                       f'font-size="{_n(it.size)}" fill="{it.fill}" '
                       f'text-anchor={quoteattr(it.anchor)}{style}>{escape(it.text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_svg(game: Game | Ruleset, state: State | None = None, say: Any = None) -> str:
    """The board as a self-contained SVG document (a game, or a rule set and a state),
    its panel in ``say``'s language (the pack's by default)."""
    return scene_svg(layout(game, state, say))


# --- PNG (Pillow) ----------------------------------------------------------------------

SUPERSAMPLE = 2  # drawn at twice the size and shrunk, for smooth edges


def _pillow() -> Any:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise MnrulesError("drawing a PNG needs Pillow: pip install 'mnrules[render]' "
                           "(or write an .svg)") from None
    return Image, ImageDraw, ImageFont


_FONT_FILES = {
    (False, False): ("DejaVuSans.ttf", "Verdana.ttf", "Arial.ttf"),
    (True, False): ("DejaVuSans-Bold.ttf", "Verdana Bold.ttf", "Arial Bold.ttf"),
    (False, True): ("DejaVuSans-Oblique.ttf", "Verdana Italic.ttf", "Arial Italic.ttf"),
    (True, True): ("DejaVuSans-BoldOblique.ttf", "Verdana Bold Italic.ttf",
                   "Arial Bold Italic.ttf"),
}


class _Fonts:
    def __init__(self, image_font: Any) -> None:
        self.image_font = image_font
        self.cache: dict[tuple[int, bool, bool], Any] = {}

    def get(self, size: float, bold: bool, italic: bool) -> Any:
        key = (round(size), bold, italic)
        if key not in self.cache:
            font = None
            for name in _FONT_FILES[(bold, italic)] + _FONT_FILES[(bold, False)]:
                try:
                    font = self.image_font.truetype(name, key[0])
                    break
                except OSError:
                    continue
            if font is None:
                font = self.image_font.load_default(key[0])
            self.cache[key] = font
        return self.cache[key]


def _dashes(x1: float, y1: float, x2: float, y2: float,
            dash: Sequence[float]) -> list[tuple[float, float, float, float]]:
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return []
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    out = []
    pos, i = 0.0, 0
    while pos < length:
        step = dash[i % len(dash)]
        if i % 2 == 0:
            end = min(pos + step, length)
            out.append((x1 + ux * pos, y1 + uy * pos, x1 + ux * end, y1 + uy * end))
        pos += step
        i += 1
    return out


def scene_png(scene: Scene) -> bytes:
    image_mod, draw_mod, font_mod = _pillow()
    k = SUPERSAMPLE
    img = image_mod.new("RGB", (scene.width * k, scene.height * k), scene.background)
    draw = draw_mod.Draw(img)
    fonts = _Fonts(font_mod)

    def s(v: float) -> float:
        return v * k

    def w(v: float) -> int:
        return max(1, round(v * k))

    for it in scene.items:
        if isinstance(it, Rect):
            box = (s(it.x), s(it.y), s(it.x + it.w), s(it.y + it.h))
            if it.dash and it.stroke:
                draw.rounded_rectangle(box, radius=s(it.radius), fill=it.fill)
                x1, y1, x2, y2 = box
                for seg in ((x1, y1, x2, y1), (x2, y1, x2, y2), (x2, y2, x1, y2),
                            (x1, y2, x1, y1)):
                    for d in _dashes(*seg, [s(v) for v in it.dash]):
                        draw.line(d, fill=it.stroke, width=w(it.width))
            else:
                draw.rounded_rectangle(box, radius=s(it.radius), fill=it.fill,
                                       outline=it.stroke if it.width > 0 else None,
                                       width=w(it.width) if it.stroke else 0)
        elif isinstance(it, Ellipse):
            box = (s(it.cx - it.rx), s(it.cy - it.ry), s(it.cx + it.rx), s(it.cy + it.ry))
            draw.ellipse(box, fill=it.fill, outline=it.stroke,
                         width=w(it.width) if it.stroke else 0)
        elif isinstance(it, Line):
            seg = (s(it.x1), s(it.y1), s(it.x2), s(it.y2))
            for d in (_dashes(*seg, [s(v) for v in it.dash]) if it.dash else [seg]):
                draw.line(d, fill=it.stroke, width=w(it.width))
        elif isinstance(it, Poly):
            pts = [(s(px), s(py)) for px, py in it.points]
            draw.polygon(pts, fill=it.fill)
            if it.stroke:
                draw.line([*pts, pts[0]], fill=it.stroke, width=w(it.width), joint="curve")
        else:
            anchor = {"start": "lm", "middle": "mm", "end": "rm"}.get(it.anchor, "mm")
            draw.text((s(it.x), s(it.y)), it.text, fill=it.fill, anchor=anchor,
                      font=fonts.get(it.size * k, it.bold, it.italic))
    img = img.resize((scene.width, scene.height), image_mod.Resampling.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def render_png(game: Game | Ruleset, state: State | None = None,
               path: str | Path | None = None, say: Any = None) -> bytes:
    """The board as PNG bytes, the same picture as :func:`render_svg`; written to
    ``path`` when one is given. Needs Pillow (``pip install 'mnrules[render]'``)."""
    _pillow()  # fail before any work when Pillow is missing
    data = scene_png(layout(game, state, say))
    if path is not None:
        from mnrules.files import write_atomic

        write_atomic(path, data)
    return data
