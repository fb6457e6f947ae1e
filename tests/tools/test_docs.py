"""The documentation stays true: the words reference is what the vocabulary says, and
the README's commands exist."""

from __future__ import annotations

from conftest import ROOT
from mnrules.content.ruleset import Ruleset, vocabulary
from mnrules.frontends.cli import build_parser, words_reference
from mnrules.language.words import KINDS


def test_words_reference_is_up_to_date(rules: Ruleset) -> None:
    text = (ROOT / "docs" / "words.md").read_text(encoding="utf-8").rstrip("\n")
    assert text == words_reference(vocabulary(rules), KINDS).rstrip("\n"), \
        "docs/words.md is stale: run `mnrules cards words --markdown > docs/words.md`"


def test_readme_commands_parse() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [ln.split("#")[0].strip() for ln in readme.splitlines()
             if ln.strip().startswith("mnrules ")]
    assert lines, "the README shows no mnrules command"
    parser = build_parser()
    for line in lines:
        parser.parse_args(line.split()[1:])
