"""A picture of an Antike II board (``mnrules render``): the regions and seas where the
board file's ``at`` keys put them (longitude, latitude; a ring for any without), the
borders by kind (red for legions, blue for galleys, both for combined), each city in its
owner's colour with its resource and temple, the neutral temples, the units, the rondel
under the map (its spaces in the pack's order, each nation's marker, and what a move to
each space costs the nation about to move, or the one viewing), and a panel with each
nation's rondel space, stock, know-how and personages.

SVG text only (no dependency, no external fonts or files); the layout is a function of
the board and the state alone, so the same game always draws the same picture.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from antike2.state import HOLDINGS, UNITS, Game
from mnrules.errors import MnrulesError
from mnrules.files import write_atomic

NATIONS = {"yellow": "#f2c014", "red": "#d32f2f", "green": "#2e7d32", "blue": "#1565c0",
           "black": "#212121", "grey": "#8e8e8e"}
RESOURCE_FILL = {"marble": "#f4f1ea", "iron": "#5f6f7a", "gold": "#e0a800"}
BORDER = {"red": "#c62828", "blue": "#1e88e5"}
PAPER = "#f3ead7"
LAND = "#e8dcc0"
SEA = "#bcd8f0"
SEA_EDGE = "#5b9bd5"
INK = "#222222"
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
MAP_W = 1300.0
MARGIN = 60.0
PANEL_W = 380.0
R_REGION = 17.0
RONDEL_BAND = 270.0
"""The height of the band under the map that holds the rondel."""
R_RONDEL = 100.0


def _ink(fill: str) -> str:
    """Black or white text, whichever reads on ``fill``."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else INK


def positions(game: Game) -> tuple[dict[str, tuple[float, float]], float]:
    """Each area's centre in pixels, and the map's height. The board's ``at`` (longitude,
    latitude) is projected with the cosine of the middle latitude; areas without one are
    put on a ring around the map, in the board's order."""
    board = game.rules.board
    areas = list(board.areas)
    at: dict[str, tuple[float, float]] = {}
    for name in areas:
        rec = board.regions.get(name) or board.seas.get(name)
        if rec is not None and rec.at is not None:
            at[name] = rec.at
    if not at:
        at = {a: (math.cos(2 * math.pi * i / len(areas)), math.sin(2 * math.pi * i / len(areas)))
              for i, a in enumerate(areas)}
    xs = [p[0] for p in at.values()]
    ys = [p[1] for p in at.values()]
    squeeze = math.cos(math.radians((min(ys) + max(ys)) / 2)) if max(ys) <= 90 else 1.0
    span_x = max((max(xs) - min(xs)) * squeeze, 1e-6)
    span_y = max(max(ys) - min(ys), 1e-6)
    scale = (MAP_W - 2 * MARGIN) / span_x
    height = span_y * scale + 2 * MARGIN
    out = {a: (MARGIN + (x - min(xs)) * squeeze * scale, MARGIN + (max(ys) - y) * scale)
           for a, (x, y) in at.items()}
    missing = [a for a in areas if a not in out]
    cx, cy = MAP_W / 2, height / 2
    for i, a in enumerate(missing):
        angle = 2 * math.pi * i / len(missing)
        out[a] = (cx + (MAP_W / 2 - MARGIN / 2) * math.cos(angle),
                  cy + (height / 2 - MARGIN / 2) * math.sin(angle))
    return out, height


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, text: str = "", **attrs: object) -> None:
        a = " ".join(f"{k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}"
                     for k, v in attrs.items() if v is not None)
        if text:
            self.parts.append(f"<{tag} {a}>{escape(text)}</{tag}>")
        else:
            self.parts.append(f"<{tag} {a}/>")

    def text(self, x: float, y: float, text: str, size: float = 11, fill: str = INK,
             anchor: str = "middle", weight: str | None = None,
             style: str | None = None) -> None:
        self.add("text", text, x=f"{x:.1f}", y=f"{y:.1f}", font_size=size, fill=fill,
                 text_anchor=anchor, font_weight=weight, font_style=style,
                 dominant_baseline="middle")


