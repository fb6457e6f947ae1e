"""Winning (book 002, «ЦЕЛЬ ИГРЫ») beyond the book's sentences: the destroyed temple that
wins one short is one destroyed in this turn, and only when no general is left to take;
a pack that leaves the target out plays the book's table; the variant Nine scholars is
described to the players as the book gives it."""

from __future__ import annotations

from pathlib import Path

import pytest

from a2_helpers import at_turn
from antike2.supply import personages_left
from antike2.victory import target
from mnrules import load_ruleset
from mnrules.frontends.cli import main
from test_personages_victory import destroy_ancona_in, end_turn

PACK = Path("editions/antike2/antike2/pack.yaml")


def test_a_temple_destroyed_in_an_earlier_turn_does_not_win_one_short() -> None:
    """«Если нация не хватает выиграть всего лишь 1 персонажа, она может выиграть,
    разрушая храм»: the temple is destroyed in the winning turn. Yellow, one short with
    every general taken, destroyed one temple long ago and none this turn: no win."""
    game = at_turn({"personages": {"yellow": ["general"] + ["scholar"] * 7,
                                   "green": ["general"] * 6},
                    "destroyed": {"yellow": 1, "green": 6}}, "yellow")
    assert personages_left(game, "general") == 0
    end_turn(game)
    assert game.outcome is None


def test_two_short_a_temple_destroyed_gives_a_general_and_no_win_while_one_is_left() -> None:
    """Yellow, two short of 9, destroys a temple: he takes a general and is one short.
    A general is still in the box, so the temple does not win in its place."""
    game = destroy_ancona_in({"personages": {"yellow": ["scholar"] * 7,
                                          "green": ["general"] * 5},
                           "destroyed": {"green": 5}})
    assert game.state.personages["yellow"].count("general") == 1
    assert len(game.state.personages["yellow"]) == target(game) - 1
    assert personages_left(game, "general") == 1
    assert game.outcome is None


def bare_pack(tmp_path: Path) -> Path:
    """The shipped pack without its ``personage_target`` and ``round_cap``: what the
    plugins declare by default is played."""
    text = PACK.read_text(encoding="utf-8")
    board = (PACK.parent / "../boards/mare_nostrum.yaml").resolve()
    bare = "\n".join(line for line in text.splitlines()
                     if not line.startswith(("  personage_target:", "  round_cap:")))
    pack = tmp_path / "pack.yaml"
    pack.write_text(bare.replace("board: ../boards/mare_nostrum.yaml", f"board: {board}")
                    .replace("id: antike2", "id: bare"), encoding="utf-8")
    return pack


def test_a_pack_that_leaves_the_target_out_plays_the_books_table(tmp_path: Path) -> None:
    """The target by the number of nations is the rule's (book: 6 → 7, 3 → 10; Antike
    2006: 4 → 9, 5 → 8), not only the pack's: a pack of the game that does not set
    ``personage_target`` plays it."""
    rules = load_ruleset(bare_pack(tmp_path))
    for players, wanted in ((3, 10), (4, 9), (5, 8), (6, 7)):
        game = at_turn({}, rules.seating[players][0], players, rules=rules)
        assert target(game) == wanted


def test_the_nine_scholars_variant_is_described_as_the_book_gives_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """«Девятый ученый Плиний Старший ... является победой» is the book's variant; in the
    rules Pliny is one personage (Ученые): the pack lists both values, the rules' first."""
    assert main(["editions", "show", "antike2"]) == 0
    out = capsys.readouterr().out
    assert "> False (default): Pliny is one personage [002 Ученые]" in out
    assert "  True: Pliny wins [002 Варианты: Девять ученых]" in out
