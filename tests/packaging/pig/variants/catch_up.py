"""A rule plugin for Pig, in a file beside its variant: at the end of every round the
player furthest behind (the first seated among equals) banks ``catch_up`` points. The
worked example of docs/writing-a-plugin.md: a parameter, and a phase of its own."""

from __future__ import annotations

from typing import Any

from mnrules.api import DONE, Decision, Frame, Game, Param, Step, hookimpl


class CatchUp(Step[Any]):
    """The round's last phase: no one is asked anything."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        state = game.state
        banked: dict[str, int] = state.banked
        last = min(state.players, key=lambda p: (banked.get(p, 0), state.players.index(p)))
        banked[last] = banked.get(last, 0) + int(game.param("catch_up"))
        return DONE


@hookimpl
def mn_params() -> list[Param]:
    return [Param("catch_up", 2, "the points the player furthest behind banks at the end "
                  "of a round", minimum=0, maximum=100)]


@hookimpl
def mn_steps() -> dict[str, Step[Any]]:
    return {"catch_up": CatchUp()}
