"""Phase 3 — Build (FR 3.1–3.8; NL 3.0–3.1.4; PL 3.0–3.2; UK 3.0–3.2).

The culture leader names the players one at a time. On his turn a player buys items
in any order, each with one payment set, and places each at once: control markers
next to (or connected with) a province he held at the start of the phase, units and
buildings only where he may build, triremes beside such a province. At the end of
his turn he keeps at most two coins (and what heroes or wonders let him keep).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, combinations_with_replacement, product
from typing import Any

from mare_nostrum import choices
from mare_nostrum.control import (
    AT_WAR,
    buildable,
    capital,
    may_build_in,
    trireme_seas,
)
from mare_nostrum.geometry import Reach
from mare_nostrum.payment import Payment, Purse, payments, set_rules
from mare_nostrum.state import Game, Step, base_good
from mare_nostrum.supply import give_back, take_building
from mnrules.core.effects import Event
from mnrules.core.engine import CONTINUE, DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.compiler import BuildOffer, use_limit

UNITS = ("legion", "fortress", "trireme")

R_MARKER = RuleRef("marker-placement", "a control marker goes on a neutral province "
                   "holding no other player's units, adjacent to or connected with a "
                   "province where you had a marker at the start of the phase",
                   "FR 3.5; NL/PL/UK 3.1.1")
R_UNIT = RuleRef("unit-placement", "legions and fortresses go in provinces you control "
                 "that hold no enemy units (always in your capital province); at most one "
                 "fortress per province; triremes in seas beside such a province",
                 "FR 3.6, 4.6; NL/PL/UK 3.1.2, 4.3.5")
R_FORTRESS = RuleRef("one-fortress", "at most one fortress per province",
                     "FR 3.6; NL/PL/UK 3.1.2")
R_BUILDING = RuleRef("building-placement", "a building goes on a free printed slot of its "
                     "type, in a province where you may build", "FR 3.7; NL/PL/UK 3.1.2")
R_LIMIT = RuleRef("component-limit", "the components in the box are a hard limit",
                  "FR Matériel, 3.6; NL/PL/UK 3.1.2, Q&A")
R_PAY = RuleRef("payment-set", "each item is paid with one set of its cost: coins only or "
                "goods of all different types", "FR 3.1; NL/PL/UK 3.0")
R_OFFER = RuleRef("card-build", "a hero's or wonder's own way to build is used as its "
                  "tile says (its price, its limit per round), under the normal placement "
                  "rules", "FR 8; NL/PL/UK 10-11")
R_FIRST = RuleRef("first-build-turn", "a hero may claim the first build turn: the culture "
                  "leader names him first", "FR 6 box; NL/PL/UK 6 box, Q&A 9")
R_TILE = RuleRef("hero-wonder-purchase", "only face-up heroes and wonders can be bought; "
                 "the 2nd to 5th cost 7/8/9/10, the Pyramids 12", "FR 3.2; NL/PL/UK 3.1.3")


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("costs", {"marker": 3, "city": 3, "capital": 3, "legendary": 3, "caravan": 3,
                        "legion": 3, "trireme": 3, "fortress": 3, "temple": 6, "market": 6},
              "what each item costs (Bouwkosten / Coûts d'Achat); a special wonder costs "
              "what its tile says unless its id is listed here",
              minimum=0, maximum=99, open_keys=True),
        Param("tile_costs", [7, 8, 9, 10],
              "the 2nd, 3rd, 4th and 5th hero or wonder (the starting hero is the 1st)",
              minimum=0, maximum=99, length=(1, 19)),
        Param("max_tiles", 5, "heroes and wonders an empire may own (the 5th wins)",
              minimum=2, maximum=20),
        Param("storage_coins", 2, "coins kept at the end of a build turn",
              minimum=0, maximum=99),
        Param("storage_goods", 0, "goods (of different types) kept at the end of a build turn",
              minimum=0, maximum=99),
        Param("hw_refill", "end_of_phase",
              "when the face-up display of heroes and wonders is refilled to its size (D11)",
              (Param.Option("end_of_phase", "at the end of the whole build phase",
                            "NL/PL/UK setup 5; FR setup 5 'À la fin de la phase Achats'"),
               Param.Option("end_of_turn", "at the end of each player's build turn",
                            "UK 3.1.3 'наприкінці вашої Фази будівництва'"))),
    ]


SPECIAL = ("special wonder",)
"""Card kinds outside the hero/wonder count (the Pyramids): own price, own display space."""


def is_special(game: Game, tile: str) -> bool:
    return game.rules.cards[tile].kind in SPECIAL


def refill_display(game: Game) -> None:
    state = game.state
    size = game.param("hw_display_size")
    cards = game.rules.cards
    while state.display_hidden and sum(
            1 for t in state.display if cards[t].kind not in SPECIAL) < size:
        state.display.append(state.display_hidden.pop())
    state.display.sort()


def owned_tiles(game: Game, player: str) -> int:
    """How many heroes and wonders ``player`` holds (the special tiles not counted)."""
    cards = game.rules.cards
    owned = 0
    for t in game.state.tiles[player]:   # (is_special, inlined: no call per tile)
        if cards[t].kind not in SPECIAL:
            owned += 1
    return owned


def tile_cost(game: Game, player: str, tile: str, owned: int | None = None) -> int | None:
    """The price of ``tile`` for ``player``, or None if he may not buy it (``owned``:
    :func:`owned_tiles`, if the caller has it)."""
    card = game.rules.cards[tile]
    if card.kind in SPECIAL:
        # the pack's price for this tile, else the one printed on it
        price = game.param("costs").get(tile, card.cost)
        return None if price is None else int(price)
    if owned is None:
        owned = owned_tiles(game, player)
    if owned >= game.param("max_tiles"):
        return None
    table: list[int] = game.param("tile_costs")
    return table[min(owned - 1, len(table) - 1)] if owned >= 1 else table[0]


def item_of(game: Game, action: Sequence[Any]) -> str:
    """What a purchase's action buys: a tile's id, a slot's building kind, else the piece
    ("legion", "marker")."""
    kind = str(action[0])
    if kind == "tile":
        return str(action[1])
    if kind == "building":
        return str(game.rules.board.provinces[action[1]].slots[action[2]].kind)
    return kind


def area_of(action: Sequence[Any]) -> str | None:
    """Where a purchase's action puts its item: a province or sea; None for a hero or
    wonder, which goes nowhere on the board."""
    return str(action[1]) if action[0] != "tile" and len(action) > 1 else None


def item_cost(game: Game, player: str, action: tuple[Any, ...],
              owned: int | None = None) -> int | None:
    kind = action[0]
    item = item_of(game, action)
    if kind == "tile":
        base = tile_cost(game, player, item, owned)
        if base is None:
            return None
    else:
        base = game.param("costs")[item]
    # the area the item goes to (none for a hero or wonder): a card may price a region
    cost: int = game.fold("cost", base, player=player, item=item, province=area_of(action))
    return max(0, cost)


class Build(Step):
    """The phase: the culture leader names who builds next."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        done = frame.setdefault("done", [])
        if frame.pop("turn_over", False) and game.param("hw_refill") == "end_of_turn":
            refill_display(game)
        left = [p for p in state.players if p not in done]
        if not left:
            refill_display(game)
            return DONE
        if len(left) == 1:
            self.choose(game, frame, left[0])
            return CONTINUE
        leader = state.titles.get("culture", state.players[0])
        options = tuple(left)
        if not done:
            # a card may claim the first build turn (Perseus, 6 box / Q&A 9); its holder
            # may also let it go (NL 10 "Je mag de culturele leider negeren")
            first: list[str] = game.fold("build.first", [])
            asked: dict[str, bool] = frame.setdefault("first_asked", {})
            for p in left:
                if p in first and p not in asked:
                    frame["asking"] = p
                    return Decision(p, "build.claim_first", f"{p}: build first, ignoring the "
                                    "culture leader's order?", ("yes", "no"))
            claimed = tuple(p for p in left if p in first and asked.get(p))
            options = claimed or options
        return Decision(leader, "build.next", f"{leader}: who builds next?", options)

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        asking = frame.pop("asking", None)
        if asking is not None:
            frame["first_asked"][asking] = choice == "yes"
            return
        frame["done"].append(choice)
        frame["turn_over"] = True
        game.push("build.turn", player=choice)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        if frame.get("asking") is not None:
            return R_FIRST, f"{choice!r} is neither 'yes' nor 'no'"
        if choice in game.state.players and choice not in frame.get("done", []):
            return R_FIRST, "another player has claimed the first build turn"
        return RuleRef("build-order", "the culture leader names who builds next; each "
                       "player builds once a round", "FR 3; NL/PL/UK 3"), \
            f"{choice!r} is not a player who has yet to build"


