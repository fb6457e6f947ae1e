"""The kernel's import graph, read from its source (every import, those inside functions
too; those only for the type checker left out): no cycle, and no module takes another
sub-package's private helper (a ``_name`` from a module outside its own package), so
each part of the kernel can be read, and changed, from its own folder."""

from __future__ import annotations

import ast
from pathlib import Path

import mnrules

ROOT = Path(mnrules.__file__).resolve().parent


def _modules(root: Path) -> dict[str, Path]:
    out = {}
    for f in sorted(root.rglob("*.py")):
        parts = list(f.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


def _typing_only(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for n in ast.walk(node)}
    return skipped


def import_graph(root: Path) -> tuple[dict[str, set[str]], list[str]]:
    """Each module's imports of the package's modules, and every private name taken
    from a module of another package (as "importer: module._name")."""
    modules = _modules(root)
    top = root.name
    edges: dict[str, set[str]] = {}
    private: list[str] = []
    for name, file in modules.items():
        tree = ast.parse(file.read_text(encoding="utf-8"))
        skipped = _typing_only(tree)
        package = name if file.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    target = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    target = node.module or ""
                if target != top and not target.startswith(top + "."):
                    continue
                for alias in node.names:
                    if f"{target}.{alias.name}" in modules:
                        found.add(f"{target}.{alias.name}")
                        continue
                    found.add(target)
                    own = target.rpartition(".")[0] if target in modules \
                        and modules[target].name != "__init__.py" else target
                    if alias.name.startswith("_") and not alias.name.startswith("__") \
                            and own != package:
                        private.append(f"{name}: {target}.{alias.name}")
        found.discard(name)
        edges[name] = found
    return edges, private


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_kernel_has_no_import_cycle() -> None:
    edges, _ = import_graph(ROOT)
    assert len(edges) > 50
    assert cycles(edges) == []


def test_no_module_takes_another_packages_private_helper() -> None:
    _, private = import_graph(ROOT)
    assert private == []


def test_a_cycle_through_a_function_level_import_is_found(tmp_path: Path) -> None:
    pkg = tmp_path / "demo"
    (pkg / "tools").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "tools" / "__init__.py").write_text("")
    (pkg / "cli.py").write_text("from .tools import sweep\n")
    (pkg / "tools" / "sweep.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .. import cli\n\n"
        "def run():\n    from ..cli import _jobs\n    return _jobs\n")
    edges, private = import_graph(pkg)
    assert cycles(edges) == [["demo.cli", "demo.tools.sweep"]]
    assert private == ["demo.tools.sweep: demo.cli._jobs"]


def test_a_type_checkers_import_makes_no_cycle(tmp_path: Path) -> None:
    pkg = tmp_path / "demo"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from . import a\n")
    edges, _ = import_graph(pkg)
    assert cycles(edges) == []
