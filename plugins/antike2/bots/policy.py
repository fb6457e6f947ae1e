"""What the kernel's search player (:mod:`mnrules.bots.mcts`, ``mcts:N``) knows of
Antike II: the rondel is the decision worth searching (where the nation's turn goes);
the heuristic bot answers the rest at the table and plays the playouts until the nation
is at the rondel again (every nation has had its turn), ``depth`` decisions at most;
each nation's value there is the heuristic's own (its standing less half the best
rival's) turned into a chance to win. Antike II hides nothing and draws no die but the
start player, so an imagined world is the game itself (``determinize`` has nothing
to deal).

Measured head to head (one ``mcts:8`` among three heuristic bots, 4 nations, seeds
1000 + i, docs/simulation.md): playouts whose rondel moves are the heuristic's one-ply
guess, valued by the nations' bare standings, won 20.0% of 40 games; the rondel moves
looked ahead as the heuristic does at the table, 25.0%; valued as the heuristic values,
32.5%; both, 42.5%."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from mnrules.core.engine import Choice, Decision
from mnrules.core.engine import Game as KernelGame

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
        """A nation's rondel move as the heuristic makes it at the table (each space's
        turn looked ahead: what the others will do is the playout's point); the rest by
        its short lookahead, and no trade."""
        dec = game.pending
        assert dec is not None
        if len(dec.options) == 1:
            return dec.options[0]
        return self.play._choose(game, dec, deep=dec.kind == "a2.rondel")

    def answer(self, game: KernelGame[Any], salt: int) -> Choice:
        """At the table the heuristic's own full answer: its trades and its longer
        lookahead, which playouts leave out for speed (answering with the playout's
        choice, no trade at all, won 17.5% [12.9, 23.4] of 200 games as ``mcts:8``)."""
        return self.play.choose(game)

    def values(self, game: KernelGame[Any]) -> dict[str, float]:
        """Each nation's chance to win from its value as the heuristic weighs it
        (:func:`.evaluate.value`: its standing less half the best rival's), by a
        softmax."""
        players = game.state.players
        w = ev.weights(game)
        mine = [ev.score(game, p, w) for p in players]
        bare = [ev.score(game, p, w, units=False) for p in players]
        scores = [(m - ev.RIVAL * max((b for q, b in enumerate(bare) if q != i), default=0.0))
                  / SCALE for i, m in enumerate(mine)]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        return {p: x / total for p, x in zip(players, weights, strict=True)}


def search_policy(rules: Any, seed: int) -> Antike2Policy:
    return Antike2Policy(seed)
