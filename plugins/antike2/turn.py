"""The round (book, "Ход игры"): the nations play in turn clockwise, the start player
first (the order of ``players``). A nation's turn has three steps in this order:
1. a rondel space and its action, 2. founding cities, 3. taking personages — and then
whether it has won. Trades with the bank (Mercatura, Commercium) may be made before the
rondel move and before founding ("в любое время во время хода игрока": the two points
where a payment follows).

A scenario may start a round at a nation's turn: ``frame: {nation: red}``.
"""

from __future__ import annotations

from typing import Any

from antike2.state import Game, Step
from mnrules.core.effects import Event
from mnrules.core.engine import CONTINUE, DONE, Decision, Frame, Param
from mnrules.hooks.contract import Declaration, EventKind, Part
from mnrules.hooks.hookspecs import hookimpl

TURN = "a2.turn"
"""The key of ``state.vars`` naming the turn under way: ``{nation, round, destroyed,
learnt, without_general}`` (the temples the nation had destroyed when it began, the
know-how it learnt, and — once it has destroyed one — the temples it destroyed with no
general left in the box for them: ``personages.temple_destroyed``)."""


def this_turn(game: Game) -> dict[str, Any]:
    turn: dict[str, Any] = game.state.vars.get(TURN) or {}
    return turn


class Turns(Step):
    """The phase: one turn of each nation, in order of play."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        players = game.state.players
        if "i" not in frame:
            first = frame.get("nation")
            frame["i"] = players.index(first) if first in players else 0
        i = frame["i"]
        if i >= len(players):
            return DONE
        frame["i"] = i + 1
        game.push("a2.turn", nation=players[i])
        return CONTINUE


class Turn(Step):
    """Frame ``{nation}``: one nation's turn, step by step."""

    STAGES = ("a2.trade", "a2.rondel", "a2.trade", "a2.found", "a2.personages",
              "a2.victory")

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        nation = frame["nation"]
        stage = frame.setdefault("stage", 0)
        if stage == 0:
            game.state.vars[TURN] = {"nation": nation, "round": game.state.round,
                                     "destroyed": game.state.destroyed.get(nation, 0),
                                     "learnt": []}
            game.perform(Event("turn_start", nation, {}), lambda e: None)
        steps = game.rules.steps
        while stage < len(self.STAGES) and self.STAGES[stage] not in steps:
            stage += 1
        if stage >= len(self.STAGES):
            game.perform(Event("turn_end", nation, {}), lambda e: None)
            game.state.vars.pop(TURN, None)
            return DONE
        frame["stage"] = stage + 1
        game.push(self.STAGES[stage], nation=nation)
        return CONTINUE


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"turn": Turns(), "a2.turn": Turn()}


@hookimpl
def mn_params() -> list[Param]:
    # The kernel's bot-game drivers (simulate) stop a game undecided after round_cap
    # rounds; Antike II's games are long (the pack says how long), Mare Nostrum's 60 is not.
    return [Param("round_cap", 60, "rounds after which a bot game (simulate) stops "
                  "undecided", minimum=1, maximum=100_000)]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("turn", "turn", "The nations play in turn clockwise: a rondel action, "
             "founding cities, taking personages."),
        EventKind("turn_start", "turn", "A nation's turn begins.", True,
                  player="the nation whose turn it is", word="turn.start", reported=True),
        EventKind("turn_end", "turn", "A nation's turn has ended (after its personages).",
                  True, player="the nation whose turn it was", word="turn.end", reported=True,
                  told=False),
    ]
