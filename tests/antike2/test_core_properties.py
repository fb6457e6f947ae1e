"""Invariants of Antike II under random play (hypothesis draws the seeds and the number of
nations): the box is never overdrawn and nothing goes negative (checked after every
choice by the plugins' mn_check_state), personages are never lost, Bellona is always
held by a nation; and the kernel's tools — save and load, replay, simulate, fuzz, the
cards commands, --game and --lang — work through the game's hooks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2_helpers import RULES
from antike2.supply import bank_coins, temples_left, units_left
from mnrules import new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.core.invariants import check
from mnrules.core.start import load_game
from mnrules.errors import StateError
from mnrules.frontends.cli import main


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([3, 4, 5, 6]))
def test_random_play_keeps_the_box_and_never_loses_a_personage(seed: int,
                                                               players: int) -> None:
    game = new_game(RULES, players, seed=seed, round_cap=25)
    game.checker = check
    bots = {p: RandomBot(seed + i) for i, p in enumerate(game.state.players)}
    held = {p: 0 for p in game.state.players}
    while (dec := game.pending) is not None:
        game.apply(bots[dec.player].choose(game))
        state = game.state
        for p in state.players:
            assert len(state.personages[p]) >= held[p], "a personage was lost"
            held[p] = len(state.personages[p])
            assert all(n >= 0 for n in state.stock[p].values())
            assert units_left(game, p, "legion") >= 0 and units_left(game, p, "galley") >= 0
        assert bank_coins(game) >= 0 and temples_left(game) >= 0
        assert state.bellona in state.players


def test_a_random_four_nation_game_plays_to_a_winner() -> None:
    game = new_game(RULES, 4, seed=1)
    bots = {p: RandomBot(1009 + i) for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None:
        game.apply(bots[dec.player].choose(game))
    assert game.outcome is not None and len(game.outcome.winners) == 1
    assert game.outcome.victory in ("personages", "temple")


def test_a_snapshot_round_trips_and_plays_on_as_the_game_does() -> None:
    game = new_game(RULES, 5, seed=7)
    bots = {p: RandomBot(i) for i, p in enumerate(game.state.players)}
    for _ in range(150):
        dec = game.pending
        assert dec is not None
        game.apply(bots[dec.player].choose(game))
    copy = load_game(RULES, json.loads(game.snapshot().to_json()))
    for _ in range(150):
        dec = game.pending
        assert dec is not None and copy.pending == dec
        choice = bots[dec.player].choose(game)
        game.apply(choice)
        copy.apply(choice)
    assert copy.state.to_dict() == game.state.to_dict()


def test_play_save_load_and_replay_from_the_command_line(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    save, log = tmp_path / "g.save", tmp_path / "g.jsonl"
    assert main(["play", "--game", "antike2", "--players", "4", "--seed", "3",
                 "--rounds", "4", "--save", str(save), "--log", str(log)]) == 0
    assert main(["play", "--load", str(save), "--log", str(log), "--rounds", "3"]) == 0
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "Round 1" in out and "cities" in out and "divergence" not in out


def test_the_summary_speaks_russian_with_the_ru_names(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    assert main(["play", "--game", "antike2", "--players", "3", "--seed", "2",
                 "--rounds", "3", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "Раунд 1" in out and "города" in out
    assert "yellow" not in out.split("\n", 1)[1]   # nations by their Russian names


def test_cards_list_show_and_explain_the_know_how_and_personages(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "list", "--game", "antike2"]) == 0
    listed = capsys.readouterr().out
    for card in ("mercatura", "res_publica", "king", "pliny", "bellona"):
        assert card in listed
    assert main(["cards", "show", "strata", "--game", "antike2"]) == 0
    assert "modify legion_reach: set 2" in capsys.readouterr().out
    assert main(["cards", "explain", "metallum", "--game", "antike2"]) == 0
    assert "Moneta" in capsys.readouterr().out


def test_simulate_and_fuzz_take_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "antike2", "--players", "3", "--games", "2",
                 "--jobs", "1", "--quiet"]) == 0
    assert main(["fuzz", "--game", "antike2", "--games", "4", "--players", "3,6",
                 "--round-cap", "12", "--quiet"]) == 0
    assert "0 failure(s)" in capsys.readouterr().out


def test_an_unknown_game_is_refused_with_the_known_ones(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "antike3"]) == 2
    err = capsys.readouterr().err
    assert "antike2" in err and "Traceback" not in err


@pytest.mark.parametrize(("edit", "says"), [
    (lambda s: s["cities"].update(ROMA={"owner": "purple", "resource": "marble",
                                        "temple": False}), "does not play"),
    (lambda s: s["rondel"].update({s["players"][0]: "nowhere"}), "no rondel space"),
    (lambda s: s["stock"][s["players"][0]].update(gold=-3), "out of bounds"),
    (lambda s: s["units"][s["players"][0]].update(ATLANTIS={"legion": 1}), "no area"),
    (lambda s: s["cities"].update(ROMA={"owner": s["players"][0]}), "names its resource"),
    (lambda s: s["personages"][s["players"][0]].append("emperor"), "no personage"),
])
def test_a_broken_save_is_refused_naming_its_key(edit: Any, says: str) -> None:
    game = new_game(RULES, 4, seed=2)
    data = json.loads(game.snapshot().to_json())
    edit(data)
    with pytest.raises(StateError, match=says):
        load_game(RULES, data)
