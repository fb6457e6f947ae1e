"""The search bot: Monte Carlo rollouts over determinized copies of what its player
knows.

At a decision that shapes the game (a purchase, a legion move, a conquest, a trade
pick, a card's question, ...) it takes the heuristic bot's best few options and
spends its iteration budget on them with UCB1: each iteration redraws the hidden
information as the player may imagine it (:func:`~mnrules.bots.common.determinize`:
the other screens and face-down offers dealt afresh from the hidden pool, the
legendary pile and the face-down tiles reshuffled, a die stream of its own), plays
the option, lets the heuristic policy play every seat until the option's
consequences show (the end of the build phase for trade and build decisions, the end
of Move & Fight for military ones, or the end of the game), and scores the position
with the heuristic's evaluation. The best mean wins. Other decisions go to the
heuristic bot directly.

The budget is a number of iterations, never a time: a seeded game replays exactly.
A rollout's chance is a function of the bot's seed, the game's choice count and the
rollout's number among its candidate's (:func:`~mnrules.bots.common.decision_seed`):
the k-th rollouts of all candidates share their imagined hidden information and dice
(common random numbers, so the candidates' means differ by what they do, not by
luck), and the bot carries no generator, so a saved game goes on exactly as it would
have.
"""

from __future__ import annotations

import math
import random

from mnrules.core.engine import Choice

from ..state import Game
from . import evaluate as ev
from .common import clone, decision_seed, determinize
from .heuristic import HeuristicBot

# How far a rollout goes: until the searching player's own turn of that phase is over
# ("build" / "military"), or until the phase is over ("phase").
HORIZON = {
    "trade.pick": "build",          # a trade decision shows in what one can buy
    "trade.token": "build",
    "build.action": "build",
    "military.legion": "phase",     # an attack shows once everybody has moved
    "military.naval": "phase",
    "military.trireme": "phase",
    "conquest.choose": "phase",
    "conquest.occupy": "phase",
    "card.may": "phase",
    "card.choose": "phase",
}
SEARCHED = frozenset(HORIZON)
MAX_STEPS = 600
MAX_ITERATIONS = 10_000
"""The most rollouts a decision ``search:N`` may ask (its name may come from a save)."""


class SearchBot:
    """``iterations`` rollouts per searched decision, shared by its ``width`` best
    candidates (by the heuristic's ranking)."""

    def __init__(self, seed: int = 0, iterations: int = 16, width: int = 4,
                 explore: float = 6.0, kinds: frozenset[str] = SEARCHED) -> None:
        self.seed = seed
        self.kinds = kinds
        self.iterations = iterations
        self.width = width
        self.explore = explore
        self.own = HeuristicBot(seed * 7919 + 1)
        self.policy = HeuristicBot(seed * 7919 + 2)
        self.searched = 0

    def choose(self, game: Game) -> Choice:
        dec = game.pending
        assert dec is not None, "the game is over"
        if len(dec.options) == 1:
            return dec.options[0]
        if dec.kind not in self.kinds or self.iterations <= 0:
            return self.own.choose(game)
        cands = self.own.ranked(game)[:self.width]
        if len(cands) == 1:
            return cands[0]
        self.searched += 1
        return self._search(game, dec.player, dec.kind, cands)

    def _search(self, game: Game, me: str, kind: str, cands: list[Choice]) -> Choice:
        horizon = HORIZON.get(kind, "phase")
        start_round = game.state.round
        n = [0] * len(cands)
        total = [0.0] * len(cands)
        sq = [0.0] * len(cands)
        for it in range(self.iterations):
            i = it if it < len(cands) else self._select(n, total, sq, it)
            # common random numbers: every candidate's k-th rollout imagines the same
            # hidden resources and tiles and starts from the same dice stream, so
            # the candidates are compared on the same worlds, not on luck
            seed = decision_seed(self.seed, game, n[i])
            g = clone(game, seed)
            determinize(g, me, random.Random(seed ^ 0x2545F491))
            g.apply(cands[i])
            self._rollout(g, me, horizon, start_round)
            v = ev.evaluate(g, me, memo=self.own.memo)
            n[i] += 1
            total[i] += v
            sq[i] += v * v
        tried = [j for j in range(len(cands)) if n[j]]
        best = max(tried, key=lambda j: (total[j] / n[j], -j))
        return cands[best]

    def _select(self, n: list[int], total: list[float], sq: list[float], it: int) -> int:
        count = sum(n)
        mean_all = sum(total) / count
        spread = math.sqrt(max(1e-9, sum(sq) / count - mean_all * mean_all))
        c = self.explore + spread
        log_t = math.log(it + 1)
        best, top = 0, float("-inf")
        for j in range(len(n)):
            u = total[j] / n[j] + c * math.sqrt(log_t / n[j])
            if u > top:
                best, top = j, u
        return best

    def _rollout(self, g: Game, me: str, horizon: str, start_round: int) -> None:
        """Play every seat with the heuristic policy until the horizon: the end of the
        current phase, or the end of ``me``'s own turn of the named phase (or the end
        of the game)."""
        policy = self.policy
        state = g.state
        start_phase = state.phase
        for _ in range(MAX_STEPS):
            dec = g.pending
            if dec is None or state.round != start_round:
                return
            if horizon == "phase":
                if state.phase != start_phase:
                    return
            elif turn_over(g, me, horizon):
                return
            if len(dec.options) == 1:
                g.apply(dec.options[0])
            else:
                g.apply(policy.choose(g))


def turn_over(g: Game, me: str, phase: str) -> bool:
    """Whether ``me`` has finished his turn of ``phase`` this round."""
    state = g.state
    phases = g.rules.phases
    order = phases.index(state.phase) if state.phase in phases else -1
    target = phases.index(phase)
    if order != target:
        return order > target
    turn = phase + ".turn"
    for frame in state.stack:
        if frame["step"] == phase:
            if me not in frame.get("done", ()):
                return False
        elif frame["step"] == turn and frame.get("player") == me:
            return False
    return True

