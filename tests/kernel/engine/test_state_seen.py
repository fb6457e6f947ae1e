"""Who sees a state field is declared with the field (``seen_by``), and the player's
view follows the declaration: a game hides a screen or a face-down deck by saying so."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from mnrules.api import State, seen_by
from mnrules.core.view import hide_declared


@dataclass
class CardGame(State):
    hands: dict[str, list[str]] = field(default_factory=dict, metadata=seen_by("own"))
    purses: dict[str, dict[str, int]] = field(default_factory=dict,
                                              metadata=seen_by("own"))
    deck: list[str] = field(default_factory=list, metadata=seen_by("count"))
    table: list[str] = field(default_factory=list)


def _data() -> dict[str, object]:
    return {"hands": {"ann": ["ace", "king"], "bob": ["two"]},
            "purses": {"ann": {"gold": 2, "silver": 3}, "bob": {"gold": 1}},
            "deck": ["q", "j", "ten"], "table": ["nine"]}


def test_each_player_sees_his_own_hand_and_how_many_cards_the_others_hold() -> None:
    data = _data()
    hide_declared(CardGame, data, "ann")
    assert data["hands"] == {"ann": ["ace", "king"], "bob": {"hidden": 1}}
    assert data["purses"] == {"ann": {"gold": 2, "silver": 3}, "bob": {"hidden": 1}}


def test_a_face_down_deck_shows_only_how_many_cards_it_holds() -> None:
    data = _data()
    hide_declared(CardGame, data, "bob")
    assert data["deck"] == 3
    assert data["table"] == ["nine"]   # undeclared: everybody sees it


def test_only_declared_fields_are_listed_as_hidden() -> None:
    assert CardGame.seen() == {"hands": "own", "purses": "own", "deck": "count"}
    assert State.seen() == {}


def test_an_unknown_audience_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="expected one of all, own, count"):
        seen_by("friends")
