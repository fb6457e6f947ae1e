"""A game from its own distribution: tests/packaging/pig/ (Pig, a dice game, with its
own pyproject.toml and nothing of this repository naming it) is built and installed by
pip into a fresh virtual environment, then listed by ``mnrules editions list`` and
played by ``play``, ``simulate`` and ``serve`` there (and with a variant's rule plugin),
with no file of the repository changed.

The venv sees this environment's packages (mnrules as the tests import it, pip,
setuptools) through a .pth file that adds its site directories, not through
``--system-site-packages``: made from a venv, that flag would show the base
interpreter's packages (another mnrules, or none), not those of the environment under
test. The game is installed with ``--no-deps --no-build-isolation --no-index``: nothing
is fetched, and nothing is installed outside the temporary venv.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import socket
import subprocess
import sys
import time
import urllib.request
import venv
from pathlib import Path

import pytest

PIG = Path(__file__).resolve().parent / "pig"


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a fresh venv with the pig distribution installed in it."""
    root = tmp_path_factory.mktemp("outside")
    venv.EnvBuilder(with_pip=False).create(root / "venv")
    exe = root / "venv" / "bin" / "python"
    found = subprocess.run([exe, "-c", "import site; print(site.getsitepackages()[0])"],
                           capture_output=True, text=True, check=True).stdout.strip()
    ours = [*site.getsitepackages(), site.getusersitepackages()]
    (Path(found) / "outer.pth").write_text(
        "".join(f"import site; site.addsitedir({d!r})\n" for d in ours if Path(d).is_dir()),
        encoding="utf-8")
    source = root / "pig"
    shutil.copytree(PIG, source, ignore=shutil.ignore_patterns("build", "*.egg-info",
                                                               "__pycache__"))
    done = subprocess.run([exe, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-build-isolation", "--no-index", str(source)],
                          capture_output=True, text=True, cwd=root, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return exe


def _mnrules(python: Path, *args: str) -> str:
    done = subprocess.run([python, "-m", "mnrules", *args], capture_output=True, text=True,
                          cwd=python.parents[2], check=False, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def test_the_installed_game_is_its_own_distributions(python: Path) -> None:
    code = ("from mnrules import games; g = games.installed()['pig']; "
            "import mnrules, mnrules_pig; "
            "print(g.distribution, mnrules_pig.__file__, mnrules.__file__)")
    dist, pig, kernel = subprocess.run([python, "-c", code], capture_output=True, text=True,
                                       cwd=python.parents[2], check=True).stdout.split()
    assert dist == "mnrules-pig"
    assert Path(pig).is_relative_to(python.parents[1])          # the new venv's own
    assert Path(kernel).resolve() == Path(sys.modules["mnrules"].__file__ or "").resolve()


def test_editions_list_names_the_outside_game(python: Path) -> None:
    out = _mnrules(python, "editions", "list")
    assert "Pig (first to 50 points) [pig]" in out
    assert "[mare_nostrum]" in out                               # and the bundled ones


def test_play_and_simulate_play_the_outside_game(python: Path) -> None:
    out = _mnrules(python, "play", "--edition", "pig", "--players", "2", "--seed", "3")
    assert "Game over" in out and "the target reached" in out
    out = _mnrules(python, "simulate", "--edition", "pig", "--games", "10", "--players",
                   "3")
    assert "10 of 10 games ended by a victory" in out


def test_a_variant_adds_a_rule_plugin_to_the_outside_game(python: Path) -> None:
    """docs/writing-a-plugin.md's example: the installed pack and a plugin file beside
    a variant, which adds a phase and a parameter."""
    variant = str(PIG / "variants" / "catch_up.yaml")
    out = _mnrules(python, "editions", "show", "pig", "--variant", variant)
    assert "phases: turn, catch_up" in out and "catch_up = 3" in out
    out = _mnrules(python, "play", "--edition", "pig", "--variant", variant, "--players",
                   "2", "--seed", "3")
    assert "Game over" in out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_offers_the_outside_game(python: Path) -> None:
    pytest.importorskip("uvicorn")
    port = _free_port()
    server = subprocess.Popen([python, "-m", "mnrules", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              cwd=python.parents[2], env=dict(os.environ))
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/editions",
                                            timeout=5) as reply:
                    editions = json.loads(reply.read())
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    out = server.stdout.read().decode() if server.stdout else ""
                    pytest.fail(f"serve did not answer: {out[-2000:]}")
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=10)
    found = editions.get("editions", editions) if isinstance(editions, dict) else editions
    assert any(e.get("id") == "pig" and e.get("game") == "pig" for e in found), editions
