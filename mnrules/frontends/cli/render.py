"""The ``mnrules render`` command: the board of a state drawn as SVG or PNG."""

from __future__ import annotations

import argparse
from pathlib import Path

from ...bots import Bot, make_bot
from ...content.ruleset import load_ruleset
from ...core.start import new_game
from ...errors import MnrulesError
from ...files import check_distinct, check_writable
from ...language.present import presenter
from .common import game_option, whole


def cmd_render(args: argparse.Namespace) -> int:
    """Draw the board of a snapshot, or of a new game, as the game draws it (``render``:
    SVG or PNG for Mare Nostrum, docs/board.md)."""
    from ...core.start import load_game
    from ...errors import StateError

    out = Path(args.output)
    if out.suffix.lower() not in (".svg", ".png"):
        raise MnrulesError(f"-o: give a file ending in .svg or .png, not {out.name!r}")
    if args.state != "new":
        check_distinct(("the state", args.state), ("-o", args.output))
    check_writable(out, "-o")
    from ...content import packs

    rules = load_ruleset(args.edition or packs.default_pack()) if args.state == "new" else None
    if rules is not None:
        game = new_game(rules, args.players or max(rules.seating, default=1), seed=args.seed)
        _ = game.pending  # at its first decision, as a snapshot would be
    else:
        try:
            text = Path(args.state).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise MnrulesError(f"cannot read the state file {args.state}: {exc}") from None
        if _is_save(text):  # a save file (play --save): its own pack and variant
            from ...tools.log import load

            game, _, _ = load(args.state)
            rules = game.rules
        else:
            try:
                rules = load_ruleset(args.edition or packs.default_pack())
                game = load_game(rules, text)
            except (TypeError, ValueError) as exc:
                raise StateError(f"{args.state} is not a state snapshot nor a save file: "
                                 f"{exc}") from None
    if args.rounds:
        stop = game.state.round + args.rounds
        bots: dict[str, Bot] = {p: make_bot("random", args.seed * 1009 + i)
                                for i, p in enumerate(game.state.players)}
        while (dec := game.pending) is not None and game.state.round < stop:
            game.apply(bots[dec.player].choose(game))
    draw = rules.definition.render
    try:
        drawn = draw is not None and draw(game=game, path=out,
                                          say=presenter(rules, getattr(args, "lang", None)))
    except OSError as exc:
        raise MnrulesError(f"cannot write {out}: {exc}") from None
    if not drawn:
        raise MnrulesError(f"render: the game {rules.game!r} has no board picture")
    phase = game.rules.name(game.state.phase, "phases") if game.state.phase else "setup"
    print(f"mnrules: drew round {game.state.round} ({phase}) to {out}")
    return 0


def _is_save(text: str) -> bool:
    """Whether a file's text is a save (``play --save``) rather than a bare state."""
    import json

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    from ...tools.log import SAVE_FORMATS

    return isinstance(data, dict) and data.get("format") in SAVE_FORMATS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rd = sub.add_parser("render", help="draw the board of a state as SVG or PNG")
    rd.add_argument("state", help="a save file (play --save), a JSON state snapshot "
                    "(replay --out), or 'new' for a new game")
    rd.add_argument("-o", "--output", required=True, help="the picture: FILE.svg or FILE.png")
    rd.add_argument("--edition", default=None,
                    help="the pack of a new game or a snapshot (a save names its own; "
                    "default: the game's base pack)")
    rd.add_argument("--players", type=whole(1), default=None,
                    help="players of a new game")
    rd.add_argument("--seed", type=int, default=1, help="seed of a new game and of the bots")
    rd.add_argument("--rounds", type=whole(0), default=0,
                    help="first play this many rounds with random bots")
    rd.add_argument("--lang", default=None,
                    help="the picture's words in this language (default: the pack's)")
    rd.set_defaults(func=cmd_render)
    game_option(rd)
