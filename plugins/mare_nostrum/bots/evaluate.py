"""The position evaluation the clever bots play by.

Every empire gets a score from what the whole table may see: its track levels and
its margins for each title, its heroes and wonders, its capitals and legendary
cities (and the free slots where it could build more), its provinces, units and next
income (count and variety). Each victory path has a value that rises steeply as it
nears completion, so the score is also a distance to each victory. A player's own
resources are valued by what they can buy this round (:func:`screen_value`); the
others' resources only by their number.

Nothing here names a card: what a hero or wonder does is seen through the quantities
the rules fold (payment sets, storage, income, battle dice, ...).
"""

from __future__ import annotations

import marshal
import math
from dataclasses import dataclass, field

from .. import api
from ..api import SPECIAL_KINDS, TRACKS, SetRules
from ..state import LEGENDARY, Game, base_good
from .common import Memo
from .profiles import DEFAULT, Profile

WIN = 1000.0
HW_VALUE = (0.0, 0.0, 13.0, 28.0, 46.0, 300.0)
"""Worth of owning 0..5 heroes and wonders (the starting hero is the first)."""


def hw_worth(n: int, first: float = 0.0) -> float:
    """Worth of owning ``n`` heroes and wonders, the first one bought worth ``first``
    more (the profile's ``first_tile``)."""
    n = min(n, 5)
    return HW_VALUE[n] + (first if n >= 2 else 0.0)


GREAT_VALUE = (0.0, 0.0, 9.0, 22.0, 300.0)
"""Worth of controlling or occupying 0..4 capitals and legendary cities."""
GREAT_SLOT = 3.5       # a free capital/legendary slot in a province one may build in
TITLE_W = 3.0          # holding a title (it orders a phase)
TRACK_W = 3.5          # the chance of taking a title, per track
ALL_TITLES_W = 45.0    # the chance of holding all three at once
INCOME_W = 0.8         # each resource of next round's income
TYPE_W = 1.3           # each type of good in it
COIN_W = 0.8           # each coin in it, as that many types: a coin pays any set, and
                       # the dearest purchases take more different goods than an
                       # empire's income brings
PROVINCE_W = 0.9
UNIT_W = 0.45
SET_V = 3.0            # a payment set of three this round
CARRY_V = 0.6          # a coin kept for next round
AHEAD_V = 0.5          # a big purchase one resource short with a trade pick to come,
                       # against one in hand (squared two short, and so on)
MARKER_W = 2.0         # a control marker one occupies: a province to convert
RISK_W = 0.6           # what a province's buildings and cities are worth, times the
                       # chance that the strongest neighbour outnumbers its defence


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def income(game: Game, player: str) -> dict[str, int]:
    """Next Collect phase's income as the rules compute it (cards included)."""
    return api.income(game, player)


def all_incomes(game: Game) -> dict[str, dict[str, int]]:
    """Every player's next income, as the rules compute it (the board counted once)."""
    return api.incomes(game)


def income_worth(inc: dict[str, int], coin_w: float = 0.0) -> float:
    """Next income's worth: each resource, each type of good, and (``coin_w``, as a
    share of a type) each coin."""
    total = 0.0
    types = 0.0
    for key, n in inc.items():
        total += n
        if key == "coin":
            types += coin_w * n
            continue
        types += 0.7 if ("legendary" in key or "|" in key) else 1.0
    return INCOME_W * total + TYPE_W * types


def hw_count(game: Game, player: str) -> int:
    return api.heroes_and_wonders(game, player)


def great_slots(game: Game, player: str, kinds: set[str]) -> int:
    """Free capital/legendary slots in provinces where ``player`` may build now."""
    state = game.state
    board = game.rules.board
    n = 0
    for prov, who in state.control.items():
        if who != player:
            continue
        slots = board.provinces[prov].slots
        free = sum(1 for i, b in enumerate(state.built[prov])
                   if not b and slots[i].kind in kinds and state.supply.get(slots[i].kind, 0) > 0)
        if free and api.may_build_in(game, player, prov):
            n += free
    return n


