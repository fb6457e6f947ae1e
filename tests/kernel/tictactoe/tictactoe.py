"""Tic-tac-toe on the mnrules kernel: a round is one turn of each player; whoever fills
a line of three wins, a full grid is a draw. A whole game in one file beside its pack
(``game: ./tictactoe.py``), importing only :mod:`mnrules.api`: the worked example of
docs/writing-a-game.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from mnrules.api import (
    DONE,
    KERNEL_SHAPES,
    Decision,
    Frame,
    Game,
    GameDefinition,
    Param,
    Step,
    hookimpl,
)
from mnrules.api import State as KernelState

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
         (2, 4, 6))


@dataclass
class State(KernelState):
    SHAPES: ClassVar[dict[str, Any]] = {**KERNEL_SHAPES, "cells": (list, str)}

    cells: list[str] = field(default_factory=lambda: [""] * 9)


class Turn(Step[State]):
    """Each player in turn marks one empty cell."""

    def advance(self, game: Game[State], frame: Frame) -> Decision | str:
        i = frame.setdefault("i", 0)
        if i >= len(game.state.players):
            return DONE
        free = tuple(c for c, who in enumerate(game.state.cells) if not who)
        return Decision(game.state.players[i], "place", "mark an empty cell", free)

    def choose(self, game: Game[State], frame: Frame, choice: Any) -> None:
        me = game.state.players[frame["i"]]
        game.state.cells[choice] = me
        cells = game.state.cells
        if any(all(cells[c] == me for c in line) for line in LINES):
            game.end([me], "line")
        elif all(cells):
            game.end([], "draw")
        frame["i"] += 1


@hookimpl
def mn_steps() -> dict[str, Step[State]]:
    return {"turn": Turn()}


@hookimpl
def mn_params() -> list[Param]:
    return []


@hookimpl
def mn_report(game: Game[State], player: str) -> dict[str, Any]:
    return {"cells": sum(1 for who in game.state.cells if who == player)}


def tensor(game: Game[State], player: str) -> list[float]:
    """Three planes of the grid: the viewer's marks, the other's, the empty cells."""
    cells = game.state.cells
    return ([1.0 if c == player else 0.0 for c in cells]
            + [1.0 if c and c != player else 0.0 for c in cells]
            + [0.0 if c else 1.0 for c in cells])


# Scenarios need nothing more: a position may set, and an expectation check, each field
# the state declares (cells), checked against its shape.
GAME = GameDefinition(name="tictactoe", state=State, seating={2: ["x", "o"]}, tensor=tensor)
