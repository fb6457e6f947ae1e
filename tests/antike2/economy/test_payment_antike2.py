"""Paying resources of one's choice (book 002: the rondel's «один ресурс по выбору (мрамор,
железо, золото или монету)», Mercatura's «2 ресурса (независимо от типа и состава)»):
one at a time, asked only among what the nation holds, without a question when it holds
one kind."""

from __future__ import annotations

import json

import pytest

from a2_helpers import RULES, asked, at_turn, options, play
from mnrules.core.effects import Event
from mnrules.core.start import load_game
from mnrules.errors import IllegalChoice

YELLOW = {"ROMA": "yellow", "NEAPOLIS": "yellow", "SYRACUS": "yellow"}


def test_each_resource_is_asked_for_among_what_is_held_counting_down() -> None:
    """Marmor from Ferrum costs 2: yellow holds marble, gold and a coin, no iron."""
    game = at_turn({"cities": YELLOW, "rondel": {"yellow": "ferrum"},
                    "stock": {"yellow": {"marble": 1, "gold": 2, "coin": 1}}}, "yellow")
    seen: list[Event] = []
    game.listeners.append(seen.append)
    play(game, "marmor")
    assert asked(game) == ("yellow", "a2.pay")
    assert options(game) == {"marble", "gold", "coin"}
    prompt = game.pending.prompt  # type: ignore[union-attr]
    assert "for the rondel" in prompt and "(2 to pay)" in prompt
    with pytest.raises(IllegalChoice, match="'iron' is not something yellow holds"):
        game.apply("iron")
    play(game, "marble")
    assert options(game) == {"gold", "coin"}
    assert "(1 to pay)" in game.pending.prompt  # type: ignore[union-attr]
    play(game, "coin")
    assert asked(game) != ("yellow", "a2.pay")
    assert [(e.data["what"], e.data["why"]) for e in seen if e.kind == "paid"] == [
        ("marble", "rondel_move"), ("coin", "rondel_move")]
    # then Marmor: 1 marble for ROMA, and a coin
    assert game.state.stock["yellow"] == {"marble": 1, "iron": 0, "gold": 2, "coin": 1}


def test_one_kind_held_pays_without_a_question() -> None:
    game = at_turn({"cities": YELLOW, "rondel": {"yellow": "ferrum"},
                    "stock": {"yellow": {"gold": 3}}}, "yellow")
    seen: list[Event] = []
    game.listeners.append(seen.append)
    play(game, "marmor")
    assert asked(game) != ("yellow", "a2.pay")
    assert game.state.stock["yellow"]["gold"] == 1
    assert [e.data["what"] for e in seen if e.kind == "paid"] == ["gold", "gold"]


def test_a_trade_is_paid_the_same_way_and_says_so() -> None:
    game = at_turn({"know_how": {"yellow": ["mercatura"]},
                    "stock": {"yellow": {"iron": 1, "gold": 1, "marble": 1}}}, "yellow")
    play(game, ("trade", 2, 1))
    assert asked(game) == ("yellow", "a2.pay")
    assert "for a trade" in game.pending.prompt  # type: ignore[union-attr]
    play(game, "iron", "gold", "iron")
    assert game.state.stock["yellow"] == {"marble": 1, "iron": 1, "gold": 0, "coin": 0}


def test_a_save_that_lists_only_what_a_nation_holds_pays_among_those() -> None:
    """A save (or a hand-written one) may leave out what a nation holds none of: it is
    not asked to pay with it."""
    game = at_turn({"cities": YELLOW, "rondel": {"yellow": "ferrum"}}, "yellow")
    data = json.loads(game.snapshot().to_json())
    data["stock"]["yellow"] = {"iron": 1, "gold": 1}
    loaded = load_game(RULES, data)
    play(loaded, "marmor")
    assert options(loaded) == {"iron", "gold"}
