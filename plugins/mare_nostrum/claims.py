"""Phase 5 — Claim leadership (FR 5; NL/PL/UK 5).

Each title goes to the highest level on its track; on a tie the previous holder
chooses among the tied players (himself included if he is one of them). Levels are
derived from the board (see ``tracks``), never stored.
"""

from __future__ import annotations

from typing import Any

from mare_nostrum.state import TRACKS, Game, Step
from mare_nostrum.tracks import levels
from mnrules.core.effects import Event
from mnrules.core.engine import DONE, Decision, Frame
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.present import roman


def xv_plus(level: int) -> str:
    """How the level marker shows ``level``: I–XV, then the XV+ side from I again
    (NL/PL/UK 5: 18 is "XV+" on III; 0 is written 0: the track's start)."""
    if level <= 0:
        return "0"
    return roman(level) if level <= 15 else f"XV+{roman(level - 15)}"


class Claims(Step):
    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        if "levels" not in frame:
            frame["levels"] = levels(game)
            frame["i"] = 0
        while frame["i"] < len(TRACKS):
            track = TRACKS[frame["i"]]
            lv = frame["levels"]
            top = max(lv[p][track] for p in state.players)
            tied = [p for p in state.players if lv[p][track] == top]
            if len(tied) > 1:
                # a card may win ties: the tied players who claim them, in seating order
                claim: list[str] = game.fold("title.ties", [], track=track)
                tied = [p for p in tied if p in claim] or tied
            if len(tied) == 1:
                self._award(game, track, tied[0])
                frame["i"] += 1
                continue
            holder = state.titles.get(track, state.players[0])
            return Decision(holder, "claims.tie", f"{holder}: {track} title is tied at "
                            f"{top}; choose who takes it", tuple(tied))
        return DONE

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        self._award(game, TRACKS[frame["i"]], choice)
        frame["i"] += 1

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return RuleRef("title-tie", "a title tied at the top goes to one of the tied players, "
                       "chosen by its holder", "FR 5; NL/PL/UK 5"), \
            f"{choice!r} is not among the players tied for the title"

    @staticmethod
    def _award(game: Game, track: str, player: str) -> None:
        state = game.state
        before = state.titles.get(track)
        if before != player:
            game.perform(Event("title", player, {"track": track, "from": before}),
                         lambda e: state.titles.__setitem__(track, player))


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"claims": Claims()}


@hookimpl
def mn_contract() -> list[Declaration]:
    """The one decision and the event of the Claim leadership phase."""
    return [
        Part("claims", "claims", "Phase 5: the player highest on each track takes its "
             "title; the title's holder settles a tie."),
        DecisionKind("claims.tie", "claims", "The holder of a title chooses who takes it "
                     "among the players tied highest on its track."),
        Quantity("title.ties", "claims", "The players who win a tie for the highest level "
                 "on a track: the tied players among them take the title (its holder "
                 "chooses if several do).", "list", (("track", "the title's track"),),
                 word="title.ties"),
        EventKind("title", "claims", "A player takes a title from its holder (or from the "
                  "box).", True, (("track", "the title's track"),
                                  ("from", "its former holder, if any")),
                  player="the new holder", word="title"),
    ]
