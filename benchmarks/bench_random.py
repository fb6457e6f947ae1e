"""Random play speed: decisions per second and whole games per second, 5 players.

Run by hand (not a test): ``python benchmarks/bench_random.py [--games N] [--repeat R]``.
Prints the median of R repeats, each playing the same N seeded games, and the
load time of the rule set.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset


def play_games(rules: Ruleset, games: int, players: int, cap: int) -> tuple[int, int]:
    decisions = 0
    for seed in range(games):
        game = new_game(rules, players, seed=seed, round_cap=cap)
        bot = RandomBot(seed)
        while game.pending is not None:
            game.apply(bot.choose(game))
            decisions += 1
    return games, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--cap", type=int, default=100, help="round cap per game")
    args = ap.parse_args()
    t0 = time.perf_counter()
    rules = load_ruleset("en")
    load = time.perf_counter() - t0
    dps, gps = [], []
    for _ in range(args.repeat):
        t = time.perf_counter()
        games, decisions = play_games(rules, args.games, args.players, args.cap)
        dt = time.perf_counter() - t
        dps.append(decisions / dt)
        gps.append(games / dt)
    print(f"rule set load: {load * 1000:.1f} ms")
    print(f"random play, {args.players} players, {args.games} games x {args.repeat}: "
          f"median {statistics.median(dps):,.0f} decisions/s "
          f"(min {min(dps):,.0f}, max {max(dps):,.0f}); "
          f"median {statistics.median(gps):.2f} games/s; "
          f"{decisions / games:.0f} decisions per game")


if __name__ == "__main__":
    main()
