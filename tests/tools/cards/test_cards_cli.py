"""The card tools' bugs of issue 35, each met as a modder meets it: `cards explain NAME
--cards DIR` failing for another card's error, `cards textmate` leaving out a plugin's
words, the "known:" lists cut with no mark."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mnrules.frontends.cli import main


def card(folder: Path, cid: str, script: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    f = folder / f"{cid}.yaml"
    f.write_text(f"id: {cid}\nkind: hero\nbonuses: {{}}\nnames: {{en: {cid.title()}}}\n"
                 f"effects: |\n  {script}\n", encoding="utf-8")
    return f


def test_explain_a_card_beside_a_broken_one(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The bug: the broken card's error, and nothing explained."""
    card(tmp_path / "cards", "good", "modify offer_size: choose 0 to 5")
    card(tmp_path / "cards", "bad", "modify offer_size: chose 0 to 5")
    assert main(["cards", "explain", "--edition", "en",
                 "good", "--cards", str(tmp_path / "cards")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Good:\n") and "from 0 to 5" in out
    assert "Other card files of the folder have errors and were left out: " in err
    assert "bad.yaml" in err and "good.yaml" not in err


def test_explain_the_broken_card_itself_shows_its_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card(tmp_path / "cards", "good", "modify offer_size: choose 0 to 5")
    card(tmp_path / "cards", "bad", "modify offer_size: chose 0 to 5")
    assert main(["cards", "explain", "--edition", "en",
                 "bad", "--cards", str(tmp_path / "cards")]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:6:22: unexpected 'chose'" in err and "^" in err


def test_explain_a_pack_card_beside_a_broken_one_in_french(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card(tmp_path / "cards", "bad", "modify offer_size: chose 0 to 5")
    assert main(["cards", "explain", "--edition", "en", "antigone", "--lang", "fr",
                 "--cards", str(tmp_path / "cards")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Antigone:\n")
    assert "D’autres fichiers de cartes du dossier ont des erreurs" in err


PLUGIN = ("from mnrules.hooks.hookspecs import hookimpl\n"
          "from mnrules.language.words import Word\n\n\n"
          "@hookimpl\ndef mn_vocabulary():\n"
          "    return [Word('condition', 'the moon is full', lambda e: True, 'moon')]\n")


def test_textmate_has_a_variants_plugin_words(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The bug: only the edition's words, never a pack plugin's ('the moon is full')."""
    (tmp_path / "words.py").write_text(PLUGIN, encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: en\nplugins: {add: [./words.py]}\n", encoding="utf-8")
    assert main(["cards", "textmate", "--edition", "en", "--variant", str(variant)]) == 0
    assert "moon(?:e?s|ies)?" in capsys.readouterr().out


def test_textmate_has_the_games_plugin_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "textmate", "--edition", "antike2"]) == 0
    out = capsys.readouterr().out
    assert "temple" in out and "moon" not in out


def test_a_known_list_cut_says_how_many_more(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The bug: the first 12 events and no mark that there were more."""
    f = card(tmp_path / "cards", "odd", "after qqqqxz: take 1 wine")
    assert main(["cards", "check", "--edition", "en", str(f)]) == 1
    err = capsys.readouterr().err
    assert "unknown event 'qqqqxz'; known: battle, " in err
    assert re.search(r"known: [a-z., ]+… and \d+ more\n", err), err


def test_listed_marks_the_cut() -> None:
    from mnrules.content.yamlsource import listed
    assert listed(["a", "b"]) == "a, b"
    assert listed([str(i) for i in range(19)]) == \
        "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11… and 7 more"
