"""The ``mnrules replay`` command: a game log replayed exactly."""

from __future__ import annotations

import argparse
import sys

from ...files import check_distinct, check_writable, write_atomic
from ...language.present import presenter
from .common import _ending, _where_stopped, whole


def cmd_replay(args: argparse.Namespace) -> int:
    from ...tools.log import replay

    if args.out:
        check_distinct(("the log", args.log), ("--out", args.out))
        check_writable(args.out, "--out")
    result = replay(args.log, until_round=args.round)
    say = presenter(result.game.rules, args.lang)
    print(say.say("replay.done", file=args.log, choices=say.count(result.choices, "choice"),
                  chances=say.count(len(result.chances), "chance")))
    print(_ending(result.game, say, _where_stopped(result.game, say)))
    if args.out:
        write_atomic(args.out, result.game.snapshot().to_json())
        print(say.say("replay.written", file=args.out))
    if result.divergence:
        print(say.say("replay.divergence", divergence=result.divergence), file=sys.stderr)
        return 1
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rp = sub.add_parser("replay", help="replay a game log exactly")
    rp.add_argument("log", help="a log written by play --log (or fuzz)")
    rp.add_argument("--round", type=whole(1), default=None,
                    help="stop when this round starts")
    rp.add_argument("--out", default=None, help="write the final state (JSON)")
    rp.add_argument("--lang", default=None,
                    help="the language of the report (default: the log's pack's)")
    rp.set_defaults(func=cmd_replay)
