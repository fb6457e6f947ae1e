"""setuptools' hook (the project is described in pyproject.toml): what the folders hold
is found here, never listed by hand.

* The kernel is the ``mnrules`` package and its sub-packages, with the grammar of the
  effect language (``grammar/``) installed as ``mnrules.grammar``.
* Each folder of ``plugins/`` with an ``__init__.py`` is a game: ``plugins/<game>/`` is
  the package ``<game>``, its ``cards/<game>/`` and ``editions/<game>/`` install as
  ``<game>.cards`` and ``<game>.editions``, and it is declared in the entry-point group
  ``mnrules.games`` (the one way the kernel finds a game, bundled or not). A new game is
  a new folder: no file here changes (an editable install is re-run to declare it).
* With MNRULES_COMPILE=1 the modules tools/build_compiled.py lists are compiled by
  mypyc, else nothing is (the default install is pure Python). A compiled build needs
  mypy installed (``pip install --no-build-isolation`` in an environment that has it);
  if it fails, the install fails.
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from setuptools import find_namespace_packages, find_packages, setup

HERE = Path(__file__).resolve().parent
# setuptools wants package folders relative to this file, with forward slashes
os.chdir(HERE)


def games() -> list[str]:
    return sorted(d.name for d in Path("plugins").iterdir()
                  if (d / "__init__.py").is_file() and d.name.isidentifier())


packages = [*find_packages(include=["mnrules", "mnrules.*"]), "mnrules.grammar"]
package_dir = {"mnrules.grammar": "grammar"}
package_data = {"mnrules": ["py.typed"], "mnrules.frontends.web": ["static/*"],
                "mnrules.grammar": ["*.lark"]}
for game in games():
    package_dir[game] = f"plugins/{game}"
    # a game's sub-packages may be namespace ones (Mare Nostrum's bots/ has no __init__)
    subs = find_namespace_packages(f"plugins/{game}", exclude=["__pycache__", "*.__pycache__"])
    packages += [game, *(f"{game}.{p}" for p in subs)]
    package_data[game] = ["py.typed", "*.yaml"]
    for data in ("cards", "editions"):
        if (Path(data) / game / "__init__.py").is_file():
            package_dir[f"{game}.{data}"] = f"{data}/{game}"
            packages.append(f"{game}.{data}")
            package_data[f"{game}.{data}"] = ["**/*.yaml"]

DEFAULT_GAME = "mare_nostrum"

ext_modules = []
if os.environ.get("MNRULES_COMPILE", "") not in ("", "0"):
    from mypyc.build import mypycify

    listed = runpy.run_path(str(HERE / "tools" / "build_compiled.py"))["COMPILED"]
    ext_modules = mypycify(list(listed), opt_level="3")

setup(packages=packages, package_dir=package_dir, package_data=package_data,
      entry_points={"console_scripts": ["mnrules = mnrules.frontends.cli:main"],
                    "mnrules.games": [f"{g} = {g}" for g in games()],
                    # the game a command plays when it names no pack (this distribution
                    # bundles two: the kernel itself prefers none)
                    "mnrules.default_game": [f"{DEFAULT_GAME} = {DEFAULT_GAME}"]},
      ext_modules=ext_modules)
