"""The ``mnrules`` command: play games, check maps (and more as the project grows).

Every error a user can cause is printed as one clear message (exit 2), never as a
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from .bots import Bot, make_bot
from .effects import Event
from .engine import Game
from .errors import MnrulesError
from .ruleset import load_ruleset
from .start import new_game


def _report(game: Game) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for p in game.state.players:
        merged: dict[str, Any] = {}
        for part in game.rules.hook.mn_report(game=game, player=p):
            merged.update(part)
        out[p] = merged
    return out


def _round_lines(game: Game, rnd: int, events: list[Event]) -> list[str]:
    lines = [f"Round {rnd}"]
    built: dict[str, list[str]] = {}
    for ev in events:
        if ev.kind == "trade_token":
            lines.append(f"  trade: {ev.player} plays token {ev.data['token']} "
                         f"for {ev.data['value']}")
        elif ev.kind == "built" and ev.player:
            act = ev.data["action"]
            what = act[0] if act[0] != "building" else \
                game.rules.board.provinces[act[1]].slots[act[2]].kind
            built.setdefault(ev.player, []).append(f"{what}@{act[1]}" if len(act) > 1
                                                   else what)
    for p, items in built.items():
        lines.append(f"  {p} builds {', '.join(items)}")
    for p, r in _report(game).items():
        titles = f" [{', '.join(r.get('titles', []))}]" if r.get("titles") else ""
        lines.append(f"  {p:<9} trade {r.get('trade', 0):>2}  culture {r.get('culture', 0):>2}"
                     f"  military {r.get('military', 0):>2}  provinces "
                     f"{r.get('provinces', 0):>2}  tiles {len(r.get('tiles', []))}{titles}")
    return lines


def cmd_play(args: argparse.Namespace) -> int:
    rules = load_ruleset(args.edition)
    events: list[Event] = []
    game = new_game(rules, args.players, seed=args.seed, round_cap=args.rounds,
                    listeners=[events.append])
    kinds = args.bots.split(",")
    if len(kinds) not in (1, len(game.state.players)):
        raise MnrulesError(f"--bots: give one bot kind or one per empire "
                           f"({len(game.state.players)}), not {len(kinds)}")
    bots: dict[str, Bot] = {p: make_bot(kinds[i % len(kinds)], args.seed * 1009 + i)
                            for i, p in enumerate(game.state.players)}
    print(f"mnrules: {rules.data.get('name', rules.pack)}; {len(game.state.players)} players "
          f"({', '.join(game.state.players)}); seed {args.seed}")
    rnd = game.state.round
    decisions = 0
    while (dec := game.pending) is not None:
        game.apply(bots[dec.player].choose(game))
        decisions += 1
        if game.state.round != rnd or game.over:
            print("\n".join(_round_lines(game, rnd, events)))
            events.clear()
            rnd = game.state.round
    state = game.state
    who = ", ".join(state.winners) if state.winners else "nobody"
    print(f"Game over after {state.round - 1} rounds and {decisions} decisions: "
          f"winner(s) {who} ({state.victory or 'no victory'})")
    return 0


def cmd_map_check(args: argparse.Namespace) -> int:
    from .board import BoardError

    overrides: dict[str, Any] = {}
    try:
        rules = load_ruleset(args.edition, overrides)
        if args.file:
            from .board import load_board

            goods = list((rules.components.get("goods") or {}).keys())
            rules.board = load_board(args.file, goods)
    except BoardError as exc:
        print(exc, file=sys.stderr)
        return 1
    problems = [p for found in rules.hook.mn_check_board(rules=rules) for p in found]
    where = args.file or rules.board.file
    for p in problems:
        print(f"{where}: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"{where}: ok ({len(rules.board.provinces)} provinces, {len(rules.board.seas)} seas)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mnrules", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a game with bots and print a summary")
    play.add_argument("--players", type=int, default=5, choices=(3, 4, 5))
    play.add_argument("--bots", default="random", help="bot kind, or one per empire, "
                      "comma-separated")
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    play.add_argument("--edition", default="en")
    play.set_defaults(func=cmd_play)

    mp = sub.add_parser("map", help="board files")
    msub = mp.add_subparsers(dest="map_command", required=True)
    check = msub.add_parser("check", help="validate a board file")
    check.add_argument("file", nargs="?", default=None)
    check.add_argument("--edition", default="en")
    check.set_defaults(func=cmd_map_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.func(args)
        return result
    except MnrulesError as exc:
        print(f"mnrules: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
