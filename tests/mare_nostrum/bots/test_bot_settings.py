"""Bot settings a designer writes into a bot's name (``heuristic:balanced+first_tile=3``):
the weights reach the bot, a wrong setting is refused in one line, the name as written
is the bot's name in ratings, and a game with such a bot is still a pure function of
its inputs (played twice alike, its log replays)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from mare_nostrum.bots.heuristic import HeuristicBot
from mare_nostrum.bots.profiles import DEFAULT, PROFILES, WEIGHTS, profile
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset
from mnrules.errors import MnrulesError
from mnrules.frontends.cli import main
from mnrules.tools import rating, sweep
from mnrules.tools import simulate as sim
from mnrules.tools.log import replay


def test_the_settings_reach_the_profile(rules: Ruleset) -> None:
    bot = make_bot("heuristic:trader+denial=0.25+first_tile=3", 1, rules)
    assert isinstance(bot, HeuristicBot)
    trader = PROFILES["trader"]
    assert bot.profile == replace(trader, name="trader+denial=0.25+first_tile=3",
                                  denial=0.25, first_tile=3.0)
    # with no profile before the settings, the balanced one
    assert profile("first_tile=2.5") == replace(DEFAULT, name="first_tile=2.5",
                                                first_tile=2.5)
    assert profile(" balanced + army = 2 ").army == 2.0
    assert set(WEIGHTS) == {"tiles", "cities", "titles", "economy", "army", "aggression",
                            "denial", "block", "plan", "first_tile", "trade_read",
                            "reach_read", "temperature"}


@pytest.mark.parametrize(("name", "message"), [
    ("balanced+fist_tile=3", r"heuristic:balanced\+fist_tile=3: unknown weight 'fist_tile'; "
                             r"did you mean 'first_tile'\?"),
    ("balanced+zzz=3", r"unknown weight 'zzz'; the weights: tiles, cities, .*first_tile"),
    ("balanced+summary=x", r"unknown weight 'summary'"),
    ("balanced+name=x", r"unknown weight 'name'"),
    ("balancd+first_tile=1", r"unknown strategy profile 'balancd'; did you mean 'balanced'"),
    ("balanced+first_tile=two", r"first_tile=two: give a number of at least 0, e.g. "
                                r"first_tile=1.5"),
    ("balanced+denial=-0.5", r"denial=-0.5: give a number of at least 0"),
    ("balanced+tiles=nan", r"tiles=nan: give a number of at least 0"),
    ("balanced+tiles=inf", r"tiles=inf: give a number of at least 0"),
    ("balanced+first_tile", r"'first_tile' is not a setting; write WEIGHT=NUMBER"),
    ("balanced+", r"'' is not a setting"),
    ("balanced+=3", r"'=3' is not a setting"),
    ("balanced+tiles=1+tiles=2", r"tiles is set twice"),
])
def test_a_wrong_setting_is_refused_clearly(rules: Ruleset, name: str, message: str) -> None:
    with pytest.raises(MnrulesError, match=message) as caught:
        make_bot(f"heuristic:{name}", 1, rules)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("command", [
    ["simulate", "--edition", "en", "--games", "1"], ["rate", "--edition", "en", "--rounds", "1"],
    ["play", "--edition", "en", "--rounds", "1"],
    ["sweep", "--edition", "en", "--param", "hit_divisor=4,5", "--games", "1"]])
def test_every_command_refuses_it_in_one_line(capsys: pytest.CaptureFixture[str],
                                              command: list[str]) -> None:
    bots = "heuristic,heuristic:balanced+fist_tile=3,random"
    code = main([*command, "--players", "3", "--bots", bots])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "unknown weight 'fist_tile'; did you mean 'first_tile'?" in err
    assert len(err.strip().splitlines()) == 1


def test_a_setting_plays_as_the_profile_it_spells() -> None:
    """``opener`` is the planner (the balanced bot before the threat read the trade)
    with its first tile 2 more: the same games."""
    def history(bot: str) -> str:
        job = replace(sim.jobs_for("en", None, 3, 1, 21, [bot])[0], round_cap=4)
        return sim.play_one(job).history

    spelt = history("heuristic:planner+first_tile=2")
    assert spelt == history("heuristic:opener")
    assert spelt != history("heuristic:planner")
    assert history("heuristic:balanced+first_tile=0") == history("heuristic")


def test_the_name_as_written_is_the_bots_name_in_a_rating() -> None:
    entrants = ["heuristic:balanced+first_tile=3", "random"]
    jobs = rating.schedule("en", None, 3, entrants, 1, seed=3, round_cap=3)
    table = rating.rate(sim.run(jobs, workers=1), jobs, entrants, seed=3)
    assert {row.bot for row in table.rows} == set(entrants)
    assert "heuristic:balanced+first_tile=3" in rating.format_table(table, "t")


def test_a_logged_game_with_settings_replays(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    logs = [tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "plain.jsonl"]
    bots = ["heuristic:balanced+first_tile=3,heuristic:balanced+first_tile=3+aggression=2,"
            "random"] * 2 + ["heuristic,heuristic,random"]
    for log, bot in zip(logs, bots, strict=True):
        assert main(["play", "--edition", "en", "--seed", "9", "--players", "3", "--bots", bot,
                     "--log", str(log)]) == 0
    capsys.readouterr()
    a, b, plain = (log.read_text() for log in logs)
    assert a == b and a != plain      # a function of its inputs, the settings among them
    result = replay(logs[0])
    assert result.divergence is None and result.choices > 50 and result.game.over


def test_a_sweep_takes_bots_as_an_axis() -> None:
    axis = sweep.parse_axis("bots=heuristic, heuristic:balanced+first_tile=2,heuristic:opener")
    assert axis == sweep.Axis("bots", ("heuristic", "heuristic:balanced+first_tile=2",
                                       "heuristic:opener"))
    with pytest.raises(MnrulesError, match="distinct bot names"):
        sweep.parse_axis("bots=heuristic,heuristic")
    points = [sweep.Point({"bots": b}, (), bots=(b,)) for b in axis.values]
    seeds = [21 * 1_000_003 + i for i in range(2)]
    sweep.run_points(points, "en", None, 3, ["random"], seeds, 60, 1, "local", None, True)
    plain, spelt, named = ([r.history for r in p.results] for p in points)
    assert spelt == named and spelt != plain   # each point played by its own bots


def test_a_swept_bot_is_checked_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sweep", "--edition", "en", "--players", "3", "--games", "1",
                 "--param", "bots=heuristic,heuristic:balanced+first_tile=-2"])
    err = capsys.readouterr().err
    assert code == 2 and err.strip().splitlines() == [
        "mnrules: error: --param bots: heuristic:balanced+first_tile=-2: first_tile=-2: "
        "give a number of at least 0, e.g. first_tile=1.5"]
    code = main(["sweep", "--edition", "en",
                 "--players", "3", "--games", "1", "--param", "bots=heuristc"])
    assert code == 2 and "did you mean 'heuristic'?" in capsys.readouterr().err


def test_a_bots_sweep_reports_each_point_by_its_bot(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.json"
    assert main(["sweep", "--edition", "en",
                 "--players", "3", "--games", "2", "--round-cap", "3", "--quiet",
                 "--param", "bots=heuristic:first_tile=3,heuristic", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "bots by point" in text and "bots=heuristic:first_tile=3" in text
    data = json.loads(out.read_text())
    assert data["base"] == {"bots": "heuristic"}   # --bots' own value (the default)
    assert [p["values"]["bots"] for p in data["points"]] == ["heuristic:first_tile=3",
                                                              "heuristic"]


def test_a_log_stopped_at_a_round_with_settings_replays(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """The case that once diverged on the next round's legendary draw."""
    log = tmp_path / "r.jsonl"
    assert main(["play", "--edition", "en",
                 "--seed", "9", "--players", "3", "--rounds", "3", "--bots",
                 "heuristic:balanced+first_tile=3", "--log", str(log)]) == 0
    capsys.readouterr()
    result = replay(log)
    assert result.divergence is None and result.choices > 50
