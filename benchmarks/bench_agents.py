"""The cost of one adapter step (mnrules.openspiel) against one native ``game.apply``,
and OpenSpiel's MCTS against our players: ``python benchmarks/bench_agents.py``."""

from __future__ import annotations

import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import mnrules.openspiel
from mnrules import new_game
from mnrules.agents import NativeSeat, Table
from mnrules.bots import make_bot
from mnrules.bots.random_bot import RandomBot

TTT = str(Path(__file__).parent.parent / "tests" / "kernel" / "tictactoe" / "pack.yaml")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def step_cost(pack: str, players: int, cap: int, seeds: range) -> tuple[float, float]:
    """Median seconds per native choice and per adapter choice (all its tokens and
    chance nodes), the same random choices."""
    rules = mnrules.openspiel.rules_for(pack=pack)
    native_t, adapter_t = [], []
    for seed in seeds:
        bot = RandomBot(seed)
        g = new_game(rules, players, seed=seed, round_cap=cap)
        choices = []
        t0 = time.perf_counter()
        while g.pending is not None:
            c = bot.choose(g)
            choices.append(c)
            g.apply(c)
        native_t.append((time.perf_counter() - t0) / max(1, len(choices)))
        table = Table(rules, players, seed, round_cap=cap)
        rng = np.random.default_rng(seed)
        t0 = time.perf_counter()
        n = 0
        while not table.over:
            if table.chance is not None:
                table.pick(int(rng.integers(len(table.chance[1]))))
                continue
            assert table.game is not None
            c = bot.choose(table.game)
            while True:
                table.legal()
                table.give(table.codec.spell(c)[len(table.prefix)])
                if not table.prefix:
                    break
            n += 1
        adapter_t.append((time.perf_counter() - t0) / max(1, n))
    return statistics.median(native_t), statistics.median(adapter_t)


def versus(params: dict[str, object], games: int, sims: int, ours: str) -> list[float]:
    """MCTS in seat 0 (rotated through the seats), ``ours`` elsewhere: MCTS's returns."""
    game = pyspiel.load_game("mnrules", params)
    rules = game.rules
    n = game.num_players()
    got = []
    for k in range(games):
        seat = k % n
        bot = mcts.MCTSBot(game, 2.0, sims,
                           mcts.RandomRolloutEvaluator(1, np.random.RandomState(k)),
                           random_state=np.random.RandomState(k))
        others = {s: NativeSeat(make_bot(ours, k * 10 + s, rules))
                  for s in range(n) if s != seat}
        rng = np.random.RandomState(k)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                o, p = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(o, p=p)))
            elif state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(others[state.current_player()].token(state.table))
        got.append(state.returns()[seat])
    return got


def main() -> None:
    for pack, players, cap in (("en", 5, 3), ("antike2", 4, 6)):
        native, adapter = step_cost(pack, players, cap, range(5))
        print(f"{pack}: native apply {native * 1e6:.0f} µs/choice, adapter "
              f"{adapter * 1e6:.0f} µs/choice (x{adapter / native:.1f}), medians of 5 games")
    rows = [("tic-tac-toe", {"pack": TTT}, 20, 200, "random"),
            ("tic-tac-toe", {"pack": TTT}, 20, 200, "mcts:200"),
            ("mare_nostrum 3p, 1 round", {"game": "mare_nostrum", "players": 3,
                                          "max_rounds": 1}, 3, 4, "heuristic"),
            ("antike2 3p, 3 rounds", {"game": "antike2", "players": 3, "max_rounds": 3},
             3, 4, "heuristic")]
    if "--quick" in sys.argv:
        rows = rows[:1]
    print("| game | vs | games | MCTS sims | MCTS mean return | 95% Wilson of its wins |")
    print("|---|---|---|---|---|---|")
    for name, params, games, sims, ours in rows:
        r = versus(params, games, sims, ours)
        score = sum(r)
        lo, hi = wilson(round(score), games)
        print(f"| {name} | {ours} | {games} | {sims} | {score / games:.2f} | "
              f"[{lo:.2f}, {hi:.2f}] |")


if __name__ == "__main__":
    main()
