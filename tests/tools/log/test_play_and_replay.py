"""Save, load and replay: a saved game goes on to the same end; a log replays exactly
and reports the first divergence; a human plays a round at the terminal."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from mnrules.frontends.cli import main
from mnrules.tools.log import LogError, replay


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_saved_game_goes_on_to_the_same_end(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "g.save"
    code, out = _run(capsys, "play", "--edition", "en",
                     "--seed", "5", "--rounds", "3", "--save", str(save))
    assert code == 0 and "Stopped at the start of round 4" in out
    _, resumed = _run(capsys, "play", "--load", str(save))
    _, straight = _run(capsys, "play", "--edition", "en", "--seed", "5")
    last = [ln for ln in straight.splitlines() if ln.startswith("Game over")]
    assert last and last[-1] in resumed


def test_a_log_replays_exactly_and_stops_at_a_round(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    _run(capsys, "play", "--edition", "en", "--seed", "7", "--rounds", "4", "--log", str(log))
    result = replay(log)
    assert result.divergence is None and result.choices > 100 and result.chances
    header = json.loads(log.read_text().splitlines()[0])
    assert header["format"] == "mnrules-log/1" and header["seed"] == 7
    early = replay(log, until_round=3)
    assert early.stopped_at_round == 3 and early.choices < result.choices
    code, out = _run(capsys, "replay", str(log), "--out", str(tmp_path / "s.json"))
    assert code == 0 and "choices replayed" in out
    assert json.loads((tmp_path / "s.json").read_text())["round"] == 5


def test_a_log_that_stops_before_a_rounds_first_draw_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--rounds 3`` stops at round 4's start, before that round draws a legendary good;
    the replay stops there too instead of drawing it and calling it a divergence."""
    log = tmp_path / "g.jsonl"
    _run(capsys, "play", "--edition", "en",
         "--seed", "9", "--players", "3", "--rounds", "3", "--bots",
         "heuristic", "--log", str(log))
    result = replay(log)
    assert result.divergence is None, result.divergence
    code, out = _run(capsys, "replay", str(log))
    assert code == 0 and "divergence" not in out and "round 4" in out
    # a log that goes on past the round's start still has its draws checked
    lines = log.read_text().splitlines()
    tampered = tmp_path / "t.jsonl"
    tampered.write_text("\n".join([*lines, json.dumps({"chance": "legendary draw",
                                                         "value": "nothing-like-it"})]) + "\n")
    assert "legendary draw" in (replay(tampered).divergence or "")


def test_replay_reports_the_first_divergence(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    _run(capsys, "play", "--edition", "en", "--seed", "7", "--rounds", "2", "--log", str(log))
    lines = log.read_text().splitlines()
    i = next(n for n, ln in enumerate(lines) if '"trade.token"' in ln)
    rec = json.loads(lines[i])
    rec["choice"] = ["9/9", 9]
    lines[i] = json.dumps(rec)
    log.write_text("\n".join(lines) + "\n")
    code, out = _run(capsys, "replay", str(log))
    assert code == 1
    assert f"diverge: line {i + 1}:" in out and "trade-token-reuse" in out
    # a pack change shows too: the same log under different dice
    log2 = tmp_path / "h.jsonl"
    _run(capsys, "play", "--edition", "en", "--seed", "3", "--rounds", "4", "--log", str(log2))
    from mnrules import load_ruleset

    other = load_ruleset("en", {"params": {"land_die": [1, 2, 3, 4, 5, 6]}})
    assert replay(log2, rules=other).divergence is not None


def test_a_broken_log_gets_a_clean_error(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "something else"}\n')
    with pytest.raises(LogError, match="not an mnrules log"):
        replay(bad)
    bad.write_text("not json\n")
    code, out = _run(capsys, "replay", str(bad))
    assert code == 2 and "mnrules: error:" in out and "bad.jsonl:1: not JSON" in out


def test_a_human_plays_a_round_at_the_terminal(tmp_path: Path) -> None:
    """Driven by its prompts through pexpect: Rome is human, the others random bots."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "mnrules", "play", "--edition", "en",
                                           "--human", "rome",
                                           "--bots", "random", "--seed", "2", "--rounds",
                                           "1"], encoding="utf-8", timeout=30)
    answered = 0
    saw_undo = False
    keys = ["1"]
    while True:
        i = child.expect([r"Rome> ", pexpect.EOF])
        if i == 1:
            break
        before = child.before or ""
        if "== Rome, buy something" in before and not saw_undo:
            child.sendline("v")                   # look at the board first
            child.expect("Behind your screen")
            child.expect(r"Rome> ")
            child.sendline("legion")              # a purchase by words: several match
            child.expect("fits options")          # their keys named
            child.expect(r"Rome> ")
            child.sendline("1")                   # end the turn ...
            child.expect(r"Rome> ")
            child.sendline("u")                   # ... and take it back if nothing happened
            j = child.expect(["undone.", "Nothing of yours to undo"])
            saw_undo = True
            if j == 1:
                continue
            child.expect(r"Rome> ")
            child.sendline("1")
            continue
        # keys are stable (an option keeps its key when another goes): the first one shown
        keys = re.findall(r"(?:^|\s)(\d+)\. ", before, re.M) or keys
        child.sendline(keys[0])
        answered += 1
    out = child.before or ""
    assert answered >= 3 and saw_undo
    assert "Stopped at the start of round 2" in out
