"""The tools say what is true and refuse what they cannot do before doing anything: an
undone choice leaves the log, round counts are the rounds played, render reads a save,
and simulate, play, replay and fuzz check their options first (issue 17, items 11-14)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from mnrules import load_ruleset, new_game
from mnrules.frontends.cli import build_parser, main
from mnrules.tools.log import LogError, Recorder, read_log, replay
from mnrules.tools.simulate import worker_count

UNDO = "metal\nu\nmetal\nmetal\nwine\ncoin\nsheep\nq\n"


def mnrules(*args: str, stdin: str = "", cwd: Path | None = None
            ) -> subprocess.CompletedProcess[str]:
    # the installed mnrules, as the tests import it, from any folder (conftest.py keeps
    # the folder off the path: a bare checkout is no install, its games are not found)
    return subprocess.run([sys.executable, "-m", "mnrules", *args], input=stdin, text=True,
                          capture_output=True, cwd=cwd or ROOT, timeout=300)


# -- 11. an undone choice leaves the log --------------------------------------------------------
def test_undo_at_the_terminal_leaves_a_log_that_replays(tmp_path: Path) -> None:
    log = tmp_path / "undo.jsonl"
    played = mnrules("play", "--edition", "en",
                     "--human", "rome", "--bots", "heuristic", "--seed", "3",
                     "--log", str(log), stdin=UNDO)
    assert played.returncode == 0, played.stderr
    assert "undone." in played.stdout
    result = replay(log)
    assert result.divergence is None
    _, records = read_log(log)
    romes = [r["choice"] for _, r in records if r.get("player") == "rome"]
    assert romes == ["metal", "metal", "wine", "coin", "sheep"]   # the first metal undone
    assert mnrules("replay", str(log)).returncode == 0


class Pipe(io.StringIO):
    """A log that cannot be cut (a pipe)."""

    def seekable(self) -> bool:
        return False


def test_an_undo_a_pipe_cannot_cut_is_written_and_read_back(tmp_path: Path) -> None:
    game = new_game(load_ruleset("en"), 5, seed=3)
    out = Pipe()
    rec = Recorder(out)
    rec.header(game, "en", None)
    rec.attach(game)
    first = game.pending.options[0]            # type: ignore[union-attr]
    game.apply(first)
    rec.undo()                                 # as the terminal does after its own undo
    path = tmp_path / "piped.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    assert '{"undo": 1}' in out.getvalue()
    _, records = read_log(path)
    assert records == []


def test_a_seekable_log_is_cut_back(tmp_path: Path) -> None:
    game = new_game(load_ruleset("en"), 5, seed=3)
    out = io.StringIO()
    rec = Recorder(out)
    rec.header(game, "en", None)
    rec.attach(game)
    head = out.getvalue()
    game.apply(game.pending.options[0])        # type: ignore[union-attr]
    assert out.getvalue() != head
    rec.undo()
    assert out.getvalue() == head
    rec.on_choice(game.pending, game.pending.options[0])  # type: ignore[arg-type,union-attr]
    assert out.getvalue().count("\n") == 2


def test_an_undo_line_with_nothing_to_undo_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    head = {"format": "mnrules-log/1", "pack": "en", "players": ["rome", "greece", "carthage"],
            "seed": 1}
    path.write_text(json.dumps(head) + '\n{"undo": 1}\n', encoding="utf-8")
    with pytest.raises(LogError, match=r"bad.jsonl:2: undo: no choice left to undo"):
        read_log(path)
    path.write_text(json.dumps(head) + '\n{"undo": true}\n', encoding="utf-8")
    with pytest.raises(LogError, match=r":2: undo: expected a number of choices"):
        read_log(path)


# -- 12. round counts ---------------------------------------------------------------------------
def test_a_game_won_in_round_n_says_round_n(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--edition", "en", "--bots", "heuristic", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    last_round = [ln for ln in lines if ln.startswith("Round ")][-1]
    n = int(last_round.split()[1])
    assert lines[-1].startswith(f"Game over in round {n} (")


def test_quitting_mid_round_says_the_round_and_phase(tmp_path: Path) -> None:
    played = mnrules("play", "--edition", "en", "--human", "rome", "--seed", "3", stdin="q\n")
    assert played.returncode == 0, played.stderr
    assert played.stdout.rstrip().endswith("Stopped in round 1 (Trade phase); no winner yet.")


def test_stopping_between_rounds_says_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--edition", "en", "--seed", "2", "--rounds", "2"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(
        "Stopped at the start of round 3; no winner yet.")


def test_simulated_game_lengths_count_the_round_won_in() -> None:
    from mnrules.bots import make_bot
    from mnrules.tools.simulate import Job, play_one, rounds_played

    rules = load_ruleset("en")
    game = new_game(rules, 5, seed=11)
    bots = {p: make_bot("random", 11 * 1009 + i, rules)
            for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None:
        game.apply(bots[dec.player].choose(game))
    assert game.state.phase and rounds_played(game.state) == game.state.round
    assert play_one(Job("en", None, 5, 11, ("random",))).rounds == game.state.round


# -- 13. render reads a save --------------------------------------------------------------------
def test_render_reads_a_save_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "g.save"
    assert main(["play", "--edition", "fr", "--seed", "4", "--rounds", "2", "--save",
                 str(save)]) == 0
    picture = tmp_path / "g.svg"
    assert main(["render", "--edition", "en", str(save), "-o", str(picture)]) == 0
    assert "drew round 3" in capsys.readouterr().out
    assert picture.read_text(encoding="utf-8").lstrip().startswith("<")


# -- 14. options checked first, said in --help --------------------------------------------------
@pytest.mark.parametrize(("args", "needle"), [
    (["simulate", "--edition", "en",
      "--games", "3", "--plot", "x.xyz"], "--plot x.xyz: give a file ending in "
                                                      ".png, .svg, .pdf"),
    (["simulate", "--edition", "en",
      "--games", "3", "--plot", "x.pgf"], "--plot x.pgf: give a file ending in"),
    (["simulate", "--edition", "en",
      "--games", "3", "--out", "x.txt"], "--out x.txt: give a file ending in "
                                                     ".json"),
    (["simulate", "--edition", "en",
      "--games", "3", "--compare", "frr"], "--compare: unknown edition 'frr'; "
                                                       "did you mean 'fr'?"),
    (["play", "--edition", "en",
      "--lang", "xx"], "--lang: unknown language 'xx' (this game's packs are in: en, "
                               "fr, nl, pl, uk)"),
    (["play", "--edition", "en", "--lang", "fra"], "did you mean 'fr'?"),
])
def test_a_bad_option_is_refused_before_any_game(tmp_path: Path, args: list[str],
                                                 needle: str, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    out = capsys.readouterr()
    assert needle in out.err
    assert out.out == ""                     # nothing was played, nothing written
    assert not any(tmp_path.iterdir())


def test_lang_takes_a_language_or_a_pack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--edition", "en", "--lang", "fr", "--rounds", "1"]) == 0
    assert "Commerce" in capsys.readouterr().out


def test_jobs_default_to_half_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    for cores, expected in ((16, 8), (3, 1), (1, 1)):
        monkeypatch.setattr(os, "cpu_count", lambda n=cores: n)
        assert worker_count(None, 1000) == expected
    assert worker_count(None, 2) == 1 or os.cpu_count() == 1


def test_every_option_of_play_and_simulate_says_what_it_does() -> None:
    parser = build_parser()
    subs = next(a for a in parser._actions if a.dest == "command").choices  # type: ignore
    for command in ("play", "simulate", "fuzz", "replay", "render"):
        for action in subs[command]._actions:
            if action.dest != "help":
                assert action.help, f"{command} {action.option_strings or action.dest}"
    jobs = next(a for a in subs["simulate"]._actions if a.dest == "jobs")
    assert "half the cores, at least 1" in jobs.help


VARIANT = "params: {storage_coins: 3}\n"


def test_a_log_with_a_relative_variant_replays_from_elsewhere(tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    (here / "v.yaml").write_text(VARIANT, encoding="utf-8")
    played = mnrules("play", "--edition", "en",
                     "--variant", "v.yaml", "--seed", "5", "--rounds", "2", "--log",
                     "g.jsonl", "--save", "g.save", cwd=here)
    assert played.returncode == 0, played.stderr
    header, _ = read_log(here / "g.jsonl")
    assert header["variant"] == str((here / "v.yaml").resolve())
    replayed = mnrules("replay", str(here / "g.jsonl"), cwd=there)
    assert replayed.returncode == 0, replayed.stderr
    assert mnrules("play", "--load", str(here / "g.save"), "--rounds", "1",
                   cwd=there).returncode == 0
    # a log written before (a relative path) is looked for beside the log
    lines = (here / "g.jsonl").read_text(encoding="utf-8").splitlines()
    old = json.loads(lines[0])
    old["variant"] = "v.yaml"
    (here / "old.jsonl").write_text("\n".join([json.dumps(old), *lines[1:]]) + "\n",
                                    encoding="utf-8")
    assert mnrules("replay", str(here / "old.jsonl"), cwd=there).returncode == 0


def test_fuzz_plays_a_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mnrules.tools.fuzz import Failure, write_log

    variant = tmp_path / "v.yaml"
    variant.write_text(VARIANT, encoding="utf-8")
    assert main(["fuzz", "--games", "2", "--variant", str(variant), "--players", "3",
                 "--quiet", "--logs", str(tmp_path)]) == 0
    assert "2 games" in capsys.readouterr().out
    assert main(["fuzz", "--games", "1", "--variant", str(tmp_path / "nope.yaml"),
                 "--quiet", "--logs", str(tmp_path)]) == 2
    log = tmp_path / "f.jsonl"
    write_log(Failure("en", 3, 7, [0, 1, 0, 2], "none"), str(log), variant=str(variant))
    header, _ = read_log(log)
    assert header["variant"] == str(variant.resolve())
    result = replay(log)
    assert result.divergence is None
    assert result.game.rules.params["storage_coins"] == 3
