"""What the kernel's search player (:mod:`mnrules.bots.mcts`, ``mcts:N``) knows of Mare
Nostrum: the heuristic bot ranks the candidates and plays the playouts, its evaluation
turned into each empire's chance to win, and the hidden information (other screens,
face-down offers, the legendary pile and the face-down tiles) dealt afresh as a player
may imagine it (:func:`.common.determinize`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from mnrules.core.engine import Choice, Decision
from mnrules.core.engine import Game as KernelGame

from . import evaluate as ev
from .heuristic import HeuristicBot
from .search import HORIZON, SEARCHED, turn_over

SCALE = 12.0
"""Evaluation points worth a factor e in the odds of winning (the evaluation's spread
between empires is about ±50 midgame)."""


ROUND_KINDS = frozenset({"build.action", "trade.pick", "trade.token"})
"""The decisions whose playouts run to the end of the round (:meth:`over`)."""
QUICK = frozenset({"conquest.choose", "conquest.occupy"})
"""The playout's decisions answered by :func:`quick_conquest`, not by the heuristic's
lookahead (a clone and an evaluation for each option: two fifths of a playout's cost)."""
CONQUEST_ORDER = ("occupy", "marker", "pass", "done", "pillage")


def quick_conquest(dec: Decision) -> Choice:
    """A conquered province's answer by rule of thumb: occupy a building, else place
    the marker, else leave the buildings standing (the heuristic's own pick in 85% of
    150 such decisions of 12 seeded games; the search tree still weighs them all)."""
    rank = {kind: i for i, kind in enumerate(CONQUEST_ORDER)}
    return min(dec.options, key=lambda o: rank.get(str(o[0]), len(rank)))  # type: ignore[index]


class MareNostrumPolicy:
    """Search the decisions that shape the game (a purchase, a trade pick, a legion's
    move, a conquest, a card's question); the heuristic answers the rest and plays the
    playouts until the choice shows (:meth:`over`), ``depth`` decisions at most."""

    def __init__(self, seed: int, depth: int = 200) -> None:
        self.depth = depth
        self.rank = HeuristicBot(seed * 7919 + 1)
        self.play = HeuristicBot(seed * 7919 + 2)

    def over(self, game: KernelGame[Any], start: Decision, round: int, phase: str) -> bool:
        """A purchase (a build action, a trade pick or token) shows at the end of the
        round, a move or a card's question once its phase is over. (A purchase valued at
        the end of the player's own build turn, as the older search bot does, wins 39.0%
        [32.5, 45.9] of 200 games as ``mcts:8``; at the end of the round, what the others
        buy and fight in reply included, 48.0% of the first 100: docs/simulation.md.)"""
        if game.state.round != round:
            return True
        if start.kind in ROUND_KINDS:
            return False
        horizon = HORIZON.get(start.kind, "phase")
        if horizon == "phase":
            return bool(game.state.phase != phase)
        return bool(turn_over(game, start.player, horizon))

    def searched(self, game: KernelGame[Any]) -> bool:
        dec = game.pending
        return dec is not None and dec.kind in SEARCHED and len(dec.options) > 1

    def candidates(self, game: KernelGame[Any]) -> Sequence[Choice]:
        return self.rank.ranked(game)

    def playout(self, game: KernelGame[Any], salt: int) -> Choice:
        dec = game.pending
        assert dec is not None
        if dec.kind in QUICK:
            return quick_conquest(dec)
        return self.play.choose(game)

    def answer(self, game: KernelGame[Any], salt: int) -> Choice:
        """At the table as in a playout: the heuristic, a conquered province by rule of
        thumb when it is not searched (a single option)."""
        return self.playout(game, salt)

    def values(self, game: KernelGame[Any]) -> dict[str, float]:
        players = game.state.players
        t = ev.table(game, self.play.memo)
        t.all_incomes()
        scores = [ev.evaluate(game, p, t, self.play.memo) / SCALE for p in players]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        return {p: w / total for p, w in zip(players, weights, strict=True)}
