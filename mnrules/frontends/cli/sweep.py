"""The ``mnrules sweep`` command: the same seeds over a grid of parameter values."""

from __future__ import annotations

import argparse

from .common import DEFAULT_BOTS, ROUND_CAP_HELP, whole


def cmd_sweep(args: argparse.Namespace) -> int:
    from ...tools.sweep import command

    return command(args)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sw = sub.add_parser("sweep", help="the same seeds over a grid of parameter values, "
                        "and a search for the most even one (docs/simulation.md)")
    sw.add_argument("--param", action="append", required=True, metavar="NAME=VALUES",
                    help="a parameter and its values: NAME=3..7 (whole numbers; 3..9:2 with "
                    "a step), NAME=a,b,c (a list), MAPPING.KEY=2..4 (one key of a mapping "
                    "parameter), variant=none,v1.yaml,v2.yaml (variant files) or "
                    "bots=heuristic,heuristic:first_tile=2 (a bot in every seat); repeat for "
                    "a grid")
    sw.add_argument("--edition", default=None,
                    help="the edition pack (default: the game's base pack)")
    sw.add_argument("--variant", default=None, help="a variant file on top of the edition")
    sw.add_argument("--players", type=whole(1), default=None,
                    help="players (default: the most the game seats)")
    sw.add_argument("--games", type=whole(1, 100_000), default=50,
                    help="games per point (with --search: the first stage's; default: 50)")
    sw.add_argument("--max-games", type=whole(1, 100_000), default=400,
                    help="with --search: most games a point may play (default: 400)")
    sw.add_argument("--search", action="store_true",
                    help="race the points to the smallest spread of win rates")
    sw.add_argument("--seed", type=int, default=1,
                    help="the first seed: game i plays seed*1000003+i (default: 1)")
    sw.add_argument("--bots", default=None,
                    help=f"bot kind, or one per player, comma-separated (default: "
                    f"{DEFAULT_BOTS} where the game has it, else random)")
    sw.add_argument("--round-cap", "--max-rounds", dest="round_cap", type=whole(1),
                    default=None, help=ROUND_CAP_HELP)
    sw.add_argument("--jobs", type=whole(1), default=None,
                    help="worker processes (default: half the cores)")
    sw.add_argument("--backend", default="local", choices=("local", "dask"),
                    help="local processes, or a Dask cluster (default: local)")
    sw.add_argument("--scheduler", default=None,
                    help="a Dask scheduler address (with --backend dask)")
    sw.add_argument("--out", default=None, help="write every point's figures: FILE.json")
    sw.add_argument("--plot", default=None,
                    help="draw win rates, spread and length per point: FILE.png/.svg/.pdf")
    sw.add_argument("--quiet", action="store_true", help="no progress bar")
    sw.set_defaults(func=cmd_sweep)
