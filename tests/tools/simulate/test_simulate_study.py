"""Issue 33: seats and the order of play counted apart, lead metrics on the game's own
evaluation with its predictive rate, and the provenance every result file carries."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import TESTS
from mnrules import load_ruleset
from mnrules.bots import default_bots
from mnrules.frontends.cli import build_parser, main
from mnrules.tools import provenance as prov
from mnrules.tools import simulate as sim

G = sim.GameResult


def _rotations(winner: str, n: int) -> list[sim.GameResult]:
    """Games whose start player rotates (as Antike II's draw does) and ``winner`` wins
    every one: he wins from every position once."""
    seat = ["a", "b", "c"]
    return [G(i, seat[i % 3:] + seat[:i % 3], [winner], "x", 5, 9) for i in range(n)]


def test_positions_are_counted_in_each_games_own_order_of_play() -> None:
    rep = sim.report(_rotations("b", 6), order=["a", "b", "c"])
    assert rep.players == ["a", "b", "c"] and rep.wins == {"a": 0, "b": 6, "c": 0}
    # before: seat k bore the first game's k-th nation and counted his wins (b: 100%)
    assert [s["win_rate"] for s in rep.seats] == pytest.approx([1 / 3] * 3)
    assert rep.seats[0]["held_by"] == {"a": 2, "b": 2, "c": 2}
    assert rep.advantage["b"] == pytest.approx(2 / 3)
    text = sim.format_report(rep, "t")
    assert "position 1   33.3%" in text and "b +66.7%" in text
    assert "seating is fixed" not in text


def test_the_first_player_is_the_one_who_won() -> None:
    games = [G(i, o, [o[0]], "x", 5, 9) for i, o in
             enumerate((["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]))]
    rep = sim.report(games, order=["a", "b", "c"])
    assert [s["wins"] for s in rep.seats] == [3, 0, 0]
    assert all(rep.win_rate[p] == pytest.approx(1 / 3) for p in "abc")


def test_antike2_positions_follow_the_drawn_start_player() -> None:
    jobs = [j for j in sim.jobs_for("antike2", None, 3, 4, 2, ["random"], 2)]
    results = sim.run(jobs, workers=1)
    assert len({r.players[0] for r in results}) > 1      # the draw differs between games
    for r in results:   # the start player opens every round's turn
        assert r.firsts == {"turn": {r.players[0]: 2}}
    rep = sim.report(results, order=sorted(results[0].players))
    assert sum(sum(s["held_by"].values()) for s in rep.seats) == 3 * 4
    assert rep.first_to_act[0]["games"] == 4


def test_mare_nostrum_goes_first_by_phase_and_names_its_phases() -> None:
    from mnrules.content.ruleset import load_ruleset
    from mnrules.language.present import presenter

    results = sim.run(sim.jobs_for("en", None, 3, 2, 5, ["heuristic"], 3), workers=1)
    rules = load_ruleset("en")
    rep = sim.report(results, rules.seating[3])
    phases = [f["phase"] for f in rep.first_to_act]
    assert {"trade", "build", "military"} <= set(phases)
    text = sim.format_report(rep, "t", sim.Names(presenter(rules)))
    assert "seating is fixed" in text and "always Rome" in text and "Build" in text


def test_games_carry_an_evaluation_once_a_round_and_the_lead_metrics_read_it() -> None:
    results = sim.run(sim.jobs_for("en", None, 3, 2, 5, ["heuristic"], 3), workers=1)
    for r in results:
        assert len(r.values) == r.rounds
        assert all(sum(v) == pytest.approx(1, abs=1e-4) for v in r.values)
    rep = sim.report(results)
    assert rep.lead_basis == "evaluation" and rep.stability is not None
    assert "lead by the game's evaluation" in sim.format_report(rep, "t")


def test_predictive_rate_by_tenth_stability_and_clarity() -> None:
    # a leads the first half, b (the winner) the second
    values = [[0.7, 0.3]] * 5 + [[0.2, 0.8]] * 5
    games = [G(1, ["a", "b"], ["b"], "x", 10, 9, values=values),
             G(2, ["a", "b"], [], "round cap", 10, 9, values=values)]  # no winner: left out
    rows = sim.predictive(games)
    assert [r["rate"] for r in rows] == [0.0] * 5 + [1.0] * 5
    assert all(r["games"] == 1 and r["chance"] == 0.5 for r in rows)
    assert sim.stability(games[0]) == pytest.approx(0.5 / 9)
    assert sim.clarity(games[0]) == pytest.approx(0.5)
    assert sim.lead(games[0]).decided_at == pytest.approx(5 / 9)
    rep = sim.report(games)
    assert rep.lead_basis == "evaluation"
    assert "1: 0% [" in sim.format_report(rep, "t") and "(chance 50%; 1 games; all tenths 50%)" in \
        sim.format_report(rep, "t")
    tie = G(3, ["a", "b"], ["a"], "x", 1, 9, values=[[0.5, 0.5]])
    assert sim.predictive([tie])[0]["rate"] == 0.5   # a tie for the lead shares the credit


def test_provenance_digests_contents_not_paths(tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: en\nparams:\n  hit_divisor: 4\n", encoding="utf-8")
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    shutil.copy(variant, moved / "v.yaml")
    one = prov.pack_record("en", str(variant))
    assert one == {**prov.pack_record("en", str(moved / "v.yaml")),
                   "variant": str(variant)}
    plain = prov.pack_record("en")
    assert plain["pack_sha256"] == one["pack_sha256"] and plain["variant_sha256"] is None
    assert prov.pack_record("fr")["pack_sha256"] != plain["pack_sha256"]
    record = prov.provenance(packs=[("en", None)], bots=["heuristic:builder", "mcts:4"],
                             seeds=prov.seed_rule(3, 10), round_cap=40, argv=["simulate"])
    assert record["command"] == "mnrules simulate" and record["round_cap"] == 40
    assert record["bots"][0]["settings"]["profile"]["name"] == "builder"
    assert record["bots"][1]["settings"]["iterations"] == 4
    assert record["seeds"] == {"first": 3, "games": 10, "rule": "first*1000003+i"}


def _fake_run(jobs: list[sim.Job], *_: Any, **__: Any) -> list[sim.GameResult]:
    return [G(j.seed, ["rome", "greece", "carthage"], ["rome"], "conquest", 4, 9)
            for j in jobs]


@pytest.mark.parametrize("argv", [
    ["simulate", "--edition", "en", "--players", "3", "--games", "2", "--round-cap", "7"],
    ["rate", "--edition", "en",
     "--bots", "random,heuristic", "--players", "3", "--max-rounds", "7"],
    ["sweep", "--edition", "en", "--param", "hit_divisor=4,5", "--players", "3", "--games", "2",
     "--round-cap", "7"],
    ["skill", "--edition", "en",
     "table", "--bots", "random,heuristic", "--players", "3", "--games", "2",
     "--round-cap", "7"],
])
def test_every_result_file_carries_the_provenance(argv: list[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sim, "run", _fake_run)
    out = tmp_path / "r.json"
    assert main([*argv, "--quiet", "--jobs", "1", "--out", str(out)]) == 0
    record = json.loads(out.read_text())["provenance"]
    assert record["command"].startswith(f"mnrules {argv[0]} ") and record["round_cap"] == 7
    assert record["packs"][0]["pack"] == "en" and len(record["packs"][0]["cards_sha256"]) == 64
    assert record["bots"] and record["seeds"] and record["version"]


def test_one_round_cap_option_and_one_default_bot() -> None:
    parser = build_parser()
    for cmd in (["simulate"], ["sweep", "--param", "x=1,2"], ["rate", "--bots", "random"],
                ["skill", "table"]):
        for option in ("--round-cap", "--max-rounds"):
            assert parser.parse_args([*cmd, option, "5"]).round_cap == 5
        assert parser.parse_args(cmd).round_cap is None      # the pack's own cap
    assert parser.parse_args(["simulate", "--edition", "en"]).bots is parser.parse_args(
        ["sweep", "--edition", "en", "--param", "x=1,2"]).bots is None          # chosen by the game
    assert default_bots(None, load_ruleset("en")) == "heuristic"
    ttt = str(TESTS / "kernel" / "tictactoe" / "pack.yaml")
    assert default_bots(None, load_ruleset(ttt)) == "random"  # a game with no heuristic
    assert default_bots("mcts:4", load_ruleset("en")) == "mcts:4"


def test_a_bot_without_a_dict_has_its_settings_read() -> None:
    """The compiled core builds the bots natively, with no ``__dict__``: their settings
    are still recorded (from the attributes the class lists)."""

    class Slotted:
        __slots__ = ("depth", "seed", "width")

        def __init__(self) -> None:
            self.depth, self.seed, self.width = 3, 9, 6

    assert prov.bot_settings(Slotted()) == {"depth": 3, "width": 6}
