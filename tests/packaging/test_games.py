"""The installed games (mnrules.games): found by their entry points only, each with its
packs, cards and plugins; a broken or doubly declared game is told in a sentence naming
its distribution and entry point, never a traceback, and hides only its own packs."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnrules.content import games
from mnrules.content.packs import list_packs
from mnrules.content.ruleset import load_ruleset
from mnrules.errors import PackError
from mnrules.frontends.cli import main

BROKEN = games.GameEntry("broken", "mnrules_no_such_package", "mnrules-broken")


@pytest.fixture
def with_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    found, twice = games._declared()
    extra = games.GameEntry("antike2", "elsewhere", "mnrules-other")
    monkeypatch.setattr(games, "_declared", lambda: (
        {**found, "broken": BROKEN},
        (*twice, f"{extra.describe()} is ignored: {found['antike2'].describe()} comes "
                 f"first on the import path")))


def test_the_bundled_games_come_from_their_entry_points() -> None:
    found = games.installed()
    assert found["mare_nostrum"].package == "mare_nostrum"
    assert found["antike2"].distribution == "mnrules"
    assert "trade" in games.plugin_names("mare_nostrum")
    assert "rondel" in games.plugin_names("antike2")
    assert "rondel" not in games.plugin_names("mare_nostrum")
    assert "editions" not in games.plugin_names("mare_nostrum")    # data, no plugin
    folder = games.editions_dir("antike2")
    assert folder is not None and (folder / "antike2" / "pack.yaml").is_file()


def test_a_broken_game_is_told_and_hides_only_its_own_packs(
        with_broken: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert "en" in list_packs()
    assert main(["editions", "list"]) == 0
    out, err = capsys.readouterr()
    assert "[mare_nostrum]" in out and "[antike2]" in out
    assert "warning: entry point mnrules.games: broken: game 'broken' (entry point " \
           "'mnrules.games: broken = mnrules_no_such_package' of the distribution " \
           "mnrules-broken) cannot be imported: ModuleNotFoundError" in err
    assert "mnrules-other) is ignored" in err and "Traceback" not in err


def test_a_pack_of_a_broken_game_is_refused_at_its_game_key(
        with_broken: None, tmp_path: Path) -> None:
    pack = tmp_path / "p.yaml"
    pack.write_text("format: mnrules-pack/1\ngame: broken\nid: p\nplugins: []\n"
                    "phases: [turn]\n", encoding="utf-8")
    with pytest.raises(PackError, match=rf"^{pack}:2:1: game 'broken' .* cannot be "
                                        rf"imported: ModuleNotFoundError"):
        load_ruleset(str(pack))


def test_an_unknown_game_names_the_installed_ones(tmp_path: Path) -> None:
    pack = tmp_path / "p.yaml"
    pack.write_text("format: mnrules-pack/1\ngame: mare_nostrun\nid: p\nplugins: []\n"
                    "phases: [turn]\n", encoding="utf-8")
    with pytest.raises(PackError, match=r"p\.yaml:2:1: game: no game named 'mare_nostrun'; "
                                        r"did you mean 'mare_nostrum'\?.*entry-point group "
                                        r"mnrules\.games"):
        load_ruleset(str(pack))


def test_editions_list_lists_a_one_file_games_pack_in_a_folder(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = Path(__file__).resolve().parents[1] / "kernel"
    assert main(["editions", "list", str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"{folder / 'tictactoe' / 'pack.yaml'} en  Tic-tac-toe [" in out
    assert out.rstrip().endswith("tictactoe.py]") and "[mare_nostrum]" in out
    assert main(["editions", "list", str(tmp_path)]) == 2
    assert "no pack.yaml in this folder or below" in capsys.readouterr().err


def test_a_games_misspelt_hook_is_refused(tmp_path: Path) -> None:
    """A game's package is held to the plugins' rule: an ``mn_`` function that is no
    hook would never be called, so the pack is refused, with the nearest hook."""
    kernel = Path(__file__).resolve().parents[1] / "kernel" / "tictactoe"
    for name in ("pack.yaml", "tictactoe.py"):
        text = (kernel / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text.replace("def mn_report", "def mn_reports"),
                                     encoding="utf-8")
    with pytest.raises(PackError, match=r"pack\.yaml:4:1: game: '.*tictactoe\.py': "
                                        r"mn_reports is no hook; did you mean 'mn_report'"):
        load_ruleset(str(tmp_path / "pack.yaml"))
