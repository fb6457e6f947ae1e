"""The ``mnrules`` command: play games, check maps (and more as the project grows).

Every error a user can cause is printed as one clear message (exit 2), never as a
traceback.
"""

# The docstring above is the parser's description (--help). Each command is a module of
# this package holding its parser (add_parser) and its function, so that a command is
# read, and changed, in one file; what several share is in common.

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence

from ...errors import MnrulesError
from ...tools.stopping import Stopped, stop_signals
from . import (
    audit,
    bots,
    cards,
    editions,
    fuzz,
    map,
    play,
    rate,
    render,
    replay,
    rules,
    scenario,
    simulate,
    skill,
    study,
    sweep,
)
from .cards import words_reference
from .editions import edition_diff

__all__ = ["build_parser", "edition_diff", "main", "words_reference"]


def _use_game(args: argparse.Namespace) -> None:
    """``--game NAME`` stands for ``--edition`` (``--editions``) naming its base pack."""
    from ...content import packs

    pack = packs.base_pack(args.game)
    for option in ("edition", "editions"):
        if hasattr(args, option):
            setattr(args, option, pack)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mnrules", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for command in (play, scenario, simulate, rate, skill, sweep, study, bots, fuzz, replay,
                    audit, cards, editions, rules, map, render):
        command.add_parser(sub)
    from ..web.command import add_parser as add_serve

    add_serve(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # a line at a time even into a pipe or a file: an error (stderr) stays after the lines
    # it follows ("ok ..." lines, then the file that could not be read)
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(line_buffering=True)
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)   # for the files' provenance
    try:
        if getattr(args, "game", None):
            _use_game(args)
        if getattr(args, "edition", "") is None and not getattr(args, "load", None) \
                and args.func not in (map.cmd_map_check, render.cmd_render):
            from ...content import packs

            args.edition = packs.default_pack()   # the one game's, or a clear refusal
        with stop_signals():
            result: int = args.func(args)
        return result
    except MnrulesError as exc:
        print(f"mnrules: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the machine's refusal (a full disk, a vanished file): no traceback
        where = f" {exc.filename}" if exc.filename else ""
        print(f"mnrules: error:{where} {exc.strerror or exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:  # a file given to read is not text
        print(f"mnrules: error: a file is not UTF-8 text ({exc.reason})", file=sys.stderr)
        return 2
    except Stopped as exc:  # SIGTERM, SIGHUP: ended as Ctrl-C ends, with the shell's code
        with contextlib.suppress(OSError):  # SIGHUP: the terminal may be gone
            print(f"mnrules: stopped by {exc.name}", file=sys.stderr)
        return 128 + exc.signum
    except KeyboardInterrupt:
        print("mnrules: interrupted", file=sys.stderr)
        return 130
