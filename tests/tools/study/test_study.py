"""``mnrules study`` as a variant designer uses it (issue 33, item 1): one command over
packs, variants, player counts and bots on the same seeds, every game streamed to disk
as it ends, one report — HTML with its figures inline and its Markdown twin — in the
pack's names, with the provenance, the cells out of the declared band, the leader
changes and the caveats the pack declares. Small studies: a few games, low round caps."""

from __future__ import annotations

import contextlib
import csv
import html
import io
import json
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from mnrules.errors import MnrulesError
from mnrules.frontends.cli import main
from mnrules.tools import provenance as prov
from mnrules.tools import simulate as sim
from mnrules.tools import study

VARIANT = "params: {storage_coins: 3}\n"
CELLS = ["en, 3 players, random", "en, 4 players, random",
         "en + {v}, 3 players, random", "en + {v}, 4 players, random"]


def run(*args: str) -> tuple[int, str, str]:
    """The command as a shell runs it: its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["study", *args])
    return code, out.getvalue(), err.getvalue()


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """en at 3 and 4 players, alone and with a variant, random bots, 4 games a cell, a
    band no table of 4 undecided games can meet (every interval lies below 55%)."""
    pytest.importorskip("matplotlib")
    folder = tmp_path_factory.mktemp("study")
    variant = folder / "coins.yaml"
    variant.write_text(VARIANT, encoding="utf-8")
    code, out, err = run("--packs", "en", "--players", "3,4", "--bots", "random",
                         "--variants", str(variant), "--games", "4", "--round-cap", "3",
                         "--band", "55,75", "--jobs", "1", "--quiet",
                         "--out", str(folder / "report.html"))
    assert code == 0, err
    return {"folder": folder, "variant": str(variant), "out": out,
            "cells": [c.format(v=variant) for c in CELLS],
            "html": (folder / "report.html").read_text(encoding="utf-8"),
            "md": (folder / "report.md").read_text(encoding="utf-8"),
            "jsonl": lines(folder / "report.jsonl")}


def test_the_report_holds_every_cell_in_the_packs_names(tiny: dict[str, Any]) -> None:
    for text in (html.unescape(tiny["html"]), tiny["md"]):
        for cell in tiny["cells"]:
            assert cell in text
        for empire in ("Rome", "Greece", "Carthage", "Egypt"):
            assert empire in text
        assert "Every cell side by side" in text and "Victory paths" in text
        assert "Game length" in text and "Order of play" in text
        assert "First to act in each phase" in text and "Move & Fight" in text
    # the ids stay in the raw data: the report names the empires as the pack does
    assert not re.search(r"\b(rome|greece|carthage|egypt|mare_nostrum)\b", tiny["md"])


def test_the_html_is_one_file_with_its_figures_inline(tiny: dict[str, Any]) -> None:
    page = tiny["html"]
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert not re.search(r"""(src|href)=["']?(https?:|//|file:)""", page)
    # the summary's figure and one a cell, each a PNG in the page
    assert page.count('src="data:image/png;base64,') == 1 + len(tiny["cells"])
    assert "Figure (in the HTML report)" in tiny["md"]


def test_every_game_is_a_line_of_the_raw_data(tiny: dict[str, Any]) -> None:
    head, *games = tiny["jsonl"]
    assert head["format"] == study.FORMAT
    assert [c["label"] for c in head["study"]["cells"]] == tiny["cells"]
    assert len(games) == 4 * len(tiny["cells"])
    by_cell: dict[str, list[int]] = {}
    for g in games:
        by_cell.setdefault(json.dumps(g["cell"]), []).append(g["index"])
        assert g["game"]["rounds"] == 3 and g["game"]["players"]
    assert sorted(map(sorted, by_cell.values())) == [[0, 1, 2, 3]] * 4
    with open(tiny["folder"] / "report.csv", encoding="utf-8", newline="") as f:
        first, *rows = list(csv.reader(f))
    assert first[0].startswith("# provenance: ")
    assert rows[0] == study.CSV_HEADER and len(rows) == 1 + len(games)


