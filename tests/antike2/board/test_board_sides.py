"""The two Antike II board sides hold what the rulebook's examples show (seed 002), are
whole maps, and start every nation fairly by board.start_measures."""

from __future__ import annotations

import dataclasses
import math
import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from antike2.board import (
    PLAYER_COUNTS,
    RESOURCES,
    UNITS,
    Board,
    default_board_path,
    layout,
    load,
    start_measures,
)
from conftest import ROOT
from mnrules.frontends.cli import main

SIDES = ("mare_nostrum", "orient")
_BOARDS = {side: load(default_board_path(side)) for side in SIDES}


@pytest.fixture(params=SIDES)
def board(request: pytest.FixtureRequest) -> Board:
    return _BOARDS[request.param]


MN = _BOARDS["mare_nostrum"]
ORIENT = _BOARDS["orient"]


# --- the book's worked examples ----------------------------------------------------------
@pytest.mark.parametrize("side", SIDES)
def test_pella_is_reached_from_dyrrhachion_as_the_book_moves_there(side: str) -> None:
    """«Оба Легиона из DYRRHACHION перемещаются в направлении PELLA. Галера из DYRRHACHION
    движется через SPARTA в ATHENAE и разрушает желтую Галеру. Теперь Галера из Спарты может
    беспрепятственно переместиться в PELLA» (red owns NAVIGATIO: two blue borders)."""
    b = _BOARDS[side]
    assert "PELLA" in b.neighbours("DYRRHACHION", "legion")      # no STRATA: one red border
    assert "SPARTA" in b.neighbours("DYRRHACHION", "galley")
    assert "ATHENAE" in b.neighbours("SPARTA", "galley")         # the second blue border
    assert "PELLA" in b.neighbours("ATHENAE", "galley")
    # the galley from SPARTA needs NAVIGATIO and passes ATHENAE, where the yellow galley
    # could have demanded a battle had it still been there
    assert "PELLA" not in b.neighbours("SPARTA", "galley")
    assert "PELLA" in b.reach("SPARTA", "galley", 2)
    assert "ATHENAE" in b.reach("DYRRHACHION", "galley", 2)
    assert b.coastal("PELLA")  # a galley stands there to conquer it


def test_gesocribate_is_a_coastal_city_legions_reach() -> None:
    """«Сила обороны GESOCRIBATE 2 (1 за город + 1 за Галеру) ... у красного 2 Легиона»."""
    assert MN.coastal("GESOCRIBATE")
    assert MN.neighbours("GESOCRIBATE", "legion")
    assert MN.regions["GESOCRIBATE"].provenance.startswith("book:")


def test_carthago_moves_a_legion_and_a_galley_and_the_galley_reaches_carales() -> None:
    """«У Желтого Легион и Галера в CARTHAGO ... Если Галера перемещается в CARALES»."""
    assert MN.neighbours("CARTHAGO", "legion")
    assert "CARALES" in MN.neighbours("CARTHAGO", "galley")
    assert "CARALES" not in MN.neighbours("CARTHAGO", "legion")  # water between
    assert MN.regions["CARTHAGO"].city == "gold"                  # the Aurum example


def test_the_roman_examples_cities() -> None:
    """Aurum: «3 золота из SYRACUS и 1 золото из CARTHAGO»; Militia: galleys raised in ROMA
    and NEAPOLIS, «в ANCONA невозможно, так как город нейтральный»; Templum: NEAPOLIS,
    CARALES."""
    assert MN.regions["SYRACUS"].city == "gold"
    assert MN.coastal("ROMA") and MN.coastal("NEAPOLIS")
    assert MN.regions["ANCONA"].neutral_temple
    for name in ("ROMA", "NEAPOLIS", "ANCONA", "CARALES", "CARTHAGO", "SYRACUS"):
        assert name in MN.regions
        assert MN.regions[name].provenance.startswith("book:"), name
    # yellow (Rome) starts there: the book's yellow holds ROMA, NEAPOLIS, SYRACUS
    assert MN.start(6)["yellow"] == ("ROMA", "NEAPOLIS", "SYRACUS")


