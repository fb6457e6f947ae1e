"""What several commands share: the options' argparse types, the pack of --edition and
--variant, how a game is said to stand when a command leaves it."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...bots import STUDY_BOTS
from ...content.ruleset import load_ruleset
from ...core.engine import Game
from ...errors import MnrulesError
from ...language.present import Presenter

MAX_GAMES = 1_000_000      # simulate keeps every game's result in memory


def whole(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number within bounds, refused with a usage error."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") \
                from None
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"expected {low} or more, not {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"expected at most {high:,}, not {value}")
        return value
    return parse


def player_counts(text: str) -> list[int]:
    """An argparse type: comma-separated player counts (the game refuses those it does
    not seat)."""
    out = []
    for part in text.split(","):
        try:
            n = int(part)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected player counts such as 3,4,5, not "
                                             f"{text!r}") from None
        if not 1 <= n <= 99:
            raise argparse.ArgumentTypeError(f"{n} players: expected 1 to 99")
        out.append(n)
    return out


def _existing(path: str, what: str, folder: bool | None = None) -> Path:
    """A file or folder the command reads: refused now, naming it, if it is not there."""
    p = Path(path)
    if not p.exists():
        raise MnrulesError(f"{what} {path}: no such file or folder")
    if folder is True and not p.is_dir():
        raise MnrulesError(f"{what} {path}: not a folder")
    if folder is False and p.is_dir():
        raise MnrulesError(f"{what} {path}: a folder, not a file")
    return p


def _rules(args: argparse.Namespace) -> Any:
    return load_ruleset(args.edition, variant=getattr(args, "variant", None))


def _ending(game: Game[Any], say: Presenter, where: str) -> str:
    """How the game stands when a command leaves it: its winners and victory, or that it
    goes on."""
    state = game.state
    if not state.finished:
        return say.say("play.stopped", where=where)
    victory = say.name(state.victory, "victories") if state.victory \
        else say.say("play.no_victory")
    if not state.winners:
        return say.say("play.over_nobody", where=where, victory=victory)
    return say.counted("play.over", len(state.winners), where=where,
                       winners=say.players(state.winners), victory=victory)


def _where_stopped(game: Game[Any], say: Presenter) -> str:
    """When play stopped, truly: "in round 7 (Build phase)" when a round was under way
    (a victory, a human quitting), "after 6 rounds" when the game ended between rounds
    (the round cap), "at the start of round 4" when the driver stopped there."""
    from ...tools.simulate import rounds_played

    state = game.state
    if state.phase:
        return say.say("play.in_round", round=state.round,
                       phase=say.name(state.phase, "phases"))
    if state.finished:
        n = rounds_played(state)
        return say.say("play.after_rounds", n=n, rounds=say.count(n, "round"))
    return say.say("play.at_start", round=state.round)


DEFAULT_BOTS = STUDY_BOTS
ROUND_CAP_HELP = ("stop a game undecided after this many rounds (default: the pack's "
                  "round_cap parameter, else 60; --max-rounds is the same option)")


def game_option(parser: argparse.ArgumentParser) -> None:
    """``--game``, last of a command's options: main() turns it into --edition."""
    parser.add_argument("--game", default=None,
                        help="the game's base pack, by the game's name (its folder of "
                        "editions/), instead of --edition")


def running_options(p: argparse.ArgumentParser) -> None:
    """How a batch of games is run, the same for every command that plays many: the
    round cap, a worker's deadline per game, the backend and its scheduler."""
    p.add_argument("--round-cap", "--max-rounds", dest="round_cap", type=whole(1),
                   default=None, help=ROUND_CAP_HELP)
    p.add_argument("--game-deadline", type=whole(1), default=None, metavar="SECONDS",
                   help="with --jobs: a worker that spends longer on one game is "
                   "replaced and the game played again (default: 3600, an hour)")
    p.add_argument("--backend", default="local", choices=("local", "dask"),
                   help="local processes, or a Dask cluster (default: local)")
    p.add_argument("--scheduler", default=None,
                   help="a Dask scheduler address (with --backend dask; default: a local "
                   "cluster)")
