"""Antike II is long: random bots play hundreds of rounds (docs/antike2.md), so its pack
says how long a bot game may run (``params.round_cap``), and ``--max-rounds`` overrides
it for ``simulate`` and ``play``."""

from __future__ import annotations

import pytest

from a2_helpers import RULES
from mnrules import load_ruleset
from mnrules.frontends.cli import main
from mnrules.tools import simulate as sim


def test_the_pack_says_how_long_a_bot_game_may_run() -> None:
    assert sim.round_cap(RULES) == RULES.params["round_cap"] >= 1000
    assert sim.round_cap(load_ruleset("en")) == sim.ROUND_CAP   # Mare Nostrum's 60


def test_a_random_game_ends_with_a_winner_not_the_cap() -> None:
    """Past Mare Nostrum's 60 rounds (this seed plays over a hundred)."""
    result = sim.play_one(sim.jobs_for("antike2", None, 4, 1, 1, ("random",))[0])
    assert result.winners and result.victory == "personages" and result.rounds > 60


def test_max_rounds_caps_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "antike2", "--players", "3", "--games", "2",
                 "--bots", "random", "--seed", "1", "--max-rounds", "5", "--jobs", "1",
                 "--quiet"]) == 0
    assert "2 games; 2 reached the round cap" in capsys.readouterr().out


def test_max_rounds_ends_play_undecided(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "antike2", "--players", "3", "--seed", "1",
                 "--max-rounds", "4"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "4 rounds" in last and "nobody" in last and "round limit" in last
