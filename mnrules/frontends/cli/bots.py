"""The ``mnrules bots check`` command: the bots' strictly dominated decisions, counted."""

from __future__ import annotations

import argparse

from .common import MAX_GAMES, game_option, whole


def cmd_bots_check(args: argparse.Namespace) -> int:
    from ...tools.blunders import command

    return command(args)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bt = sub.add_parser("bots", help="the bots: a check of their decisions")
    btsub = bt.add_subparsers(dest="bots_command", required=True)
    bc = btsub.add_parser("check", help="seeded bot games, every decision tested by the "
                          "game's one-step lookahead: the strictly dominated ones, counted "
                          "by kind (exit 1 if any)")
    bc.add_argument("--bots", default="heuristic",
                    help="bot kind, or one per player, comma-separated (default: heuristic)")
    bc.add_argument("--edition", default=None,
                    help="the edition pack (default: the game's base pack)")
    bc.add_argument("--variant", default=None, help="a variant file on top of the edition")
    bc.add_argument("--players", type=whole(1), default=None,
                    help="players (default: the most the game seats)")
    bc.add_argument("--games", type=whole(1, MAX_GAMES), default=20,
                    help="games to play (default: 20)")
    bc.add_argument("--seed", type=int, default=1,
                    help="the first seed, as simulate's: game i plays seed*1000003+i "
                    "(default: 1)")
    bc.add_argument("--max-rounds", type=whole(1), default=None,
                    help="stop a game undecided after this many rounds (default: the "
                    "pack's round_cap parameter, else 60)")
    bc.add_argument("--show", type=whole(0), default=5,
                    help="findings printed of each kind (default: 5)")
    bc.add_argument("--lang", default=None,
                    help="the findings' sentences in this language (default: the pack's)")
    bc.add_argument("--quiet", action="store_true", help="no progress bar")
    bc.set_defaults(func=cmd_bots_check)
    game_option(bc)
