"""setuptools' hook for the optional compiled core (the project is described in
pyproject.toml): with MNRULES_COMPILE=1 the modules tools/build_compiled.py lists are
compiled by mypyc, else nothing is (the default install is pure Python). A compiled
build needs mypy installed (``pip install --no-build-isolation`` in an environment that
has it); if it fails, the install fails."""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from setuptools import setup

ext_modules = []
if os.environ.get("MNRULES_COMPILE", "") not in ("", "0"):
    from mypyc.build import mypycify

    here = Path(__file__).resolve().parent
    listed = runpy.run_path(str(here / "tools" / "build_compiled.py"))["COMPILED"]
    ext_modules = mypycify(list(listed), opt_level="3")

setup(ext_modules=ext_modules)
