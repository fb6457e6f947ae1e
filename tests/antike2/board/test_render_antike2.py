"""The board picture of Antike II (``mnrules render``): every region and sea where the
board puts it, the borders by kind, cities in their owner's colour with resource and
temple, the neutral temples, the units with their counts, and each nation's panel."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from antike2.render import NATIONS, positions, render, render_svg
from mnrules.errors import MnrulesError
from mnrules.language.present import presenter
from test_movere import PELLA, at_movere

SVG = "{http://www.w3.org/2000/svg}"


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_the_picture_shows_the_board_and_the_position() -> None:
    game = at_movere(PELLA, "red")
    board = game.rules.board
    text = render_svg(game)
    root = ET.fromstring(text)
    texts = _texts(root)
    say = presenter(game.rules)
    for region in board.regions:
        assert say.name(region) in texts             # as the pack names it
    assert len(list(root.iter(f"{SVG}ellipse"))) >= len(board.seas)
    circles = [c for c in root.iter(f"{SVG}circle") if c.get("r") == "17.0"]
    assert len(circles) == len(board.regions)
    fills = {c.get("fill") for c in circles}
    assert NATIONS["yellow"] in fills and NATIONS["red"] in fills
    lines = list(root.iter(f"{SVG}line"))
    combined = sum(1 for b in board.borders if b.kind == "combined")
    assert len(lines) >= len(board.borders) + combined
    # red's two legions and two galleys, yellow's galley: the counts are written
    assert "2" in texts and "1" in texts
    assert {"Red", "Yellow"} <= {t.split(" · ")[0] for t in texts}
    assert any(t.startswith("know-how: Navigatio") for t in texts)


def test_the_same_game_draws_the_same_picture() -> None:
    assert render_svg(at_movere(PELLA, "red")) == render_svg(at_movere(PELLA, "red"))


def test_every_area_lies_on_the_picture() -> None:
    game = at_movere(PELLA, "red")
    where, height = positions(game)
    assert set(where) == set(game.rules.board.areas)
    for x, y in where.values():
        assert 0 <= x <= 1300 and 0 <= y <= height


def test_the_render_hook_writes_svg_and_refuses_other_files(tmp_path: Path) -> None:
    game = at_movere(PELLA, "red")
    out = tmp_path / "board.svg"
    say = presenter(game.rules)
    assert render(game, out, say)
    ET.fromstring(out.read_text(encoding="utf-8"))
    with pytest.raises(MnrulesError, match=r"\.svg"):
        render(game, tmp_path / "board.png", say)


def test_the_panel_counts_in_words() -> None:
    texts = _texts(ET.fromstring(render_svg(at_movere(PELLA, "red"))))
    assert "cities: 2, temples: 0, legions: 2, galleys: 2; temples destroyed: 0" in texts
    assert "cities: 2, temples: 1, legions: 0, galleys: 1; temples destroyed: 0" in texts


def test_the_picture_speaks_the_language_asked() -> None:
    """In Russian the panel, the legend and the names are Russian: no English word of
    the picture's own is left (the map's region names are the pack's)."""
    game = at_movere(PELLA, "red")
    texts = _texts(ET.fromstring(render_svg(game, presenter(game.rules, "ru"))))
    assert "Легенда" in texts and "Legend" not in texts
    assert any(t.startswith("города: 2, храмы: 0") for t in texts), texts
    english = {"Round", "Legend", "cities", "temple", "neutral temple", "none", "destroyed"}
    assert not [t for t in texts if any(w in t.split() for w in english)], texts


def test_the_rondel_is_drawn_with_what_each_move_costs() -> None:
    """Book, Рондель: from a space, the next three are free, each further one costs a
    resource, and the same space again is a full circle (8 - 3 = 5). Each space of the
    pack's order is drawn, the nation to move's prices in it and every marker beside
    its space."""
    from antike2 import rondel
    from antike2.render import map_svg

    game = at_movere(PELLA, "red")
    say = presenter(game.rules)
    state = game.state
    origin = state.rondel["red"]
    assert origin
    texts = _texts(ET.fromstring(map_svg(game, say, "red")))
    for space in rondel.spaces(game):
        assert say.name(space) in texts
    prices = [rondel.cost(game, origin, s, "red") for s in rondel.spaces(game)]
    assert sorted(prices) == [0, 0, 0, 1, 2, 3, 4, 5]
    # the prices: the rondel's small italic line under each space's name
    shown = [t.text or "" for t in ET.fromstring(map_svg(game, say, "red")).iter(f"{SVG}text")
             if t.get("font-size") == "9.5"]
    assert sorted(shown, key=lambda t: -1 if t == "free" else int(t)) == \
        ["free"] * 3 + ["1", "2", "3", "4", "5"]
    assert any(t.startswith(f"What a move costs Red from {say.name(origin)}: 3 spaces")
               for t in texts)
    markers = [c for c in ET.fromstring(map_svg(game, say, "red")).iter(f"{SVG}circle")
               if c.get("r") == "6"]
    # one marker by its space and one in the caption, for each nation on the rondel
    placed = sum(1 for n in state.players if state.rondel.get(n))
    assert len(markers) == placed + len(state.players)


def test_the_rondel_prices_follow_the_free_spaces_of_the_rules() -> None:
    """The free spaces are the folded ``rondel_free``: the drawing shows what the rules
    charge (here a variant's 4), not the book's three."""
    from antike2.render import map_svg

    game = at_movere(PELLA, "red")
    params = game.rules.params
    before = params["rondel_free"]
    params["rondel_free"] = 4
    try:
        root = ET.fromstring(map_svg(game, presenter(game.rules), "red"))
    finally:
        params["rondel_free"] = before
    prices = [t.text for t in root.iter(f"{SVG}text") if t.get("font-size") == "9.5"]
    assert prices.count("free") == 4 and "5" not in prices and "4" in prices
