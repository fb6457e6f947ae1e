"""A new unit kind a pack declares as data (cyclops/ here): the Cyclops, a creature
each empire's box holds a count of, that stands on land and rolls no die (its role is a
token: never lost in a battle, on no track). A card's script places it with the words
every unit has (``place 1 cyclops here``, ``3 per cyclops you have here``), the box
counts it like any piece, and the pack's mistakes are refused with file, line and key.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mare_nostrum.tracks import counted
from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check
from mnrules.errors import MnrulesError
from mnrules.frontends.cli import main

PACK = Path(__file__).parent / "cyclops"


@cache
def cyclops(variant: str = "variant.yaml") -> Ruleset:
    return load_ruleset("en", variant=str(PACK / variant))


def write(tmp_path: Path, creature: str) -> Path:
    out = tmp_path / "variant.yaml"
    out.write_text(f"extends: en\ncomponents:\n  creatures:\n    {creature}\n")
    return out


def test_each_box_holds_the_declared_creatures() -> None:
    game = new_game(cyclops(), 5, seed=1)
    assert {p: box["cyclops"] for p, box in game.state.pieces.items()} == \
        dict.fromkeys(game.state.players, 1)
    assert "cyclops" not in new_game(load_ruleset("en"), 5, seed=1).state.pieces["rome"]


def test_a_script_names_the_creature_as_a_unit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "check", "--edition", "en", str(PACK / "cards"), "--variant",
                 str(PACK / "variant.yaml")]) == 0
    assert main(["cards", "explain", "--edition", "en", "polyphemus", "--variant",
                 str(PACK / "variant.yaml")]) == 0
    out = capsys.readouterr().out
    assert "put 1 cyclops from your box in the battle's area" in out
    assert "add 3 for each of your cyclops pieces" in out


def test_without_the_creature_the_script_is_refused(tmp_path: Path) -> None:
    """The creature is the pack's: under the English pack the word has no 'cyclops'."""
    assert main(["cards", "check", "--edition", "en", str(PACK / "cards")]) != 0


def test_the_creature_card_proves_its_power_in_a_position() -> None:
    """Rome's Cyclops adds 3 where it stands and only there; Rome's win brings it from
    the box to the province (cyclops/scenarios)."""
    assert main(["scenario", "run", str(PACK / "scenarios")]) == 0


def test_a_creature_rolls_no_die_and_counts_on_no_track() -> None:
    game = new_game(cyclops(), 5, seed=1)
    before = counted(game)["rome"]["military"]
    game.state.pieces["rome"]["cyclops"] -= 1
    game.state.add_units("LATIUM", "rome", "cyclops")
    assert counted(game)["rome"]["military"] == before
    assert check(game) == []


def test_the_box_refuses_a_creature_where_it_may_not_stand_or_beyond_its_count() -> None:
    game = new_game(cyclops(), 5, seed=1)
    game.state.add_units("GALLIA", "rome", "cyclops")       # from nowhere: a second one
    assert any("rome cyclops: box 1 + board 1 != 1" in p for p in check(game))
    game = new_game(cyclops(), 5, seed=1)
    game.state.pieces["rome"]["cyclops"] -= 1
    game.state.add_units("MARE TYRRHENUM", "rome", "cyclops")
    assert any("rome's cyclops stands in MARE TYRRHENUM, where it may not" in p
               for p in check(game))


@pytest.mark.parametrize("creature, needle", [
    ("cyclops: {count: 1, enters: land, role: monster}",
     "components.creatures.cyclops.role: expected token, got 'monster'"),
    ("cyclops: {count: 1, enters: land, role: tokn}", "did you mean 'token'?"),
    ("cyclops: {enters: land, role: token}", "components.creatures.cyclops: missing count"),
    ("cyclops: {count: -1, enters: land, role: token}",
     "components.creatures.cyclops.count: expected a whole number from 0"),
    ("cyclops: {count: 1, enters: water, role: token}",
     "components.creatures.cyclops.enters: expected 'land' or a list of provinces"),
    ("cyclops: {count: 1, entres: land, role: token}", "did you mean 'enters'?"),
    ("legion: {count: 1, enters: land, role: token}",
     "'legion' already names a good, a building, a unit or a coin"),
    ("gold: {count: 1, enters: land, role: token}", "'gold' already names a good"),
    ("cyclops: {count: 1, enters: [SICILIA, MARE SARDUM], role: token}",
     "components.creatures.cyclops.enters[1]: no province 'MARE SARDUM' on the board (a "
     "sea: a creature stands on land)"),
    ("cyclops: {count: 1, enters: [SICILA], role: token}", "did you mean 'SICILIA'?"),
])
def test_a_bad_creature_is_refused_with_its_line_and_key(tmp_path: Path, creature: str,
                                                          needle: str) -> None:
    variant = write(tmp_path, creature)
    with pytest.raises(MnrulesError) as err:
        load_ruleset("en", variant=str(variant))
    assert needle in str(err.value)
    assert "variant.yaml:4:" in str(err.value)


def test_a_creature_may_be_held_to_listed_provinces(tmp_path: Path) -> None:
    rules = load_ruleset("en", variant=str(write(
        tmp_path, "cyclops: {count: 1, enters: [SICILIA], role: token}")))
    game = new_game(rules, 5, seed=1)
    game.state.pieces["rome"]["cyclops"] -= 1
    game.state.add_units("LATIUM", "rome", "cyclops")
    assert any("where it may not" in p for p in check(game))


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), holder=st.integers(0, 5))
def test_the_box_is_never_overdrawn_with_six_players_and_a_creature(seed: int,
                                                                     holder: int) -> None:
    """Six empires (Phoenicia's board) and two Cyclopes in each box, Polyphemus dealt to
    one empire: random legal choices for six rounds never take a creature the box does
    not hold, nor put one where it may not stand."""
    game = new_game(cyclops("six.yaml"), 6, seed=seed, round_cap=6)
    state = game.state
    who = state.players[holder]
    for pile in (state.display, state.display_hidden):
        if "polyphemus" in pile:
            pile.remove("polyphemus")
    state.tiles[who].append("polyphemus")
    rng = random.Random(seed)
    while game.pending is not None:
        game.apply(rng.choice(game.pending.options))
        assert check(game) == []
        assert 0 <= state.pieces[who]["cyclops"] <= 2


def test_a_save_keeps_the_creature_where_it_stands() -> None:
    from mnrules import load_game

    game = new_game(cyclops(), 5, seed=1)
    game.state.pieces["rome"]["cyclops"] -= 1
    game.state.add_units("GALLIA", "rome", "cyclops")
    again = load_game(cyclops(), game.snapshot())
    assert again.state.count("GALLIA", "rome", "cyclops") == 1
    assert again.state.pieces["rome"]["cyclops"] == 0
    for pile in (game.state.display, game.state.display_hidden):   # a card en lacks
        if "polyphemus" in pile:
            pile.remove("polyphemus")
    with pytest.raises(MnrulesError, match="no piece 'cyclops' in this box"):
        load_game(load_ruleset("en"), game.snapshot())
