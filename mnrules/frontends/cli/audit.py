"""The ``mnrules audit`` command: game logs' rules re-checked from the book's side."""

from __future__ import annotations

import argparse


def cmd_audit(args: argparse.Namespace) -> int:
    from ...tools.audit import command

    return command(args)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    au = sub.add_parser("audit", help="re-check the rules of game logs, from the book's side "
                        "(docs/audit.md): exit 1 on findings")
    au.add_argument("logs", nargs="+", metavar="LOG", help="logs written by play --log")
    au.add_argument("--lang", default=None,
                    help="the language of the findings (default: each log's pack's)")
    au.set_defaults(func=cmd_audit)