@dataclass
class Table:
    """What everybody may see, computed once per evaluation (incomes when asked)."""

    game: Game | None
    levels: dict[str, dict[str, int]]
    titles: dict[str, str]
    great: dict[str, int]
    hw: dict[str, int]
    provinces: dict[str, int] = field(default_factory=dict)
    units: dict[str, int] = field(default_factory=dict)
    enemy_units_home: dict[str, int] = field(default_factory=dict)
    held: dict[str, int] = field(default_factory=dict)
    markers_held: dict[str, int] = field(default_factory=dict)
    markers_lost: dict[str, int] = field(default_factory=dict)
    _incomes: dict[str, dict[str, int]] = field(default_factory=dict)
    _great_free: dict[str, int] = field(default_factory=dict)
    _risk: dict[str, float] | None = None   # by player, as asked
    _chances: dict[str, dict[str, float]] = field(default_factory=dict)  # by player
    memo: Memo | None = None       # a bot's caches, if it has them
    board: bytes = b""             # :func:`board_key` of the position, with ``memo``

    def risk(self, player: str) -> float:
        """What ``player`` stands to lose to the legions others could bring in (his
        alone is counted: an evaluation asks the viewer's; a bot's ``memo`` remembers
        it by the board, which is all it reads)."""
        if self._risk is None:
            self._risk = {}
        found = self._risk.get(player)
        if found is None:
            assert self.game is not None
            if self.memo is not None:
                known = self.memo.table(self.game, "exposure")
                found = known.get((self.board, player))
                if found is None:
                    found = known[self.board, player] = exposure(
                        self.game, self.great, player).get(player, 0.0)
            else:
                found = exposure(self.game, self.great, player).get(player, 0.0)
            self._risk[player] = found
        return found

    def income(self, player: str) -> dict[str, int]:
        found = self._incomes.get(player)
        if found is None:
            assert self.game is not None
            if self.memo is not None:
                # every income costs one count of the board, and the memo keeps them all
                self.all_incomes()
                return self._incomes[player]
            found = self._incomes[player] = income(self.game, player)
        return found

    def all_incomes(self) -> None:
        assert self.game is not None
        if self.memo is None:
            self._incomes = all_incomes(self.game)
            return
        known = self.memo.table(self.game, "incomes")
        found = known.get(self.board)
        if found is None:
            found = known[self.board] = all_incomes(self.game)
        self._incomes = found

    def great_free(self, player: str) -> int:
        found = self._great_free.get(player)
        if found is None:
            assert self.game is not None
            found = self._great_free[player] = great_slots(
                self.game, player, set(self.game.param("conquest_kinds")))
        return found


def board_key(game: Game) -> bytes:
    """What the track levels, the great cities and the incomes may depend on: the whole
    position but the screens, the supply and the bookkeeping (the choice count, the
    generator, the decision stack, the legendary piles' order). A card's fold may read
    any of it: Circe's legions stand on a slot only when they occupy no marker
    (``marker_occupier``), a modder's card may ask for a title, the round or a count of
    its own (``vars``). An income is reckoned before anything is taken from the supply,
    and none of these reads a screen; a card that did would be judged by the bot from
    an earlier screen (a weaker choice, never an illegal one)."""
    state = game.state
    return marshal.dumps((state.round, state.phase, state.control, state.built,
                          state.occupied, state.marker_occupier, state.units,
                          state.pieces, state.tiles, state.titles, state.display,
                          state.vars))


