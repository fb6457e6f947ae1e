"""The sense of threat: how near each empire stands to winning within about a round, as
the whole table sees it, and what stopping him is worth.

Players block the leader: when an opponent is one hero or wonder, one great city or one
title from a victory, the others deny him what he needs. Everything here is read from
the rules' own quantities and what every player may see (track levels and titles, tile
counts, the face-up display and its prices, great cities, the size of each screen and
each empire's next income); nothing names an empire or a card.

* **Fame** (a fifth hero or wonder): an empire one tile short, a tile he may buy face
  up, and the resources to pay its price (the size of his screen in the trade and build
  phases, else what he keeps plus his next income, against the price).
* **Prestige** (a special wonder such as the Pyramids): it lies face up and he can
  pay its price.
* **Conquest**: one (or two) great cities short of the count that wins.
* **Leadership**: the chance of holding every title at once (the evaluation's title
  margins), full when he already holds all but one.

Among several empires that may buy their fifth tile in one build phase the title that
orders the build phase (culture: NL 6.2 "dan wint daarvan de speler die de culturele
leider is") decides, so holding it is worth the others' chance of a fifth times one's own.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass

from .. import api
from ..api import SPECIAL_KINDS
from ..state import Game, base_good
from . import evaluate as ev
from .common import Memo

ORDER_TITLE = "culture"
"""The title that names who builds next and breaks a tie among fifth tiles (NL 3, 6.2)."""
TIE_W = 60.0          # holding the tie-breaking title when oneself and another may win
AFFORD_SLOPE = 0.9    # how sharply the chance of paying rises with the resources in hand
SECOND_ROUND = 0.6    # a victory two rounds off counts this much of one a round off


def afford(resources: float, cost: float) -> float:
    """The chance that ``resources`` pay ``cost`` in one valid set (unknown types)."""
    return ev.logistic(AFFORD_SLOPE * (resources - cost + 0.5))


@dataclass(frozen=True)
class Danger:
    """One empire's chance-like nearness to each victory (each in [0, 1]), with what
    the build victories' chances were read from (so that a what-if is arithmetic)."""

    fifth: float
    prestige: float
    conquest: float
    leadership: float
    coins: int = 0                 # his coin income (and what he keeps)
    types: int = 0                 # the types of goods in his income (and what he keeps)
    cap: int = 0                   # what his screen allows at most
    tile_cost: int | None = None   # the cheapest face-up hero or wonder, if he is near
    two_rounds: bool = False       # that tile is not yet his last
    special_cost: int | None = None  # the cheapest face-up special wonder
    kinds: frozenset[str] = frozenset()  # the types of goods in his income
    gain: int = 0                  # the new types his trade may bring, toward the fifth

    @property
    def total(self) -> float:
        miss = 1.0
        for x in (self.fifth, self.prestige, self.conquest, self.leadership):
            miss *= 1.0 - x
        return 1.0 - miss

    @property
    def builds(self) -> bool:
        """Whether a build victory is near enough to be worth denying."""
        return self.fifth >= 0.05 or self.prestige >= 0.05

    def build_chances(self, coins: int = 0, types: int = 0,
                      minus: int = 0) -> tuple[float, float]:
        """(fifth, prestige) with ``coins`` more coins, ``types`` more types of goods and
        ``minus`` fewer resources of either."""
        r = min(max(self.coins + coins, self.types + types), self.cap) - minus
        fifth = prestige = 0.0
        if self.tile_cost is not None:
            rf = min(max(self.coins + coins, self.types + types + self.gain),
                     self.cap) - minus
            fifth = afford(rf, self.tile_cost)
            if self.two_rounds:
                # this tile now, the last (one step dearer) next round
                fifth *= afford(rf, self.tile_cost + 1) * SECOND_ROUND
        if self.special_cost is not None:
            prestige = afford(r, self.special_cost)
        return fifth, prestige


