"""The two games side by side: whole random 4-player games per second of Antike II and
of Mare Nostrum, and decisions per second, interleaved in one process (a game of one,
then a game of the other, on the same seeds), medians and ranges over the repeats.

Run by hand (not a test): ``python benchmarks/bench_two_games.py [--games N] [--repeat R]``.
Games play to their end (Antike II's random games take a few hundred rounds: random
rondel moves spend what the nations produce); ``--cap`` bounds them.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset


def one_game(rules: Ruleset, players: int, seed: int, cap: int) -> tuple[float, int, int]:
    """Seconds, decisions and rounds of one random game."""
    t = time.perf_counter()
    game = new_game(rules, players, seed=seed, round_cap=cap)
    bots = {p: RandomBot(seed * 1009 + i) for i, p in enumerate(game.state.players)}
    decisions = 0
    while (dec := game.pending) is not None:
        game.apply(bots[dec.player].choose(game))
        decisions += 1
    return time.perf_counter() - t, decisions, game.state.round


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--cap", type=int, default=2000, help="round cap per game")
    args = ap.parse_args()
    packs = {"antike2": load_ruleset("antike2"), "mare_nostrum (en)": load_ruleset("en")}
    gps: dict[str, list[float]] = {k: [] for k in packs}
    dps: dict[str, list[float]] = {k: [] for k in packs}
    rounds: dict[str, list[int]] = {k: [] for k in packs}
    for _ in range(args.repeat):
        spent = dict.fromkeys(packs, 0.0)
        made = dict.fromkeys(packs, 0)
        for seed in range(1, args.games + 1):
            for name, rules in packs.items():       # interleaved: one game of each
                dt, n, r = one_game(rules, args.players, seed, args.cap)
                spent[name] += dt
                made[name] += n
                rounds[name].append(r)
        for name in packs:
            gps[name].append(args.games / spent[name])
            dps[name].append(made[name] / spent[name])
    for name in packs:
        g, d = gps[name], dps[name]
        print(f"{name:<18} {args.players} players, {args.games} games x {args.repeat}: "
              f"median {statistics.median(g):.2f} games/s (range {min(g):.2f}-{max(g):.2f}); "
              f"median {statistics.median(d):,.0f} decisions/s "
              f"(range {min(d):,.0f}-{max(d):,.0f}); "
              f"median {statistics.median(rounds[name]):.0f} rounds a game")


if __name__ == "__main__":
    main()
