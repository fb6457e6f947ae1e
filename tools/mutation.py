"""Mutation testing of the kernel and the rule plugins: sample, run, score, keep the table.

Why a runner of our own rather than mutmut 3 or cosmic-ray: both work on the whole
tree at once (mutmut copies it to ``mutants/`` and first runs the whole suite to map
tests to functions; cosmic-ray keeps a session database and runs the configured test
command for every mutant), and neither follows this layout, where a game's package
is its folder of ``plugins/`` and its data two top-level folders. On a machine shared
by several engineers the whole suite per mutant is out of reach; a sample per module,
tested by the tests that concern that module, is what fits. The operators are the usual
ones (mutmut's and cosmic-ray's core set): comparison and boolean operators swapped,
arithmetic swapped, numbers moved by one, True/False swapped, a condition negated, a
statement deleted.

A mutant is applied to a private copy of the tree as committed (never to the working
tree others test in, and not their work in progress); the module's tests run there with
``-x``, once unmutated first (a set of tests shared by several modules runs so once). A
failing (or hanging) run kills the mutant. Equivalent mutants (no result can change)
are listed once, with a reason, in ``tools/equivalent_mutants.txt``.

    python tools/mutation.py run [MODULE ...] [--per-module N] [--seed S] [--jobs J]
    python tools/mutation.py ci          # the fixed sample CI runs: fails on a survivor
    python tools/mutation.py list MODULE # every mutant of a module, by id

``run`` rewrites the table in docs/mutation.md for the modules it measured.
"""

from __future__ import annotations

import argparse
import ast
import functools
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "mutation.md"
EQUIVALENT = ROOT / "tools" / "equivalent_mutants.txt"
# what the tests read: the package and its data, and the docs and README some tests check
COPIED = ("mnrules", "plugins", "cards", "grammar", "editions", "tests", "docs", "tools",
          "benchmarks", "README.md", "pyproject.toml")
HEADER = "| module | mutants run | killed | equivalent | score |"
RULE = "|---|---:|---:|---:|---:|"
BEGIN = "<!-- table: written by tools/mutation.py run -->"
END = "<!-- end of table -->"

SWAP_CMP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
SWAP_BIN: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult, ast.Mod: ast.FloorDiv,
}
DELETABLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise)


@dataclass(frozen=True)
class Mutant:
    """One change to one module: its id is ``path:line:col:operator``."""

    path: str
    line: int
    col: int
    op: str
    index: int  # its place in the module's walk (the same source gives the same walk)

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}:{self.col}:{self.op}"


def _is_docstring(node: ast.AST, parent: ast.AST | None) -> bool:
    """A docstring, or the ``...`` body of a stub (an overload): deleting it changes nothing."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and (isinstance(node.value.value, str) or node.value.value is Ellipsis)
    )


def _skipped(node: ast.AST) -> bool:
    """Type-only code and logging strings change no result: not mutated."""
    if isinstance(node, ast.If):
        test = node.test
        return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
    return False


def _points(tree: ast.AST) -> Iterator[tuple[ast.AST, str]]:
    """Every (node, operator) pair the module offers, in a fixed order."""
    stack: list[tuple[ast.AST, ast.AST | None]] = [(tree, None)]
    while stack:
        node, parent = stack.pop()
        if _skipped(node):
            continue
        if isinstance(node, ast.Compare) and type(node.ops[0]) in SWAP_CMP:
            yield node, "compare"
        elif isinstance(node, ast.BoolOp):
            yield node, "boolean"
        elif isinstance(node, ast.BinOp) and type(node.op) in SWAP_BIN:
            yield node, "arithmetic"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "drop_not"
        elif (
            isinstance(node, ast.Constant)
            and type(node.value) in (int, bool)
            and not isinstance(parent, ast.Subscript | ast.keyword)
        ):
            yield node, "number" if type(node.value) is int else "truth"
        if isinstance(node, ast.If | ast.While):
            yield node, "negate"
        bare_annotation = isinstance(node, ast.AnnAssign) and node.value is None
        if isinstance(node, DELETABLE) and not _is_docstring(node, parent) and not bare_annotation:
            yield node, "delete"
        if isinstance(node, ast.AnnAssign):
            children: list[ast.AST] = [node.value] if node.value is not None else []
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            children = list(node.body)  # not the annotations nor the decorators
        elif isinstance(node, ast.ClassDef):
            children = list(node.body)
        else:
            children = list(ast.iter_child_nodes(node))
        for child in reversed(children):
            stack.append((child, node))


def _committed() -> bool:
    """Whether the tree is a git checkout: then the committed files are what is measured,
    so that other work in progress in the same tree cannot break a run half-way."""
    return (ROOT / ".git").exists() and shutil.which("git") is not None


@functools.cache
def _pinned() -> str:
    """The commit this run measures, read once: a commit landing mid-run (others work in
    the same tree) must not mix its files into the copy or move the mutants' lines."""
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip()


