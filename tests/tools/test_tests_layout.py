"""The tests are filed by subject (README, "Tests"): a folder per game and rule area, the
kernel, the language, the tools, the web app and hostile inputs; no test module at the top
of tests/ but the few that code outside the tests names by path; one name per module (the
tests import their helpers by name); and every mutated module finds its tests in the
folders (tools/mutation.py, ``tests_for``). Each check is shown failing on a layout that
breaks it, so a check that can no longer fail is caught too."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

from conftest import ROOT, TESTS

SUBJECTS = {"mare_nostrum", "antike2", "kernel", "language", "tools", "web", "hostile",
            "agents", "packaging"}
# Named by path in code outside tests/, which keeps their place: the generated editors
# grammar (mnrules/language/highlight.py), the rules document (mnrules/tools/rules_doc.py),
# the random bot's hash (mnrules/bots/random_bot.py), and the determinism guard with its
# digests (benchmarks/games.py, benchmarks/bench_compare.py).
AT_THE_TOP = {"test_highlight.py", "test_contract.py", "test_speed_random.py",
              "test_speed_determinism.py"}


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_tool", ROOT / "tools" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation_tool"] = module
    spec.loader.exec_module(module)
    return module


def files_under_tests() -> list[str]:
    return sorted(p.relative_to(ROOT).as_posix() for p in TESTS.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


def misfiled(files: list[str]) -> list[str]:
    """Test modules outside a subject folder (or at the top, unless named from outside)."""
    wrong = []
    for path in files:
        parts = path.split("/")
        if not (parts[-1].startswith("test_") and parts[-1].endswith(".py")):
            continue
        if len(parts) == 2:
            if parts[-1] not in AT_THE_TOP:
                wrong.append(path)
        elif parts[1] not in SUBJECTS:
            wrong.append(path)
    return wrong


def names_twice(files: list[str]) -> list[str]:
    """Module names used twice under tests/ (a helper imported by name would be ambiguous,
    and pytest refuses a second module of the same name). A folder's ``conftest.py`` is
    the one name pytest itself asks for in every folder, and loads by its path."""
    names = Counter(Path(p).name for p in files if p.endswith(".py")
                    and not p.startswith("tests/packaging/pig/")
                    and Path(p).name != "conftest.py")
    return sorted(n for n, count in names.items() if count > 1)


def untested(modules: list[str], files: list[str]) -> list[str]:
    """Mutated modules whose tests the folders do not give."""
    m = tool()
    return [module for module in modules if not m.tests_for(module, files)]


def test_every_test_module_is_in_a_subject_folder() -> None:
    files = files_under_tests()
    assert misfiled(files) == []
    assert {p.split("/")[1] for p in files if p.count("/") > 1} >= SUBJECTS
    at_top = {Path(p).name for p in files if p.count("/") == 1 and p.endswith(".py")
              and Path(p).name.startswith("test_")}
    assert at_top == AT_THE_TOP, "a test named from outside tests/ moved: update AT_THE_TOP"


def test_the_layout_check_refuses_a_stray_test() -> None:
    files = files_under_tests()
    stray = [*files, "tests/test_bot_balance4.py", "tests/misc/test_second_look.py"]
    assert misfiled(stray) == ["tests/test_bot_balance4.py", "tests/misc/test_second_look.py"]


def test_every_module_name_is_used_once() -> None:
    files = files_under_tests()
    assert names_twice(files) == []
    assert names_twice([*files, "tests/hostile/test_battle.py"]) == ["test_battle.py"]
    assert names_twice([*files, "tests/kernel/conftest.py"]) == []


def test_every_mutated_module_finds_its_tests_in_the_folders() -> None:
    m = tool()
    files = files_under_tests()
    modules = list(m.modules())
    assert len(modules) >= 50
    assert untested(modules, files) == []
    for module, tests in m.modules().items():
        for test in tests:
            assert (ROOT / test).exists(), f"{module}: {test}"
            assert test.startswith("tests/") and test.count("/") != 1, (module, test)


def test_a_module_without_a_folder_or_a_named_file_is_untested() -> None:
    files = files_under_tests()
    battle = "plugins/mare_nostrum/battle.py"
    assert untested([battle], files) == []
    without = [p for p in files if not Path(p).name.startswith("test_battle")]
    assert untested([battle], without) == [battle]
    nowhere = "plugins/mare_nostrum/nowhere.py"
    assert untested([nowhere], files) == [nowhere]


def test_the_derived_map_reads_the_folders() -> None:
    """A folder named for the module, or the subject folder holding its named files, whole;
    a named scenario file on its own; the kernel's parts under their subjects' folders."""
    m = tool()
    files = files_under_tests()
    assert m.tests_for("plugins/mare_nostrum/battle.py", files) == ["tests/mare_nostrum/military"]
    assert m.tests_for("plugins/antike2/movere.py", files) == ["tests/antike2/movere"]
    assert m.tests_for("mnrules/core/engine.py", files) == ["tests/kernel/engine"]
    assert m.tests_for("mnrules/tools/audit.py", files) == ["tests/tools/log"]
    assert "tests/mare_nostrum/scenarios/trade_offers_as_revealed.yaml" in m.tests_for(
        "plugins/mare_nostrum/trade.py", files)
    assert m.tests_for("mnrules/frontends/cli.py", files) == []


TEST_PATH = re.compile(r"\btests/[\w/]+\.(?:py|yaml)\b")
NAMING = ("editions", "docs", "plugins", "mnrules", "README.md", "CHANGELOG.md")


def stale_test_paths(texts: dict[str, str]) -> list[str]:
    """Each ``file: path`` where a text names a test file that is not in tests/."""
    return [f"{name}: {found}" for name, text in sorted(texts.items())
            for found in sorted(set(TEST_PATH.findall(text))) if not (ROOT / found).exists()]


def test_a_test_named_by_a_pack_or_a_document_is_where_it_says() -> None:
    texts = {}
    for top in NAMING:
        at = ROOT / top
        for path in ([at] if at.is_file() else at.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".yaml", ".md"):
                texts[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
    assert texts and stale_test_paths(texts) == []
    moved = {"pack.yaml": "(tests/antike2/test_scientia.py checks the example)"}
    assert stale_test_paths(moved) == ["pack.yaml: tests/antike2/test_scientia.py"]
