"""The tests test the code they were collected with.

The issue this answers: the README once installed mnrules non-editable, so ``pytest``
in a checkout imported site-packages, and a rule broken on purpose in the checkout still
passed its test. "Imports the checkout" cannot be asserted as "``mnrules.__file__`` is
under the repository": CI installs a regular wheel into a fresh venv and runs these very
tests, where the imported files are site-packages' copies, as they should be. What holds
in both is that every module and data file the tests import is byte for byte the one in
the checkout they were collected from (the same file under an editable install, an
identical copy under a fresh regular one, and a stale install fails here, naming the
file). An editable install is then also checked to import the checkout's own files.
"""

from __future__ import annotations

import importlib.util
import json
from importlib import metadata
from pathlib import Path

import pytest

import mnrules
from mnrules.content import games

ROOT = Path(__file__).resolve().parents[2]
GAME_FOLDERS = sorted(d.name for d in (ROOT / "plugins").iterdir()
                      if (d / "__init__.py").is_file())


def _sources() -> list[tuple[str, Path]]:
    """(module name, checkout file) for the kernel and every game folder."""
    found = []
    for path in sorted((ROOT / "mnrules").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found.append((".".join(parts[:-1] if parts[-1] == "__init__" else parts), path))
    for game in GAME_FOLDERS:
        for path in sorted((ROOT / "plugins" / game).rglob("*.py")):
            parts = path.relative_to(ROOT / "plugins").with_suffix("").parts
            found.append((".".join(parts[:-1] if parts[-1] == "__init__" else parts), path))
    return found


def test_every_game_folder_is_an_installed_game_of_that_name() -> None:
    """A folder of plugins/ is a game only once installed (setup.py declares it in the
    entry points): a new folder without a re-install would test nothing of it."""
    installed = games.installed()
    missing = [g for g in GAME_FOLDERS if g not in installed]
    assert missing == [], f"not installed: {missing}: run pip install -e '.[dev]' again"
    assert {g: installed[g].package for g in GAME_FOLDERS} == {g: g for g in GAME_FOLDERS}


def test_the_modules_imported_are_the_checkouts() -> None:
    stale = []
    for name, path in _sources():
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin is None or not origin.endswith(".py"):
            continue            # a compiled module (tests/kernel/bus/test_compiled.py judges those)
        if Path(origin).read_bytes() != path.read_bytes():
            stale.append(f"{name}: {origin} is not {path}")
    assert stale == [], "the tests import another copy of the code: " + "; ".join(stale[:5])


@pytest.mark.parametrize("game", GAME_FOLDERS)
def test_the_data_read_is_the_checkouts(game: str) -> None:
    for kind, folder in (("editions", games.editions_dir(game)),
                         ("cards", games.cards_dir(game))):
        mine = ROOT / kind / game
        if not mine.is_dir():
            continue
        assert folder is not None, f"{game}.{kind} is not installed"
        want = {p.relative_to(mine): p.read_bytes() for p in mine.rglob("*.yaml")}
        got = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*.yaml")}
        assert got == want, f"{folder} differs from {mine}"


def _editable() -> bool:
    """Whether pip installed mnrules editable (its dist-info's direct_url.json; the
    checkout's own build leftover, mnrules.egg-info, found first from the checkout's
    folder, says nothing of how it was installed)."""
    for dist in metadata.distributions(name="mnrules"):
        text = dist.read_text("direct_url.json")
        if text:
            return bool(json.loads(text).get("dir_info", {}).get("editable"))
    return False


@pytest.mark.skipif(not _editable(), reason="a regular install (CI's): its copies are "
                    "checked above")
def test_an_editable_install_imports_this_checkout() -> None:
    import mare_nostrum

    assert Path(mnrules.__file__).resolve().is_relative_to(ROOT)
    assert Path(str(mare_nostrum.__file__)).resolve().is_relative_to(ROOT / "plugins")
    folder = games.editions_dir("mare_nostrum")
    assert folder is not None and folder.resolve() == ROOT / "editions" / "mare_nostrum"
