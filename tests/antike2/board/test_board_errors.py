"""Every fault of an Antike II board file is refused at its file:line:col with its key, all
faults at once, a misspelt name with its nearest known name; hostile files included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from antike2.board import BoardError, default_board_path, load
from mnrules.content.yamlsource import MAX_BYTES, MAX_VALUES
from mnrules.errors import DataFileError, MnrulesError
from mnrules.frontends.cli import main

MN_TEXT = default_board_path("mare_nostrum").read_text(encoding="utf-8")
ORIENT_TEXT = default_board_path("orient").read_text(encoding="utf-8")


def changed(old: str, new: str, text: str = MN_TEXT) -> tuple[str, int]:
    """The board text with old replaced by new (once), and the line new starts on. A new
    ending in STOP also adds a border between the first two regions it declares."""
    assert text.count(old) >= 1, old
    at = text.index(old)
    if new.endswith("STOP"):
        names = re.findall(r"^  (\w+):", new, re.M)
        new = new[:-4]
        text = text.replace("borders:\n", f"borders:\n  - [{names[0]}, {names[1]}, red]\n", 1)
    return text.replace(old, new, 1), text.count("\n", 0, at) + 1


def refused(tmp_path: Path, text: str) -> str:
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load(path)
    return str(err.value)


CASES: list[tuple[str, str, str, int, str, str]] = [
    # name, old, new, line offset of the fault within new, key, message
    ("a misspelt region in a border", "  - [ROMA, ANCONA, red]", "  - [ROMA, ANKONA, red]",
     0, r"borders\[\d+\]\[1\]", "unknown area 'ANKONA'; did you mean 'ANCONA'?"),
    ("a border listed twice", "  - [ROMA, ANCONA, red]\n",
     "  - [ROMA, ANCONA, red]\n  - [ANCONA, ROMA, combined]\n", 1, r"borders\[\d+\]",
     "the border ANCONA-ROMA is listed twice (first on line"),
    ("a region without a border", "regions:\n",
     "regions:\n  THULE: {city: iron, provenance: \"reconstructed: the edge\"}\n", 1,
     r"regions\.THULE", "THULE has no border: list it under borders"),
    ("an unreachable pair of islands", "regions:\n",
     "regions:\n  ISLA: {city: iron, provenance: \"reconstructed: x\"}\n"
     "  ISLB: {city: gold, provenance: \"reconstructed: x\"}\nSTOP", 1, r"regions\.ISLA",
     "ISLA cannot be reached from the rest of the map (67 areas)"),
    ("a start set of two marble cities", "    yellow: [ROMA, NEAPOLIS, SYRACUS]",
     "    yellow: [ROMA, LUNA, SYRACUS]", 0, r"start\.3\.yellow",
     "yellow must start with one marble, one iron and one gold city, got ROMA (marble), "
     "LUNA (marble), SYRACUS (gold)"),
    ("a start set of two regions", "    yellow: [ROMA, NEAPOLIS, SYRACUS]",
     "    yellow: [ROMA, NEAPOLIS]", 0, r"start\.3\.yellow", "(2 regions)"),
    ("a start region of two nations", "    blue: [PELLA, SPARTA, ATHENAE]",
     "    blue: [ROMA, SPARTA, ATHENAE]", 0, r"start\.3\.blue\[0\]",
     "ROMA is already yellow's start region"),
    ("a start region with a neutral temple", "    yellow: [ROMA, NEAPOLIS, SYRACUS]",
     "    yellow: [ANCONA, NEAPOLIS, SYRACUS]", 0, r"start\.3\.yellow\[0\]",
     "ANCONA holds a neutral temple: no nation starts there"),
    ("a start region that is a sea", "    yellow: [ROMA, NEAPOLIS, SYRACUS]",
     "    yellow: [MARE_TYRRHENUM, NEAPOLIS, SYRACUS]", 0, r"start\.3\.yellow\[0\]",
     "'MARE_TYRRHENUM' is a sea, not a land region"),
    ("an unknown nation in a start set", "    green: [EMERITA, NUMANTIA, CARTHAGO_NOVA]",
     "    gren: [EMERITA, NUMANTIA, CARTHAGO_NOVA]", 0, r"start\.3\.gren",
     "unknown nation 'gren': not in this side's nations; did you mean 'green'?"),
    ("an unknown nation in the list", "nations: [yellow, red,", "nations: [yellow, purple,",
     0, r"nations\[1\]", "unknown nation 'purple'; the nations are yellow, red"),
    ("a missing player count", "  3:\n", "  7:\n", 0, r"start\.7",
     "a side seats 3 to 6 players, not a whole number (7)"),
    ("a universal site on Mare Nostrum", "  CIRTA: {city: iron,", "  CIRTA: {city: universal,",
     0, r"regions\.CIRTA\.city", "universal city sites are the Orient side's alone"),
    ("a misspelt resource", "  CIRTA: {city: iron,", "  CIRTA: {city: irn,", 0,
     r"regions\.CIRTA\.city", "expected one of marble, iron, gold, universal, got text 'irn'; "
     "did you mean 'iron'?"),
    ("a misspelt key", "  MARE_IONIUM: {galley_symbol: true,",
     "  MARE_IONIUM: {galley_symbl: true,", 0, r"seas\.MARE_IONIUM\.galley_symbl",
     "unknown key 'galley_symbl'; did you mean 'galley_symbol'?"),
    ("a misspelt border kind", "  - [ROMA, ANCONA, red]", "  - [ROMA, ANCONA, rde]", 0,
     r"borders\[\d+\]\[2\]", "did you mean 'red'?"),
    ("a red border into a sea", "  - [NEAPOLIS, MARE_TYRRHENUM, blue]",
     "  - [NEAPOLIS, MARE_TYRRHENUM, red]", 0, r"borders\[\d+\]\[2\]",
     "a border between a region and a sea is crossed by galleys alone: write blue, not red"),
    ("a provenance without its kind", "provenance: \"reconstructed: Corsica\"",
     "provenance: \"Corsica\"", 0, r"regions\.ALERIA\.provenance",
     "expected 'book: <where the rulebook says it>' or 'reconstructed: <why>'"),
    ("a temple that is not neutral", "  ANCONA: {city: marble, temple: neutral,",
     "  ANCONA: {city: marble, temple: yellow,", 0, r"regions\.ANCONA\.temple",
     "expected 'neutral'"),
    ("a wrong format", "format: mnrules-antike2-board/1", "format: mnrules-board/1", 0,
     r"format", "expected 'mnrules-antike2-board/1'"),
    ("a region that is also a sea", "  PALMA: {city: marble,", "  MARE_IONIUM: {city: marble,",
     0, r"seas\.MARE_IONIUM", "'MARE_IONIUM' is both a region and a sea"),
    ("names that differ in case", "  PALMA: {city: marble,", "  Roma: {city: marble,", 0,
     r"regions\.Roma", "'Roma' looks like 'ROMA'"),
]


@pytest.mark.parametrize(("name", "old", "new", "offset", "key", "message"), CASES,
                         ids=[c[0] for c in CASES])
def test_a_fault_is_refused_at_its_line_and_key(tmp_path: Path, name: str, old: str,
                                                new: str, offset: int, key: str,
                                                message: str) -> None:
    text, line = changed(old, new)
    error = refused(tmp_path, text)
    pattern = rf"{re.escape(str(tmp_path / 'board.yaml'))}:(\d+):\d+: {key}: "
    found = [m for m in re.finditer(pattern, error)]
    assert found, error
    assert message in error, error
    if name not in ("a region that is also a sea", "an unreachable pair of islands"):
        assert int(found[0].group(1)) == line + offset, error


def test_every_fault_is_reported_at_once(tmp_path: Path) -> None:
    text, _ = changed("  - [ROMA, ANCONA, red]", "  - [ROMA, ANKONA, red]")
    text, _ = changed("  CIRTA: {city: iron,", "  CIRTA: {city: irn,", text)
    error = refused(tmp_path, text)
    assert "'ANKONA'" in error and "'irn'" in error and len(error.splitlines()) == 2


def test_a_missing_start_count_names_the_count(tmp_path: Path) -> None:
    text = re.sub(r"\n  3:\n(    .*\n)+", "\n", MN_TEXT)
    assert "missing start for 3 players" in refused(tmp_path, text)


def test_an_orient_fault_too(tmp_path: Path) -> None:
    text, line = changed("  - [ATTALIA, PAPHOS, blue]", "  - [ATTALIA, PAPHSO, blue]",
                         ORIENT_TEXT)
    error = refused(tmp_path, text)
    assert f"board.yaml:{line}:" in error and "did you mean 'PAPHOS'?" in error


def test_map_check_prints_the_faults_and_exits_1(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    text, line = changed("  - [ROMA, ANCONA, red]", "  - [ROMA, ANKONA, red]")
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["map", "check", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:{line}:12: borders[" in err and "Traceback" not in err


# --- hostile files -------------------------------------------------------------------------
def test_a_huge_file_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = tmp_path / "board.yaml"
    path.write_text(MN_TEXT + "#" * (MAX_BYTES + 1), encoding="utf-8")
    with pytest.raises(MnrulesError, match="too large"):
        load(path)


def test_an_alias_bomb_is_refused(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 7)]
    path = tmp_path / "board.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(MnrulesError, match=f"holds more than {MAX_VALUES} values"):
        load(path)


def test_aliases_that_repeat_an_entry_are_read_as_written(tmp_path: Path) -> None:
    text, _ = changed("  ALERIA: {city: marble, at: [9.1, 42.2],",
                      "  ALERIA: &isle {city: marble, at: [9.1, 42.2],")
    text, _ = changed("  PALMA: {city: marble, at: [2.9, 39.6], provenance: "
                      "\"reconstructed: the Balearic Islands\"}", "  PALMA: *isle", text)
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    board = load(path)
    assert board.regions["PALMA"].provenance == board.regions["ALERIA"].provenance


def test_a_duplicate_region_is_refused_at_its_line(tmp_path: Path) -> None:
    text, line = changed("  PALMA: {city: marble,", "  ROMA: {city: marble,")
    with pytest.raises(MnrulesError, match=rf"board.yaml:{line}:\d+: .*duplicate key 'ROMA'"):
        load(tmp_path / "board.yaml", text=text)


def test_a_file_that_is_not_a_mapping(tmp_path: Path) -> None:
    assert "expected a mapping" in refused(tmp_path, "- just\n- a list\n")


def test_a_board_error_is_a_data_file_error() -> None:
    assert issubclass(BoardError, DataFileError)


# --- a pack's patch of the board ---------------------------------------------------------
def test_a_variant_patches_one_fact_of_the_board(tmp_path: Path) -> None:
    from mnrules import load_ruleset

    variant = tmp_path / "v.yaml"
    variant.write_text("extends: antike2\npatch:\n  board:\n    regions.ANCONA.city: iron\n",
                       encoding="utf-8")
    board = load_ruleset("antike2", variant=variant).board
    assert board.regions["ANCONA"].city == "iron"
    assert board.regions["ANCONA"].neutral_temple


def test_a_bad_patched_value_is_refused_at_the_patchs_line(tmp_path: Path) -> None:
    from mnrules import load_ruleset

    variant = tmp_path / "v.yaml"
    variant.write_text("extends: antike2\npatch:\n  board:\n    regions.ANCONA.city: irn\n",
                       encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(
            f"{variant}:4:5: regions.ANCONA.city: expected one of marble, iron, gold, "
            "universal, got text 'irn'; did you mean 'iron'? (as this file patches "
            "mare_nostrum.yaml)")):
        load_ruleset("antike2", variant=variant)


def test_thousands_of_faults_are_cut_short_and_guessed_at_sparingly(tmp_path: Path) -> None:
    """A hostile file naming thousands of unknown areas: every fault is kept, the message
    shows the first MAX_SHOWN, and only MAX_HINTS names are compared with every area."""
    from antike2.board import MAX_HINTS, MAX_SHOWN

    lines = ["format: mnrules-antike2-board/1", "side: orient", "nations: [red]",
             "start: {}", "seas: {}", "regions:"]
    lines += [f"  R{i:04d}: {{city: iron, provenance: 'reconstructed: x'}}"
              for i in range(1000)]
    lines += ["borders:"] + [f"  - [R{i % 1000:04d}, R{i % 1000:04d}X, red]"
                             for i in range(3000)]
    with pytest.raises(BoardError) as err:
        load(tmp_path / "h.yaml", text="\n".join(lines) + "\n")
    shown = str(err.value).splitlines()
    assert len(shown) == MAX_SHOWN + 1
    assert shown[-1] == f"... and {len(err.value.problems) - MAX_SHOWN} more problems"
    guesses = [p for p in err.value.problems if "did you mean" in p.message]
    assert len(guesses) == MAX_HINTS
    assert "unknown area 'R0000X'; did you mean 'R0000'?" in {p.message for p in guesses}


# --- any damage is a clean refusal ---------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_damaged_board_loads_or_is_refused_cleanly(data: st.DataObject) -> None:
    """Delete, repeat or garble a line of a shipped board: the loader either reads a
    sound board or raises a MnrulesError naming the file, never anything else."""
    text = data.draw(st.sampled_from([MN_TEXT, ORIENT_TEXT]))
    lines = text.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    how = data.draw(st.sampled_from(["delete", "repeat", "garble"]))
    if how == "delete":
        del lines[i]
    elif how == "repeat":
        lines.insert(i, lines[i])
    else:
        line = lines[i]
        j = data.draw(st.integers(0, max(len(line) - 1, 0)))
        char = data.draw(st.sampled_from(list("x:[]{},-#&*! \"'\t")))
        lines[i] = line[:j] + char + line[j + 1:]
    try:
        board = load("damaged.yaml", text="\n".join(lines) + "\n")
    except MnrulesError as exc:
        assert str(exc).startswith("damaged.yaml"), str(exc)
    else:
        assert board.regions and board.seas and len(board.start(6)) == 6
