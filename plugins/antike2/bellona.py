"""Bellona (book, "Ход игры"): the last nation in order of play starts with the card;
when the nation holding it enters Militia it raises one unit free and passes the card to
the nation on its right, counter-clockwise ("Возможности сохранить карту у себя нет").
The card's script (``cards/antike2/bellona.yaml``) says both; this plugin is the home of
passing it."""

from __future__ import annotations

from antike2.state import Game
from mnrules.core.effects import Event
from mnrules.hooks.contract import Declaration, EventKind, Part
from mnrules.hooks.hookspecs import hookimpl


def right_of(game: Game, nation: str) -> str:
    """The nation on ``nation``'s right: the one before it in the clockwise order."""
    players = game.state.players
    return players[players.index(nation) - 1]


def pass_right(game: Game) -> None:
    holder = game.state.bellona
    if holder not in game.state.players:
        return
    to = right_of(game, holder)

    def give(ev: Event) -> None:
        game.state.bellona = to
    game.perform(Event("bellona", holder, {"to": to}), give)


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("bellona", "", "The Bellona card: a free unit in Militia, then passed to the "
             "right."),
        EventKind("bellona", "bellona", "Bellona has passed to the nation on the holder's "
                  "right.", True, (("to", "the new holder"),),
                  player="the nation that passed it"),
    ]
