"""A YAML structure error is told as what to fix, at its line, with the line and a caret
(issue 13, item 3): in every data file, since all are read by yamlsource."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnrules.content.yamlsource import SourceError, caret_block, load_yaml
from mnrules.frontends.cli import main


def error_of(text: str, name: str = "f.yaml") -> SourceError:
    with pytest.raises(SourceError) as caught:
        load_yaml(name, text)
    return caught.value


def shown(err: SourceError) -> tuple[str, str, str]:
    """The message's three lines: the sentence, the source line, the caret line."""
    head, source, caret = str(err).split("\n")
    return head, source, caret


def caret_under(err: SourceError) -> str:
    """The character the caret points at."""
    _, source, caret = shown(err)
    return source[caret.index("^")]


@pytest.mark.parametrize(("text", "line", "column", "says", "under"), [
    # a key indented under a key that has a value
    ("id: x\nkind: hero\n  names: {en: X}\n", 3, 8, "indent this line", ":"),
    # a tab used to indent
    ("id: t\nnames:\n\ten: X\n", 3, 1, "a tab: YAML indents with spaces only", "→"),
    # a flow mapping never closed: the caret is on its '{', where it was opened
    ("id: x\nnames: {en: X\nkind: hero\n", 2, 8, "this '{' is not closed", "{"),
    ("a: [1, 2\nb: 3\n", 1, 4, "this '[' is not closed", "["),
    ('a: "abc\nb: 3\n', 1, 4, "this quote is never closed", '"'),
    # a list item less indented than its list
    ("a:\n  - 1\n - 2\n", 3, 2, "indentation fits no key above it", "-"),
    ("a: 1\nb\nc: 2\n", 2, 1, "a key without ':'", "b"),
    ("a: *nope\n", 1, 4, "names no anchor", "*"),
    ("a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key 'a' (first given on line 1)", "a"),
    ("a: \x00b\n", 1, 4, "U+0000 may not appear", "·"),
])
def test_a_structure_error_names_the_place_and_shows_a_caret(
        text: str, line: int, column: int, says: str, under: str) -> None:
    err = error_of(text)
    head, _, _ = shown(err)
    assert head.startswith(f"f.yaml:{line}:{column}: ")
    assert says in head
    assert (err.line, err.column) == (line, column)
    assert caret_under(err) == under


def test_pyyamls_own_sentence_is_kept_after_the_advice() -> None:
    head, _, _ = shown(error_of("a: [1, 2\nb: 3\n"))
    assert "(YAML: while parsing a flow sequence; did not find expected ',' or ']')" in head


def test_a_binary_file_is_refused_at_its_first_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "board.yaml"
    path.write_bytes(b"a: 1\nb: \x89PNG\x00\x00\n")
    with pytest.raises(SourceError) as caught:
        load_yaml(path)
    err = caught.value
    assert (err.line, err.column) == (2, 4)
    assert "a binary file, not text (byte 0x89" in str(err)
    assert "Traceback" not in str(err)


def test_an_empty_file_is_no_data_and_no_error(tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    path.write_text("", encoding="utf-8")
    assert load_yaml(path).data is None


def test_a_long_line_is_cut_around_the_caret() -> None:
    block = caret_block("x" * 500 + ": [" + "y" * 500, 503)
    _, source, caret = block.split("\n")
    assert len(source.strip()) <= 102
    assert source[caret.index("^")] == "["


def test_the_error_survives_pickling_with_its_line() -> None:
    err = error_of("a: [1\nb: 2\n")
    again = pickle.loads(pickle.dumps(err))
    assert str(again) == str(err)


def test_a_pack_with_a_bad_indent_is_refused_with_a_caret(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = tmp_path / "pack.yaml"
    pack.write_text("extends: en\nparams:\n  hit_divisor: 4\n    dice_faces: 6\n",
                    encoding="utf-8")
    assert main(["editions", "show", str(pack)]) == 2
    err = capsys.readouterr().err
    assert f"{pack}:4:" in err and "^" in err and "Traceback" not in err


def test_a_card_with_an_unclosed_bracket_is_refused_with_a_caret(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card = tmp_path / "hero.yaml"
    card.write_text("id: hero\nkind: hero\nnames: {en: Hero\n", encoding="utf-8")
    assert main(["cards", "check", "--edition", "en", str(card)]) == 1
    err = capsys.readouterr().err
    assert f"{card}:3:8: this '{{' is not closed" in err
    assert "    names: {en: Hero\n           ^" in err


# -- any text: data, or one error at a place, its caret under the column ---------------------
YAML_BITS = ["a: 1", "b:", "  - x", "- y", "c: [1, 2", "d: {e: f", '"g', "'h", "\t", ": :",
             "&a i", "*a", "<<: *a", "!!python/object:x y", "  ", "k: |", "   text", "#",
             "? k", "---", "...", "%YAML 1.1", "é: ü", "\x00", "\x85", "{", "]", ","]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(YAML_BITS), st.text(max_size=8)), max_size=12))
def test_any_text_loads_or_fails_at_a_shown_place(parts: list[str]) -> None:
    text = "\n".join(parts)
    try:
        load_yaml("f.yaml", text)
    except SourceError as err:
        message = str(err)
        assert message.startswith("f.yaml")
        assert "Traceback" not in message
        if err.source is not None and err.column is not None:
            head, source, caret = message.split("\n")
            assert caret.strip() == "^"
            assert caret.index("^") <= len(source)
            assert head.startswith(f"f.yaml:{err.line}:{err.column}: ")


def test_lines_are_counted_as_yaml_counts_them() -> None:
    """PyYAML ends a line at CR, NEL, LS and PS too: the line shown is the one it means."""
    for newline in ("\r\n", "\r", "\x85", "\u2028"):
        err = error_of(f"a: 1{newline}b: [1, 2{newline}c: 3{newline}")
        _, source, _ = shown(err)
        assert source.strip() == "b: [1, 2" and err.line == 2
