"""Simulation: the same numbers whatever the number of jobs or the backend, paired
comparisons between packs, and the report's statistics."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import ROOT
from mnrules.frontends.cli import main
from mnrules.tools import simulate as sim


def _jobs(n: int = 6, pack: str = "en", cap: int = 6) -> list[sim.Job]:
    return [replace(j, round_cap=cap) for j in sim.jobs_for(pack, None, 4, n, 3, ["random"])]


def test_results_do_not_depend_on_jobs() -> None:
    one = sim.run(_jobs(), workers=1)
    two = sim.run(_jobs(), workers=2)
    assert [r.__dict__ for r in one] == [r.__dict__ for r in two]
    assert len({r.seed for r in one}) == 6


def test_the_dask_backend_gives_the_same_results() -> None:
    pytest.importorskip("dask.distributed")
    local = sim.run(_jobs(4), workers=1)
    cluster = sim.run(_jobs(4), workers=2, backend="dask")
    assert [r.__dict__ for r in local] == [r.__dict__ for r in cluster]


def test_wilson_interval() -> None:
    lo, hi = sim.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert sim.wilson(0, 10)[0] == 0.0


def test_report_counts_wins_paths_and_lengths() -> None:
    results = [sim.GameResult(1, ["a", "b"], ["a"], "conquest", 10, 100),
               sim.GameResult(2, ["a", "b"], ["b"], "fifth", 12, 120),
               sim.GameResult(3, ["a", "b"], ["a", "b"], "conquest", 14, 90),
               sim.GameResult(4, ["a", "b"], [], "round cap", 60, 900)]
    rep = sim.report(results)
    assert rep.wins == {"a": 2, "b": 2} and rep.win_rate["a"] == 0.5
    assert rep.shared == {"a": 1, "b": 1} and rep.shared_games == 1
    assert "1 shared wins" in sim.format_report(rep, "t")
    assert rep.paths == {"conquest": 2, "fifth": 1, "round cap": 1}
    assert rep.unfinished == 1 and rep.rounds_median == 13   # the mean of the middle two


def test_compare_pairs_the_same_seeds(tmp_path: Path) -> None:
    a = sim.run(_jobs(6, cap=40), workers=2)
    variant = tmp_path / "dice.yaml"
    variant.write_text("extends: en\nparams: {land_die: [3, 3, 4, 4, 5, 5]}\n")
    b = sim.run([replace(j, variant=str(variant)) for j in _jobs(6, cap=40)], workers=2)
    rows = sim.compare(a, b)
    assert [r["player"] for r in rows] == a[0].players
    assert any(r["games_that_differ"] for r in rows)     # the dice change the games
    same = sim.compare(a, a)
    assert all(r["difference"] == 0 and r["p"] == 1.0 for r in same)


def test_simulate_command_writes_report_json_and_figure(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    pytest.importorskip("matplotlib")
    out, fig = tmp_path / "r.json", tmp_path / "f.png"
    code = main(["simulate", "--edition", "en",
                 "--players", "3", "--games", "4", "--seed", "2", "--jobs", "1",
                 "--bots", "random",
                 "--quiet", "--out", str(out), "--plot", str(fig)])
    text = capsys.readouterr().out
    assert code == 0 and "win rate" in text and "victory paths" in text
    data = json.loads(out.read_text())
    assert data["report"]["games"] == 4 and len(data["games"]) == 4
    assert fig.stat().st_size > 5000


def test_simulate_refuses_bad_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--edition", "en", "--games", "0", "--quiet"]) == 2
    assert main(["simulate", "--edition", "en", "--bots", "randm", "--games", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "--games: expected at least 1" in err and "unknown bot 'randm'" in err


def test_title_shares_add_up_to_at_most_the_whole() -> None:
    rep = sim.report(sim.run(_jobs(4, cap=8), workers=1))
    titles = {t for e in rep.players for t in rep.title_share[e]}
    assert titles
    for t in titles:
        assert 0 < sum(rep.title_share[e][t] for e in rep.players) <= 1 + 1e-9
    held = [sim.GameResult(1, ["a", "b"], ["a"], "x", 3, 9, {"a": {"m": 2}, "b": {"m": 1}}, 3),
            sim.GameResult(2, ["a", "b"], ["b"], "x", 2, 9, {"a": {}, "b": {"m": 1}}, 2)]
    share = sim.report(held).title_share
    assert share["a"]["m"] == pytest.approx(2 / 5) and share["b"]["m"] == pytest.approx(2 / 5)


def test_exact_mcnemar_and_holm() -> None:
    assert sim.binomial_two_sided(0, 5) == pytest.approx(2 / 32)
    assert sim.binomial_two_sided(1, 10) == pytest.approx(2 * 11 / 1024)
    assert sim.binomial_two_sided(3, 6) == 1.0 and sim.binomial_two_sided(0, 0) == 1.0
    assert sim.mcnemar(5, 0) == (pytest.approx(0.0625), "exact")   # z would say 0.025
    assert sim.mcnemar(3000, 2900)[1] == "normal"
    assert sim.holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    a = [sim.GameResult(i, ["a", "b"], ["a"], "x", 1, 1) for i in range(5)]
    b = [sim.GameResult(i, ["a", "b"], ["b"], "x", 1, 1) for i in range(5)]
    rows = sim.compare(a, b)
    assert [r["games_that_differ"] for r in rows] == [5, 5]
    assert rows[0]["p"] == pytest.approx(0.0625) and rows[0]["p_holm"] == pytest.approx(0.125)


def test_designer_metrics_from_lengths_seats_and_lead_series() -> None:
    g = sim.GameResult
    results = [g(1, ["a", "b"], ["a"], "conquest", 2, 9, scores=[[1, 2], [3, 2], [5, 2]]),
               g(2, ["a", "b"], ["b"], "fifth", 4, 9, scores=[[2, 1], [2, 2], [1, 3]]),
               g(3, ["a", "b"], ["a", "b"], "fifth", 6, 9, scores=[[1, 1]]),
               g(4, ["a", "b"], [], "round cap", 8, 9, scores=[[1, 0], [0, 1]])]
    rep = sim.report(results)
    assert rep.completion == 0.75 and rep.shared_rate == 0.25
    assert rep.rounds_mean == 5 and rep.rounds_sd == pytest.approx(2.5819889)
    assert (rep.rounds_p10, rep.rounds_p50, rep.rounds_p90) == pytest.approx((2.6, 5, 7.4))
    assert [(s["position"], s["held_by"], s["wins"], s["advantage"]) for s in rep.seats] == \
        [(1, {"a": 4}, 2, 0.0), (2, {"b": 4}, 2, 0.0)]
    one = sim.lead(results[0])   # b leads, then a for good from the second point
    assert (one.changes, one.steps, one.decided_at, one.behind, one.gaps) == \
        (1, 2, 0.5, pytest.approx(1 / 3), [1.0])
    two = sim.lead(results[1])   # a leads, a tie, then b at the end only
    assert (two.changes, two.decided_at, two.behind) == (1, 1.0, pytest.approx(2 / 3))
    assert sim.lead(results[3]).decided_at is None and sim.lead(results[3]).changes == 1
    assert rep.lead_changes == 0.75 and rep.lead_change_rate == pytest.approx(3 / 5)
    assert rep.decisiveness == pytest.approx((0.5 + 1.0 + 0.0) / 3)  # 3: one point, led
    assert rep.paths_by_player == {"a": {"conquest": 1, "fifth": 1}, "b": {"fifth": 2}}
    text = sim.format_report(rep, "t")
    assert "completion: 3 of 4 games" in text and "p90 7.4" in text and "position 1" in text
    assert sim.score({"x": 2, "y": 1.5, "flag": True, "names": ["m"]}) == 3.5


def test_played_games_keep_a_lead_series_and_the_out_files_the_metrics(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for r in sim.run(_jobs(3, cap=6), workers=1):
        assert len(r.scores) == r.title_rounds + 1
        assert all(len(point) == len(r.players) for point in r.scores)
    out, table = tmp_path / "r.json", tmp_path / "r.csv"
    for path in (out, table):
        assert main(["simulate", "--edition", "en",
                     "--players", "3", "--games", "3", "--seed", "2", "--bots",
                     "random", "--jobs",
                     "1", "--quiet", "--explain", "--out", str(path)]) == 0
    text = capsys.readouterr().out
    assert all(f"  {k}: " in text for k in sim.DEFINITIONS)
    data = json.loads(out.read_text())
    assert data["definitions"] == sim.DEFINITIONS
    assert {"completion", "rounds_p90", "seats", "decisiveness", "drama",
            "lead_changes", "paths_by_player"} <= data["report"].keys()
    first, header = table.read_text().splitlines()[:2]
    assert first.startswith("# provenance: {") and "decided_at" in header


def test_docs_give_every_metric_definition() -> None:
    docs = (ROOT / "docs" / "simulation.md").read_text("utf-8")
    for name, sentence in sim.DEFINITIONS.items():
        assert f"| {name} | {sentence} |" in docs