def table(game: Game, memo: Memo | None = None, board: bytes | None = None) -> Table:
    """What everybody may see; a bot's ``memo`` remembers the levels, great cities and
    incomes by :func:`board_key` (``board``, if the caller has it)."""
    state = game.state
    if memo is None:
        levels, great = api.levels(game), api.great_cities(game)
        board = b""
    else:
        if board is None:
            board = board_key(game)
        known = memo.table(game, "board")
        found = known.get(board)
        if found is None:
            found = known[board] = (api.levels(game), api.great_cities(game))
        levels, great = found
    t = Table(game=game, levels=levels, titles=dict(state.titles),
              great=great, hw={p: hw_count(game, p) for p in state.players},
              memo=memo, board=board)
    for p in state.players:
        t.provinces[p] = 0
        t.units[p] = 0
        t.enemy_units_home[p] = 0
        t.held[p] = sum(state.screens[p].values())
        t.markers_held[p] = t.markers_lost[p] = 0
    for prov, occupier in state.marker_occupier.items():
        if occupier in t.markers_held:
            t.markers_held[occupier] += 1
        holder = state.control.get(prov)
        if holder is not None and holder in t.markers_lost:
            t.markers_lost[holder] += 1
    for prov, who in state.control.items():
        if who in t.provinces:
            t.provinces[who] += 1
            here = state.units.get(prov)
            if here:
                t.enemy_units_home[who] += sum(sum(u.values()) for q, u in here.items()
                                               if q != who)
    for here in state.units.values():
        for who, u in here.items():
            t.units[who] += sum(u.values())
    return t


def legion_reach(game: Game, skip: str | None = None) -> dict[str, dict[str, int]]:
    """For each player (but ``skip``), how many of his legions could enter each
    province next Move & Fight: those adjacent to it or connected to it by his trireme
    chains, and those already there."""
    state = game.state
    live = state.built
    reaches: dict[str, api.Reach] = {}
    out: dict[str, dict[str, int]] = {}
    for area, here in state.units.items():
        if area not in live:
            continue
        for q, units in here.items():
            n = units.get("legion", 0)
            if not n or q == skip:
                continue
            dest = out.setdefault(q, {})
            if q not in reaches:
                reaches[q] = api.reach(game, q)
            for x in (*reaches[q](area), area):
                dest[x] = dest.get(x, 0) + n
    return out


def exposure(game: Game, great: dict[str, int], only: str | None = None
             ) -> dict[str, float]:
    """Per player (``only`` him, if given): the worth of his provinces' buildings and
    great cities, each times the chance that the strongest other player's reachable
    legions outnumber its defence (legions, and a fortress counted as two)."""
    state = game.state
    board = game.rules.board
    kinds = set(game.param("conquest_kinds"))
    reach = legion_reach(game, only)
    out: dict[str, float] = {}
    for prov, owner in state.control.items():
        if owner is None or (only is not None and owner != only):
            continue
        threat = max((dest.get(prov, 0) for q, dest in reach.items() if q != owner),
                     default=0)
        if not threat:
            continue
        here = state.units.get(prov, {}).get(owner, {})
        defence = here.get("legion", 0) + 2 * here.get("fortress", 0)
        slots = board.provinces[prov].slots
        stake = 1.0
        g = min(great.get(owner, 0), 4)
        for i, b in enumerate(state.built[prov]):
            if b and (state.occupied[prov][i] in (None, owner)):
                stake += 1.0
                if slots[i].kind in kinds:
                    stake += 0.5 * (GREAT_VALUE[g] - GREAT_VALUE[max(g - 1, 0)]) + 2.0
        chance = logistic(1.5 * (threat - defence - 0.5))
        out[owner] = out.get(owner, 0.0) + stake * chance
    return out


def title_chances(t: Table, player: str) -> dict[str, float]:
    """(Remembered by the table: its levels and titles are never changed once made; a
    what-if is a table of its own.)"""
    known = t._chances
    found = known.get(player)
    if found is not None:
        return found
    out = {}
    for track in TRACKS:
        mine = t.levels[player][track]
        best = max((lv[track] for q, lv in t.levels.items() if q != player), default=0)
        margin = mine - best + (0.5 if t.titles.get(track) == player else -0.5)
        out[track] = logistic(1.4 * margin)
    known[player] = out
    return out


