"""A save remembers its players (issue 31 item 5): each seat's bot with its settings, or
``human``, and the round cap. ``play --load`` goes on with them unless ``--bots`` or
``--human`` say otherwise, and then says so in one sentence on stderr; a save that does
not name its players (before mnrules-save/3) still loads, saying with whom it goes on. A
game continued with its recorded bots plays exactly as the game played straight through.
A bot's name in a save is input: an unknown bot, a bad setting or a budget over its cap
is refused naming the file and the seat."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mnrules import load_ruleset, new_game
from mnrules.frontends.cli import main
from mnrules.tools.log import LogError, load_saved, read_log, save

MIXED = "heuristic:trader+denial=0.5,random,heuristic,random,heuristic:builder"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _data(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_a_game_resumed_with_its_recorded_bots_is_the_game_played_straight_through(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    straight, mid, resumed = (tmp_path / n for n in ("straight.save", "mid.save",
                                                     "resumed.save"))
    base = ("play", "--seed", "5", "--bots", MIXED, "--max-rounds", "6")
    assert _run(capsys, *base, "--save", str(straight))[0] == 0
    assert _run(capsys, *base, "--rounds", "3", "--save", str(mid))[0] == 0
    saved = _data(mid)
    assert saved["format"] == "mnrules-save/3" and saved["round_cap"] == 6
    assert list(saved["seats"].values()) == MIXED.split(",")
    code, out, err = _run(capsys, "play", "--load", str(mid), "--save", str(resumed))
    assert code == 0 and err == ""            # its own players: nothing to say
    assert "Game over after 6 rounds" in out or "Game over" in out
    assert _data(resumed)["state"] == _data(straight)["state"]
    assert _data(resumed)["seats"] == saved["seats"]


def test_told_otherwise_the_game_goes_on_with_other_bots_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.save"
    assert _run(capsys, "play", "--edition", "en",
                "--seed", "5", "--rounds", "1", "--bots", "heuristic",
                "--save", str(path))[0] == 0
    code, _, err = _run(capsys, "play", "--load", str(path), "--rounds", "1",
                        "--bots", "random")
    assert code == 0
    assert err == (f"mnrules: {path} was played by heuristic bots; going on with random "
                   f"bots as --bots says\n")
    # the same bots given again: nothing has changed, nothing is said
    assert _run(capsys, "play", "--load", str(path), "--rounds", "1",
                "--bots", "heuristic")[2] == ""


def test_a_save_keeps_its_human_seats(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import mnrules.frontends.terminal

    seen: dict[str, Any] = {}

    class Terminal:   # the terminal as cmd_play makes it, without a person at it
        def __init__(self, humans: set[str], bots: dict[str, Any], **_: Any) -> None:
            seen["humans"], seen["bots"] = humans, set(bots)

        def play(self, game: Any, stop: Any) -> None:
            seen["pending"] = game.pending

    monkeypatch.setattr(mnrules.frontends.terminal, "Terminal", Terminal)
    rules = load_ruleset("en")
    game = new_game(rules, 5, seed=3)
    seats = dict.fromkeys(game.state.players, "heuristic") | {"rome": "human"}
    path = tmp_path / "g.save"
    save(game, "en", None, path, seats)
    code, _, err = _run(capsys, "play", "--load", str(path))
    assert code == 0 and err == ""
    assert seen["humans"] == {"rome"} and "rome" not in seen["bots"]
    # --human names others: the save's bots stay, and the change is said
    code, _, err = _run(capsys, "play", "--load", str(path), "--human", "greece")
    assert seen["humans"] == {"greece"} and "rome" in seen["bots"]
    assert err == (f"mnrules: {path} was played by heuristic bots (rome: human); going on "
                   f"with heuristic bots (greece: human) as --human says\n")
    # --bots alone changes the bots, not the humans
    _run(capsys, "play", "--load", str(path), "--bots", "random")
    assert seen["humans"] == {"rome"}
    # none human: every seat a bot, the game played to its end without the terminal
    code, _, err = _run(capsys, "play", "--load", str(path), "--human", "", "--rounds", "1")
    assert code == 0 and err.endswith("going on with heuristic bots as --human says\n")


def test_an_older_save_loads_and_says_it_does_not_name_its_players(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.save"
    assert _run(capsys, "play", "--edition", "en",
                "--seed", "5", "--rounds", "1", "--bots", "heuristic",
                "--save", str(path))[0] == 0
    data = _data(path)
    del data["seats"], data["round_cap"]
    data["format"] = "mnrules-save/2"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_saved(path).seats is None
    code, _, err = _run(capsys, "play", "--load", str(path), "--rounds", "1")
    assert code == 0 and err == (f"mnrules: {path} does not name its players (an older "
                                 f"save); going on with random bots\n")
    code, _, err = _run(capsys, "play", "--load", str(path), "--rounds", "1",
                        "--bots", "heuristic")
    assert err.endswith("going on with heuristic bots as --bots says\n")


def test_max_rounds_given_with_load_changes_the_cap_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, again = tmp_path / "g.save", tmp_path / "h.save"
    assert _run(capsys, "play", "--edition", "en",
                "--seed", "5", "--rounds", "1", "--max-rounds", "8",
                "--save", str(path))[0] == 0
    code, _, err = _run(capsys, "play", "--load", str(path), "--rounds", "1",
                        "--max-rounds", "9", "--save", str(again))
    assert code == 0
    assert err == f"mnrules: {path}'s game ends undecided after 8 rounds; going on with " \
                  f"--max-rounds 9\n"
    assert _data(again)["round_cap"] == 9 and _data(again)["state"]["vars"]["round_cap"] == 9


def test_a_log_records_each_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    assert _run(capsys, "play", "--edition", "en", "--seed", "5", "--rounds", "1", "--bots", MIXED,
                "--log", str(log))[0] == 0
    header, _ = read_log(log)
    assert list(header["seats"].values()) == MIXED.split(",")


@pytest.mark.parametrize(("seat", "needle"), [
    ("hueristic", "seats: greece: unknown bot 'hueristic'; did you mean 'heuristic'?"),
    ("search:1000000000", "seats: greece: search:1000000000: at most 10,000 search"),
    ("heuristic:tradr", "seats: greece: heuristic:tradr: unknown strategy profile"),
    ("heuristic:denial=nan", "seats: greece: heuristic:denial=nan: denial=nan: give a"),
    (5, "seats: greece: expected a bot's name"),
    ("", "seats: greece: expected a bot's name"),
    ("x" * 201, "seats: greece: expected a bot's name (at most 200 characters)"),
])
def test_a_hostile_bot_in_a_save_is_refused_naming_the_file_and_the_seat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], seat: Any, needle: str) -> None:
    path = tmp_path / "g.save"
    game = new_game(load_ruleset("en"), 5, seed=3)
    save(game, "en", None, path, dict.fromkeys(game.state.players, "random"))
    data = _data(path)
    data["seats"]["greece"] = seat
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LogError) as err:
        load_saved(path)
    assert str(err.value).startswith(f"{path}: ") and needle in str(err.value), err.value
    code, _, said = _run(capsys, "play", "--load", str(path))
    assert code == 2 and said.startswith(f"mnrules: error: {path}: seats: greece: ")
    assert "Traceback" not in said


@pytest.mark.parametrize(("change", "needle"), [
    (lambda d: d["seats"].update(atlantis="random"), "seats: atlantis is not a player"),
    (lambda d: d["seats"].pop("egypt"), "seats: egypt is missing"),
    (lambda d: d.update(seats=["random"]), "seats: expected each player's bot"),
    (lambda d: d.update(round_cap=True), "round_cap: True, but the state's is None"),
    (lambda d: d.update(round_cap=7), "round_cap: 7, but the state's is None"),
])
def test_a_save_whose_seats_or_cap_do_not_fit_its_game_is_refused(
        tmp_path: Path, change: Any, needle: str) -> None:
    path = tmp_path / "g.save"
    game = new_game(load_ruleset("en"), 5, seed=3)
    save(game, "en", None, path, dict.fromkeys(game.state.players, "random"))
    data = _data(path)
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LogError) as err:
        load_saved(path)
    assert str(err.value).startswith(f"{path}: ") and needle in str(err.value), err.value


def test_an_unbounded_search_budget_is_refused_on_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "play", "--edition", "en",
                        "--rounds", "1", "--bots", "search:1000000000")
    assert code == 2 and "at most 10,000 search iterations" in err
