"""A card remembers a count of its own, per holder, in the state (issue 35, item 5):
``add N to this card's count``, ``set this card's count to N``, the condition ``this
card's count reaches N`` and the count ``this card's count`` for ``per`` — words of the
language, so in every game, with no Python; saves and replays hold the count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnrules import load_game, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.core.engine import Game
from mnrules.errors import MnrulesError
from mnrules.language.memory import counts
from test_card_scripts import with_cards

TALLY = ("after phase.end when the phase is military: add 1 to this card's count\n"
         "after phase.end when the phase is military and this card's count reaches 2: "
         "set this card's count to 0")


def _give(game: Game, holder: str = "rome") -> None:
    """``holder`` takes Tally from wherever setup put it (a hero of the display)."""
    for pile in (game.state.display, game.state.display_hidden):
        if "tally" in pile:
            pile.remove("tally")
    game.state.tiles[holder].append("tally")


def _rounds(game: Game, rounds: int, seen: list[int], holder: str = "rome") -> None:
    bot = RandomBot(5)
    last = game.state.round
    while game.pending is not None and game.state.round <= rounds:
        game.apply(bot.choose(game))
        if game.state.round != last:
            last = game.state.round
            seen.append(counts(game.state).get("tally", {}).get(holder, 0))


def test_a_card_counts_the_rounds_and_starts_again_at_two(tmp_path: Path) -> None:
    """Rome's Tally adds one at the end of each military phase and, once it has reached
    two, sets itself back to nothing. Both rules read the count as the phase's end
    found it (a reaction's condition is read when its event happens), then run in the
    order written: after rounds 1 to 4 it holds 1, 2, 0 (3, then reset) and 1. Greece
    and Carthage, who do not hold it, have no count."""
    rules = with_cards(tmp_path, ("tally", TALLY))
    game = new_game(rules, 3, seed=2)
    _give(game)
    seen: list[int] = []
    _rounds(game, 4, seen)
    assert seen == [1, 2, 0, 1]
    assert set(counts(game.state)["tally"]) == {"rome"}


def test_the_count_is_in_the_save_and_a_loaded_game_goes_on_with_it(tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("tally", TALLY))
    game = new_game(rules, 3, seed=2)
    _give(game)
    _rounds(game, 1, [])
    saved = json.loads(game.snapshot().to_json())
    assert saved["vars"]["card_counts"] == {"tally": {"rome": 1}}
    loaded = load_game(rules, saved)
    seen: list[int] = []
    _rounds(loaded, 2, seen)
    assert seen == [2]


def test_a_count_multiplies_a_gain_with_per(tmp_path: Path) -> None:
    """'take 1 coin per this card's count': the count is a number a script may use."""
    rules = with_cards(tmp_path, ("tally", "after phase.end when the phase is military: "
                                  "add 2 to this card's count\n"
                                  "after phase.end when the phase is military: "
                                  "take 1 coin per this card's count"))
    assert "tally" in rules.effects


def test_a_count_out_of_range_is_refused_with_the_range(tmp_path: Path) -> None:
    with pytest.raises(MnrulesError, match="out of range"):
        with_cards(tmp_path, ("tally", "after phase.end: add 500 to this card's count"))
