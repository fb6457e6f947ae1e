"""The picture of the board (``mnrules render``): the SVG shows what the state says,
the PNG is the same layout, the board file's positions are checked, and a bad state
file is a clean error."""

from __future__ import annotations

import builtins
import io
import itertools
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from mare_nostrum.board import BoardError, default_board_path, load_board
from mare_nostrum.render import (
    colour,
    good_abbreviations,
    layout,
    render_png,
    render_svg,
)
from mnrules import Game, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.errors import MnrulesError, StateError
from mnrules.frontends.cli import main

SVG = "{http://www.w3.org/2000/svg}"


def title(name: str) -> str:
    """How the picture writes an area's name."""
    return " ".join(w.capitalize() for w in name.split())


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def texts(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{SVG}text"))


def text_at(root: ET.Element, text: str) -> tuple[float, float]:
    found = [t for t in texts(root) if t.text == text]
    assert found, f"no text {text!r} in the picture"
    return float(found[0].get("x", 0)), float(found[0].get("y", 0))


def rects_around(root: ET.Element, x: float, y: float) -> list[ET.Element]:
    out = []
    for r in root.iter(f"{SVG}rect"):
        if r.get("x") is None:
            continue
        rx, ry = float(r.get("x", 0)), float(r.get("y", 0))
        w, h = float(r.get("width", 0)), float(r.get("height", 0))
        if rx <= x <= rx + w and ry <= y <= ry + h:
            out.append(r)
    return out


@pytest.fixture
def game(rules: Ruleset) -> Game:
    g = new_game(rules, 5, seed=1)
    _ = g.pending
    return g


def test_svg_parses_and_shows_the_board(rules: Ruleset, game: Game) -> None:
    game.state.round = 6
    game.state.add_units("ITALIA", "rome", "legion", 7)
    game.state.add_units("MARE IONIUM", "greece", "trireme", 3)
    root = parse(render_svg(game))
    words = [t.text for t in texts(root)]
    for prov in rules.board.provinces_in_play(5):
        assert title(prov) in words
    for sea in rules.board.seas:
        assert title(sea) in words
    assert any(w and w.startswith("Round 6") for w in words)
    # LATIUM is Rome's: its name sits on a band of Rome's colour.
    red = colour(rules.board.empires["rome"].colour)
    x, y = text_at(root, "Latium")
    assert red in {r.get("fill") for r in rects_around(root, x, y)}
    # ITALIA's legions: a piece of Rome's colour with the count 7 inside Italia's box.
    ix, iy = text_at(root, "Italia")
    sevens = [t for t in texts(root) if t.text == "7"]
    assert any(abs(float(t.get("x", 0)) - ix) < 80 and 0 < float(t.get("y", 0)) - iy < 90
               for t in sevens)
    assert "3" in words  # the Greek triremes


def test_the_panel_shows_titles_tracks_and_tiles(rules: Ruleset, game: Game) -> None:
    words = [t.text or "" for t in texts(parse(render_svg(game)))]
    for empire in rules.board.empires.values():
        assert empire.name in words
    report: dict[str, Any] = {}
    for part in rules.hook.mn_report(game=game, player="rome"):
        report.update(part)
    assert str(report["trade"]) in words
    assert "Titles" in words and "Legend" in words
    assert rules.cards["caesar"].name() in words  # Rome's starting hero
    for key in ("trade", "culture", "military"):
        assert rules.name(key) in words


def test_occupations_are_drawn_in_the_occupiers_colour(rules: Ruleset, game: Game) -> None:
    state = game.state
    state.occupied["LATIUM"][0] = "greece"
    state.marker_occupier["GALLIA"] = "carthage"
    root = parse(render_svg(game))
    green = colour(rules.board.empires["greece"].colour)
    black = colour(rules.board.empires["carthage"].colour)
    x, y = text_at(root, "Latium")
    caravans = [e for e in root.iter(f"{SVG}ellipse") if e.get("fill") == green
                and abs(float(e.get("cx", 0)) - x) < 80 and 0 < float(e.get("cy", 0)) - y < 50]
    assert caravans, "the occupied caravan of LATIUM is not green"
    gx, gy = text_at(root, "Gallia")
    assert any(r.get("stroke") == black and r.get("fill") == "none"
               for r in rects_around(root, gx, gy))


def test_covered_provinces_of_a_three_player_game(rules: Ruleset) -> None:
    game = new_game(rules, 3, seed=2)
    words = [t.text for t in texts(parse(render_svg(game)))]
    assert "covered" in words
    assert "Babylonia" in words and "Aegyptus" in words
    assert "Babylon" not in words  # no panel row for an empire that does not play


def test_rules_and_state_instead_of_a_game(rules: Ruleset, game: Game) -> None:
    assert render_svg(rules, game.snapshot()) == render_svg(game)
    with pytest.raises(MnrulesError):
        render_svg(rules)


def test_png_has_the_layouts_size_and_is_not_blank(tmp_path: Path, game: Game) -> None:
    image = pytest.importorskip("PIL.Image")
    out = tmp_path / "board.png"
    data = render_png(game, path=out)
    assert out.read_bytes() == data
    scene = layout(game)
    with image.open(io.BytesIO(data)) as img:
        assert img.size == (scene.width, scene.height)
        colours = img.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 200


def test_png_without_pillow_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                 game: Game) -> None:
    real_import = builtins.__import__

    def no_pil(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "PIL" or name.startswith("PIL."):
            raise ImportError("no Pillow here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pil)
    for mod in [m for m in sys.modules if m == "PIL" or m.startswith("PIL.")]:
        monkeypatch.delitem(sys.modules, mod)
    with pytest.raises(MnrulesError, match=r"pip install 'mnrules\[render\]'"):
        render_png(game)


def test_good_abbreviations_are_unique() -> None:
    goods = ["grain", "gold", "gems", "gladiators", "glass", "sheep", "spices", "stone",
             "wine", "wood"]
    abbr = good_abbreviations(goods)
    assert len(set(abbr.values())) == len(goods)
    assert abbr["grain"] == "Gr" and abbr["gold"] == "Go"


def test_every_area_of_the_shipped_board_has_a_position(rules: Ruleset) -> None:
    board = rules.board
    spots = {p.name: p.at for p in board.provinces.values()}
    spots.update({s.name: s.at for s in board.seas.values()})
    for name, at in spots.items():
        assert at is not None, name
        x, y = at
        assert 0 <= x <= 1000 and 0 <= y <= 600, name
    assert len(set(spots.values())) == len(spots)


@pytest.mark.parametrize("bad", ["[1]", "[1, 2, 3]", "[a, 2]", "12", "[true, 2]"])
def test_a_bad_position_is_reported(tmp_path: Path, bad: str) -> None:
    text = default_board_path().read_text(encoding="utf-8")
    text = text.replace("    at: [80, 95]\n", f"    at: {bad}\n", 1)
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardError) as err:
        load_board(path, ["grain", "sheep", "gems", "wood", "gladiators", "metal", "wine",
                          "oil", "stone", "gold", "spices", "papyrus", "ceramics"])
    assert len(err.value.problems) == 1
    problem = err.value.problems[0]
    assert problem.key == "provinces.GALLIA.at"
    assert "expected two numbers [x, y]" in problem.message


def test_a_board_without_positions_still_draws(rules: Ruleset, game: Game) -> None:
    import dataclasses

    board = rules.board
    bare = dataclasses.replace(
        board,
        provinces={n: dataclasses.replace(p, at=None) for n, p in board.provinces.items()},
        seas={n: dataclasses.replace(s, at=None) for n, s in board.seas.items()},
    )
    stripped = dataclasses.replace(rules, board=bare)
    root = parse(render_svg(stripped, game.state))
    words = [t.text for t in texts(root)]
    assert "Gallia" in words and "Pontus Euxinus" in words


# --- the command ------------------------------------------------------------------


def test_cli_renders_a_new_game_and_a_snapshot(tmp_path: Path, rules: Ruleset,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "new.svg"
    assert main(["render", "--edition", "en", "new", "-o", str(out)]) == 0
    parse(out.read_text(encoding="utf-8"))
    game = new_game(rules, 4, seed=5)
    snap = tmp_path / "state.json"
    snap.write_text(game.snapshot().to_json(), encoding="utf-8")
    out = tmp_path / "snap.svg"
    assert main(["render", "--edition", "en", str(snap), "-o", str(out)]) == 0
    words = [t.text for t in texts(parse(out.read_text(encoding="utf-8")))]
    assert "covered" in words  # the 4-player board
    assert "drew round 1" in capsys.readouterr().out


def test_cli_plays_rounds_before_drawing(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    out = tmp_path / "mid.png"
    assert main(["render", "--edition", "en",
                 "new", "--seed", "3", "--rounds", "2", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "mid.svg"
    assert main(["render", "--edition", "en",
                 "new", "--seed", "3", "--rounds", "2", "-o", str(svg)]) == 0
    words = [t.text or "" for t in texts(parse(svg.read_text(encoding="utf-8")))]
    assert any(w.startswith("Round 3") for w in words)


@pytest.mark.parametrize("content", [None, "not json {", "[1, 2]", '{"seed": 1}',
                                     '{"seed": 1, "players": ["rome", "atlantis"]}',
                                     '{"seed": 1, "players": ["rome"], "rng": [1]}',
                                     '{"seed": 1, "players": ["rome"], "units": {"X": {}}}'])
def test_cli_bad_state_is_a_clean_error(tmp_path: Path, content: str | None,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state.json"
    if content is not None:
        state.write_text(content, encoding="utf-8")
    assert main(["render", "--edition", "en", str(state), "-o", str(tmp_path / "out.svg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mnrules: error:")
    assert "Traceback" not in err
    assert not (tmp_path / "out.svg").exists()


def test_cli_refuses_an_unknown_picture_format(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "--edition", "en", "new", "-o", str(tmp_path / "board.gif")]) == 2
    assert ".svg or .png" in capsys.readouterr().err


def test_state_errors_are_state_errors(rules: Ruleset, game: Game) -> None:
    game.state.built["LATIUM"] = [True]
    with pytest.raises(StateError, match="LATIUM"):
        render_svg(game)


# -- issue 17, item 16: the panel speaks the pack's words, by kind ---------------------
def test_panel_names_phases_by_kind_spaces_track_headers_and_captions_the_pack() -> None:
    from mare_nostrum.render import _text_width
    from mnrules import load_ruleset

    uk = new_game(load_ruleset("uk"), 4, seed=3)
    _ = uk.pending  # the trade phase: its phase name, not the track's
    words = [t.text or "" for t in texts(parse(render_svg(uk)))]
    assert "Раунд 1 \u00b7 фаза: Натуральний обмін" in words   # the picture speaks Ukrainian
    assert not any("Торгівля phase" in w for w in words)
    fr_rules = load_ruleset("fr")
    fr = new_game(fr_rules, 4, seed=3)
    _ = fr.pending
    root = parse(render_svg(fr))
    words = [t.text or "" for t in texts(root)]
    assert fr_rules.data["name"] in words and not any("English" in w for w in words)
    headers = [t for t in texts(root) if t.get("font-weight") == "bold"
               and t.text in ("Commerce", "Politique", "Militaire", "Prov.")
               and t.get("text-anchor") == "middle"]
    assert [t.text for t in headers] == ["Commerce", "Politique", "Militaire", "Prov."]
    for left, right in itertools.pairwise(headers):  # no two headers touch
        size = float(left.get("font-size", 11))
        edge_l = float(left.get("x", 0)) + _text_width(left.text or "", size, True) / 2
        edge_r = float(right.get("x", 0)) - _text_width(right.text or "", size, True) / 2
        assert edge_r - edge_l >= 8, (left.text, right.text)


def test_the_picture_speaks_the_language_asked(tmp_path: Path) -> None:
    """`mnrules render --lang fr` of the English pack: the panel and the legend in French,
    no English word of the picture's own left (names are the French pack's)."""
    from mnrules.frontends.cli import main

    out = tmp_path / "b.svg"
    assert main(["render", "--edition", "en",
                 "new", "--players", "4", "--lang", "fr", "-o", str(out)]) == 0
    words = [t.text or "" for t in texts(parse(out.read_text(encoding="utf-8")))]
    assert "Légende" in words and "Héros et Merveilles" in words and "Titres" in words
    english = ("Legend", "Titles", "Heroes and wonders", "On display", "Goods", "neutral",
               "highlighted", "empty slot", "land border", "Round")
    assert not [w for w in words if w.startswith(english)], words


@pytest.mark.parametrize("edition", ["en", "fr"])
def test_the_legend_names_each_building_kind_in_the_packs_words(edition: str) -> None:
    """The bug: the legend's building kinds were asked as ``slot.KIND`` instead of the
    pack's ``render.slot.KIND``, so the picture showed their glyphs with no name. The
    web map carries the same legend under it."""
    from mare_nostrum.render import map_svg
    from mnrules import load_ruleset
    from mnrules.language.present import presenter

    rules = load_ruleset(edition)
    say = presenter(rules)
    game = new_game(rules, 5, seed=1)
    for text in (render_svg(game), map_svg(game, say)):
        shown = {t.text for t in ET.fromstring(text).iter(f"{SVG}text")}
        for kind in ("caravan", "market", "city", "capital", "legendary", "temple"):
            assert say.say(f"render.slot.{kind}") in shown, (edition, kind)
