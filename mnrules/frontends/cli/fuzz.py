"""The ``mnrules fuzz`` command: random games with every invariant checked."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ...content.ruleset import load_ruleset
from ...files import check_writable
from .common import game_option, player_counts, whole


def cmd_fuzz(args: argparse.Namespace) -> int:
    import time

    from ...content import packs
    from ...tools.fuzz import fuzz, write_log

    check_writable(Path(args.logs) / "fuzz-failure-1.jsonl", "--logs")
    editions = args.editions.split(",") if args.editions else None
    if args.variant and not editions:
        # a variant is played on one edition: the game's base pack unless --editions says
        editions = [packs.default_pack()]
    # every pack (and the variant on each) refused before any game
    rules = {e: load_ruleset(e, variant=args.variant) for e in editions or []}
    bar: Any = None
    if not args.quiet:
        try:
            from tqdm import tqdm
            bar = tqdm(total=args.games, unit="game")
        except ImportError:
            bar = None
    t = time.perf_counter()
    try:
        games, decisions, failures = fuzz(args.games, args.seed, editions, args.players,
                                          args.round_cap, bar.update if bar else None,
                                          rules_for=rules.__getitem__ if rules else None)
    finally:
        if bar is not None:
            bar.close()
    dt = max(time.perf_counter() - t, 1e-9)
    print(f"{games} games, {decisions} choices, every invariant checked after each; "
          f"{len(failures)} failure(s); {dt:.0f} s ({decisions / dt:,.0f} choices/s)")
    for i, f in enumerate(failures, 1):
        print(f.describe())
        path = str(Path(args.logs) / f"fuzz-failure-{i}.jsonl")
        write_log(f, path, variant=args.variant)
        print(f"  log: {path} (mnrules replay {path})")
    return 1 if failures else 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    fz = sub.add_parser("fuzz", help="random games with every invariant checked")
    fz.add_argument("--games", type=whole(1), default=100, help="games (default: 100)")
    fz.add_argument("--seed", type=int, default=0, help="the first seed (default: 0)")
    fz.add_argument("--editions", default=None,
                    help="comma-separated (default: all; en with --variant)")
    fz.add_argument("--variant", default=None,
                    help="a variant file on top of each edition")
    fz.add_argument("--players", type=player_counts, default=None,
                    help="comma-separated (default: every count the game seats: 3,4,5 "
                         "for Mare Nostrum, 3 to 6 for Antike II)")
    fz.add_argument("--round-cap", type=whole(1), default=None,
                    help="end each game after this many rounds (default: the pack's own "
                         "round_cap, as simulate: 60 for Mare Nostrum, 3000 for Antike II, "
                         "so whole games are fuzzed)")
    fz.add_argument("--logs", default=".", help="folder for the failures' logs")
    fz.add_argument("--quiet", action="store_true", help="no progress bar")
    fz.set_defaults(func=cmd_fuzz)
    game_option(fz)
