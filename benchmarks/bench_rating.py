"""The bots' rating table, run by hand (not a test): bot strength kept over time.

``python benchmarks/bench_rating.py [--bots B1,B2,...] [--players P] [--rounds R]
[--seed S] [--jobs J] [--out FILE.json]`` plays the round robin of ``mnrules rate``
(every lineup of P bots in every seat rotation, R times) and prints the Bradley–Terry
table on the Elo scale with 95% bootstrap intervals, the games per second, and each
bot's decisions per second measured inside its own ``choose`` (one process, so the
timings are comparable between bots: medians over games).

The default field is the random bot, the four heuristic profiles and the search bot
at 4 iterations; docs/simulation.md records a run of it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from mnrules import load_ruleset, new_game
from mnrules.bots import make_bot
from mnrules.tools import rating
from mnrules.tools import simulate as sim

DEFAULT = ("random,heuristic,heuristic:builder,heuristic:trader,heuristic:conqueror,"
           "search:4")


def play_timed(job: sim.Job, rules: Any, speed: dict[str, list[float]]) -> sim.GameResult:
    """One game of the robin with each bot's thinking time measured (the result is the
    one :func:`sim.play_one` gives: the same seeds, the same bots)."""
    game = new_game(rules, job.players, seed=job.seed, round_cap=job.round_cap)
    players = game.state.players
    names = {p: job.bots[i % len(job.bots)] for i, p in enumerate(players)}
    bots = {p: make_bot(names[p], job.seed * 1009 + i, rules) for i, p in enumerate(players)}
    spent: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    decisions = 0
    while (dec := game.pending) is not None:
        t = time.perf_counter()
        choice = bots[dec.player].choose(game)
        spent[dec.player] += time.perf_counter() - t
        count[dec.player] += 1
        game.apply(choice)
        decisions += 1
    for p in players:
        if spent[p] > 0:
            speed[names[p]].append(count[p] / spent[p])
    st = game.state
    return sim.GameResult(job.seed, list(players), list(st.winners),
                          st.victory or "round cap", sim.rounds_played(st), decisions)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", default=DEFAULT)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cap", type=int, default=60)
    ap.add_argument("--out", default=None, help="keep the table: FILE.json")
    args = ap.parse_args()
    entrants = args.bots.split(",")
    rules = load_ruleset("en")
    jobs = rating.schedule("en", None, args.players, entrants, args.rounds, args.seed,
                           args.cap)
    speed: dict[str, list[float]] = defaultdict(list)
    t = time.perf_counter()
    results = [play_timed(job, rules, speed) for job in jobs]
    dt = time.perf_counter() - t
    table = rating.rate(results, jobs, entrants, seed=args.seed)
    print(rating.format_table(table, f"en, seed {args.seed}, {len(jobs)} games in {dt:.0f} s "
                                     f"({len(jobs) / dt:.2f} games/s, one process)"))
    print("decisions per second inside each bot's choose (median over games [min, max]):")
    for name in entrants:
        xs = speed.get(name, [])
        if xs:
            print(f"  {name:<24} {statistics.median(xs):10,.0f}  [{min(xs):,.0f}, "
                  f"{max(xs):,.0f}]")
    if args.out:
        from dataclasses import asdict
        Path(args.out).write_text(json.dumps({"table": asdict(table), "speed": {
            k: statistics.median(v) for k, v in speed.items()}}, indent=1), "utf-8")


if __name__ == "__main__":
    main()
