"""Bots for Antike II: the kernel's random bot plays it as it is; ``heuristic`` is this
game's (:mod:`.heuristic`), offered through the game's ``mn_bots`` hook."""

from __future__ import annotations

from collections.abc import Callable

from mnrules.bots import Bot
from mnrules.hooks.hookspecs import hookimpl


def make_heuristic(seed: int, arg: str) -> Bot:
    """``heuristic``, or ``heuristic:PROFILE+KEY=N`` (:mod:`.settings`)."""
    from .heuristic import HeuristicBot
    from .settings import settings

    return HeuristicBot(seed, settings(arg))


@hookimpl
def mn_bots() -> dict[str, Callable[[int, str], Bot]]:
    return {"heuristic": make_heuristic}