def placements(game: Game, player: str, keep: Callable[[Any], bool] | None = None,
               where: list[str] | None = None) -> list[tuple[Any, ...]]:
    """Every purchase ``player`` could place now, whether or not he can pay for it.

    ``keep``, if given, is asked of each item (a unit kind, ``"marker"``, a building
    kind, ``("tile", id)``) before its places are looked for: the places of an item it
    refuses are left out (a listing that knows the price of an item does not look for
    the places of one its buyer cannot pay). ``where``: :func:`.control.buildable`, if
    the caller has it."""
    state = game.state
    board = game.rules.board
    out: list[tuple[Any, ...]] = []
    pieces = state.pieces[player]
    if pieces.get("marker", 0) > 0 and (keep is None or keep("marker")):
        out += [("marker", p) for p in sorted(marker_sites(game, player))]
    if where is None:
        where = buildable(game, player)
    if pieces.get("legion", 0) > 0 and (keep is None or keep("legion")):
        out += [("legion", p) for p in where]
    if pieces.get("fortress", 0) > 0 and (keep is None or keep("fortress")):
        units = state.units
        for p in where:   # (state.count(p, player, "fortress"), inlined)
            here = units.get(p)
            mine = None if here is None else here.get(player)
            if mine is None or not mine.get("fortress", 0):
                out.append(("fortress", p))
    if pieces.get("trireme", 0) > 0 and (keep is None or keep("trireme")):
        out += [("trireme", s) for s in trireme_seas(game, player, where)]
    supply = state.supply
    # a building kind is judged once a listing (the supply and the item's price), not
    # once per free slot of every province: its slots are looked at only if it passes
    kinds: dict[str, bool] = {}
    for prov in where:
        seen: set[str] = set()
        slots = board.provinces[prov].slots
        for i, is_built in enumerate(state.built[prov]):
            if is_built:
                continue
            slot = slots[i]
            kind = slot.kind
            ok = kinds.get(kind)
            if ok is None:
                ok = kinds[kind] = supply.get(kind, 0) > 0 and (keep is None or keep(kind))
            if not ok:
                continue
            spec = slot.spec
            if spec in seen:
                continue
            seen.add(spec)
            out.append(("building", prov, i))
    owned = state.tiles[player]
    for t in state.display:
        if t not in owned:
            tile = ("tile", t)
            if keep is None or keep(tile):
                out.append(tile)
    return out


