"""The event bus's promises (mnrules/hooks/bus.py), on the watch (tests/kernel/engine/test_flow.py):
it answers every hook as pluggy would, whatever it keeps to answer faster; a plugin that
declares what it answers is asked only for that; every name is checked against the
rules' contract, also after plugins come and go; a compiled hook reaches pluggy through a
plain-Python function named as its author wrote it."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pluggy
import pytest

from mnrules import Game, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from mnrules.hooks.bus import Bus, ImplMarker, python_wrapper
from mnrules.hooks.contract import ContractError, EventKind, UndeclaredName
from mnrules.hooks.hookspecs import hookimpl
from test_flow import watch_rules


@pytest.fixture
def watch(tmp_path: Path) -> Ruleset:
    return watch_rules(tmp_path)


class Omens:
    """A plugin that tells observers of omens (an event it declares, only emitted)."""

    @hookimpl
    def mn_contract(self) -> list[Any]:
        return [EventKind("omen", "omens", "A keeper sees an omen.", False)]


def test_an_event_is_told_only_while_a_plugin_declares_it(watch: Ruleset) -> None:
    """Once the omens plugin is gone, telling of an omen is refused again, even though
    it was told before."""
    game = new_game(watch, 2, seed=1)
    omens = Omens()
    assert watch.pm.register(omens, name="test:omens") == "test:omens"
    game.emit(Event("omen", "north"))
    assert watch.pm.unregister(name="test:omens") is omens
    with pytest.raises(UndeclaredName, match="'omen'"):
        game.emit(Event("omen", "north"))


class Thief:
    """A broken plugin: it declares the watch's own event a second time."""

    @hookimpl
    def mn_contract(self) -> list[Any]:
        return [EventKind("lit", "thief", "A thief lights the lamp.", True)]


def test_a_plugin_that_breaks_the_contract_is_refused_at_the_next_event(
        watch: Ruleset) -> None:
    """The lamp was lit and told before; a plugin declaring ``lit`` again arrives: the
    next time it is told, the broken contract is refused, naming both owners."""
    game = new_game(watch, 2, seed=1)
    game.emit(Event("lit", "north", {"oil": 1}))
    watch.pm.register(Thief(), name="test:thief")
    with pytest.raises(ContractError, match="'lit'"):
        game.emit(Event("lit", "north", {"oil": 1}))


class Misspelt:
    """A plugin that says it modifies the watch's oil, misspelt."""

    MODIFIES = frozenset({"watch.oyl"})

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        return None


def test_a_plugin_naming_an_undeclared_quantity_is_refused_when_assembled(
        watch: Ruleset) -> None:
    """It would never be called for the oil it means: refused with the nearest name
    when the rules are assembled, before any fold."""
    watch.pm.register(Misspelt(), name="test:misspelt")
    with pytest.raises(ContractError, match=r"plugin 'test:misspelt': MODIFIES names "
                                            r"'watch.oyl', which no plugin declares as a "
                                            r"quantity; did you mean 'watch.oil'\?"):
        watch.pm.check_contract()


class Lamp:
    """A card's plugin, as the effect language compiles one: it names its card, whose
    holding decides whether it answers, and the game's 'holder' words (copies of a
    card's power) that may name another holder."""

    MODIFIES = frozenset({"watch.oil"})

    def __init__(self, card: str, words: tuple[object, ...]) -> None:
        self.card_id = card
        self.others = words

    def card_holder_key(self, hook: str, name: str) -> str:
        return "keeper"

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        return None


def test_the_bus_routes_each_card_with_its_holder_and_every_holder_word(
        watch: Ruleset) -> None:
    """Two cards copied by words the game gives them: the route names each card and the
    context key of its holder, and the bus knows each word once (while one may name a
    holder, the loop asks every card)."""
    copy, steal = object(), object()
    watch.pm.register(Lamp("lamp", (copy,)), name="card:lamp")
    watch.pm.register(Lamp("wick", (copy, steal)), name="card:wick")
    cards, entries = watch.pm.card_route("mn_modifiers", "watch.oil")
    assert cards
    assert {(card, key) for _, card, key in entries if card} == {("lamp", "keeper"),
                                                                  ("wick", "keeper")}
    assert sorted(map(id, watch.pm.holder_words)) == sorted(map(id, (copy, steal)))
    assert watch.pm.folds["watch.oil"] == watch.pm.card_route("mn_modifiers", "watch.oil")


