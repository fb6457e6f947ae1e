"""Movere, step 1 (book 002, «Передвижение и сражение») beyond the book's examples: a
unit entering a region shared by two other nations, the question each side reads, a
refused battle of no known unit, the reach a card may take down to nothing, the ways a
unit may take (any area and reach), and a Movere in a pack without conquest."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a2_helpers import RULES, at_turn
from antike2.movere import reach, ways
from mnrules import load_ruleset
from mnrules.content.packs import read
from mnrules.errors import IllegalChoice
from test_conquest_antike2_rules import at_movere_in, variant
from test_movere import CARTHAGO, asked, at_movere, options, play, units

CROSSES_OK = {"legion": "red", "galley": "blue"}
"""The border of its own colour each kind crosses, besides the combined ones."""


def test_a_galley_entering_a_region_of_two_nations_may_fight_each_in_turn() -> None:
    """«передвижение военных частей в регион, где уже находятся военные подразделения
    другого игрока, может привести к сражению, если любая из наций этого пожелает»: with
    red and green galleys in CARALES, yellow's galley is asked about red (both keep the
    peace), then about green, in order of play; the battle with green costs both."""
    pos = {**CARTHAGO, "units": {"yellow": {"CARTHAGO": {"galley": 1}},
                                 "red": {"CARALES": {"galley": 1}},
                                 "green": {"CARALES": {"galley": 1}}}}
    game = at_movere(pos, "yellow")
    order = [p for p in game.state.players if p in ("red", "green")]
    play(game, ("galley", ("CARTHAGO", "CARALES")))
    assert asked(game) == ("yellow", "a2.battle")
    play(game, "peace")
    assert asked(game) == (order[0], "a2.battle")
    play(game, "peace")
    assert asked(game) == ("yellow", "a2.battle")     # the second nation there
    play(game, "fight")
    assert units(game, "yellow", "CARALES") == {}
    assert units(game, order[1], "CARALES") == {}
    assert units(game, order[0], "CARALES") == {"galley": 1}


def test_the_battle_question_names_the_other_side() -> None:
    """Each nation reads whose units it would fight, how many against its own."""
    game = at_movere({**CARTHAGO, "units": {"yellow": {"CARTHAGO": {"galley": 2}},
                                            "red": {"CARALES": {"galley": 1}}}}, "yellow")
    play(game, ("galley", ("CARTHAGO", "CARALES")))
    dec = game.pending
    assert dec is not None and dec.prompt == ("Yellow: fight Red's galleys in Carales (1 "
                                              "against your 1), or let them be?")
    play(game, "peace")
    dec = game.pending
    assert dec is not None and dec.prompt == ("Red: fight Yellow's galleys in Carales (1 "
                                              "against your 1), or let them be?")


def test_a_battle_of_no_known_unit_is_refused() -> None:
    """«Легионы могут сражаться только против Легионов, Галеры против Галер»: a battle
    names one of the two kinds of unit."""
    game = at_movere({**CARTHAGO, "units": {"yellow": {"CARALES": {"galley": 1}},
                                            "red": {"CARALES": {"galley": 1}}}}, "yellow")
    assert ("battle", "CARALES", "galley", "red") in options(game)
    with pytest.raises(IllegalChoice, match=r"'cavalry' is no unit \(legion, galley\)"):
        game.apply(("battle", "CARALES", "cavalry", "red"))
    with pytest.raises(IllegalChoice, match="Red has no legion in Carales"):
        game.apply(("battle", "CARALES", "legion", "red"))


@pytest.mark.parametrize("unit", ["legion", "galley"])
def test_a_card_taking_the_reach_to_nothing_keeps_those_units_home(tmp_path: Path,
                                                                   unit: str) -> None:
    """A unit crosses as many borders as its reach (1; 2 with Strata or Navigatio): a
    pack whose Strata (Navigatio) subtracts 1 leaves that kind with no move at all, the
    other kind moving as ever."""
    card = {"legion": ("strata", "legion_reach"), "galley": ("navigatio", "galley_reach")}
    name, quantity = card[unit]
    other = "galley" if unit == "legion" else "legion"
    rules = variant(tmp_path, f"cards:\n  override:\n    {name}:\n      effects: |\n"
                    f"        modify {quantity}: subtract 1\n")
    game = at_movere_in(rules, {**CARTHAGO, "know_how": {"yellow": [name]}}, "yellow")
    assert reach(game, "yellow", unit) == 0
    assert reach(game, "yellow", other) == 1
    kinds = {o[0] for o in options(game)}
    assert unit not in kinds and other in kinds
    with pytest.raises(IllegalChoice, match="cross 0 border in a Movere"):
        game.apply((unit, ("CARTHAGO", "HIPPO" if unit == "legion" else "CARALES")))


def test_without_the_conquest_plugin_the_movere_ends_with_the_moves() -> None:
    """Conquest is step 2 of Movere only where the pack plays it: a pack without the
    conquest plugin ends the Movere when the moves are done, and the turn goes on to
    founding (here: yellow's legion in HIPPO founds nothing, it has nothing to pay)."""
    plugins = [str(p) for p in read("antike2").data["plugins"]]
    rules = load_ruleset("antike2", {"plugins": [p for p in plugins if p != "conquest"]})
    pos = {**CARTHAGO, "units": {"yellow": {"CARTHAGO": {"legion": 1}},
                                 "red": {"CARALES": {"galley": 1}}}}
    game = at_movere_in(rules, pos, "yellow")
    play(game, ("legion", ("CARTHAGO", "HIPPO")))
    assert units(game, "yellow", "HIPPO") == {"legion": 1}
    assert game.pending is not None and game.pending.player != "yellow"
    assert game.state.cities["CARTHAGO"]["owner"] == "yellow"


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_way_crosses_borders_its_unit_may_cross(data: st.DataObject) -> None:
    """«Красные границы могут пересекать только Легионы, а синие только Галеры.
    Комбинированные ... и Легионы и Галеры»: each way offered crosses 1 to ``steps``
    borders its kind may cross, never passes an area twice nor ends where it began; and
    every neighbour its kind may reach is a way of one border."""
    board = RULES.board
    unit = data.draw(st.sampled_from(["legion", "galley"]))
    areas = sorted(board.regions) if unit == "legion" else \
        sorted(a for a in board.areas if board.is_sea(a) or board.coastal(a))
    origin = data.draw(st.sampled_from(areas))
    steps = data.draw(st.integers(1, 2))
    game = at_turn({}, "yellow")
    found = ways(game, origin, unit, steps)
    for way in found:
        assert way[0] == origin and 2 <= len(way) <= steps + 1
        assert len(set(way)) == len(way)
        for a, b in pairwise(way):
            assert b in board.neighbours(a, unit)
            assert board.border(a, b) in (CROSSES_OK[unit], "combined")
    assert {w[1] for w in found if len(w) == 2} == set(board.neighbours(origin, unit))
    assert found == sorted(found, key=lambda w: (len(w), w))


def test_a_move_is_pointed_at_on_the_map_by_its_start_and_its_end() -> None:
    """The web app makes a move's areas clickable: from CARTHAGO, then where it ends."""
    game = at_movere(CARTHAGO, "yellow")
    dec = game.pending
    assert dec is not None and dec.kind == "a2.move"
    for option in dec.options:
        places = game.rules.definition.presentation.option_places(game=game, decision=dec,
                                                                  option=option)
        if option[0] in ("legion", "galley"):
            assert places == [option[1][0], option[1][-1]] and places[0] == "CARTHAGO"
        elif option[0] == "done":
            assert places == []
