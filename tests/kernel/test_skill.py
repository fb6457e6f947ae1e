"""Skill as a dimension of balance (``mnrules skill``): the search player's trace over a
doubling ladder says where strength stops paying, and a balance table asked under
several bots flags the verdicts that depend on the bot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnrules.frontends.cli import main
from mnrules.tools.simulate import GameResult
from mnrules.tools.skill import Cell, Rung, format_table, format_trace, ladder, table_cells

PACK = str(Path(__file__).parent / "tictactoe" / "pack.yaml")


def test_the_ladder_doubles_each_budget_from_a_base() -> None:
    assert ladder([2, 4], "heuristic") == [("mcts:2", "heuristic"), ("mcts:4", "mcts:2"),
                                            ("mcts:8", "mcts:4")]


def test_the_trace_names_where_doubling_stops_paying() -> None:
    rungs = [Rung("mcts:4", "mcts:2", 100, 70, (0.6, 0.78), 0.5),
             Rung("mcts:8", "mcts:4", 100, 53, (0.43, 0.62), 0.5)]
    text = format_trace(rungs, 5.0, "t")
    assert "doubling stops paying at mcts:4 → mcts:8: it gains +3.0 points" in text
    assert "has not reached" in format_trace(rungs[:1], 5.0, "t")


def _result(players: list[str], winners: list[str]) -> GameResult:
    return GameResult(1, players, winners, "v", 1, 1)


def test_a_verdict_that_changes_with_the_bot_is_flagged() -> None:
    """Under bot a, x wins 45 of 50 (above the fair share); under b, 25 of 50 (even)."""
    a = table_cells("a", [_result(["x", "o"], ["x" if i < 45 else "o"]) for i in range(50)])
    b = table_cells("b", [_result(["x", "o"], ["x" if i < 25 else "o"]) for i in range(50)])
    assert [c.verdict for c in a] == ["above", "below"]
    assert [c.verdict for c in b] == ["even", "even"]
    text = format_table({"a": a, "b": b}, "t")
    assert "x" in text and "depends on the bot" in text and "NOT stable" in text
    same = format_table({"a": a, "c": [Cell("c", c.seat, c.games, c.wins, c.interval,
                                            c.fair) for c in a]}, "t")
    assert "stable: the same leader" in same


def test_the_command_runs_the_trace_and_writes_what_reproduces_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "trace.json"
    assert main(["skill", "trace", "--edition", PACK, "--budgets", "2", "--base", "random",
                 "--games", "6", "--jobs", "1", "--quiet", "--out", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "mcts:2" in shown and "random" in shown and "reproduce: mnrules" in shown
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [r["among"] for r in data["trace"]] == ["random", "mcts:2"]
    assert data["players"] == 2 and data["games"] == 6


def test_a_bad_budget_list_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["skill", "trace", "--edition", PACK, "--budgets", "2,x"]) != 0
    assert "give whole numbers of iterations" in capsys.readouterr().err
