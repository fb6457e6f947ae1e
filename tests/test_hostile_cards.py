"""Hostile card files and scripts: every bad input gets a MnrulesError naming its file,
line and column (a caret under scripts), never a traceback, a hang or a memory blow-up;
and the script parser is never unpickled from a folder other users may write to.

``hostile_cards(n, seed)`` makes ``n`` mutated card files (huge numbers, wrong types at
every key, unicode oddities, deep nesting, long lines, broken scripts); the suite runs a
few hundred of them, and a bigger count can be run by hand::

    python -c "import sys; sys.path[:0] = ['tests']; import test_hostile_cards as t; \\
               t.run_hostile(20000, seed=7)"
"""

from __future__ import annotations

import os
import pickle
import stat
import sys
from pathlib import Path

import pytest

from limits import Outcome, python
from mnrules.card_files import read_card
from mnrules.language.compiler import compile_card
from mnrules.language.syntax import parse_script
from mnrules.language.words import Vocabulary
from mnrules.resources import data_dir

ROOT = Path(__file__).resolve().parent.parent
HEAD = "id: testhero\nkind: hero\nnames: {en: Test}\n"


def _card(folder: Path, body: str, name: str = "c") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    f = folder / f"{name}.yaml"
    f.write_text(body, encoding="utf-8")
    return f


def _script_card(folder: Path, *rules: str) -> Path:
    """A card whose script (from line 5, column 3) holds ``rules``."""
    return _card(folder, HEAD + "effects: |\n" + "".join(f"  {r}\n" for r in rules))


def _compile(file: Path, vocab: Vocabulary) -> None:
    """What `mnrules cards check` does with one file."""
    card = read_card(file)
    if card.effects:
        parsed = parse_script(card.effects, str(file), *card.effects_at)
        compile_card(card, vocab, parsed, file.read_text(encoding="utf-8").splitlines())


def _refused_check(out: Outcome, *needles: str) -> None:
    """`mnrules cards check` reported the file bad: exit 1, no traceback, no hang."""
    assert not out.timed_out, f"hung: {out.stderr[-2000:]}"
    assert not out.traceback, out.stderr[-4000:]
    assert out.returncode == 1, (out.returncode, out.stdout[-2000:], out.stderr[-2000:])
    for needle in needles:
        assert needle in out.stderr, (needle, out.stderr[-2000:])


# -- item 1: the parser cache --------------------------------------------------------------
PLANT = """
import pickle, sys
class Boom:
    def __reduce__(self):
        return (open, (sys.argv[1], "w"))
sys.stdout.buffer.write(pickle.dumps(Boom()))
"""
BUILD = ("from mnrules.language.syntax import parser\n"
         "parser().parse('modify battle.total: add 1')\nprint('parsed')\n")


def _evil_pickle(marker: Path) -> bytes:
    """A pickle that, unpickled, creates ``marker`` (made outside this process, so the
    test's own modules are not involved)."""
    import subprocess
    return subprocess.run([sys.executable, "-c", PLANT, str(marker)], capture_output=True,
                          check=True).stdout


def _lark_cache_file(shared: Path) -> Path:
    """Where lark's ``cache=True`` keeps (and unpickles) a parser built with the options
    this project used: the shared temp folder, a name anyone can compute."""
    import getpass
    import hashlib

    import lark
    grammar = (data_dir("grammar") / "effects.lark").read_text(encoding="utf-8")
    options = {"parser": "lalr", "strict": True, "propagate_positions": True,
               "maybe_placeholders": False, "cache": True}
    s = grammar + "".join(k + str(v) for k, v in options.items()) + lark.__version__ \
        + str(sys.version_info[:2])
    digest = hashlib.sha256(s.encode("utf8")).hexdigest()
    major, minor = sys.version_info[:2]
    return shared / f".lark_cache_{getpass.getuser()}_{digest}_{major}_{minor}.tmp"


def _build_in_child(tmp_path: Path, cache_home: Path) -> Outcome:
    shared = tmp_path / "shared-tmp"
    shared.mkdir(exist_ok=True)
    return python(BUILD, timeout=120, env={"TMPDIR": str(shared),
                                           "XDG_CACHE_HOME": str(cache_home),
                                           "MNRULES_NO_CACHE": ""})


def test_a_parser_planted_in_the_shared_temp_folder_is_never_unpickled(tmp_path: Path
                                                                      ) -> None:
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    marker = tmp_path / "owned"
    evil = _evil_pickle(marker)
    # lark reads a first line, then unpickles: the payload runs if the file is opened
    _lark_cache_file(shared).write_bytes(b"planted\n" + evil)
    out = _build_in_child(tmp_path, tmp_path / "cache")
    assert "parsed" in out.stdout, out.stderr[-3000:]
    assert not marker.exists(), "a pickle from the shared temp folder was loaded"
    assert [f.name for f in shared.iterdir() if "lark" in f.name] == \
        [_lark_cache_file(shared).name], "the parser was written to the shared folder"


def test_the_private_parser_cache_is_used_only_when_it_is_private(tmp_path: Path) -> None:
    home = tmp_path / "cache"
    out = _build_in_child(tmp_path, home)          # builds and fills the cache
    assert "parsed" in out.stdout, out.stderr[-3000:]
    folder = home / "mnrules"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    cached = list(folder.glob("*.parser"))
    assert len(cached) == 1 and stat.S_IMODE(cached[0].stat().st_mode) == 0o600
    marker = tmp_path / "owned"
    evil = _evil_pickle(marker)
    for mode in (0o666, 0o600):       # others may write it; or a pickle that names code
        cached[0].write_bytes(evil)
        cached[0].chmod(mode)
        out = _build_in_child(tmp_path, home)
        assert "parsed" in out.stdout, out.stderr[-3000:]
        assert not marker.exists(), f"a planted cache (mode {mode:o}) was unpickled"
    folder.chmod(0o777)                                 # a folder others may write to
    cached = list(folder.glob("*.parser"))
    cached[0].write_bytes(evil)
    out = _build_in_child(tmp_path, home)
    assert "parsed" in out.stdout and not marker.exists()


def test_pickle_is_not_what_the_cache_holds() -> None:
    """The private cache holds plain data only: a pickle that names any class or
    function is refused by the loader, so even a planted file there runs nothing."""
    from mnrules.language import syntax
    with pytest.raises(pickle.UnpicklingError):
        import io
        syntax._PlainData(io.BytesIO(pickle.dumps(os.getcwd))).load()
