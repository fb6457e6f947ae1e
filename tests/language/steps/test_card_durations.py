"""A card's power for a while (issue 35, item 5): ``this card works for N rounds`` (the
round it is said in is the first), ``this card works until the end of the round``,
``this card stops working``, the condition ``this card is working`` and the count
``rounds this card still works`` — words of the language, in every game, kept in the
state so saves and replays hold them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnrules import load_game, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.core.engine import Game
from mnrules.errors import MnrulesError
from test_card_scripts import guide_example, with_cards

ONCE = "after phase.start when the phase is trade and not this card's count reaches 1: "
STORE = "modify storage.coins when this card is working: add 3"


def _give(game: Game, card: str, holder: str = "rome") -> None:
    for pile in (game.state.display, game.state.display_hidden):
        if card in pile:
            pile.remove(card)
    game.state.tiles[holder].append(card)


def _fury(tmp_path: Path, script: str) -> Game:
    """A 3-player game (seed 2) in which Rome holds Fury, its script ``script``."""
    game = new_game(with_cards(tmp_path, ("fury", script)), 3, seed=2)
    _give(game, "fury")
    return game


def _kept_by_round(game: Game, rounds: int, holder: str = "rome") -> list[int]:
    """The coins ``holder`` keeps at the end of a build turn, read as each round's
    build phase begins, for rounds 1 to ``rounds``."""
    bot = RandomBot(5)
    seen: dict[int, int] = {}
    while game.pending is not None and game.state.round <= rounds:
        if game.state.phase == "build" and game.state.round not in seen:
            seen[game.state.round] = game.fold("storage.coins", 2, player=holder)
        game.apply(bot.choose(game))
    return [seen[r] for r in sorted(seen)]


def test_a_power_for_two_rounds_works_in_the_first_two_only(tmp_path: Path) -> None:
    """Said as round 1's trade begins: rounds 1 and 2 keep 5 coins, rounds 3 and 4 the
    rule's 2."""
    game = _fury(tmp_path, ONCE + "this card works for 2 rounds, "
                                  "add 1 to this card's count\n" + STORE)
    assert _kept_by_round(game, 4) == [5, 5, 2, 2]


def test_until_the_end_of_the_round_is_this_round_only(tmp_path: Path) -> None:
    game = _fury(tmp_path, ONCE + "this card works until the end of the "
                                  "round, add 1 to this card's count\n" + STORE)
    assert _kept_by_round(game, 3) == [5, 2, 2]


def test_a_power_stopped_works_no_more(tmp_path: Path) -> None:
    """Set for 5 rounds in round 1 (count 1), stopped at the military phase's end that
    finds the count at 3 (round 3's: each such end adds 1, and both rules read the
    count as the event found it): round 4 keeps 2."""
    game = _fury(tmp_path, ONCE + "this card works for 5 rounds, "
                                  "add 1 to this card's count\n" + STORE + "\n"
                                  "after phase.end when the phase is military: "
                                  "add 1 to this card's count\n"
                                  "after phase.end when the phase is military and this "
                                  "card's count reaches 3: this card stops working")
    assert _kept_by_round(game, 4) == [5, 5, 5, 2]


def test_the_rounds_left_are_a_count(tmp_path: Path) -> None:
    """'add 1 per rounds this card still works': 3 rounds said in round 1 read 3, 2, 1,
    then 0."""
    game = _fury(tmp_path, ONCE + "this card works for 3 rounds, "
                                  "add 1 to this card's count\n"
                                  "modify storage.coins: add 1 per rounds this card still "
                                  "works")
    assert _kept_by_round(game, 4) == [5, 4, 3, 2]


def test_a_card_nobody_set_going_does_not_work(tmp_path: Path) -> None:
    game = _fury(tmp_path, STORE)
    assert _kept_by_round(game, 2) == [2, 2]


def test_the_spell_is_in_the_save_and_a_loaded_game_keeps_it(tmp_path: Path) -> None:
    game = _fury(tmp_path, ONCE + "this card works for 2 rounds, "
                                  "add 1 to this card's count\n" + STORE)
    bot = RandomBot(5)
    while game.state.phase != "build":
        game.apply(bot.choose(game))
    saved = json.loads(game.snapshot().to_json())
    assert saved["vars"]["card_until"] == {"fury": {"rome": 2}}
    loaded = load_game(game.rules, saved)
    assert _kept_by_round(loaded, 3) == [5, 5, 2]


def test_a_duration_out_of_range_is_refused_with_the_range(tmp_path: Path) -> None:
    with pytest.raises(MnrulesError, match="out of range"):
        with_cards(tmp_path, ("fury", "after phase.end: this card works for 50 rounds"))


def test_the_guides_fury_compiles(tmp_path: Path) -> None:
    """docs/effect-language.md, "For a while": the example card as printed."""
    script = guide_example("For a while")
    assert "this card works for 2 rounds" in script
    assert "fury" in with_cards(tmp_path, ("fury", script)).cards
