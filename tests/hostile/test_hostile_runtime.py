"""Hangs, faults and the command line under hostile use: no pack spins forever, a killed
simulation worker loses no game, Ctrl-C stops cleanly, no write ever destroys the previous
file, an output that cannot be written is refused before the work, and no command line —
however wrong — gives anything but a clean message.

:func:`hostile_cli` is a plain function so that a bigger count can be run by hand:
``python -c "import sys; sys.path[:0] = ['tests', 'tests/hostile'];
from test_hostile_runtime import *; hostile_cli(3000, 1)"``.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, TESTS
from limits import assert_clean_error, mnrules, python, run_limited
from mnrules import files, load_ruleset, new_game
from mnrules.core import engine
from mnrules.core.engine import CONTINUE, Decision, Frame, Game, Step
from mnrules.core.flow import IDLE_ROUNDS, IDLE_VICTORY
from mnrules.errors import MnrulesError, PackError, StateError
from mnrules.frontends.cli import main
from mnrules.tools import simulate as sim
from mnrules.tools.log import replay


def _variant(tmp_path: Path, phases: str, name: str = "v.yaml") -> str:
    path = tmp_path / name
    path.write_text(f"extends: en\nphases: {phases}\n", encoding="utf-8")
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out = capsys.readouterr()
    return code, out.out, out.err


# -- 1. hangs -------------------------------------------------------------------------------
@pytest.mark.parametrize(("phases", "needle"), [
    ("[]", "names no phase"),
    ("[game]", "'game' is the engine's own step"),
    ("[production, round]", "'round' is the engine's own step"),
])
def test_a_pack_whose_rounds_cannot_run_is_refused(tmp_path: Path, phases: str,
                                                   needle: str) -> None:
    variant = _variant(tmp_path, phases)
    assert_clean_error(mnrules("play", "--edition", "en",
                               "--variant", variant, "--rounds", "2", timeout=30),
                       needle, "v.yaml")
    assert_clean_error(mnrules("simulate", "--edition", "en",
                               "--variant", variant, "--games", "4", "--jobs", "2",
                               "--quiet", timeout=30), needle, "v.yaml")
    with pytest.raises(PackError, match=needle):
        new_game(load_ruleset("en", variant=variant), 3, seed=1)


def test_rounds_that_ask_nothing_count_and_end_the_game(tmp_path: Path) -> None:
    variant = _variant(tmp_path, "[production]")
    out = mnrules("play", "--edition", "en", "--variant", variant, "--rounds", "2", timeout=30)
    assert not out.timed_out and out.returncode == 0, out.stderr[-2000:]
    assert "Stopped at the start of round 3" in out.stdout
    rules = load_ruleset("en", variant=variant)
    capped = new_game(rules, 3, seed=1, round_cap=4)
    assert capped.pending is None and capped.state.victory == "round cap"
    assert capped.state.round == 5
    idle = new_game(rules, 3, seed=1)
    assert idle.pending is None and idle.state.victory == IDLE_VICTORY
    assert idle.state.round == IDLE_ROUNDS + 1
    # a simulation of such a pack ends too
    (result,) = sim.run([sim.Job("en", variant, 3, 1, ("random",))])
    assert result.victory == IDLE_VICTORY and result.decisions == 0


class _PushesItself(Step):
    def advance(self, game: Game, frame: Frame) -> Decision | str:
        game.push("echo")
        return CONTINUE


class _NeverEnds(Step):
    def advance(self, game: Game, frame: Frame) -> Decision | str:
        return CONTINUE


def test_a_step_that_never_asks_nor_ends_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_ruleset("en")
    rules.steps["echo"] = _PushesItself()
    rules.steps["spin"] = _NeverEnds()
    try:
        game = new_game(rules, 3, seed=1)
        game.state.stack.append({"step": "echo"})
        with pytest.raises(StateError, match=r"'echo' would make the stack \d+ frames deep"):
            _ = game.pending
        assert len(game.state.stack) <= engine.MAX_DEPTH
        monkeypatch.setattr(engine, "MAX_STEPS", 5000)
        game = new_game(rules, 3, seed=1)
        game.state.stack.append({"step": "spin"})
        with pytest.raises(StateError, match=r"no decision after 5,000 steps .*'spin'"):
            _ = game.pending
    finally:
        del rules.steps["echo"], rules.steps["spin"]


# -- 2. simulate: a killed worker, Ctrl-C ---------------------------------------------------
def _jobs(n: int = 6) -> list[sim.Job]:
    return [replace(j, round_cap=3) for j in sim.jobs_for("en", None, 3, n, 4, ["random"])]


KILL_ONCE = """
import os
from dataclasses import replace
from mnrules import simulate as sim
jobs = [replace(j, round_cap=3) for j in sim.jobs_for("en", None, 3, 6, 4, ["random"])]
straight = sim.run_local(jobs, 1)
real = sim.play_one
def dies_once(job):
    if job.seed == jobs[2].seed and not os.path.exists({marker!r}):
        open({marker!r}, "w").close()
        os._exit(9)          # the worker is killed in the middle of game 3
    return real(job)
