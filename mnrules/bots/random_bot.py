"""The random bot: a uniform choice among the legal options.

Its randomness is a function of its seed and the game's choice count, not a generator
it carries: a game saved and loaded goes on exactly as it would have."""

from __future__ import annotations

from typing import Any

from ..engine import Choice, Game

MASK = (1 << 64) - 1


def splitmix64(x: int) -> int:
    """A well-mixed 64-bit hash of ``x`` (SplitMix64's finaliser): cheap and uniform."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: Game[Any]) -> Choice:
        options = game.legal()
        r = splitmix64(self.seed * 1_000_003 + game.state.choices)
        return options[r % len(options)]
