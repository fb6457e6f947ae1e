"""`mnrules cards check` and `cards explain DIR` catch a card's mistakes before play
(issue 13, item 3): under the edition and variant the cards are for, every error with its
file, line, column and a caret; one bad card never hides the others."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import ROOT, moon_plugin
from mnrules.frontends.cli import main

CARDS = ROOT / "cards" / "mare_nostrum"


def card(folder: Path, name: str, effects: str | None = None, head: str = "",
         cid: str | None = None) -> Path:
    text = f"id: {cid or name}\nkind: hero\nnames: {{en: {name.title()}}}\n" + head
    if effects is not None:
        text += "effects: |\n" + "".join(f"  {line}\n" for line in effects.splitlines())
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def caret_under(err: str, file: Path, line: int) -> str:
    """The text the caret points at, in the error block of ``file:line``."""
    lines = err.split("\n")
    i = next(i for i, x in enumerate(lines) if x.startswith(f"{file}:{line}:"))
    source, caret = lines[i + 1], lines[i + 2]
    column = int(lines[i].split(":")[2])
    assert caret.index("^") == 4 + column - 1
    return source[caret.index("^"):]


def test_the_bundled_cards_check_under_every_edition(
        capsys: pytest.CaptureFixture[str]) -> None:
    for edition in ("en", "fr", "nl", "pl", "uk"):
        code, out, err = run(capsys, "cards", "check", str(CARDS), "--edition", edition)
        assert code == 0, err
        assert "23 card file(s) checked, 0 with errors" in out


def test_a_good_card_is_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = card(tmp_path, "bastion", "modify battle.total when land battle and you defend "
                "and your fortress is here: add 1 per legion die")
    code, out, _ = run(capsys, "cards", "check", "--edition", "en", str(path))
    assert code == 0 and f"{path}: ok" in out


def test_an_id_of_the_packs_cards_is_refused_at_the_id(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = card(tmp_path, "my_caesar", "modify battle.total when land battle: add 1",
                cid="caesar")
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(tmp_path))
    assert code == 1
    assert f"{path}:1:5: card id 'caesar' is already the pack's card 'Caesar'" in err
    assert caret_under(err, path, 1) == "caesar"


def test_a_copy_of_a_bundled_card_is_that_card_not_a_clash(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A source checkout checked beside the installed package holds copies of the pack's
    cards: the same card. Edit the copy and it is another card with the pack's id."""
    from mnrules import load_ruleset

    bundled = Path(load_ruleset("en").cards["caesar"].file)
    copy = tmp_path / "caesar.yaml"
    copy.write_bytes(bundled.read_bytes())
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(copy))
    assert code == 0, err
    copy.write_bytes(bundled.read_bytes() + b"# my edit\n")
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(copy))
    assert code == 1 and "card id 'caesar' is already the pack's card 'Caesar'" in err


def test_two_checked_cards_with_one_id_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card(tmp_path, "a_twin", "modify battle.total when land battle: add 1", cid="twin")
    second = card(tmp_path, "b_twin", "modify battle.total when land battle: add 2", cid="twin")
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(tmp_path))
    assert code == 1
    assert f"{second}:1:5: card id 'twin' is already used by {tmp_path / 'a_twin.yaml'}" in err


@pytest.mark.parametrize(("effects", "says", "under"), [
    # the bugs: a number or 'N per COUNT' for a list of resources
    ("modify income: add 1", "'income' is a list of resources", "1"),
    ("modify income: add 1 per legion die", "'income' is a list of resources", "1 per"),
    ("modify battle.total: add 1 per legoin die",
     "unknown count 'legoin die'; did you mean 'legion die'?", "legoin die"),
    ("modify battle.totl: add 1", "unknown quantity 'battle.totl'", "battle.totl"),
    ("modify battle.total: add 1000", "out of range", "1000"),
])
def test_a_script_the_quantity_cannot_take_is_refused_with_a_caret(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], effects: str, says: str,
        under: str) -> None:
    path = card(tmp_path, "bad", effects)
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(path))
    assert code == 1
    assert says in err
    assert caret_under(err, path, 5).startswith(under)