def _temple(svg: _Svg, x: float, y: float, fill: str, stroke: str) -> None:
    """A small temple: a pediment on three columns."""
    svg.add("polygon", points=f"{x - 8:.1f},{y - 2:.1f} {x + 8:.1f},{y - 2:.1f} "
            f"{x:.1f},{y - 8:.1f}", fill=fill, stroke=stroke, stroke_width=1)
    svg.add("rect", x=f"{x - 7:.1f}", y=f"{y - 2:.1f}", width=14, height=7, fill=fill,
            stroke=stroke, stroke_width=1)
    for dx in (-4, 0, 4):
        svg.add("line", x1=f"{x + dx:.1f}", y1=f"{y - 1:.1f}", x2=f"{x + dx:.1f}",
                y2=f"{y + 4:.1f}", stroke=stroke, stroke_width=1)


def _unit(svg: _Svg, kind: str, n: int, fill: str, x: float, y: float) -> float:
    """A legion (a shield) or a galley (a hull) with the count; returns its width."""
    ink = _ink(fill)
    if kind == "legion":
        svg.add("rect", x=f"{x:.1f}", y=f"{y - 7:.1f}", width=18, height=14, rx=3,
                fill=fill, stroke=INK, stroke_width=1)
    else:
        svg.add("polygon", points=f"{x:.1f},{y - 6:.1f} {x + 22:.1f},{y - 6:.1f} "
                f"{x + 17:.1f},{y + 7:.1f} {x + 5:.1f},{y + 7:.1f}", fill=fill,
                stroke=INK, stroke_width=1)
    width = 18.0 if kind == "legion" else 22.0
    svg.text(x + width / 2, y + 0.5, str(n), 10, ink, weight="bold")
    return width + 3


def _border(svg: _Svg, a: tuple[float, float], b: tuple[float, float], kind: str) -> None:
    if kind == "combined":
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        ox, oy = -dy / length * 2.2, dx / length * 2.2
        for colour, s in ((BORDER["red"], 1), (BORDER["blue"], -1)):
            svg.add("line", x1=f"{a[0] + s * ox:.1f}", y1=f"{a[1] + s * oy:.1f}",
                    x2=f"{b[0] + s * ox:.1f}", y2=f"{b[1] + s * oy:.1f}", stroke=colour,
                    stroke_width=2)
        return
    svg.add("line", x1=f"{a[0]:.1f}", y1=f"{a[1]:.1f}", x2=f"{b[0]:.1f}", y2=f"{b[1]:.1f}",
            stroke=BORDER[kind], stroke_width=2.2,
            stroke_dasharray="6 4" if kind == "blue" else None)


def render_svg(game: Game, say: Any = None) -> str:
    """The board and each nation's holdings, as SVG text; the panel and legend in
    ``say``'s language (the pack's by default)."""
    from mnrules.language.present import presenter

    say = say if say is not None else presenter(game.rules)
    board = game.rules.board
    state = game.state
    where, map_h = positions(game)
    height = max(map_h + RONDEL_BAND, 140.0 + 150.0 * len(state.players))
    width = MAP_W + PANEL_W
    svg = _Svg()
    svg.add("rect", x=0, y=0, width=f"{width:.0f}", height=f"{height:.0f}", fill=PAPER)
    _map(svg, game, where, lambda area: str(say.name(area)))
    _rondel(svg, game, map_h, say, None)
    _panel(svg, game, MAP_W, say)
    title = escape(f"Antike II — {board.names.get('en', board.side)} — round {state.round}")
    body = "".join(svg.parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'font-family="{FONT}"><title>{title}</title>{body}</svg>\n')


