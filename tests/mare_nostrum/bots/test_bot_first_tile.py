"""Issue 14's third step: a profile's ``first_tile`` counts the first hero or wonder a
bot buys above the evaluation's step to two (``heuristic:opener``; the default bot
counts it at the step alone)."""

from __future__ import annotations

from mare_nostrum.bots import evaluate as ev
from mare_nostrum.bots.common import Memo
from mare_nostrum.bots.heuristic import HeuristicBot
from mare_nostrum.bots.profiles import DEFAULT, profile
from mnrules import new_game
from mnrules.content.ruleset import Ruleset


def test_only_the_first_bought_tile_is_worth_more() -> None:
    first = profile("opener").first_tile
    assert first > 0 and DEFAULT.first_tile == 0
    steps = [ev.hw_worth(n + 1, first) - ev.hw_worth(n, first) for n in range(5)]
    plain = [ev.HW_VALUE[n + 1] - ev.HW_VALUE[n] for n in range(5)]
    assert steps[1] == plain[1] + first
    assert [s for i, s in enumerate(steps) if i != 1] == [s for i, s in enumerate(plain) if i != 1]
    assert ev.hw_worth(9, first) == ev.hw_worth(5, first)


def test_a_memo_keeps_apart_what_two_profiles_make_of_the_display(rules: Ruleset) -> None:
    """The purchase targets read the profile's first tile: one memo asked for both
    answers as each profile would be answered afresh."""
    game = new_game(rules, 4, seed=11)
    memo = Memo()
    for p in game.state.players:
        for first in (0.0, profile("opener").first_tile):
            assert ev.targets(game, p, memo, first) == ev.targets(game, p, first=first)
    p = game.state.players[0]
    assert ev.hw_count(game, p) == 1   # the starting hero: the next tile is the first bought
    assert ev.targets(game, p, first=2.0) != ev.targets(game, p)


def test_the_default_and_the_opener_weigh_options_apart(rules: Ruleset) -> None:
    """The profile's first tile reaches the bot's scores."""
    game = new_game(rules, 3, seed=5, round_cap=2)
    new = HeuristicBot(1, profile("opener"))
    old = HeuristicBot(1)
    differ = 0
    while (dec := game.pending) is not None:
        if len(dec.options) > 1 and new.scores(game) != old.scores(game):
            differ += 1
        game.apply(new.choose(game))
    assert differ > 0