def test_an_empty_script_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for i, effects in enumerate(("", "# only a comment", "   ")):
        path = tmp_path / f"e{i}.yaml"
        path.write_text(f"id: e{i}\nkind: hero\neffects: |\n  {effects}\n", encoding="utf-8")
    path = tmp_path / "e3.yaml"
    path.write_text("id: e3\nkind: hero\neffects:\n", encoding="utf-8")
    code, out, err = run(capsys, "cards", "check", "--edition", "en", str(tmp_path))
    assert code == 1
    assert "4 card file(s) checked, 4 with errors" in out
    assert err.count("the script is empty") == 4


def test_a_variants_script_is_checked_too(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = card(tmp_path, "twofaced", "modify battle.total when land battle: add 1",
                head="variants:\n  strong:\n    note: a test\n    effects: |\n"
                     "      modify battle.total when land battle: add 1 per legion dye\n")
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(path))
    assert code == 1
    assert "unknown count 'legion dye'" in err and "(variant strong)" in err
    assert caret_under(err, path, 8) == "legion dye"


def test_a_card_kind_outside_the_games_schema_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.yaml"
    path.write_text("id: k\nkind: heroo\n", encoding="utf-8")
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(path))
    assert code == 1
    assert f"{path}:2:1: kind: expected one of" in err and "did you mean 'hero'?" in err
    assert "    kind: heroo\n    ^" in err


def test_cards_using_a_variants_plugin_word_check_only_with_the_variant(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    moon_plugin(tmp_path)
    variant = tmp_path / "variant.yaml"
    variant.write_text("plugins: {add: [./plugin.py]}\n", encoding="utf-8")
    folder = tmp_path / "cards"
    folder.mkdir()
    card(folder, "lunatic", "modify battle.total when the moon is full: add 1")
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(folder))
    assert code == 1 and "unknown condition 'the moon is full'" in err
    code, out, err = run(capsys, "cards", "check", "--edition", "en",
                         str(folder), "--variant", str(variant))
    assert "lunatic.yaml: ok" in out
    assert code == 0, err


def test_explain_on_a_folder_explains_the_good_cards_and_reports_the_bad(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card(tmp_path, "bastion", "modify battle.total when land battle and you defend: add 2")
    bad = card(tmp_path, "broken", "modify battle.total when land battel: add 2")
    code, out, err = run(capsys, "cards", "explain", "--edition", "en", str(tmp_path))
    assert code == 1
    assert out.startswith("Bastion:\n  - When the rules work out for you what a side adds")
    assert f"{bad}:5:" in err and "unknown condition 'land battel'" in err
    assert caret_under(err, bad, 5) == "land battel: add 2"
    assert "1 of 2 card file(s) with errors, not explained" in err


def test_explain_by_name_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", "explain", "--edition", "en", "caesar")
    assert code == 0 and out.startswith("Caesar:\n  - When the rules work out")


# -- hostile inputs: a clear error, never a traceback ---------------------------------------
def hostile(tmp_path: Path) -> dict[str, Path]:
    files = {
        "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)),
        "empty": b"",
        "list": b"- id: x\n- kind: hero\n",
        "number": b"42\n",
        "huge": b"id: huge\nkind: hero\ntext: {en: '" + b"x" * (300 * 1024) + b"'}\n",
        "deep": b"id: d\nkind: hero\nnames: " + b"[" * 200 + b"]" * 200 + b"\n",
        "wrong_types": b"id: [1, 2]\nkind: {a: b}\n",
        "effects_list": b"id: el\nkind: hero\neffects: [modify, income]\n",
        "long_number": b"id: ln\nkind: hero\ncost: " + b"9" * 5000 + b"\n",
        "nul": b"id: nul\nkind: hero\nnames: {en: 'a\x00b'}\n",
        "script_bomb": b"id: sb\nkind: hero\neffects: |\n  modify battle.total when "
                       + b"not " * 300 + b"land battle: add 1\n",
    }
    out = {}
    for name, data in files.items():
        path = tmp_path / f"{name}.yaml"
        path.write_bytes(data)
        out[name] = path
    return out


def test_hostile_card_files_get_clear_errors(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    files = hostile(tmp_path)
    for name, path in files.items():
        code, out, err = run(capsys, "cards", "check", "--edition", "en", str(path))
        assert code == 1, (name, out, err)
        first = err.splitlines()[0]
        assert first.startswith(str(path)), (name, err)
        assert re.search(r"\w", first[len(str(path)):]), (name, err)
    code, out, err = run(capsys, "cards", "check", "--edition", "en", str(tmp_path))
    assert code == 1 and f"{len(files)} card file(s) checked, {len(files)} with errors" in out
    code, out, err = run(capsys, "cards", "explain", "--edition", "en", str(tmp_path))
    assert code == 1 and out == ""


def test_missing_paths_and_empty_folders_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(tmp_path / "nope"))
    assert code == 2 and "no such file or folder" in err
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(tmp_path))
    assert code == 2 and "no card files (*.yaml) in this folder" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(pipe))
    assert code == 1 and "a named pipe" in err


