"""The random bot: a uniform choice among the legal options, from its own seeded
generator (so a seeded game replays exactly)."""

from __future__ import annotations

import random

from ..engine import Choice, Game


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Choice:
        options = game.legal()
        return options[self.rng.randrange(len(options))]
