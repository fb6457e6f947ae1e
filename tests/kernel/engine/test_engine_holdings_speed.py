"""A card is asked at a fold, an event or a listing of build offers only if someone has
its power (``Game._held``, issue 15's eighth round): the game's index of who holds what
follows every change of the tiles, however made, and steps aside while anyone copies a
card (Castor & Pollux), so every answer is the one asking every card would give."""

from __future__ import annotations

from typing import Any

import pytest

from mare_nostrum.build import legal_actions
from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from mnrules.core.engine import Game
from mnrules.hooks.hookspecs import hookimpl


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
                assert asking_every_card(game, lambda p=p: offers(game.ask(
                    "mn_build_offers", p))) == fast[1]   # (through pluggy: the same)
            checked += 1
        game.apply(bot.choose(game))
    assert any(game.state.tiles[p] for p in game.state.players)


class Spy:
    """A card as the game sees one — its id and whose holding of it matters (``key``:
    the fold's context key or "*" for the event's player; "" for anyone) — with a fold
    and a trigger that only count who they were asked for."""

    MODIFIES = frozenset({"storage.goods"})
    TRIGGERED_BY = frozenset({"built"})
    card_id = "spy"
    others = ()

    def __init__(self, key: str) -> None:
        self.key = key
        self.asked: list[Any] = []

    def card_holder_key(self, hook: str, name: str) -> str:
        return self.key if hook == "mn_modifiers" or self.key == "" else "*"

    @hookimpl
    def mn_modifiers(self, game: Game[Any], quantity: str, ctx: dict[str, Any]) -> None:
        self.asked.append(ctx.get("player"))

    @hookimpl
    def mn_triggers(self, game: Game[Any], event: Event) -> None:
        self.asked.append(event.player)

    @hookimpl
    def mn_build_offers(self, game: Game[Any], player: str) -> list[Any]:
        self.asked.append(("offers", player))
        return []


BUILT = {"action": ["legion", "LATIUM"], "paid": []}


def spied(fresh_rules: Any, key: str) -> tuple[Game[Any], Spy]:
    rules = fresh_rules("en")
    spy = Spy(key)
    rules.pm.register(spy, name="card:spy")
    return new_game(rules, 5, seed=2), spy


def test_a_card_is_not_asked_for_a_player_who_does_not_hold_it(fresh_rules: Any) -> None:
    game, spy = spied(fresh_rules, "player")
    for p in game.state.players:
        storage(game, p)
    assert spy.asked == []                      # nobody holds it
    game.state.tiles["rome"].append("spy")
    for p in game.state.players:
        storage(game, p)
    assert spy.asked == ["rome"]                # asked for its holder alone
    game.perform(Event("built", "egypt", BUILT), lambda e: None)
    game.perform(Event("built", "rome", BUILT), lambda e: None)
    assert spy.asked == ["rome", "rome"]        # and for his own event alone
    for p in game.state.players:
        game.ask("mn_build_offers", p)
    assert spy.asked[2:] == [("offers", "rome")]   # and for his own build offers


def test_a_card_registered_during_a_game_is_asked(fresh_rules: Any) -> None:
    game, spy = spied(fresh_rules, "player")
    game.state.tiles["rome"].append("spy")
    game.ask("mn_build_offers", "rome")
    later = Spy("player")
    later.card_id = "later"
    game.rules.pm.register(later, name="card:later")
    game.state.tiles["rome"].append("later")
    game.ask("mn_build_offers", "rome")
    storage(game, "rome")
    assert later.asked == [("offers", "rome"), "rome"]
    assert spy.asked == [("offers", "rome")] * 2 + ["rome"]


def test_a_card_answering_for_anyone_is_asked_while_someone_holds_it(
        fresh_rules: Any) -> None:
    game, spy = spied(fresh_rules, "")
    storage(game, "egypt")
    game.perform(Event("built", "egypt", BUILT), lambda e: None)
    assert spy.asked == []
    game.state.tiles["rome"].append("spy")
    storage(game, "egypt")
    game.perform(Event("built", "egypt", BUILT), lambda e: None)
    assert spy.asked == ["egypt", "egypt"]      # anyone's fold and event, Rome holding it
    game.state.tiles["rome"].remove("spy")
    storage(game, "egypt")
    assert spy.asked == ["egypt", "egypt"]


def test_every_card_is_asked_while_a_copy_is_at_work(fresh_rules: Any) -> None:
    game, spy = spied(fresh_rules, "player")
    game.state.vars["copies"] = {"greece": ["caesar"]}
    storage(game, "egypt")
    assert spy.asked == ["egypt"]
