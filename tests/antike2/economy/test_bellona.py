"""Bellona (book 002, «Ход игры»): the nation holding the card raises one unit free when it
enters Militia, then passes the card to the nation on its right, counter-clockwise
(«Возможности сохранить карту у себя нет»)."""

from __future__ import annotations

import pytest

from a2_helpers import at_turn, play
from antike2.bellona import pass_right, right_of
from mnrules.core.effects import Event

ORDER = ["yellow", "green", "blue", "black"]


@pytest.mark.parametrize(("holder", "right"), [("yellow", "black"), ("green", "yellow"),
                                               ("blue", "green"), ("black", "blue")])
def test_the_nation_on_the_right_is_the_one_before_in_the_order_of_play(holder: str,
                                                                          right: str) -> None:
    game = at_turn({"order": ORDER}, "yellow")
    assert right_of(game, holder) == right


def test_the_card_goes_right_after_the_holders_militia_and_serves_the_next_holder() -> None:
    game = at_turn({"order": ORDER, "bellona": "green",
                    "cities": {"ROMA": "yellow", "LUGDUNUM": "green"}}, "green")
    seen: list[Event] = []
    game.listeners.append(seen.append)
    play(game, "militia", ("legion", "LUGDUNUM"))
    assert game.state.bellona == "yellow"
    assert [(e.player, e.data) for e in seen if e.kind == "bellona"] == [
        ("green", {"to": "yellow"})]
    assert game.state.units["green"]["LUGDUNUM"]["legion"] == 1
    # blue, black, then yellow: its Militia's free legion, and the card moves on to black
    for _ in range(2):
        play(game, "ferrum")
    play(game, "militia", ("legion", "ROMA"))
    assert game.state.units["yellow"]["ROMA"]["legion"] == 1
    assert game.state.bellona == "black"


def test_a_militia_of_a_nation_without_the_card_does_not_move_it() -> None:
    game = at_turn({"order": ORDER, "bellona": "blue", "cities": {"ROMA": "yellow"},
                    "stock": {"yellow": {"iron": 2}}}, "yellow")
    play(game, "militia", ("legion", "ROMA"))
    assert game.state.bellona == "blue"


def test_with_nobody_holding_the_card_nothing_passes() -> None:
    game = at_turn({"order": ORDER}, "yellow")
    game.state.bellona = ""
    seen: list[Event] = []
    game.listeners.append(seen.append)
    pass_right(game)
    assert game.state.bellona == "" and seen == []