def test_attalia_paphos_antiochia_are_the_orients_founding_example() -> None:
    """«красный игрок может построить город в ATTALIA и / или в PAPHOS. В ANTIOCHIA город не
    может быть основан ... В ATTALIA возможно построить золотой город, а в PAPHOS игрок
    должен решить какой ресурс»."""
    assert ORIENT.regions["ATTALIA"].city == "gold"
    assert ORIENT.regions["PAPHOS"].city == "universal"
    assert "PAPHOS" in ORIENT.neighbours("ATTALIA", "galley")
    assert ORIENT.distances("PAPHOS")["ANTIOCHIA"] <= 2
    # no city stands in any of the three at the start (all three are founded or not)
    started = {r for regions in ORIENT.start(6).values() for r in regions}
    assert not started & {"ATTALIA", "PAPHOS", "ANTIOCHIA"}


def test_universal_sites_are_the_orients_alone() -> None:
    assert not any(r.city == "universal" for r in MN.regions.values())
    assert sum(r.city == "universal" for r in ORIENT.regions.values()) >= 3


# --- whole maps ----------------------------------------------------------------------------
def test_each_side_is_full_size_with_resources_in_thirds(board: Board) -> None:
    assert 35 <= len(board.regions) <= 52 and 12 <= len(board.seas) <= 20
    counts = Counter(r.city for r in board.regions.values() if r.city in RESOURCES)
    third = sum(counts.values()) / 3
    assert all(abs(counts[r] - third) <= 2 for r in RESOURCES), counts
    symbols = [s for s in board.seas.values() if s.galley_symbol]
    # «достаточно 4х Галер чтобы освоить 7 морей»: three symbol seas and one more
    assert len(symbols) >= 3
    assert 1 <= len(board.neutral_temples()) <= 20


def test_every_area_says_where_it_comes_from(board: Board) -> None:
    for area in (*board.regions.values(), *board.seas.values()):
        kind, _, why = area.provenance.partition(":")
        assert kind in ("book", "reconstructed") and why.strip(), area.name


def test_the_map_is_connected_and_every_unit_can_get_around(board: Board) -> None:
    assert set(board.distances(board.areas[0])) == set(board.areas)
    seas = set(board.seas)
    coasts = [r for r in board.regions if board.coastal(r)]
    # every sea can be sailed to from a coast; every land region is reached by some unit
    assert seas <= set().union(*(board.distances(c, "galley") for c in coasts))
    for region in board.regions:
        assert board.neighbours(region, "legion") or board.coastal(region), region


def test_borders_run_both_ways_and_seas_take_galleys_only(board: Board) -> None:
    for border in board.borders:
        if board.is_sea(border.a) or board.is_sea(border.b):
            assert border.kind == "blue"
        assert board.border(border.b, border.a) == border.kind
    for sea in board.seas:
        assert not board.neighbours(sea, "legion")
        assert not board.coastal(sea)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_neighbourhood_is_symmetric(data: st.DataObject) -> None:
    b = data.draw(st.sampled_from([MN, ORIENT]))
    area = data.draw(st.sampled_from(b.areas))
    unit = data.draw(st.sampled_from(UNITS))
    for other in b.neighbours(area, unit):
        assert area in b.neighbours(other, unit)
    steps = data.draw(st.integers(1, 3))
    assert b.reach(area, unit, steps - 1) <= b.reach(area, unit, steps)
    assert set(b.neighbours(area, unit)) == b.reach(area, unit, 1)


def test_a_board_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        MN.side = "orient"  # type: ignore[misc]


def test_galley_symbol_seas_count_double(board: Board) -> None:
    for sea in board.seas.values():
        assert board.sea_weight(sea.name) == (2 if sea.galley_symbol else 1)