def source(path: str) -> str:
    """A module's source as measured: as committed (HEAD when the run began) in a git
    checkout."""
    if _committed():
        done = subprocess.run(["git", "show", f"{_pinned()}:{path}"], cwd=ROOT,
                              capture_output=True, text=True, check=False)
        if done.returncode == 0:
            return done.stdout
    return (ROOT / path).read_text(encoding="utf-8")


def mutants(path: str) -> list[Mutant]:
    tree = ast.parse(source(path))
    found = []
    for index, (node, op) in enumerate(_points(tree)):
        line = getattr(node, "lineno", 0)
        col = getattr(node, "col_offset", 0)
        found.append(Mutant(path, line, col, op, index))
    return found


def apply(source: str, mutant: Mutant) -> str:
    """The module's source with the mutant in it (unparsed: comments are lost)."""
    tree = ast.parse(source)
    for index, (node, op) in enumerate(_points(tree)):
        if index != mutant.index:
            continue
        assert op == mutant.op, (mutant, op)
        if op == "compare":
            assert isinstance(node, ast.Compare)
            node.ops[0] = SWAP_CMP[type(node.ops[0])]()
        elif op == "boolean":
            assert isinstance(node, ast.BoolOp)
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif op == "arithmetic":
            assert isinstance(node, ast.BinOp)
            node.op = SWAP_BIN[type(node.op)]()
        elif op == "drop_not":
            assert isinstance(node, ast.UnaryOp)
            node.op = ast.UAdd()  # `+x` on a bool is its truth as a number: `not` dropped
            node.operand = ast.Call(ast.Name("bool", ast.Load()), [node.operand], [])
        elif op == "number":
            assert isinstance(node, ast.Constant) and isinstance(node.value, int)
            node.value = node.value + 1
        elif op == "truth":
            assert isinstance(node, ast.Constant)
            node.value = not node.value
        elif op == "negate":
            assert isinstance(node, ast.If | ast.While)
            node.test = ast.UnaryOp(ast.Not(), node.test)
        elif op == "delete":
            _delete(tree, node)
        return ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    raise LookupError(f"{mutant.id}: no such mutant (the module changed?)")


def _delete(tree: ast.AST, target: ast.AST) -> None:
    for parent in ast.walk(tree):
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and target in block:
                i = block.index(target)
                block[i] = ast.Pass()
                return
    raise LookupError("statement not in a block")


def sample(path: str, count: int, seed: int) -> list[Mutant]:
    """``count`` mutants spread over the file: one drawn from each of ``count`` slices."""
    every = mutants(path)
    if len(every) <= count:
        return every
    rng = random.Random(f"{seed}:{path}")
    picked = []
    for k in range(count):
        lo, hi = k * len(every) // count, (k + 1) * len(every) // count
        picked.append(every[rng.randrange(lo, hi)])
    return picked


def config() -> dict[str, object]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    section: dict[str, object] = data["tool"]["mnrules-mutation"]
    return section


# Where a module's tests are filed: a game's under tests/<game>/, the kernel's parts under
# the folder of their subject (README, "Tests").
KERNEL_TESTS = {"mnrules/core": "tests/kernel", "mnrules/hooks": "tests/kernel",
                "mnrules/content": "tests/kernel", "mnrules/language": "tests/language",
                "mnrules/tools": "tests/tools"}