def legal_actions(game: Game, player: str) -> list[tuple[Any, ...]]:
    """Every purchase ``player`` may make now (placement, supply and payment allow it)."""
    purse = Purse(game.state.screens[player])
    rules = set_rules(game, player)
    affordable: dict[int, bool] = {}
    costs: dict[Any, int | None] = {}
    slots = game.rules.board.provinces
    owned = owned_tiles(game, player)

    def afford(action: tuple[Any, ...]) -> bool:
        # the price depends on the item and where it goes (a card may price a region):
        # fold it once per item and place
        item = (slots[action[1]].slots[action[2]].kind, action[1]) \
            if action[0] == "building" else action[:2]
        if item not in costs:
            costs[item] = item_cost(game, player, action, owned)
        cost = costs[item]
        if cost is None:
            return False
        if cost not in affordable:
            affordable[cost] = purse.can_pay(cost, rules)
        return affordable[cost]

    # where he may build, found once for the placements and the cards' offers (which
    # only read the state)
    where = buildable(game, player)
    if game.modified("cost"):
        out = [a for a in placements(game, player, where=where) if afford(a)]
    else:
        # No card or plugin changes a price: each item's is its base price, whatever
        # the place, so an item is judged before its places are looked for.
        costs_param = game.param("costs")
        cards = game.rules.cards
        # every hero or wonder but a special one costs the same (by how many he owns):
        # whether he can pay it is judged once a listing, not once per tile on display
        common: list[bool] = []

        def pays(item: Any) -> bool:
            if item.__class__ is tuple:
                tile = item[1]
                if cards[tile].kind in SPECIAL:
                    cost = tile_cost(game, player, tile, owned)
                else:
                    if common:
                        return common[0]
                    cost = tile_cost(game, player, tile, owned)
                    common.append(cost is not None and can(max(0, cost)))
                    return common[0]
                if cost is None:
                    return False
            else:
                cost = costs_param[item]
            return can(max(0, cost))

        def can(cost: int) -> bool:
            ok = affordable.get(cost)
            if ok is None:
                ok = affordable[cost] = purse.can_pay(cost, rules)
            return ok

        out = placements(game, player, pays, where)
    for offer in card_offers(game, player):
        if offer_payments(game, player, offer):
            out += [("offer", offer.source, offer.item, site)
                    for site in offer_sites(game, player, offer, where)]
    return out


