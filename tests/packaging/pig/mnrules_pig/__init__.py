"""Pig on the mnrules kernel: in turn, each player rolls a die as often as he likes,
adding each roll to his turn's total, and holds to bank it; a 1 loses the turn's total
and ends his turn. Whoever banks the pack's ``target`` points first wins.

A game as a distribution of its own (its pyproject.toml declares the entry point
``mnrules.games: pig = mnrules_pig``), importing only :mod:`mnrules.api`: the worked
example of docs/writing-a-game.md.
"""

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

FACES = (1, 2, 3, 4, 5, 6)
SEATS = ("ann", "bob", "cy", "dee")


@dataclass
class State(KernelState):
    """The kernel's state (players, round, generator, ...) and the banked points and
    the turn's total: plain data, so saves, replays and scenarios need nothing more."""

    SHAPES: ClassVar[dict[str, Any]] = {**KERNEL_SHAPES, "banked": (dict, int),
                                        "turn_total": int}

    banked: dict[str, int] = field(default_factory=dict)
    turn_total: int = 0


class Turn(Step[State]):
    """The round's one phase: each player in turn rolls until he holds or rolls a 1."""

    def advance(self, game: Game[State], frame: Frame) -> Decision | str:
        i = frame.setdefault("i", 0)
        if i >= len(game.state.players):
            return DONE
        me = game.state.players[i]
        total = game.state.turn_total
        return Decision(me, "pig.roll", f"roll the die, or hold {total} points",
                        ("roll", "hold") if total else ("roll",))

    def choose(self, game: Game[State], frame: Frame, choice: Any) -> None:
        state = game.state
        me = state.players[frame["i"]]
        if choice == "roll":
            face = game.chance("die", FACES)
            if face != 1:
                state.turn_total += face
                return
        else:
            state.banked[me] = state.banked.get(me, 0) + state.turn_total
            if state.banked[me] >= int(game.param("target")):
                game.end([me], "target")
        state.turn_total = 0          # a 1 or a hold: the next player's turn
        frame["i"] += 1


@hookimpl
def mn_steps() -> dict[str, Step[State]]:
    return {"turn": Turn()}


@hookimpl
def mn_params() -> list[Param]:
    return [Param("target", 100, "the banked points that win", minimum=1, maximum=10_000)]


@hookimpl
def mn_report(game: Game[State], player: str) -> dict[str, Any]:
    return {"points": game.state.banked.get(player, 0)}


GAME = GameDefinition(name="pig", state=State,
                      seating={n: list(SEATS[:n]) for n in range(2, len(SEATS) + 1)})
