"""The heuristic bot for Antike II: plays every decision to win by the generic evaluation
(:mod:`.evaluate`) and a short lookahead of its own turn.

* **The rondel**: each space it can reach is tried on a copy of the game, the action
  played out by the bot's own choices to the end of its turn (founding and personages
  included), and the resulting position evaluated; the best is taken.
* **Moves**: each way a unit may go is valued by where the units would stand (what they
  could conquer or found there, or next to it), without copying the game; the bot
  stops when no move gains.
* **Paying**: the holding it has most of pays (a coin last). A trade with the bank is
  weighed as its plans (how often it is made, which kinds it takes) and each take at
  the table is the kind the best plan spends; within a lookahead it makes no trade and
  takes the kind it has least of.
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
from itertools import combinations_with_replacement
from typing import Any

from antike2.state import HOLDINGS, RESOURCES, Game, State
from antike2.trade import paid_kinds
from antike2.turn import this_turn
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
REPEATS = 3           # a trade made up to this many times in a row, in a trade's plans
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
        if dec.kind == "a2.trade_take" and table:
            return self._take_planned(game, dec)
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
        end of the bot's turn, the trade made and the rest of the turn played by the
        bot's own choices with no more trades. (Scoring ``done`` past the end of the
        turn and a trade at the next trade decision made it trade in loops.) A trade is
        scored as the best of its *plans*: the fewest repetitions of it that buy
        something, and which resources they take (:meth:`_plans`). A plan whose turn
        ends with all it took still held buys nothing this turn, whatever else it
        changes: it waits for the next turn, where it may be made as well (``mnrules
        bots check``'s idle trade); a larger plan counts only for what it gains beyond
        the smaller idle ones, since after the first trade the next decision weighs the
        rest against a turn that holds what it took. Before the rondel move it trades
        not at all (its
        action and its founding have trades of their own)."""
        me = dec.player
        turn = game.state.stack[-2] if len(game.state.stack) > 1 else {}
        if turn.get("step") == "a2.turn" and turn.get("stage") == 1:
            # before the rondel move: what a trade buys here it may buy at the action's
            # own trade (before its price is paid) or before founding, knowing the move
            return ("done",)
        base = self._rest_of_turn(game, me, None, ())
        assert base is not None
        offers = [o for o in dec.options if o != ("done",)]
        most = REPEATS * max(int(o[2]) for o in offers)  # type: ignore[index]
        wanted = self._wanted(game, me, RESOURCES, most, base[1])
        best: Choice = ("done",)
        top = base[0] + GAIN
        for opt in offers if wanted else ():
            kinds = tuple(k for k in self._kinds_to_take(game, me, opt) if k in wanted)
            floor = top
            for times in range(1, REPEATS + 1):
                plans = self._plans(game, me, opt, kinds, times * int(opt[2]))  # type: ignore[index]
                spending = [(v, takes) for v, takes, end in plans
                            if not _idle(takes, end, base[1])]
                if not spending:
                    if not plans:
                        break   # it cannot be made so often (or every plan is a loop)
                    # idle at this size: more trades may buy something, but only what
                    # they gain beyond it counts, for after this trade the next decision
                    # weighs the rest against a turn that holds what it took
                    floor = max(floor, max(v for v, _, _ in plans) + GAIN)
                    continue
                value = max(v for v, _ in spending)
                if value > max(top, floor):
                    best, top = opt, value
                break   # the fewest trades that buy something (the next decision asks again)
        return best

    def _take_planned(self, game: Game, dec: Decision) -> Choice:
        """A resource taken at the table, in the middle of a trade: the kind of the best
        plan (this trade's takes, then as many more of the same trade as pay: the same
        plans :meth:`_trade` weighed) that the rest of the turn spends most, so the
        takes of a run of trades follow one plan. A kind the trade paid is never taken
        back (a trade loop)."""
        me = dec.player
        frame = game.state.stack[-1]
        stock = game.state.stock[me]
        left = int(frame.get("get", 1))
        offer = ("trade", int(frame.get("pay", 0)), left + len(frame.get("took") or ()))
        paid = paid_kinds(frame, stock)
        kinds = tuple(k for k in RESOURCES if k in dec.options and k not in paid)
        ref = self._rest_of_turn(game, me, None, (), fill=True)
        if ref is not None:
            most = left + (REPEATS - 1) * offer[2]
            wanted = self._wanted(game, me, kinds, most, ref[1])
            kinds = tuple(k for k in kinds if k in wanted)
        if not kinds:
            return self._take(game, dec)
        if len(kinds) == 1:
            return kinds[0]
        best: tuple[float, tuple[str, ...], dict[str, int]] | None = None
        for more in range(REPEATS):
            plans = self._plans(game, me, offer, kinds, left + more * offer[2])
            if not plans:
                break
            # a plan whose takes the turn leaves unspent buys nothing now, however it
            # values them held (surplus gold turned into marble): :meth:`_trade` made
            # this trade for a plan that spends, so the takes follow one that does
            spending = [p for p in plans if any(_spent(p[1], p[2], stock, k)
                                                for k in set(p[1]))]
            value, takes, end = max(spending or plans, key=lambda p: p[0])
            if best is not None and value <= best[0] + GAIN:
                break   # one more trade gains nothing: nor, as the bot plays, do two
            best = (value, takes, end)
        if best is None:
            return self._take(game, dec)
        _, takes, end = best
        return max(sorted(set(takes)),
                   key=lambda k: (_spent(takes, end, stock, k), -stock.get(k, 0)))

    def _wanted(self, game: Game, me: str, kinds: tuple[str, ...], n: int,
                base: dict[str, int]) -> frozenset[str]:
        """The kinds the rest of the turn would spend more of, given ``n`` more of each of
        ``kinds`` for free, than it spends ending with ``base``: the only kinds a plan of
        trades can buy anything with (a plan of another kind ends idle)."""
        g = clone(game)
        for k in kinds:
            g.state.stock[me][k] = g.state.stock[me].get(k, 0) + n
        found = self._rest_of_turn(g, me, None, (), fill=True)
        if found is None:
            return frozenset()
        end = found[1]
        return frozenset(k for k in kinds if end.get(k, 0) < base.get(k, 0) + n)

    def _kinds_to_take(self, game: Game, me: str, offer: Choice) -> tuple[str, ...]:
        """The kinds a trade of ``offer`` may take: not those its payment (by the bot's
        own rule) pays."""
        g = clone(game)
        g.apply(offer)
        self._follow(g, me, {"a2.pay"})
        paid = paid_kinds(g.state.stack[-1], g.state.stock[me])
        return tuple(k for k in RESOURCES if k not in paid)

    def _plans(self, game: Game, me: str, offer: Choice, kinds: tuple[str, ...],
               n: int) -> list[tuple[float, tuple[str, ...], dict[str, int]]]:
        """Every way to take ``n`` resources of ``kinds`` by trades of ``offer`` (the
        takes pending first, then the trade made again as often as the rest need), each
        with the value and the stock at the end of the turn; a plan that cannot be made
        or takes back a kind it pays is left out."""
        out = []
        for takes in combinations_with_replacement(kinds, n):
            found = self._rest_of_turn(game, me, offer, takes)
            if found is not None:
                out.append((found[0], takes, found[1]))
        return out

    def _rest_of_turn(self, game: Game, me: str, offer: Choice | None,
                      takes: tuple[str, ...], fill: bool = False
                      ) -> tuple[float, dict[str, int]] | None:
        """The value at the end of ``me``'s turn and his stock then: from a trade
        decision, ``done`` (``offer`` None) or trades of ``offer`` taking ``takes`` in
        turn; from a take, ``takes`` first those of the trade under way (``fill``: the
        takes pending beyond them by the lookahead's rule). None if the trades cannot
        be made so, or one takes back a kind it paid."""
        g = clone(game)
        queue = list(takes)
        taken: set[str] = set()
        for _ in range(TURN_CAP):
            dec = g.pending
            if dec is None or not _turn_of(g, me):
                break
            if dec.player != me:   # a rival's answer within the turn (a battle)
                g.apply(self._choose(g, dec, deep=False))
            elif dec.kind == "a2.trade_take" and fill and not queue:
                g.apply(self._take(g, dec))
            elif dec.kind == "a2.trade_take":
                if not queue or queue[0] not in dec.options \
                        or queue[0] in paid_kinds(g.state.stack[-1], g.state.stock[me]):
                    return None   # the plan is not this trade's, or takes a kind paid back
                taken.add(queue[0])
                g.apply(queue.pop(0))
            elif dec.kind == "a2.trade":
                if not queue:
                    g.apply(("done",))
                    continue
                if offer not in dec.options:
                    return None
                g.apply(offer)
                self._follow(g, me, {"a2.pay"})
                if g.pending is None or g.pending.kind != "a2.trade_take" \
                        or paid_kinds(g.state.stack[-1], g.state.stock[me]) & taken:
                    return None   # it pays with a kind an earlier trade of the plan took
            elif len(dec.options) == 1:
                g.apply(dec.options[0])
            else:   # as the bot will choose at the table (no rondel move is left)
                g.apply(self._choose(g, dec, deep=dec.kind != "a2.rondel"))
        if queue:
            return None
        return ev.value(g, me), dict(g.state.stock.get(me, {}))

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
            if dec is None or not _turn_of(g, me) or dec.kind == "a2.rondel":
                break
            # a rival's answer within the turn (a battle's) as this bot would give it:
            # stopping there valued a Movere by its first battle, not by its conquests
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
        """A resource taken from the bank in a lookahead (or for want of a coin): the one
        it has least of."""
        stock = game.state.stock[dec.player]
        return min(dec.options, key=lambda k: (stock.get(str(k), 0), str(k)))

    @staticmethod
    def _pay(game: Game, dec: Decision) -> Choice:
        stock = game.state.stock[dec.player]
        order = {k: i for i, k in enumerate(HOLDINGS)}
        return max(dec.options, key=lambda k: (str(k) != "coin", stock.get(str(k), 0),
                                               -order.get(str(k), 0)))


def _turn_of(game: Game, me: str) -> bool:
    """Whether the turn under way is ``me``'s (its decisions may be a rival's)."""
    return this_turn(game).get("nation") == me


def _spent(takes: tuple[str, ...], end: dict[str, int], stock: dict[str, int],
           kind: str) -> int:
    """How many of a plan's takes of ``kind`` its turn spends, from ``stock`` (held
    before the takes) to ``end``: those taken are spent last."""
    return max(0, min(takes.count(kind),
                      stock.get(kind, 0) + takes.count(kind) - end.get(kind, 0)))


def _idle(takes: tuple[str, ...], end: dict[str, int], base: dict[str, int]) -> bool:
    """A plan's takes all still held when the turn ends (``end``), beyond what the turn
    without trades ends with (``base``): the trades bought nothing this turn."""
    return all(end.get(k, 0) - base.get(k, 0) >= takes.count(k) for k in set(takes))