def map_svg(game: Game, say: Any, viewer: str | None = None) -> str:
    """The map and the rondel for the web app, its areas named as ``say``'s pack names
    them (the side panel holds what the picture's panel shows): every region and sea
    under a ``class="area" data-area=ID`` hot spot; the rondel's prices are the
    ``viewer``'s (else those of the nation about to move)."""
    where, map_h = positions(game)
    height = map_h + RONDEL_BAND
    svg = _Svg()
    svg.add("rect", x=0, y=0, width=f"{MAP_W:.0f}", height=f"{height:.0f}", fill=PAPER)
    _map(svg, game, where, lambda area: str(say.name(area)))
    _rondel(svg, game, map_h, say, viewer)
    for area, (x, y) in where.items():
        if area in game.rules.board.seas:
            svg.add("ellipse", class_="area", data_area=area, cx=f"{x:.1f}", cy=f"{y:.1f}",
                    rx=36, ry=22)
        else:
            svg.add("circle", class_="area", data_area=area, cx=f"{x:.1f}",
                    cy=f"{y:.1f}", r=R_REGION + 4)
        # the area's name as its tooltip
        tag = "ellipse" if area in game.rules.board.seas else "circle"
        svg.parts[-1] = (svg.parts[-1][:-2] + f"><title>{escape(str(say.name(area)))}"
                         f"</title></{tag}>")
    body = "".join(svg.parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{MAP_W:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {MAP_W:.0f} {height:.0f}" '
            f'font-family="{FONT}">{body}</svg>\n')


def board_svg(say: Any, game: Game, viewer: str | None) -> str:
    return map_svg(game, say, viewer)


def _wedge(cx: float, cy: float, r_in: float, r_out: float, a0: float, a1: float) -> str:
    """The SVG path of a ring's sector between angles ``a0`` and ``a1`` (radians)."""
    def at(r: float, a: float) -> str:
        return f"{cx + r * math.cos(a):.1f} {cy + r * math.sin(a):.1f}"
    return (f"M {at(r_in, a0)} L {at(r_out, a0)} A {r_out:.0f} {r_out:.0f} 0 0 1 "
            f"{at(r_out, a1)} L {at(r_in, a1)} A {r_in:.0f} {r_in:.0f} 0 0 0 {at(r_in, a0)} Z")


def _rondel(svg: _Svg, game: Game, top: float, say: Any, viewer: str | None) -> None:
    """The rondel in the band under the map: its spaces clockwise from the top in the
    pack's order, each nation's marker beside its space, and in each space what moving
    there costs ``viewer`` (else the nation whose decision is pending): "free" or the
    resources to pay (book, Рондель: the first spaces free, one resource for each
    further space)."""
    from antike2 import rondel

    state = game.state
    ids = rondel.spaces(game)
    cx, cy = MARGIN + R_RONDEL + 30, top + RONDEL_BAND / 2
    who = viewer if viewer in state.players else None
    if who is None and game.pending is not None and game.pending.player in state.players:
        who = game.pending.player
    origin = state.rondel.get(who, "") if who else ""
    step = 2 * math.pi / len(ids)
    svg.add("circle", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r=f"{R_RONDEL + 26:.0f}",
            fill="#ffffff", fill_opacity="0.35", stroke="none")
    for i, space in enumerate(ids):
        a0 = -math.pi / 2 + (i - 0.5) * step
        mid = a0 + step / 2
        here = space == origin
        svg.add("path", d=_wedge(cx, cy, 38.0, R_RONDEL, a0, a0 + step),
                fill="#d9c9a3" if here else ("#efe4c8" if i % 2 else "#e6d8b5"),
                stroke=INK, stroke_width=1)
        lx, ly = cx + 70 * math.cos(mid), cy + 70 * math.sin(mid)
        svg.text(lx, ly - 2, say.name(space), 10, weight="bold")
        if who and origin:
            price = rondel.cost(game, origin, space, who)
            label = say.say("render.rondel_free") if price == 0 else str(price)
            svg.text(lx, ly + 11, label, 9.5, style="italic")
        at = [n for n in state.players if state.rondel.get(n) == space]
        for k, nation in enumerate(at):
            r = R_RONDEL + 11 + 13 * k
            svg.add("circle", cx=f"{cx + r * math.cos(mid):.1f}",
                    cy=f"{cy + r * math.sin(mid):.1f}", r=6,
                    fill=NATIONS.get(nation, "#cccccc"), stroke=INK, stroke_width=1)
    svg.text(cx, cy + 4, say.say("render.rondel"), 12, weight="bold")
    x = cx + R_RONDEL + 60
    y = cy - 30
    svg.text(x, y, say.say("render.rondel"), 13, anchor="start", weight="bold")
    y += 20
    if who and origin:
        svg.text(x, y, say.say("render.rondel_prices", player=say.player(who),
                               space=say.name(origin),
                               free=rondel.free_spaces(game, who)), 10.5, anchor="start")
    else:
        svg.text(x, y, say.say("render.rondel_clockwise"), 10.5, anchor="start")
    y += 18
    for nation in state.players:
        space = state.rondel.get(nation, "")
        svg.add("circle", cx=f"{x + 6:.1f}", cy=f"{y - 4:.1f}", r=6,
                fill=NATIONS.get(nation, "#cccccc"), stroke=INK, stroke_width=1)
        svg.text(x + 18, y, say.say("ui.labelled", label=say.player(nation),
                                    value=say.name(space) if space else "—"),
                 10.5, anchor="start")
        y += 16


def _map(svg: _Svg, game: Game, where: dict[str, tuple[float, float]],
         label: Callable[[str], str]) -> None:
    """The borders, seas, regions with their cities and temples, and the units."""
    board = game.rules.board
    state = game.state
    for border in board.borders:
        _border(svg, where[border.a], where[border.b], border.kind)
    for sea, rec in board.seas.items():
        x, y = where[sea]
        svg.add("ellipse", cx=f"{x:.1f}", cy=f"{y:.1f}", rx=34, ry=20, fill=SEA,
                stroke=SEA_EDGE, stroke_width=3 if rec.galley_symbol else 1.2)
        svg.text(x, y - 7, label(sea), 8.5, "#1f4e79", style="italic")
        if rec.galley_symbol:
            svg.add("polygon", points=f"{x - 7:.1f},{y + 1:.1f} {x + 7:.1f},{y + 1:.1f} "
                    f"{x + 4:.1f},{y + 6:.1f} {x - 4:.1f},{y + 6:.1f}", fill="#1f4e79")
    for region, rec in board.regions.items():
        x, y = where[region]
        city = state.cities.get(region)
        fill = NATIONS.get(city["owner"], "#cccccc") if city else LAND
        svg.add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r=R_REGION, fill=fill, stroke=INK,
                stroke_width=1.4 if city else 0.8)
        resource = city["resource"] if city else rec.city
        if resource in RESOURCE_FILL:
            svg.add("rect", x=f"{x - 6:.1f}", y=f"{y - 6:.1f}", width=12, height=12,
                    fill=RESOURCE_FILL[resource], stroke=INK, stroke_width=1,
                    transform=f"rotate(45 {x:.1f} {y:.1f})")
        else:  # a universal site: its resource is chosen when the city is founded
            for i, r in enumerate(RESOURCE_FILL.values()):
                svg.add("circle", cx=f"{x - 6 + 6 * i:.1f}", cy=f"{y:.1f}", r=3, fill=r,
                        stroke=INK, stroke_width=0.6)
        if city and city["temple"]:
            _temple(svg, x, y - R_REGION - 4, "#ffffff", INK)
        if region in state.neutral:
            _temple(svg, x, y - R_REGION - 4, "#bdbdbd", "#424242")
        svg.text(x, y + R_REGION + 8, label(region), 9, INK, weight="bold" if city else None)
    for area in board.areas:
        x, y = where[area]
        row = [(p, k, n) for p in state.players for k in UNITS
               if (n := state.count(p, area, k))]
        if not row:
            continue
        total = sum(21.0 if k == "legion" else 25.0 for _, k, _ in row)
        ux = x - total / 2
        uy = y + R_REGION + 22 if area in board.regions else y + 30
        for p, k, n in row:
            ux += _unit(svg, k, n, NATIONS.get(p, "#cccccc"), ux, uy)


