"""A temperature makes the heuristic bots' play vary with their seed (issue 31): at 0 a
game is the bot's own, choice for choice; above 0 the first round differs from seed to
seed, a fixed seed plays the same game twice, and a game saved and loaded mid-way goes
on as the uninterrupted one (the draw is a pure function of the seed and the game's
choice count). Both games' bots."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mnrules import load_game, load_ruleset, new_game
from mnrules.bots import make_bot
from mnrules.bots.settings import softmax_pick
from mnrules.content.ruleset import Ruleset
from mnrules.errors import MnrulesError


def _play(rules: Ruleset, bot: str, seed: int, players: int, decisions: int,
          game: Any = None) -> tuple[list[Any], Any]:
    game = game or new_game(rules, players, seed=seed)
    bots = {p: make_bot(bot, seed * 1009 + i, rules)
            for i, p in enumerate(game.state.players)}
    out = []
    while (dec := game.pending) is not None and len(out) < decisions:
        choice = bots[dec.player].choose(game)
        out.append((dec.player, dec.kind, choice))
        game.apply(choice)
    return out, game


@pytest.fixture(scope="module")
def fr() -> Ruleset:
    return load_ruleset("fr")


@pytest.fixture(scope="module")
def a2() -> Ruleset:
    return load_ruleset("antike2")


def test_the_draw_is_a_softmax_over_the_best_options() -> None:
    scores = {"a": 10.0, "b": 9.0, "c": 0.0, "d": -5.0, "e": -100.0}
    opts = tuple(scores)
    rng = random.Random(1)
    assert softmax_pick(opts, scores, 0.0, rng) is None           # T=0: the bot's own
    assert softmax_pick(("a",), {"a": 1.0}, 0.5, rng) is None     # nothing to draw among
    drawn = [softmax_pick(opts, scores, 0.5, random.Random(i)) for i in range(400)]
    assert "e" not in drawn                                       # only the best four
    assert drawn.count("a") > drawn.count("b") > drawn.count("d")
    cold = [softmax_pick(opts, scores, 0.005, random.Random(i)) for i in range(100)]
    assert set(cold) == {"a"}


@pytest.mark.parametrize("bot", ["heuristic:balanced+temperature=0", "heuristic:temperature=0"])
def test_at_zero_the_game_is_the_default_bots(fr: Ruleset, bot: str) -> None:
    assert _play(fr, "heuristic", 3, 4, 150)[0] == _play(fr, bot, 3, 4, 150)[0]


def test_above_zero_the_opening_varies_with_the_seed_and_repeats_for_one(fr: Ruleset) -> None:
    def opening(bot: str, seed: int) -> list[Any]:
        # the same table each time (the game's seed), the bots' seeds differing
        game = new_game(fr, 4, seed=1)
        bots = {p: make_bot(bot, seed * 1009 + i, fr)
                for i, p in enumerate(game.state.players)}
        out = []
        while (dec := game.pending) is not None and game.state.round == 1:
            choice = bots[dec.player].choose(game)
            out.append(choice)
            game.apply(choice)
        return out
    cold = {str(opening("heuristic", s)) for s in range(4)}
    warm = [opening("heuristic:+temperature=0.2", s) for s in range(4)]
    assert len(cold) == 1                     # every tile face up: one opening
    assert len({str(w) for w in warm}) > 1
    assert opening("heuristic:+temperature=0.2", 2) == warm[2]


def test_a_saved_game_goes_on_as_it_would_have(fr: Ruleset) -> None:
    bot = "heuristic:trader+temperature=0.3"
    whole, _ = _play(fr, bot, 5, 4, 120)
    first, game = _play(fr, bot, 5, 4, 60)
    loaded = load_game(fr, game.snapshot())
    rest, _ = _play(fr, bot, 5, 4, 60, loaded)
    assert first + rest == whole


def test_antike2_takes_the_settings_in_its_name(a2: Ruleset) -> None:
    from antike2.bots.heuristic import HeuristicBot

    bot = make_bot("heuristic:balanced+temperature=0.25", 1, a2)
    assert isinstance(bot, HeuristicBot) and bot.settings.temperature == 0.25
    assert make_bot("heuristic:+temperature=0.5", 1, a2).settings.temperature == 0.5  # type: ignore[attr-defined]
    for wrong, said in (("balancd", "unknown profile 'balancd'; did you mean 'balanced'"),
                        ("+temprature=1", "unknown setting 'temprature'; did you mean "
                                          "'temperature'"),
                        ("+temperature=-1", "give a number of at least 0"),
                        ("+temperature=1+temperature=2", "set twice")):
        with pytest.raises(MnrulesError, match=said):
            make_bot(f"heuristic:{wrong}", 1, a2)


def test_antike2_varies_above_zero_and_goes_on_after_a_save(a2: Ruleset) -> None:
    cold = {str(_play(a2, "heuristic", 1, 3, 25)[0]) for _ in range(2)}
    assert len(cold) == 1
    bot = "heuristic:+temperature=0.5"
    runs = {str(_play(a2, bot, s, 3, 25)[0]) for s in (1, 2, 3)}
    assert len(runs) > 1
    whole, _ = _play(a2, bot, 2, 3, 30)
    first, game = _play(a2, bot, 2, 3, 15)
    rest, _ = _play(a2, bot, 2, 3, 15, load_game(a2, game.snapshot()))
    assert first + rest == whole
