"""The random bot: a uniform choice among the legal options.

Its randomness is a function of its seed and the game's choice count, not a generator
it carries: a game saved and loaded goes on exactly as it would have."""

from __future__ import annotations

import random

from ..engine import Choice, Game


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: Game) -> Choice:
        options = game.legal()
        rng = random.Random(self.seed * 1_000_003 + game.state.choices)
        return options[rng.randrange(len(options))]
