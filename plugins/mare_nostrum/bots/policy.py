"""What the kernel's search player (:mod:`mnrules.bots.mcts`, ``mcts:N``) knows of Mare
Nostrum: the heuristic bot ranks the candidates and plays the playouts, its evaluation
turned into each empire's chance to win, and the hidden information (other screens,
face-down offers, the legendary pile and the face-down tiles) dealt afresh as a player
may imagine it (:func:`.common.determinize`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from mnrules.engine import Choice
from mnrules.engine import Game as KernelGame

from . import evaluate as ev
from .heuristic import HeuristicBot
from .search import SEARCHED

SCALE = 12.0
"""Evaluation points worth a factor e in the odds of winning (the evaluation's spread
between empires is about ±50 midgame)."""


class MareNostrumPolicy:
    """Search the decisions that shape the game (a purchase, a trade pick, a legion's
    move, a conquest, a card's question); the heuristic answers the rest and plays the
    playouts, ``depth`` decisions or to the end of the round."""

    round_horizon = True

    def __init__(self, seed: int, depth: int = 40) -> None:
        self.depth = depth
        self.rank = HeuristicBot(seed * 7919 + 1)
        self.play = HeuristicBot(seed * 7919 + 2)

    def searched(self, game: KernelGame[Any]) -> bool:
        dec = game.pending
        return dec is not None and dec.kind in SEARCHED and len(dec.options) > 1

    def candidates(self, game: KernelGame[Any]) -> Sequence[Choice]:
        return self.rank.ranked(game)

    def playout(self, game: KernelGame[Any], salt: int) -> Choice:
        return self.play.choose(game)

    def values(self, game: KernelGame[Any]) -> dict[str, float]:
        players = game.state.players
        t = ev.table(game, self.play.memo)
        t.all_incomes()
        scores = [ev.evaluate(game, p, t, self.play.memo) / SCALE for p in players]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        return {p: w / total for p, w in zip(players, weights, strict=True)}