def test_every_cell_plays_the_same_seeds(tiny: dict[str, Any]) -> None:
    seeds: dict[str, list[int]] = {}
    for g in tiny["jsonl"][1:]:
        seeds.setdefault(json.dumps(g["cell"]), []).append(g["game"]["seed"])
    expected = [1 * 1_000_003 + i for i in range(4)]
    assert all(sorted(s) == expected for s in seeds.values()) and len(seeds) == 4
    assert "1000003, 1000004, 1000005, 1000006: 4 seeds, the same in every cell" \
        in tiny["md"]


def test_a_cell_wholly_outside_the_band_is_flagged(tiny: dict[str, Any]) -> None:
    md = tiny["md"]
    assert "within **55.0%–75.0%**" in md
    assert "**4 of 4 cells are out of the band:**" in md
    assert "**Rome below the band** (0.0% [0.0%, 49.0%])" in md
    assert "0.0% [0.0%, 49.0%] ▼" in md                # in the side-by-side table
    assert "4 of 4 cells are out of the band" in tiny["out"]   # said on the terminal too


def test_the_report_carries_its_provenance_and_the_packs_caveats(
        tiny: dict[str, Any]) -> None:
    md = tiny["md"]
    record = prov.pack_record("en", tiny["variant"])
    assert record["pack_sha256"] in md and record["variant_sha256"] in md
    assert record["cards_sha256"] in md
    assert "`mnrules study --packs en --players 3,4" in md
    assert "rounds after which a game stops undecided: 3 (--round-cap)" in md
    head = tiny["jsonl"][0]["provenance"]
    assert head["round_caps"] == {"en": 3} and head["band"] == [0.55, 0.75]
    # the readings the pack takes, and the board it reconstructs where 3 players play
    assert "**D08**: Greece is the culture leader at 3 players" in md
    assert "board areas in play is reconstructed: Africa." in md
    assert f"**en + {tiny['variant']}**: the same readings and board facts as en alone" \
        in md


