"""A generic evaluation of an Antike II position for one nation, in personage points
(100 a personage): what it holds and is due, its progress toward the next personage of
each kind (cities toward a king, temples toward a citizen, seas toward a navigator,
temples destroyed and first know-how), its units and where they stand (a city or
neutral temple they could take, a site they could found a city on, a sea they hold),
and its resources valued toward what they buy. No card is named: a know-how counts by
what the rules fold from it (reach, defence) and by the scholar it may bring.

The value of a position for a nation is its own score less half the best rival's, so
that a battle that costs both sides alike is worth fighting only against the leader.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from antike2.conquest import defence
from antike2.movere import reach
from antike2.personages import due, every
from antike2.state import UNITS, Game
from antike2.supply import (
    cities_of,
    personages_left,
    seas_held,
    temples_of,
    tokens_left,
)
from antike2.victory import target

PERSONAGE = 100.0
WIN = 5000.0
UNIT = 7.0               # a legion or galley on the board
CITY_ECONOMY = 6.0       # what a city adds by producing, besides the king it nears
TEMPLE_ECONOMY = 8.0     # what a temple adds to its city's production
KNOW_HOW = 12.0          # a know-how's lasting use (a scholar, when first, is counted apart)
RESOURCE = 3.0           # a marble, iron or gold toward the next action
COIN = 4.0               # a coin stands for any resource
USEFUL = 12              # resources of a kind beyond this are worth a third
RIVAL = 0.5              # how much the best rival's score weighs against one's own
PROMISE = 0.5            # what a conquest or founding within reach is worth, of its value
NEARBY = 0.25            # ... and one Movere away
FAR = 0.1                # ... and two


@dataclass
class Weights:
    """What a point of progress toward each personage is worth (100 a personage)."""

    king: float
    citizen: float
    navigator: float


def weights(game: Game) -> Weights:
    def per(kind: str) -> float:
        n = every(game, kind)      # what its card's script counts for one
        return PERSONAGE / n if n and personages_left(game, kind) > 0 else 0.0
    return Weights(per("king"), per("citizen"), per("navigator"))


def resources_value(stock: dict[str, int]) -> float:
    out = 0.0
    for key, n in stock.items():
        each = COIN if key == "coin" else RESOURCE
        out += each * min(n, USEFUL) + each / 3 * max(0, n - USEFUL)
    return out


def score(game: Game, nation: str, w: Weights | None = None, units: bool = True) -> float:
    """``nation``'s standing in personage points (100 a personage); ``units``: with what
    its units may take where they stand (else they count alike)."""
    state = game.state
    w = w or weights(game)
    held = len(state.personages.get(nation, ()))
    # what is due is taken at the end of the nation's own turn: a rival's is nothing
    pending = sum(due(game, nation).values()) if units else 0
    out = PERSONAGE * (held + pending)
    if held + pending >= target(game):
        out += WIN
    cities = cities_of(state, nation)
    temples = temples_of(state, nation)
    out += len(cities) * (w.king + CITY_ECONOMY)
    out += len(temples) * (w.citizen + TEMPLE_ECONOMY)
    out += seas_held(game, nation) * w.navigator
    out += KNOW_HOW * len(state.know_how.get(nation, ()))
    out += resources_value(state.stock.get(nation, {}))
    if units:
        out += placement(game, nation, w)
    else:
        out += UNIT * sum(sum(k.values()) for k in state.units.get(nation, {}).values())
    return out


def value(game: Game, nation: str) -> float:
    """The position's worth to ``nation``: its score less half the best rival's."""
    w = weights(game)
    mine = score(game, nation, w)
    rivals = [score(game, p, w, units=False) for p in game.state.players if p != nation]
    return mine - RIVAL * max(rivals, default=0.0)


class Goal(NamedTuple):
    """What ``need`` units standing in a region could take there: ``worth`` that adds
    to the other goals' (the city, its production, what a rival loses), ``bonus`` that
    does not (the personages the conquest makes due, the win: the next conquest brings
    them, whichever it is), both net of the units it costs."""

    need: int
    worth: float
    bonus: float = 0.0


class Targets:
    """The land regions worth bringing ``nation``'s units to, found as asked: region ->
    :class:`Goal` for a hostile city that may be conquered, a neutral temple, a free
    city site; None elsewhere."""

    def __init__(self, game: Game, nation: str, w: Weights) -> None:
        state = game.state
        self.game = game
        self.nation = nation
        self.w = w
        self.regions = game.rules.board.regions
        self.owned: dict[str, int] = {}
        for city in state.cities.values():
            self.owned[city["owner"]] = self.owned.get(city["owner"], 0) + 1
        self.tokens = tokens_left(game, nation) > 0
        # a city site is worth as much as the nation can pay for a city (3 resources)
        self.afford = 0.25 + 0.75 * min(1.0, sum(state.stock.get(nation, {}).values()) / 3)
        self.found: dict[str, Goal | None] = {}
        self.reach = {unit: reach(game, nation, unit) for unit in UNITS}
        self.nearby: dict[tuple[str, str], tuple[float, float]] = {}
        self._owed: dict[tuple[bool, bool], float] = {}
        self._rivals: list[tuple[float, str]] | None = None

    def near(self, area: str, unit: str) -> tuple[float, float]:
        """What a unit of ``unit`` in ``area`` is worth for the goals it may bring within
        its reach, as (worth, bonus): the best share of a goal one Movere away
        (:data:`NEARBY` of it) or, less, two (:data:`FAR`: an army that must march for
        more than a turn is begun only so; without it no nation went to war once peace
        had nothing left to give)."""
        key = (area, unit)
        found = self.nearby.get(key)
        if found is None:
            board = self.game.rules.board
            steps = self.reach[unit]
            one = board.reach(area, unit, steps)
            worth, bonus = self._best(one)
            found = (NEARBY * worth, NEARBY * bonus)
            if steps:
                worth, bonus = self._best(board.reach(area, unit, 2 * steps) - one)
                found = (max(found[0], FAR * worth), max(found[1], FAR * bonus))
            self.nearby[key] = found
        return found

    def _best(self, areas: Iterable[str]) -> tuple[float, float]:
        """The best shares of a goal among ``areas``: worth and bonus over the units the
        goal needs."""
        worth = bonus = 0.0
        for a in areas:
            goal = self.get(a)
            if goal is not None:
                worth = max(worth, goal.worth / max(1, goal.need))
                bonus = max(bonus, goal.bonus / max(1, goal.need))
        return worth, bonus

    def get(self, region: str) -> Goal | None:
        if region in self.found:
            return self.found[region]
        self.found[region] = goal = self._goal(region)
        return goal

    def _goal(self, region: str) -> Goal | None:
        state = self.game.state
        if region not in self.regions:
            return None
        if region in state.neutral:
            need = defence(self.game, region)
            return _net(need, self.w.king / 2, self._owed_after(region, False, True))
        if not self.tokens:
            return None
        city = state.cities.get(region)
        if city is None:
            return Goal(1, (self.w.king + CITY_ECONOMY) * 0.6 * self.afford)
        owner = city["owner"]
        if owner != self.nation and self.owned.get(owner, 0) > 1:
            need = defence(self.game, region)
            temple = bool(city["temple"])
            lost = self.w.king + CITY_ECONOMY + UNIT * sum(
                state.units.get(owner, {}).get(region, {}).values())
            if temple:
                lost += self.w.citizen + TEMPLE_ECONOMY
            worth = self.w.king + CITY_ECONOMY + self._hurt(owner, lost)
            return _net(need, worth, self._owed_after(region, True, temple))
        return None

    def _owed_after(self, region: str, city: bool, temple: bool) -> float:
        """The personages a conquest in ``region`` makes due to the nation (a king for
        the city that completes a count, a general for a temple destroyed), with the
        win if they reach the target, in score points: the position after it as
        :func:`score` counts it. Asked once for each kind of goal (a city, with a
        temple or not; a neutral temple): where the region lies does not change what it
        is owed."""
        key = (city, temple)
        found = self._owed.get(key)
        if found is not None:
            return found
        game, me = self.game, self.nation
        state = game.state
        held = len(state.personages.get(me, ()))
        before = sum(due(game, me).values())
        saved = state.cities.get(region)
        destroyed = state.destroyed.get(me, 0)
        try:
            if city and saved is not None:
                state.cities[region] = {**saved, "owner": me, "temple": False}
            if temple:
                state.destroyed[me] = destroyed + 1
            after = sum(due(game, me).values())
        finally:
            if saved is not None:
                state.cities[region] = saved
            state.destroyed[me] = destroyed
        goal = target(game)
        found = PERSONAGE * (after - before) \
            + (WIN if held + after >= goal > held + before else 0.0)
        self._owed[key] = found
        return found

    def _hurt(self, owner: str, lost: float) -> float:
        """What ``owner`` losing ``lost`` of its score is worth to the nation: a share of
        what it takes from the best rival (:func:`value` weighs only that one)."""
        if self._rivals is None:
            state = self.game.state
            self._rivals = sorted(((score(self.game, p, self.w, units=False), p)
                                   for p in state.players if p != self.nation),
                                  reverse=True)
        if not self._rivals:
            return 0.0
        top = self._rivals[0][0]
        rest = [v - (lost if p == owner else 0.0) for v, p in self._rivals]
        return RIVAL * (top - max(rest))


def _net(need: int, worth: float, bonus: float) -> Goal | None:
    """A conquest's goal, net of the units it costs (from its worth, then its bonus);
    none if it gains nothing: a promise of it would keep the units from taking it."""
    cost = UNIT * need
    if worth + bonus <= cost:
        return None
    paid = min(cost, worth)
    return Goal(need, worth - paid, bonus - (cost - paid))


def placement(game: Game, nation: str, w: Weights, goals: Targets | None = None) -> float:
    """What ``nation``'s units are worth where they stand: each unit, plus a share of
    what it could take or found where it is (a goal's value shared among the units it
    needs) and, less, one or two Moveres on. Goals' worths add up; of their bonuses
    only the best counts (the next conquest brings it, whichever it is: seven goals
    that each win the game are worth one win)."""
    mine = game.state.units.get(nation, {})
    if not mine:
        return 0.0
    goals = goals or Targets(game, nation, w)
    out = bonus = 0.0
    for area, kinds in mine.items():
        n = sum(kinds.values())
        out += UNIT * n
        goal = goals.get(area)
        if goal is not None:
            share = PROMISE * min(n, goal.need) / max(1, goal.need)
            out += share * goal.worth
            bonus = max(bonus, share * goal.bonus)
            continue
        pulls = [goals.near(area, unit) for unit in UNITS if kinds.get(unit)]
        out += max(p for p, _ in pulls)
        bonus = max(bonus, *(b for _, b in pulls))
    return out + bonus
