"""mnrules against Catanatron, side by side: random play's decisions per second of
Catanatron 3.2.1 (4 players, the best-known pure-Python board-game simulator) and of
mnrules (Mare Nostrum, 5 and 4 players), in ONE process pinned to ONE core, the sets
interleaved round by round (their order turning), CPU time of play alone. Only the ratio
means anything: the machine is shared, and both engines slow alike within a round.

Catanatron is a bench-only dependency this script installs nothing of: put it in a venv
of its own, of the same Python as the one running mnrules, and point here at its
site-packages (it is appended to ``sys.path``, so mnrules' own packages win)::

    nice -n 10 python3.11 -m venv /tmp/catan-venv
    nice -n 10 /tmp/catan-venv/bin/pip install catanatron==3.2.1
    nice -n 10 python benchmarks/bench_catanatron.py \\
        --catanatron /tmp/catan-venv/lib/python3.11/site-packages [--rounds 5]
    # the compiled core: PYTHONPATH=/tmp/compiled (tools/build_compiled.py --copy)

A Catanatron decision is one ``play_tick`` (every action is a player's ``decide``
among the playable actions, the roll included); an mnrules decision is one
``game.apply`` of a pending decision. Catanatron's games play to 10 victory points on
its seeded random boards (seeds 1..N: its ``seed=0`` means "unseeded"; even so, the
same seeds gave 21,543 and 17,826 decisions in two runs, so the counts are printed per
round and only rates compared); mnrules plays
``benchmarks/games.py``'s random speed set (12 seeded 5-player games, round cap 100)
and 4-player games on the same seeds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from games import span  # this folder (run as a script)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

DEFAULT_SITE = f"/tmp/catan-venv/lib/python{sys.version_info[0]}.{sys.version_info[1]}/" \
    "site-packages"


def catan_set(seeds: range) -> Callable[[], int]:
    """A set of Catanatron random 4-player games; playing it returns its decisions."""
    from catanatron import Color, Game, RandomPlayer

    colors = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)

    def play() -> int:
        made = 0
        for seed in seeds:
            game = Game([RandomPlayer(c) for c in colors], seed=seed)
            while game.winning_color() is None and game.state.num_turns < 1000:
                game.play_tick()
                made += 1
        return made

    return play


def mnrules_set(players: int, seeds: range, cap: int) -> Callable[[], int]:
    """A set of mnrules random games through the public API; playing returns decisions."""
    import games

    specs = [games.Spec("en", players, s, "random", cap) for s in seeds]

    def play() -> int:
        return sum(games.play(spec, digest=False)[0] for spec in specs)

    return play


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--catanatron", default=DEFAULT_SITE, metavar="SITE_PACKAGES",
                    help="the site-packages of a venv holding catanatron==3.2.1")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--catan-games", type=int, default=20)
    ap.add_argument("--games", type=int, default=12, help="mnrules games per set")
    ap.add_argument("--cpu", type=int, help="the core to pin to (default: the first allowed)")
    args = ap.parse_args()
    sys.path.append(args.catanatron)
    try:
        import catanatron
    except ImportError:
        raise SystemExit(f"no catanatron under {args.catanatron}: install it in a venv of "
                         "its own (see this script's help)") from None
    from importlib.metadata import PackageNotFoundError, version
    try:
        catan_version = version("catanatron")
    except PackageNotFoundError:
        catan_version = "?"
    if hasattr(os, "sched_setaffinity"):
        cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        print(f"pinned to core {cpu}")
    import mnrules.core.engine as mnengine
    engine = Path(mnengine.__file__ or "").parent
    print(f"catanatron {catan_version} ({Path(catanatron.__file__ or '').parent}); mnrules "
          f"from {engine} (engine: {Path(mnengine.__file__ or '').name})")
    import games
    games.rules_for("en")
    seeds = range(args.games)
    sets: dict[str, Callable[[], int]] = {
        "catanatron 4p": catan_set(range(1, args.catan_games + 1)),
        "mnrules 5p": mnrules_set(5, seeds, 100),
        "mnrules 4p": mnrules_set(4, seeds, 100),
    }
    games.play(games.Spec("en", 5, 99, "random", 2), digest=False)   # warm up both
    catan_set(range(999, 1000))()
    dps: dict[str, list[float]] = {name: [] for name in sets}
    made: dict[str, int] = {}
    for r in range(args.rounds):
        names = list(sets) if r % 2 == 0 else list(sets)[::-1]
        for name in names:
            t = time.process_time()
            made[name] = sets[name]()
            dps[name].append(made[name] / (time.process_time() - t))
        print(f"round {r + 1}: " + ", ".join(f"{n} {dps[n][-1]:,.0f}/s ({made[n]})"
                                             for n in sets), flush=True)
    print(f"\nrandom play, {args.rounds} rounds interleaved, CPU time, one core:")
    for name in sets:
        line = f"  {name:>13}: decisions/s {span(dps[name], ',.0f')} ({made[name]} last round)"
        if not name.startswith("catanatron"):
            ratios = [m / c for m, c in zip(dps[name], dps["catanatron 4p"], strict=True)]
            line += f"; x Catanatron {span(ratios, '.2f')}"
        print(line)


if __name__ == "__main__":
    main()