def card_offers(game: Game, player: str) -> list[BuildOffer]:
    """The ways to build ``player``'s heroes and wonders give him now (mn_build_offers)."""
    out: list[BuildOffer] = []
    for found in game.ask("mn_build_offers", player):
        out.extend(found if isinstance(found, list) else [found])
    return out


def offer_sites(game: Game, player: str, offer: BuildOffer,
                where: list[str] | None = None) -> list[str]:
    """Where ``offer``'s item may go, by the normal placement rules (``where``:
    :func:`.control.buildable`, if the caller has it)."""
    state = game.state
    item = offer.item
    if state.pieces[player].get(item, 0) <= 0:
        return []
    if item == "marker":
        return sorted(marker_sites(game, player))
    home = capital(game, player)
    if item == "trireme":
        seas = trireme_seas(game, player, where)
        if offer.where == "capital":
            return [s for s in seas if s in game.rules.board.provinces[home].seas]
        return seas
    if item not in UNITS:
        return []
    places = [home] if offer.where == "capital" else \
        buildable(game, player) if where is None else list(where)
    if item == "fortress":
        places = [p for p in places if not state.count(p, player, "fortress")]
    return places


def offer_payments(game: Game, player: str, offer: BuildOffer) -> list[Payment]:
    """The offer's prices ``player`` can pay now (a legendary good counts as its type),
    each set once, the sets of a type in the order of its keys."""
    screen = game.state.screens[player]
    out: list[Payment] = []
    # the screen's keys by the type they count as, sorted once (not once per wanted type)
    by_type: dict[str, list[str]] = {}
    for k in sorted(screen):
        by_type.setdefault(base_good(k), []).append(k)
    for price in offer.payments:
        # counted per type: the n goods of a type are one multiset of its keys, not a key
        # picked for each good in turn (2**20 picks for "20 grain" with a legendary grain)
        ways: list[list[tuple[str, ...]]] = []
        wanted: dict[str, int] = {}   # (Counter(price), without the class's setup)
        for want in price:
            wanted[want] = wanted.get(want, 0) + 1
        for want, n in wanted.items():
            keys = by_type.get(want, [])
            if n == 1:   # one good of the type: any key of it held
                ways.append([(k,) for k in keys if screen[k] >= 1])
                continue
            ways.append([c for c in combinations_with_replacement(keys, n)
                         if all(screen[k] >= c.count(k) for k in set(c))])
        for combo in product(*ways):
            pay = tuple(sorted(k for part in combo for k in part))
            if pay not in out:
                out.append(pay)
    return out


def find_offer(game: Game, player: str, action: tuple[Any, ...]) -> BuildOffer | None:
    if len(action) != 4 or action[0] != "offer":
        return None
    return next((o for o in card_offers(game, player)
                 if o.source == action[1] and o.item == action[2]), None)


def marker_bases(game: Game, player: str) -> list[str]:
    """The provinces where ``player`` had a control marker at the start of the build
    phase: a new marker goes next to (or connected with) one of them (this plugin's
    ``vars["build.bases"]``)."""
    bases: list[str] = game.state.vars.get("build.bases", {}).get(player, [])
    return bases


