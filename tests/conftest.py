"""Shared fixtures: the English rule set (built once) and games driven through the
one decision loop, with every invariant checked after each choice."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mnrules import Game, load_ruleset, new_game
from mnrules.invariants import check
from mnrules.ruleset import Ruleset


@pytest.fixture(scope="session")
def rules() -> Ruleset:
    return load_ruleset("en")


@pytest.fixture
def fresh_rules() -> Iterator[Callable[..., Ruleset]]:
    """A rule set of its own, for tests that register extra plugins or set parameters."""
    yield lambda pack="en", **params: load_ruleset(pack, {"params": params} if params else None)


@pytest.fixture
def game5(rules: Ruleset) -> Game:
    return new_game(rules, 5, seed=1)


def play(game: Game, *choices: Any) -> None:
    """Apply choices in order, checking the invariants after each."""
    for c in choices:
        game.apply(c)
        problems = check(game)
        assert not problems, problems


def pending(game: Game) -> tuple[str, str]:
    dec = game.pending
    assert dec is not None
    return dec.player, dec.kind


def advance_to(game: Game, kind: str, choose: Callable[[Game], Any] | None = None,
               limit: int = 10_000) -> None:
    """Play (first legal option, or ``choose``) until a decision of ``kind`` is pending."""
    for _ in range(limit):
        dec = game.pending
        assert dec is not None, "the game ended first"
        if dec.kind == kind:
            return
        game.apply(choose(game) if choose else dec.options[0])
    raise AssertionError(f"no {kind} decision within {limit} choices")