# --- fair starts ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_start_sets_are_fair(board: Board, players: int) -> None:
    starts = board.start(players)
    assert len(starts) == players
    for nation, regions in starts.items():
        assert sorted(board.regions[r].city for r in regions) == sorted(RESOURCES)
        assert not any(board.regions[r].neutral_temple for r in regions)
        # a nation's three cities hang together (no step over another region)
        for r in regions:
            assert min(board.distances(r)[o] for o in regions if o != r) == 1, (nation, r)
    measures = start_measures(board, players)
    assert all(m.rival >= 2 for m in measures.values()), measures
    room = [m.territory for m in measures.values()]
    assert min(room) / max(room) >= 0.55, measures
    assert all(m.coastal >= 1 for m in measures.values())


def test_fewer_players_spread_out(board: Board) -> None:
    """With fewer nations each has more room: the least room never shrinks as players leave."""
    least = [min(m.territory for m in start_measures(board, n).values())
             for n in PLAYER_COUNTS]
    assert least == sorted(least, reverse=True)


def test_start_asks_for_a_seated_player_count() -> None:
    with pytest.raises(Exception, match="seats 3, 4, 5, 6 players, not 2"):
        MN.start(2)


# --- the command line ----------------------------------------------------------------------
def test_map_check_checks_both_sides_with_no_argument(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    assert main(["map", "check"]) == 0
    out = capsys.readouterr().out
    for side in SIDES:
        # editions/antike2/boards in a checkout, antike2/editions/boards installed
        assert f"{Path('boards') / side}.yaml: ok (Antike II" in out, out
        assert f"antike2{os.sep}" in out, out


def test_map_check_reads_a_side_by_its_game_key(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "check", str(default_board_path("orient"))]) == 0
    assert "ok (Antike II, Orient side: 51 regions" in capsys.readouterr().out


def test_the_documented_fairness_tables_are_what_the_measure_gives() -> None:
    doc = (ROOT / "docs" / "antike-board.md").read_text(encoding="utf-8")
    for board in _BOARDS.values():
        for players in board.player_counts:
            for m in start_measures(board, players).values():
                row = (f"| {players} | {m.nation} | {', '.join(board.start(players)[m.nation])}"
                       f" | {m.rival} | {m.sites_near} | {m.territory:.1f} | "
                       f"{m.temples_near} | {m.seas_near} | {m.coastal} |")
                assert row in doc, row


# --- the layout for the board picture ------------------------------------------------------
def test_every_area_has_a_drawing_position_and_none_overlap(board: Board) -> None:
    spots = layout(board, 1200, 800)
    assert set(spots) == set(board.areas)
    for x, y in spots.values():
        assert 20 - 1e-6 <= x <= 1180 + 1e-6 and 20 - 1e-6 <= y <= 780 + 1e-6
    points = list(spots.values())
    closest = min(math.dist(p, q) for i, p in enumerate(points) for q in points[i + 1:])
    assert closest >= 12, closest   # room for a marker each


def test_north_is_up_and_west_is_left() -> None:
    spots = layout(MN, 1000, 600)
    assert spots["GESOCRIBATE"][1] < spots["CARTHAGO"][1]    # Brittany above Africa
    assert spots["OLISIPO"][0] < spots["ALEXANDRIA"][0]      # Lisbon left of Egypt


def test_an_area_without_a_position_is_drawn_among_its_neighbours(tmp_path: Path) -> None:
    text = default_board_path("mare_nostrum").read_text(encoding="utf-8")
    text = text.replace("  CIRTA: {city: iron, at: [6.4, 35.2],", "  CIRTA: {city: iron,")
    b = load(tmp_path / "b.yaml", text=text)
    assert b.regions["CIRTA"].at is None
    spots = layout(b, 1000, 600)
    near = [spots[n] for n in ("HIPPO", "CAESAREA", "CARTHAGO", "LEPTIS")]
    assert spots["CIRTA"] == pytest.approx((sum(p[0] for p in near) / 4,
                                            sum(p[1] for p in near) / 4))
