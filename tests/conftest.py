"""Shared fixtures: the English rule set (built once) and games driven through the
one decision loop, with every invariant checked after each choice."""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mnrules import Game, load_ruleset, new_game
from mnrules.content import games
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check

# the tests' folder (data shared across subject folders is found from it) and the checkout
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _import_the_installed_games() -> None:
    """pytest puts tests/ on the import path (the tests import their helpers by name),
    where the folder tests/antike2/ would pass for a namespace package ``antike2`` and
    hide the installed game: an editable install's finder is asked only after the path.
    So every installed game is imported first, with the test folders off the path
    (tests/packaging checks that the games imported are the checkout's)."""
    here = TESTS
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if not Path(p or ".").resolve().is_relative_to(here)]
    try:
        for game in games.installed().values():
            # a broken game is reported by the tests that play it
            with contextlib.suppress(Exception):
                importlib.import_module(game.package)
    finally:
        sys.path[:] = saved


_import_the_installed_games()


def _put_the_test_folders_on_the_path() -> None:
    """The tests are filed by subject in folders (README, "Tests") and import their shared
    helpers by module name across them (``from test_movement import empty_board``,
    ``from a2_helpers import at_turn``): pytest puts only the importing file's own folder on
    the path, so every folder under tests/ that holds a test module goes there, whichever
    folder is run. (A module's name is unique under tests/: pytest refuses two alike.)"""
    here = TESTS
    folders = sorted({p.parent for p in here.rglob("test_*.py")} - {here})
    sys.path[1:1] = [str(f) for f in folders if str(f) not in sys.path]


_put_the_test_folders_on_the_path()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once every test module is imported, tests/ itself leaves the path: a process the
    tests start with this one's path (a dask worker, a spawned simulation worker) would
    find the folders tests/mare_nostrum/ and tests/antike2/ as namespace packages before
    the installed games (see ``_import_the_installed_games``). The subject folders stay:
    a test may import a helper late, and none of them holds a folder named as a game."""
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != TESTS]

# The commands and snippets the tests run in a subprocess (``python -m mnrules``, from the
# checkout) import mnrules as these tests do, from the install, not from the folder they
# start in: a regular install's games are in site-packages only, and a checkout's pure
# Python mnrules beside a compiled install's games would be two kernels (and under an
# editable install both are the checkout's anyway).
os.environ.setdefault("PYTHONSAFEPATH", "1")


@pytest.fixture(scope="session")
def rules() -> Ruleset:
    return load_ruleset("en")


@pytest.fixture
def fresh_rules() -> Iterator[Callable[..., Ruleset]]:
    """A rule set of its own, for tests that register extra plugins or set parameters."""
    yield lambda pack="en", **params: load_ruleset(pack, {"params": params} if params else None)


@pytest.fixture
def game5(rules: Ruleset) -> Game:
    return new_game(rules, 5, seed=1)


def moon_plugin(folder: Path) -> Path:
    """A modder's plugin file beside his cards: it adds one condition word, 'the moon is
    full' (always true), so a card using it checks only where the plugin is loaded."""
    path = folder / "plugin.py"
    path.write_text(
        "from mnrules.hooks.hookspecs import hookimpl\n"
        "from mnrules.language.words import Word\n\n\n"
        "@hookimpl\n"
        "def mn_vocabulary():\n"
        "    return [Word('condition', 'the moon is full', lambda env: True,\n"
        "                 'the moon is full')]\n", encoding="utf-8")
    return path


def play(game: Game, *choices: Any) -> None:
    """Apply choices in order, checking the invariants after each."""
    for c in choices:
        game.apply(c)
        problems = check(game)
        assert not problems, problems


def pending(game: Game) -> tuple[str, str]:
    dec = game.pending
    assert dec is not None
    return dec.player, dec.kind


def advance_to(game: Game, kind: str, choose: Callable[[Game], Any] | None = None,
               limit: int = 10_000) -> None:
    """Play (first legal option, or ``choose``) until a decision of ``kind`` is pending."""
    for _ in range(limit):
        dec = game.pending
        assert dec is not None, "the game ended first"
        if dec.kind == kind:
            return
        game.apply(choose(game) if choose else dec.options[0])
    raise AssertionError(f"no {kind} decision within {limit} choices")


# -- scenario files are tests too ----------------------------------------------------------
def pytest_collect_file(parent: pytest.Collector, file_path: Any) -> pytest.Collector | None:
    """Every YAML file under a scenarios/ folder (tests/mare_nostrum/scenarios/, a game's
    area's, a modder's) runs as one test per edition it names."""
    if file_path.suffix == ".yaml" and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        from mnrules.tools.scenario import editions, load

        _, data = load(self.path)
        for edition in editions(data):
            yield ScenarioItem.from_parent(self, name=edition, edition=edition)


class ScenarioItem(pytest.Item):
    def __init__(self, *, edition: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.edition = edition

    def runtest(self) -> None:
        from mnrules.tools.scenario import run

        for out in run(self.path, only=self.edition):
            if not out.ok:
                raise ScenarioFailed(out.failures)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return "\n".join(excinfo.value.failures)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, 0, f"scenario [{self.edition}]"


class ScenarioFailed(Exception):
    def __init__(self, failures: list[str]) -> None:
        super().__init__("; ".join(failures))
        self.failures = failures
