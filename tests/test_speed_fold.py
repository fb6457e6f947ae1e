"""A game keeps the bus's lists of modifiers by quantity (``Game.fold``), read again
after a plugin comes or goes and for another bus: every fold answers as the bus's own
route (and pluggy's call) would at that moment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mnrules.effects import Modifier
from mnrules.engine import Game
from mnrules.hookspecs import hookimpl
from test_kernel_loop import fresh
from test_kernel_watch import watch_rules


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
