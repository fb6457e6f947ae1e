"""The ``mnrules rate`` command: a round robin of bots and their rating table."""

from __future__ import annotations

import argparse

from .common import ROUND_CAP_HELP, whole


def cmd_rate(args: argparse.Namespace) -> int:
    from ...tools.rating import command

    return command(args)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rt = sub.add_parser("rate", help="a round robin of bots and their rating table "
                        "(Bradley-Terry, Elo scale, 95%% intervals)")
    rt.add_argument("--bots", required=True,
                    help="the bots to rate, comma-separated, e.g. random,heuristic,"
                    "heuristic:conqueror,search:4")
    rt.add_argument("--edition", default=None,
                    help="the edition pack (default: the game's base pack)")
    rt.add_argument("--variant", default=None, help="a variant file on top of the edition")
    rt.add_argument("--players", type=whole(2), default=None,
                    help="seats per game (default: the most the game seats)")
    rt.add_argument("--rounds", type=whole(1), default=1,
                    help="times every lineup is played in every seat rotation (default: 1)")
    rt.add_argument("--seed", type=int, default=1, help="the first seed (default: 1)")
    rt.add_argument("--round-cap", "--max-rounds", dest="round_cap", type=whole(1),
                    default=None, help=ROUND_CAP_HELP)
    rt.add_argument("--jobs", type=whole(1), default=None,
                    help="worker processes (default: half the cores)")
    rt.add_argument("--out", default=None, help="write the table and games: FILE.json")
    rt.add_argument("--quiet", action="store_true", help="no progress bar")
    rt.set_defaults(func=cmd_rate)
