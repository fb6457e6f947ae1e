"""The installed games: every distribution's entries in the entry-point group
``mnrules.games``, each a game id (what a pack's ``game:`` names) and the import name
of the game's package.

    [project.entry-points."mnrules.games"]
    pig = "mnrules_pig"

This is the one way the kernel finds a game, bundled or not: this project's own setup.py
declares ``mare_nostrum`` and ``antike2`` (one entry per folder of ``plugins/``) exactly
as an outside distribution declares its game. A game's package may hold two data
sub-packages the kernel reads: ``<package>.editions`` (one folder per edition pack, each
with its ``pack.yaml``) and ``<package>.cards`` (the game's bundled cards). Nothing is
found by looking at folders beside the kernel, so a regular install, an editable one and
a game from its own distribution are read the same way.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import ModuleType

from ..errors import PackError
from .yamlsource import did_you_mean

GROUP = "mnrules.games"
DEFAULT_GROUP = "mnrules.default_game"
"""The entry-point group a distribution declares its games in."""


@dataclass(frozen=True)
class GameEntry:
    """One declared game: its id, its package's import name, who declared it."""

    name: str
    package: str
    distribution: str

    def describe(self) -> str:
        return (f"game {self.name!r} (entry point '{GROUP}: {self.name} = {self.package}' "
                f"of the distribution {self.distribution})")


@functools.cache
def _declared() -> tuple[dict[str, GameEntry], tuple[str, ...]]:
    found: dict[str, GameEntry] = {}
    twice: list[str] = []
    for ep in metadata.entry_points(group=GROUP):
        dist = ep.dist.name if ep.dist is not None else "?"
        game = GameEntry(ep.name, ep.value.split(":")[0].strip(), dist)
        if ep.name not in found:
            found[ep.name] = game
        elif found[ep.name] != game:
            twice.append(f"{game.describe()} is ignored: {found[ep.name].describe()} "
                         f"comes first on the import path")
    return dict(sorted(found.items())), tuple(twice)


def installed() -> dict[str, GameEntry]:
    """Every declared game by id. A game two distributions declare is kept once (the
    first found on the import path, as Python would import it; :func:`problems` tells
    of the other)."""
    return _declared()[0]


def preferred() -> list[str]:
    """The installed games a distribution declares the default (entry-point group
    ``mnrules.default_game``): the game a command plays when it names no pack and
    several games are installed."""
    found = installed()
    return sorted({ep.name for ep in metadata.entry_points(group=DEFAULT_GROUP)
                   if ep.name in found})


def problems() -> list[str]:
    """What is wrong with the installed games, one sentence each: a game declared twice,
    a game whose package cannot be imported (``mnrules editions list`` prints these)."""
    found = list(_declared()[1])
    for name in installed():
        try:
            package(name, f"entry point {GROUP}: {name}")
        except PackError as exc:
            found.append(str(exc))
    return found


def entry(name: str, where: str) -> GameEntry:
    """The declared game ``name``, or a PackError at ``where`` naming the known ones."""
    games = installed()
    if not games:   # as after an upgrade from 0.1 without a re-install
        raise PackError(f"{where}: game: no game named {name!r}: no game is installed (no "
                        f"distribution declares one in the entry-point group {GROUP}); "
                        f"install mnrules again (in a checkout: pip install -e '.[dev]')")
    if name not in games:
        known = ", ".join(games)
        raise PackError(f"{where}: game: no game named {name!r}"
                        + did_you_mean(name, games, f"; installed games: {known}")
                        + f" (a game is installed as a distribution declaring it in the "
                          f"entry-point group {GROUP}, or given as a .py file beside the "
                          f"pack)")
    return games[name]


def package(name: str, where: str) -> ModuleType:
    """The imported package of the game ``name``; its import failing is the game's
    fault, told as such (which distribution, which error), never a traceback."""
    game = entry(name, where)
    try:
        return importlib.import_module(game.package)
    except Exception as exc:  # the game's own code (or its install) is broken
        raise PackError(f"{where}: {game.describe()} cannot be imported: "
                        f"{type(exc).__name__}: {exc}") from None


def _data(name: str, kind: str) -> Path | None:
    """The folder of the game's ``<package>.<kind>`` data, None if it has none: a
    sub-package or a plain folder (a namespace package) of the game's package, found by
    the import system as the package's modules are, so wherever it is installed."""
    if name not in installed():
        return None
    pkg = package(name, f"entry point {GROUP}: {name}")
    try:
        spec = importlib.util.find_spec(f"{pkg.__name__}.{kind}")
    except (ImportError, ValueError):
        return None
    where = list(spec.submodule_search_locations or ()) if spec is not None else []
    return Path(where[0]) if where and Path(where[0]).is_dir() else None


def editions_dir(name: str) -> Path | None:
    """The folder of the game's edition packs (``<package>.editions``), None if none."""
    return _data(name, "editions")


def cards_dir(name: str) -> Path | None:
    """The folder of the game's bundled cards (``<package>.cards``), None if none."""
    return _data(name, "cards")


def plugin_names(name: str) -> list[str]:
    """The rule plugins a game ships: the modules of its package (not its private ones,
    nor its sub-packages, such as its data), each a name a pack's ``plugins:`` may list."""
    try:
        spec = importlib.util.find_spec(entry(name, f"entry point {GROUP}").package)
    except (ImportError, ValueError):   # a broken game ships nothing (problems() says so)
        return []
    where = spec.submodule_search_locations if spec is not None else None
    if not where:
        return []
    return sorted({m.name for m in pkgutil.iter_modules(list(where))
                   if not m.ispkg and not m.name.startswith("_")})


def module(name: str, plugin: str) -> ModuleType:
    """The game's rule plugin ``plugin`` (a name from :func:`plugin_names`), imported."""
    return importlib.import_module(f"{entry(name, f'entry point {GROUP}').package}.{plugin}")
