"""The heuristic bot: plays every decision to win, by a position evaluation and a
little lookahead.

* **Trade**: offers what its purchases this round need least and takes what they
  need most (:func:`evaluate.screen_value`: the next hero or wonder, the Pyramids'
  price, then sets of three, then the coins it may keep).
* **Build**: buys what is worth most per resource — a winning tile first, then heroes
  and wonders (valued by the victory they near, their track bonuses and what they
  change in the quantities the rules fold), then markers, buildings and units valued
  by the tracks and titles they move, the income and variety they add, the capitals
  and legendary cities they bring, the defence they give and the sites a trireme
  opens; pays with the set that leaves the most to buy.
* **Move & Fight**: moves triremes to open sites, fights only when the exact battle
  odds make it pay, attacks provinces worth conquering, guards what is threatened;
  pillages, occupies or converts by evaluating the resulting positions.
* Any other decision (a card's question, a conqueror's choice, a collect choice) is
  decided by evaluating the position each option leads to, on a clone with the
  hidden information redrawn and chance of its own.

It reads only what its player may know (see :mod:`mnrules.bots.common`).
"""

from __future__ import annotations

import marshal
import random
from collections.abc import Callable
from typing import Any

from mnrules.bots.settings import softmax_pick
from mnrules.core.engine import Choice, Decision

from .. import api
from ..api import SPECIAL_KINDS, TRACKS
from ..state import Game, base_good
from . import evaluate as ev
from . import threat
from .common import Memo, clone, decision_rng, decision_seed, determinize, game_memo
from .profiles import DEFAULT, Profile

UNIT_LOSS = 2.2          # what losing a legion or trireme costs (in evaluation points)
ATTACK_MIN = 1.0         # an attack must be worth this much, odds included
LOOKAHEAD_CAP = 12       # options evaluated on clones, at most
PAY_CAP = 12             # payment sets evaluated exactly, at most
PLACED = ("legion", "fortress", "trireme", "marker")   # priced per place, remembered
TEMPERATURE_SALT = 0x54454D50   # the decision generator's use for a temperature's draw ("TEMP")


