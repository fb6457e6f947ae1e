"""Parameter sweeps on common random numbers, and the balance search that races the
points to the most even table of win rates."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import ROOT
from mnrules.content.ruleset import Ruleset
from mnrules.errors import MnrulesError
from mnrules.frontends.cli import main
from mnrules.tools import simulate as sim
from mnrules.tools import sweep

G = sim.GameResult


def test_values_as_ranges_and_lists() -> None:
    assert sweep.parse_axis("hit_divisor=3..7") == sweep.Axis("hit_divisor", (3, 4, 5, 6, 7))
    assert sweep.parse_axis("costs.legion=2..6:2").values == (2, 4, 6)
    assert sweep.parse_axis("build_victory=timed,able").values == ("timed", "able")
    assert sweep.parse_axis("x=1, 2.5, true").values == (1, 2.5, True)
    for bad, why in [("hit_divisor", "expected NAME=VALUES"), ("x=7..3", "must go up"),
                     ("x=a..b", "two whole numbers"), ("x=1,1", "given twice"),
                     ("x=[1, 2]", "not a single value"), ("x=0..999", "at most 50")]:
        with pytest.raises(MnrulesError, match=why):
            sweep.parse_axis(bad)


def test_a_point_sets_a_parameter_or_one_key_of_a_mapping(rules: Ruleset) -> None:
    axes = [sweep.parse_axis("hit_divisor=4..5"), sweep.parse_axis("costs.legion=2..3")]
    params = dict(sweep.point_params(rules, axes, [4, 2]))
    assert json.loads(params["hit_divisor"]) == 4
    costs = json.loads(params["costs"])
    assert costs["legion"] == 2 and costs["market"] == rules.params["costs"]["market"]
    with pytest.raises(MnrulesError, match="did you mean 'hit_divisor'"):
        sweep.point_params(rules, [sweep.parse_axis("hit_divisr=4..5")], [4])
    with pytest.raises(MnrulesError, match="costs has no key 'legoin'"):
        sweep.point_params(rules, [sweep.parse_axis("costs.legoin=2..3")], [2])
    with pytest.raises(MnrulesError, match=r"--param hit_divisor=0: .*from 1 to 99"):
        bad = sweep.point_params(rules, [sweep.parse_axis("hit_divisor=0..1")], [0])
        sweep.check_point("en", None, bad, "hit_divisor=0")


def test_the_packs_own_value_plays_the_very_games_simulate_plays(rules: Ruleset) -> None:
    plain = [replace(j, round_cap=5) for j in sim.jobs_for("en", None, 3, 2, 4, ["heuristic"])]
    params = sweep.point_params(rules, [sweep.parse_axis("hit_divisor=5..5")], [5])
    swept = [replace(j, params=params) for j in plain]
    other = [replace(j, params=sweep.point_params(
        rules, [sweep.parse_axis("hit_divisor=2..2")], [2])) for j in plain]
    a, b, c = (sim.run(x, workers=1) for x in (plain, swept, other))
    assert [r.history for r in a] == [r.history for r in b]
    assert [r.history for r in a] != [r.history for r in c]


def test_spread_and_its_interval() -> None:
    games = [G(i, ["a", "b"], ["a" if i % 4 else "b"], "x", 5, 9) for i in range(8)]
    assert sweep.spread(games, ["a", "b"]) == pytest.approx(0.75 - 0.25)
    assert sweep.spread(games, ["a", "b"], [0, 4]) == 1.0      # b won both
    lo, hi = sweep.interval(0.5, [0.4, 0.5, 0.6, 0.7], 0.0, 1.0)
    assert lo <= 0.5 <= hi and lo >= 0 and hi <= 1


def _fake_play(skew: dict[int, float]) -> object:
    """Games whose winner is 'a' in a share skew[value] of the seeds, else 'b'."""
    def play(points: Sequence[sweep.Point], indices: Sequence[int]) -> None:
        for p in points:
            share = skew[p.values["v"]]
            for i in indices:
                won = "a" if (i * 0.618034) % 1 < share else "b"
                p.results.append(G(i, ["a", "b"], [won], "x", 5, 9))
    return play


def test_the_search_drops_uneven_points_and_finds_the_even_one() -> None:
    points = [sweep.Point({"v": v}, (("v", str(v)),)) for v in (1, 2, 3)]
    alive, stages = sweep.race(points, 1, _fake_play({1: 0.9, 2: 0.5, 3: 0.75}), 10, 400)
    assert [p.values for p in alive] == [{"v": 2}]
    assert stages[0]["dropped"] == []                  # nobody dropped under MIN_GAMES
    assert {"v": 1} in [d for st in stages for d in st["dropped"]]
    answer = sweep.found(alive, 1)
    lo, hi = answer["spread_ci95"]
    assert answer["values"] == {"v": 2} and lo <= answer["spread"] <= hi
    assert answer["tied_with"] == []


def test_sweep_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, fig = tmp_path / "s.json", tmp_path / "s.png"
    args = ["sweep", "--edition", "en",
            "--param", "hit_divisor=4..5", "--players", "3", "--games", "2",
            "--round-cap", "5", "--jobs", "1", "--quiet", "--out", str(out)]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "hit_divisor=4" in text and "spread [95%]" in text and "base point" in text
    data = json.loads(out.read_text())
    assert [p["values"] for p in data["points"]] == [{"hit_divisor": 4}, {"hit_divisor": 5}]
    assert data["base"] == {"hit_divisor": 5}
    assert main(["sweep", "--edition", "en", "--param", "hit_divisor=0..1", "--quiet"]) == 2
    assert "--param hit_divisor=0" in capsys.readouterr().err
    pytest.importorskip("matplotlib")
    assert main([*args[:-2], "--search", "--max-games", "2", "--plot", str(fig)]) == 0
    assert "most even: hit_divisor=" in capsys.readouterr().out
    assert fig.stat().st_size > 5000


def test_the_variant_axis_sweeps_board_patches(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert sweep.parse_axis("variant=none,a.yaml").values == (None, "a.yaml")
    with pytest.raises(MnrulesError, match="distinct variant files"):
        sweep.parse_axis("variant=a.yaml,a.yaml")
    patch = tmp_path / "carthage_leads.yaml"
    patch.write_text("patch:\n  board: {start_titles.culture.3: carthage}\n", "utf-8")
    out = tmp_path / "s.json"
    assert main(["sweep", "--edition", "en",
                 "--param", f"variant=none,{patch}", "--players", "3", "--games",
                 "2", "--round-cap", "4", "--jobs", "1", "--quiet", "--out", str(out)]) == 0
    assert "variant=carthage_leads.yaml" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["base"] == {"variant": None} and len(data["points"]) == 2
    # the variant point plays the very games simulate --variant plays
    plain = [replace(j, round_cap=4) for j in
             sim.jobs_for("en", str(patch), 3, 2, 1, ["heuristic"])]
    rounds = [r.rounds for r in sim.run(plain, workers=1)]
    assert data["points"][1]["rounds_mean"] == pytest.approx(sum(rounds) / 2)
    bad = tmp_path / "bad.yaml"
    bad.write_text("patch:\n  board: {start_titles.cultur.3: carthage}\n", "utf-8")
    assert main(["sweep", "--edition", "en", "--param", f"variant={bad}", "--quiet"]) == 2
    assert "did you mean 'culture'" in capsys.readouterr().err


VARIANTS = ROOT / "editions" / "mare_nostrum" / "variants"
CALIBRATION = ROOT / "docs" / "calibration"


@pytest.mark.parametrize("name, resources, levels", [
    ("rome_without_market", 7, {"trade": 6, "military": 3}),
    ("rome_without_market_plus_legion", 7, {"trade": 6, "military": 4}),
    ("rome_without_market_plus_two_legions", 7, {"trade": 6, "military": 5}),
    ("rome_without_market_gallia", 9, {"trade": 7, "military": 3}),
    ("rome_without_market_latium", 9, {"trade": 7, "military": 3}),
])
def test_the_demonstration_variants_start_rome_as_they_say(name: str, resources: int,
                                                            levels: dict[str, int]) -> None:
    from mare_nostrum.tracks import levels as track_levels
    from mnrules import load_ruleset, new_game

    game = new_game(load_ruleset("en", variant=str(VARIANTS / f"{name}.yaml")), 4, seed=1)
    assert sum(game.state.screens["rome"].values()) == resources
    have = track_levels(game)["rome"]
    assert {k: have[k] for k in levels} == levels


@pytest.mark.parametrize("path", sorted(CALIBRATION.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_calibration_patch_loads_and_plays_a_round(path: Path) -> None:
    from mnrules import load_ruleset, new_game
    from mnrules.bots import make_bot

    rules = load_ruleset("en", variant=str(path))
    for players in (3, 4, 5):
        game = new_game(rules, players, seed=2, round_cap=2)
        bot = make_bot("random", 2, rules)
        while game.pending is not None and game.state.round < 2:
            game.apply(bot.choose(game))
