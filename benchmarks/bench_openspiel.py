"""OpenSpiel's own MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``) in one seat among
our bots, its seat rotated over every seat, through ``mnrules.openspiel`` (issue 32's
comparison): its win rate with a Wilson 95% interval and its CPU time a decision.

    python benchmarks/bench_openspiel.py mare_nostrum 5 40 heuristic 32
    python benchmarks/bench_openspiel.py antike2 4 40 heuristic 32 random

Arguments: game, players, games, our bot in the other seats, OpenSpiel's simulations a
decision, and its evaluator: ``policy`` (default: a leaf is valued by the game's own
search policy, the heuristic's estimate of each seat's chance to win, as our ``mcts:N``
values it) or ``random`` (OpenSpiel's random rollout to the end, one a leaf). OpenSpiel's
MCTS reads the state object itself, hidden information included: it is a perfect-
information search, an advantage our ``mcts:N`` (which imagines what it cannot see) has
not. Seeds 1000 + i, as ``bench_search.py``'s.
"""

from __future__ import annotations

import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import mnrules.openspiel
from mnrules.agents import NativeSeat
from mnrules.bots import make_bot
from mnrules.tools.simulate import wilson


class PolicyEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """A leaf's value for every seat: the game's search policy's estimate (``values``)."""

    def __init__(self, rules: Any, players: int) -> None:
        assert rules.definition.search_policy is not None
        self.policy = rules.definition.search_policy(rules=rules, seed=1)
        self.players = players

    def evaluate(self, state: Any) -> Any:
        if state.is_terminal():
            return np.array(state.returns())
        values = self.policy.values(state.table.game)
        return np.array([values.get(p, 0.0) for p in state.table.seats])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def one(args: tuple[str, int, str, int, str, int]) -> tuple[float, float, int]:
    name, players, ours, sims, kind, i = args
    game = pyspiel.load_game("mnrules", {"game": name, "players": players,
                                         "seed": 1000 + i, "max_rounds": 60})
    rules = mnrules.openspiel.rules_for(game=name)
    rng = np.random.RandomState(i)
    evaluator = (mcts.RandomRolloutEvaluator(1, rng) if kind == "random"
                 else PolicyEvaluator(rules, players))
    theirs = mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=rng)
    seat = i % players
    bots = {s: NativeSeat(make_bot(ours, 17 * i + s, rules))
            for s in range(players) if s != seat}
    state = game.new_initial_state()
    cpu, mine, last = 0.0, 0, None
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        if player == seat:
            t = time.process_time()
            action = theirs.step(state)
            cpu += time.process_time() - t
            choices = state.table.game.state.choices
            if choices != last:     # a decision, however many tokens it takes
                mine, last = mine + 1, choices
        else:
            action = bots[player].token(state.table)
        state.apply_action(action)
    return state.returns()[seat], cpu, mine


STOPPED: list[int] = []


def stop(signum: int, frame: Any) -> None:
    STOPPED.append(signum)


def main() -> None:
    if len(sys.argv) < 4 or not (sys.argv[2].isdigit() and sys.argv[3].isdigit()):
        print(__doc__)
        sys.exit(0 if "--help" in sys.argv or "-h" in sys.argv else 2)
    name, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    ours = sys.argv[4] if len(sys.argv) > 4 else "heuristic"
    sims = int(sys.argv[5]) if len(sys.argv) > 5 else 32
    kind = sys.argv[6] if len(sys.argv) > 6 else "policy"
    res: list[tuple[float, float, int]] = []
    ex = ProcessPoolExecutor(2)
    # each game to stderr as it ends; a kill (SIGTERM: a run in the background ignores
    # SIGINT) stops the run and gives the line over the games done so far
    signal.signal(signal.SIGTERM, stop)
    jobs = {ex.submit(one, (name, players, ours, sims, kind, i)): i for i in range(games)}
    left = set(jobs)
    while left and not STOPPED:
        done, left = wait(left, timeout=2, return_when=FIRST_COMPLETED)
        for job in done:
            res.append(job.result())
            print(f"game {jobs[job]} (seed {1000 + jobs[job]}): return {res[-1][0]:.2f}, "
                  f"{res[-1][2]} decisions, {res[-1][1]:.1f} s CPU; {len(res)}/{games} "
                  f"done, {sum(r[0] for r in res):.1f} won", file=sys.stderr, flush=True)
    stopped = f" (stopped after {len(res)} of {games} games)" if left else ""
    if left:
        for process in list(getattr(ex, "_processes", {}).values()):
            process.kill()
    ex.shutdown(wait=not left, cancel_futures=True)
    if not res:
        sys.exit(1)
    wins = sum(r[0] for r in res)
    cpu = sum(r[1] for r in res)
    decisions = sum(r[2] for r in res)
    n = len(res)
    p = wins / n
    low, high = wilson(wins, n)  # type: ignore[arg-type]  # wins count shared ones as shares
    print(f"OpenSpiel MCTS ({sims} simulations, {kind} evaluator) among {players - 1} "
          f"{ours} on {name}: {wins:.1f}/{n} = {100 * p:.1f}% "
          f"[{100 * low:.1f}, {100 * high:.1f}], "
          f"{1000 * cpu / max(decisions, 1):.1f} ms a decision{stopped}")


if __name__ == "__main__":
    main()
