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

from dataclasses import dataclass

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
NEARBY = 0.25            # ... and one border further


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


class Targets:
    """The land regions worth bringing ``nation``'s units to, found as asked: region ->
    (units needed, value) for a hostile city that may be conquered, a neutral temple, a
    free city site; None elsewhere."""

    def __init__(self, game: Game, nation: str, w: Weights) -> None:
        state = game.state
        self.game = game
        self.nation = nation
        self.w = w
        self.regions = game.rules.board.regions
        self.owned: dict[str, int] = {}
        for city in state.cities.values():
            self.owned[city["owner"]] = self.owned.get(city["owner"], 0) + 1
        self.generals = PERSONAGE if personages_left(game, "general") > 0 else 0.0
        self.tokens = tokens_left(game, nation) > 0
        # a city site is worth as much as the nation can pay for a city (3 resources)
        self.afford = 0.25 + 0.75 * min(1.0, sum(state.stock.get(nation, {}).values()) / 3)
        self.found: dict[str, tuple[int, float] | None] = {}
        self.reach = {unit: reach(game, nation, unit) for unit in UNITS}
        self.nearby: dict[tuple[str, str], float] = {}

    def near(self, area: str, unit: str) -> float:
        """The best share of a goal a unit of ``unit`` in ``area`` reaches this Movere."""
        key = (area, unit)
        found = self.nearby.get(key)
        if found is None:
            found = 0.0
            for a in self.game.rules.board.reach(area, unit, self.reach[unit]):
                goal = self.get(a)
                if goal is not None:
                    found = max(found, goal[1] / max(1, goal[0]))
            self.nearby[key] = found
        return found

    def get(self, region: str) -> tuple[int, float] | None:
        if region in self.found:
            return self.found[region]
        self.found[region] = goal = self._goal(region)
        return goal

    def _goal(self, region: str) -> tuple[int, float] | None:
        state = self.game.state
        if region not in self.regions:
            return None
        if region in state.neutral:
            return defence(self.game, region), self.generals + self.w.king / 2
        if not self.tokens:
            return None
        city = state.cities.get(region)
        if city is None:
            return 1, (self.w.king + CITY_ECONOMY) * 0.6 * self.afford
        if city["owner"] != self.nation and self.owned.get(city["owner"], 0) > 1:
            # a city taken is one the rival loses
            worth = (self.w.king + CITY_ECONOMY) * (1 + RIVAL) \
                + (self.generals if city["temple"] else 0.0)
            return defence(self.game, region), worth
        return None


def placement(game: Game, nation: str, w: Weights, goals: Targets | None = None) -> float:
    """What ``nation``'s units are worth where they stand: each unit, plus a share of
    what it could take or found where it is (a city's value shared among the units its
    defence needs) and, less, one border on."""
    mine = game.state.units.get(nation, {})
    if not mine:
        return 0.0
    goals = goals or Targets(game, nation, w)
    out = 0.0
    for area, kinds in mine.items():
        n = sum(kinds.values())
        out += UNIT * n
        goal = goals.get(area)
        if goal is not None:
            need, worth = goal
            out += PROMISE * worth * min(n, need) / max(1, need)
            continue
        out += NEARBY * max(goals.near(area, unit) if kinds.get(unit) else 0.0
                            for unit in UNITS)
    return out
