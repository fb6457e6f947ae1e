"""Players that choose without a human: every bot answers the pending decision."""

from __future__ import annotations

from typing import Protocol

from ..engine import Choice, Game


class Bot(Protocol):
    def choose(self, game: Game) -> Choice:
        """A legal choice for the pending decision (which belongs to this bot)."""
        ...


KINDS = ("heuristic", "random", "search")


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name: ``random``, ``heuristic`` or ``search`` (``search:N`` for N
    iterations per searched decision)."""
    from ..errors import MnrulesError

    kind, _, arg = name.partition(":")
    if kind == "random" and not arg:
        from .random_bot import RandomBot
        return RandomBot(seed)
    if kind == "heuristic" and not arg:
        from .heuristic import HeuristicBot
        return HeuristicBot(seed)
    if kind == "search":
        from .search import SearchBot
        if not arg:
            return SearchBot(seed)
        if arg.isdigit() and int(arg) > 0:
            return SearchBot(seed, iterations=int(arg))
        raise MnrulesError(f"--bots: {name!r}: give the search iterations as a positive "
                           f"number, e.g. search:200")
    raise MnrulesError(f"--bots: unknown bot {name!r}; known: {', '.join(KINDS)} "
                       f"(search:N for N iterations)")
