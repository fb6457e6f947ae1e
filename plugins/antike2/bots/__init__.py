"""Bots for Antike II: the kernel's random bot plays it as it is; ``heuristic`` is this
game's (:mod:`.heuristic`), offered through the game's ``mn_bots`` hook."""

from __future__ import annotations

from collections.abc import Callable

from mnrules.bots import Bot
from mnrules.errors import MnrulesError
from mnrules.hookspecs import hookimpl


def make_heuristic(seed: int, arg: str) -> Bot:
    from .heuristic import HeuristicBot

    if arg:
        raise MnrulesError("--bots: the heuristic bot takes no argument")
    return HeuristicBot(seed)


@hookimpl
def mn_bots() -> dict[str, Callable[[int, str], Bot]]:
    return {"heuristic": make_heuristic}
