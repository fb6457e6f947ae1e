"""The value made at every decision (``Decision``) is a plain class with its own
``__init__``, so that the compiled core (docs/speed.md) builds it natively, running no
Python: under mypyc a dataclass keeps its generated Python ``__init__`` (a frozen one,
an ``object.__setattr__`` per field)."""

from __future__ import annotations

import dataclasses
import sys
from functools import partial
from types import FrameType
from typing import Any

import pytest

from mnrules import new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset
from mnrules.core import effects, engine


def test_a_decision_is_a_value() -> None:
    dec = engine.Decision("rome", "build.action", "buy", (("end",),))
    assert (dec.player, dec.kind, dec.prompt, dec.options, dec.hidden, dec.labels) == \
        ("rome", "build.action", "buy", (("end",),), False, ())
    assert dec == engine.Decision("rome", "build.action", "buy", (("end",),))
    assert dec != engine.Decision("rome", "build.action", "buy", (("end",),), True)
    assert dec != ("rome", "build.action", "buy", (("end",),), False, ())
    assert repr(dec) == ("Decision(player='rome', kind='build.action', prompt='buy', "
                         "options=(('end',),), hidden=False, labels=())")
    assert not dataclasses.is_dataclass(dec)   # (a dataclass is not built natively)


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
    from mare_nostrum.conquest import conquerable
    from mnrules.bots import make_bot

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


def _normal_before(value: Any, depth: int = 0) -> Any:
    """``as_choice`` as it was before its flat-tuple shortcut (a new tuple each time)."""
    kind = type(value)
    if kind is str or kind is int:
        return value
    if kind is list or kind is tuple:
        if depth >= engine.CHOICE_DEPTH:
            raise ValueError("deep")
        return tuple(_normal_before(v, depth + 1) for v in value)
    raise ValueError("malformed")


def test_a_flat_tuple_choice_is_taken_as_it_is() -> None:
    """A tuple of strs and ints is a normal choice already: ``as_choice`` returns it
    itself (so ``apply`` finds a bot's option among the options by identity); anything
    else is normalised or refused as before, at any depth."""
    import random

    from mnrules.errors import InvalidChoice

    flat = ("building", "roma", 2)
    assert engine.as_choice(flat) is flat
    leaves: list[Any] = ["a", "b", 0, 7, -1, True, 1.5, None, b"x", {"a": 1}]
    rng = random.Random(5)

    def make(depth: int) -> Any:
        roll = rng.random()
        if depth > 10 or roll < 0.45:
            return rng.choice(leaves)
        items = [make(depth + 1) for _ in range(rng.randrange(4))]
        return tuple(items) if roll < 0.8 else items

    checked = refused = 0
    for _ in range(20_000):
        value = make(0)
        try:
            want = _normal_before(value)
        except ValueError:
            with pytest.raises(InvalidChoice):
                engine.as_choice(value)
            refused += 1
            continue
        got = engine.as_choice(value)
        assert got == want and type(got) is type(want)
        checked += 1
    assert checked > 5_000 and refused > 5_000
    deep: Any = ("a", 1)
    for _ in range(engine.CHOICE_DEPTH):
        deep = (deep,)
    with pytest.raises(InvalidChoice):
        engine.as_choice(deep)
    assert engine.as_choice(deep[0]) == deep[0]


