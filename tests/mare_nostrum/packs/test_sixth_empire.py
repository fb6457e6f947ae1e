"""A sixth empire a pack declares on its board (phoenicia/ here: Phoenicia, patched
onto the English board): the game seats six when the board lists six empires, the new
empire starts as its entry says, and an incomplete empire is refused before play with
the patch's file, line and key.

The books seat 3 to 5 players (digest §4.1); what six players read in their player-count
rules is this project's reading (docs/board.md, "A sixth empire"): the covered areas
follow ``min_players`` (the sixth empire's provinces are on the board from 6 players),
the start titles are the books' ``default`` holders ("Trade is always Carthage, Military
always Rome, Culture is Egypt in 4-5p": at six, as at five), and the sixth empire's
starting hero, like every starting hero, never enters the display.
"""

from __future__ import annotations

import random
import re
import shutil
from functools import cache
from pathlib import Path

import pytest

from mare_nostrum.tracks import counted
from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check
from mnrules.errors import MnrulesError
from mnrules.frontends.cli import main

PACK = Path(__file__).parent / "phoenicia"
VARIANT = PACK / "variant.yaml"


@cache
def six() -> Ruleset:
    return load_ruleset("en", variant=str(VARIANT))


def broken(tmp_path: Path, old: str, new: str) -> Path:
    """The Phoenicia variant with one line changed, beside its cards."""
    shutil.copytree(PACK / "cards", tmp_path / "cards")
    text = VARIANT.read_text()
    assert old in text
    out = tmp_path / "variant.yaml"
    out.write_text(text.replace(old, new, 1))
    return out


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1)
                if needle in line)


def test_a_board_with_six_empires_seats_six() -> None:
    assert sorted(six().seating) == [3, 4, 5, 6]
    assert six().seating[6][-1] == "phoenicia"
    assert 6 not in load_ruleset("en").seating   # the books' board seats 3 to 5


def test_the_english_board_refuses_six_players() -> None:
    with pytest.raises(MnrulesError, match="3, 4, 5"):
        new_game(load_ruleset("en"), 6, seed=1)


def test_phoenicia_starts_as_its_entry_says() -> None:
    game = new_game(six(), 6, seed=1)
    state = game.state
    assert [p for p, holder in state.control.items() if holder == "phoenicia"] == \
        ["PHOENICE", "LIBANUS", "CYPRUS"]
    assert state.units["PHOENICE"]["phoenicia"] == {"legion": 1, "fortress": 1}
    assert state.held("phoenicia") == 9          # setup step 3: the 9 resources shown
    assert counted(game)["phoenicia"] == {"trade": 6, "culture": 2, "military": 2}
    assert state.tiles["phoenicia"] == ["dido"]
    assert "dido" not in state.display + state.display_hidden
    assert state.pieces["phoenicia"]["marker"] == 7 - 2   # the capital's marker is printed


def test_at_six_the_titles_are_the_five_player_holders() -> None:
    titles = new_game(six(), 6, seed=1).state.titles
    assert titles == {"trade": "carthage", "culture": "egypt", "military": "rome"}


def test_the_sixth_empire_is_covered_with_five_players() -> None:
    state = new_game(six(), 5, seed=1).state
    assert "phoenicia" not in state.players
    assert not {"PHOENICE", "LIBANUS", "CYPRUS"} & set(state.control)
    assert "SYRIA" in state.control


def test_the_box_for_six_holds_every_start() -> None:
    game = new_game(six(), 6, seed=1)
    assert check(game) == []
    assert game.state.supply["capital"] == 0     # six capitals, six in the box


@pytest.mark.parametrize("seed", [1, 2])
def test_six_random_players_play_to_a_winner(seed: int) -> None:
    game = new_game(six(), 6, seed=seed)
    rng = random.Random(seed)
    choices = 0
    while game.pending is not None and choices < 20_000:
        game.apply(rng.choice(game.pending.options))
        choices += 1
        if choices % 200 == 0:
            assert check(game) == []
    assert game.outcome is not None and game.outcome.winners
    assert check(game) == []


def test_play_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--edition", "en",
                 "--variant", str(VARIANT), "--players", "6", "--bots", "random",
                 "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"the winners? (is|are) \w+", out)
    assert "Phoenicia" in out and "phoenicia" not in out


def test_an_empire_without_a_capital_is_refused_at_the_patch(tmp_path: Path) -> None:
    variant = broken(tmp_path, "        capital: PHOENICE\n", "")
    with pytest.raises(MnrulesError) as err:
        load_ruleset("en", variant=str(variant))
    at = line_of(variant, "set: empires.phoenicia")
    assert f"variant.yaml:{at + 1}:" in str(err.value)
    assert "empires.phoenicia.capital: missing key" in str(err.value)


def test_six_players_need_six_empires(tmp_path: Path) -> None:
    variant = broken(tmp_path, "carthage, phoenicia]", "carthage]")
    with pytest.raises(MnrulesError, match=r"variant.yaml:\d+:\d+: players.6: 6 players, "
                                           r"but 5 empires listed"):
        load_ruleset("en", variant=str(variant))


def test_the_sixth_empires_provinces_must_be_covered_below_six(tmp_path: Path) -> None:
    variant = broken(tmp_path, "caravan:metal, city]\n        neighbours: []\n"
                               "        seas: [MARE CYPRIUM]\n        min_players: 6",
                     "caravan:metal, city]\n        neighbours: []\n"
                     "        seas: [MARE CYPRIUM]\n        min_players: 3")
    with pytest.raises(MnrulesError, match=r"CYPRUS is on the board with 3 players|"
                                           r"does not play then"):
        load_ruleset("en", variant=str(variant))


def test_a_new_empire_must_start_with_the_nine_resources(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The printed empires' figures are not rechecked on a patched board, but an empire
    the patch declares whole is: its start produces the 9 resources and its tracks."""
    variant = broken(tmp_path, "CYPRUS: [caravan:metal]", "CYPRUS: []")
    with pytest.raises(MnrulesError) as err:
        load_ruleset("en", variant=str(variant))
    text = str(err.value)
    at = line_of(variant, "        buildings:")
    assert f"variant.yaml:{at}:" in text
    assert "empires.phoenicia.buildings: the starting pieces produce 8 resources, not 9" \
        in text
    assert "empires.phoenicia.tracks.trade: the pieces count 5, not the 6" in text
    assert main(["map", "check", "--edition", str(variant)]) != 0


def test_the_sixth_empire_passes_the_map_check() -> None:
    assert main(["map", "check", "--edition", str(VARIANT)]) == 0


def test_a_pack_may_give_the_sixth_empire_a_start_title(tmp_path: Path) -> None:
    variant = tmp_path / "lead.yaml"
    variant.write_text(f"extends: {VARIANT}\npatch:\n  board: "
                       f"{{start_titles.trade.6: phoenicia}}\n")
    rules = load_ruleset("en", variant=str(variant))
    assert new_game(rules, 6, seed=1).state.titles["trade"] == "phoenicia"
    assert new_game(rules, 5, seed=1).state.titles["trade"] == "carthage"


def test_the_board_picture_draws_the_sixth_empire_in_its_colour() -> None:
    from mare_nostrum.render import render_svg

    svg = render_svg(new_game(six(), 6, seed=1))
    assert "Phoenicia" in svg and "#ef6c00" in svg      # orange
