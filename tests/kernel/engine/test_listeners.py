"""Watching a game: a listener that names the events it wants is told those only, and
one that keeps nothing reads them uncopied; the game itself is the same, die for die."""

from __future__ import annotations

from mnrules import new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from mnrules.core.engine import Listener


def _played(rules: Ruleset, *listeners: object) -> str:
    game = new_game(rules, 5, seed=11)
    game.listeners.extend(listeners)  # type: ignore[arg-type]
    bot = RandomBot(3)
    while game.pending is not None and game.state.round <= 3:
        game.apply(bot.choose(game))
    return game.snapshot().to_json()


def test_a_listener_is_told_only_the_kinds_it_wants(rules: Ruleset) -> None:
    everything: list[Event] = []
    starts: list[Event] = []
    _played(rules, everything.append, Listener(starts.append, kinds=("phase_start",)))
    assert starts and all(e.kind == "phase_start" for e in starts)
    assert starts == [e for e in everything if e.kind == "phase_start"]
    assert any(e.kind == "chance" for e in everything)   # the dice, to whoever asks


def test_the_dice_make_no_event_nobody_wants_and_the_game_is_the_same(
        rules: Ruleset) -> None:
    made: list[str] = []
    quiet = _played(rules, Listener(lambda e: made.append(e.kind), kinds=("phase_start",)))
    heard: list[str] = []
    loud = _played(rules, lambda e: heard.append(e.kind))
    assert quiet == loud == _played(rules)
    assert "chance" in heard and "chance" not in made


def test_a_listener_that_keeps_nothing_reads_the_event_uncopied(rules: Ruleset) -> None:
    kept: list[Event] = []
    read: list[Event] = []
    _played(rules, Listener(kept.append, kinds=("phase_start",)),
            Listener(read.append, kinds=("phase_start",), keeps=False))
    assert kept == read
    # the keeping one got a copy of its own, the reading one the game's own event
    assert all(a is not b and a.data is not b.data for a, b in zip(kept, read, strict=True))