def test_root(module: str) -> str | None:
    """The folder holding the tests of a module's game or kernel part, or None."""
    parent = str(Path(module).parent.as_posix())
    if parent.startswith("plugins/") and parent.count("/") == 1:
        return "tests/" + parent.split("/", 1)[1]
    return KERNEL_TESTS.get(parent)


def named_for(name: str, stem: str) -> bool:
    """Whether a test file (test_<stem>.py, test_<stem>_*.py) or a scenario file
    (<stem>.yaml, <stem>_*.yaml) is named for the module ``stem``."""
    base = name.rsplit(".", 1)[0]
    if name.endswith(".py"):
        return base == f"test_{stem}" or base.startswith(f"test_{stem}_")
    return name.endswith(".yaml") and (base == stem or base.startswith(f"{stem}_"))


def _test_files() -> list[str]:
    """Every file under tests/, as committed (HEAD when the run began) in a git checkout."""
    if _committed():
        done = subprocess.run(["git", "ls-tree", "-r", "--name-only", _pinned(), "tests"],
                              cwd=ROOT, capture_output=True, text=True, check=True)
        return done.stdout.split()
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*")
                  if p.is_file())


def _is_test(path: str) -> bool:
    """A test module, or a scenario file (pytest runs every YAML under a scenarios/)."""
    parts = path.split("/")
    return (parts[-1].startswith("test_") and parts[-1].endswith(".py")) or (
        parts[-1].endswith(".yaml") and "scenarios" in parts[:-1])


def tests_for(module: str, files: list[str] | None = None) -> list[str]:
    """The tests of a mutated module, read from the folders: under its test root (a game's
    tests/<game>/, or the kernel part's tests/kernel, tests/language, tests/tools), every
    subject folder named for the module, and every subject folder (the root's sub-folder)
    holding a test file named for it, whole; a named test or scenario file that no subject
    folder holds counts alone. So plugins/mare_nostrum/battle.py is tested by
    tests/mare_nostrum/military/ (test_battle.py is filed there, with Move & Fight),
    plugins/antike2/movere.py by tests/antike2/movere/, mnrules/core/engine.py by
    tests/kernel/engine/."""
    root = test_root(module)
    if root is None:
        return []
    stem = Path(module).stem
    chosen: set[str] = set()
    for path in files if files is not None else _test_files():
        if not path.startswith(root + "/") or not _is_test(path):
            continue
        inner = path[len(root) + 1:].split("/")
        folders = inner[:-1]
        if stem in folders:                       # a folder named for the module
            chosen.add("/".join([root, *folders[:folders.index(stem) + 1]]))
        elif named_for(inner[-1], stem):
            if folders and inner[-1].endswith(".py"):
                chosen.add(f"{root}/{folders[0]}")   # its subject folder, whole
            else:
                chosen.add(path)
    # a file or folder inside a chosen folder is run with it
    return sorted(c for c in chosen
                  if not any(c != o and c.startswith(o + "/") for o in chosen))


def modules() -> dict[str, list[str]]:
    """Module path -> the tests that concern it (the configured modules, their tests found
    in the folders by ``tests_for``)."""
    listed = config()["modules"]
    assert isinstance(listed, list)
    files = _test_files()
    return {str(m): tests_for(str(m), files) for m in listed}


def equivalents() -> dict[str, str]:
    """Mutant id -> why it cannot change any result."""
    marked = {}
    if EQUIVALENT.exists():
        for raw in EQUIVALENT.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            mutant_id, _, reason = line.partition(" ")
            if not reason.strip():
                raise SystemExit(f"{EQUIVALENT}: {mutant_id}: an equivalent mutant needs a reason")
            marked[mutant_id] = reason.strip()
    return marked


