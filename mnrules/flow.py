"""Rounds and phases: the only game structure the core knows. The pack's ``phases``
list names the steps each round runs, in order; the plugins provide them."""

from __future__ import annotations

from typing import Any

from .effects import Event
from .engine import CONTINUE, DONE, Decision, Frame, Game, Step
from .hookspecs import hookimpl


class GameStep(Step):
    """The bottom frame: one round after another until someone wins or the round cap."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        state = game.state
        cap = state.vars.get("round_cap")
        if cap is not None and state.round > cap:
            game.end([], "round cap")
            return DONE
        game.rules.hook.mn_round_start(game=game)
        game.push("round", i=0, running=False)
        return CONTINUE


class RoundStep(Step):
    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        state = game.state
        phases = game.rules.phases
        hook = game.rules.hook
        if frame["running"]:
            hook.mn_phase_end(game=game, phase=phases[frame["i"]])
            if state.finished:
                return DONE
            frame["running"] = False
            frame["i"] += 1
        i = frame["i"]
        if i >= len(phases):
            hook.mn_round_end(game=game)
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
