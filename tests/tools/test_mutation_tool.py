"""The mutation tool and its table: docs/mutation.md is the tool's own table, and the tool's
operators really change a rule (a mutant of a known line is what the tool says it is)."""

from __future__ import annotations

import ast
import importlib.util
import sys
from types import ModuleType

from conftest import ROOT


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_tool", ROOT / "tools" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation_tool"] = module
    spec.loader.exec_module(module)
    return module


def test_the_doc_table_is_the_tools_table() -> None:
    """Header and rows as `tools/mutation.py run` writes them, one row per configured
    module at most, in the config's order (the scores themselves are whatever was measured)."""
    m = tool()
    text = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    inside = text.split(m.BEGIN, 1)[1].split(m.END, 1)[0].strip().splitlines()
    assert inside[:2] == [m.HEADER, m.RULE]
    rows = m.parse_rows(text)
    configured = list(m.modules())
    assert list(rows) == [mod for mod in configured if mod in rows]
    for module, line in rows.items():
        cells = [c.strip() for c in line.strip("|").split("|")]
        run, killed, equivalent = (int(c) for c in cells[1:4])
        score = m.Score(module, run, killed, equivalent)
        assert line == m.row(score), f"{module}: not the tool's row format"


def test_every_configured_module_and_its_tests_exist() -> None:
    """Each module is a file, tested by the folders or files tools/mutation.py derives
    (tests/tools/test_tests_layout.py checks how)."""
    m = tool()
    for module, tests in m.modules().items():
        assert (ROOT / module).is_file(), module
        assert tests, f"{module}: no tests filed for it"
        for test in tests:
            assert (ROOT / test).exists(), f"{module}: {test}"


def test_equivalent_mutants_name_a_real_mutant_and_a_reason() -> None:
    """A stale line (its module changed under it) must be re-judged, not silently kept."""
    m = tool()
    marked = m.equivalents()
    assert marked
    for mutant_id, reason in marked.items():
        path = mutant_id.split(":", 1)[0]
        assert mutant_id in {x.id for x in m.mutants(path)}, f"{mutant_id}: no longer a mutant"
        assert len(reason.split()) >= 4, mutant_id


def test_a_mutant_changes_exactly_its_point() -> None:
    """Swapping one comparison changes that comparison and nothing else."""
    m = tool()
    path = "plugins/mare_nostrum/trade.py"
    source = (ROOT / path).read_text(encoding="utf-8")
    compare = next(x for x in m.mutants(path) if x.op == "compare")
    before = ast.dump(ast.parse(source))
    after = ast.dump(ast.parse(m.apply(source, compare)))
    assert before != after
    assert m.apply(source, compare) == m.apply(source, compare)
    pairs = zip(ast.walk(ast.parse(source)), ast.walk(ast.parse(m.apply(source, compare))),
                strict=True)
    differing = [(a, b) for a, b in pairs if type(a) is not type(b)]
    assert len(differing) == 1


def test_the_sample_is_spread_over_the_file_and_seeded() -> None:
    m = tool()
    path = "plugins/mare_nostrum/victory.py"
    every = m.mutants(path)
    picked = m.sample(path, 6, seed=1)
    assert picked == m.sample(path, 6, seed=1)
    places = [every.index(x) for x in picked]
    assert places == sorted(places)
    for k, place in enumerate(places):
        assert k * len(every) // 6 <= place < (k + 1) * len(every) // 6
