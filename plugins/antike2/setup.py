"""Setting up (book, "Ход игры" and "Стартовая стратегия"; the quick-start sheet is
lost): each nation starts with its three cities from the board (one marble, one iron,
one gold), 3 marble, 3 iron and 3 gold ("Со стартовыми ресурсами 3 железа, 3 мрамора, и
3 золотых"), no coin, no unit, its marker off the rondel. The neutral temples stand where
the board puts them. The start player is drawn at random and the nations are seated from
him clockwise; the last in order of play holds Bellona.
"""

from __future__ import annotations

from antike2.state import COIN, RESOURCES, Game
from mnrules.core.engine import Param
from mnrules.hooks.contract import Declaration, Part
from mnrules.hooks.hookspecs import hookimpl


@hookimpl
def mn_setup(game: Game) -> None:
    state = game.state
    board = game.rules.board
    start = board.start(len(state.players))
    # The seating is the board's order whatever order the game was given (a replay gives
    # the order of play it recorded), so the same draw gives the same order of play.
    seats = [n for n in board.nations if n in state.players]
    first = game.chance("start player", seats)
    i = seats.index(first)
    state.players = seats[i:] + seats[:i]
    state.side = board.side
    stock: dict[str, int] = dict(game.param("start_stock"))
    for nation in state.players:
        for region in start[nation]:
            state.cities[region] = {"owner": nation, "resource": board.regions[region].city,
                                    "temple": False}
        state.stock[nation] = {**{r: stock.get(r, 0) for r in RESOURCES},
                               COIN: stock.get(COIN, 0)}
        state.rondel[nation] = ""
        state.units[nation] = {}
        state.know_how[nation] = []
        state.personages[nation] = []
        state.destroyed[nation] = 0
    state.neutral = list(board.neutral_temples())
    state.bellona = state.players[-1]


@hookimpl
def mn_params() -> list[Param]:
    return [Param("start_stock", {"marble": 3, "iron": 3, "gold": 3, "coin": 0},
                  "what each nation holds at the start (book, Стартовая стратегия)",
                  minimum=0, maximum=99)]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [Part("setup", "", "The start: three cities per nation, 3 of each resource, a "
                 "random start player, Bellona to the last.")]
