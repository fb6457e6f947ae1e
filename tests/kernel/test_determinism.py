"""Every game is a pure function of (pack, variant, players, seed, bots): the same seed
gives the same game (its whole choice history and final state) played alone by
``mnrules play`` in a fresh interpreter, inside a ``simulate`` batch after other games,
under one or two worker processes, and run after run (issue 14, item 1)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mnrules.frontends.cli import main
from mnrules.tools import simulate as sim
from mnrules.tools.log import load


def _jobs(n: int, cap: int = sim.ROUND_CAP, seed: int = 1) -> list[sim.Job]:
    return [replace(j, round_cap=cap)
            for j in sim.jobs_for("en", None, 5, n, seed, ["heuristic"])]


def test_play_gives_the_game_simulate_gives_that_seed(tmp_path: Path) -> None:
    jobs = _jobs(3)            # simulate --games 3 --seed 1: seeds 1000003, ..., 1000005
    seed = jobs[2].seed        # the third: played after two others in the batch
    assert seed == 1 * 1_000_003 + 2
    log, save = tmp_path / "g.jsonl", tmp_path / "g.json"
    # a fresh interpreter, with another string-hash seed than this one
    done = subprocess.run([sys.executable, "-m", "mnrules", "play", "--edition", "en",
                           "--seed", str(seed),
                           "--bots", "heuristic", "--log", str(log), "--save", str(save)],
                          capture_output=True, text=True, check=True, timeout=60,
                          env={"PYTHONHASHSEED": "12345", "PATH": "",
                               "PYTHONSAFEPATH": "1"})   # the installed mnrules (conftest)
    history = hashlib.sha256()
    for line in log.read_text(encoding="utf-8").splitlines():
        if '"choice"' in line and json.loads(line).keys() == {"player", "kind", "choice"}:
            history.update((line + "\n").encode())
    final = sim.state_hash(load(save)[0].state)
    for workers in (1, 2):
        game = sim.run(jobs, workers=workers)[2]
        assert game.seed == seed
        assert game.history == history.hexdigest()
        assert game.state_hash == final
        ending = done.stdout.lower().splitlines()[-1]
        assert all(w in ending.split("winner")[-1] for w in game.winners), ending


def test_parallel_runs_agree_game_by_game() -> None:
    jobs = _jobs(6, cap=8)
    runs = [sim.run(jobs, workers=2) for _ in range(3)] + [sim.run(jobs, workers=1)]
    first = [r.__dict__ for r in runs[0]]
    assert all(r.history and r.state_hash for r in runs[0])
    assert len({r.history for r in runs[0]}) == 6          # six different games
    for other in runs[1:]:
        assert [r.__dict__ for r in other] == first


def test_a_game_alone_equals_the_same_game_after_others(tmp_path: Path) -> None:
    job = _jobs(1, cap=8, seed=7)[0]
    alone = sim.play_one(job)
    variant = tmp_path / "dice.yaml"
    variant.write_text("extends: en\nparams: {land_die: [3, 3, 4, 4, 5, 5]}\n")
    for other in _jobs(2, cap=8, seed=8):   # other seeds, another rule set, other players
        sim.play_one(other)
        sim.play_one(replace(other, variant=str(variant)))
        sim.play_one(replace(other, players=3))
    assert sim.play_one(job).__dict__ == alone.__dict__


def test_an_a_a_compare_finds_no_game_that_differs(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    assert main(["simulate", "--edition", "en",
                 "--games", "4", "--seed", "3", "--bots", "heuristic",
                 "--jobs", "2", "--quiet", "--compare", "en"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "games differ" in line]
    assert len(rows) == 5
    assert all("+0.0%" in line and "p=1.000" in line and "(0 games differ" in line
               for line in rows)
