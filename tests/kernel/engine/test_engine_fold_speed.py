"""The bus keeps the lists of modifiers by quantity that ``Game.fold`` reads, made again
after a plugin comes or goes, each bus its own: every fold answers as the bus's own
route (and pluggy's call) would at that moment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mnrules.core.effects import Event, Modifier, Replacement, Trigger
from mnrules.core.engine import Game
from mnrules.hooks.hookspecs import hookimpl
from test_engine_loop import fresh
from test_flow import watch_rules


class Plus:
    MODIFIES = frozenset({"watch.oil"})

    def __init__(self, n: int) -> None:
        self.n = n

    @hookimpl
    def mn_modifiers(self, game: Game[Any], quantity: str, ctx: dict[str, Any]) -> Any:
        return Modifier(f"test:plus{self.n}", lambda v: v + self.n)


def pluggy_fold(game: Game[Any], quantity: str, value: int, **ctx: Any) -> int:
    for found in game.rules.pm.hook.mn_modifiers(game=game, quantity=quantity, ctx=ctx):
        for mod in found if isinstance(found, list) else [found]:
            value = mod.fn(value)
    return int(value)


def test_a_fold_follows_the_plugins_registered(tmp_path: Path) -> None:
    rules = watch_rules(tmp_path)
    game = fresh(rules)
    assert game.fold("watch.oil", 1, keeper="north") == 1
    names = []
    for n in (1, 10, 100):
        names.append(rules.pm.register(Plus(n), name=f"test:plus{n}"))
        assert game.fold("watch.oil", 1, keeper="north") == pluggy_fold(
            game, "watch.oil", 1, keeper="north") == 1 + sum((1, 10, 100)[:len(names)])
        assert game.fold("watch.wick", 1, keeper="north") == 1
    rules.pm.unregister(name=names[1])
    assert game.fold("watch.oil", 1, keeper="north") == 102
    assert game.modified("watch.oil") and not game.modified("watch.wick")


def test_a_fold_follows_its_game_to_another_bus(tmp_path: Path) -> None:
    """Two rule sets' buses at the same version: a game given the other rule set folds
    with the other's plugins, not the lists read from the first."""
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one, two = watch_rules(tmp_path / "one"), watch_rules(tmp_path / "two")
    one.pm.register(Plus(1), name="test:plus")
    two.pm.register(Plus(7), name="test:plus")
    assert one.pm.version == two.pm.version
    game = fresh(one)
    assert game.fold("watch.oil", 1, keeper="north") == 2
    game.rules = two
    assert game.fold("watch.oil", 1, keeper="north") == 8


class Double:
    """Replaces a lamp's lighting by one of twice the oil; and, triggered by it, counts."""

    REPLACES = frozenset({"lit"})
    TRIGGERED_BY = frozenset({"lit"})

    def __init__(self) -> None:
        self.seen: list[int] = []

    @hookimpl
    def mn_replacements(self, game: Game[Any], event: Event) -> Any:
        return Replacement("test:double", lambda e: Event(e.kind, e.player,
                                                          {"oil": e.data["oil"] * 2}))

    @hookimpl
    def mn_triggers(self, game: Game[Any], event: Event) -> Any:
        return Trigger("test:count", lambda e: self.seen.append(e.data["oil"]))


class Quiet:
    """A plugin that answers nothing."""


def lit(game: Game[Any]) -> Event | None:
    return game.perform(Event("lit", "north", {"oil": 1}), lambda e: None)


def test_an_event_follows_the_plugins_registered_and_its_bus(tmp_path: Path) -> None:
    """An event's replacements and triggers are those registered when it happens (after
    one comes or goes, and on another bus at the same version)."""
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one, two = watch_rules(tmp_path / "one"), watch_rules(tmp_path / "two")
    game = fresh(one)
    assert lit(game) == Event("lit", "north", {"oil": 1})
    first = Double()
    one.pm.register(first, name="test:double")
    assert lit(game) == Event("lit", "north", {"oil": 2}) and first.seen == [2]
    second = Double()
    one.pm.register(second, name="test:double2")
    assert lit(game) == Event("lit", "north", {"oil": 4}) and second.seen == [4]
    one.pm.unregister(name="test:double")
    assert lit(game) == Event("lit", "north", {"oil": 2}) and first.seen == [2, 4]
    other = Double()
    two.pm.register(Double(), name="test:double")
    two.pm.register(other, name="test:double2")
    two.pm.register(Quiet(), name="test:quiet")
    assert one.pm.version == two.pm.version
    game.rules = two
    assert lit(game) == Event("lit", "north", {"oil": 4}) and other.seen == [4]
    two.pm.flat = False   # through pluggy's own call
    assert lit(game) == Event("lit", "north", {"oil": 4}) and other.seen == [4, 4]
