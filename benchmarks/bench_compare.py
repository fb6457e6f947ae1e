"""Speed of trees compared: the same seeded 5-player games played under each tree's code,
in worker processes that alternate tree by tree, round after round, so that a noisy
machine slows every tree alike; CPU time of play only (imports and the rule set's load
left out). Only the ratios of such interleaved runs mean anything.

    nice -n 10 python benchmarks/bench_compare.py --tree base=/tmp/base --tree now=. \\
        [--tree compiled=/tmp/compiled] [--rounds 5] [--set random --set heuristic] \\
        [--over now]

A tree is a folder holding an ``mnrules`` package (a checkout of a commit, e.g.
``git archive 25ccad7 | tar -x -C /tmp/base``, or a compiled build:
``python tools/build_compiled.py --copy /tmp/compiled``). The first tree is the
baseline; for every other tree, per set, the script prints games and decisions per
second (median and range over the rounds) and its speed-up over the baseline (the median
and range of the per-round ratios, each round's runs being neighbours in time), and over
each tree named by ``--over``. Every
tree must play the same games (``tests/test_speed_determinism.py`` proves it of the
working tree): a ratio of different games would mean nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from games import span  # this folder (run as a script)

HERE = Path(__file__).resolve().parent


def worker(set_name: str) -> None:
    import games

    specs = games.SPEED[set_name]
    for pack in {s.pack for s in specs}:
        games.rules_for(pack)
    games.play(games.Spec("en", 5, 99, specs[0].bot, 2), digest=False)   # warm up
    decisions = 0
    t = time.process_time()
    for spec in specs:
        decisions += games.play(spec, digest=False)[0]
    cpu = time.process_time() - t
    print(json.dumps({"cpu": cpu, "games": len(specs), "decisions": decisions}))


def _path(tree: Path) -> str:
    """A tree's import path: its kernel, and its games' packages (the folders of plugins/;
    their data is the installed tree's unless the tree links it, as tools/mutation.py's
    copies do)."""
    return os.pathsep.join((str(tree), str(tree / "plugins")))


def run(tree: Path, set_name: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=_path(tree))
    out = subprocess.run([sys.executable, __file__, "--worker", set_name], env=env,
                         capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"worker under {tree} failed:\n{out.stderr}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def which(tree: Path) -> str:
    env = dict(os.environ, PYTHONPATH=_path(tree))
    code = ("import mnrules.core.engine as e, mare_nostrum.build as b; "
            "print(e.__file__); print(b.__file__)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, cwd=tree)   # not this folder's mnrules
    return ", ".join(Path(p).name for p in out.stdout.split())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                    help="a tree to time (the first is the baseline)")
    ap.add_argument("--set", action="append", default=[], choices=["random", "heuristic"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--over", action="append", default=[], metavar="NAME",
                    help="another tree to print speed-ups over (besides the first)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return
    trees = [(n, Path(p).resolve()) for n, _, p in (t.partition("=") for t in args.tree)]
    if len(trees) < 2:
        ap.error("give at least two --tree NAME=PATH (the first is the baseline)")
    for name, tree in trees:
        print(f"{name}: {tree} ({which(tree)})")
    for set_name in args.set or ["random", "heuristic"]:
        cpu: dict[str, list[float]] = {n: [] for n, _ in trees}
        made: dict[str, float] = {}
        games_n = 0.0
        for r in range(args.rounds):
            order = trees if r % 2 == 0 else trees[::-1]   # neither tree always first
            for name, tree in order:
                res = run(tree, set_name)
                cpu[name].append(res["cpu"])
                made[name] = res["decisions"]
                games_n = res["games"]
        base = trees[0][0]
        print(f"\n{set_name} play, 5 players, {games_n:g} games x {args.rounds} rounds:")
        if len(set(made.values())) > 1:
            print("  (the trees play different games — a rule or a bot changed between them — "
                  "so their games are not the same work: compare decisions/s too)")
        for name, _ in trees:
            gps = [games_n / c for c in cpu[name]]
            dps = [made[name] / c for c in cpu[name]]
            line = (f"  {name:>10}: games/s {span(gps, '.2f')}; decisions/s {span(dps, ',.0f')}"
                    f" ({made[name]:g} decisions a round)")
            for ref in [base, *(n for n in args.over if n != base and n in cpu)]:
                if name != ref:
                    ratios = [b / c for b, c in zip(cpu[ref], cpu[name], strict=True)]
                    line += f"; speed-up over {ref} {span(ratios, '.2f')}"
            print(line)


if __name__ == "__main__":
    main()
