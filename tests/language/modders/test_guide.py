"""The modder's guide runs: its tutorial and its second chapter (a hero that needs a new
word, added in a plugin beside the card) are read from docs/effect-language.md itself,
block by block, so the guide cannot drift from what the engine does.

Markers in the guide say what each block is: ``<!-- file: PATH -->`` a file of the mod,
``<!-- scenario: PATH -->`` a scenario file that must pass, ``<!-- mistake: PATH: "OLD"
-> "NEW" -->`` a mistake whose error message is the block (checked, then undone)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import ROOT
from mnrules import load_ruleset
from mnrules.errors import MnrulesError
from mnrules.frontends.cli import main
from mnrules.tools.scenario import run

GUIDE = ROOT / "docs" / "effect-language.md"
MARKER = re.compile(r"<!-- (file|scenario|mistake): (.+?) -->\s*\n\s*```[a-z]*\n(.*?)\n\s*```",
                    re.S)
QUOTED = r'"((?:[^"\\]|\\.)*)"'


def blocks() -> list[tuple[str, str, str]]:
    """(marker, argument, block text) in the guide's order, the block unindented."""
    out = []
    for m in MARKER.finditer(GUIDE.read_text(encoding="utf-8")):
        # the block is indented as the fence is (a list item's): take that off
        fence = len(m.group(0).split("```")[0].splitlines()[-1])
        text = "\n".join(x[fence:] for x in m.group(3).splitlines())
        out.append((m.group(1), m.group(2), text + "\n"))
    return out


def test_the_guide_has_both_chapters() -> None:
    found = [(kind, arg) for kind, arg, _ in blocks()]
    assert ("scenario", "mymod/scenarios/bastion.yaml") in found
    assert ("scenario", "mymod/scenarios/polyphemus.yaml") in found
    assert ("file", "mymod/words.py") in found
    assert sum(kind == "mistake" for kind, _ in found) >= 4


def _error(tmp_path: Path, path: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What the engine says of the mod as it now stands: a card's check, or the rule
    set's assembly with the plugin."""
    if path.endswith(".yaml"):
        main(["cards", "check", "--edition", "en", str(tmp_path / Path(path).parent)])
        return capsys.readouterr().err.replace(str(tmp_path) + "/", "")
    try:
        load_ruleset("en", variant=str(tmp_path / "mymod" / "variant.yaml"))
    except MnrulesError as exc:
        return str(exc)
    return ""


def test_the_tutorial_and_the_new_word_chapter_run(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    ran = 0
    for kind, arg, text in blocks():
        if kind == "file":
            f = tmp_path / arg
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(text, encoding="utf-8")
        elif kind == "scenario":
            f = tmp_path / arg
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(text, encoding="utf-8")
            outcomes = list(run(f))
            assert outcomes and all(o.ok for o in outcomes), [o.failures for o in outcomes]
            ran += 1
        else:
            found = re.fullmatch(rf"(\S+): {QUOTED} -> {QUOTED}", arg)
            assert found is not None, f"a mistake marker reads PATH: \"OLD\" -> \"NEW\": {arg}"
            path, old, new = found.groups()
            old, new = json.loads(f'"{old}"'), json.loads(f'"{new}"')
            f = tmp_path / path
            good = f.read_text(encoding="utf-8")
            assert old in good, f"the guide's mistake {old!r} is not in {path}"
            f.write_text(good.replace(old, new, 1), encoding="utf-8")
            said = _error(tmp_path, path, capsys)
            f.write_text(good, encoding="utf-8")
            assert text.strip() in said, said
    assert ran == 2
    capsys.readouterr()
    assert main(["cards", "check", "--edition", "en",
                 str(tmp_path / "mymod" / "cards"), "--variant",
                 str(tmp_path / "mymod" / "variant.yaml")]) == 0
