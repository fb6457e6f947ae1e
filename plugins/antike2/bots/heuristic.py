"""The heuristic bot for Antike II: plays every decision to win by the generic evaluation
(:mod:`.evaluate`) and a short lookahead of its own turn.

* **The rondel**: each space it can reach is tried on a copy of the game, the action
  played out by the bot's own choices to the end of its turn (founding and personages
  included), and the resulting position evaluated; the best is taken.
* **Moves**: each way a unit may go is valued by where the units would stand (what they
  could conquer or found there, or next to it), without copying the game; the bot
  stops when no move gains.
* **Paying**: the holding it has most of pays (a coin last); a resource taken from the
  bank is the one it has least of; within a lookahead it makes no trade.
* Every other decision (a temple, a unit raised, a know-how, a city founded, a battle,
  a conquest, its losses, a trade) is decided by evaluating the position each option
  leads to on a copy.

Antike II hides nothing and throws no die, so a copy is the game itself: the bot reads
only what every player sees. Its choice is a function of its seed and the position: a
saved game goes on as it would have.
"""

from __future__ import annotations

import marshal
from dataclasses import fields
from typing import Any

from mnrules.bots.random_bot import splitmix64
from mnrules.engine import Choice, Decision
from mnrules.engine import Game as KernelGame
from mnrules.plugins.antike2.state import HOLDINGS, Game, State

from . import evaluate as ev

_FIELDS = tuple(f.name for f in fields(State))
GAIN = 0.5            # a move must gain this much (personage points) to be made
LOOKAHEAD_CAP = 16    # options evaluated on copies at one decision, at most
INNER_CAP = 8         # ... within a rondel lookahead
TURN_CAP = 60         # the bot's own decisions played out in a rondel lookahead


def clone(game: Game) -> Game:
    """A copy of ``game`` at its pending decision (plain data: a marshal round trip)."""
    _ = game.pending
    data = {name: getattr(game.state, name) for name in _FIELDS}
    state = State(**marshal.loads(marshal.dumps(data)))
    copy: Game = KernelGame(game.rules, state)
    return copy


class HeuristicBot:
    """Plays to win by evaluation; ``seed`` breaks ties."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: KernelGame[Any]) -> Choice:
        dec = game.pending
        assert dec is not None, "the game is over"
        if len(dec.options) == 1:
            return dec.options[0]
        return self._choose(game, dec, deep=True)

    def _choose(self, game: Game, dec: Decision, deep: bool) -> Choice:
        if dec.kind == "a2.move":
            return self._move(game, dec)
        if dec.kind == "a2.pay":
            return self._pay(game, dec)
        if dec.kind in ("a2.trade_take", "a2.no_coin"):
            return self._take(game, dec)
        if dec.kind == "a2.trade" and not deep and ("done",) in dec.options:
            return ("done",)
        if dec.kind == "a2.rondel" and deep:
            scores = {o: self._turn_value(game, o) for o in dec.options}
        else:
            scores = self._one_ply(game, dec, LOOKAHEAD_CAP if deep else INNER_CAP)
        return self._best(game, dec, scores)

    def _best(self, game: Game, dec: Decision, scores: dict[Choice, float]) -> Choice:
        top = max(scores.values())
        best = [o for o in dec.options if o in scores and scores[o] >= top - 1e-9]
        return best[splitmix64(self.seed * 1_000_003 + game.state.choices) % len(best)]

    # -- lookahead -------------------------------------------------------------------------
    def _one_ply(self, game: Game, dec: Decision, cap: int) -> dict[Choice, float]:
        options = list(dec.options)
        if len(options) > cap:
            keep = [o for o in options if o in (("done",), "peace", "fight")]
            rest = [o for o in options if o not in keep]
            start = splitmix64(self.seed ^ game.state.choices) % len(rest)
            options = keep + (rest[start:] + rest[:start])[:cap - len(keep)]
        out: dict[Choice, float] = {}
        for opt in options:
            g = clone(game)
            g.apply(opt)
            self._follow(g, dec.player, {"a2.losses", "a2.pay", "a2.trade_take",
                                         "a2.no_coin"})
            out[opt] = ev.value(g, dec.player)
        return out

    def _follow(self, g: Game, me: str, kinds: set[str]) -> None:
        """Answer the bot's own follow-up questions of these kinds (what a choice leads
        to at once: which units a conquest costs, what pays)."""
        for _ in range(8):
            dec = g.pending
            if dec is None or dec.player != me or dec.kind not in kinds:
                return
            g.apply(dec.options[0] if len(dec.options) == 1
                    else self._choose(g, dec, deep=False))

    def _turn_value(self, game: Game, space: Choice) -> float:
        """The position at the end of the bot's turn, the space taken and the action
        played by its own choices."""
        me = game.state.players[0] if game.pending is None else game.pending.player
        g = clone(game)
        g.apply(space)
        for _ in range(TURN_CAP):
            dec = g.pending
            if dec is None or dec.player != me or dec.kind == "a2.rondel":
                break
            g.apply(dec.options[0] if len(dec.options) == 1
                    else self._choose(g, dec, deep=False))
        return ev.value(g, me)

    # -- moves, without copies ---------------------------------------------------------------
    def _move(self, game: Game, dec: Decision) -> Choice:
        me = dec.player
        state = game.state
        w = ev.weights(game)
        goals = ev.Targets(game, me, w)
        base = ev.placement(game, me, w, goals)
        best: Choice = ("done",)
        top = GAIN
        for opt in dec.options:
            if not isinstance(opt, tuple) or opt[0] not in ("legion", "galley"):
                continue
            unit, path = str(opt[0]), opt[1]
            assert isinstance(path, tuple)
            origin, to = str(path[0]), str(path[-1])
            gain = self._sea_gain(game, me, unit, origin, to, w)
            state.remove_units(me, origin, unit)
            state.add_units(me, to, unit)
            try:
                gain += ev.placement(game, me, w, goals) - base
            finally:
                state.remove_units(me, to, unit)
                state.add_units(me, origin, unit)
            if gain > top:
                best, top = opt, gain
        return best

    @staticmethod
    def _sea_gain(game: Game, me: str, unit: str, origin: str, to: str,
                  w: ev.Weights) -> float:
        """What a galley's move changes in the seas held (toward a navigator)."""
        if unit != "galley":
            return 0.0
        board = game.rules.board
        state = game.state
        gain = 0.0
        if board.is_sea(to) and not state.count(me, to, "galley"):
            gain += board.sea_weight(to) * w.navigator
        if board.is_sea(origin) and state.count(me, origin, "galley") == 1:
            gain -= board.sea_weight(origin) * w.navigator
        return gain

    @staticmethod
    def _take(game: Game, dec: Decision) -> Choice:
        """A resource taken from the bank: the one it has least of."""
        stock = game.state.stock[dec.player]
        return min(dec.options, key=lambda k: (stock.get(str(k), 0), str(k)))

    @staticmethod
    def _pay(game: Game, dec: Decision) -> Choice:
        stock = game.state.stock[dec.player]
        order = {k: i for i, k in enumerate(HOLDINGS)}
        return max(dec.options, key=lambda k: (str(k) != "coin", stock.get(str(k), 0),
                                               -order.get(str(k), 0)))
