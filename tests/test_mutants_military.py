"""Move & Fight rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from conftest import pending, play
from mnrules.plugins.mare_nostrum import position as pos
from mnrules.ruleset import Ruleset
from test_movement import empty_board


def test_each_empire_moves_and_fights_once_per_phase(rules: Ruleset) -> None:
    """4.1: the military leader names who plays next, among the empires that have not
    played this phase; once Rome's turn is over he cannot be named again.

    Kills: deleting ``frame["done"].append(choice)`` in ``military.Military.choose``."""
    game = empty_board(rules)
    pos.start_phase(game, "military")
    assert pending(game)[1] == "military.next"
    first = game.legal()
    play(game, "rome")
    while pending(game)[1] != "military.next":
        play(game, game.legal()[0])
    assert "rome" in first and "rome" not in game.legal()
    assert set(game.legal()) == set(first) - {"rome"}
