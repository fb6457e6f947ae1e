"""The kernel's games as PettingZoo AEC environments: the API test passes, a random
policy plays to the end, chance comes from the seeded generator."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402

from mnrules import load_ruleset, new_game  # noqa: E402
from mnrules.pettingzoo import env  # noqa: E402

TTT = str(Path(__file__).parent.parent / "kernel" / "tictactoe" / "pack.yaml")
GAMES: list[dict[str, Any]] = [{"pack": TTT},
                               {"game": "antike2", "players": 4, "max_rounds": 3},
                               {"game": "mare_nostrum", "players": 3, "max_rounds": 2}]


@pytest.mark.parametrize("kw", GAMES)
def test_the_api_test_passes(kw: dict[str, Any]) -> None:
    api_test(env(**kw), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("kw", GAMES)
def test_a_random_policy_plays_to_the_end(kw: dict[str, Any]) -> None:
    e = env(**kw)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    for agent in e.agent_iter(max_iter=100_000):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) and e.agent_selection == agent
        e.step(int(rng.choice(legal)))
        steps += 1
    assert not e.agents and e.game.pending is None and steps > 0


def test_first_options_replay_the_native_seeded_game() -> None:
    """Chance inside the environment is the seed's: the same choices give the native game."""
    e = env(game="mare_nostrum", players=3, max_rounds=2)
    e.reset(seed=5)
    for _agent in e.agent_iter(max_iter=100_000):
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    native = new_game(load_ruleset("en"), 3, seed=5, round_cap=2)
    for option in e.game.history:
        native.apply(tuple(option) if isinstance(option, tuple) else option)
    assert native.snapshot().to_dict() == e.game.snapshot().to_dict()
