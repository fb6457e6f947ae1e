"""The ancient personages (book, "ЦЕЛЬ ИГРЫ"), taken at the end of the nation's turn,
after its conquests, as many as it has earned and the box still holds; never lost.

* a king for every 5 cities it owns (10 cities: 2 kings...); one lost and won back gives
  no new king ("Когда же она снова завоевывает 10ый город, больше Короля она не получает")
  — so what is due is what the count earns minus what the nation holds;
* a general for every temple it destroyed, neutral ones included (``state.destroyed``);
* a citizen for every 3 temples it owns;
* a scholar for every know-how it learnt first (``state.firsts``), and Pliny the Elder
  for all eight;
* a navigator for every 7 seas its galleys are in, a sea with the galley symbol counting
  twice (counted at the end of the turn).

The box (pack ``components.personages``): 10 kings, 7 generals, 6 citizens, 8 scholars
and Pliny, 5 navigators — 37.
"""

from __future__ import annotations

from typing import Any

from mnrules.contract import Declaration, EventKind, Part
from mnrules.effects import Event
from mnrules.engine import DONE, Decision, Frame, Param
from mnrules.hookspecs import hookimpl
from mnrules.plugins.antike2.state import Game, Step
from mnrules.plugins.antike2.supply import (
    cities_of,
    personages_left,
    seas_held,
    temples_of,
)

KINDS = ("king", "general", "citizen", "scholar", "pliny", "navigator")


def earned(game: Game, nation: str, kind: str) -> int:
    """How many personages of ``kind`` the nation's position earns (before what it holds)."""
    state = game.state
    every: dict[str, int] = game.param("personage_every")
    if kind == "king":
        return len(cities_of(state, nation)) // every["king"]
    if kind == "general":
        return state.destroyed.get(nation, 0)
    if kind == "citizen":
        return len(temples_of(state, nation)) // every["citizen"]
    if kind == "scholar":
        return sum(1 for who in state.firsts.values() if who == nation)
    if kind == "pliny":
        all_know_how = [c for c, card in game.rules.cards.items() if card.kind == "know-how"]
        return int(bool(all_know_how) and all(k in state.know_how.get(nation, ())
                                              for k in all_know_how))
    if kind == "navigator":
        return seas_held(game, nation) // every["navigator"]
    return 0


def due(game: Game, nation: str) -> dict[str, int]:
    """What the nation would take now, kind by kind, the box permitting."""
    held = game.state.personages.get(nation, [])
    out: dict[str, int] = {}
    for kind in KINDS:
        if kind not in game.rules.components.get("personages", {}):
            continue
        n = min(earned(game, nation, kind) - held.count(kind), personages_left(game, kind))
        if n > 0:
            out[kind] = n
    return out


def take_due(game: Game, nation: str) -> None:
    for kind, n in due(game, nation).items():
        for _ in range(n):
            def take(ev: Event, kind: str = kind) -> None:
                game.state.personages[nation].append(kind)
            game.perform(Event("personage", nation, {"personage": kind}), take)


class Personages(Step):
    """Frame ``{nation}``: the nation takes what it has earned (no decision)."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        take_due(game, frame["nation"])
        return DONE


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.personages": Personages()}


@hookimpl
def mn_params() -> list[Param]:
    return [Param("personage_every", {"king": 5, "citizen": 3, "navigator": 7},
                  "cities per king, temples per citizen, seas per navigator (book: 5, 3, "
                  "7)", minimum=1, maximum=99)]


@hookimpl
def mn_check_state(game: Any) -> list[str]:
    cards = game.rules.cards
    return [f"{nation} holds {c!r}, no personage" for nation, held in
            game.state.personages.items() for c in held
            if c not in cards or cards[c].kind != "personage"]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("personages", "turn", "Step 3 of a turn: personages taken for cities, "
             "destroyed temples, temples, first know-how and seas."),
        EventKind("personage", "personages", "A nation has taken a personage.", True,
                  (("personage", "its kind: king, general, citizen, scholar, pliny, "
                    "navigator"),), player="the nation that took it", word="personage"),
    ]