def leadership_worth(chances: dict[str, float], held: int) -> float:
    prod = 1.0
    for c in chances.values():
        prod *= c
    return TRACK_W * sum(chances.values()) + ALL_TITLES_W * prod + TITLE_W * held


def score(game: Game, t: Table, player: str, risk: bool = True,
          memo: Memo | None = None, prof: Profile = DEFAULT) -> float:
    """One empire's worth: progress on every victory path and the means to go on
    (less what it may lose to its neighbours' legions, if ``risk``), each part weighed
    by the strategy profile ``prof``."""
    hw = min(t.hw[player], 5)
    great = min(t.great[player], 4)
    cities = GREAT_VALUE[great]
    if great < 4:
        cities += GREAT_SLOT * min(t.great_free(player), 4 - great) * (1.0 + 0.5 * great)
    s = prof.tiles * hw_worth(hw, prof.first_tile) + prof.cities * cities
    held = sum(1 for who in t.titles.values() if who == player)
    s += prof.titles * leadership_worth(title_chances(t, player), held)
    s += prof.economy * (income_worth(t.income(player), COIN_W * prof.plan)
                         + PROVINCE_W * t.provinces[player])
    s += prof.army * UNIT_W * t.units[player]
    s -= 0.8 * t.enemy_units_home[player]
    s += MARKER_W * t.markers_held[player] - 0.5 * MARKER_W * t.markers_lost[player]
    if risk:
        s -= RISK_W * t.risk(player)
    s += capability(game, player, memo)
    return s


def cards_key(game: Game, player: str) -> tuple[str, tuple[str, ...], bytes]:
    """The cards ``player`` holds and copies: what his payment sets and storage (and
    so :func:`capability`) depend on."""
    return (player, tuple(game.state.tiles[player]),
            marshal.dumps(api.copied_tiles(game, player)))


def storage(game: Game, player: str, memo: Memo | None = None) -> tuple[int, int]:
    """``api.storage``, remembered by a bot's ``memo`` by :func:`cards_key`."""
    if memo is None:
        return api.storage(game, player)
    known = memo.table(game, "storage")
    key = cards_key(game, player)
    found: tuple[int, int] | None = known.get(key)
    if found is None:
        found = known[key] = api.storage(game, player)
    return found


def payment_rules(game: Game, player: str, memo: Memo | None = None) -> SetRules:
    """``api.payment_rules``, remembered by a bot's ``memo`` by :func:`cards_key`."""
    if memo is None:
        return api.payment_rules(game, player)
    known = memo.table(game, "payment_rules")
    key = cards_key(game, player)
    found: SetRules | None = known.get(key)
    if found is None:
        found = known[key] = api.payment_rules(game, player)
    return found


def capability(game: Game, player: str, memo: Memo | None = None) -> float:
    """What the player's cards let him do beyond the base rules, seen through the
    quantities the rules fold (nothing here knows a card). It depends only on the
    cards he holds (and copies), so a bot's ``memo`` remembers it by them."""
    if memo is None:
        return _capability(game, player)
    key = cards_key(game, player)
    known = memo.table(game, "capability")
    found = known.get(key)
    if found is None:
        found = known[key] = _capability(game, player)
    return found


def _capability(game: Game, player: str) -> float:
    rules = api.payment_rules(game, player)
    s = 2.5 * (rules.coins_in_goods_set + rules.goods_in_coin_set + rules.repeated_types)
    coins, goods = api.storage(game, player)
    extra_coins = coins - game.param("storage_coins")
    extra_goods = goods - game.param("storage_goods")
    s += 1.5 * (extra_coins + extra_goods)
    return float(s)


