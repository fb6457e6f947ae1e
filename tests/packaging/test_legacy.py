"""mnrules 0.1's import paths (the games under ``mnrules.plugins``, and Mare Nostrum's
rules before that as ``mnrules.plugins.<rule>``) keep working through 0.2, each with a
DeprecationWarning naming the new path, and give the very modules of the new names."""

from __future__ import annotations

import importlib
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

import antike2.rondel
import mare_nostrum.military
from mnrules import load_ruleset, new_game
from mnrules._legacy import new_name


def _forget(name: str) -> None:
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]


@pytest.mark.parametrize(("old", "new"), [
    ("mnrules.plugins.mare_nostrum.military", mare_nostrum.military),
    ("mnrules.plugins.antike2.rondel", antike2.rondel),
    ("mnrules.plugins.military", mare_nostrum.military),     # before the games were two
])
def test_an_old_name_warns_and_is_the_new_module(old: str, new: ModuleType) -> None:
    _forget("mnrules.plugins")
    with pytest.warns(DeprecationWarning,
                      match=rf"{old} is deprecated: import {new.__name__} .*until mnrules 0\.3"):
        module = importlib.import_module(old)
    assert module is new
    assert module.__spec__ is not None and module.__spec__.name == new.__name__


def test_the_warning_points_at_the_importing_line() -> None:
    _forget("mnrules.plugins")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        exec(compile("import mnrules.plugins.mare_nostrum.trade\n", "modder.py", "exec"), {})
    assert [(w.filename, w.lineno) for w in seen if w.category is DeprecationWarning] \
        == [("modder.py", 1), ("modder.py", 1)]     # the package, then the module


def test_names_no_game_claims_are_not_aliased() -> None:
    assert new_name("mnrules.plugin") is None
    assert new_name("mnrules.core.engine") is None
    assert new_name("mnrules.plugins.antike2.rondel") == "antike2.rondel"
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("mnrules.plugins.mare_nostrum.no_such_rule")


def test_a_modders_plugin_of_last_month_still_plays(tmp_path: Path) -> None:
    """A variant's plugin file written against 0.1 (old imports) loads and plays."""
    (tmp_path / "old.py").write_text(
        "from mnrules.hooks.hookspecs import hookimpl\n"
        "from mnrules.plugins.mare_nostrum.tracks import TRACKS\n"
        "from mnrules.plugins.military import Military\n\n\n"
        "@hookimpl\n"
        "def mn_report(game, player):\n"
        "    return {'tracks': len(TRACKS)}\n", encoding="utf-8")
    (tmp_path / "variant.yaml").write_text(
        "format: mnrules-pack/1\nextends: en\nid: old\nplugins: {add: [old.py]}\n",
        encoding="utf-8")
    _forget("mnrules.plugins")
    with pytest.warns(DeprecationWarning):
        rules = load_ruleset(str(tmp_path / "variant.yaml"))
    game = new_game(rules, 3, seed=1)
    assert game.pending is not None