def test_effects_and_events_are_values() -> None:
    """``Event``, ``Modifier``, ``Replacement`` and ``Trigger`` are plain classes (built
    natively by the compiled core) that behave as the frozen dataclasses they were: equal
    by value and by class, hashed by value (an event's data is a dict: unhashable), the
    same defaults and repr."""
    ev = effects.Event("built", "rome", {"action": ["legion", "x"]})
    assert (ev.kind, ev.player, ev.data) == ("built", "rome", {"action": ["legion", "x"]})
    assert ev == effects.Event("built", "rome", {"action": ["legion", "x"]})
    assert ev != effects.Event("built", "rome", {})
    assert ev != effects.Event("built", None, {"action": ["legion", "x"]})
    assert ev != ("built", "rome", {"action": ["legion", "x"]})
    bare = effects.Event("phase_start")
    assert (bare.player, bare.data) == (None, {})
    assert bare.data is not effects.Event("phase_start").data   # a dict each
    assert repr(ev) == "Event(kind='built', player='rome', data={'action': ['legion', 'x']})"
    with pytest.raises(TypeError):
        hash(ev)
    assert not dataclasses.is_dataclass(ev)

    def fn(v: Any) -> Any:
        return v

    for cls in (effects.Modifier, effects.Replacement, effects.Trigger):
        one = cls("card:x", fn)
        assert (one.source, one.fn, one.layer, one.rank) == \
            ("card:x", fn, effects.ADD, effects.RULES_RANK)
        assert one.key() == (effects.ADD, effects.RULES_RANK, "card:x")
        same = cls("card:x", fn, effects.ADD, effects.RULES_RANK)
        assert one == same and hash(one) == hash(same) and len({one, same}) == 1
        assert one != cls("card:x", fn, effects.SET) and one != cls("card:y", fn)
        assert one != cls("card:x", fn, rank=3)
        others = {effects.Modifier, effects.Replacement, effects.Trigger} - {cls}
        assert all(one != other("card:x", fn) for other in others)   # (by class too)
        assert repr(one) == (f"{cls.__name__}(source='card:x', fn={fn!r}, layer=200, "
                             f"rank=0)")
        assert not dataclasses.is_dataclass(one)
    mods = [effects.Modifier("b", fn, effects.MULTIPLY), [effects.Modifier("a", fn, rank=2),
            effects.Modifier("c", fn, effects.SET)], effects.Modifier("a", fn)]
    assert [m.key() for m in effects.ordered(mods)] == \
        [(100, 0, "c"), (200, 0, "a"), (200, 2, "a"), (300, 0, "b")]


def test_events_performed_by_the_rules_are_built_natively_when_compiled(
        rules: Ruleset) -> None:
    compiled = str(effects.__file__).endswith((".so", ".pyd"))
    game = new_game(rules, 5, seed=3, round_cap=6)
    bots = {p: make_bot("random", 30 + i, rules) for i, p in enumerate(game.state.players)}
    made: list[str] = []
    while (dec := game.pending) is not None:
        choice = bots[dec.player].choose(game)
        made += python_inits(partial(game.apply, choice))
    # pure Python runs their __init__; the compiled rules build them natively
    assert ("Event" in made) != compiled, sorted(set(made))


def test_a_card_context_is_the_value_its_dataclass_was(rules: Ruleset) -> None:
    """``Env`` is a plain class (built natively when compiled): the same fields,
    defaults, equality and repr as the dataclass it replaced."""
    from mnrules.language.compiler import Env

    @dataclasses.dataclass
    class Before:
        game: Any
        holder: str
        card: str
        ctx: dict[str, Any]
        event: Any = None
        actor: str = ""

        def __post_init__(self) -> None:
            if not self.actor:
                self.actor = self.holder

    game = new_game(rules, 3, seed=2)
    event = effects.Event("bought", "rome", {"item": "legion"})
    for args, kw in [((game, "rome", "x", {}), {}),
                     ((game, "rome", "x", {"a": 1}, event), {}),
                     ((game, "rome", "x", {}), {"actor": "carthage"}),
                     ((game, "rome", "x", {}, None, ""), {}),
                     ((game, "rome", "x", {}), {"event": event, "actor": "greece"})]:
        env, old = Env(*args, **kw), Before(*args, **kw)
        assert [getattr(env, f.name) for f in dataclasses.fields(Before)] == \
            [getattr(old, f.name) for f in dataclasses.fields(Before)]
        assert repr(env).removeprefix("Env") == repr(old).split(".Before", 1)[-1] \
            .removeprefix("Before")
        assert env == Env(*args, **kw) and env != old
        assert env.acting("egypt").actor == "egypt"
        assert env.acting("egypt").acting("").actor == "rome"
    assert Env(game, "rome", "x", {}) != Env(game, "rome", "y", {})
    with pytest.raises(TypeError):
        hash(Env(game, "rome", "x", {}))


def test_the_cards_contexts_are_built_natively_when_compiled(rules: Ruleset) -> None:
    compiled = str(engine.__file__).endswith((".so", ".pyd"))
    game = new_game(rules, 5, seed=4)
    bots = {p: make_bot("random", 40 + i, rules) for i, p in enumerate(game.state.players)}

    def play() -> None:
        for _ in range(600):
            dec = game.pending
            if dec is None:
                break
            game.apply(bots[dec.player].choose(game))

    made = python_inits(play)
    # pure Python runs Env's __init__ whenever a held card's rule is looked at
    assert ("Env" in made) != compiled, sorted(set(made))