def marker_sites(game: Game, player: str) -> set[str]:
    """Where ``player`` may place a control marker now: a neutral province in play,
    holding no other player's units, adjacent to or connected with one of his bases."""
    state = game.state
    built = state.built
    board = game.rules.board
    # what the bases reach depends on nothing but the provinces in play, his fleet and
    # his bases: remembered on the board, by exactly those (a bounded cache)
    last = board.in_play
    if not last or last[0] != built.keys():
        board.in_play[:] = [frozenset(built)]
    # his fleet (fleet_seas) read from the board's seas, a handful, not from every area
    # holding units: a trireme stands only at sea (a trireme in a province, which no
    # rule places, made fleet_shores fail before)
    units = state.units
    fleet = []
    for sea in board.seas:
        owners = units.get(sea)
        if owners is not None:
            mine = owners.get(player)
            if mine is not None and "trireme" in mine:
                fleet.append(sea)
    key = (board.in_play[0], frozenset(fleet), tuple(marker_bases(game, player)))
    cache = board.marker_reach
    sites = cache.get(key)
    if sites is None:
        found: set[str] = set()
        reach = Reach(game, player, key[1])
        for base in key[2]:
            found |= reach(base)
        sites = frozenset(p for p in found if p in built)
        if len(cache) > 4096:
            cache.clear()
        cache[key] = sites
    control = state.control
    out = set()
    for p in sites:
        if control.get(p) is None:
            here = units.get(p)
            # no other player's unit (has_enemies, inlined): none, or his alone
            if not here or (len(here) == 1 and player in here):
                out.add(p)
    return out


def storage(game: Game, player: str) -> tuple[int, int]:
    """What ``player`` keeps at the end of his build turn: (coins, goods of different
    types), his heroes and wonders included."""
    coins: int = game.fold("storage.coins", game.param("storage_coins"), player=player)
    goods: int = game.fold("storage.goods", game.param("storage_goods"), player=player)
    return coins, goods


def keep_options(game: Game, player: str, limit: int) -> list[tuple[str, ...]]:
    screen = game.state.screens[player]
    keys = sorted(k for k in screen if k != "coin")
    size = min(limit, len({base_good(k) for k in keys}))
    if size <= 0:
        return [()]
    return [c for c in combinations(keys, size)
            if len({base_good(k) for k in c}) == size]


