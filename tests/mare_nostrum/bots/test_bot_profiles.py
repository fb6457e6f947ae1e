"""Strategy profiles: a heuristic bot's style is one of the game's inputs
(``heuristic:conqueror``), chosen per empire, and changes how it plays."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mare_nostrum.bots.heuristic import HeuristicBot
from mare_nostrum.bots.profiles import PROFILES
from mnrules import new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset
from mnrules.errors import MnrulesError
from mnrules.tools import simulate as sim

MIXED = ("heuristic:conqueror", "heuristic:builder", "heuristic:trader",
         "heuristic:balanced", "search:2")


def test_every_profile_is_a_bot_name(rules: Ruleset) -> None:
    for name in PROFILES:
        bot = make_bot(f"heuristic:{name}", 1, rules)
        assert isinstance(bot, HeuristicBot) and bot.profile.name == name
    plain = make_bot("heuristic", 1, rules)
    assert isinstance(plain, HeuristicBot) and plain.profile.name == "balanced"


def test_a_misspelt_profile_is_refused_with_a_suggestion(rules: Ruleset) -> None:
    with pytest.raises(MnrulesError, match=r"conquerer.*did you mean 'conqueror'"):
        make_bot("heuristic:conquerer", 1, rules)
    with pytest.raises(MnrulesError, match="known: balanced, builder, trader, conqueror"):
        make_bot("heuristic:zzz", 1, rules)


def test_mixed_bots_play_the_same_game_alone_and_in_a_batch() -> None:
    jobs = [replace(j, round_cap=4) for j in sim.jobs_for("en", None, 5, 3, 7, MIXED)]
    batch = sim.run(jobs, workers=1)
    alone = sim.play_one(jobs[2])
    assert alone.history == batch[2].history and alone.state_hash == batch[2].state_hash
    assert len({r.history for r in batch}) == 3


def test_the_profile_is_part_of_the_game() -> None:
    base = replace(sim.jobs_for("en", None, 5, 1, 7, ["heuristic:builder"])[0], round_cap=4)
    other = replace(base, bots=("heuristic:conqueror",))
    assert sim.play_one(base).history != sim.play_one(other).history


def _land_battles(rules: Ruleset, name: str, seed: int) -> int:
    game = new_game(rules, 5, seed=seed, round_cap=5)
    bots = {p: make_bot(name, seed * 10 + i, rules)
            for i, p in enumerate(game.state.players)}
    fights = []
    game.listeners.append(lambda e: fights.append(e) if e.kind == "battle" else None)
    while (dec := game.pending) is not None:
        game.apply(bots[dec.player].choose(game))
    return len(fights)


def test_conquerors_fight_more_than_builders(rules: Ruleset) -> None:
    seeds = (11, 12)
    conquer = sum(_land_battles(rules, "heuristic:conqueror", s) for s in seeds)
    build = sum(_land_battles(rules, "heuristic:builder", s) for s in seeds)
    assert conquer > build