def trade_types(game: Game) -> float:
    """The new types of goods one trade may bring a player toward a set of goods. He
    takes about as many offered resources as the played token's face asks each to offer
    (the leader's choice: the mean face of the pack's tokens), what is offered is goods
    (a coin pays any set, so it is kept), and how many of them are types he lacks grows
    with the rivals whose offers he picks from: counted for the rivals beyond two, half
    the face each. (Fitted on traces of the default bots, a goods payer one tile short,
    read by his income's types: at 3 players read 0.17 and bought his fifth in 0.17 of
    those rounds, at 4 players 0.13 against 0.24, at 5 players 0.12 against 0.29.)"""
    faces = [int(f) for tok in game.rules.components.get("trade_tokens", [])
             for f in str(tok).split("/") if f.strip().isdigit()]
    rivals = len(game.state.players) - 1
    return sum(faces) / len(faces) * max(0, rivals - 2) / 2 if faces else 0.0


def danger(game: Game, t: ev.Table, player: str, kept_apart: bool = True,
           trade: float = 0.0, reach: float = 0.0) -> Danger:
    """``player``'s danger as the table sees it. What he may pay at the next build phase
    is his largest payment set: a set is coins only or goods of different types (NL
    3.0), so at most his coin income with the coins he may keep, or his income's types
    with the goods he may keep; and never more than his screen holds in the build
    phase. (``kept_apart`` false: the bots before issue 14's trade plan added the coins
    kept to the types too, and so took a goods payer for nearer than he was.) ``trade``:
    the share of a trade's new types (:func:`trade_types`) counted toward his set of
    goods: a bot that plans its trade assembles the types it lacks by its picks, and a
    goods payer read by his income's types alone buys his fifth four times as often as
    read (issue 14's fourth step). ``reach``: how far an empire one great city short of a
    conquest is read as further when none is within his reach (:func:`within_reach`;
    issue 14's fifth step: Greece, three great cities of four with none left to take,
    was read as a round from winning all game and blocked by the whole table)."""
    state = game.state
    hw = t.hw[player]
    max_tiles = game.param("max_tiles")
    regular: int | None = None
    special: int | None = None
    for tile in state.display:
        # the printed prices (a card's discount is his own affair)
        is_special = game.rules.cards[tile].kind in SPECIAL_KINDS
        if tile in state.tiles[player] or (not is_special and (
                hw < max_tiles - 2 or regular is not None)):
            continue
        cost = api.tile_cost(game, player, tile)
        if cost is None:
            continue
        if is_special:
            special = cost if special is None else min(special, cost)
        else:
            regular = cost
    inc = t.income(player)
    kept_coins, kept_goods = ev.storage(game, player, t.memo)
    coins = inc.get("coin", 0) + kept_coins
    kinds = frozenset(base_good(k) for k in inc if k != "coin")
    types = len(kinds) + (kept_goods if kept_apart else kept_coins)
    gain = int(trade * trade_types(game) + 0.5) if trade else 0
    # in the trade phase resources only change hands, and in the build phase his
    # screen is the bound (applied by :func:`dangers`)
    cap = coins + types
    if state.phase not in ("trade", "build"):
        cap = t.held[player] + sum(inc.values())
    need = game.param("conquest_cities")
    g = t.great[player]
    conquest = 0.1 if g == need - 2 else 0.0
    if g >= need - 1:
        conquest = 0.5
        if reach > 0 and not within_reach(game, player):
            r = min(reach, 1.0)  # 1: as far as two short (0.1)
            conquest = 0.1 * r + 0.5 * (1.0 - r)
    chances = ev.title_chances(t, player)
    all_three = 1.0
    for c in chances.values():
        all_three *= c
    held = sum(1 for who in t.titles.values() if who == player)
    leadership = all_three if held >= len(chances) - 1 else 0.0
    d = Danger(0.0, 0.0, conquest, leadership, coins, types, cap, regular,
               hw < max_tiles - 1, special, kinds, gain)
    fifth, prestige = d.build_chances()
    return Danger(fifth, prestige, conquest, leadership, coins, types, cap, regular,
                  hw < max_tiles - 1, special, kinds, gain)


