"""The optional compiled core (docs/speed.md): its hook functions reach pluggy through
plain-Python wrappers, the pure-Python files stay the default, and a run that expects
the compiled build (MNRULES_EXPECT_COMPILED=1, as CI's compiled run sets) fails unless
every listed module really came from its compiled file — a build that did not compile
cannot pass for one that did."""

from __future__ import annotations

import importlib
import inspect
import os
import runpy
from types import SimpleNamespace
from typing import Any

import pluggy
import pytest

from conftest import ROOT
from mnrules.hooks.bus import ImplMarker, python_wrapper

_BUILD = runpy.run_path(str(ROOT / "tools" / "build_compiled.py"))
COMPILED: tuple[str, ...] = _BUILD["COMPILED"]
NAMES = [_BUILD["module_name"](p) for p in COMPILED]


def _compiled(name: str) -> bool:
    return str(importlib.import_module(name).__file__).endswith((".so", ".pyd"))


class _NoCode:
    """A callable with a signature but no code object, as mypyc's functions are."""

    __name__ = "mn_thing"
    __qualname__ = "mn_thing"
    __module__ = "somewhere"
    __signature__ = inspect.Signature([
        inspect.Parameter("game", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("player", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("extra", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=1)])

    def __call__(self, game: Any, player: Any, extra: int = 1) -> str:
        return f"{game}/{player}/{extra}"


def test_a_function_without_code_reaches_pluggy_through_a_python_wrapper() -> None:
    spec = pluggy.HookspecMarker("demo")
    mark = ImplMarker("demo")

    class Spec:
        @spec
        def mn_thing(self, game: Any, player: Any) -> str:  # type: ignore[empty-body]
            ...

    plugin = SimpleNamespace(mn_thing=mark(_NoCode()))   # as a module holds it
    assert inspect.isfunction(plugin.mn_thing)
    pm = pluggy.PluginManager("demo")
    pm.add_hookspecs(Spec)
    pm.register(plugin)
    assert pm.hook.mn_thing(game=3, player="rome") == ["3/rome/1"]


def test_the_wrapper_takes_the_required_arguments_by_name() -> None:
    wrapper = python_wrapper(_NoCode())
    assert list(inspect.signature(wrapper).parameters) == ["game", "player"]
    assert wrapper(player="greece", game=1) == "1/greece/1"


def test_a_plain_function_is_marked_as_pluggy_marks_it() -> None:
    mark = ImplMarker("demo")

    @mark(tryfirst=True)
    def mn_other(game: Any) -> int:
        return 1

    assert mn_other.demo_impl["tryfirst"] is True  # type: ignore[attr-defined]


def test_the_build_lists_existing_modules() -> None:
    for path in COMPILED:
        assert (ROOT / path).is_file(), path


@pytest.mark.skipif(os.environ.get("MNRULES_EXPECT_COMPILED", "") in ("", "0"),
                    reason="the pure-Python run (MNRULES_EXPECT_COMPILED unset)")
def test_every_listed_module_is_compiled_when_the_compiled_core_is_expected() -> None:
    missing = [n for n in NAMES if not _compiled(n)]
    assert missing == [], f"not compiled: {missing}"


@pytest.mark.skipif(os.environ.get("MNRULES_EXPECT_COMPILED", "") not in ("", "0"),
                    reason="the compiled run")
def test_the_default_run_is_pure_python() -> None:
    assert not any(_compiled(n) for n in NAMES)