def test_a_link_loop_in_a_card_folder_ends(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    card(tmp_path, "looped", "modify battle.total when land battle: add 1")
    (tmp_path / "again").symlink_to(tmp_path, target_is_directory=True)
    code, out, _ = run(capsys, "cards", "check", "--edition", "en", str(tmp_path))
    assert code == 0 and "1 card file(s) checked" in out


def test_a_folder_of_cards_joins_its_games_bundled_cards_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--cards adds a folder to the game's own cards (cards/mare_nostrum), never to every
    game's under cards/ (another game's cards would not fit this game's schema)."""
    card(tmp_path, "bastion", "modify battle.total when land battle and you defend: add 2")
    code, out, err = run(capsys, "cards", "explain", "--edition", "en",
                         "bastion", "--cards", str(tmp_path))
    assert code == 0, err
    assert out.startswith("Bastion:\n  - When the rules work out")
    code, out, _ = run(capsys, "cards", "list", "--edition", "en", "--cards", str(tmp_path))
    assert code == 0 and "bastion" in out and "caesar" in out


def test_binary_empty_and_control_characters_are_shown_at_their_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "b.yaml"
    binary.write_bytes(b"id: b\nkind: \x00\x9f\x92\x96\n")
    empty = tmp_path / "e.yaml"
    empty.write_text("\n  \n", encoding="utf-8")
    control = tmp_path / "c.yaml"
    control.write_text("id: c\nnames: {en: 'a\x01b'}\n", encoding="utf-8")
    code, _, err = run(capsys, "cards", "check", "--edition", "en", str(tmp_path))
    assert code == 1
    assert f"{binary}:2:8: a binary file, not a card (byte 0x9F" in err
    assert f"{empty}: the file is empty" in err
    assert f"{control}:2:15: the character U+0001 may not appear" in err
    assert caret_under(err, control, 2).startswith("·b")


def test_an_error_in_the_edition_given_is_shown_at_its_line_with_a_caret(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = tmp_path / "pack.yaml"
    pack.write_text("extends: en\nparams: {hit_divisor: 400}\n", encoding="utf-8")
    path = card(tmp_path, "bastion", "modify battle.total when land battle: add 1")
    code, _, err = run(capsys, "cards", "check", str(path), "--edition", str(pack))
    assert code == 2
    assert f"{pack}:2:10: params.hit_divisor: expected a whole number from 1 to 99" in err
    assert "    params: {hit_divisor: 400}\n             ^" in err


def test_an_empty_name_is_refused_not_taken_for_the_current_folder(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "cards", "explain", "--edition", "en", "")
    assert code == 2 and out == "" and "name a card" in err
    code, _, err = run(capsys, "cards", "show", "--edition", "en", " ")
    assert code == 2 and "no card named ' '" in err
