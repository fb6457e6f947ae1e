"""The value made at every decision (``Decision``) is a plain dataclass, so that the
compiled core (docs/speed.md) makes it a native class, built without running Python:
a frozen or slotted dataclass stays a Python class under mypyc, whose ``__init__``
(through ``object.__setattr__`` per field) was a tenth of compiled random play."""

from __future__ import annotations

import dataclasses
import sys
from types import FrameType
from typing import Any

from mnrules import engine, new_game
from mnrules.ruleset import Ruleset


def test_a_decision_is_a_plain_dataclass() -> None:
    params = engine.Decision.__dataclass_params__  # type: ignore[attr-defined]
    assert not params.frozen and "__slots__" not in vars(engine.Decision)
    dec = engine.Decision("rome", "build.action", "buy", (("end",),))
    assert dataclasses.fields(dec)[3].name == "options"
    assert dec == engine.Decision("rome", "build.action", "buy", (("end",),))


def python_inits(make: Any) -> list[str]:
    """The classes whose Python ``__init__`` runs while ``make()`` runs."""
    ran: list[str] = []

    def watch(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_name == "__init__":
            ran.append(type(frame.f_locals.get("self")).__name__)

    sys.setprofile(watch)
    try:
        make()
    finally:
        sys.setprofile(None)
    return ran


def test_a_decision_made_by_the_rules_is_built_natively_when_compiled(
        rules: Ruleset) -> None:
    compiled = str(engine.__file__).endswith((".so", ".pyd"))
    game = new_game(rules, 5, seed=1)
    game.apply(game.legal()[0])
    made = python_inits(lambda: game.apply(game.legal()[0]))   # a step asks again
    assert game.pending is not None
    # pure Python runs the dataclass's __init__; the compiled core's steps build it
    # natively (a call from Python code would still run the Python __init__)
    assert ("Decision" in made) != compiled, made


def test_a_typed_choice_is_its_named_tuple(rules: Ruleset) -> None:
    found = 0
    for kind, types in rules.choice_types.items():
        for first, cls in types.items():
            fields = cls._fields
            choice = tuple(first if i == 0 and first is not None else f"x{i}"
                           for i in range(len(fields)))
            made = engine.typed(types, choice)
            assert type(made) is cls and made == cls._make(choice) == choice, kind
            assert engine.typed(types, (*choice, "more")) == (*choice, "more")
            found += 1
    assert found >= 5


def test_the_conquerable_provinces_are_where_a_player_stands_alone(rules: Ruleset) -> None:
    from mnrules.bots import make_bot
    from mnrules.plugins.mare_nostrum.conquest import conquerable

    game = new_game(rules, 5, seed=9, round_cap=14)
    bots = {p: make_bot("random", 90 + i, rules) for i, p in enumerate(game.state.players)}
    found = 0
    while (dec := game.pending) is not None:
        state = game.state
        for p in state.players:
            want = [prov for prov, who in state.control.items()
                    if who is not None and who != p and state.unit_owners(prov) == [p]]
            assert conquerable(game, p) == want
            found += len(want)
        game.apply(bots[dec.player].choose(game))
    assert found > 20