def _panel(svg: _Svg, game: Game, x0: float, say: Any) -> None:
    state = game.state
    x = x0 + 16
    y = 30.0

    def labelled(key: str, value: object) -> str:
        return str(say.say("ui.labelled", label=say.say(key), value=value))
    svg.text(x, y, say.say("table.title", round=state.round), 16, anchor="start",
             weight="bold")
    y += 28
    for nation in state.players:
        fill = NATIONS.get(nation, "#cccccc")
        svg.add("rect", x=f"{x:.1f}", y=f"{y - 9:.1f}", width=18, height=18, rx=3,
                fill=fill, stroke=INK, stroke_width=1)
        head = say.player(nation)
        if state.bellona == nation:
            head += " · " + say.card_name("bellona")
        svg.text(x + 26, y, head, 13, anchor="start", weight="bold")
        space = state.rondel.get(nation, "")
        svg.text(x + PANEL_W - 40, y, say.name(space) if space else "—", 11,
                 anchor="end", style="italic")
        y += 20
        stock = state.stock.get(nation, {})
        held = say.join([say.count(stock.get(k, 0), k) for k in HOLDINGS])
        svg.text(x + 4, y, held, 10.5, anchor="start")
        y += 16
        cities = [r for r, c in state.cities.items() if c["owner"] == nation]
        temples = sum(1 for r in cities if state.cities[r]["temple"])
        units = {k: sum(a.get(k, 0) for a in state.units.get(nation, {}).values())
                 for k in UNITS}
        counts = ", ".join(labelled(f"table.{key}", n) for key, n in (
            ("cities", len(cities)), ("temples", temples), ("legions", units["legion"]),
            ("galleys", units["galley"])))
        destroyed = labelled("render.destroyed", state.destroyed.get(nation, 0))
        svg.text(x + 4, y, f"{counts}; {destroyed}", 10.5, anchor="start")
        y += 16
        for key, items in (("table.know_how", state.know_how.get(nation, [])),
                           ("table.personages", state.personages.get(nation, []))):
            for line in _wrap(labelled(key, ", ".join(_counted(items, say))
                                       or say.say("ui.none")), 58):
                svg.text(x + 4, y, line, 10.5, anchor="start")
                y += 15
        y += 14
    _legend(svg, x, y, say)


