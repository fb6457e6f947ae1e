"""Antike II held to Mare Nostrum's strictness against hostile input: no decision without
options, whatever a pack's parameters (inside their ranges); saves checked per nation;
unknown component keys and counts beyond the box refused with their place."""

from __future__ import annotations

import copy
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from a2_helpers import asked, at_turn, options, play
from antike2.rondel import spaces
from limits import assert_clean_error, mnrules
from mnrules import load_ruleset, new_game
from mnrules.core.engine import DONE, Decision, Frame, Game
from mnrules.errors import MnrulesError, PackError

YELLOW = {"ROMA": "yellow", "NEAPOLIS": "yellow", "SYRACUS": "yellow"}
NOTHING = {"marble": 0, "iron": 0, "gold": 0, "coin": 0}


def test_with_no_free_space_a_nation_holding_nothing_still_moves_one_space() -> None:
    """«перемещением маркера ... на 1,2,3 деления (сектора) бесплатно», «Остаться на том
    же секторе нельзя»: under ``rondel_free: 0`` a nation with an empty stock is offered
    the next space, free, and not a decision with no option."""
    rules = load_ruleset("antike2", {"params": {"rondel_free": 0}})
    game = at_turn({"cities": YELLOW, "rondel": {"yellow": "ferrum"},
                    "stock": {"yellow": dict(NOTHING)}}, "yellow", rules=rules)
    assert options(game) == {"templum"}
    play(game, "templum")
    assert game.state.rondel["yellow"] == "templum" and asked(game) != ("yellow", "a2.pay")
    paying = at_turn({"cities": YELLOW, "rondel": {"yellow": "ferrum"},
                      "stock": {"yellow": {**NOTHING, "gold": 1}}}, "yellow", rules=rules)
    assert options(paying) == {"templum"}     # the next space costs its one resource
    play(paying, "templum")
    assert paying.state.stock["yellow"]["gold"] == 0


def test_whole_games_under_no_free_space_play_to_their_end() -> None:
    from mnrules.bots import make_bot

    rules = load_ruleset("antike2", {"params": {"rondel_free": 0, "round_cap": 40}})
    for seed in (1, 2):
        game = new_game(rules, 3, seed=seed, round_cap=40)
        bots = {p: make_bot("random", seed * 1009 + i, rules)
                for i, p in enumerate(game.state.players)}
        while (dec := game.pending) is not None:
            game.apply(bots[dec.player].choose(game))


