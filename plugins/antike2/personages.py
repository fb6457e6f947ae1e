"""The ancient personages (book, "ЦЕЛЬ ИГРЫ"), taken at the end of the nation's turn,
after its conquests, as many as it has earned and the box still holds; never lost.

What earns each kind is its card's script (``cards/antike2/personages/``), in the effect
language: "after turn.personages: take a king per 5 cities you own". The rules of earning
are public, so every nation is subject to every personage card (the ``every nation``
holder word, ``words.py``), whether or not it holds one; this plugin performs the
occasion (``turn.personages``, step 3 of a turn) and does what the scripts' ``take``
words say, the same for every kind:

* what the count earns minus what the nation already holds is due — a personage is
  never lost, and one lost and won back gives no new one ("Когда же она снова
  завоевывает 10ый город, больше Короля она не получает");
* no more than the box (pack ``components.personages``) still holds: 10 kings,
  7 generals, 6 citizens, 8 scholars and Pliny, 5 navigators — 37.

A temple destroyed when the box has no general left for it is noted in the turn's
record (``without_general``, :func:`temple_destroyed`): one personage short, such a
temple wins in the general's place (``victory.py``); one that earned a general does not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from antike2.state import Game, Step
from antike2.supply import personages_left
from antike2.turn import TURN
from mnrules.core.effects import Event
from mnrules.core.engine import DONE, Decision, Frame
from mnrules.hooks.contract import Declaration, EventKind, Part
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.compiler import CompiledAction, CompiledRule, Env, Scaled

OCCASION = "personage_count"
"""The event of step 3 of a turn, which the personage scripts react to."""


class Earns:
    """The meaning of a ``take`` word of the personage scripts: ``tally(game, nation)``
    is what the nation's position counts (cities, temples, seas...); the script's
    number, if its word has one, is how many of it earn one personage."""

    def __init__(self, tally: Callable[[Game, str], int]) -> None:
        self.tally = tally

    def count(self, env: Env, card: str, n: int = 1) -> int:
        return self.tally(env.game, env.holder) // max(1, n)

    def __call__(self, env: Env, card: str, n: int = 1) -> None:
        take(env.game, env.holder, card, self.count(env, card, n))


class EarnsEach(Earns):
    """The meaning of ``take {n} {card}``: ``n`` personages, which ``per [M] COUNT``
    multiplies by any count the vocabulary declares ('take 1 navigator per 5 galleys
    you have'), the same rule of earning as the book's own words (less those held)."""

    def __init__(self) -> None:
        super().__init__(lambda game, nation: 1)

    def count(self, env: Env, n: Any, card: Any = "") -> int:  # type: ignore[override]
        return int(n)

    def __call__(self, env: Env, n: Any, card: Any = "") -> None:  # type: ignore[override]
        take(env.game, env.holder, str(card), int(n))


def _earning(action: CompiledAction) -> tuple[Earns, Scaled | None] | None:
    """The ``take`` word an action is, and the 'per' that scales it, if any."""
    meaning = action.word.meaning
    if isinstance(meaning, Earns):
        return meaning, None
    if isinstance(meaning, Scaled) and isinstance(meaning.meaning, Earns):
        return meaning.meaning, meaning
    return None


def _earns(env: Env, action: CompiledAction) -> int:
    found = _earning(action)
    if found is None:
        return 0
    earns, scaled = found
    args = action.args if scaled is None else scaled.scaled(env, action.args)
    return earns.count(env, *args)


def take(game: Game, nation: str, kind: str, earned: int) -> None:
    """``nation`` has earned ``earned`` personages of ``kind``: it takes what it does not
    hold yet, the box permitting."""
    held = game.state.personages.setdefault(nation, [])
    for _ in range(min(earned - held.count(kind), personages_left(game, kind))):
        def add(ev: Event) -> None:
            game.state.personages[nation].append(kind)
        game.perform(Event("personage", nation, {"personage": kind}), add)


def _earning_rules(game: Game, kind: str) -> list[CompiledRule]:
    effects = game.rules.effects.get(kind)
    if effects is None:
        return []
    return [r for r in effects.reacts.get(OCCASION, ())
            if any(_earning(a) is not None for a in r.actions)]


def earned(game: Game, nation: str, kind: str) -> int:
    """How many personages of ``kind`` the nation's position earns (before what it
    holds), as the kind's card script says."""
    event = Event("personage_count", nation, {})
    out = 0
    for r in _earning_rules(game, kind):
        env = Env(game, nation, kind, {}, event)
        if not r.cond(env):
            continue
        for a in r.actions:
            out = max(out, _earns(env, a))
    return out


def temple_destroyed(game: Game, nation: str) -> None:
    """``nation`` has just destroyed a temple (its count of destroyed temples is up by
    one): if the generals it is now owed are more than the box still holds, no general
    is left for this temple, and its turn's record counts it (``without_general``)."""
    turn = game.state.vars.get(TURN)
    if turn is None or turn.get("nation") != nation:
        return
    owed = earned(game, nation, "general") \
        - game.state.personages.get(nation, []).count("general")
    if owed > personages_left(game, "general"):
        turn["without_general"] = int(turn.get("without_general", 0)) + 1


def every(game: Game, kind: str) -> int:
    """How many of what it counts earn one personage of ``kind`` (the script's number:
    5 cities a king), 0 if its script says none (the bots weigh progress by it)."""
    for r in _earning_rules(game, kind):
        for a in r.actions:
            found = _earning(a)
            if found is not None and found[1] is not None:   # 'per M COUNT': M of it
                return found[1].divisor
            if found is not None and not isinstance(found[0], EarnsEach) \
                    and len(a.args) > 1:
                return int(a.args[1])
    return 0


def due(game: Game, nation: str) -> dict[str, int]:
    """What the nation would take now, kind by kind, the box permitting."""
    held = game.state.personages.get(nation, [])
    out: dict[str, int] = {}
    for kind in game.rules.components.get("personages", {}):
        n = min(earned(game, nation, kind) - held.count(kind), personages_left(game, kind))
        if n > 0:
            out[kind] = n
    return out


class Personages(Step):
    """Frame ``{nation}``: the personage scripts count the nation's position, and it
    takes what it has earned (no decision)."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        game.perform(Event("personage_count", frame["nation"], {}), lambda e: None)
        return DONE


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.personages": Personages()}


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
        EventKind(OCCASION, "personages", "Step 3 of a nation's turn, after its "
                  "conquests and founding: its personages are counted (the personage "
                  "scripts react to it).", True, player="the nation whose turn it is",
                  word="turn.personages", reported=True, told=False),
        EventKind("personage", "personages", "A nation has taken a personage.", True,
                  (("personage", "its kind: king, general, citizen, scholar, pliny, "
                    "navigator"),), player="the nation that took it", word="personage"),
    ]