def _counted(items: Iterable[str], say: Any) -> list[str]:
    seen: dict[str, int] = {}
    for i in items:
        seen[i] = seen.get(i, 0) + 1
    return [say.card_name(k) + (f" ×{n}" if n > 1 else "") for k, n in seen.items()]


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def _legend(svg: _Svg, x: float, y: float, say: Any) -> None:
    svg.text(x, y, say.say("render.legend"), 13, anchor="start", weight="bold")
    y += 22
    for kind in ("red", "blue", "combined"):
        label = say.say(f"render.{kind}_border")
        _border(svg, (x, y), (x + 34, y), kind)
        svg.text(x + 44, y, label, 10.5, anchor="start")
        y += 18
    for resource, fill in RESOURCE_FILL.items():
        svg.add("rect", x=f"{x + 11:.1f}", y=f"{y - 6:.1f}", width=12, height=12, fill=fill,
                stroke=INK, stroke_width=1, transform=f"rotate(45 {x + 17:.1f} {y:.1f})")
        svg.text(x + 44, y, say.say("render.city_site", resource=say.name(resource)), 10.5,
                 anchor="start")
        y += 18
    _temple(svg, x + 17, y + 3, "#ffffff", INK)
    svg.text(x + 44, y, say.say("render.temple"), 10.5, anchor="start")
    y += 18
    _temple(svg, x + 17, y + 3, "#bdbdbd", "#424242")
    svg.text(x + 44, y, say.say("render.neutral_temple"), 10.5, anchor="start")
    y += 18
    _unit(svg, "legion", 2, "#ffffff", x + 8, y)
    svg.text(x + 44, y, say.say("render.legions_count"), 10.5, anchor="start")
    y += 18
    _unit(svg, "galley", 1, "#ffffff", x + 6, y)
    svg.text(x + 44, y, say.say("render.galleys_count"), 10.5, anchor="start")


def render(game: Game, path: Path, say: Any) -> bool:
    if path.suffix.lower() != ".svg":
        raise MnrulesError(f"-o: Antike II's board picture is SVG: give a file ending in "
                           f".svg, not {path.name!r}")
    write_atomic(path, render_svg(game, say))
    return True