class _Empty:
    """A step that asks a decision it gives no option."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        if frame.get("seen"):
            return DONE
        frame["seen"] = True
        return Decision(game.state.players[0], "a2.rondel", "nothing", ())


def test_the_kernel_refuses_to_ask_a_decision_with_no_option(tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: antike2\n")
    rules = load_ruleset("antike2", variant=str(variant))
    rules.steps["a2.rondel"] = _Empty()  # type: ignore[assignment]
    game = new_game(rules, 3, seed=1)
    with pytest.raises(PackError) as err:
        _ = game.pending
    text = str(err.value)
    assert "'a2.rondel'" in text and "no option" in text and "'antike2'" in text
    assert "v.yaml" in text and str(tmp_path) not in text
    assert spaces(game)   # the rule set itself is untouched by the failure


@pytest.fixture(scope="module")
def a2_save(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from mnrules.frontends.cli import main

    path = tmp_path_factory.mktemp("a2") / "g.save"
    assert main(["play", "--game", "antike2", "--seed", "2", "--rounds", "1",
                 "--save", str(path)]) == 0
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.mark.parametrize(("key", "change", "says"), [
    ("know_how", lambda m, n: m.pop(n), "know_how.{n}: missing"),
    ("stock", lambda m, n: m.pop(n), "stock.{n}: missing"),
    ("rondel", lambda m, n: m.pop(n), "rondel.{n}: missing"),
    ("destroyed", lambda m, n: m.pop(n), "destroyed.{n}: missing"),
    ("units", lambda m, n: m.pop(n), "units.{n}: missing"),
    ("personages", lambda m, n: m.pop(n), "personages.{n}: missing"),
    ("stock", lambda m, n: m[n].update(dragonglass=1), "stock.{n}.dragonglass"),
])
def test_a_save_missing_a_nations_entry_is_refused_at_load(
        tmp_path: Path, a2_save: dict[str, Any], key: str, change: Any, says: str) -> None:
    """The trial play may never read the entry (a know-how is read at Scientia only):
    the load itself checks that every per-nation map has every nation."""
    data = copy.deepcopy(a2_save)
    nation = data["state"]["players"][-1]
    change(data["state"][key], nation)
    path = tmp_path / "broken.save"
    path.write_text(json.dumps(data))
    out = mnrules("play", "--load", str(path), "--rounds", "3", "--bots", "random")
    assert_clean_error(out, "broken.save", says.format(n=nation))


@pytest.mark.parametrize(("components", "says"), [
    ("\n  legionz: 0", ":3:3: components.legionz: unknown component; did you mean 'legion'"),
    ("\n  resources:\n    - marble\n    - dragonglass\n    - gold",
     ":5:7: components.resources[1]: 'dragonglass' is no resource of the game"),
    ("\n  resources: []", ":3:3: components.resources: expected the game's three resources"),
    ("\n  personages: {king: 1000}", "components.personages.king: expected a whole number"),
])
def test_an_unknown_component_key_is_refused_at_its_place(tmp_path: Path, components: str,
                                                          says: str) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text(f"extends: antike2\ncomponents:{components}\n")
    with pytest.raises(PackError, match=r"v\.yaml" + re.escape(says) if says[0] == ":"
                       else re.escape(says)):
        load_ruleset("antike2", variant=str(variant))


@pytest.mark.parametrize(("position", "key"), [
    ("personages: {yellow: [" + ", ".join(["king"] * 11) + "]}", "position.personages.yellow"),
    ("units: {yellow: {ROMA: {legion: 13}}}", "position.units.yellow"),
    ("stock: {yellow: {coin: 51}}", "position.stock.yellow"),
])
def test_a_scenario_beyond_the_box_is_refused_at_its_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], position: str, key: str) -> None:
    """The pack's box holds 10 kings, 12 legions a nation, 50 coins: a scenario taking
    more is refused as a save would be, at the key that takes them."""
    from mnrules.frontends.cli import main

    scenario = tmp_path / "s.yaml"
    scenario.write_text("scenario: beyond the box\nedition: antike2\nplayers: 4\n"
                        "position:\n  order: [yellow, green, blue, black]\n"
                        f"  {position}\n  phase: turn\n  frame: {{nation: yellow}}\n"
                        "choices:\n  - militia\n")
    assert main(["scenario", "run", str(scenario)]) == 1
    out = capsys.readouterr().out
    assert "s.yaml:6:" in out and f"{key}: beyond the box" in out, out


@pytest.mark.parametrize(("field", "line"), [
    ("bonuses: {military: 1}", "bonuses"), ("cost: 3", "cost"), ("copyable: false", "copyable")])
def test_cards_check_refuses_mare_nostrum_fields_on_a_personage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, line: str) -> None:
    from mnrules.frontends.cli import main

    card = tmp_path / "consul.yaml"
    card.write_text(f"id: consul\nkind: personage\nphase: turn\nnames: {{en: Consul}}\n{field}\n")
    assert main(["cards", "check", "--game", "antike2", str(card)]) == 1
    err = capsys.readouterr().err
    assert f"consul.yaml:5:1: {line}: not a key of this game's cards" in err, err


def test_a_broken_save_sent_to_the_web_app_is_a_400_without_the_servers_folders(
        a2_save: dict[str, Any]) -> None:
    """The web app writes the save it is sent into a private temporary folder to load it:
    the refusal names the key and the file, not the server's folder."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from mnrules.frontends.web.app import create_app

    data = copy.deepcopy(a2_save)
    nation = data["state"]["players"][0]
    del data["state"]["know_how"][nation]
    r = TestClient(create_app()).post("/api/load", json={"save": json.dumps(data)})
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error.startswith("game.save: ") and f"know_how.{nation}: missing" in error, error
    assert tempfile.gettempdir() not in error


def test_the_cli_keeps_the_paths_a_user_named(tmp_path: Path,
                                              a2_save: dict[str, Any]) -> None:
    from mnrules.errors import without_private_folders
    from mnrules.tools.log import load_saved

    data = copy.deepcopy(a2_save)
    del data["state"]["rondel"][data["state"]["players"][0]]
    path = tmp_path / "mine.save"
    path.write_text(json.dumps(data))
    with pytest.raises(MnrulesError, match=re.escape(str(path))):
        load_saved(path)
    with tempfile.TemporaryDirectory() as folder:
        private = Path(folder) / "game.save"
        private.write_text(json.dumps(data))
        with pytest.raises(MnrulesError) as err:
            load_saved(private)
    assert str(err.value).startswith("game.save: ") and folder not in str(err.value)
    assert without_private_folders("/tmp/tmp.AbCdEf1234/x.yaml") == "/tmp/tmp.AbCdEf1234/x.yaml"
