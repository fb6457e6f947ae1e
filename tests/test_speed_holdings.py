"""A card is asked at a fold, an event or a listing of build offers only if someone has
its power (``Game._held``, issue 15's eighth round): the game's index of who holds what
follows every change of the tiles, however made, and steps aside while anyone copies a
card (Castor & Pollux), so every answer is the one asking every card would give."""

from __future__ import annotations

from typing import Any

import pytest

from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.engine import Game
from mnrules.ruleset import Ruleset
from plugins.mare_nostrum.build import legal_actions


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset("en")


def storage(game: Game[Any], player: str) -> int:
    return int(game.fold("storage.goods", 0, player=player))


def offers(answers: list[Any]) -> list[Any]:
    """The offers in the hook's answers (a card's is a list, empty if it has none)."""
    return [o for a in answers for o in (a if isinstance(a, list) else [a])]


def asking_every_card(game: Game[Any], run: Any) -> Any:
    """What ``run`` gives with every card asked: pluggy's own calls, no index."""
    bus = game.rules.pm
    bus.flat = False
    try:
        return run()
    finally:
        bus.flat = True


def test_a_wonder_written_onto_a_screen_acts_at_the_next_fold(rules: Ruleset) -> None:
    """The Hanging Gardens let their owner keep two goods more: put in Rome's tiles by
    hand, between two folds, they count at once, and for Rome alone; taken away, no more."""
    game = new_game(rules, 5, seed=3)
    assert [storage(game, p) for p in game.state.players] == [0] * 5
    game.state.tiles["rome"].append("hanging_gardens")
    assert storage(game, "rome") == 2
    assert [storage(game, p) for p in game.state.players if p != "rome"] == [0] * 4
    game.state.tiles["rome"].remove("hanging_gardens")
    assert storage(game, "rome") == 0
    game.state.tiles["egypt"] = [*game.state.tiles["egypt"], "hanging_gardens"]
    assert storage(game, "egypt") == 2 and storage(game, "rome") == 0


def test_a_copy_of_a_card_acts_for_its_copier(rules: Ruleset) -> None:
    """Nobody holds the Gardens, but Greece copied them: the index cannot say so, and
    the card is asked (its power acts for Greece)."""
    game = new_game(rules, 5, seed=3)
    assert storage(game, "greece") == 0
    game.state.vars["copies"] = {"greece": ["hanging_gardens"]}
    assert storage(game, "greece") == 2 and storage(game, "rome") == 0
    del game.state.vars["copies"]
    assert storage(game, "greece") == 0


def test_a_new_seat_is_indexed(rules: Ruleset) -> None:
    game = new_game(rules, 3, seed=1)
    seated = game.state.players[0]
    assert storage(game, seated) == 0
    game.state.tiles["Nobody"] = ["hanging_gardens"]
    assert storage(game, "Nobody") == 0   # not a player: holds nothing
    game.state.players.append("Nobody")
    assert storage(game, "Nobody") == 2


@pytest.mark.parametrize("seed", [0, 4, 9])
def test_listings_and_offers_equal_asking_every_card(rules: Ruleset, seed: int) -> None:
    """Along random games, every player's build listing (its cost and payment folds) and
    build offers, asked now, equal what they are with every card asked."""
    game = new_game(rules, 5, seed=seed, round_cap=60)
    bot = RandomBot(seed)
    checked = 0
    while game.pending is not None and checked < 40:
        if game.state.choices % 23 == 0:
            for p in game.state.players:
                fast = (legal_actions(game, p), offers(game.ask("mn_build_offers", p)))
                slow = asking_every_card(game, lambda p=p: (
                    legal_actions(game, p), offers(game.rules.pm.call(
                        "mn_build_offers", game=game, player=p))))
                assert fast == slow
            checked += 1
        game.apply(bot.choose(game))
    assert any(game.state.tiles[p] for p in game.state.players)
