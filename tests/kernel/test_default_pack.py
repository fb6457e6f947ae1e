"""No pack is the kernel's default: without --edition a command plays the base pack of the
one game installed, or of the game --game names; with several games installed, of the
one a distribution declares the default (entry-point group ``mnrules.default_game``:
this repository declares Mare Nostrum, so ``mnrules play`` goes on playing it); with
several and no one declared, it is told how to name one."""

from __future__ import annotations

import pytest

from mnrules.content import games, packs
from mnrules.content.games import GameEntry
from mnrules.errors import PackError
from mnrules.frontends.cli import main


def test_each_game_names_its_own_base_pack() -> None:
    assert packs.default_pack("mare_nostrum") == "en"
    assert packs.default_pack("antike2") == "antike2"


def test_this_distribution_declares_mare_nostrum_the_default() -> None:
    assert games.preferred() == ["mare_nostrum"]
    assert packs.default_game() == "mare_nostrum"
    assert packs.default_pack() == "en"


def test_with_two_games_and_no_default_declared_none_is_chosen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "preferred", lambda: [])
    with pytest.raises(PackError) as err:
        packs.default_pack()
    message = str(err.value)
    assert "2 games are installed" in message
    assert "--game antike2, or --edition antike2" in message
    assert "--game mare_nostrum, or --edition en" in message


def test_two_declared_defaults_choose_neither(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "preferred", lambda: ["antike2", "mare_nostrum"])
    with pytest.raises(PackError, match="2 games are installed"):
        packs.default_pack()


def test_the_one_game_installed_gives_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    only = {"antike2": games.installed()["antike2"]}
    monkeypatch.setattr(games, "installed", lambda: only)
    assert packs.default_game() == "antike2"
    assert packs.default_pack() == "antike2"
    assert packs.game_packs("antike2")[0] == "antike2"


def test_no_game_installed_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    empty: dict[str, GameEntry] = {}
    monkeypatch.setattr(games, "installed", lambda: empty)
    with pytest.raises(PackError, match="no game is installed"):
        packs.default_pack()


def test_a_misspelt_game_is_refused_with_the_nearest() -> None:
    with pytest.raises(PackError, match=r"no game named 'antike'.*antike2"):
        packs.default_pack("antike")


def test_a_command_without_a_pack_says_how_to_name_one(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "preferred", lambda: [])
    assert main(["play", "--players", "3", "--bots", "random", "--rounds", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mnrules: error: 2 games are installed")
    assert "Traceback" not in err


def test_a_command_without_a_pack_plays_the_declared_default(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "3", "--bots", "random", "--rounds", "1"]) == 0
    assert "Rome" in capsys.readouterr().out


def test_a_command_with_the_game_named_plays_its_base_pack(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "antike2", "--players", "3", "--bots", "random",
                 "--rounds", "1"]) == 0
    assert capsys.readouterr().out
