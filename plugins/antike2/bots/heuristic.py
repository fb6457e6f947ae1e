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
import random
from dataclasses import fields
from typing import Any

from antike2.state import HOLDINGS, Game, State
from mnrules.bots.random_bot import splitmix64
from mnrules.bots.settings import softmax_pick
from mnrules.core.engine import Choice, Decision
from mnrules.core.engine import Game as KernelGame

from . import evaluate as ev
from .settings import DEFAULT, Settings

_FIELDS = tuple(f.name for f in fields(State))
GAIN = 0.5            # a move must gain this much (personage points) to be made
LOOKAHEAD_CAP = 16    # options evaluated on copies at one decision, at most
INNER_CAP = 8         # ... within a rondel lookahead
TURN_CAP = 60         # the bot's own decisions played out in a rondel lookahead
REPEATS = 3           # a trade made up to this many times in a row, in a trade's lookahead
TEMPERATURE_SALT = 0x54454D50   # the tie-break's generator, for a temperature's draw


def clone(game: Game) -> Game:
    """A copy of ``game`` at its pending decision (plain data: a marshal round trip)."""
    _ = game.pending
    data = {name: getattr(game.state, name) for name in _FIELDS}
    state = State(**marshal.loads(marshal.dumps(data)))
    copy: Game = KernelGame(game.rules, state)
    return copy


class HeuristicBot:
    """Plays to win by evaluation; ``seed`` breaks ties (and, at a temperature above 0,
    draws among its best options: :mod:`.settings`)."""

    def __init__(self, seed: int = 0, settings: Settings = DEFAULT) -> None:
        self.seed = seed
        self.settings = settings

    def choose(self, game: KernelGame[Any]) -> Choice:
        dec = game.pending
        assert dec is not None, "the game is over"
        if len(dec.options) == 1:
            return dec.options[0]
        return self._choose(game, dec, deep=True, table=True)

    def _choose(self, game: Game, dec: Decision, deep: bool, table: bool = False) -> Choice:
        """The choice at ``dec``: ``deep`` with the full lookahead (else a short one, and no
        trade); ``table`` at the table itself (a temperature draws only there)."""
        if dec.kind == "a2.move":
            return self._move(game, dec)
        if dec.kind == "a2.pay":
            return self._pay(game, dec)
        if dec.kind in ("a2.trade_take", "a2.no_coin"):
            return self._take(game, dec)
        if dec.kind == "a2.trade" and ("done",) in dec.options:
            # within a lookahead no trade is made; at the table a trade is made only for
            # what it lets the rest of the turn do (:meth:`_trade`)
            return self._trade(game, dec) if deep else ("done",)
        if dec.kind == "a2.rondel" and deep:
            scores = {o: self._turn_value(game, o) for o in dec.options}
        else:
            scores = self._one_ply(game, dec, LOOKAHEAD_CAP if deep else INNER_CAP)
        return self._best(game, dec, scores, table)

    def _best(self, game: Game, dec: Decision, scores: dict[Choice, float],
              table: bool = False) -> Choice:
        if table and self.settings.temperature > 0:
            rng = random.Random(splitmix64(splitmix64(self.seed ^ TEMPERATURE_SALT)
                                           ^ game.state.choices))
            drawn = softmax_pick(dec.options, scores, self.settings.temperature, rng)
            if drawn is not None:
                return drawn
        top = max(scores.values())
        best = [o for o in dec.options if o in scores and scores[o] >= top - 1e-9]
        return best[splitmix64(self.seed * 1_000_003 + game.state.choices) % len(best)]

    # -- trades ------------------------------------------------------------------------------
    def _trade(self, game: Game, dec: Decision) -> Choice:
        """A trade with the bank, or ``done``, each scored where the others are: at the
        end of the bot's turn, the trade made (its payment and takes by the bot's own
        rules) and the rest of the turn played by the bot's own choices with no more
        trades. (Scoring ``done`` past the end of the turn and a trade at the next
        trade decision made it trade in loops.) A trade whose turn ends with all it
        took still held (beyond what ``done``'s turn ends with) buys nothing this turn,
        whatever else it changes: it waits for the next, where it may be made as well
        (``mnrules bots check``'s idle trade). When only a run of trades buys something,
        the first of them must take part of what is spent: it is the one made now, and
        the next decision weighs the rest anew (3 gold for 2 iron made first of three
        trades, for a marble the third took, left the iron idle: seed 1000005, round
        32). Before the rondel move it trades not at all (its action and its founding
        have trades of their own)."""
        me = dec.player
        turn = game.state.stack[-2] if len(game.state.stack) > 1 else {}
        if turn.get("step") == "a2.turn" and turn.get("stage") == 1:
            # before the rondel move: what a trade buys here it may buy at the action's
            # own trade (before its price is paid) or before founding, knowing the move
            return ("done",)
        base, base_stock = self._rest_of_turn(game, None, me)
        best: Choice = ("done",)
        top = base + GAIN
        for opt in dec.options:
            if opt == ("done",):
                continue
            for times in range(1, REPEATS + 1):
                found = self._rest_of_turn(game, opt, me, times)
                if found is None:
                    break   # it would take back a kind it pays (a loop), or cannot repeat
                value, stock, first = found
                if all(stock.get(k, 0) - base_stock.get(k, 0) >= n
                       for k, n in first.items() if n > 0):
                    continue   # idle: the rest of the turn spends none of what it takes
                if value > top:
                    best, top = opt, value
                break   # the fewest trades that buy something (the next decision asks again)
        return best

    def _rest_of_turn(self, game: Game, trade: Choice | None, me: str,
                      times: int = 1) -> Any:
        """The value at the end of ``me``'s turn and his stock then, after ``trade`` made
        ``times`` times (and the stock the first of them changed; None if a trade would
        take back a kind it pays, or cannot be made so often) or after ``done``."""
        g = clone(game)
        first: dict[str, int] = {}
        if trade is not None:
            before = dict(g.state.stock[me])
            for i in range(times):
                dec = g.pending
                if dec is None or dec.player != me or trade not in dec.options:
                    return None
                start = dict(g.state.stock[me])
                g.apply(trade)
                self._follow(g, me, {"a2.pay", "a2.trade_take"})
                now = g.state.stock[me]
                lost = sum(start.get(k, 0) - now.get(k, 0) for k in start
                           if now.get(k, 0) < start.get(k, 0))
                if lost != int(trade[1]):  # type: ignore[index]
                    return None   # a kind paid and taken back
                if i == 0:
                    after = g.state.stock[me]
                    first = {n: after.get(n, 0) - before.get(n, 0)
                             for n in set(before) | set(after)}
            dec = g.pending
            if dec is not None and dec.player == me and dec.kind == "a2.trade":
                g.apply(("done",))
        else:
            g.apply(("done",))
        for _ in range(TURN_CAP):
            dec = g.pending
            if dec is None or dec.player != me:
                break
            if len(dec.options) == 1:
                g.apply(dec.options[0])
            elif dec.kind == "a2.trade":
                g.apply(("done",))
            else:   # as the bot will choose at the table (no rondel move is left)
                g.apply(self._choose(g, dec, deep=dec.kind != "a2.rondel"))
        stock = dict(g.state.stock.get(me, {}))
        if trade is None:
            return ev.value(g, me), stock
        return ev.value(g, me), stock, first

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
