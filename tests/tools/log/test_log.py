"""Game logs, exact replay and saves, by the kernel alone.

A log's first line says how the game was made; then one line per choice and one per
chance outcome. Replay plays the choices again and reports the first place where the log
and the rules part ways; a choice undone is cut off the log, or withdrawn by an undo line
where the log cannot be cut. Played on tic-tac-toe (tests/kernel/tictactoe: no chance)
and on Mare Nostrum, whose sea battles roll dice."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conftest import TESTS
from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.engine import Game
from mnrules.errors import MnrulesError
from mnrules.tools.log import (
    LogError,
    Recorder,
    file_ref,
    load,
    read_log,
    replay,
    save,
    save_text,
)

TICTACTOE = TESTS / "kernel" / "tictactoe" / "pack.yaml"


@cache
def tictactoe() -> Ruleset:
    return load_ruleset(TICTACTOE)


@cache
def en() -> Ruleset:
    return load_ruleset("en")


def recorded(path: Path, rules: Ruleset, pack: str, players: Any, seed: int,
             choices: list[Any]) -> tuple[Game, Recorder]:
    game = new_game(rules, players, seed=seed)
    out = path.open("w", encoding="utf-8")
    rec = Recorder(out)
    rec.header(game, pack, None)
    rec.attach(game)
    for c in choices:
        game.apply(c)
    out.flush()
    return game, rec


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


# -- tic-tac-toe: choices only ---------------------------------------------------------------
# X takes the centre, O a corner, X another, O the far one; X's third mark completes the
# diagonal 2-4-6.
X_WINS = [4, 0, 2, 8, 6]


def test_a_log_replays_to_the_same_end(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    game, _ = recorded(log, tictactoe(), str(TICTACTOE), 2, 3, X_WINS)
    assert game.pending is None  # X has won
    result = replay(log)                      # the pack is found from the header alone
    assert result.divergence is None and result.stopped_at_round is None
    assert result.choices == 5 and result.chances == []
    assert result.game.state.cells == game.state.cells == \
        ["o", "", "x", "", "x", "", "x", "", "o"]
    assert result.game.pending is None


def test_the_header_says_how_the_game_was_made(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    recorded(log, tictactoe(), str(TICTACTOE), 2, 3, X_WINS[:2])
    header, records = read_log(log)
    assert header["pack"] == str(TICTACTOE.resolve()) and Path(header["pack"]).is_absolute()
    assert header["variant"] is None and header["seed"] == 3
    assert header["players"] == ["x", "o"]
    assert [(n, r) for n, r in records] == [
        (2, {"player": "x", "kind": "place", "choice": 4}),
        (3, {"player": "o", "kind": "place", "choice": 0})]


def test_a_bundled_edition_is_recorded_by_its_id_a_file_by_its_path() -> None:
    assert file_ref(None) is None
    assert file_ref("en") == "en"
    assert file_ref("tests/kernel/tictactoe/pack.yaml") == str(TICTACTOE.resolve())


def test_replay_stops_at_the_start_of_a_round(tmp_path: Path) -> None:
    """A round is one mark of each player: round 3 starts after four marks."""
    log = tmp_path / "g.jsonl"
    recorded(log, tictactoe(), str(TICTACTOE), 2, 3, X_WINS)
    result = replay(log, until_round=3)
    assert result.stopped_at_round == 3 and result.choices == 4
    assert result.game.state.round == 3
    # a log that ends before the round: it is played whole, nothing stops it
    short = tmp_path / "short.jsonl"
    recorded(short, tictactoe(), str(TICTACTOE), 2, 3, X_WINS[:2])
    early = replay(short, until_round=3)
    assert early.stopped_at_round is None and early.choices == 2


def test_replay_reports_a_choice_the_rules_no_longer_allow(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    recorded(log, tictactoe(), str(TICTACTOE), 2, 3, X_WINS)
    records = lines(log)
    records[2]["choice"] = 4                 # O marks X's cell
    result = replay(write_lines(log, records))
    assert result.choices == 1
    assert result.divergence is not None and result.divergence.startswith("line 3: ")


def test_replay_reports_the_wrong_player(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    recorded(log, tictactoe(), str(TICTACTOE), 2, 3, X_WINS)
    records = lines(log)
    records[2]["player"] = "x"
    result = replay(write_lines(log, records))
    assert result.divergence == "line 3: the log has x (place), the rules ask o (place)"


def test_replay_reports_a_log_that_goes_on_after_the_game(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    recorded(log, tictactoe(), str(TICTACTOE), 2, 3, X_WINS)
    records = [*lines(log), {"player": "o", "kind": "place", "choice": 1}]
    result = replay(write_lines(log, records))
    assert result.divergence == "line 7: the game is already over, the log goes on"


# -- undo -----------------------------------------------------------------------------------
def test_an_undone_choice_is_cut_off_the_log(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    _, rec = recorded(log, tictactoe(), str(TICTACTOE), 2, 3, X_WINS[:3])
    rec.undo()
    rec.out.flush()
    assert [r.get("choice") for r in lines(log)[1:]] == [4, 0]


class Pipe(io.StringIO):
    """A log written to a pipe: it cannot be cut."""

    def seekable(self) -> bool:
        return False


def test_where_the_log_cannot_be_cut_an_undo_line_withdraws_the_choice(
        tmp_path: Path) -> None:
    game = new_game(tictactoe(), 2, seed=3)
    out = Pipe()
    rec = Recorder(out)
    rec.header(game, str(TICTACTOE), None)
    rec.attach(game)
    for c in X_WINS[:3]:
        game.apply(c)
    rec.undo()
    assert json.loads(out.getvalue().splitlines()[-1]) == {"undo": 1}
    log = tmp_path / "g.jsonl"
    log.write_text(out.getvalue(), encoding="utf-8")
    _, records = read_log(log)
    assert [r["choice"] for _, r in records] == [4, 0]
    assert replay(log).choices == 2


# -- a log's lines checked ----------------------------------------------------------------------
HEADER = {"format": "mnrules-log/1", "engine": "0.1", "pack": "en", "variant": None,
          "players": ["x", "o"], "seed": 3}
CHOICE = {"player": "x", "kind": "place", "choice": 4}


@pytest.mark.parametrize(("records", "line", "needle"), [
    ([{k: v for k, v in HEADER.items() if k != "pack"}], 1,
     "pack: missing (expected an edition's name or a pack file)"),
    ([{**HEADER, "pack": ""}], 1, "pack: expected an edition's name or a pack file"),
    ([{**HEADER, "variant": 3}], 1, "variant: expected a variant file or null"),
    ([{**HEADER, "players": []}], 1, "players: expected a list of players"),
    ([{**HEADER, "seed": "7"}], 1, "seed: expected a whole number"),
    ([{**HEADER, "round_cap": -1}], 1, "round_cap: expected a whole number of rounds"),
    ([HEADER, {"undo": 1}], 2, "undo: no choice left to undo"),
    ([HEADER, CHOICE, {"undo": 2}], 3, "undo: no choice left to undo"),
    ([HEADER, CHOICE, {"undo": 1, "player": "x"}], 3,
     "an undo line holds only undo, not player"),
    ([HEADER, CHOICE, {"undo": 0}], 3, "undo: expected a number of choices (1 or more)"),
    ([HEADER, {"player": "x", "kind": "place"}], 2,
     "neither a choice nor a chance record"),
    ([HEADER, {**CHOICE, "chance": "sea die", "value": 3}], 2,
     "both a choice and a chance record"),
    ([HEADER, {"chance": 5, "value": 3}], 2, "chance: expected a chance label"),
    ([HEADER, {**CHOICE, "player": 1}], 2, "player: expected a player"),
    ([HEADER, {**CHOICE, "kind": None}], 2, "kind: expected a decision kind"),
    ([HEADER, {**CHOICE, "choice": 1.5}], 2, "choice: malformed choice 1.5"),
    ([HEADER, {**CHOICE, "choice": True}], 2, "choice: malformed choice True"),
    ([HEADER, {"chance": "sea die", "value": {"a": 1}}], 2,
     "value: expected a chance outcome (text, a whole number or a list)"),
    ([{**HEADER, "format": "other"}], 1, "not an mnrules log"),
])
def test_a_broken_log_line_is_refused_naming_its_line_and_field(
        tmp_path: Path, records: list[dict[str, Any]], line: int, needle: str) -> None:
    log = write_lines(tmp_path / "g.jsonl", records)
    with pytest.raises(LogError) as err:
        read_log(log)
    assert str(err.value).startswith(f"{log}:{line}: "), err.value
    assert needle in str(err.value), err.value


def test_an_undo_line_withdraws_the_chance_outcomes_after_its_choice(tmp_path: Path) -> None:
    log = write_lines(tmp_path / "g.jsonl", [
        HEADER, CHOICE, {"chance": "die", "value": 1}, {**CHOICE, "choice": 5},
        {"chance": "die", "value": 2}, {"chance": "die", "value": 3}, {"undo": 1}])
    _, records = read_log(log)
    assert [n for n, _ in records] == [2, 3]


def test_blank_lines_are_skipped(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    log.write_text("\n" + json.dumps(HEADER) + "\n\n" + json.dumps(CHOICE) + "\n  \n",
                   encoding="utf-8")
    header, records = read_log(log)
    assert header["seed"] == 3 and records == [(4, CHOICE)]


# -- chance: Mare Nostrum's sea dice --------------------------------------------------------------
def _sea_battle_log(tmp_path: Path) -> tuple[Path, int]:
    """Seed 1, three players each taking his last option, until the first sea dice."""
    log = tmp_path / "mn.jsonl"
    game = new_game(en(), 3, seed=1)
    out = log.open("w", encoding="utf-8")
    rec = Recorder(out)
    rec.header(game, "en", None)
    rec.attach(game)
    n = 0
    while '"chance"' not in log.read_text(encoding="utf-8"):
        dec = game.pending
        assert dec is not None and n < 400
        game.apply(dec.options[-1])
        n += 1
    out.close()
    return log, n


def test_a_log_replays_its_dice_exactly(tmp_path: Path) -> None:
    log, n = _sea_battle_log(tmp_path)
    result = replay(log)
    assert result.divergence is None and result.choices == n
    dice = [r for r in lines(log) if "chance" in r]
    assert [w["value"] for _, w in result.chances] == [d["value"] for d in dice]


def test_a_die_that_differs_is_the_first_divergence(tmp_path: Path) -> None:
    log, _ = _sea_battle_log(tmp_path)
    records = lines(log)
    i = next(i for i, r in enumerate(records) if "chance" in r)
    was = records[i]["value"]
    records[i]["value"] = 5 if was != 5 else 4
    result = replay(write_lines(log, records))
    assert result.divergence == (f"line {i + 1}: the log has {records[i]['chance']} "
                                 f"{records[i]['value']}, the game gave "
                                 f"{records[i]['chance']} {was}")


def test_a_die_the_log_lacks_is_a_divergence(tmp_path: Path) -> None:
    log, _ = _sea_battle_log(tmp_path)
    records = [r for r in lines(log) if "chance" not in r]
    result = replay(write_lines(log, records))
    assert result.divergence is not None
    assert "a chance outcome the log does not have (sea die " in result.divergence


def test_dice_the_game_never_drew_are_a_divergence(tmp_path: Path) -> None:
    log, _ = _sea_battle_log(tmp_path)
    records = [*lines(log), {"chance": "sea die", "value": 2}]
    result = replay(write_lines(log, records))
    assert result.divergence == (f"line {len(records)}: the log has sea die 2, which the "
                                 f"game never drew (1 chance record(s) left over)")


# -- saves ---------------------------------------------------------------------------------------
def test_a_saved_game_goes_on_from_the_same_position(tmp_path: Path) -> None:
    game = new_game(en(), 3, seed=4)
    for _ in range(30):
        dec = game.pending
        assert dec is not None
        game.apply(dec.options[0])
    path = tmp_path / "g.save"
    save(game, "en", None, path)
    loaded, pack, variant = load(path)
    assert (pack, variant) == ("en", None)
    assert loaded.snapshot() == game.snapshot()
    for _ in range(30):
        dec = game.pending
        assert dec is not None and loaded.pending == dec
        game.apply(dec.options[-1])
        loaded.apply(dec.options[-1])
    assert loaded.snapshot() == game.snapshot()


def test_a_save_writes_the_dice_generator_compactly() -> None:
    """mnrules-save/2: the generator as the number of twists of the game's seed, its
    index and its spare Gaussian, not its 625 words."""
    data = json.loads(save_text(new_game(en(), 3, seed=4), "en", None))
    assert data["format"] == "mnrules-save/3"
    assert set(data["state"]["rng"]) == {"twists", "index", "gauss"}


def _save_data(tmp_path: Path) -> dict[str, Any]:
    game = new_game(tictactoe(), 2, seed=3)
    game.apply(4)
    data: dict[str, Any] = json.loads(save_text(game, str(TICTACTOE), None))
    return data


@pytest.mark.parametrize(("change", "needle"), [
    ({"variant": 3}, "variant: expected a variant file or null"),
    ({"pack": ""}, "pack: expected an edition's name or a pack file"),
    ({"format": "mnrules-save/9"}, "not an mnrules save file"),
])
def test_a_broken_save_is_refused_naming_the_file_and_the_key(
        tmp_path: Path, change: dict[str, Any], needle: str) -> None:
    path = tmp_path / "g.save"
    path.write_text(json.dumps({**_save_data(tmp_path), **change}), encoding="utf-8")
    with pytest.raises(LogError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}: ") and needle in str(err.value), err.value


def test_a_save_with_a_broken_state_names_the_key(tmp_path: Path) -> None:
    data = _save_data(tmp_path)
    data["state"]["round"] = "three"
    path = tmp_path / "g.save"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(MnrulesError) as err:
        load(path)
    assert str(path) in str(err.value) and "state.round" in str(err.value), err.value


def test_an_older_save_of_the_whole_generator_is_read(tmp_path: Path) -> None:
    data = _save_data(tmp_path)
    game = new_game(tictactoe(), 2, seed=3)
    game.apply(4)
    data["format"] = "mnrules-save/1"
    data["state"]["rng"] = json.loads(json.dumps(game.snapshot().rng))
    path = tmp_path / "g.save"
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded, _, _ = load(path)
    assert loaded.state.cells == game.state.cells
    assert loaded.rng.getstate() == game.rng.getstate()


@pytest.mark.parametrize("before", [[], [HEADER]])
def test_a_line_that_is_not_json_is_refused_at_its_line(tmp_path: Path,
                                                         before: list[dict[str, Any]]) -> None:
    log = tmp_path / "g.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in before) + "{player: x\n",
                   encoding="utf-8")
    with pytest.raises(LogError) as err:
        read_log(log)
    assert str(err.value).startswith(f"{log}:{len(before) + 1}: not JSON: "), err.value


def test_replay_stopped_at_a_round_does_not_judge_the_rest_of_the_log(
        tmp_path: Path) -> None:
    """Four marks bring the game to round 3; what the log holds after them (here a die
    the game never rolls) is beyond the stop and not a divergence; replayed whole, it is."""
    log = tmp_path / "g.jsonl"
    recorded(log, tictactoe(), str(TICTACTOE), 2, 3, X_WINS[:4])
    write_lines(log, [*lines(log), {"chance": "die", "value": 1}])
    stopped = replay(log, until_round=3)
    assert stopped.stopped_at_round == 3 and stopped.choices == 4
    assert stopped.divergence is None
    whole = replay(log)
    assert whole.divergence == ("line 6: the log has die 1, which the game never drew "
                                "(1 chance record(s) left over)")