sim.play_one = dies_once     # forked workers inherit it
assert [r.__dict__ for r in sim.run_local(jobs, 2)] == [r.__dict__ for r in straight]
assert os.path.exists({marker!r})
print("same results")
"""


def test_a_killed_worker_loses_no_game(tmp_path: Path) -> None:
    code = KILL_ONCE.format(marker=str(tmp_path / "killed"))
    out = python(code, timeout=60)
    assert not out.timed_out, "simulate hung after a worker died"
    assert out.returncode == 0 and "same results" in out.stdout, out.stderr[-3000:]


def test_a_worker_killed_from_outside_loses_no_game() -> None:
    import multiprocessing

    jobs = _jobs(6)
    straight = sim.run_local(jobs, 1)
    killed: list[int] = []

    def kill_one(_: int) -> None:
        if not killed:
            for child in multiprocessing.active_children():
                if child.name.startswith("mnrules-simulate") and child.pid:
                    os.kill(child.pid, signal.SIGKILL)
                    killed.append(child.pid)
                    break

    assert [r.__dict__ for r in sim.run_local(jobs, 2, kill_one)] == \
        [r.__dict__ for r in straight]
    assert killed


def test_a_game_that_always_kills_its_worker_is_a_clean_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = _jobs(3)
    monkeypatch.setattr(sim, "play_one", lambda job: os._exit(9))
    with pytest.raises(sim.WorkerError, match=r"game \d \(seed \d+\): its worker process died "
                                              r"3 times"):
        sim.run_local(jobs, 2)


def test_ctrl_c_stops_a_simulation_in_one_line() -> None:
    # as from a terminal, where Ctrl-C is not ignored: a signal ignored is inherited, and
    # an earlier test of the suite may have left this process ignoring SIGINT
    proc = subprocess.Popen([sys.executable, "-m", "mnrules", "simulate", "--edition", "en",
                             "--games", "400",
                             "--jobs", "2", "--quiet"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:   # the rules loaded, the workers playing
            time.sleep(0.2)
            with contextlib.suppress(OSError):
                if not children.exists() or children.read_text().split():
                    break
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)   # as a terminal's Ctrl-C: the whole group
        _, err = proc.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, (proc.returncode, err[-2000:])
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert err.strip().splitlines()[-1] == "mnrules: interrupted"


# -- 3. atomic writes and output paths ------------------------------------------------------
def test_a_failed_write_keeps_the_old_file(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.save"
    files.write_atomic(path, "old contents")

    def full(*_: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full)
    with pytest.raises(files.OutputError, match=r"g\.save: No space left on device"):
        files.write_atomic(path, "new contents " * 1000)
    with pytest.raises(files.OutputError), files.streaming(path) as f:
        f.write("new line\n")
    monkeypatch.undo()
    assert path.read_text() == "old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.save"]   # no temporary left


def test_an_existing_file_keeps_its_permissions_and_links(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("{}")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    files.write_atomic(link, "[1]")
    assert link.is_symlink() and target.read_text() == "[1]"
    assert target.stat().st_mode & 0o777 == 0o640


FILE_SIZE_LIMIT = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)    # a write past the limit fails (EFBIG)
resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))
from mnrules.frontends.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(("argv", "name"), [
    (["play", "--edition", "en", "--seed", "3", "--rounds", "2", "--save"], "g.save"),
    (["render", "--edition", "en", "new", "-o"], "b.svg"),
])
def test_a_write_cut_short_leaves_the_old_file_whole(tmp_path: Path, argv: list[str],
                                                     name: str) -> None:
    """As on a full disk: the write fails half-way (a file size limit in a child); the
    error is clean and names the file, the old file is intact, nothing is left behind."""
    target = tmp_path / name
    if name == "g.save":
        assert main(["play", "--edition", "en",
                     "--seed", "5", "--rounds", "1", "--save", str(target)]) == 0
    else:
        target.write_text("old " * 1000)
    before = target.read_bytes()
    assert len(before) > 3000 or name != "g.save"
    out = run_limited([sys.executable, "-c", FILE_SIZE_LIMIT, *argv, str(target)],
                      timeout=60)
    assert_clean_error(out, name)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_a_log_on_a_full_disk_keeps_the_lines_written(tmp_path: Path) -> None:
    """The disk fills up half-way through a game (a file size limit in a child): the
    log holds every whole line written before, replays as far as it goes, and the error
    says so in one sentence."""
    log = tmp_path / "g.jsonl"
    log.write_text("an older log\n")
    out = run_limited([sys.executable, "-c", FILE_SIZE_LIMIT, "play", "--seed", "3",
                       "--log", str(log)], timeout=60)
    assert_clean_error(out, "g.jsonl", "File too large", "whole lines written before")
    text = log.read_text()
    assert text.endswith("\n") and 2000 < len(text) <= 3000
    assert replay(log).divergence is None or "does not have" in str(replay(log).divergence)
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_game_stopped_by_a_signal_keeps_its_log(tmp_path: Path, sig: int) -> None:
    """``timeout``, a CI cancel, a closed terminal: the log is put in place as on Ctrl-C,
    cut after a whole choice (never between a choice and its draws), and replays."""
    log = tmp_path / "g.jsonl"
    log.write_text("an older log\n")
    # search bots: a game of seconds, so the signal finds it under way on a fast machine
    # too (random bots can finish a game between two looks at its log)
    proc = subprocess.Popen([sys.executable, "-m", "mnrules", "play", "--edition", "en",
                             "--seed", "4",
                             "--bots", "mcts:2", "--log", str(log)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            # a player's terminal, not this run's: under nohup the
                            # hangup is ignored, and mnrules keeps an ignored one so
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))
    try:
        temp = f".{log.name}."
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:   # the game under way, its lines streaming
            time.sleep(0.1)
            if any(p.name.startswith(temp) and p.stat().st_size > 20_000
                   for p in tmp_path.iterdir()):
                break
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 128 + sig, (proc.returncode, err[-2000:])
    assert err.strip().splitlines()[-1] == f"mnrules: stopped by {signal.Signals(sig).name}"
    assert "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]
    result = replay(log)
    assert result.divergence is None and result.choices > 50


def test_an_interrupted_game_keeps_its_log_as_far_as_it_got(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    log.write_text("an older log\n")
    real = Game.apply
    calls = [0]

    def interrupted(self: Game, choice: Any) -> None:
        calls[0] += 1
        if calls[0] == 60:
            raise KeyboardInterrupt
        real(self, choice)

    monkeypatch.setattr(Game, "apply", interrupted)
    code, _, err = _run(capsys, "play", "--edition", "en", "--seed", "4", "--log", str(log))
    monkeypatch.undo()
    assert code == 130 and err.strip() == "mnrules: interrupted"
    result = replay(log)
    assert result.divergence is None and result.choices == 59


OUTPUTS = [
    ("simulate", "--out", "r.json"), ("simulate", "--plot", "f.png"),
    ("play", "--save", "g.save"), ("play", "--log", "g.jsonl"),
    ("render", "-o", "b.svg"), ("replay", "--out", "s.json"),
]


def _command(kind: str, option: str, path: str, tmp_path: Path) -> list[str]:
    if kind == "simulate":
        return ["simulate", "--edition", "en", "--games", "50", "--quiet", option, path]
    if kind == "play":
        return ["play", "--edition", "en", "--rounds", "3", option, path]
    if kind == "render":
        return ["render", "--edition", "en", "new", "--rounds", "2", option, path]
    log = tmp_path / "ok.jsonl"
    if not log.exists():
        assert main(["play", "--edition", "en",
                     "--seed", "2", "--rounds", "1", "--log", str(log)]) == 0
    return ["replay", str(log), option, path]


@pytest.mark.parametrize(("kind", "option", "name"), OUTPUTS)
def test_an_output_that_cannot_be_written_is_refused_before_the_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        kind: str, option: str, name: str) -> None:
    import mnrules.tools.log

    def no_work(*_: Any, **__: Any) -> Any:
        raise AssertionError("the work started before the output was checked")

    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    (tmp_path / f"dir.{name}").mkdir()
    bad = [(str(tmp_path / "missing" / name), "does not exist"),
           (str(tmp_path / f"dir.{name}"), "is a folder"),
           (str(a_file / name), "is not a folder")]
    if Path("/proc/version").exists():
        bad.append((f"/proc/{name}", "cannot write in /proc"))
    if kind == "replay":
        _command(kind, option, "x", tmp_path)   # the log to replay, written first
    from mnrules.frontends.cli import common, play, render, simulate

    for attr, module in (("run", sim), ("new_game", play), ("new_game", render),
                         ("replay", mnrules.tools.log), ("load_ruleset", common),
                         ("load_ruleset", simulate), ("load_ruleset", render)):
        monkeypatch.setattr(module, attr, no_work)
    for path, why in bad:
        code, _, err = _run(capsys, *_command(kind, option, path, tmp_path))
        assert code == 2 and err.startswith("mnrules: error:"), (path, err)
        assert f"{option} {path}" in err and why in err, (path, err)


def test_two_options_naming_one_file_are_refused(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    same = str(tmp_path / "g.out")
    for argv in (["play", "--edition", "en", "--log", same, "--save", same],
                 ["play", "--load", same, "--log", same],
                 ["simulate", "--edition", "en", "--out", same, "--plot", same + "/../g.out"],
                 ["replay", same, "--out", same],
                 ["render", "--edition", "en", same + ".svg", "-o", same + ".svg"]):
        code, _, err = _run(capsys, *argv)
        assert code == 2 and "name the same file" in err, (argv, err)
    assert not Path(same).exists()


def test_a_figure_in_a_format_matplotlib_lacks_is_refused_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    code, _, err = _run(capsys, "simulate", "--edition", "en",
                        "--games", "5000", "--quiet", "--plot",
                        str(tmp_path / "f.xyz"))
    assert code == 2 and "--plot" in err and ".png" in err


# -- 4. the command line --------------------------------------------------------------------
@pytest.mark.parametrize(("argv", "needle"), [
    (["fuzz", "--players", "abc"], "--players: expected player counts"),
    (["fuzz", "--players", "3,0"], "0 players: expected 1 to 99"),
    (["fuzz", "--games", "-3"], "--games: expected 1 or more, not -3"),
    (["fuzz", "--round-cap", "0"], "--round-cap: expected 1 or more"),
    (["simulate", "--edition", "en", "--jobs", "0"], "--jobs: expected 1 or more"),
    (["play", "--edition", "en", "--rounds", "-1"], "--rounds: expected 0 or more"),
    (["play", "--edition", "en", "--seed", "x"], "--seed: invalid int value"),
    (["replay", "g.jsonl", "--round", "zero"], "--round: expected a whole number"),
    (["render", "--edition", "en",
      "new", "-o", "b.svg", "--rounds", "1e3"], "--rounds: expected a whole"),
])
def test_numeric_options_give_a_usage_error(capsys: pytest.CaptureFixture[str],
                                            argv: list[str], needle: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err, err


def test_refused_values_that_argparse_cannot_see(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    for argv, needle in (
            (["cards", "list", "--edition", "en", "--cards", str(tmp_path / "nope")],
             f"--cards {tmp_path / 'nope'}: no such file or folder"),
            (["cards", "show", "--edition", "en", "caesar", "--cards", __file__], "not a folder"),
            (["cards", "check", "--edition", "en", str(tmp_path / "nope.yaml")], "no such file"),
            (["scenario", "run", str(tmp_path / "nope.yaml")], "no such file"),
            (["simulate", "--edition", "en", "--games", "2000000", "--quiet"], "at most 1,000,000"),
            (["simulate", "--edition", "en",
              "--scheduler", "tcp://x:1", "--quiet"], "only with --backend dask"),
            (["simulate", "--edition", "en",
              "--compare", "frr", "--quiet"], "unknown edition 'frr'"),
            (["fuzz", "--editions", "en,xx", "--quiet"], "'xx'"),
            (["fuzz", "--logs", str(tmp_path / "nope"), "--quiet"], "does not exist")):
        code, _, err = _run(capsys, *argv)
        assert code == 2 and needle in err and "Traceback" not in err, (argv, err)


def test_a_variant_file_without_a_yaml_suffix_is_read_not_taken_for_an_edition(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("just some words\n", encoding="utf-8")
    code, _, err = _run(capsys, "play", "--edition", "en", "--variant", str(notes), "--rounds", "1")
    assert code == 2 and f"{notes}: a pack must be a mapping of keys" in err, err
    assert "unknown edition" not in err
    code, _, err = _run(capsys, "play", "--edition", "en",
                        "--variant", str(tmp_path), "--rounds", "1")
    assert code == 2 and f"{tmp_path}: a folder without pack.yaml" in err, err
    good = tmp_path / "variant"
    good.write_text("extends: en\n", encoding="utf-8")
    code, out, err = _run(capsys, "play", "--edition", "en",
                          "--variant", str(good), "--rounds", "1")
    assert code == 0 and "no winner yet" in out and "Traceback" not in err, err


def test_jobs_are_capped_at_the_games(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[int] = []

    def fake_run(jobs: list[sim.Job], workers: int, *_: Any, **__: Any) -> list[Any]:
        seen.append(workers)
        return [sim.GameResult(j.seed, ["rome"], [], "round cap", 1, 1) for j in jobs]

    monkeypatch.setattr(sim, "run", fake_run)
    code, _, err = _run(capsys, "simulate", "--edition", "en",
                        "--games", "4", "--jobs", "40", "--quiet")
    assert code == 0 and seen == [4] and "--jobs 40: using 4 (one per game)" in err
    many = (os.cpu_count() or 1) * 4 + 1
    _run(capsys, "simulate", "--edition", "en", "--games", "5000", "--jobs", str(many), "--quiet")
    assert seen[-1] == many - 1


def test_a_log_begun_from_a_save_replays(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    save, save2 = tmp_path / "g.save", tmp_path / "h.save"
    first, fresh = tmp_path / "g.jsonl", tmp_path / "new.jsonl"
    assert main(["play", "--edition", "en", "--seed", "6", "--rounds", "2", "--save", str(save),
                 "--log", str(first)]) == 0
    # a new log file: its header carries the saved position
    assert main(["play", "--load", str(save), "--rounds", "1", "--log", str(fresh),
                 "--save", str(save2)]) == 0
    header = json.loads(fresh.read_text().splitlines()[0])
    assert header["state"]["round"] == 3
    done = json.loads(save2.read_text())["state"]
    result = replay(fresh)
    assert result.divergence is None and result.game.state.choices == done["choices"]
    # the game's own log: it goes on
    assert main(["play", "--load", str(save), "--rounds", "1", "--log", str(first)]) == 0
    result = replay(first)
    assert result.divergence is None and result.game.state.choices == done["choices"]
    assert "state" not in json.loads(first.read_text().splitlines()[0])
    capsys.readouterr()


# -- 5. hostile command lines ---------------------------------------------------------------
def _hostile_values(tmp: Path) -> dict[str, list[str]]:
    """Bad values of every kind, and good ones (``good:OPTION``) so that the commands get
    past their first check to the files they read and write."""
    a_dir = tmp / "a_dir"
    a_dir.mkdir(exist_ok=True)
    junk = tmp / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 4)
    empty = tmp / "empty.txt"
    empty.write_text("")
    js = tmp / "list.json"
    js.write_text("[1, 2, 3]")
    save, log, state = tmp / "ok.save", tmp / "ok.jsonl", tmp / "state.json"
    if not save.exists():
        with contextlib.redirect_stdout(io.StringIO()):
            main(["play", "--edition", "en",
                  "--seed", "2", "--rounds", "1", "--save", str(save), "--log",
                  str(log)])
        state.write_text(json.dumps(json.loads(save.read_text())["state"]))
    variants = []
    for name, phases in (("idle", "[production]"), ("none", "[]"), ("core", "[round]"),
                         ("ok", "[production, trade, build, military, claims]")):
        variants.append(_variant(tmp, phases, f"{name}.yaml"))
    cards = ROOT / "cards" / "mare_nostrum" / "heroes"
    paths = [str(a_dir), str(junk), str(empty), str(js), str(tmp / "missing" / "x.json"),
             str(tmp / "nothing.yaml"), str(junk / "below"), "", "-", "/proc/nope.json",
             "/dev/null", str(tmp / "out.svg"), str(tmp / "out.png"), str(tmp / "out.csv"),
             str(save), str(log), str(state), *variants]
    numbers = ["-1", "0", "1", "2", "abc", "", "1.5", "1e3", "99999999999999999999",
               "0x10", "-0", "3", " 4", "٣", "1_0", "nan"]
    words = ["", "x", "en", "fr", "frr", "random", "randm,random", "rome", "a" * 300,
             "../../etc/passwd", "random,random,random,random,random,random", "é"]
    good = {"--edition": ["en", "fr", "uk"], "--bots": ["random", "random,heuristic,random"],
            "--players": ["3", "4", "5"], "--lang": ["fr", "uk"], "--human": ["rome"],
            "--backend": ["local"], "--compare": ["fr"], "--editions": ["en", "fr,pl"],
            "--variant": variants, "--load": [str(save)], "--log": [str(tmp / "n.jsonl"),
                                                                  str(log)],
            "--save": [str(tmp / "n.save"), str(save)], "--out": [str(tmp / "o.json"),
                                                               str(tmp / "o.csv")],
            "--plot": [str(tmp / "f.png"), str(tmp / "f.svg")], "--logs": [str(tmp)],
            "-o": [str(tmp / "b.svg"), str(tmp / "b.png")], "--cards": [str(cards)],
            "--seed": ["1", "7"], "--games": ["1", "2"], "--rounds": ["0", "1"],
            "--round": ["1", "2"], "--round-cap": ["2"], "--jobs": ["1", "2"],
            "replay": [str(log)], "scenario": [str(TESTS / "mare_nostrum" / "scenarios" /
                                                   "xv_plus.yaml")],
            "cards check": [str(next(cards.glob("*.yaml")))], "render": [str(state), "new"],
            "cards show": ["caesar"], "cards explain": ["cleopatra"], "editions": ["fr"]}
    out = {"path": paths, "number": numbers, "word": words}
    out.update({f"good:{k}": v for k, v in good.items()})
    return out


# option -> kind of value it takes (None: a flag); positional arguments per subcommand
COMMANDS: dict[tuple[str, ...], tuple[dict[str, str | None], list[str]]] = {
    ("play",): ({"--players": "number", "--bots": "word", "--seed": "number",
                 "--rounds": "number", "--edition": "word", "--variant": "path",
                 "--lang": "word", "--human": "word", "--log": "path", "--save": "path",
                 "--load": "path"}, []),
    ("simulate",): ({"--edition": "word", "--variant": "path", "--players": "number",
                     "--games": "number", "--seed": "number", "--jobs": "number",
                     "--bots": "word", "--backend": "word", "--compare": "word",
                     "--out": "path", "--plot": "path", "--quiet": None}, []),
    ("fuzz",): ({"--games": "number", "--seed": "number", "--editions": "word",
                 "--players": "word", "--round-cap": "number", "--logs": "path",
                 "--quiet": None}, []),
    ("replay",): ({"--round": "number", "--out": "path"}, ["path"]),
    ("scenario", "run"): ({}, ["path"]),
    ("cards", "list"): ({"--edition": "word", "--lang": "word", "--cards": "path"}, []),
    ("cards", "show"): ({"--edition": "word", "--cards": "path"}, ["word"]),
    ("cards", "explain"): ({"--edition": "word", "--cards": "path"}, ["word"]),
    ("cards", "words"): ({"--edition": "word", "--markdown": None}, []),
    ("cards", "check"): ({"--edition": "word"}, ["path"]),
    ("editions", "show"): ({"--variant": "path"}, ["word"]),
    ("editions", "diff"): ({}, ["word", "word"]),
    ("map", "check"): ({"--edition": "word"}, ["path"]),
    ("render",): ({"-o": "path", "--edition": "word", "--players": "number",
                   "--seed": "number", "--rounds": "number"}, ["path"]),
}
# values that would make a legitimate but long run: the generator stays within a budget
BOUNDED = {"--games": 3, "--rounds": 2, "--round-cap": 3, "--jobs": 2}


def _pick(rng: random.Random, values: dict[str, list[str]], kind: str, key: str) -> str:
    good = values.get(f"good:{key}")
    return rng.choice(good if good and rng.random() < 0.6 else values[kind])


def _argv(rng: random.Random, values: dict[str, list[str]]) -> list[str]:
    cmd = rng.choice(list(COMMANDS))
    options, positional = COMMANDS[cmd]
    argv = list(cmd)
    for kind in positional:
        argv.append(_pick(rng, values, kind, " ".join(cmd[:2 if cmd[0] == "cards" else 1])))
    for option in rng.sample(list(options), rng.randint(0, min(5, len(options)))):
        kind = options[option]
        if kind is None:
            argv.append(option)
            continue
        value = _pick(rng, values, kind, option)
        if option in BOUNDED:
            with contextlib.suppress(ValueError):
                if int(value) > BOUNDED[option]:
                    value = str(BOUNDED[option])
        argv += [option, value]
    if "--games" in options and "--games" not in argv:
        argv += ["--games", "1"]
    if cmd == ("simulate",) and "--jobs" not in argv:
        argv += ["--jobs", "1"]
    if cmd == ("play",) and "--rounds" not in argv:
        argv += ["--rounds", "1"]
    if cmd in (("simulate",), ("fuzz",)) and "--quiet" not in argv:
        argv.append("--quiet")
    if rng.random() < 0.05:
        argv.insert(rng.randrange(len(argv) + 1), rng.choice(["--nope", "-", "--"]))
    return argv


@contextlib.contextmanager
def _stdin(text: str) -> Any:
    """A human player reads an empty terminal: EOF at once, never a wait."""
    old = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = old


def hostile_cli(n: int, seed: int, budget: float | None = None,
                tmp: Path | None = None) -> int:
    """Run ``n`` random hostile command lines in this process (or as many as ``budget``
    seconds allow); each must end in an exit code (0, 1, 2) with no traceback and no
    exception but SystemExit(0 or 2). Returns how many ran."""
    import tempfile

    rng = random.Random(seed)
    holder = contextlib.ExitStack()
    if tmp is None:
        tmp = Path(holder.enter_context(tempfile.TemporaryDirectory()))
    deadline = time.monotonic() + budget if budget is not None else None
    ran = 0
    cwd = os.getcwd()
    with holder:
        values = _hostile_values(tmp)
        os.chdir(tmp)  # fuzz writes its logs here; nothing lands in the checkout
        try:
            for _ in range(n):
                if deadline is not None and time.monotonic() > deadline:
                    break
                argv = _argv(rng, values)
                out, err = io.StringIO(), io.StringIO()
                try:
                    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                            _stdin(""):
                        try:
                            code = main(argv)
                        except SystemExit as exc:
                            code = exc.code
                except BaseException as exc:
                    raise AssertionError(f"mnrules {argv!r}: {type(exc).__name__}: {exc}\n"
                                         f"{err.getvalue()[-2000:]}") from exc
                text = out.getvalue() + err.getvalue()
                assert code in (0, 1, 2), (argv, code, text[-2000:])
                assert "Traceback" not in text, (argv, text[-3000:])
                if code == 2 and "usage:" not in text:
                    assert "mnrules: error:" in text, (argv, text[-2000:])
                ran += 1
        finally:
            os.chdir(cwd)
    return ran


def test_hostile_command_lines_give_clean_messages(tmp_path: Path) -> None:
    assert hostile_cli(40, seed=3, tmp=tmp_path) == 40


def test_unwritable_folder_for_root_too() -> None:
    """The write probe does not trust permission bits (root writes anywhere they allow)."""
    if not Path("/proc/version").exists():
        pytest.skip("no /proc")
    with pytest.raises(MnrulesError, match=r"/proc/x\.json: cannot write in /proc"):
        files.check_writable("/proc/x.json")


# -- 4. the Dask backend's local cluster ----------------------------------------------------
def test_the_local_dask_cluster_refuses_an_outside_client() -> None:
    """Another process on the machine that finds the cluster's port cannot use it: a
    plain client (no credentials) is refused, over TLS or plain TCP, and runs nothing."""
    pytest.importorskip("dask.distributed")
    pytest.importorskip("cryptography")
    from dask.distributed import Client

    cluster = sim.local_cluster(1)
    try:
        address = cluster.scheduler_address
        assert address.startswith("tls://127.0.0.1:")
        from distributed.security import Security

        # plain TCP, and TLS with credentials of the intruder's own making
        for attempt, security in ((address.replace("tls://", "tcp://"), None),
                                  (address, Security.temporary())):
            with pytest.raises((OSError, TimeoutError)):
                Client(attempt, timeout=2, security=security)
        with Client(cluster) as own:          # the simulation's own client still works
            assert own.submit(sum, [1, 2]).result() == 3
    finally:
        cluster.close()


# -- 5. simulate: a stopped worker, a killed parent -----------------------------------------
def test_a_stopped_worker_is_replaced_and_loses_no_game(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    import multiprocessing

    monkeypatch.setattr(sim, "SILENCE", 2.0)
    jobs = _jobs(6)
    straight = sim.run_local(jobs, 1)
    stopped: list[int] = []

    def stop_one(_: int) -> None:
        if not stopped:
            for child in multiprocessing.active_children():
                if child.name.startswith("mnrules-simulate") and child.pid:
                    os.kill(child.pid, signal.SIGSTOP)
                    stopped.append(child.pid)
                    break

    began = time.monotonic()
    try:
        assert [r.__dict__ for r in sim.run_local(jobs, 2, stop_one)] == \
            [r.__dict__ for r in straight]
    finally:
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert stopped and time.monotonic() - began < 30


def test_a_game_past_its_deadline_is_a_clean_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "play_one", lambda job: time.sleep(60))
    began = time.monotonic()
    with pytest.raises(sim.WorkerError, match=r"game 1 \(seed \d+\): its worker process spent "
                                              r"more than 0.5 s on it, 3 times"):
        sim.run_local(_jobs(2), 2, deadline=0.5)
    assert time.monotonic() - began < 15


def test_the_workers_die_with_their_killed_parent() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "mnrules", "simulate", "--edition", "en",
                             "--games", "400",
                             "--jobs", "2", "--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    pids: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(pids) < 2:   # both workers playing
            time.sleep(0.2)
            with contextlib.suppress(OSError):
                pids = [int(p) for p in children.read_text().split()]
        assert len(pids) == 2
        proc.kill()
        proc.wait(10)

        def alive(pid: int) -> bool:
            try:
                return Path(f"/proc/{pid}/stat").read_text().split()[2] not in ("Z", "X")
            except (OSError, IndexError):
                return False

        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(p) for p in pids):
            time.sleep(0.1)
        assert not any(alive(p) for p in pids), "a worker outlived its parent"
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