def test_a_bus_not_flat_checks_names_as_the_flat_one(watch: Ruleset) -> None:
    """Through pluggy's own call too, performing an event nobody declares is refused."""
    watch.pm.flat = False
    game = new_game(watch, 2, seed=1)
    with pytest.raises(UndeclaredName, match=r"game\.perform: no plugin declares the event "
                                             r"'lamp_lit'"):
        game.perform(Event("lamp_lit", "north"), lambda e: None)


class Spec:
    @pluggy.HookspecMarker("demo")
    def mn_say(self, word: str) -> str:  # type: ignore[empty-body]
        """A demo hook."""

    @pluggy.HookspecMarker("demo")(firstresult=True)
    def mn_answer(self, word: str) -> str:  # type: ignore[empty-body]
        """A demo hook answered by its first answer."""


class Oracle:
    @pluggy.HookimplMarker("demo")
    def mn_answer(self, word: str) -> str:
        return word[::-1]


def test_a_first_result_hook_is_answered_as_pluggy_answers_it() -> None:
    """A hook answered by its first answer comes back as pluggy gives it: one answer, not
    a list of them."""
    bus = Bus("demo")
    bus.add_hookspecs(Spec)
    bus.register(Oracle())
    assert bus.call("mn_answer", word="sea") == "aes" == bus.hook.mn_answer(word="sea")
    assert bus.first("mn_answer", word="sea") == "aes"


class Echo:
    """The only implementation of its hook, a wrapper: it answers in capitals."""

    @pluggy.HookimplMarker("demo")(wrapper=True)
    def mn_say(self, word: str) -> Any:
        answers = yield
        return [*answers, word.upper()]


class Extra:
    """A plugin answering a hook no specification declares (pluggy accepts it)."""

    @pluggy.HookimplMarker("demo")
    def mn_extra(self, word: str) -> str:
        return word * 2


def test_a_hook_without_specification_is_answered_as_pluggy_does() -> None:
    bus = Bus("demo")
    bus.add_hookspecs(Spec)
    bus.register(Extra())
    assert bus.call("mn_extra", word="ab") == ["abab"] == bus.hook.mn_extra(word="ab")


def test_a_bus_without_the_contract_hook_says_so() -> None:
    """A bus that knows no mn_contract checks no name, and says so when its contract is
    asked for."""
    with pytest.raises(ContractError, match="this bus has no mn_contract hook"):
        Bus("demo").check_contract()


def test_a_hook_only_wrappers_answer_goes_through_pluggy() -> None:
    bus = Bus("demo")
    bus.add_hookspecs(Spec)
    bus.register(Echo())
    assert bus.call("mn_say", word="storm") == ["STORM"] == bus.hook.mn_say(word="storm")


def test_a_wrapper_takes_the_hooks_parameters_and_name_when_given() -> None:
    """A card's method is wrapped with its hook's parameter names and the hook's name;
    a parameter that is not a name is refused."""

    class Card:
        def react(self, game: Any, event: Any) -> str:
            return f"{game}:{event}"

    wrapper = python_wrapper(Card().react, names=("game", "event"), name="mn_triggers")
    assert wrapper.__name__ == "mn_triggers"
    assert wrapper(event="lit", game=1) == "1:lit"
    with pytest.raises(TypeError, match="cannot wrap"):
        python_wrapper(Card().react, names=("game", "the event"), name="mn_triggers")


def test_the_game_is_told_of_a_lamp_however_the_bus_calls_its_plugins(
        watch: Ruleset) -> None:
    """The same game, lamp for lamp, with the bus's lists or through pluggy."""
    lit = []
    for flat in (True, False):
        watch.pm.flat = flat
        game: Game[Any] = new_game(watch, 2, seed=1)
        for choice in ("rise", "sleep", "sleep", "rise"):
            game.apply(choice)
        lit.append(game.state.vars["lit"])
    assert lit[0] == lit[1] == [["north", 1], ["south", 1]]


class Compiled:
    """A hook as mypyc compiles it: a signature, but no code object."""

    __signature__ = inspect.Signature([
        inspect.Parameter("game", inspect.Parameter.POSITIONAL_OR_KEYWORD)])

    def __init__(self) -> None:
        self.__name__ = "mn_setup"

    def __call__(self, game: Any) -> None:
        return None


def test_a_compiled_hook_marked_with_options_is_wrapped_too() -> None:
    """``@hookimpl(tryfirst=True)`` on a compiled function marks a plain-Python function
    pluggy can read, as the bare ``@hookimpl`` does."""
    mark = ImplMarker("demo")
    for marked in (mark(tryfirst=True)(Compiled()), mark(Compiled())):
        assert inspect.isfunction(marked) and list(inspect.signature(marked).parameters) == [
            "game"]
    assert mark(tryfirst=True)(Compiled()).demo_impl["tryfirst"] is True
