"""The kernel's modules of 0.2's flat layout keep working under their old names for one
minor version: the very same module, with a DeprecationWarning naming the new one."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys

import pytest

from mnrules import _legacy


@pytest.mark.parametrize("old", sorted(_legacy.MOVED))
def test_an_old_name_is_the_new_module(old: str) -> None:
    assert importlib.import_module(old) is importlib.import_module(_legacy.MOVED[old])


def test_an_old_import_warns_once_with_the_new_name() -> None:
    code = ("import warnings\nwarnings.simplefilter('always')\n"
            "from mnrules.engine import Game\nfrom mnrules.web.app import STATIC\n"
            "from mnrules.core.engine import Game as New\nassert Game is New\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert "mnrules.engine is deprecated: import mnrules.core.engine" in done.stderr
    assert "mnrules.web.app is deprecated: import mnrules.frontends.web.app" in done.stderr


def test_the_documented_entry_points_stay() -> None:
    for name in ("mnrules.api", "mnrules.openspiel", "mnrules.pettingzoo", "mnrules.__main__"):
        assert importlib.util.find_spec(name) is not None, name
    assert "mnrules.openspiel" not in _legacy.MOVED and "mnrules.api" not in _legacy.MOVED
