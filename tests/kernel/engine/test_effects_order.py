"""The kernel's promise for replacements and triggers, as for modifiers: cards acting on
one event apply in their declared order (layer, then rank), never in the order their
plugins happened to be registered (issue 19: the survivors of ``mnrules/core/effects.py``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from mare_nostrum import position as pos
from mare_nostrum.battle import side_for
from mnrules import Game, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import ADD, MULTIPLY, Event, Modifier, Replacement, Trigger
from mnrules.hooks.bus import python_wrapper
from mnrules.hooks.hookspecs import hookimpl
from test_movement import empty_board


def with_count(event: Event, count: int) -> Event:
    return Event(event.kind, event.player, {**event.data, "count": count})


class Reinforcements:
    """A card: "when you build legions, build one more" (an addition)."""

    REPLACES = frozenset({"built"})

    @hookimpl
    def mn_replacements(self, game: Game, event: Event) -> Any:
        return Replacement("test:one more", lambda e: with_count(e, e.data["count"] + 1),
                           layer=ADD, rank=1)


class Levy:
    """A card: "when you build legions, build twice as many" (a multiplication), returned
    as a list of one."""

    REPLACES = frozenset({"built"})

    @hookimpl
    def mn_replacements(self, game: Game, event: Event) -> Any:
        return [Replacement("test:twice", lambda e: with_count(e, e.data["count"] * 2),
                            layer=MULTIPLY, rank=1)]


def legions_built(rules: Ruleset) -> int:
    game = new_game(rules, 3, seed=1)
    done: list[int] = []
    event = Event("built", "rome", {"action": ["legion", "LATIUM"], "paid": [], "count": 1})
    game.perform(event, lambda e: done.append(e.data["count"]))
    return done[0]


def test_replacement_cards_compose_the_same_whichever_came_first(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """One legion, "one more" then "twice as many": (1 + 1) * 2 = 4, in both registration
    orders; and each card alone does what it says."""
    results = []
    for first, second in ((Levy(), Reinforcements()), (Reinforcements(), Levy())):
        rules = fresh_rules()
        rules.pm.register(first, name="test:first")
        rules.pm.register(second, name="test:second")
        results.append(legions_built(rules))
    assert results == [4, 4]
    alone = fresh_rules()
    alone.pm.register(Levy(), name="test:levy")
    assert legions_built(alone) == 2


class Cancel:
    """A card: "your opponents' legions are never built" (it cancels the event)."""

    REPLACES = frozenset({"built"})

    @hookimpl
    def mn_replacements(self, game: Game, event: Event) -> Any:
        return Replacement("test:cancel", lambda e: None, layer=ADD, rank=0)


def test_a_cancelled_event_does_not_happen_and_fires_nothing(
        fresh_rules: Callable[..., Ruleset]) -> None:
    rules = fresh_rules()
    rules.pm.register(Cancel(), name="test:cancel")
    rules.pm.register(Levy(), name="test:levy")
    game = new_game(rules, 3, seed=1)
    done: list[Event] = []
    event = Event("built", "rome", {"action": ["legion", "LATIUM"], "paid": [], "count": 1})
    assert game.perform(event, done.append) is None
    assert done == []


def heralds(order: list[str]) -> tuple[object, object]:
    class Crier:
        TRIGGERED_BY = frozenset({"built"})

        @hookimpl
        def mn_triggers(self, game: Game, event: Event) -> Any:
            return Trigger("test:crier", lambda e: order.append("crier"), layer=ADD, rank=2)

    class Scribe:
        TRIGGERED_BY = frozenset({"built"})

        @hookimpl
        def mn_triggers(self, game: Game, event: Event) -> Any:
            return [Trigger("test:scribe", lambda e: order.append("scribe"), layer=ADD,
                            rank=1)]

    return Crier(), Scribe()


def test_trigger_cards_react_in_the_order_they_were_acquired(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """The card acquired first (rank 1) reacts first, whichever plugin was registered
    first; triggers see the event as it happened."""
    for flip in (False, True):
        order: list[str] = []
        crier, scribe = heralds(order)
        rules = fresh_rules()
        for i, plugin in enumerate((scribe, crier) if flip else (crier, scribe)):
            rules.pm.register(plugin, name=f"test:{i}")
        rules.pm.register(Levy(), name="test:levy")
        game = new_game(rules, 3, seed=1)
        event = Event("built", "rome", {"action": ["legion", "LATIUM"], "paid": [],
                                        "count": 1})
        happened = game.perform(event, lambda e: None)
        assert happened is not None and happened.data["count"] == 2
        assert order[-2:] == ["scribe", "crier"]


def test_a_card_gained_or_lost_mid_game_changes_the_next_fold(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """A legion count folded before a card arrives, again once it is held (the card
    applies from then on), and again after it is gone (it no longer does): what the bus
    found for a name before is never reused once the plugins change.

    Kills: deleting the route cache's ``clear()`` in ``bus.route`` and the version bumps
    in ``register``/``unregister``."""
    rules = fresh_rules()
    assert legions_built(rules) == 1
    rules.pm.register(Levy(), name="test:levy")
    assert legions_built(rules) == 2
    rules.pm.register(Reinforcements(), name="test:more")
    assert legions_built(rules) == 4
    rules.pm.unregister(name="test:levy")
    assert legions_built(rules) == 2


class Herald:
    """A plugin adding one figure to every player's report."""

    @hookimpl
    def mn_report(self, game: Game, player: str) -> dict[str, Any]:
        return {"test:heralds": 1}


