"""Simulation beyond win rates: card pick rates and win rates when held, paired tests on
game length and victory paths, and a --compare that keeps both sides (issue 14)."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest

from mnrules.frontends.cli import main
from mnrules.tools import simulate as sim

G = sim.GameResult


def test_pick_rate_and_win_rate_when_held() -> None:
    results = [G(1, ["a", "b"], ["a"], "fifth", 5, 9, cards={"a": ["s1", "x"], "b": ["s2"]},
                 picked={"x": 2}),
               G(2, ["a", "b"], ["b"], "fifth", 5, 9, cards={"a": ["s1"], "b": ["s2", "x"]},
                 picked={"x": 4}),
               G(3, ["a", "b"], ["b"], "fifth", 5, 9, cards={"a": ["s1", "x"], "b": ["s2"]},
                 picked={"x": 3})]
    cards = sim.card_stats(results)
    x = cards["x"]
    assert (x["picked"], x["pick_rate"], x["held"], x["held_wins"]) == (3, 1.0, 3, 2)
    assert x["win_when_held"] == pytest.approx(2 / 3) and x["mean_round"] == 3
    assert x["interval"] == sim.wilson(2, 3)
    s1 = cards["s1"]   # a starting card: held every game, never picked
    assert (s1["pick_rate"], s1["mean_round"], s1["win_when_held"]) == (0.0, None,
                                                                         pytest.approx(1 / 3))
    table = {line.split()[0]: line for line in sim.format_cards(sim.report(results))[1:]}
    assert table["x"].split()[1] == "100.0%"
    assert table["s1"].split()[1] == "start"       # dealt, not a card nobody picks


def test_played_games_record_the_cards_held_and_when_they_were_taken(rules: object) -> None:
    job = replace(sim.jobs_for("en", None, 4, 1, 5, ["heuristic"])[0], round_cap=6)
    r = sim.play_one(job)
    starting = {"caesar", "pericles", "cleopatra", "hannibal", "hammurabi"}
    held = {c for cs in r.cards.values() for c in cs}
    assert starting & held == {"caesar", "pericles", "cleopatra", "hannibal"}
    assert r.picked and set(r.picked) <= held - starting
    assert all(1 <= rnd <= r.rounds for rnd in r.picked.values())


def test_paired_length_and_paths() -> None:
    a = [G(i, ["a", "b"], ["a"], "fifth", 6, 9) for i in range(6)]
    b = [G(i, ["a", "b"], ["a"], "conquest" if i < 5 else "fifth", 8, 9) for i in range(6)]
    more = sim.compare_games(a, b)
    ln = more["length"]
    assert (ln["difference"], ln["a_longer"], ln["b_longer"]) == (-2, 0, 6)
    assert ln["p"] == pytest.approx(2 / 64) and ln["ci95"] == (-2, -2)
    paths = {row["path"]: row for row in more["paths"]}
    assert paths["conquest"]["b_only"] == 5 and paths["conquest"]["p"] == pytest.approx(1 / 16)
    assert paths["fifth"]["a_only"] == 5
    # Holm over the two paths: both p = 1/16, adjusted to 1/8
    assert paths["conquest"]["p_holm"] == pytest.approx(1 / 8)
    same = sim.compare_games(a, a)
    assert same["length"]["p"] == 1.0 and all(r["difference"] == 0 for r in same["paths"])


def test_compare_keeps_both_sides_in_the_out_files_and_the_figure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: en\nparams:\n  hit_divisor: 4\n", encoding="utf-8")
    out, table, fig = tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "f.png"
    args = ["simulate", "--edition", "en",
            "--players", "3", "--games", "3", "--seed", "4", "--jobs", "1",
            "--bots", "random",
            "--quiet", "--variant", str(variant), "--compare", "en"]
    assert main([*args, "--out", str(out)]) == 0
    assert main([*args, "--out", str(table)]) == 0
    text = capsys.readouterr().out
    assert "game length:" in text and "victory paths (share of games" in text
    data = json.loads(out.read_text())
    assert data["side"].startswith("en + ") and data["compare"]["side"] == "en"
    assert len(data["games"]) == len(data["compare"]["games"]) == 3
    assert {"difference", "length", "paths", "report"} <= data["compare"].keys()
    assert [g["seed"] for g in data["games"]] == [g["seed"] for g in data["compare"]["games"]]
    lines = table.read_text().splitlines()
    assert lines[0].startswith("# provenance: ")     # the one line a reader skips
    rows = list(csv.DictReader(lines[1:]))
    assert [r["side"] for r in rows].count("en") == 3 and len(rows) == 6
    pytest.importorskip("matplotlib")
    assert main([*args, "--plot", str(fig)]) == 0
    assert fig.stat().st_size > 5000
