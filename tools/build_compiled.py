"""Build the optional compiled core: the hot kernel, rules and bot modules compiled by
mypyc (it ships with mypy) into C extensions that Python imports instead of their
``.py`` files. The ``.py`` files stay the source and the default; a modder's plugins
and cards, and every module not listed here, stay Python (docs/speed.md).

    python tools/build_compiled.py --copy DIR     # a copy of this tree in DIR, compiled
    python tools/build_compiled.py --inplace      # compile this tree (mind others' work)
    python tools/build_compiled.py --clean [DIR]  # remove the compiled files
    python tools/build_compiled.py --list         # the modules compiled
    MNRULES_COMPILE=1 pip install --no-build-isolation .   # an installed compiled core

A build that fails exits non-zero (never a silent pure-Python fallback); ``--check``
imports the tree and fails unless every listed module came from its compiled file.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMPILED = (
    # the kernel: the decision loop, the bus, effects (not the state: a dataclass whose
    # ClassVar mypyc's dataclasses take for a field, and a game subclasses it)
    "mnrules/core/engine.py",
    "mnrules/hooks/bus.py",
    "mnrules/core/effects.py",
    "mnrules/bots/random_bot.py",
    # the effect language's compiler: the closures a card's script becomes run natively
    "mnrules/language/compiler.py",
    # Mare Nostrum's rules (the package mare_nostrum); its state too, a non-native class
    # (it subclasses the kernel's Python one), so that the rules' small questions of it
    # (count, gain, base_good) run natively
    "plugins/mare_nostrum/state.py",
    "plugins/mare_nostrum/build.py",
    "plugins/mare_nostrum/payment.py",
    "plugins/mare_nostrum/control.py",
    "plugins/mare_nostrum/supply.py",
    "plugins/mare_nostrum/geometry.py",
    "plugins/mare_nostrum/production.py",
    "plugins/mare_nostrum/trade.py",
    "plugins/mare_nostrum/military.py",
    "plugins/mare_nostrum/battle.py",
    "plugins/mare_nostrum/conquest.py",
    "plugins/mare_nostrum/tracks.py",
    "plugins/mare_nostrum/api.py",
    "plugins/mare_nostrum/words.py",
    "plugins/mare_nostrum/victory.py",
    "plugins/mare_nostrum/claims.py",
    # the bots
    "plugins/mare_nostrum/bots/common.py",
    "plugins/mare_nostrum/bots/evaluate.py",
    "plugins/mare_nostrum/bots/heuristic.py",
    "plugins/mare_nostrum/bots/threat.py",
    "plugins/mare_nostrum/bots/profiles.py",
)
"""The compiled modules, as paths from the tree's root (their module names follow: a
game's folder ``plugins/<game>/`` is its package ``<game>``, as setup.py installs it and
as mypyc names it, ``plugins/`` being no package)."""

SKIP = {".git", "build", "dist", "__pycache__", ".mypy_cache", ".pytest_cache",
        ".hypothesis", ".ruff_cache"}


def module_name(path: str) -> str:
    """``mnrules/core/engine.py`` -> ``mnrules.core.engine``, ``plugins/mare_nostrum/x.py`` ->
    ``mare_nostrum.x``."""
    return path.removeprefix("plugins/").removesuffix(".py").replace("/", ".")


def extensions(tree: Path) -> list[Path]:
    """The compiled files in ``tree`` (the modules' and mypyc's shared library)."""
    found = []
    for folder in (tree / "mnrules", tree / "plugins", tree):
        if folder.is_dir():
            found += [p for p in folder.rglob("*.so") if "build" not in p.parts]
            found += [p for p in folder.rglob("*.pyd") if "build" not in p.parts]
    top = [p for p in tree.glob("*__mypyc*") if p.is_file()]
    return sorted(set(found) | set(top))


def build_inplace(tree: Path) -> None:
    """Compile the listed modules of ``tree`` next to their sources (setup.py's hook)."""
    env = dict(os.environ, MNRULES_COMPILE="1")
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"],
                          cwd=tree, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"the compiled core did not build (exit {done.returncode})")


def copy_tree(dest: Path) -> None:
    if dest.exists():
        raise SystemExit(f"{dest} exists: give a new folder")
    shutil.copytree(ROOT, dest, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n in SKIP or
                                             n.endswith((".so", ".pyd"))])


def check(tree: Path) -> None:
    """Fail unless, under ``tree``, every listed module is imported from its compiled file."""
    code = ("import importlib, sys\n"
            f"names = {[module_name(p) for p in COMPILED]!r}\n"
            "bad = [n for n in names if not importlib.import_module(n).__file__"
            ".endswith(('.so', '.pyd'))]\n"
            "print('\\n'.join(bad)); sys.exit(1 if bad else 0)\n")
    # the games' packages are the folders of plugins/ (the data they read is not imported)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(tree), str(tree / "plugins"))))
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=tree,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"not compiled under {tree}: {done.stdout.split()}\n{done.stderr}")
    print(f"all {len(COMPILED)} modules compiled under {tree}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    how = ap.add_mutually_exclusive_group(required=True)
    how.add_argument("--copy", type=Path, metavar="DIR")
    how.add_argument("--inplace", action="store_true")
    how.add_argument("--clean", nargs="?", const=ROOT, type=Path, metavar="DIR")
    how.add_argument("--check", nargs="?", const=ROOT, type=Path, metavar="DIR")
    how.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        print("\n".join(module_name(p) for p in COMPILED))
    elif args.clean is not None:
        for path in extensions(args.clean.resolve()):
            path.unlink()
            print(f"removed {path}")
        shutil.rmtree(args.clean / "build", ignore_errors=True)
    elif args.check is not None:
        check(args.check.resolve())
    else:
        tree = ROOT
        if args.copy is not None:
            tree = args.copy.resolve()
            copy_tree(tree)
        build_inplace(tree)
        check(tree)


if __name__ == "__main__":
    main()