def near_victory(t: Table, player: str) -> float:
    """How close ``player`` stands to a victory, as the whole table sees it: 1 one step
    from the fifth tile or the fourth great city, 0.5 holding two titles, else 0."""
    if t.hw[player] >= 4 or t.great[player] >= 3:
        return 1.0
    if sum(1 for who in t.titles.values() if who == player) >= 2:
        return 0.5
    return 0.0


def evaluate(game: Game, viewer: str, t: Table | None = None,
             memo: Memo | None = None, prof: Profile = DEFAULT) -> float:
    """The viewer's score against the others' (mostly the best of them); a win or a
    loss is final."""
    state = game.state
    if state.finished:
        if viewer in state.winners:
            return WIN / len(state.winners)
        return -WIN if state.winners else -WIN / 4
    if t is None:
        t = table(game, memo)
        t.all_incomes()
    # a threat to others is no gain until it is carried out: their risk is not counted
    scores = {p: score(game, t, p, risk=p == viewer, memo=memo, prof=prof)
              for p in state.players}
    mine = scores[viewer] + screen_worth(game, viewer, memo, prof.first_tile)
    others = [scores[p] + 0.3 * t.held[p] for p in state.players if p != viewer]
    best = max(others)
    mean = sum(others) / len(others)
    return mine - 0.7 * best - 0.3 * mean


# -- resources -------------------------------------------------------------------------
def split(screen: dict[str, int]) -> tuple[dict[str, int], int]:
    """Goods counted by type (a legendary good counts as its type) and coins."""
    goods: dict[str, int] = {}
    coins = 0
    for key, n in screen.items():
        if n <= 0:
            continue
        if key == "coin":
            coins += n
        else:
            b = base_good(key)
            goods[b] = goods.get(b, 0) + n
    return goods, coins


def _goods_sets(counts: list[int], wild: int, rules: SetRules) -> int:
    """Payment sets of three from goods (with coins as wildcards where allowed)."""
    total = sum(counts) + min(wild, rules.coins_in_goods_set * 99)
    m = total // 3
    per = 2 if rules.repeated_types else 1
    while m > 0:
        have = sum(min(c, per * m) for c in counts)
        if rules.coins_in_goods_set:
            have += min(wild, rules.coins_in_goods_set * m)
        if have >= 3 * m and sum(1 for c in counts if c) >= (2 if per == 2 else 3):
            return m
        m -= 1
    return 0


