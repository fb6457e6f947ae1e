"""Players that choose without a human: every bot answers the pending decision."""

from __future__ import annotations

from typing import Protocol

from ..engine import Choice, Game


class Bot(Protocol):
    def choose(self, game: Game) -> Choice:
        """A legal choice for the pending decision (which belongs to this bot)."""
        ...


def make_bot(name: str, seed: int) -> Bot:
    from ..errors import MnrulesError
    from .random_bot import RandomBot

    kinds = {"random": RandomBot}
    if name not in kinds:
        raise MnrulesError(f"--bots: unknown bot {name!r}; known: {', '.join(sorted(kinds))}")
    return kinds[name](seed)
