"""The decision loop: snapshots round-trip, refused choices change nothing, seeds
replay, and the per-player view hides what a player may not see."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mare_nostrum.state import State
from mnrules import IllegalChoice, load_game, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset
from mnrules.core.view import player_view
from mnrules.errors import StateError


def _play(game, bot, n):  # type: ignore[no-untyped-def]
    for _ in range(n):
        if game.pending is None:
            break
        game.apply(bot.choose(game))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400))
def test_snapshot_round_trips_and_resumes_identically(rules: Ruleset, seed: int,
                                                     steps: int) -> None:
    game = new_game(rules, 5, seed=seed)
    _play(game, RandomBot(seed), steps)
    snap = game.snapshot()
    text = snap.to_json()
    assert State.from_json(text).to_json() == text
    resumed = load_game(rules, json.loads(text))
    assert resumed.pending == game.pending
    a, b = RandomBot(seed + 1), RandomBot(seed + 1)
    _play(game, a, 200)
    _play(resumed, b, 200)
    assert resumed.snapshot().to_json() == game.snapshot().to_json()


def test_same_seed_same_game(rules: Ruleset) -> None:
    finals = []
    for _ in range(2):
        game = new_game(rules, 4, seed=7, round_cap=6)
        _play(game, RandomBot(3), 100_000)
        finals.append(game.snapshot().to_json())
    assert finals[0] == finals[1]
    other = new_game(rules, 4, seed=8, round_cap=6)
    _play(other, RandomBot(3), 100_000)
    assert other.snapshot().to_json() != finals[0]


def test_illegal_choice_names_the_rule_and_changes_nothing(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=1)
    before = game.snapshot().to_json()
    with pytest.raises(IllegalChoice) as err:
        game.apply(("9/9", 9))
    assert "trade-token-reuse" in str(err.value)
    assert "FR 2.1" in str(err.value)
    assert game.snapshot().to_json() == before


def test_choices_from_json_lists_are_accepted(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=1)
    game.apply(["2/1", 2])
    assert game.history[-1] == ("2/1", 2)


def test_view_hides_other_screens_and_face_down_things(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=1)
    view = player_view(game, "rome")
    assert view["screens"]["rome"] == game.state.screens["rome"]
    assert view["screens"]["egypt"] == {"hidden": 9}
    assert view["legendary_pile"] == 13
    assert isinstance(view["display_hidden"], int)
    assert "rng" not in view or view["rng"] is None


def test_view_hides_other_players_secret_offers(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=2)
    game.apply(("5/0", 5))
    rng = random.Random(0)
    while game.pending is not None and game.pending.kind == "trade.offer" \
            and game.pending.player != "egypt":
        game.apply(rng.choice(game.legal()))
    view = player_view(game, "egypt")
    frame = view["stack"][-1]
    assert frame["secret_offers"]["egypt"] == {}
    assert all(v == "hidden" for p, v in frame["secret_offers"].items() if p != "egypt")


def test_bad_state_files_get_clear_errors() -> None:
    with pytest.raises(StateError, match="line 1"):
        State.from_json("{not json")
    with pytest.raises(StateError, match="unknown state key"):
        State.from_dict({"seed": 1, "players": [], "bogus": 1})