def small_sets(counts: list[int], coins: int, rules: SetRules) -> int:
    best = 0
    for j in range(coins // 3 + 1):
        n = j + _goods_sets(counts, coins - 3 * j, rules)
        if n > best:
            best = n
    return best


@dataclass(frozen=True)
class Targets:
    """The big purchases a player may aim at this round: (cost, worth)."""

    big: tuple[tuple[int, float], ...]
    storage: int
    rules: SetRules
    # :func:`screen_value` of these targets, by what it reads of a screen (the goods'
    # counts, largest first, the coins) and the picks ahead: a pure function of them
    values: dict[tuple[tuple[int, ...], int, int], float] = field(
        default_factory=dict, compare=False, hash=False, repr=False)


def targets(game: Game, player: str, memo: Memo | None = None,
            first: float = 0.0) -> Targets:
    """(``memo``: a bot's, which remembers them by the display and the cards;
    ``first``: the profile's ``first_tile``.)"""
    state = game.state
    if memo is not None:
        key = (tuple(state.display), cards_key(game, player), first)
        known = memo.table(game, "targets")
        found: Targets | None = known.get(key)
        if found is None:
            found = known[key] = targets(game, player, first=first)
        return found
    cards = game.rules.cards
    big: list[tuple[int, float]] = []
    hw = hw_count(game, player)
    tile_seen = False
    for tile in state.display:
        if tile in state.tiles[player]:
            continue
        cost = api.tile_cost(game, player, tile)
        if cost is None:
            continue
        if cards[tile].kind in SPECIAL_KINDS:
            big.append((cost, 250.0))
        elif not tile_seen:
            tile_seen = True
            gain = hw_worth(hw + 1, first) - hw_worth(hw, first)
            big.append((cost, min(gain, 250.0)))
    return Targets(tuple(sorted(big)), api.storage(game, player)[0],
                   api.payment_rules(game, player))


def screen_value(goods: dict[str, int], coins: int, tg: Targets, ahead: int = 0) -> float:
    """What these resources are worth this round: the best big purchase they allow,
    then the sets of three left, then the coins one may keep. With ``ahead`` trade
    picks still to come, a big purchase that many resources short (coins, or types of
    goods: a set is all coins or all different goods) is worth its share too, so that
    offers and picks assemble it."""
    counts = sorted(goods.values(), reverse=True)
    key = (tuple(counts), coins, ahead)
    known = tg.values
    found = known.get(key)
    if found is not None:
        return found
    distinct = len(counts)
    rules = tg.rules
    sets = SET_V * small_sets(counts, coins, rules)
    best = sets + CARRY_V * min(coins % 3, tg.storage)
    total_goods = sum(counts)
    for cost, worth in tg.big:
        # with coins (and the goods a coin set may hold)
        in_coin = min(rules.goods_in_coin_set, total_goods)
        if ahead:
            short = cost - max(coins + in_coin, distinct + min(rules.coins_in_goods_set, coins)
                               + min(rules.repeated_types, sum(1 for c in counts if c >= 2)))
            if 0 < short <= ahead:
                best = max(best, worth * AHEAD_V ** short + 0.5 * sets)
        if coins + in_coin >= cost:
            left = coins - max(0, cost - in_coin)
            v = worth + SET_V * small_sets(counts, left, rules) + CARRY_V * min(left,
                                                                                  tg.storage)
            best = max(best, v)
        # with goods of different types (a coin or a repeated type where allowed)
        extra_c = min(rules.coins_in_goods_set, coins)
        extra_r = min(rules.repeated_types, sum(1 for c in counts if c >= 2))
        if distinct + extra_c + extra_r >= cost:
            need = cost
            use_c = min(extra_c, max(0, need - distinct))
            need -= use_c
            rest = list(counts)
            for i in range(min(need, distinct)):
                rest[i] -= 1
            need -= min(need, distinct)
            for i in range(len(rest)):
                if need <= 0:
                    break
                if rest[i] > 0:
                    rest[i] -= 1
                    need -= 1
            left_c = coins - use_c
            v = worth + SET_V * small_sets(sorted((c for c in rest if c > 0), reverse=True),
                                           left_c, rules) + CARRY_V * min(left_c, tg.storage)
            best = max(best, v)
    found = best + 0.25 * distinct + 0.05 * (total_goods + coins)
    if len(known) >= 4096:
        known.clear()
    known[key] = found
    return found


def screen_worth(game: Game, player: str, memo: Memo | None = None,
                 first: float = 0.0) -> float:
    goods, coins = split(game.state.screens[player])
    return screen_value(goods, coins, targets(game, player, memo, first))


def with_key(goods: dict[str, int], coins: int, key: str, n: int) -> tuple[dict[str, int], int]:
    if key == "coin":
        return goods, coins + n
    b = key[len(LEGENDARY):] if key.startswith(LEGENDARY) else key
    out = dict(goods)
    out[b] = out.get(b, 0) + n
    if out[b] <= 0:
        del out[b]
    return out, coins


def great_slot_count(game: Game, prov: str, player: str) -> int:
    """Built capitals/legendary cities in ``prov`` that ``player`` controls."""
    state = game.state
    kinds = set(game.param("conquest_kinds"))
    slots = game.rules.board.provinces[prov].slots
    return sum(1 for i, b in enumerate(state.built[prov])
               if b and slots[i].kind in kinds and api.slot_controller(game, prov, i) == player)