class HeuristicBot:
    """A bot that plays to win by evaluation (``seed`` breaks ties and draws chance
    for its lookahead; ``profile`` weighs the victory paths, :mod:`.profiles`). Its
    choice is a function of its seed, its profile and the position alone: a seeded
    game replays exactly, and a saved one goes on as it would have."""

    def __init__(self, seed: int = 0, profile: Profile = DEFAULT) -> None:
        self.seed = seed
        self.profile = profile
        self.depth = 0
        self.memo = Memo()
        self._handlers: dict[str, Callable[[Game, Decision], dict[Choice, float]]] = {
            "trade.token": self._trade_token,
            "trade.size": self._trade_size,
            "trade.offer": self._trade_offer,
            "trade.pick": self._trade_pick,
            "trade.giveback": self._trade_giveback,
            "build.next": self._build_next,
            "build.action": self._build_action,
            "build.pay": self._build_pay,
            "build.keep": self._build_keep,
            "military.next": self._military_next,
            "military.trireme": self._trireme,
            "military.naval": self._naval,
            "military.legion": self._legion,
            "military.land": self._land,
            "battle.loss": self._battle_loss,
            "claims.tie": self._claims_tie,
        }

    # -- the interface ---------------------------------------------------------------
    def choose(self, game: Game) -> Choice:
        dec = game.pending
        assert dec is not None, "the game is over"
        if len(dec.options) == 1:
            return dec.options[0]
        scores = self.scores(game)
        if self.profile.temperature > 0 and not self.depth:
            drawn = softmax_pick(dec.options, scores, self.profile.temperature,
                                 decision_rng(self.seed, game, TEMPERATURE_SALT))
            if drawn is not None:
                return drawn
        return best_of(dec.options, scores)

    def scores(self, game: Game) -> dict[Choice, float]:
        """A score for each option worth considering (higher is better)."""
        dec = game.pending
        assert dec is not None
        if not self.depth:
            self.memo = game_memo(game, self.memo)
        handler = self._handlers.get(dec.kind)
        if handler is None:
            return self.lookahead(game, dec, dec.options)
        return handler(game, dec)

    def ranked(self, game: Game) -> list[Choice]:
        """The options, best first (those the bot did not score come last)."""
        dec = game.pending
        assert dec is not None
        if len(dec.options) == 1:
            return [dec.options[0]]
        scores = self.scores(game)
        order = {o: i for i, o in enumerate(dec.options)}
        scored = sorted(scores, key=lambda o: (-scores[o], order.get(o, 0)))
        rest = [o for o in dec.options if o not in scores]
        return scored + rest

    # -- generic lookahead -----------------------------------------------------------
    def lookahead(self, game: Game, dec: Decision,
                  options: tuple[Choice, ...] | list[Choice]) -> dict[Choice, float]:
        """Each option's resulting position, evaluated on a clone (hidden information
        redrawn, chance of the bot's own); the bot's own follow-up questions of the
        same effect are answered by itself first."""
        cands = list(options)
        if len(cands) > LOOKAHEAD_CAP:
            decision_rng(self.seed, game, 1).shuffle(cands)
            cands = cands[:LOOKAHEAD_CAP]
        me = dec.player
        out: dict[Choice, float] = {}
        seed = decision_seed(self.seed, game, 2)
        for opt in cands:
            g = clone(game, seed)
            determinize(g, me, random.Random(seed))
            g.apply(opt)
            self._follow_up(g, me)
            out[opt] = ev.evaluate(g, me, memo=self.memo, prof=self.profile)
        return out

    FOLLOW = ("card.choose", "card.may", "conquest.occupy", "conquest.gain",
              "collect.choice", "build.pay", "build.keep", "battle.loss")

    def _follow_up(self, g: Game, me: str) -> None:
        if self.depth >= 2:
            return
        self.depth += 1
        try:
            for _ in range(8):
                dec = g.pending
                if dec is None or dec.player != me or dec.kind not in self.FOLLOW:
                    return
                g.apply(self.choose(g))
        finally:
            self.depth -= 1

    # -- trade -----------------------------------------------------------------------
    def _my_trade_screen(self, game: Game, me: str,
                         offered: bool = True) -> tuple[dict[str, int], int]:
        """My resources as the trade will leave them: my screen, what I have taken and
        (if ``offered``) what of my offer is still on the table."""
        screen = dict(game.state.screens[me])
        frame = game.state.stack[-1]
        for key in ("secret_taken", "offers") if offered else ("secret_taken",):
            part = frame.get(key, {})
            mine = part.get(me) if isinstance(part, dict) else None
            if isinstance(mine, dict):
                for k, n in mine.items():
                    screen[k] = screen.get(k, 0) + n
        return ev.split(screen)

    def _trade_token(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        goods, coins = ev.split(game.state.screens[me])
        tg = ev.targets(game, me, self.memo, self.profile.first_tile)
        winning = any(w >= 250 for _, w in tg.big) and \
            ev.screen_value(goods, coins, tg) >= 250
        out: dict[Choice, float] = {}
        for opt in dec.options:
            face = int(opt[1])  # type: ignore[index]
            out[opt] = -face if winning else face
        return out

    def _marginals(self, game: Game, me: str, goods: dict[str, int], coins: int,
                   keys: list[str], sign: int, ahead: int = 0) -> dict[str, float]:
        tg = ev.targets(game, me, self.memo, self.profile.first_tile)
        base = ev.screen_value(goods, coins, tg, ahead)
        out = {}
        for k in keys:
            g2, c2 = ev.with_key(goods, coins, k, sign)
            out[k] = sign * (ev.screen_value(g2, c2, tg, ahead) - base)
        return out

    def _picks_ahead(self, game: Game, me: str) -> int:
        """The trade picks still to come to me: one for each of my offered resources
        another player takes (the player taken from picks next), or, while offering,
        the offer's size."""
        if not self.profile.plan:
            return 0
        frame = game.state.stack[-1]
        offers = frame.get("offers")
        if isinstance(offers, dict) and isinstance(offers.get(me), dict):
            return int(sum(offers[me].values()))
        sizes = frame.get("sizes")
        if isinstance(sizes, dict):
            return int(sizes.get(me, 0))
        return 0

    def _trade_size(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        goods, coins = ev.split(game.state.screens[me])
        keys = sorted(game.state.screens[me])
        marg = self._marginals(game, me, goods, coins, keys, -1)
        spare = sum(game.state.screens[me][k] - 1 for k in keys) + \
            sum(1 for k in keys if marg[k] < 0.3)
        return {opt: -abs(int(opt) - spare) for opt in dec.options}  # type: ignore[call-overload]

    def _trade_offer(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        screen = game.state.screens[me]
        goods, coins = ev.split(screen)
        marg = self._marginals(game, me, goods, coins, [str(o) for o in dec.options], -1,
                               self._picks_ahead(game, me))
        out = {o: -marg[str(o)] + 0.01 * screen.get(str(o), 0) for o in dec.options}
        if self.profile.block and self.profile.plan:
            # what I offer, an empire near a build victory may take
            starved = self._starves(game, me)
            others = [p for p in game.state.players if p != me]
            for o in dec.options:
                out[o] -= self.profile.block * max(starved(q, str(o)) for q in others)
        return out

    def _trade_pick(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        ahead = self._picks_ahead(game, me)
        # each of my resources still on offer will be taken and give me a pick: the
        # picks to come replace them
        goods, coins = self._my_trade_screen(game, me, offered=not ahead)
        keys = sorted({str(o[1]) for o in dec.options})  # type: ignore[index]
        marg = self._marginals(game, me, goods, coins, keys, 1, ahead)
        t = self._quick_scores(game)
        top = max(t.values())
        out = {o: marg[str(o[1])] + 0.02 * (t[str(o[0])] - top)  # type: ignore[index]
               for o in dec.options}
        if self.profile.block:
            # taking from an empire near a victory what he would pay with denies it him
            starved = self._starves(game, me)
            for o in dec.options:
                out[o] += self.profile.block * starved(str(o[0]), str(o[1]))  # type: ignore[index]
        return out

    def _starves(self, game: Game, me: str) -> Callable[[str, str], float]:
        """What taking one resource of a kind from an empire near a build victory takes
        from his chance, weighed as the evaluation weighs him."""
        found = threat.dangers(game, memo=self.memo, kept_apart=bool(self.profile.plan),
                               trade=self.profile.trade_read,
                               reach=self.profile.reach_read)
        weights = threat.weights(me, found)
        memo: dict[tuple[str, str], float] = {}
        typed = bool(self.profile.plan)

        def starved(q: str, key: str) -> float:
            d = found.get(q)
            if d is None or not d.builds:
                return 0.0
            kind = "coin" if key == "coin" else base_good(key) if typed else "good"
            if (q, kind) not in memo:
                memo[q, kind] = weights.get(q, 0.0) * threat.feed(game, d, key, typed)
            return memo[q, kind]
        return starved

    def _trade_giveback(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        goods, coins = ev.split(game.state.screens[me])
        marg = self._marginals(game, me, goods, coins, [str(o) for o in dec.options], -1)
        out = {o: -marg[str(o)] for o in dec.options}
        net = game.state.stack[-1].get("net", {})
        short = next((p for p in game.state.players if net.get(p, 0) < 0), None)
        if self.profile.block and self.profile.plan and short is not None:
            starved = self._starves(game, me)
            for o in dec.options:
                out[o] -= self.profile.block * starved(short, str(o))
        return out

    def _quick_scores(self, game: Game) -> dict[str, float]:
        """A cheap public standing of each empire (its heroes and wonders, its titles)."""
        state = game.state
        out: dict[str, float] = {}
        for p in state.players:
            hw = api.heroes_and_wonders(game, p)
            out[p] = ev.hw_worth(hw, self.profile.first_tile) + 3.0 * sum(
                1 for who in state.titles.values() if who == p)
        return out

    # -- build -----------------------------------------------------------------------
    def _build_next(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        t = self._quick_scores(game)
        return {o: (1000.0 if o == me else -t[str(o)]) for o in dec.options}

    def _military_next(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        t = self._quick_scores(game)
        return {o: (-1000.0 if o == me else t[str(o)]) for o in dec.options}

    def _build_action(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        ctx = BuildContext(game, me, self.memo, self.profile)
        out: dict[Choice, float] = {("end",): 0.0}
        for opt in dec.options:
            action: tuple[Any, ...] = opt  # type: ignore[assignment]
            if action == ("end",):
                continue
            value, cost = ctx.value(action)
            if value is None:
                continue
            if action[0] == "tile" and game.rules.cards[action[1]].kind in SPECIAL_KINDS:
                value = self._special_tile(game, dec, action, value)
            if value <= 0.05:
                continue
            density = value / cost if cost > 0 else value * 4.0
            out[opt] = density
        return out

    def _special_tile(self, game: Game, dec: Decision, action: tuple[Any, ...],
                      value: float) -> float:
        """A tile that wins by its own script: find out on a clone whether it wins now."""
        me = dec.player
        seed = decision_seed(self.seed, game, 3)
        g = clone(game, seed)
        determinize(g, me, random.Random(seed))
        g.apply(action)
        self._follow_up(g, me)
        state = g.state
        if state.finished:
            return 1e6 if me in state.winners else -1.0
        claims = api.pending_build_victories(g)
        if any(me in who for who in claims.values()):
            return 1e4
        return value

    def _build_pay(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        screen = game.state.screens[me]
        goods, coins = ev.split(screen)
        tg = self._targets_after_payment(game, me)
        keys = sorted(screen)
        marg = self._marginals_tg(goods, coins, keys, tg)
        approx: list[tuple[float, int, Choice]] = []
        for i, opt in enumerate(dec.options):
            pay: tuple[str, ...] = opt  # type: ignore[assignment]
            approx.append((sum(marg[k] for k in pay), i, opt))
        approx.sort(key=lambda x: (x[0], x[1]))
        out: dict[Choice, float] = {}
        for _, _, opt in approx[:PAY_CAP]:
            g2, c2 = goods, coins
            for k in opt:  # type: ignore[attr-defined]
                g2, c2 = ev.with_key(g2, c2, str(k), -1)
            out[opt] = ev.screen_value(g2, c2, tg)
        return out

    def _targets_after_payment(self, game: Game, me: str) -> ev.Targets:
        """The big purchases still to aim at once the item being paid for is bought."""
        frame = game.state.stack[-1]
        action = tuple(frame.get("action", ()))
        tg = ev.targets(game, me, self.memo, self.profile.first_tile)
        if action and action[0] == "tile":
            # this is the tile: the next one would cost more and is for another round
            return ev.Targets((), tg.storage, tg.rules)
        return tg

    @staticmethod
    def _marginals_tg(goods: dict[str, int], coins: int, keys: list[str],
                      tg: ev.Targets) -> dict[str, float]:
        base = ev.screen_value(goods, coins, tg)
        out = {}
        for k in keys:
            g2, c2 = ev.with_key(goods, coins, k, -1)
            out[k] = base - ev.screen_value(g2, c2, tg)
        return out

    def _build_keep(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        inc = ev.income(game, me)
        have = {base_good(k) for k in inc if k != "coin"}
        out: dict[Choice, float] = {}
        for opt in dec.options:
            keep: tuple[str, ...] = opt  # type: ignore[assignment]
            out[opt] = sum(1.0 if base_good(k) not in have else 0.2 for k in keep) + \
                0.01 * len(keep)
        return out

    # -- move & fight ----------------------------------------------------------------
    def _trireme(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        state = game.state
        bases = [p for p, who in state.control.items() if who == me]
        fleet = api.fleet_seas(game, me)
        sites_value = _site_values(game, me)
        base_v = _reach_value(game, me, bases, frozenset(fleet), sites_value)
        out: dict[Choice, float] = {("done",): 0.0}
        for opt in dec.options:
            if opt == ("done",):
                continue
            src, dst = str(opt[1]), str(opt[2])  # type: ignore[index]
            new = set(fleet)
            if state.count(src, me, "trireme") <= 1:
                new.discard(src)
            new.add(dst)
            gain = _reach_value(game, me, bases, frozenset(new), sites_value) - base_v
            # a move must open something worth having: a trireme that stays keeps
            # its place in my chains and its anchor for building
            out[opt] = gain - 0.3 if gain > 0.3 else -1.0
        return out

    def _naval(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        out: dict[Choice, float] = {("done",): 0.0}
        for opt in dec.options:
            if opt == ("done",):
                continue
            sea, enemy = str(opt[1]), str(opt[2])  # type: ignore[index]
            mine = game.state.count(sea, me, "trireme")
            theirs = sum(game.state.units.get(sea, {}).get(enemy, {}).values())
            ev_loss = 0.0
            for la, lb, p in api.battle_odds(game, sea, me, enemy, units=(mine, theirs)):
                ev_loss += p * (lb - la)
            out[opt] = UNIT_LOSS * ev_loss - 0.8
        return out

    def _legion(self, game: Game, dec: Decision) -> dict[Choice, float]:
        """The turn's plan, made afresh at every legion move from the board as it is
        (a plan kept from the previous move would be state a save loses)."""
        me = dec.player
        moves = LegionPlanner(game, me, self.memo, self.profile).plan()
        moves = [mv for mv in moves if ("move", mv[0], mv[1]) in dec.options]
        out: dict[Choice, float] = {("done",): 0.0}
        for i, mv in enumerate(moves):
            opt = ("move", mv[0], mv[1])
            if opt not in out:
                out[opt] = 10.0 - 0.01 * i
        return out

    def _land(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        out: dict[Choice, float] = {}
        for opt in dec.options:
            area, enemy = str(opt[1]), str(opt[2])  # type: ignore[index]
            out[opt] = _conquer_chance(game, area, me, enemy,
                                       game.state.count(area, me, "legion"))
        return out

    def _battle_loss(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        frame = game.state.stack[-1]
        area = frame.get("area", "")
        mine = game.state.control.get(area) == me
        out: dict[Choice, float] = {}
        for opt in dec.options:
            if opt == "legion":
                out[opt] = 1.0
            elif opt == "fortress":
                out[opt] = 0.5 if mine else 2.0
            else:
                out[opt] = 0.0
        return out

    # -- claims ----------------------------------------------------------------------
    def _claims_tie(self, game: Game, dec: Decision) -> dict[Choice, float]:
        me = dec.player
        state = game.state
        frame = state.stack[-1]
        track = TRACKS[frame.get("i", 0)] if frame.get("i", 0) < len(TRACKS) else ""
        t = self._quick_scores(game)
        out: dict[Choice, float] = {}
        for opt in dec.options:
            if opt == me:
                out[opt] = 1e6
                continue
            held = sum(1 for tr, who in state.titles.items() if who == opt and tr != track)
            out[opt] = -100.0 * held - t[str(opt)]
        return out


def best_of(options: tuple[Choice, ...], scores: dict[Choice, float]) -> Choice:
    """The best-scored option (the first listed among equals; unscored ones lose)."""
    best = options[0]
    top = float("-inf")
    for opt in options:
        s = scores.get(opt)
        if s is not None and s > top:
            best, top = opt, s
    return best


# -- building ------------------------------------------------------------------------
class BuildContext:
    """What one build decision needs to value every purchase (computed once)."""

    def __init__(self, game: Game, me: str, memo: Memo, prof: Profile = DEFAULT) -> None:
        self.game = game
        self.me = me
        self.prof = prof
        state = game.state
        self.t = ev.table(game, memo)
        self._found: dict[str, threat.Danger] | None = None
        self.memo = memo
        # the titles' race matters to the others' victories only when one of them
        # nears all three or he and I may share a build phase's fifth tile
        racing = threat.racing(game, self.t)
        self.race = me in racing and len(racing) >= 2
        watched = threat.watched(game, self.t) - {me}
        self.titles_matter = len(racing) >= 2 or any(
            sum(1 for who in self.t.titles.values() if who == q) >= 2 for q in watched)
        self.inc = self.t.income(me)
        self.types = {base_good(k) for k in self.inc if k not in ("coin",) and "|" not in k}
        self.lead_now = self._lead({})
        self.great = self.t.great[me]
        kinds: dict[str, str] = {}
        for track, ks in game.param("track_buildings").items():
            for k in ks:
                kinds[k] = track
        self.track_of = kinds
        self.great_kinds = set(game.param("conquest_kinds"))
        self.threat = _threats(game, me, memo)
        self.markers_left = state.pieces[me].get("marker", 0)
        self.sites = api.marker_sites(game, me) if self.markers_left else set()
        self._site_values: dict[str, float] = {}
        self.coin_w = ev.COIN_W * prof.plan
        self.income_w = ev.income_worth(self.inc, self.coin_w)
        self._powers_before: dict[str, float] | None = None
        self._power_gains: dict[str, float] = {}   # by tile, for this decision only
        self._track_gains: dict[tuple[str, int], float] = {}
        self._reach: dict[str, set[str]] = {}
        self._my_reach: api.Reach | None = None
        self._denials: dict[tuple[str, str], float] = {}
        self._prices: dict[tuple[Any, ...], int | None] = {}

    def dangers(self) -> dict[str, threat.Danger]:
        """Every empire's nearness to a victory (:mod:`.threat`), computed once."""
        if self._found is None:
            self._found = threat.dangers(self.game, self.t, self.memo, bool(self.prof.plan),
                                         self.prof.trade_read, self.prof.reach_read)
        return self._found

    # -- pieces of value
    def _lead(self, delta: dict[str, int]) -> float:
        t = self.t
        me = self.me
        if delta:
            lv = {p: dict(v) for p, v in t.levels.items()}
            for k, n in delta.items():
                lv[me][k] += n
            t2 = ev.Table(game=None, levels=lv, titles=t.titles, great=t.great, hw=t.hw)
        else:
            t2 = t
        held = sum(1 for who in t.titles.values() if who == me)
        chances = ev.title_chances(t2, me)
        worth = self.prof.titles * ev.leadership_worth(chances, held)
        if self.prof.block and self.race:
            worth += self.prof.block * threat.tie_stake(chances, me, self.dangers())
        return worth

    def track_gain(self, track: str, n: int = 1) -> float:
        key = (track, n)
        found = self._track_gains.get(key)
        if found is None:
            found = self._lead({track: n}) - self.lead_now
            if self.prof.block and self.titles_matter:
                found += self.prof.block * threat.title_denial(self.t, self.me,
                                                               self.dangers(), {track: n})
            self._track_gains[key] = found
        return found

    def income_gain(self, delta: dict[str, int]) -> float:
        inc = dict(self.inc)
        for k, n in delta.items():
            inc[k] = inc.get(k, 0) + n
        return self.prof.economy * (ev.income_worth(inc, self.coin_w) - self.income_w)

    def great_gain(self, n: int = 1) -> float:
        g = min(self.great, 4)
        after = min(g + n, 4)
        return self.prof.cities * (ev.GREAT_VALUE[after] - ev.GREAT_VALUE[g])

    def great_slot_worth(self) -> float:
        g = min(self.great, 4)
        return self.prof.cities * ev.GREAT_SLOT * (1.0 + 0.5 * g) if g < 4 else 0.0

    def defence(self, prov: str, strength: float) -> float:
        """Worth of adding ``strength`` to the defence of my province ``prov``."""
        state = self.game.state
        threat = self.threat.get(prov, 0)
        if threat <= 0:
            return 0.0
        mine = state.count(prov, self.me, "legion") + 2 * state.count(prov, self.me,
                                                                         "fortress")
        need = threat + 1 - mine
        if need <= 0:
            return 0.1 * strength
        return min(strength, need) * 0.35 * self.stake(prov)

    def stake(self, prov: str) -> float:
        """What I would lose with ``prov``: its buildings, its great cities."""
        state = self.game.state
        slots = self.game.rules.board.provinces[prov].slots
        s = 1.0
        for i, b in enumerate(state.built[prov]):
            if b and api.slot_controller(self.game, prov, i) == self.me:
                s += 1.0
                if slots[i].kind in self.great_kinds:
                    s += self.great_gain() * 0.5 + 2.0
        return s

    def province_income(self, prov: str, extra: tuple[int, ...] = ()) -> dict[str, int]:
        """What I would collect from ``prov`` if I controlled its built slots (and
        ``extra`` slots were built too)."""
        state = self.game.state
        built = [i for i, b in enumerate(state.built[prov])
                 if (b and (state.occupied[prov][i] in (None, self.me))) or i in extra]
        return api.province_income(self.game, prov, built)

    def site_value(self, prov: str) -> float:
        """Worth of a control marker on ``prov``."""
        if prov in self._site_values:
            return self._site_values[prov]
        game = self.game
        state = game.state
        slots = game.rules.board.provinces[prov].slots
        v = ev.PROVINCE_W + self.income_gain(self.province_income(prov))
        potentials = []
        for i, b in enumerate(state.built[prov]):
            kind = slots[i].kind
            if b:
                track = self.track_of.get(kind)
                if track:
                    v += 0.6 * self.track_gain(track)
                if kind in self.great_kinds:
                    v += self.great_gain()
                continue
            if state.supply.get(kind, 0) <= 0:
                continue
            if kind in self.great_kinds:
                potentials.append(self.great_slot_worth() + 1.0)
            elif kind == "caravan":
                new = slots[i].good not in self.types
                potentials.append(1.6 if new else 0.9)
            elif kind == "city":
                potentials.append(0.9)
            else:
                potentials.append(0.4)
        potentials.sort(reverse=True)
        v += sum(potentials[:2]) + 0.3 * sum(potentials[2:])
        if self.markers_left <= 2:
            v -= 0.8
        self._site_values[prov] = v
        return v

    def value(self, action: tuple[Any, ...]) -> tuple[float | None, int]:
        """(worth, resources spent) of a purchase."""
        game = self.game
        kind = action[0]
        if kind == "offer":
            offer = api.find_offer(game, self.me, action)
            if offer is None:
                return None, 0
            pays = api.offer_payments(game, self.me, offer)
            cost = min((len(p) for p in pays), default=0)
            v, _ = self.value((offer.item, action[3]))
            if v is None:
                return None, 0
            return v * max(1, offer.count), cost
        if kind in PLACED:
            # asked once a decision for each place: a card may price an item by where
            # it goes (a cost modified in one region)
            price = self._prices.get(action)
            if price is None:
                price = self._prices[action] = api.cost(game, self.me, action)
        else:
            price = api.cost(game, self.me, action)
        if price is None:
            return None, 0
        cost = price
        if kind == "tile":
            return self.tile_value(action[1]), cost
        if kind == "marker":
            return self.site_value(action[1]), cost
        if kind == "building":
            return self.building_value(action[1], action[2]), cost
        if kind in ("legion", "fortress"):
            strength = 1.0 if kind == "legion" else 2.0
            unit = ev.UNIT_W * self.prof.army
            v = unit + self.track_gain("military") + self.defence(action[1], strength)
            if kind == "legion":
                v += self.prof.army * self.prof.aggression * self.offence(action[1])
            return v, cost
        if kind == "trireme":
            return (ev.UNIT_W * self.prof.army + self.track_gain("military")
                    + self.sea_value(action[1])), cost
        return None, 0

    def building_value(self, prov: str, i: int) -> float:
        game = self.game
        slot = game.rules.board.provinces[prov].slots[i]
        v = 0.0
        track = self.track_of.get(slot.kind)
        if track:
            v += self.track_gain(track)
        before = self.province_income(prov)
        after = self.province_income(prov, (i,))
        delta = {k: after.get(k, 0) - before.get(k, 0) for k in set(before) | set(after)}
        v += self.income_gain(delta)
        if slot.kind in self.great_kinds:
            v += self.great_gain() - self.great_slot_worth()
        v += 0.3  # a building also makes the province worth holding
        return v

    def tile_value(self, tile: str) -> float:
        """A hero or wonder: the victory it nears, its bonuses, and what it changes in
        the quantities the rules fold (payment, storage, income, battle, offers)."""
        game = self.game
        state = game.state
        me = self.me
        card = game.rules.cards[tile]
        hw = self.t.hw[me]
        if card.kind in SPECIAL_KINDS:
            v = 20.0 * self.prof.tiles
        else:
            v = self.prof.tiles * (ev.hw_worth(hw + 1, self.prof.first_tile)
                                   - ev.hw_worth(hw, self.prof.first_tile))
        bonus = {k: int(n) for k, n in card.bonuses.items() if k in TRACKS}
        if bonus:
            v += self._lead(bonus) - self.lead_now
            if self.prof.block and self.titles_matter:
                v += self.prof.block * threat.title_denial(self.t, me, self.dangers(), bonus)
        if self.prof.block and card.kind not in SPECIAL_KINDS:
            v += self.prof.block * self.display_denial(tile)
        gain = self._power_gains.get(tile)
        if gain is None:
            if self._powers_before is None:
                self._powers_before = _powers(game, me, self.memo, self.inc, self.coin_w)
            before = self._powers_before
            state.tiles[me].append(tile)
            try:
                after = _powers(game, me, self.memo, coin_w=self.coin_w)
            finally:
                state.tiles[me].pop()
            gain = self._power_gains[tile] = sum(after[k] - before[k] for k in before)
        return v + gain

    def display_denial(self, tile: str) -> float:
        """Buying the last face-up tile an empire one tile from his fifth could buy
        before his build turn (the display is refilled only when the phase ends): his
        chance of the fifth, times what it is worth to him, weighed by his danger."""
        game = self.game
        if game.param("hw_refill") != "end_of_phase":
            return 0.0
        last = game.param("max_tiles") - 1
        found: dict[str, threat.Danger] | None = None
        v = 0.0
        for q in threat.still_to_build(game):
            if q == self.me or self.t.hw[q] != last:
                continue
            if threat.regular_tiles_left(game, q, minus=tile):
                continue
            if found is None:
                found = self.dangers()
            w = threat.weights(self.me, found).get(q, 0.0)
            v += w * found[q].fifth * (ev.HW_VALUE[last + 1] - ev.HW_VALUE[last])
        return v

    def sea_value(self, sea: str) -> float:
        """A trireme in ``sea``: the marker sites it opens now."""
        if not self.markers_left:
            return 0.0
        game = self.game
        state = game.state
        chains = api.reach(game, self.me, api.fleet_seas(game, self.me) | {sea})
        reach: set[str] = set()
        for b in api.marker_bases(game, self.me):
            reach |= chains.connected(b)
        new = [p for p in reach if p not in self.sites and state.control.get(p) is None
               and p in state.built and not api.has_enemies(game, p, self.me)]
        if not new:
            return 0.0
        vals = sorted((self.site_value(p) for p in new), reverse=True)
        return 0.7 * vals[0] + 0.15 * sum(vals[1:3])

    def offence(self, prov: str) -> float:
        """A legion in ``prov``: how it helps take a weak enemy province nearby."""
        game = self.game
        state = game.state
        best = 0.0
        near = self._reach.get(prov)
        if near is None:
            if self._my_reach is None:
                self._my_reach = api.reach(game, self.me)
            near = self._reach[prov] = self._my_reach(prov)
        block = self.prof.block
        for nb in near:
            owner = state.control.get(nb)
            if owner is None or owner == self.me:
                continue
            great = ev.great_slot_count(game, nb, owner)
            worth = self.great_gain() + 2.0 if great else 0.0
            if block:
                worth += block * self.income_denial(nb, owner)
            if not worth:
                continue
            guard = sum(sum(u.values()) for q, u in state.units.get(nb, {}).items()
                        if q != self.me)
            best = max(best, worth * 0.25 / (1.0 + guard))
        return best

    def income_denial(self, prov: str, owner: str) -> float:
        """Taking ``prov``'s income from an ``owner`` near a build victory
        (:func:`threat.relief`), weighed as the evaluation weighs him."""
        found = self._denials.get((prov, owner))
        if found is None:
            # asked again for each province next to it
            found = self._denials[prov, owner] = _income_denial(
                self.game, self.me, self.dangers(), prov, owner)
        return found


def _powers(game: Game, player: str, memo: Memo | None = None,
            inc: dict[str, int] | None = None, coin_w: float = 0.0) -> dict[str, float]:
    """What a player's cards change in the quantities the rules fold, as worth
    (``inc``: his income in this position, if the caller has it; ``coin_w``: a coin of
    income's worth as a share of a type of goods, :func:`evaluate.income_worth`)."""
    rules = ev.payment_rules(game, player, memo)
    out = {"sets": 2.5 * (rules.coins_in_goods_set + rules.goods_in_coin_set
                          + rules.repeated_types)}
    coins, goods = ev.storage(game, player, memo)
    out["storage"] = 1.5 * (coins + goods)
    out["income"] = ev.income_worth(ev.income(game, player) if inc is None else inc,
                                    coin_w)
    offers = api.card_offers(game, player)
    out["offers"] = sum(2.5 * o.count / (1 + min((len(p) for p in o.payments), default=0))
                        for o in offers)
    sizes = api.offer_sizes(game, player, 3)
    out["trade"] = 0.4 * (len(sizes) - 1)
    out["battle"] = _battle_power(game, player)
    out["first"] = 4.0 if api.wins_alone(game, player, "fifth") else 0.0
    return out


def _battle_power(game: Game, player: str) -> float:
    """Expected hits with three legions attacking a neighbour and defending at home."""
    home = api.capital(game, player)
    others = [p for p in game.state.players if p != player]
    if not others:
        return 0.0
    enemy = others[0]
    # defending at home against three legions, then attacking the enemy's home
    _, defending = api.expected_hits(game, home, enemy, player, 3, 3)
    attacking, _ = api.expected_hits(game, api.capital(game, enemy), player, enemy, 3)
    return 2.0 * (defending + attacking)


def _income_denial(game: Game, me: str, found: dict[str, threat.Danger], prov: str,
                   owner: str) -> float:
    """Taking ``prov``'s income from an ``owner`` near a build victory: what it takes from
    his chance (:func:`threat.relief`), weighed as the evaluation weighs him."""
    d = found[owner]
    if not d.builds:
        return 0.0
    state = game.state
    mine = [i for i, b in enumerate(state.built[prov])
            if b and state.occupied[prov][i] in (None, owner)]
    lost = sum(api.province_income(game, prov, mine).values())
    w = threat.weights(me, found).get(owner, 0.0)
    return w * threat.relief(game, d, lost)


# -- the map ---------------------------------------------------------------------------
def _threats(game: Game, me: str, memo: Memo) -> dict[str, int]:
    """For each province, the most legions one other player could bring into it
    (remembered by the units on the board and the provinces in play, which is all it
    depends on)."""
    state = game.state
    key = (me, tuple(state.built), marshal.dumps(state.units))
    known = memo.table(game, "threats")
    found = known.get(key)
    if found is None:
        found = known[key] = _compute_threats(game, me)
    return found


def _compute_threats(game: Game, me: str) -> dict[str, int]:
    state = game.state
    per: dict[str, dict[str, int]] = {}
    reaches: dict[str, api.Reach] = {}
    for area, here in state.units.items():
        if area not in state.built:
            continue
        for q, units in here.items():
            if q == me:
                continue
            n = units.get("legion", 0)
            if not n:
                continue
            dest = per.setdefault(q, {})
            if q not in reaches:
                reaches[q] = api.reach(game, q)
            for x in reaches[q](area):
                dest[x] = dest.get(x, 0) + n
            dest[area] = dest.get(area, 0) + n
    out: dict[str, int] = {}
    for dest in per.values():
        for x, n in dest.items():
            if n > out.get(x, 0):
                out[x] = n
    return out


def _site_values(game: Game, me: str) -> dict[str, float]:
    """Rough worth of neutral provinces as future marker sites."""
    state = game.state
    board = game.rules.board
    kinds = set(game.param("conquest_kinds"))
    out: dict[str, float] = {}
    for prov, who in state.control.items():
        if who is not None or api.has_enemies(game, prov, me):
            continue
        v = 1.0
        for slot in board.provinces[prov].slots:
            kind = slot.kind
            if kind in kinds:
                v += 4.0
            elif kind in ("caravan", "city"):
                v += 0.8
        out[prov] = v
    return out


def _reach_value(game: Game, me: str, bases: list[str], fleet: frozenset[str],
                 values: dict[str, float]) -> float:
    near = api.reach(game, me, fleet)
    reach: set[str] = set()
    for b in bases:
        reach |= near(b)
    vals = sorted((values[p] for p in reach if p in values), reverse=True)
    return sum(vals[:3]) + 0.2 * sum(vals[3:])


def _conquer_chance(game: Game, area: str, me: str, enemy: str, legions: int) -> float:
    """Chance that ``me`` with ``legions`` there leaves ``enemy`` without a unit in
    ``area`` and keeps at least one legion (exact)."""
    if legions <= 0:
        return 0.0
    state = game.state
    theirs = sum(state.units.get(area, {}).get(enemy, {}).values())
    if theirs == 0:
        return 1.0
    p = 0.0
    for la, lb, q in api.battle_odds(game, area, me, enemy, legions,
                                     units=(legions, theirs)):
        if lb >= theirs and la < legions:
            p += q
    return p


class LegionPlanner:
    """The legion moves of one turn: attacks that pay at the exact odds, then guards."""

    def __init__(self, game: Game, me: str, memo: Memo, prof: Profile = DEFAULT) -> None:
        self.game = game
        self.me = me
        self.prof = prof
        self._near: dict[str, float] | None = None
        state = game.state
        frame = state.stack[-1]
        arrived: dict[str, int] = frame.get("arrived", {})
        self.free: dict[str, int] = {}
        for area, here in state.units.items():
            n = here.get(me, {}).get("legion", 0)
            if not n or area not in state.built:
                continue
            movable = n - arrived.get(area, 0)
            keep = api.occupations(game, area, me)
            f = min(movable, n - keep)
            if f > 0:
                self.free[area] = f
        self.threat = _threats(game, me, memo)
        self.great_kinds = set(game.param("conquest_kinds"))
        self._great: dict[str, int] | None = None
        self.reach = api.reach(game, me)
        self._danger: dict[str, threat.Danger] | None = None
        self._watched: set[str] | None = None
        self.memo = memo

    def reserve(self, prov: str) -> int:
        """Legions to keep at home in ``prov``."""
        state = self.game.state
        if state.control.get(prov) != self.me:
            return 0
        threat = self.threat.get(prov, 0)
        if threat <= 0:
            return 0
        great = ev.great_slot_count(self.game, prov, self.me)
        mine = state.count(prov, self.me, "legion")
        fort = 2 * state.count(prov, self.me, "fortress")
        if great:
            return min(mine, max(1, threat + 1 - fort))
        return min(mine, 1) if threat > mine + fort else 0

    def near_victory(self, player: str) -> float:
        """How close ``player`` stands to a victory (:func:`evaluate.near_victory`)."""
        if self._near is None:
            t = self._table()
            self._near = {p: ev.near_victory(t, p) for p in self.game.state.players}
        return self._near[player]

    def _table(self) -> ev.Table:
        """What the table shows of titles, great cities and heroes and wonders, as the
        victory estimates read it."""
        game = self.game
        if self._great is None:
            self._great = api.great_cities(game)
        return ev.Table(game=None, levels={}, titles=dict(game.state.titles),
                        great=self._great,
                        hw={p: ev.hw_count(game, p) for p in game.state.players})

    def target_value(self, prov: str, legions: float) -> float:
        """Worth of being the sole unit owner in ``prov`` with about ``legions``,
        weighed by the profile's aggression (and its denial of an empire one step
        from a victory)."""
        value = self._target_value(prov, legions)
        owner = self.game.state.control.get(prov)
        if owner is None or owner == self.me:
            return value
        prof = self.prof
        # with a sense of threat, graded by how near he stands to any victory
        if not prof.block:
            return value * prof.aggression * (1.0 + prof.denial * self.near_victory(owner))
        near = self.danger(owner) * (1.0 + prof.block)
        return (value * prof.aggression * (1.0 + prof.denial * near)
                + prof.block * self.block_value(prov, owner))

    def _dangers(self) -> dict[str, threat.Danger]:
        if self._danger is None:
            self._danger = threat.dangers(self.game, memo=self.memo,
                                          kept_apart=bool(self.prof.plan),
                                          trade=self.prof.trade_read,
                                          reach=self.prof.reach_read)
        return self._danger

    def danger(self, player: str) -> float:
        """``player``'s nearness to any victory (:func:`threat.danger`), read once a
        plan, and only for the empires the table shows near one (:func:`threat.watched`:
        a special wonder's threat is left to the build and trade phases)."""
        if self._watched is None:
            self._watched = threat.watched(self.game, self._table())
        if player not in self._watched:
            return 0.0
        return self._dangers()[player].total

    def block_value(self, prov: str, owner: str) -> float:
        """Taking ``prov``'s income from an owner near a build victory: what it takes
        from his chance (:func:`threat.relief`), weighed as the evaluation weighs him."""
        if not self.danger(owner):
            return 0.0
        return _income_denial(self.game, self.me, self._dangers(), prov, owner)

    def _target_value(self, prov: str, legions: float) -> float:
        game = self.game
        state = game.state
        if self._great is None:
            self._great = api.great_cities(game)
        great = self._great
        me = self.me
        owner = state.control.get(prov)
        slots = game.rules.board.provinces[prov].slots
        if owner == me:
            v = 1.0
            for i, b in enumerate(state.built[prov]):
                occ = state.occupied[prov][i]
                if b and occ not in (None, me):
                    v += 1.5 + (4.0 if slots[i].kind in self.great_kinds else 0.0)
            return v
        if owner is None:
            return 0.0
        g_me = min(great[me], 4)
        g_them = min(great[owner], 4)
        gains = []
        for i, b in enumerate(state.built[prov]):
            if not b or state.occupied[prov][i] not in (None, owner):
                continue
            if slots[i].kind in self.great_kinds:
                gains.append(self.prof.cities * (
                    ev.GREAT_VALUE[min(g_me + 1, 4)] - ev.GREAT_VALUE[g_me]
                    + 0.5 * (ev.GREAT_VALUE[g_them] - ev.GREAT_VALUE[max(g_them - 1, 0)])))
            else:
                gains.append(1.3)
        gains.sort(reverse=True)
        k = max(1, int(legions))
        occupy = sum(gains[:k])
        marker = 0.0
        if prov != api.capital(game, owner) and api.linked(game, me, prov, self.reach):
            marker = 2.5 + 0.3 * len(gains)
        return max(occupy, marker, 1.0)

    def plan(self) -> list[tuple[str, str]]:
        if not self.free:
            return []
        game = self.game
        state = game.state
        me = self.me
        avail = {p: n - self.reserve(p) for p, n in self.free.items()}
        avail = {p: self._may_leave(p, n) for p, n in avail.items() if n > 0}
        avail = {p: n for p, n in avail.items() if n > 0}
        reach = self.reach
        moves, avail = self._finish_attacks(avail)
        sources: dict[str, set[str]] = {p: reach(p) for p in avail}
        done: set[str] = set()
        worths: dict[tuple[str, int], float] = {}
        for _ in range(4):
            best: tuple[float, str, int] | None = None
            for prov in state.built:
                if prov in done:
                    continue
                owner = state.control.get(prov)
                enemies = [q for q in state.unit_owners(prov) if q != me]
                if owner is None or len(enemies) > 1:
                    continue
                if owner == me and not enemies:
                    continue
                srcs = [p for p in avail if prov in sources[p] and avail[p] > 0]
                can = sum(avail[p] for p in srcs)
                here = state.count(prov, me, "legion")
                if can <= 0:
                    continue
                enemy = enemies[0] if enemies else None
                theirs = sum(state.units.get(prov, {}).get(enemy, {}).values()) \
                    if enemy else 0
                choice = None
                for k in range(1, can + 1):
                    # the board stands still while the plan is made: each attack's
                    # worth is reckoned once, however many rounds of the plan ask it
                    value = worths.get((prov, k))
                    if value is None:
                        total = here + k
                        if enemy is None:
                            p_win, e_mine, e_theirs = 1.0, 0.0, 0.0
                        else:
                            p_win = e_mine = e_theirs = 0.0
                            for la, lb, q in api.battle_odds(game, prov, me, enemy, total,
                                                             units=(total, theirs)):
                                e_mine += q * la
                                e_theirs += q * lb
                                if lb >= theirs and la < total:
                                    p_win += q
                        survivors = total - e_mine
                        value = worths[prov, k] = (
                            p_win * self.target_value(prov, survivors)
                            + UNIT_LOSS * (e_theirs - e_mine) - 0.15 * k)
                    if choice is None or value > choice[0] + 0.05:
                        choice = (value, k)
                if choice is None or choice[0] < ATTACK_MIN / self.prof.aggression:
                    continue
                if best is None or choice[0] > best[0]:
                    best = (choice[0], prov, choice[1])
            if best is None:
                break
            _, prov, k = best
            done.add(prov)
            if prov in avail:
                avail[prov] = 0   # the legions there fight in it: counted in its odds
            srcs = sorted((p for p in avail if prov in sources[p] and avail[p] > 0),
                          key=lambda p: (self.threat.get(p, 0), p))
            for p in srcs:
                while k > 0 and avail[p] > 0:
                    moves.append((p, prov))
                    avail[p] -= 1
                    k -= 1
        moves.extend(self._guard(avail, sources))
        return moves

    def _finish_attacks(self, avail: dict[str, int]
                        ) -> tuple[list[tuple[str, str]], dict[str, int]]:
        """Legions that bring an attack begun this turn (legions moved into an enemy's
        units) out of a battle lost before the dice (:func:`api.hopeless_battle`), from
        wherever they may come, even what the plan would keep at home: the plan is made
        afresh at every move, and what it keeps at home grows as legions leave, so an
        attack begun may be left half made. The moves, and what is left available."""
        game = self.game
        state = game.state
        me = self.me
        arrived: dict[str, int] = state.stack[-1].get("arrived", {})
        left = dict(self.free)
        moves: list[tuple[str, str]] = []
        for area in sorted(a for a, n in arrived.items() if n):
            enemies = [q for q in state.unit_owners(area) if q != me]
            if not enemies:
                continue
            have = state.count(area, me, "legion")
            if not self._lost(area, enemies, have):
                continue
            need: list[tuple[str, str]] = []
            for p in sorted(left, key=lambda p: (self.threat.get(p, 0), p)):
                if p == area or area not in self.reach(p):
                    continue
                while left[p] > 0 and self._lost(area, enemies, have + len(need)):
                    need.append((p, area))
                    left[p] -= 1
            if self._lost(area, enemies, have + len(need)):
                for p, _ in need:   # it cannot be saved: nothing more sent in vain
                    left[p] += 1
                continue
            moves.extend(need)
        avail = {p: min(n, left.get(p, 0)) for p, n in avail.items()}
        return moves, {p: n for p, n in avail.items() if n > 0}

    def _may_leave(self, area: str, n: int) -> int:
        """How many of my ``n`` movable legions may leave ``area``, where an enemy's
        units stand (a battle there is fought whatever moves): no more than leave the
        others a battle that is not lost before the dice (:func:`api.hopeless_battle`),
        unless it is lost already."""
        state = self.game.state
        enemies = [q for q in state.unit_owners(area) if q != self.me]
        if not enemies:
            return n
        have = state.count(area, self.me, "legion")
        if self._lost(area, enemies, have):
            return n
        while n > 0 and have - n > 0 and self._lost(area, enemies, have - n):
            n -= 1
        return n

    def _lost(self, area: str, enemies: list[str], units: int) -> bool:
        """Whether my battle in ``area`` with ``units`` legions is lost before the dice
        against one of ``enemies`` (:func:`api.hopeless_battle`)."""
        return any(api.hopeless_battle(self.game, area, self.me, q, units) for q in enemies)

    def _guard(self, avail: dict[str, int],
               sources: dict[str, set[str]]) -> list[tuple[str, str]]:
        """Idle legions move to guard a threatened capital or legendary city."""
        game = self.game
        state = game.state
        me = self.me
        out: list[tuple[str, str]] = []
        for prov, who in state.control.items():
            if who != me or not ev.great_slot_count(game, prov, me):
                continue
            if any(q != me for q in state.unit_owners(prov)):
                continue
            threat = self.threat.get(prov, 0)
            have = state.count(prov, me, "legion") + 2 * state.count(prov, me, "fortress")
            need = threat + 1 - have
            for p in sorted(avail):
                if need <= 0:
                    break
                if p == prov or prov not in sources[p] or self.threat.get(p, 0) > 0:
                    continue
                if state.control.get(p) != me and state.control.get(p) is not None:
                    continue  # it holds a conquest
                while avail[p] > 0 and need > 0:
                    out.append((p, prov))
                    avail[p] -= 1
                    need -= 1
        return out