class Sandbox:
    """A private copy of the tree that one worker mutates, one module at a time."""

    def __init__(self) -> None:
        self.last = ""  # the end of the last run's output
        self.dir = Path(tempfile.mkdtemp(prefix="mnrules-mutation-"))
        if _committed():
            names = [n for n in COPIED if (ROOT / n).exists()]
            archive = subprocess.run(["git", "archive", _pinned(), *names], cwd=ROOT,
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(self.dir)], input=archive, check=True)
        else:
            for name in COPIED:
                src = ROOT / name
                if src.is_dir():
                    shutil.copytree(
                        src, self.dir / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                    )
                else:
                    shutil.copy2(src, self.dir / name)
        # The data folders install inside the packages (mnrules.grammar, <game>.editions,
        # <game>.cards; setup.py): link them there in the copy, so that its packages, found
        # first on PYTHONPATH, read the copy's data rather than an installed tree's. The
        # games themselves are still found by the installed distribution's entry points.
        links = {self.dir / "mnrules" / "grammar": Path("..") / "grammar"}
        for game in (self.dir / "plugins").iterdir():
            for data in ("editions", "cards"):
                if (self.dir / data / game.name).is_dir():
                    links[game / data] = Path("..") / ".." / data / game.name
        for link, target in links.items():
            if not link.exists():
                link.symlink_to(target)

    def run(self, tests: list[str], timeout: float) -> tuple[bool, float]:
        """(passed, seconds) for the tests in this copy."""
        path = os.pathsep.join((str(self.dir), str(self.dir / "plugins")))
        env = dict(os.environ, PYTHONPATH=path, PYTHONDONTWRITEBYTECODE="1")
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "-p", "no:randomly", *tests]
        start = time.perf_counter()
        try:
            done = subprocess.run(cmd, cwd=self.dir, env=env, capture_output=True,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            self.last = f"timed out after {timeout:.0f} s"
            return False, time.perf_counter() - start
        self.last = done.stdout.decode(errors="replace")[-1500:]
        return done.returncode == 0, time.perf_counter() - start

    def mutate(self, mutant: Mutant) -> None:
        (self.dir / mutant.path).write_text(apply(source(mutant.path), mutant),
                                            encoding="utf-8")

    def restore(self, path: str) -> None:
        (self.dir / path).write_text(source(path), encoding="utf-8")

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


class BaselineFailed(Exception):
    """The module's tests fail on the unmutated tree: no mutant can be judged."""


@dataclass
class Score:
    module: str
    run: int = 0
    killed: int = 0
    equivalent: int = 0
    survivors: tuple[str, ...] = ()

    @property
    def percent(self) -> float:
        counted = self.run - self.equivalent
        return 100.0 * self.killed / counted if counted else 100.0


class Baselines:
    """The seconds each test set took on the unmutated tree, run once per set even when
    two sandboxes ask at once (modules sharing a folder wait for the first's run)."""

    def __init__(self) -> None:
        self.seconds: dict[tuple[str, ...], float] = {}
        self._locks: dict[tuple[str, ...], threading.Lock] = {}
        self._guard = threading.Lock()

    def of(self, path: str, tests: list[str], box: Sandbox) -> float:
        key = tuple(tests)
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self.seconds:
                ok, base = box.run(tests, timeout=600)
                if not ok:  # once more: a shared, loaded machine makes some tests flaky
                    ok, base = box.run(tests, timeout=600)
                if not ok:
                    raise BaselineFailed(f"{path}: its tests fail without any mutant "
                                         f"({' '.join(tests)})\n{box.last}")
                self.seconds[key] = base
            return self.seconds[key]


def measure(path: str, tests: list[str], chosen: list[Mutant], box: Sandbox,
            marked: dict[str, str], say: bool = True,
            baselines: Baselines | None = None) -> Score:
    """``path``'s mutants judged by ``tests``. ``baselines`` holds the seconds the tests
    took on the unmutated tree, by test set: modules tested by the same folder (ten of
    Antike II's by tests/antike2/economy) share one baseline run, every copy of the
    tree being the same tree."""
    score = Score(path)
    base = (baselines or Baselines()).of(path, tests, box)
    survivors = []
    for mutant in chosen:
        score.run += 1
        if mutant.id in marked:
            score.equivalent += 1
            continue
        box.mutate(mutant)
        try:
            passed, _ = box.run(tests, timeout=max(20.0, 4 * base))
        finally:
            box.restore(path)
        if passed:
            survivors.append(mutant.id)
            if say:
                print(f"  survived: {mutant.id}", flush=True)
        else:
            score.killed += 1
    score.survivors = tuple(survivors)
    return score


def row(score: Score) -> str:
    return (f"| {score.module} | {score.run} | {score.killed} | {score.equivalent} "
            f"| {score.percent:.0f}% |")


def parse_rows(text: str) -> dict[str, str]:
    """The table's rows in docs/mutation.md, by module."""
    inside = text.split(BEGIN, 1)[1].split(END, 1)[0]
    rows = {}
    for line in inside.strip().splitlines():
        if line in (HEADER, RULE):
            continue
        rows[line.split("|")[1].strip()] = line
    return rows


def write_table(scores: list[Score]) -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = parse_rows(text)
    for score in scores:
        rows[score.module] = row(score)
    ordered = [rows[m] for m in modules() if m in rows]
    table = "\n".join([BEGIN, HEADER, RULE, *ordered, END])
    head, rest = text.split(BEGIN, 1)
    DOC.write_text(head + table + rest.split(END, 1)[1], encoding="utf-8")


def _run_modules(paths: list[str], count: int, seed: int, jobs: int) -> list[Score]:
    table, marked = modules(), equivalents()
    unknown = [p for p in paths if p not in table]
    if unknown:
        raise SystemExit(f"not in [tool.mnrules-mutation] modules: {', '.join(unknown)}")
    boxes = [Sandbox() for _ in range(jobs)]
    free = list(boxes)
    baselines = Baselines()

    def one(path: str) -> Score | None:
        box = free.pop()
        try:
            score = measure(path, table[path], sample(path, count, seed), box, marked,
                            baselines=baselines)
        except BaselineFailed as failed:
            print(f"not measured: {failed}", flush=True)
            return None
        finally:
            free.append(box)
        print(row(score), flush=True)
        return score

    try:
        with ThreadPoolExecutor(jobs) as pool:
            measured = list(pool.map(one, paths))
        for path, score in zip(paths, measured, strict=True):
            if score is None:
                print(f"not measured (its tests fail before any mutant): {path}")
        return [score for score in measured if score is not None]
    finally:
        for box in boxes:
            box.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="measure modules and rewrite docs/mutation.md's rows")
    run.add_argument("modules", nargs="*", help="module paths (default: every configured one)")
    run.add_argument("--per-module", type=int, default=None)
    run.add_argument("--seed", type=int, default=None)
    run.add_argument("--jobs", type=int, default=1)
    run.add_argument("--no-write", action="store_true")
    sub.add_parser("ci", help="the fixed sample: fails when a mutant not marked survives")
    lister = sub.add_parser("list", help="every mutant of a module")
    lister.add_argument("module")
    check = sub.add_parser("check", help="run the module's tests against given mutants")
    check.add_argument("ids", nargs="+", help="mutant ids, as `list` prints them")
    args = parser.parse_args(argv)
    cfg = config()
    if args.command == "list":
        for mutant in mutants(args.module):
            print(mutant.id)
        return 0
    if args.command == "check":
        box = Sandbox()
        try:
            for mutant_id in args.ids:
                path = mutant_id.split(":", 1)[0]
                found = [x for x in mutants(path) if x.id == mutant_id]
                if not found:
                    raise SystemExit(f"{mutant_id}: no such mutant")
                score = measure(path, modules()[path], found, box, {}, say=False)
                print(f"{'killed' if score.killed else 'SURVIVED'}: {mutant_id}")
        finally:
            box.close()
        return 0
    if args.command == "ci":
        ci = cfg["ci"]
        assert isinstance(ci, dict)
        # no list: every configured module, so a module added to the table is sampled too
        paths = [str(p) for p in ci.get("modules", modules())]
        scores = _run_modules(paths, int(ci["per-module"]), int(ci["seed"]),
                              jobs=int(ci.get("jobs", 1)))
        if len(scores) < len(paths):
            return 1
        left = [s for score in scores for s in score.survivors]
        for mutant_id in left:
            print(f"survived (kill it with a test, or mark it in {EQUIVALENT.name} with a "
                  f"reason): {mutant_id}")
        return 1 if left else 0
    paths = args.modules or list(modules())
    count = args.per_module or int(str(cfg["per-module"]))
    seed = args.seed if args.seed is not None else int(str(cfg["seed"]))
    scores = _run_modules(paths, count, seed, args.jobs)
    if not args.no_write:
        write_table(scores)
    return 0 if len(scores) == len(paths) else 1


if __name__ == "__main__":
    sys.exit(main())