def test_the_bus_answers_a_hook_as_pluggy_does(fresh_rules: Callable[..., Ruleset]) -> None:
    """``Bus.call`` (the flat path) gives every answer pluggy's own call gives, in its
    order, before and after a plugin arrives.

    Kills: negating ``if impls == ()`` in ``Bus.call`` (a hook's implementations never
    listed, so nobody answers)."""
    rules = fresh_rules()
    game = new_game(rules, 3, seed=1)
    pluggy_says = rules.hook.mn_report(game=game, player="rome")
    assert pluggy_says
    assert rules.pm.call("mn_report", game=game, player="rome") == pluggy_says
    rules.pm.register(Herald(), name="test:herald")
    now = rules.pm.call("mn_report", game=game, player="rome")
    assert now == rules.hook.mn_report(game=game, player="rome")
    assert {"test:heralds": 1} in now


class Censor:
    """A wrapper around every report: it drops the heralds' figure."""

    @hookimpl(wrapper=True)
    def mn_report(self, game: Game, player: str) -> Any:
        answers = yield
        return [a for a in answers if "test:heralds" not in a]


def test_a_wrapped_hook_is_answered_through_its_wrapper(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """A hook with a wrapper goes through pluggy, so the wrapper has its say.

    Kills: negating ``if impls is None or not self.flat`` in ``Bus.call``."""
    rules = fresh_rules()
    rules.pm.register(Herald(), name="test:herald")
    rules.pm.register(Censor(), name="test:censor")
    game = new_game(rules, 3, seed=1)
    answers = rules.pm.call("mn_report", game=game, player="rome")
    assert answers and {"test:heralds": 1} not in answers


class CompiledHook:
    """A hook as mypyc compiles it: a signature and a name, but no code object."""

    __signature__ = inspect.Signature([
        inspect.Parameter("game", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("player", inspect.Parameter.POSITIONAL_OR_KEYWORD)])

    def __init__(self) -> None:  # a class body's __qualname__ would name the class
        self.__name__ = "mn_report"
        self.__qualname__ = "Tracks.mn_report"
        self.__module__ = "plugins.compiled"
        self.__doc__ = "Each player's track positions."

    def __call__(self, game: Any, player: Any) -> dict[str, Any]:
        return {"player": player}


def test_a_compiled_hook_is_named_as_its_author_wrote_it() -> None:
    """The plain-Python function through which pluggy calls a compiled hook carries the
    hook's name, qualified name, module and documentation: pluggy's listings and error
    messages name ``Tracks.mn_report`` of ``plugins.compiled``, not a generated stub."""
    wrapper = python_wrapper(CompiledHook())
    assert (wrapper.__name__, wrapper.__qualname__, wrapper.__module__, wrapper.__doc__) == (
        "mn_report", "Tracks.mn_report", "plugins.compiled", "Each player's track positions.")
    assert wrapper(game=None, player="rome") == {"player": "rome"}


class Doubling:
    """A card: "double your dice total" (a multiplication)."""

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        if quantity == "battle.total" and ctx["side"] == "carthage":
            return [Modifier("test:double", lambda v: v * 2, layer=MULTIPLY, rank=1)]
        return None


class PlusThree:
    """A card: "+3 to your dice total" (an addition), returned as one bare effect."""

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        if quantity == "battle.total" and ctx["side"] == "carthage":
            return Modifier("test:plus three", lambda v: v + 3, rank=2)
        return None


PLAIN = {"area": "CYRENAICA", "kind": "land", "attacker": "carthage", "defender": "egypt"}


def carthage_bonus(rules: Ruleset) -> int:
    game = empty_board(rules)
    pos.add_units(game, "carthage", "CYRENAICA", "legion", 2)
    pos.add_units(game, "egypt", "CYRENAICA", "legion", 1)
    return side_for(game, PLAIN, "carthage").bonus


def test_cards_compose_the_same_whichever_was_acquired_first(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """Kills: deleting ``out.sort(...)`` in ``effects.ordered`` (pluggy's call order would
    decide) and deleting ``out.append(r)`` (a hook's single, bare effect dropped).

    "+3" and "double" compose as additions before multiplications: (0 + 3) * 2 = 6,
    whichever card's plugin was registered first; and one card alone still applies."""
    results = []
    for first, second in ((Doubling(), PlusThree()), (PlusThree(), Doubling())):
        rules = fresh_rules()
        rules.pm.register(first, name="test:first")
        rules.pm.register(second, name="test:second")
        results.append(carthage_bonus(rules))
    assert results == [6, 6]
    alone = fresh_rules()
    alone.pm.register(PlusThree(), name="test:alone")
    assert carthage_bonus(alone) == 3  # a single card's modifier applies
