"""The rating table: a round robin in every seat rotation, games read as pairwise
results, Bradley–Terry strengths on the Elo scale with bootstrap intervals."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from mnrules.errors import MnrulesError
from mnrules.frontends.cli import main
from mnrules.tools import rating
from mnrules.tools import simulate as sim

G = sim.GameResult


def test_every_lineup_in_every_seat_rotation() -> None:
    seats = rating.lineups(4, 3)
    assert len(seats) == 4 * 3 and len(set(seats)) == 12
    for position in range(3):   # each bot sits in each seat equally often
        assert Counter(s[position] for s in seats) == {0: 3, 1: 3, 2: 3, 3: 3}
    assert rating.lineups(2, 4) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert rating.lineups(2, 3) == [(0, 1, 0), (1, 0, 0), (0, 0, 1)]
    with pytest.raises(MnrulesError, match="at least two bots"):
        rating.lineups(1, 3)


def test_a_game_is_read_as_pairwise_results() -> None:
    jobs = [sim.Job("en", None, 3, s, ("x", "y", "z")) for s in range(3)]
    results = [G(0, ["a", "b", "c"], ["a"], "fifth", 5, 9),
               G(1, ["a", "b", "c"], ["b", "c"], "fifth", 5, 9),
               G(2, ["a", "b", "c"], [], "round cap", 60, 9)]
    pairs = rating.pairwise(results, jobs, ["x", "y", "z"])
    assert pairs[0] == {(0, 1): 1.0, (0, 2): 1.0}               # y and z both lost: nothing
    assert pairs[1] == {(1, 0): 1.0, (2, 0): 1.0, (1, 2): 0.5, (2, 1): 0.5}
    assert pairs[2] == {}


def test_the_fit_recovers_known_strengths() -> None:
    rng = random.Random(3)
    truth = [4.0, 2.0, 1.0]
    games = []
    for _ in range(3000):
        i, j = rng.sample(range(3), 2)
        win = rng.random() < truth[i] / (truth[i] + truth[j])
        games.append({(i, j) if win else (j, i): 1.0})
    p = rating.fit(games, 3)
    assert p[0] / p[1] == pytest.approx(2.0, rel=0.15)
    assert p[1] / p[2] == pytest.approx(2.0, rel=0.15)
    # a bot that never wins keeps a finite rating (the prior)
    assert 0 < rating.fit([{(0, 1): 1.0}] * 5, 2)[1] < 1


def test_the_heuristic_bot_outrates_random_play() -> None:
    entrants = ["random", "heuristic"]
    jobs = rating.schedule("en", None, 3, entrants, 2, seed=2, round_cap=30)
    results = sim.run(jobs, workers=1)
    table = rating.rate(results, jobs, entrants, seed=2, bootstrap=20)
    assert table.rows[-1].bot == "random" and table.games == 6
    top = table.rows[0]
    assert top.rating > table.rows[-1].rating and top.interval[0] <= top.rating <= \
        top.interval[1]
    assert sum(r.fair for r in table.rows) == pytest.approx(table.games)
    assert table.expected[0][-1] > 0.5
    text = rating.format_table(table, "t")
    assert "rank  bot" in text and "P(row beats column)" in text


def test_rate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.json"
    assert main(["rate", "--edition", "en",
                 "--bots", "random,heuristic", "--players", "3", "--round-cap", "8",
                 "--jobs", "1", "--quiet", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["entrants"] == ["random", "heuristic"] and len(data["games"]) == 3
    assert main(["rate", "--edition", "en", "--bots", "random,random", "--quiet"]) == 2
    assert main(["rate", "--edition", "en", "--bots", "random,heuristc", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "named twice" in err and "unknown bot 'heuristc'" in err
