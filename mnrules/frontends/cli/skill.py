"""The ``mnrules skill`` command: the search player's skill trace, or the balance table
under several bots."""

from __future__ import annotations

import argparse

from .common import ROUND_CAP_HELP, game_option, whole


def cmd_skill(args: argparse.Namespace) -> int:
    from ...tools.skill import command

    return command(args)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sk = sub.add_parser("skill", help="skill as a dimension of balance: the search "
                        "player's skill trace, or the balance table under several bots")
    sk.add_argument("what", choices=("trace", "table"),
                    help="trace: mcts:2N among mcts:N over a doubling ladder; table: each "
                    "seat's win rate under each bot of --bots, and the verdicts that "
                    "depend on the bot")
    sk.add_argument("--budgets", default="2,4,8",
                    help="trace: the ladder's budgets N (default: 2,4,8)")
    sk.add_argument("--base", default=None,
                    help="trace: a first rung, mcts:FIRST among this bot (e.g. heuristic)")
    sk.add_argument("--gain", type=float, default=5.0,
                    help="trace: the gain in points under which doubling stops paying "
                    "(default: 5)")
    sk.add_argument("--bots", default="heuristic,heuristic:builder,heuristic:trader",
                    help="table: the bots, comma-separated (each plays every seat)")
    sk.add_argument("--edition", default=None,
                    help="the edition pack (default: the game's base pack)")
    sk.add_argument("--variant", default=None, help="a variant file on top of the edition")
    sk.add_argument("--players", type=whole(2), default=None,
                    help="seats per game (default: the most the game seats)")
    sk.add_argument("--games", type=whole(1), default=40,
                    help="games a rung or a bot (default: 40)")
    sk.add_argument("--seed", type=int, default=1, help="the first seed (default: 1)")
    sk.add_argument("--round-cap", "--max-rounds", dest="round_cap", type=whole(1),
                    default=None, help=ROUND_CAP_HELP)
    sk.add_argument("--jobs", type=whole(1), default=None,
                    help="worker processes (default: half the cores)")
    sk.add_argument("--out", default=None, help="write the result: FILE.json")
    sk.add_argument("--quiet", action="store_true", help="no progress")
    sk.set_defaults(func=cmd_skill)
    game_option(sk)
