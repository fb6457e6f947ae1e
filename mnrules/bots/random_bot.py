"""The random bot: a uniform choice among the legal options.

Its randomness is a function of its seed and the game's choice count, not a generator
it carries: a game saved and loaded goes on exactly as it would have."""

from __future__ import annotations

from typing import Any, Final

from ..core.engine import Choice, Game

MASK = (1 << 64) - 1


def splitmix64(x: int) -> int:
    """A well-mixed 64-bit hash of ``x`` (SplitMix64's finaliser): cheap and uniform."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


# splitmix64 in three limbs of 22, 22 and 20 bits (low to high), for the compiled core:
# there the 64-bit values and products above leave mypyc's short integers, and each of
# their twelve steps makes a heap integer (5,700 instructions a call); every limb
# and product here stays below 2**47, so each step is a native one. Pure Python runs
# its more numerous steps slower, so it keeps splitmix64 (the two are the same
# function: tests/test_speed_random.py).
_M22: Final = (1 << 22) - 1
_M20: Final = (1 << 20) - 1
_G0: Final = 0x9E3779B97F4A7C15 & _M22
_G1: Final = (0x9E3779B97F4A7C15 >> 22) & _M22
_G2: Final = 0x9E3779B97F4A7C15 >> 44
_C0: Final = 0xBF58476D1CE4E5B9 & _M22
_C1: Final = (0xBF58476D1CE4E5B9 >> 22) & _M22
_C2: Final = 0xBF58476D1CE4E5B9 >> 44
_D0: Final = 0x94D049BB133111EB & _M22
_D1: Final = (0x94D049BB133111EB >> 22) & _M22
_D2: Final = 0x94D049BB133111EB >> 44


def _times(a0: int, a1: int, a2: int, c0: int, c1: int,
           c2: int) -> tuple[int, int, int]:
    """The limbs of ``a * c`` modulo 2**64, from those of ``a`` and ``c``."""
    k = a0 * c0
    b0 = k & _M22
    k = (k >> 22) + a0 * c1 + a1 * c0
    b2 = ((k >> 22) + a0 * c2 + a1 * c1 + a2 * c0) & _M20
    return b0, k & _M22, b2


def splitmix64_mod(x: int, n: int) -> int:
    """``splitmix64(x) % n`` (``n`` > 0), counted without an integer of 64 bits."""
    a0 = x & _M22
    a1 = (x >> 22) & _M22
    a2 = (x >> 44) & _M20
    k = a0 + _G0
    a0 = k & _M22
    k = a1 + _G1 + (k >> 22)
    a1 = k & _M22
    a2 = (a2 + _G2 + (k >> 22)) & _M20
    a0 ^= ((a1 >> 8) | (a2 << 14)) & _M22          # x ^= x >> 30
    a1 ^= a2 >> 8
    a0, a1, a2 = _times(a0, a1, a2, _C0, _C1, _C2)   # x *= C, modulo 2**64
    a0 ^= ((a1 >> 5) | (a2 << 17)) & _M22          # x ^= x >> 27
    a1 ^= a2 >> 5
    a0, a1, a2 = _times(a0, a1, a2, _D0, _D1, _D2)   # x *= D, modulo 2**64
    a0 ^= ((a1 >> 9) | (a2 << 13)) & _M22          # x ^= x >> 31
    a1 ^= a2 >> 9
    return ((a2 % n) * ((1 << 44) % n) + (a1 % n) * ((1 << 22) % n) + a0) % n


# A compiled function has no code object.
COMPILED: Final = not hasattr(splitmix64_mod, "__code__")


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: Game[Any]) -> Choice:
        options = game.legal()
        x = self.seed * 1_000_003 + game.state.choices
        if COMPILED:
            return options[splitmix64_mod(x, len(options))]
        return options[splitmix64(x) % len(options)]
