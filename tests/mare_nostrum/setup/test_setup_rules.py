"""Setup (FR "Mise en place"; NL/PL/UK setup 1-5): the box each empire starts with, and
the board check of setup step 3 ("take the 9 resources shown") — which binds the printed
board and an empire a pack declares whole, not a variant that departs from the printed
start on purpose (mutation testing, issue 19)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnrules import load_ruleset, new_game
from mnrules.errors import MnrulesError
from test_pack_units import cyclops
from test_sixth_empire import broken, line_of
from test_variants_patch import ROME_WITHOUT_ITS_MARKET, write


def test_each_empire_starts_with_the_packs_creatures_in_its_box() -> None:
    """The Cyclops pack declares one cyclops per empire: each box holds it at setup."""
    game = new_game(cyclops(), 5, seed=1)
    assert {p: box.get("cyclops") for p, box in game.state.pieces.items()} == \
        dict.fromkeys(game.state.players, 1)


def test_a_variant_that_patches_the_printed_start_is_not_held_to_the_books(
        tmp_path: Path) -> None:
    """Rome without its market starts with 7 resources, not the books' 9: the variant
    says so on purpose, so the board check lets it play."""
    rules = load_ruleset("en", variant=write(tmp_path, "v.yaml", ROME_WITHOUT_ITS_MARKET))
    assert [p for found in rules.hook.mn_check_board(rules=rules) for p in found] == []
    assert new_game(rules, 5, seed=1).state.held("rome") == 7


def test_an_empire_a_pack_declares_whole_must_start_with_the_nine_resources(
        tmp_path: Path) -> None:
    """Phoenicia, declared whole by the pack, with one caravan fewer in CYPRUS: its
    start produces 8 resources and trade 5, and the pack is refused at the lines of its
    buildings and tracks; the printed empires, whose figures the patch does not touch,
    are not blamed."""
    variant = broken(tmp_path, "CYPRUS: [caravan:metal]", "CYPRUS: []")
    with pytest.raises(MnrulesError) as err:
        load_ruleset("en", variant=str(variant))
    text = str(err.value)
    assert f"variant.yaml:{line_of(variant, '        buildings:')}:" in text
    assert f"variant.yaml:{line_of(variant, '        tracks:')}:" in text
    assert "empires.phoenicia.buildings: the starting pieces produce 8 resources, not 9" \
        in text
    assert "empires.phoenicia.tracks.trade: the pieces count 5, not the 6" in text
    for printed in ("rome", "greece", "babylon", "egypt", "carthage"):
        assert f"empires.{printed}" not in text


def test_the_printed_board_is_held_to_the_books_figures() -> None:
    """A printed board (no patch) whose Rome starts without the market of ITALIA: the
    check lists both departures, the resources and the trade track."""
    rules = load_ruleset("en")
    rome = rules.board.empires["rome"]
    market = [s.kind for s in rules.board.provinces["ITALIA"].slots].index("market")
    object.__setattr__(rome, "buildings", {**rome.buildings, "ITALIA": tuple(
        i for i in rome.buildings["ITALIA"] if i != market)})
    problems = [p for found in rules.hook.mn_check_board(rules=rules) for p in found]
    assert problems == [
        "empires.rome: the starting pieces produce 7 resources, not 9",
        "empires.rome.tracks.trade: the pieces count 6, the rulebook says 7",
    ]