def within_reach(game: Game, player: str) -> bool:
    """Whether a great city more is within ``player``'s reach: a free capital or
    legendary slot in a province nobody else controls, or another's great city where his
    legions may enter next Move & Fight."""
    state = game.state
    board = game.rules.board
    kinds = set(game.param("conquest_kinds"))
    reach = ev.legion_reach(game).get(player, {})
    for prov, built in state.built.items():
        slots = board.provinces[prov].slots
        for i, b in enumerate(built):
            if slots[i].kind not in kinds:
                continue
            if not b and state.control.get(prov) in (None, player):
                return True
            if b and reach.get(prov, 0) and api.slot_controller(game, prov, i) != player:
                return True
    return False


def relief(game: Game, found: Danger, lost: int) -> float:
    """What taking ``lost`` resources from an empire's next build phase takes from his
    chance of a build victory, in evaluation points."""
    if lost <= 0 or not found.builds:
        return 0.0
    return _worth(game, found, found.build_chances(minus=lost))


def feed(game: Game, found: Danger, key: str, typed: bool = True) -> float:
    """What one more ``key`` (a coin, or a good of a type he may lack) adds to an
    empire's chance of a build victory, in evaluation points: if ``typed``, a good of
    a type his income already brings adds nothing to a set of different goods."""
    if not found.builds or (typed and key != "coin" and base_good(key) in found.kinds):
        return 0.0
    after = found.build_chances(coins=1) if key == "coin" else found.build_chances(types=1)
    return -_worth(game, found, after)


def _worth(game: Game, before: Danger, after: tuple[float, float]) -> float:
    """The fall from ``before`` to ``after`` (fifth, prestige) in chance of a build
    victory, in points (the fifth tile's step in worth, the special wonder's win)."""
    last = game.param("max_tiles") - 1
    step = ev.HW_VALUE[min(last + 1, 5)] - ev.HW_VALUE[min(last, 5)]
    return (before.fifth - after[0]) * step + (before.prestige - after[1]) * 250.0


def dangers(game: Game, t: ev.Table | None = None,
            memo: Memo | None = None, kept_apart: bool = True, trade: float = 0.0,
            reach: float = 0.0) -> dict[str, Danger]:
    """Every empire's danger (``t``: the table, if the caller has it); a bot's ``memo``
    remembers them by all they depend on (what is built and held where, the tiles,
    titles and display, the size of each screen and the phase)."""
    state = game.state
    key: bytes | None = None
    out: dict[str, Danger] | None = None
    board: bytes | None = None
    if memo is not None:
        # the screens bound a build phase's payments only: applied below, not a key
        held = None if state.phase in ("trade", "build") else \
            {p: sum(v.values()) for p, v in state.screens.items()}
        board = t.board if t is not None and t.memo is memo else ev.board_key(game)
        # the board's key holds the phase, the display and the titles too
        key = marshal.dumps((held, board, kept_apart, trade, reach))
        known = memo.table(game, "dangers")
        out = known.get(key)
    if out is None:
        if t is None:
            t = ev.table(game, memo, board)
        t.all_incomes()   # remembered by the table's memo, if it has one
        out = {p: danger(game, t, p, kept_apart, trade, reach) for p in state.players}
        if memo is not None:
            known[key] = out
    if state.phase != "build":
        return out
    bounded = {}
    for p, d in out.items():
        d = Danger(d.fifth, d.prestige, d.conquest, d.leadership, d.coins, d.types,
                   sum(state.screens[p].values()), d.tile_cost, d.two_rounds, d.special_cost,
                   d.kinds, d.gain)
        fifth, prestige = d.build_chances()
        bounded[p] = Danger(fifth, prestige, d.conquest, d.leadership, d.coins, d.types,
                            d.cap, d.tile_cost, d.two_rounds, d.special_cost, d.kinds,
                            d.gain)
    return bounded