def test_a_card_offer_is_the_value_its_frozen_dataclass_was() -> None:
    """``Offer`` is a plain class (built natively when compiled): the same fields,
    defaults, equality, hash and repr as the frozen dataclass it replaced."""
    from mnrules.language.compiler import Offer

    @dataclasses.dataclass(frozen=True)
    class Before:
        source: str
        holder: str
        item: str
        where: str
        payments: tuple[tuple[str, ...], ...]
        count: int = 1
        limit: str | None = None
        period: str | None = None

    cases: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        (("card:x#0", "rome", "legion", "any", ((),)), {}),
        (("card:x#0", "rome", "legion", "any", (("coin", "coin"),), 2), {}),
        (("card:y#1", "egypt", "temple", "capital", ((), ("grain",))),
         {"limit": "y#1/egypt", "period": "round"}),
        (("card:y#1", "egypt", "temple", "capital", ()), {"count": 3, "period": "turn"})]
    for args, kw in cases:
        offer, old = Offer(*args, **kw), Before(*args, **kw)
        assert [getattr(offer, f.name) for f in dataclasses.fields(Before)] == \
            [getattr(old, f.name) for f in dataclasses.fields(Before)]
        assert repr(offer).removeprefix("Offer") == repr(old).split(".Before", 1)[-1] \
            .removeprefix("Before")
        assert offer == Offer(*args, **kw) and offer != old
        assert hash(offer) == hash(Offer(*args, **kw))
        assert not dataclasses.is_dataclass(offer)
    assert len({Offer(*a, **k) for a, k in cases + cases}) == len(cases)
    assert Offer("a", "b", "c", "d", ()) != Offer("a", "b", "c", "d", (), 2)


def test_a_battle_side_is_the_value_its_frozen_dataclass_was() -> None:
    """``Side`` (what one side brings to a roll) is a plain class: the same fields,
    defaults, equality, hash and repr as the frozen dataclass it replaced."""
    from mare_nostrum.battle import Side

    @dataclasses.dataclass(frozen=True)
    class Before:
        player: str
        dice: int
        bonus: int = 0
        extra_hits: int = 0
        shield: int = 0

    cases: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        (("egypt", 1), {}), (("rome", 3, 5), {}), (("", 2, 0, 1, 1), {}),
        (("greece", 4), {"shield": 1}), (("carthage", 0), {"extra_hits": 2, "bonus": 1})]
    for args, kw in cases:
        side, old = Side(*args, **kw), Before(*args, **kw)
        assert [getattr(side, f.name) for f in dataclasses.fields(Before)] == \
            [getattr(old, f.name) for f in dataclasses.fields(Before)]
        assert repr(side).removeprefix("Side") == repr(old).split(".Before", 1)[-1] \
            .removeprefix("Before")
        assert side == Side(*args, **kw) and side != old
        assert hash(side) == hash(Side(*args, **kw))
    assert len({Side(*a, **k) for a, k in cases + cases}) == len(cases)
    assert Side("a", 1) != Side("a", 1, shield=1)


def test_payment_set_rules_are_the_value_their_frozen_dataclass_was() -> None:
    """``SetRules`` (what a payment set may hold) is a plain class: the same fields,
    defaults, equality, hash and repr as the frozen dataclass it replaced, and a
    loosening refuses a name that is no field as ``dataclasses.replace`` would."""
    from mare_nostrum.payment import SetRules

    @dataclasses.dataclass(frozen=True)
    class Before:
        coins_in_goods_set: int = 0
        goods_in_coin_set: int = 0
        repeated_types: int = 0

    cases: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((), {}), ((1,), {}), ((0, 1), {}), ((1, 2, 3), {}), ((), {"repeated_types": 1}),
        ((2,), {"goods_in_coin_set": 1})]
    for args, kw in cases:
        rules, old = SetRules(*args, **kw), Before(*args, **kw)
        assert [getattr(rules, f.name) for f in dataclasses.fields(Before)] == \
            [getattr(old, f.name) for f in dataclasses.fields(Before)]
        assert repr(rules).removeprefix("SetRules") == repr(old).split(".Before", 1)[-1] \
            .removeprefix("Before")
        assert rules == SetRules(*args, **kw) and rules != old
        assert hash(rules) == hash(SetRules(*args, **kw))
        assert rules.loosen(repeated_types=1, coins_in_goods_set=2) == SetRules(
            old.coins_in_goods_set + 2, old.goods_in_coin_set, old.repeated_types + 1)
    with pytest.raises(TypeError, match="no field 'coins'"):
        SetRules().loosen(coins=1)
    assert len({SetRules(*a, **k) for a, k in cases + cases}) == len(cases)
