"""Import paths of an earlier release, kept working for one minor version with a
DeprecationWarning.

The kernel's modules: until 0.2 they lay flat in ``mnrules/``; since then they are
grouped by what they are (``core``, ``hooks``, ``content``, ``language``, ``tools``,
``frontends``), and each old name in ``MOVED`` is served from its new place.

The games: in mnrules 0.1 the games were sub-packages of
``mnrules.plugins`` (a link to the checkout's ``plugins/``); since 0.2 each is a package
of its own, found through the entry-point group ``mnrules.games``. A game's package says
which names were its own in ``FORMER_NAMES`` (prefixes, most specific first), and the
finder below serves every old name under ``mnrules.plugins`` from the installed game
that claims it; no game is named here.

An old name is an alias, not a copy: the old name of a module gives the very module of
the new name (one set of classes, one registry, the same hooks), so a modder's plugin
that mixes old and new names still sees one game.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

OLD = "mnrules.plugins"
REMOVED_IN = "0.3"

MOVED = {
    "mnrules.engine": "mnrules.core.engine",
    "mnrules.state": "mnrules.core.state",
    "mnrules.flow": "mnrules.core.flow",
    "mnrules.effects": "mnrules.core.effects",
    "mnrules.start": "mnrules.core.start",
    "mnrules.view": "mnrules.core.view",
    "mnrules.invariants": "mnrules.core.invariants",
    "mnrules.bus": "mnrules.hooks.bus",
    "mnrules.hookspecs": "mnrules.hooks.hookspecs",
    "mnrules.contract": "mnrules.hooks.contract",
    "mnrules.params": "mnrules.hooks.params",
    "mnrules.packs": "mnrules.content.packs",
    "mnrules.ruleset": "mnrules.content.ruleset",
    "mnrules.yamlsource": "mnrules.content.yamlsource",
    "mnrules.box": "mnrules.content.box",
    "mnrules.games": "mnrules.content.games",
    "mnrules.card_files": "mnrules.content.card_files",
    "mnrules.card_check": "mnrules.content.card_check",
    "mnrules.resources": "mnrules.content.resources",
    "mnrules.present": "mnrules.language.present",
    "mnrules.simulate": "mnrules.tools.simulate",
    "mnrules.sweep": "mnrules.tools.sweep",
    "mnrules.rating": "mnrules.tools.rating",
    "mnrules.fuzz": "mnrules.tools.fuzz",
    "mnrules.scenario": "mnrules.tools.scenario",
    "mnrules.log": "mnrules.tools.log",
    "mnrules.skill": "mnrules.tools.skill",
    "mnrules.blunders": "mnrules.tools.blunders",
    "mnrules.rules_doc": "mnrules.tools.rules_doc",
    "mnrules.provenance": "mnrules.tools.provenance",
    "mnrules.stopping": "mnrules.tools.stopping",
    "mnrules.cli": "mnrules.frontends.cli",
    "mnrules.terminal": "mnrules.frontends.terminal",
    "mnrules.web": "mnrules.frontends.web",
}
"""The kernel's modules that moved in 0.2, old name to new (a package's modules follow it)."""


def _claims() -> list[tuple[str, str]]:
    """(old prefix, new package) for every installed game's FORMER_NAMES, the longest
    prefix first. A game that cannot be imported claims nothing."""
    from .content import games

    found: list[tuple[str, str]] = []
    for game in games.installed().values():
        try:
            module = importlib.import_module(game.package)
        except Exception:  # its own import says what is wrong when it is played
            continue
        for prefix in getattr(module, "FORMER_NAMES", ()):
            if isinstance(prefix, str) and prefix.startswith(OLD):
                found.append((prefix, game.package))
    return sorted(found, key=lambda c: -len(c[0]))


def new_name(old: str) -> str | None:
    """What an old module name now is ("" for the old package itself), None if no
    installed game claims it."""
    for prefix, new in MOVED.items():
        if old == prefix or old.startswith(prefix + "."):
            return new + old[len(prefix):]
    if old == OLD:
        return ""
    if not old.startswith(OLD + "."):
        return None
    for prefix, package in _claims():
        if old == prefix or old.startswith(prefix + "."):
            return package + old[len(prefix):]
    return None


def _importer_frame() -> tuple[str, int, dict[str, object]]:
    """The file and line of the import statement, past the import machinery's frames,
    so that the warning points at the modder's line (and filters by his module)."""
    frame = sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename.startswith("<frozen")
                                 or frame.f_code.co_filename == __file__
                                 or "importlib" in frame.f_code.co_filename):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return "<unknown>", 0, {}
    return frame.f_code.co_filename, frame.f_lineno, frame.f_globals


def _warn(old: str, new: str) -> None:
    file, line, globs = _importer_frame()
    registry = globs.setdefault("__warningregistry__", {})
    warnings.warn_explicit(
        f"{old} is deprecated: import {new} (the old name works until mnrules {REMOVED_IN}; "
        f"see CHANGELOG.md)",
        DeprecationWarning, file, line, module=str(globs.get("__name__", "")),
        registry=registry if isinstance(registry, dict) else None)


class _Alias(importlib.abc.Loader):
    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        if not self.new:   # mnrules.plugins itself: an empty package, only a way through
            module = ModuleType(spec.name, "Deprecated: the games are packages of their own.")
            module.__path__ = []
            return module
        self.real = importlib.import_module(self.new)
        self.spec = self.real.__spec__
        return self.real

    def exec_module(self, module: ModuleType) -> None:
        # importlib set the alias's spec on the real module: give it back its own
        if self.new:
            module.__spec__ = self.spec


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        new = new_name(fullname)
        if new is None or (new and importlib.util.find_spec(new) is None):
            return None   # no such module under either name: the usual ImportError
        if new:   # the old package itself is only a way to the names below it
            _warn(fullname, new)
        is_package = not new or hasattr(importlib.import_module(new), "__path__")
        return importlib.machinery.ModuleSpec(fullname, _Alias(new), is_package=is_package)


def install() -> None:
    """Put the alias finder first on the import path, once."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