def weights(me: str, found: dict[str, Danger]) -> dict[str, float]:
    """How much harm to each opponent counts for ``me``: as the evaluation counts his
    score (0.7 the strongest, 0.3 shared by all), the strongest here the most
    dangerous."""
    others = [p for p in found if p != me]
    if not others:
        return {}
    top = max(others, key=lambda p: (found[p].total, p))
    share = 0.3 / len(others)
    return {p: share + (0.7 if p == top else 0.0) for p in others}


def title_stakes(t: ev.Table, player: str, found: dict[str, Danger],
                 levels: dict[str, dict[str, int]] | None = None) -> float:
    """What the titles' race is worth to ``player`` toward a victory: all three at once
    (leadership), and the tie-breaking title when he and another may buy a fifth tile
    in the same build phase."""
    tt = t if levels is None else ev.Table(game=None, levels=levels, titles=t.titles,
                                           great=t.great, hw=t.hw)
    chances = ev.title_chances(tt, player)
    all_three = 1.0
    for c in chances.values():
        all_three *= c
    return ev.ALL_TITLES_W * all_three + tie_stake(chances, player, found)


def title_denial(t: ev.Table, me: str, found: dict[str, Danger],
                 delta: dict[str, int]) -> float:
    """What raising ``me``'s levels by ``delta`` takes from the others' title stakes,
    weighed by their danger (:func:`weights`)."""
    lv = {p: dict(v) for p, v in t.levels.items()}
    for k, n in delta.items():
        lv[me][k] += n
    out = 0.0
    for q, w in weights(me, found).items():
        if found[q].total < 0.05:
            continue
        out += w * (title_stakes(t, q, found) - title_stakes(t, q, found, lv))
    return out


def regular_tiles_left(game: Game, player: str, minus: str | None = None) -> int:
    """Face-up heroes and wonders ``player`` could still buy (``minus`` taken first)."""
    state = game.state
    cards = game.rules.cards
    return sum(1 for tile in state.display
               if tile != minus and tile not in state.tiles[player]
               and cards[tile].kind not in SPECIAL_KINDS)


def still_to_build(game: Game) -> list[str]:
    """The players who have yet to take their build turn this phase."""
    for frame in reversed(game.state.stack):
        done = frame.get("done")
        if isinstance(done, list) and frame.get("step") == "build":
            return [p for p in game.state.players if p not in done]
    return []


def tie_stake(chances: dict[str, float], player: str, found: dict[str, Danger]) -> float:
    """The tie-breaking title's worth to ``player`` (``chances``: his title chances)
    when he and another may buy a fifth tile in the same build phase."""
    mine = found[player].fifth
    rival = max((d.fifth for p, d in found.items() if p != player), default=0.0)
    return TIE_W * chances[ORDER_TITLE] * mine * rival


def racing(game: Game, t: ev.Table) -> list[str]:
    """The empires within two tiles of their fifth (only they may share a build phase's
    fifth tile, which the tie-breaking title decides): read from the table alone."""
    near = game.param("max_tiles") - 2
    return [p for p, n in t.hw.items() if n >= near]


def watched(game: Game, t: ev.Table) -> set[str]:
    """The empires near enough to a victory other than the special wonder to read
    their danger for (from the table alone, so that the others cost nothing): within
    two tiles of the fifth, two great cities of a conquest, or one title of all three."""
    need = game.param("conquest_cities")
    titles: dict[str, int] = {}
    for who in t.titles.values():
        titles[who] = titles.get(who, 0) + 1
    out = set(racing(game, t))
    out.update(p for p, g in t.great.items() if g >= need - 2)
    out.update(p for p, n in titles.items() if n >= len(t.titles) - 1)
    return out
