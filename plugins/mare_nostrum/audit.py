"""Mare Nostrum's log auditor (``mnrules audit``, :mod:`mnrules.tools.audit`): the book's facts
re-derived at every step of a replayed log, from the pack's data and the state alone.

Nothing here calls a rule plugin: the income of a province, the price of a purchase,
the sets a price may be paid with, the box's counts and the victory conditions are
written again from the rules digest (../shared/rules/digest.md, NL/PL/UK sections) and
read from ``rules.params``, ``rules.components`` and the board's printed slots, so that
a plugin that gets a rule wrong is caught, not checked against itself.

The checks (each finding's ``kind``):

* ``box``: tokens are conserved at every phase boundary (coins and each good: supply
  plus screens is the box's count; the legendary goods: pile, discard and screens are
  one of each), each empire's pieces in its box and on the board are the box's count,
  and the buildings on the board and in the supply are the box's count (Components).
* ``negative``: no count of a screen, the supply or a box ever falls below nothing.
* ``income``: what each player collects is what his buildings yield (1.1: a coin per
  city or capital, two with a temple he controls there; a good per caravan, two with
  a market he controls there; a legendary city a coin and a legendary good, plus one
  of the two with a temple), the Temple of Artemis' coin and Circe's legions on empty
  caravan slots (10: each legion as one caravan, a single good) folded in; less only
  where the supply ran out.
* ``trade``: each good taken was offered by another player and not taken twice (2.2).
* ``cost``: each purchase is paid with one set of the pack's price (3.0: coins only,
  or goods all of different types; Cleopatra's one coin or good, Hannibal's one type
  twice), a hero or wonder at the price of the Nth tile (3.1.3).
* ``battle``: every die shows a face of the pack's die, a side scores at least its
  dice's sum over the hit divisor, and loses no more units than the other scored (4.2).
* ``victory``: a declared winner meets the condition (6.1-6.4).
"""

from __future__ import annotations

from collections import Counter
from importlib import resources
from typing import Any

import yaml

from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from mnrules.core.engine import Game
from mnrules.language.present import Presenter
from mnrules.tools.audit import Findings

CARDS: dict[str, Any] = yaml.safe_load(
    resources.files("mare_nostrum").joinpath("audit_cards.yaml").read_text(encoding="utf-8"))
"""The cards whose powers the checks follow, by what they do (``audit_cards.yaml``)."""

LEGENDARY = "legendary:"
UNITS = ("legion", "trireme", "fortress")
BUILDINGS = ("caravan", "market", "city", "capital", "legendary", "temple")


def _base(key: str) -> str:
    return key[len(LEGENDARY):] if key.startswith(LEGENDARY) else key


