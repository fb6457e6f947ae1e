"""The random bot's hash in limbs (``splitmix64_mod``, what the compiled core uses) is
``splitmix64(x) % n``, bit for bit: every random game depends on it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mnrules.bots import random_bot
from mnrules.bots.random_bot import MASK, splitmix64, splitmix64_mod


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.integers(0, MASK), st.integers(-(1 << 70), 1 << 70),
                 st.integers(0, 1 << 24)),
       st.one_of(st.integers(1, 64), st.integers(1, 1 << 40)))
def test_limbs_give_the_hash_modulo_n(x: int, n: int) -> None:
    assert splitmix64_mod(x, n) == splitmix64(x) % n


def test_edges() -> None:
    for x in (0, 1, MASK, MASK - 0x9E3779B97F4A7C15, MASK + 1, -1, 1 << 63, (1 << 63) - 1):
        for n in (1, 2, 3, 7, 1 << 22, (1 << 44) + 1, MASK, MASK + 7):
            assert splitmix64_mod(x, n) == splitmix64(x) % n


def test_the_flag_says_how_the_module_runs() -> None:
    compiled = not random_bot.__file__.endswith(".py")
    assert random_bot.COMPILED is compiled