class BuildTurn(Step):
    """One player's build turn: buy, pay, place; then the storage limit."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        player = frame["player"]
        stage = frame.setdefault("stage", "act")
        if stage == "act":
            options: tuple[Any, ...] = (("end",), *legal_actions(game, player))
            return Decision(player, "build.action", f"{player}: buy something or end your "
                            "turn", options)
        if stage == "pay":
            return Decision(player, "build.pay", f"{player}: pay for {frame['action']}",
                            tuple(map(tuple, frame["payments"])))
        if stage == "finished":
            return DONE
        if stage == "store":
            coins, goods = storage(game, player)
            frame["coins"] = coins
            options = tuple(keep_options(game, player, goods)) if goods else ((),)
            if len(options) > 1:
                return Decision(player, "build.keep",
                                f"{player}: choose the goods you keep", options)
            self._store(game, frame, options[0])
            return DONE
        raise AssertionError(stage)

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        player = frame["player"]
        stage = frame["stage"]
        if stage == "act":
            if choice == ("end",):
                frame["stage"] = "store"
                return
            frame["action"] = list(choice)
            if choice[0] == "offer":
                offer = find_offer(game, player, choice)
                assert offer is not None
                frame["payments"] = [list(p) for p in offer_payments(game, player, offer)]
                frame["stage"] = "pay"
                if frame["payments"] == [[]]:  # free: nothing to choose
                    self.choose(game, frame, ())
                return
            cost = item_cost(game, player, choice)
            assert cost is not None
            frame["payments"] = list(payments(game.state.screens[player], cost,
                                              set_rules(game, player)))
            frame["stage"] = "pay"
        elif stage == "pay":
            action = tuple(frame.pop("action"))
            del frame["payments"]
            frame["stage"] = "act"
            if action[0] == "offer":
                self._use_offer(game, player, action, tuple(choice))
            else:
                self._buy(game, player, action, choice)
        elif stage == "store":
            self._store(game, frame, choice)
            frame["stage"] = "finished"

    def _use_offer(self, game: Game, player: str, action: tuple[Any, ...],
                   paid: Payment) -> None:
        offer = find_offer(game, player, action)
        assert offer is not None
        _, source, item, site = action
        if offer.limit is not None:
            use_limit(game, offer.limit, offer.period or "round")
        count = min(offer.count, game.state.pieces[player].get(item, 0))
        self._buy(game, player, (item, site), paid, count, source)

    def _buy(self, game: Game, player: str, action: tuple[Any, ...], paid: Payment,
             count: int = 1, source: str | None = None) -> None:
        state = game.state
        # each run of one key (a set is sorted: its coins together) given back at once,
        # in the set's order
        last, run = "", 0
        for key in paid:
            if key == last:
                run += 1
                continue
            if run:
                give_back(state, player, last, run)
            last, run = key, 1
        if run:
            give_back(state, player, last, run)

        def place(event: Event) -> None:
            kind = event.data["action"][0]
            where = event.data["action"][1:]
            if kind == "marker":
                state.control[where[0]] = player
                state.pieces[player]["marker"] -= 1
            elif kind in UNITS:
                n = event.data.get("count", 1)
                state.add_units(where[0], player, kind, n)
                state.pieces[player][kind] -= n
            elif kind == "building":
                prov, i = where
                state.built[prov][i] = True
                take_building(state, game.rules.board.provinces[prov].slots[i].kind)
            elif kind == "tile":
                state.display.remove(where[0])
                state.tiles[player].append(where[0])

        data: dict[str, Any] = {"action": list(action), "paid": list(paid)}
        if source is not None:
            data.update(count=count, offer=source)
        game.perform(Event("built", player, data), place)

    def _store(self, game: Game, frame: Frame, keep: tuple[str, ...]) -> None:
        state = game.state
        player = frame["player"]
        kept_goods = list(keep)
        for key, n in sorted(state.screens[player].items()):
            extra = n - frame["coins"] if key == "coin" else n - kept_goods.count(key)
            if extra > 0:
                give_back(state, player, key, extra)
        game.emit(Event("build_turn_end", player, {"kept": dict(state.screens[player])}))

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        player = frame["player"]
        r_act = RuleRef("build-action", "a build turn buys units, markers, buildings, heroes "
                        "or wonders the box, the display and the placement rules allow, or "
                        "ends", "FR 3; NL/PL/UK 3")
        if frame.get("stage") == "pay":
            return R_PAY, f"{choice!r} is not a valid set for {frame['action']}"
        if frame.get("stage") == "store":
            return RuleRef("storage", "at the end of his build turn a player keeps at most "
                           "his storage: coins, and goods of different types",
                           "FR 3.1; NL/PL/UK 3 (3.0)"), \
                f"{choice!r} is not a set of goods {player} may keep"
        if frame.get("stage") != "act" or not isinstance(choice, tuple) or not choice:
            return r_act, f"{choice!r} is not a purchase (a tuple such as ('legion', " \
                "'LATIUM')) nor ('end',)"
        if choice in placements(game, player):
            cost = item_cost(game, player, choice)
            if cost is None:
                return R_TILE, f"{player} owns as many heroes and wonders as he may"
            return R_PAY, f"{player} cannot make a set of {cost} for {choice}"
        kind = choice[0]
        state = game.state
        if kind == "offer":
            return R_OFFER, f"{player} has no such card offer now: {choice[1:]}"
        where = choice[1] if len(choice) > 1 and isinstance(choice[1], str) else None
        if (kind == "marker" or kind in UNITS) and state.pieces[player].get(kind, 0) <= 0:
            return R_LIMIT, f"{player} has no {kind} left"
        if kind == "marker":
            return R_MARKER, f"{choice[1:]} is not a legal site for a marker now"
        if kind in ("legion", "fortress", "building") and where in state.built:
            rule = may_build_in(game, player, where)
            if rule is not None:
                return rule, f"{player} may not build in {where}"
        if kind == "fortress" and where in state.built and state.count(where, player, kind):
            return R_FORTRESS, f"{player} already has a fortress in {where}"
        if kind == "trireme" and where in game.rules.board.seas:
            shore = [p for p in game.rules.board.provinces_on_sea(where)
                     if state.control.get(p) == player]
            war = [p for p in shore if may_build_in(game, player, p) is AT_WAR]
            if war and (len(war) == len(shore)
                        or game.param("trireme_anchor") == "all_adjacent_clean"):
                return AT_WAR, f"{', '.join(war)} beside {where}: at war"
        if kind in UNITS:
            return R_UNIT, f"{player} may not place a {kind} in {choice[1:]}"
        if kind == "building":
            return R_BUILDING, f"no free slot {choice[1:]} where {player} may build"
        if kind == "tile":
            return R_TILE, f"{choice[1:]} is not a face-up tile {player} may buy"
        return r_act, f"{choice!r} is not something {player} may buy now"


@hookimpl
def mn_phase_start(game: Game, phase: str) -> None:
    if phase == "build":
        state = game.state
        bases: dict[str, list[str]] = {p: [] for p in state.players}
        for prov, who in state.control.items():
            if who is not None:
                bases[who].append(prov)
        state.vars["build.bases"] = bases


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"build": Build(), "build.turn": BuildTurn()}



@hookimpl
def mn_contract() -> list[Declaration]:
    """The costs, payment rules, turn order and storage this plugin folds (``payment``
    through plugins/payment.py, which it uses), its decisions and its events."""
    return [
        Part("build", "build", "Phase 3: in the order the culture leader names, each player "
             "buys and places units, markers, buildings, heroes and wonders, paying in "
             "sets, then keeps only what his storage allows."),
        DecisionKind("build.next", "build", "The culture leader names who builds next (a "
                     "card may claim the first turn)."),
        DecisionKind("build.claim_first", "build", "A player whose card lets him claim the "
                     "first build turn (Perseus) says whether he claims it (he may decline)."),
        DecisionKind("build.action", "build", "The player whose build turn it is buys "
                     "something or ends his turn.",
                     choices=choices.BUILD_ACTION),
        DecisionKind("build.pay", "build", "The buyer chooses how he pays, among the "
                     "payments the set rules allow."),
        DecisionKind("build.keep", "build", "At the end of his build turn a player chooses "
                     "the goods he keeps within his storage."),
        Quantity("cost", "build", "The cost of an item a player buys: a unit, a marker, a "
                 "building, a hero or a wonder.", "int",
                 (("player", "the buyer"),
                  ("item", "the item: a unit kind, 'marker', a building kind or a tile id"),
                  ("province", "the province or sea it goes to (none for a tile)")),
                 subject="player", word="cost"),
        Quantity("payment", "build", "What a player's payment sets may hold beyond the "
                 "base rule: coins in goods sets, goods in coin sets, a goods type twice.",
                 "setrules", (("player", "who pays"),), subject="player", word="payment"),
        Quantity("build.first", "build", "The players who claim the first build turn; the "
                 "culture leader must name one of them first.", "list", word="build.first"),
        Quantity("storage.coins", "build", "The coins a player keeps at the end of his "
                 "build turn.", "int", (("player", "whose storage it is"),),
                 subject="player", word="storage.coins"),
        Quantity("storage.goods", "build", "The goods, each of a different type, a player "
                 "keeps at the end of his build turn.", "int",
                 (("player", "whose storage it is"),), subject="player",
                 word="storage.goods"),
        EventKind("built", "build", "A player has bought an item and placed it (a unit, a "
                  "marker, a building) or taken it (a hero or a wonder).", True,
                  (("action", "what was bought and where: [kind, place, ...] or "
                              "['tile', tile id]"),
                   ("paid", "the resources paid"),
                   ("count", "how many, when bought through a card's offer"),
                   ("offer", "the card whose offer it was, if any")),
                  player="the buyer", word="buy"),
        EventKind("tile_discarded", "build", "A player gives up a hero or wonder he holds "
                  "(a card's own rule: its upkeep unpaid): out of the game, or face up on "
                  "the display, where it may be bought again.", True,
                  (("tile", "the hero or wonder"),
                   ("to", "'box' (out of the game) or 'display'")),
                  player="who gave it up", word="discard"),
        EventKind("build_turn_end", "build", "A player's build turn is over and he has put "
                  "back what he may not keep.", False,
                  (("kept", "what is left behind his screen, by resource"),),
                  player="the player whose turn it was"),
    ]
