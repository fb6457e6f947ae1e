"""Rounds and phases: the only game structure the core knows. The pack's ``phases``
list names the steps each round runs, in order; the plugins provide them.

No pack can make a game spin forever: a pack with no phase, or naming the core's own
steps as phases, is refused when a game is created; every round counts toward the round
cap and the driver's stop (``Game.max_rounds``) whether or not it asked anything; and a
game whose rounds ask no decision for :data:`IDLE_ROUNDS` rounds in a row ends, saying so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import StateError
from ..hooks.hookspecs import hookimpl
from .effects import Event
from .engine import CONTINUE, DONE, PAUSE, Decision, Frame, Game, Step

if TYPE_CHECKING:
    pass

CORE_STEPS = ("game", "round")
IDLE_ROUNDS = 10
"""Rounds in a row without a decision after which a game ends (nobody can act)."""
IDLE_VICTORY = "no decision"


class GameStep(Step):
    """The bottom frame: one round after another until someone wins, the round cap, or
    ``IDLE_ROUNDS`` rounds in a row without a decision. Its frame keeps ``choices`` (the
    choice count when the running round began) and ``idle`` (rounds in a row that asked
    nothing)."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        state = game.state
        cap = state.vars.get("round_cap")
        if cap is not None and type(cap) is not int:
            raise StateError(f"vars.round_cap: expected a whole number, not {cap!r}")
        began = frame.pop("choices", None)
        if began is not None:  # a round has just ended: did it ask anything?
            idle = frame.pop("idle", 0)
            idle = idle + 1 if state.choices == began and type(idle) is int else 0
            if idle:
                frame["idle"] = idle
            if idle >= IDLE_ROUNDS:
                game.end([], IDLE_VICTORY)
                return DONE
        if cap is not None and state.round > cap:
            game.end([], "round cap")
            return DONE
        if game.max_rounds is not None and state.round >= game.max_rounds:
            return PAUSE  # the driver stops here; the game itself goes on when resumed
        frame["choices"] = state.choices
        game.push("round", i=0, running=False)
        return CONTINUE


class RoundStep(Step):
    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        state = game.state
        phases = game.rules.phases
        hook = game.rules.hook
        if frame["running"]:
            phase = phases[frame["i"]]
            if not frame.pop("ending", False):
                frame["ending"] = True
                game.perform(Event("phase_end", None, {"phase": phase}), lambda e: None)
                if game.interrupted(frame):
                    return CONTINUE   # a card's question first, or a card ended the game
                del frame["ending"]
            hook.mn_phase_end(game=game, phase=phase)
            if state.finished:
                return DONE
            frame["i"] += 1  # "running" stays set: the next phase starts below, or none
        i = frame["i"]
        if i >= len(phases):
            state.round += 1
            state.phase = ""
            return DONE
        state.phase = phases[i]
        frame["running"] = True
        hook.mn_phase_start(game=game, phase=phases[i])
        game.push(phases[i])
        # After the push, so that what reacts to the start (a card's question) runs first.
        game.perform(Event("phase_start", None, {"phase": phases[i]}), lambda e: None)
        return CONTINUE


class Flow:
    """The core's own plugin: always registered."""

    @hookimpl
    def mn_steps(self) -> dict[str, Any]:
        return {"game": GameStep(), "round": RoundStep()}