def test_antike2_studies_too(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "a2.md"
    code, text, err = run("--packs", "antike2", "--players", "3", "--bots", "random",
                          "--games", "2", "--round-cap", "2", "--jobs", "1", "--quiet",
                          "--out", str(out))
    assert code == 0, err
    md = out.read_text(encoding="utf-8")
    assert not (tmp_path / "a2.html").exists()
    assert "antike2, 3 players, random" in md
    assert all(nation in md for nation in ("Yellow", "Green", "Blue"))
    assert "**No balance band was declared**" in md and "No balance band" in text
    assert "**rondel_free**" in md.replace("\\_", "_")            # a reading of the book
    assert re.search(r"\d+ of the \d+ board areas in play are reconstructed: ", md)
    assert len(lines(tmp_path / "a2.jsonl")) == 1 + 2


@pytest.mark.parametrize(("args", "needle"), [
    (["--packs", "frr"], "--packs: unknown edition 'frr'; did you mean 'fr'?"),
    (["--packs", "en", "--variants", "nowhere.yaml"], "--variants nowhere.yaml on en:"),
    (["--packs", "en", "--players", "3,6"], "--players 6: en seats 3, 4, 5 players"),
    (["--packs", "en", "--bots", "random,randm"], "--bots: unknown bot 'randm'"),
    (["--packs", "en", "--band", "28,12"], "--band 28,12: give the lowest and the highest"),
    (["--packs", "en", "--band", "12"], "--band 12: give the lowest"),
    (["--packs", "en", "--games", "0"], "--games: expected at least 1"),
    (["--packs", "en,en"], "--packs en,en: a pack is named twice"),
])
def test_a_bad_option_is_refused_before_any_game(tmp_path: Path, args: list[str],
                                                 needle: str) -> None:
    code, out, err = run(*args, "--quiet", "--out", str(tmp_path / "r.html"))
    assert code == 2
    assert needle in err and err.startswith("mnrules: error: ")
    assert "Traceback" not in err and out == ""
    assert not any(tmp_path.iterdir())                # nothing played, nothing written


def test_a_report_file_must_be_html_or_markdown(tmp_path: Path) -> None:
    code, _, err = run("--packs", "en", "--out", str(tmp_path / "r.txt"))
    assert code == 2 and "--out " in err and "give a file ending in .html" in err


def test_a_killed_study_keeps_its_games_and_resume_plays_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    args = ["--packs", "en", "--players", "3,4", "--bots", "random", "--games", "2",
            "--round-cap", "2", "--jobs", "1", "--quiet", "--out", str(tmp_path / "r.html")]
    real = sim.play_one
    calls: list[sim.Job] = []

    def interrupted(job: sim.Job) -> sim.GameResult:
        calls.append(job)
        if len(calls) == 3:
            raise KeyboardInterrupt   # Ctrl-C in the middle of the third game
        return real(job)

    monkeypatch.setattr(sim, "play_one", interrupted)
    code, _, err = run(*args)
    assert code == 130
    assert "the 2 games played so far are in" in err and "--resume" in err
    data = tmp_path / "r.jsonl"
    assert len(lines(data)) == 1 + 2                 # the header and the two games
    # game 0 of each cell first: a study stopped early has every cell about as far
    assert [g["index"] for g in lines(data)[1:]] == [0, 0]
    monkeypatch.setattr(sim, "play_one", real)
    code, _, err = run(*args)
    assert code == 2 and "give --resume to go on with them" in err
    code, _, err = run(*args, "--resume")
    assert code == 0, err
    games = [g for g in lines(data) if "cell" in g]
    assert len(games) == 4 and sum("resumed" in g for g in lines(data)) == 1
    # the games are those a straight run plays
    for g in games:
        p, v, n, b = g["cell"]
        job = sim.jobs_for(p, v, n, 2, 1, [b], 2)[g["index"]]
        assert g["game"] == json.loads(json.dumps(asdict(real(job))))
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "2 games were played by an earlier run of this study" in md
    with open(tmp_path / "r.csv", encoding="utf-8", newline="") as f:
        assert len(list(csv.reader(f))) == 2 + 4


def test_resume_refuses_games_played_under_another_seed(tmp_path: Path) -> None:
    args = ["--packs", "en", "--players", "3", "--bots", "random", "--games", "1",
            "--round-cap", "1", "--jobs", "1", "--quiet", "--out", str(tmp_path / "r.md")]
    assert run(*args)[0] == 0
    code, _, err = run(*args, "--resume", "--seed", "2")
    assert code == 2 and "were played with --seed 1; give the same seed" in err


def _cell(pack: str, players: int, wins: dict[str, int], games: int = 40
          ) -> study.CellResult:
    """A cell whose games ``wins`` says who won (the rest undecided)."""
    rules = study.rules_of(pack)
    seats = rules.seating[players]
    winners = [w for w, k in wins.items() for _ in range(k)]
    winners += [""] * (games - len(winners))
    results = [sim.GameResult(i, list(seats), [w] if w else [], "prestige" if w else
                              "round cap", 6, 100) for i, w in enumerate(winners)]
    plan = study.Study([], games, 1, None, (0.12, 0.28))
    return study.cell_result(plan, study.Cell(pack, None, players, "heuristic"), results)


def test_a_leader_that_changes_with_the_player_count_is_flagged() -> None:
    plan = study.Study([], 40, 1, None, (0.12, 0.28))
    three = _cell("en", 3, {"rome": 30, "greece": 5, "carthage": 5})
    four = _cell("en", 4, {"rome": 4, "greece": 30, "carthage": 3, "egypt": 3})
    (change,) = study.leader_changes([three, four])
    assert change.dimension == "player count" and change.clear
    text = study.text_summary(plan, [three, four])
    assert "The leader changes with the player count (en, heuristic): Rome at 3 " \
        "players (75.0%); Greece at 4 players (75.0%)" in text
    assert "no chance of the sample" in text
    assert "Rome above the band (75.0% [59.8%, 85.8%])" in text
    close = _cell("en", 4, {"rome": 9, "greece": 10, "carthage": 10, "egypt": 11})
    (change,) = study.leader_changes([_cell("en", 3, {"rome": 12, "greece": 10,
                                                      "carthage": 10}), close])
    assert not change.clear
    assert "The intervals overlap: more games are needed" in study.text_summary(
        plan, [_cell("en", 3, {"rome": 12, "greece": 10, "carthage": 10}), close])
    assert study.leader_changes([three, three]) == []


def test_a_cell_is_out_only_when_its_interval_lies_wholly_outside() -> None:
    assert study.against((0.30, 0.40), 0.12, 0.28) == "above"
    assert study.against((0.02, 0.10), 0.12, 0.28) == "below"
    assert study.against((0.13, 0.27), 0.12, 0.28) == "within"
    assert study.against((0.20, 0.35), 0.12, 0.28) == "straddles"


def test_each_game_is_on_disk_as_it_ends_from_every_worker(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A study killed with SIGKILL loses nothing it played: each line is handed to the
    system as its game ends (read back here through another handle), whichever worker
    played it; and the games are those one process plays."""
    pytest.importorskip("matplotlib")
    seen: list[int] = []
    write = study.Stream.write

    def checked(self: study.Stream, cell: study.Cell, index: int,
                result: sim.GameResult) -> None:
        write(self, cell, index, result)
        seen.append(self.jsonl_path.read_text(encoding="utf-8").count("\n"))

    monkeypatch.setattr(study.Stream, "write", checked)
    args = ["--packs", "en", "--players", "3", "--bots", "random", "--games", "3",
            "--round-cap", "1", "--quiet"]
    assert run(*args, "--jobs", "2", "--out", str(tmp_path / "two.md"))[0] == 0
    assert seen == [2, 3, 4]                                  # the header, then a game
    assert run(*args, "--jobs", "1", "--out", str(tmp_path / "one.md"))[0] == 0

    def games(name: str) -> list[Any]:
        return sorted((g["index"], g["game"]) for g in lines(tmp_path / name)
                      if "cell" in g)
    assert games("two.jsonl") == games("one.jsonl")


def test_the_plan_crosses_packs_variants_player_counts_and_bots() -> None:
    own = str(ROOT / "editions" / "mare_nostrum" / "variants" / "rome_without_market.yaml")
    plan = study.plan("en,fr", own, None, "random,heuristic", 10, 1, None, "12,28")
    assert plan.band == (0.12, 0.28)
    # every count each pack seats; the variant names its own pack (en): only there
    assert [c.label for c in plan.cells if c.bots == "random"] == [
        "en, 3 players, random", "en, 4 players, random", "en, 5 players, random",
        f"en + {own}, 3 players, random", f"en + {own}, 4 players, random",
        f"en + {own}, 5 players, random",
        "fr, 3 players, random", "fr, 4 players, random", "fr, 5 players, random"]
    assert len(plan.cells) == 18 and "played on that pack only" in plan.notes[0]
    with pytest.raises(MnrulesError, match=r"--variants .*: it extends en, which is not "
                                           r"among --packs \(fr\)"):
        study.plan("fr", own, None, "random", 10, 1, None, None)
    # the same seeds in every cell, in the seeds' order first
    jobs = plan.jobs()
    assert [j.seed for _, _, j in jobs[:18]] == [1_000_003] * 18
    assert {j.seed for c, i, j in jobs if i == 9} == {1_000_012}
