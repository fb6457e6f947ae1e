"""Bot speed and strength, run by hand (not a test).

``python benchmarks/bench_bots.py [--games N] [--repeat R] [--search-games M]
[--iterations I]`` prints, on one core:

* heuristic play at 5 players (round cap 60): the median over R repeats of games per
  second and decisions per second (bots and engine together), each repeat playing the
  same N seeded games, and how those games ended;
* one search bot (``search:I``) against four heuristic bots at 5 players, the search
  bot's seat rotated, over M seeded games: its share of the wins (a shared victory
  counts as a share) with a 95% Wilson interval; a fair share would be 0.2.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter

from mnrules import load_ruleset, new_game
from mnrules.bots import Bot, make_bot
from mnrules.content.ruleset import Ruleset


def heuristic_games(rules: Ruleset, games: int, players: int, cap: int
                    ) -> tuple[int, Counter[str]]:
    decisions = 0
    ends: Counter[str] = Counter()
    for seed in range(games):
        game = new_game(rules, players, seed=seed, round_cap=cap)
        bots = {p: make_bot("heuristic", seed * 10 + i, rules)
                for i, p in enumerate(game.state.players)}
        while (dec := game.pending) is not None:
            game.apply(bots[dec.player].choose(game))
            decisions += 1
        ends[game.state.victory] += 1
    return decisions, ends


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return centre - half, centre + half


def head_to_head(rules: Ruleset, games: int, iterations: int, players: int, cap: int,
                 first_seed: int) -> tuple[float, int]:
    wins = 0.0
    for k in range(games):
        seed = first_seed + k
        game = new_game(rules, players, seed=seed, round_cap=cap)
        hero = game.state.players[seed % players]
        bots: dict[str, Bot] = {
            p: make_bot(f"search:{iterations}" if p == hero else "heuristic", seed * 100 + i,
                        rules)
            for i, p in enumerate(game.state.players)}
        while (dec := game.pending) is not None:
            game.apply(bots[dec.player].choose(game))
        if hero in game.state.winners:
            wins += 1 / len(game.state.winners)
    return wins, games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10, help="heuristic games per repeat")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--cap", type=int, default=60, help="round cap per game")
    ap.add_argument("--search-games", type=int, default=10,
                    help="search-vs-heuristic games (0 to skip)")
    ap.add_argument("--iterations", type=int, default=16, help="search iterations")
    ap.add_argument("--first-seed", type=int, default=1000)
    args = ap.parse_args()
    rules = load_ruleset("en")
    heuristic_games(rules, 2, args.players, args.cap)  # warm the caches
    gps, dps = [], []
    ends: Counter[str] = Counter()
    for _ in range(args.repeat):
        t = time.perf_counter()
        decisions, ends = heuristic_games(rules, args.games, args.players, args.cap)
        dt = time.perf_counter() - t
        gps.append(args.games / dt)
        dps.append(decisions / dt)
    print(f"heuristic, {args.players} players, {args.games} games x {args.repeat}: "
          f"median {statistics.median(gps):.2f} games/s "
          f"(min {min(gps):.2f}, max {max(gps):.2f}); "
          f"median {statistics.median(dps):,.0f} decisions/s; "
          f"endings {dict(ends)}")
    if args.search_games > 0:
        t = time.perf_counter()
        wins, n = head_to_head(rules, args.search_games, args.iterations, args.players,
                               args.cap, args.first_seed)
        lo, hi = wilson(wins, n)
        dt = time.perf_counter() - t
        print(f"search:{args.iterations} vs {args.players - 1} heuristic, {n} games: "
              f"{wins:g} wins = {wins / n:.3f} (95% Wilson [{lo:.3f}, {hi:.3f}]; "
              f"a fair share is {1 / args.players:.3f}); {dt / n:.1f} s per game")


if __name__ == "__main__":
    main()
