"""Antike II's log auditor (``mnrules audit``, :mod:`mnrules.tools.audit`): the book's facts
re-derived at every step of a replayed log, from the pack's data and the state alone.

Nothing here calls a rule plugin: the rondel's steps and their price, a production's
yield, the prices of temples, cities and know-how, the box's counts and the victory
conditions are written again from the Russian book (../shared/seeds/002_*, digested in
../shared/rules/antike2-notes.md) and read from ``rules.params`` and
``rules.components``, so that a plugin that gets a rule wrong is caught.

The checks (each finding's ``kind``):

* ``rondel``: a move of 1 to ``rondel_free`` spaces clockwise is free, each further
  space costs one resource or coin, and the same space again is a whole turn round
  ("Рондель": from Ferrum, Militia costs 1, Marmor 2); what was paid is that price.
* ``production``: Marmor, Ferrum and Aurum yield 1 per city of the resource, 3
  (``temple_production``) with a temple, Metallum +1 or Moneta +2, and a coin, or
  another resource when the bank has no coin ("Производство").
* ``price``: a temple costs ``temple_cost`` marble, a city one of each ``city_cost``,
  a know-how its first or later price ("Храм", "Основать город", "Знания"), coins
  standing in for any resource.
* ``box``: at most the box's temples stand, the neutral ones among them ("Если все 20
  храмов на игровом поле, то больше их построить нельзя"), a nation has at most the
  box's legions and galleys, the box's personages of each kind are never exceeded, and
  nobody holds less than nothing.
* ``victory``: a declared winner holds the personage target for the number of nations
  (``personage_target``), or is one short having destroyed this turn a temple for
  which no general was left ("Если нация не хватает выиграть всего лишь 1 персонажа"),
  or holds Pliny the Elder where the pack lets him win.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from mnrules.core.engine import Game
from mnrules.language.present import Presenter
from mnrules.tools.audit import Findings

COIN = "coin"


def _ids(order: list[str]) -> list[str]:
    """The rondel's space ids as the pack names them: an action's second space is
    ``ACTION_2``."""
    seen: Counter[str] = Counter()
    out = []
    for action in order:
        seen[action] += 1
        out.append(action if seen[action] == 1 else f"{action}_{seen[action]}")
    return out


class Auditor(Findings):
    """Follows one replayed game (:class:`mnrules.log.Watcher`) and gathers findings."""

    def __init__(self, rules: Ruleset, say: Presenter) -> None:
        self.rules = rules
        super().__init__(say)
        self.params = rules.params
        self.box = rules.components
        self.spaces = _ids(list(self.params.get("rondel", [])))
        self._turn_reset()

    def _turn_reset(self) -> None:
        self.rondel_cost: int | None = None
        self.rondel_paid = 0
        self.mover = ""
        self.destroyed: Counter[str] = Counter()
        self.generals: Counter[str] = Counter()

    # -- the watcher ---------------------------------------------------------------------
    def start(self, game: Game[Any]) -> None:
        self._box(game)

    def after(self, game: Game[Any], line: int) -> None:
        self._box(game)

    def finish(self, game: Game[Any]) -> None:
        self._box(game)

    # -- findings --------------------------------------------------------------------------
    def _paid(self, paid: dict[str, int]) -> str:
        items = [self.say.count(n, k, "resources") for k, n in sorted(paid.items()) if n]
        return self.say.join(items) if items else self.say.say("word.nothing") or "0"

    # -- the box ---------------------------------------------------------------------------
    def _box(self, game: Game[Any]) -> None:
        s: Any = game.state
        temples = sum(1 for c in s.cities.values() if c.get("temple")) + len(s.neutral)
        most = int(self.box.get("temples", 20))
        if temples > most:
            self._once(game, "box", None, "temples", str(temples), count=temples, box=most,
                       neutral=len(s.neutral))
        for p in s.players:
            for unit in ("legion", "galley"):
                n = sum(here.get(unit, 0) for here in s.units.get(p, {}).values())
                top = self.box.get(unit)
                if isinstance(top, int) and n > top:
                    self._once(game, "box", p, "units", f"{unit}:{n}", count=n, box=top,
                               unit=self.say.name(unit, "units"))
            for k, n in s.stock.get(p, {}).items():
                if n < 0:
                    self._once(game, "box", p, "negative", f"{k}:{n}", count=n,
                               resource=self.say.name(k, "resources"))
        held: Counter[str] = Counter()
        for have in s.personages.values():
            held.update(have)
        for kind, top in (self.box.get("personages") or {}).items():
            if held[kind] > top:
                self._once(game, "box", None, "personages", f"{kind}:{held[kind]}",
                           count=held[kind], box=top,
                           personage=self.say.name(kind, "personages"))

    # -- a turn ----------------------------------------------------------------------------
    def _on_turn_start(self, game: Game[Any], event: Event) -> None:
        self._turn_reset()

    def _on_turn_end(self, game: Game[Any], event: Event) -> None:
        self._rondel_paid(game)

    def _on_rondel(self, game: Game[Any], event: Event) -> None:
        """The rondel ("Рондель"): the first move of a game goes anywhere for nothing;
        then 1 to ``rondel_free`` spaces clockwise are free and each one more costs a
        resource; staying is a whole round of the rondel."""
        p = event.player or ""
        start, to = str(event.data.get("from", "")), str(event.data.get("space", ""))
        self.mover = p
        if not start:
            book = 0
        elif start not in self.spaces or to not in self.spaces:
            return
        else:
            steps = (self.spaces.index(to) - self.spaces.index(start)) % len(self.spaces) \
                or len(self.spaces)
            free = int(self.params.get("rondel_free", 3))
            book = max(0, steps - free)
            if free == 0 and steps == 1 and event.data.get("cost", 0) == 0 and not sum(
                    game.state.stock.get(p, {}).values()):
                book = 0    # the pack's reading: with nothing to pay, one space is free
        self.rondel_cost = book
        logged = event.data.get("cost", 0)
        if logged != book:
            self._find(game, "rondel", p, "rondel", source=self.say.name(start, "spaces"),
                       space=self.say.name(to, "spaces"), book=book, log=logged,
                       free=self.params.get("rondel_free", 3))

    def _on_paid(self, game: Game[Any], event: Event) -> None:
        if event.data.get("why") == "rondel_move":
            self.rondel_paid += 1

    def _rondel_paid(self, game: Game[Any]) -> None:
        if self.rondel_cost is not None and self.rondel_paid != self.rondel_cost:
            self._find(game, "rondel", self.mover, "rondel_paid", book=self.rondel_cost,
                       log=self.rondel_paid)
        self.rondel_cost = None

    # -- production ------------------------------------------------------------------------
    def _on_produce(self, game: Game[Any], event: Event) -> None:
        s: Any = game.state
        p = event.player or ""
        resource = str(event.data.get("resource", ""))
        mine = [c for c in s.cities.values()
                if c.get("owner") == p and c.get("resource") == resource]
        book = sum(int(self.params.get("temple_production", 3)) if c.get("temple") else 1
                   for c in mine)
        know = s.know_how.get(p, [])
        book += 2 if "moneta" in know else 1 if "metallum" in know else 0
        logged = event.data.get("amount", 0)
        if logged != book:
            self._find(game, "production", p, "production", book=book, log=logged,
                       resource=self.say.name(resource, "resources"), cities=len(mine),
                       temples=sum(1 for c in mine if c.get("temple")))
        held = sum(st.get(COIN, 0) for st in s.stock.values())
        if not event.data.get("coin") and held < int(self.box.get("coins", 0)):
            self._find(game, "production", p, "no_coin",
                       left=int(self.box.get("coins", 0)) - held)

    # -- prices ----------------------------------------------------------------------------
    def _priced(self, game: Game[Any], player: str, what: str, paid: dict[str, int],
                price: dict[str, int]) -> None:
        """A price in named resources, a coin standing in for any one of them."""
        coins = paid.get(COIN, 0)
        short = sum(max(0, n - paid.get(k, 0)) for k, n in price.items())
        wrong = any(k != COIN and paid.get(k, 0) > price.get(k, 0) for k in paid)
        if wrong or coins != short:
            self._find(game, "price", player, "price", what=what, paid=self._paid(paid),
                       price=self._paid(price))

    def _on_temple(self, game: Game[Any], event: Event) -> None:
        self._priced(game, event.player or "", self.say.name("temple", "things"),
                     dict(event.data.get("paid", {})),
                     {"marble": int(self.params.get("temple_cost", 5))})

    def _on_found(self, game: Game[Any], event: Event) -> None:
        self._priced(game, event.player or "", self.say.name("city", "things"),
                     dict(event.data.get("paid", {})),
                     dict(self.params.get("city_cost", {})))

    def _on_learn(self, game: Game[Any], event: Event) -> None:
        p, know = event.player or "", str(event.data.get("know_how", ""))
        prices = self.params.get("know_how", {}).get(know)
        if prices is None:
            return
        s: Any = game.state
        others = [q for q in s.players if q != p and know in s.know_how.get(q, [])]
        first = not others   # the first nation to learn it pays the higher price
        book = int(prices["first" if first else "later"])
        self._priced(game, p, self.say.name(know, "know_how"),
                     dict(event.data.get("paid", {})), {"gold": book})

    # -- victory ---------------------------------------------------------------------------
    def _on_conquest(self, game: Game[Any], event: Event) -> None:
        if event.data.get("temple"):
            self.destroyed[event.player or ""] += 1

    def _on_personage(self, game: Game[Any], event: Event) -> None:
        if event.data.get("personage") == "general":
            self.generals[event.player or ""] += 1

    def _on_game_over(self, game: Game[Any], event: Event) -> None:
        s: Any = game.state
        victory = str(event.data.get("victory", ""))
        targets = self.params.get("personage_target", {})
        target = int(targets.get(str(len(s.players)), 0))
        for p in event.data.get("winners", []):
            held = list(s.personages.get(p, []))
            if victory == "personages":
                ok = len(held) >= target
            elif victory == "temple":
                generals_left = int((self.box.get("personages") or {}).get("general", 0)) - \
                    sum(h.count("general") for h in s.personages.values())
                # each temple that earned a general counts as that general, once
                ok = (len(held) == target - 1 and generals_left <= 0
                      and self.destroyed[p] > self.generals[p])
            elif victory == "pliny":
                ok = "pliny" in held and bool(self.params.get("pliny_wins"))
            else:
                continue
            if not ok:
                self._find(game, "victory", p, f"victory_{victory}", count=len(held),
                           target=target, nations=len(s.players),
                           destroyed=self.destroyed[p], generals=self.generals[p])
