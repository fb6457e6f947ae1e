"""A battle's dice are drawn by ``Game.chances`` (one call per side) instead of one
``Game.chance`` per die: the same draws from the generator, the same forced outcomes
and the same ``chance`` events, on many seeds; and seeded games whose battles roll die
by die, as before, end as they do now (choices, final state and generator)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import mare_nostrum.battle as battle
from mnrules import Game, new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event

FACES: list[tuple[Any, ...]] = [(0, 1, 2, 3, 4, 5), (7,), (1, 2), tuple(range(13)),
                                ("a", "b", "c")]


def twin(rules: Ruleset, seed: int) -> tuple[Game, Game]:
    one, two = new_game(rules, 3, seed=seed), new_game(rules, 3, seed=seed)
    one.rng.seed(seed * 7919 + 1)
    two.rng.seed(seed * 7919 + 1)
    return one, two


@pytest.mark.parametrize("listening", [False, True])
def test_chances_draw_as_chance_draws(rules: Ruleset, listening: bool) -> None:
    pick = random.Random(15)
    for seed in range(200):
        one, two = twin(rules, seed)
        heard: tuple[list[Event], list[Event]] = ([], [])
        if listening:
            one.listeners.append(heard[0].append)
            two.listeners.append(heard[1].append)
        for j in range(5):
            faces = pick.choice(FACES)
            label = f"die {j}"   # (forced outcomes left over stay with their own label)
            n = pick.randint(-1, 9)
            if pick.random() < 0.3:   # a scenario's forced outcomes, fewer than the dice
                forced = [pick.choice(faces) for _ in range(pick.randint(0, 4))]
                one.force(label, forced)
                two.force(label, forced)
            got = one.chances(label, faces, n)
            assert got == [two.chance(label, faces) for _ in range(n)]
            assert one.rng.getstate() == two.rng.getstate()
            assert one.state.vars == two.state.vars
        assert [(e.kind, e.data) for e in heard[0]] == [(e.kind, e.data) for e in heard[1]]
        assert bool(heard[0]) == listening


def old_roll(game: Game, side: battle.Side, faces: Any, kind: str) -> list[int]:
    return [game.chance(f"{kind} die", faces) for _ in range(side.dice)]


def play(rules: Ruleset, seed: int) -> tuple[list[Any], dict[str, Any], Any]:
    game = new_game(rules, 5, seed=seed, round_cap=30)
    bots = {p: make_bot("random", seed=seed + i) for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None:
        game.apply(bots[dec.player].choose(game))
    return list(game.history), game.state.to_dict(), game.rng.getstate()


@pytest.mark.skipif(not battle.__file__.endswith(".py"),
                    reason="a compiled module's function is not patched")
def test_games_rolling_die_by_die_end_alike(rules: Ruleset,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    now = [play(rules, seed) for seed in range(6)]
    monkeypatch.setattr(battle, "roll", old_roll)
    assert [play(rules, seed) for seed in range(6)] == now
