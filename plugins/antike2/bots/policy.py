"""What the kernel's search player (:mod:`mnrules.bots.mcts`, ``mcts:N``) knows of
Antike II: the rondel is the decision worth searching (where the nation's turn goes);
the heuristic bot answers the rest and plays the playouts until the nation is at the
rondel again (every nation has had its turn), ``depth`` decisions at most; its score of
every nation turned into each one's chance to win. Antike II hides nothing and draws
no die but the start player, so an imagined world is the game itself
(``mn_determinize`` has nothing to deal)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from mnrules.core.engine import Choice, Decision
from mnrules.core.engine import Game as KernelGame
from mnrules.hooks.hookspecs import hookimpl

from . import evaluate as ev
from .heuristic import HeuristicBot

SCALE = 25.0
"""Score points (personages and their promise) worth a factor e in the odds of winning."""


class Antike2Policy:
    def __init__(self, seed: int, depth: int = 60) -> None:
        self.depth = depth
        self.play = HeuristicBot(seed * 7919 + 2)

    def over(self, game: KernelGame[Any], start: Decision, round: int, phase: str) -> bool:
        """A rondel choice shows once every nation has had its turn: when the searching
        nation is at the rondel again."""
        dec = game.pending
        return dec is not None and dec.kind == "a2.rondel" and dec.player == start.player

    def searched(self, game: KernelGame[Any]) -> bool:
        dec = game.pending
        return dec is not None and dec.kind == "a2.rondel" and len(dec.options) > 1

    def candidates(self, game: KernelGame[Any]) -> Sequence[Choice]:
        """The heuristic's own pick first, then the rondel's spaces as offered (the
        nearer, cheaper ones first)."""
        first = self.play.choose(game)
        dec = game.pending
        assert dec is not None
        return [first, *(o for o in dec.options if o != first)]

    def playout(self, game: KernelGame[Any], salt: int) -> Choice:
        dec = game.pending
        assert dec is not None
        if len(dec.options) == 1:
            return dec.options[0]
        return self.play._choose(game, dec, deep=False)

    def values(self, game: KernelGame[Any]) -> dict[str, float]:
        players = game.state.players
        w = ev.weights(game)
        scores = [ev.score(game, p, w) / SCALE for p in players]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        return {p: x / total for p, x in zip(players, weights, strict=True)}


@hookimpl
def mn_determinize(game: KernelGame[Any], viewer: str, rng: random.Random) -> None:
    """Nothing to deal: stocks, know-how and personages lie open, and no die is thrown."""


@hookimpl
def mn_search_policy(rules: Any, seed: int) -> Antike2Policy:
    return Antike2Policy(seed)
