"""The ``mnrules rules`` command: the rules' contract, phase by phase."""

from __future__ import annotations

import argparse

from ...content.ruleset import load_ruleset
from .common import game_option


def cmd_rules(args: argparse.Namespace) -> int:
    """The rules page (docs/rules.md): each phase's plugins with their steps, decisions,
    quantities, events and parameters, as the edition's rule set declares them."""
    from ...tools.rules_doc import plain, render_rules_doc

    text = render_rules_doc(load_ruleset(args.edition))
    print(text if args.markdown else plain(text), end="")
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rl = sub.add_parser("rules", help="the rules' contract, phase by phase (docs/rules.md)")
    rl.add_argument("--edition", default=None,
                    help="the edition pack (default: the game's base pack)")
    rl.add_argument("--markdown", action="store_true", help="as Markdown (docs/rules.md)")
    rl.set_defaults(func=cmd_rules)
    game_option(rl)
