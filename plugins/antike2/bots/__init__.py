"""Bots for Antike II: the kernel's random bot plays it as it is; ``heuristic`` is this
game's (:mod:`.heuristic`), offered in the game's definition (``bots``)."""

from __future__ import annotations

from collections.abc import Callable

from mnrules.bots import Bot


def make_heuristic(seed: int, arg: str) -> Bot:
    """``heuristic``, or ``heuristic:PROFILE+KEY=N`` (:mod:`.settings`)."""
    from .heuristic import HeuristicBot
    from .settings import settings

    return HeuristicBot(seed, settings(arg))


def bots() -> dict[str, Callable[[int, str], Bot]]:
    return {"heuristic": make_heuristic}
