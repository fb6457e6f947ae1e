"""Where the bundled data lives: the top-level folders ``editions/``, ``cards/`` and
``grammar/`` install as ``mnrules.editions`` etc., so both a wheel install and a
source checkout find them."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def data_dir(name: str) -> Path:
    """The folder of bundled ``name`` data ("editions", "cards", "grammar"): the source
    checkout's own beside the ``mnrules`` imported, if it is one (an editable install's
    mapping may name another checkout's, as in a git worktree), else the installed
    package's."""
    if (_SOURCE_ROOT / name).is_dir() and (_SOURCE_ROOT / "pyproject.toml").is_file():
        return _SOURCE_ROOT / name
    try:
        found = resources.files(f"mnrules.{name}")
        path = Path(str(found))
        if path.is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return _SOURCE_ROOT / name