class Auditor(Findings):
    """Follows one replayed game (:class:`mnrules.log.Watcher`) and gathers findings."""

    def __init__(self, rules: Ruleset, say: Presenter) -> None:
        self.rules = rules
        super().__init__(say)
        self.params = rules.params
        self.box = rules.components
        self.expected: dict[str, dict[str, int]] = {}
        self.caravans: dict[str, tuple[int, int]] = {}
        self.offers: dict[str, Counter[str]] = {}
        self.battle: dict[str, Any] = {}
        self.lost: Counter[str] = Counter()

    # -- the watcher ---------------------------------------------------------------------
    def start(self, game: Game[Any]) -> None:
        self._conserved(game, self.say.say("play.at_start", round=game.state.round))

    def after(self, game: Game[Any], line: int) -> None:
        self._never_negative(game)

    def finish(self, game: Game[Any]) -> None:
        self._conserved(game, self._when(game))

    def _when(self, game: Game[Any]) -> str:
        """The round and phase, as the pack's language says them ("Round 3, Trade")."""
        return self.say.say("ui.round_phase", round=game.state.round,
                            phase=self.say.name(game.state.phase, "phases"))

    # -- the box -------------------------------------------------------------------------
    def _conserved(self, game: Game[Any], when: str) -> None:
        s: Any = game.state
        say = self.say
        held: Counter[str] = Counter()
        for screen in s.screens.values():
            held.update({k: n for k, n in screen.items()})
        tokens = {"coin": int(self.box.get("coins", 0)), **self.box.get("goods", {})}
        for good, total in tokens.items():
            have = s.supply.get(good, 0) + held.get(good, 0)
            if have != total:
                self._once(game, "box", None, "tokens", f"{good}:{have}",
                           good=say.name(good), box=total, count=have, when=when)
        if self.box.get("legendary_goods") == "one_of_each":
            legendary = len(s.legendary_pile) + len(s.legendary_discard) + sum(
                n for k, n in held.items() if k.startswith(LEGENDARY)) + sum(
                n for k, n in s.supply.items() if k.startswith(LEGENDARY))
            total = len(self.box.get("goods", {}))
            if legendary != total:
                self._once(game, "box", None, "legendary", str(legendary), box=total,
                           count=legendary, when=when)
        board = self.rules.board
        on_board: Counter[str] = Counter()
        for prov, built in s.built.items():
            slots = board.provinces[prov].slots
            on_board.update(slots[i].kind for i, b in enumerate(built) if b)
        for kind, total in self.box.get("buildings", {}).items():
            have = on_board[kind] + s.supply.get(kind, 0)
            if have != total:
                self._once(game, "box", None, "buildings", f"{kind}:{have}",
                           building=say.name(kind, "buildings"), box=total, count=have,
                           when=when)
        for p in s.players:
            for unit in UNITS:
                total = self.box.get("pieces", {}).get(unit)
                if total is None:
                    continue
                placed = sum(area.get(p, {}).get(unit, 0) for area in s.units.values())
                have = placed + s.pieces.get(p, {}).get(unit, 0)
                if have != total:
                    self._once(game, "box", p, "pieces", f"{unit}:{have}",
                               unit=say.name(unit, "units"), box=total, count=have,
                               placed=placed, when=when)

    def _never_negative(self, game: Game[Any]) -> None:
        s: Any = game.state
        for p, screen in s.screens.items():
            for k, n in screen.items():
                if n < 0:
                    self._once(game, "negative", p, "negative_screen", f"{k}:{n}",
                               good=self._good(k), count=n)
        for k, n in s.supply.items():
            if n < 0:
                self._once(game, "negative", None, "negative_supply", f"{k}:{n}",
                           good=self._good(k), count=n)
        for p, box in s.pieces.items():
            for k, n in box.items():
                if n < 0:
                    self._once(game, "negative", p, "negative_box", f"{k}:{n}",
                               unit=self.say.name(k), count=n)

    def _good(self, key: str) -> str:
        if key.startswith(LEGENDARY):
            return self.say.say("word.legendary", good=self.say.name(_base(key)))
        return self.say.name(key)

    # -- income (1.1) ----------------------------------------------------------------------
    def _on_phase_start(self, game: Game[Any], event: Event) -> None:
        phase = event.data.get("phase")
        self._conserved(game, self._when(game))
        if phase == "production":
            self.expected = {p: self._income(game, p) for p in game.state.players}
            self.caravans = {p: self._circe_legions(game, p) for p in game.state.players
                          if CARDS["caravan_legion"] in self._powers(game, p)}
        elif phase == "trade":
            self.offers = {}

    def _on_phase_end(self, game: Game[Any], event: Event) -> None:
        self._conserved(game, self._when(game))

    @staticmethod
    def _powers(game: Game[Any], player: str) -> list[str]:
        """The heroes and wonders whose powers ``player`` has: his tiles, and a hero
        Castor & Pollux copies (10: "copy its power for the rest of the game")."""
        s: Any = game.state
        return [*s.tiles.get(player, []), *s.vars.get("copies", {}).get(player, [])]

    def _controller(self, s: Any, prov: str, i: int) -> str | None:
        """6.1: the occupier of a building, else the holder of the province's marker."""
        occupier: str | None = s.occupied.get(prov, [None] * (i + 1))[i]
        return occupier or s.control.get(prov)

    def _income(self, game: Game[Any], player: str) -> dict[str, int]:
        """What the book gives ``player`` at this Collect phase: keys are goods, ``coin``,
        ``legendary`` (a drawn legendary good) and ``choice`` (a coin or a legendary good)."""
        s: Any = game.state
        income: dict[str, list[str]] = self.params.get("income", {})
        doublers: dict[str, list[str]] = self.params.get("income_doublers", {})
        out: Counter[str] = Counter()
        for prov, built in s.built.items():
            slots = self.rules.board.provinces[prov].slots
            mine = [i for i, b in enumerate(built)
                    if b and self._controller(s, prov, i) == player]
            doubled = {k for i in mine for k in doublers.get(slots[i].kind, ())}
            for i in mine:
                kind, twice = slots[i].kind, slots[i].kind in doubled
                if kind == "caravan" and slots[i].good:
                    out[slots[i].good] += 2 if twice else 1
                elif kind == "legendary":
                    for key in income.get(kind, ()):
                        out[key] += 1
                    if twice and self.params.get("legendary_temple_bonus"):
                        out["choice"] += 1
                elif kind in income:
                    for key in income[kind]:
                        out[key] += 2 if twice else 1
        if CARDS["temple_coin"] in self._powers(game, player):
            out["coin"] += 1
        return dict(out)

    def _circe_legions(self, game: Game[Any], player: str) -> tuple[int, int]:
        """Circe (10): how many of the holder's legions stand on empty caravan slots, and
        the most goods they can add, each legion one caravan: per province, as many as
        the empty caravan slots its free legions can stand on, doubled by the holder's
        market there."""
        s: Any = game.state
        total = standing = 0
        for prov, built in s.built.items():
            legions = s.units.get(prov, {}).get(player, {}).get("legion", 0)
            legions -= sum(1 for o in s.occupied.get(prov, []) if o == player)
            if legions <= 0:
                continue
            slots = self.rules.board.provinces[prov].slots
            empty = sum(1 for i, b in enumerate(built) if not b and slots[i].kind == "caravan")
            market = any(b and slots[i].kind == "market" and
                         self._controller(s, prov, i) == player for i, b in enumerate(built))
            standing += min(legions, empty)
            total += min(legions, empty) * (2 if market else 1)
        return standing, total

    def _on_collected(self, game: Game[Any], event: Event) -> None:
        p = event.player or ""
        got: Counter[str] = Counter()
        for key, n in event.data.get("resources", {}).items():
            got["legendary" if key.startswith(LEGENDARY) else key] += n
        want = Counter(self.expected.get(p, {}))
        choice = want.pop("choice", 0)
        s: Any = game.state
        # a temple beside a legendary city: a coin or a legendary good, his choice
        for key in ("coin", "legendary"):
            extra = min(choice, max(0, got[key] - want[key]))
            want[key] += extra
            choice -= extra
        legions, caravans = self.caravans.get(p, (0, 0))
        extra_goods: list[tuple[str, int]] = []
        for key in sorted(set(got) | set(want)):
            g, w = got[key], want[key]
            if g == w or (g < w and s.supply.get(key, 0) == 0 and key != "legendary") \
                    or (key == "legendary" and g < w and not s.legendary_pile):
                continue
            if g > w and key not in ("coin", "legendary"):
                extra_goods.append((key, g - w))
                continue
            self._find(game, "income", p, "income", good=self._good(key), book=w, log=g)
        if extra_goods:
            # Circe: a legion acts as one caravan, so each extra good needs its own legion
            added = sum(n for _, n in extra_goods)
            if added > caravans or len(extra_goods) > legions:
                self._find(game, "income", p, "income_extra",
                           goods=self.say.join([self.say.count(n, k, "goods")
                                                for k, n in extra_goods]),
                           legions=legions, most=caravans)

    # -- trade (2.2) -----------------------------------------------------------------------
    def _on_offers_revealed(self, game: Game[Any], event: Event) -> None:
        self.offers = {p: Counter(o) for p, o in event.data.get("offers", {}).items()}

    def _on_trade_pick(self, game: Game[Any], event: Event) -> None:
        p, source = event.player or "", str(event.data.get("from", ""))
        good = str(event.data.get("resource", ""))
        offer = self.offers.get(source, Counter())
        if source == p or offer[good] <= 0:
            self._find(game, "trade", p, "trade_pick", good=self._good(good),
                       source=self.say.player(source))
        else:
            offer[good] -= 1

    # -- purchases (3.0, 3.1.3) ------------------------------------------------------------
    def _on_built(self, game: Game[Any], event: Event) -> None:
        if "offer" in event.data:   # a card's own offer: its price is the card's
            return
        p = event.player or ""
        action = list(event.data.get("action", []))
        paid = [str(x) for x in event.data.get("paid", [])]
        s: Any = game.state
        costs: dict[str, int] = self.params.get("costs", {})
        if not action:
            return
        what: str
        if action[0] == "tile":
            tile = str(action[1])
            what = self.say.card_name(tile) or tile
            if tile == CARDS["prestige_wonder"]:
                cost = int(CARDS["prestige_wonder_cost"])
            else:
                n = len(s.tiles.get(p, []))      # the tile is on his board: the Nth
                prices: list[int] = self.params.get("tile_costs", [])
                if not 2 <= n <= len(prices) + 1:
                    self._find(game, "cost", p, "tile_count", tile=what, count=n)
                    return
                cost = prices[n - 2]
        elif action[0] == "building":
            kind = self.rules.board.provinces[action[1]].slots[int(action[2])].kind
            what, cost = self.say.name(kind, "buildings"), costs.get(kind, 0)
        else:
            what, cost = self.say.name(str(action[0]), "units"), costs.get(str(action[0]), 0)
        powers = self._powers(game, p)
        if len(paid) != cost or not self._one_set(paid, CARDS["mixed_payment"] in powers,
                                                  CARDS["double_type"] in powers):
            self._find(game, "cost", p, "cost", what=what, cost=cost,
                       paid=self.say.join([self._good(k) for k in paid]) if paid else
                       self.say.say("word.nothing"))

    @staticmethod
    def _one_set(paid: list[str], mixed: bool, double: bool) -> bool:
        """3.0: coins only, or goods all of different types (a legendary good counts as
        its type); Cleopatra lets one coin into a goods set or one good into a coin set,
        Hannibal one type twice in a goods set."""
        coins = paid.count("coin")
        goods = [_base(k) for k in paid if k != "coin"]
        if not goods or (mixed and len(goods) == 1 and coins):
            return True
        if coins > (1 if mixed else 0):
            return False
        twice = [n for n in Counter(goods).values() if n > 1]
        return not twice or (double and twice == [2])

    # -- battles (4.2) ---------------------------------------------------------------------
    def _on_battle_roll(self, game: Game[Any], event: Event) -> None:
        d = event.data
        faces = self.params.get("land_die" if d.get("kind") == "land" else "sea_die", [])
        divisor = int(self.params.get("hit_divisor", 5))
        self.battle, self.lost = dict(d), Counter()
        area = self.say.name(str(d.get("area", "")))
        for p, rolls in d.get("rolls", {}).items():
            for r in rolls:
                if r not in faces:
                    self._find(game, "battle", p, "die", area=area, face=r,
                               faces=self.say.join([str(f) for f in faces]))
            hits = d.get("hits", {}).get(p, 0)
            # a fortress of the other side cancels one hit (4.2)
            here = game.state.units.get(str(d.get("area", "")), {})
            cancel = 1 if d.get("kind") == "land" and any(
                u.get("fortress", 0) for q, u in here.items() if q != p) else 0
            least = max(0, sum(rolls) // divisor - cancel)
            if hits < least:
                self._find(game, "battle", p, "hits", area=area, total=sum(rolls),
                           divisor=divisor, book=least, log=hits)

    def _on_unit_lost(self, game: Game[Any], event: Event) -> None:
        self.lost[event.player or ""] += 1

    def _on_battle(self, game: Game[Any], event: Event) -> None:
        hits: dict[str, int] = self.battle.get("hits", {})
        area = self.say.name(str(event.data.get("area", "")))
        for p, n in self.lost.items():
            scored = sum(h for q, h in hits.items() if q != p)
            if n > scored:
                self._find(game, "battle", p, "losses", area=area, lost=n, hits=scored)
        self.battle, self.lost = {}, Counter()

    # -- victory (6) -----------------------------------------------------------------------
    def _on_game_over(self, game: Game[Any], event: Event) -> None:
        s: Any = game.state
        victory = str(event.data.get("victory", ""))
        for p in event.data.get("winners", []):
            tiles = s.tiles.get(p, [])
            if victory == "fifth":
                ok = len(tiles) >= int(self.params.get("max_tiles", 5))
            elif victory == "prestige":
                ok = CARDS["prestige_wonder"] in tiles
            elif victory == "leadership":
                ok = all(s.titles.get(t) == p for t in ("trade", "culture", "military"))
            elif victory == "conquest":
                kinds = set(self.params.get("conquest_kinds", ()))
                held = sum(1 for prov, built in s.built.items()
                           for i, b in enumerate(built)
                           if b and self.rules.board.provinces[prov].slots[i].kind in kinds
                           and self._controller(s, prov, i) == p)
                ok = held >= int(self.params.get("conquest_cities", 4))
            else:
                continue
            if not ok:
                self._find(game, "victory", p, f"victory_{victory}",
                           tiles=len(tiles), target=self.params.get("max_tiles", 5),
                           cities=self.params.get("conquest_cities", 4))
