"""Templum (book, "TEMPLUM / Храм"): a temple costs 5 marble (coins for any) and stands
in a city of the nation's own, at most one per city; the box holds 20, and a destroyed
temple goes back to it. Several may be built in one turn. Book example: yellow may build
in NEAPOLIS and CARALES, not in ROMA (it has one); 10 marble builds both.
"""

from __future__ import annotations

from typing import Any

from antike2.choices import TEMPLUM as TEMPLUM_CHOICES
from antike2.rules import TEMPLUM
from antike2.state import Game, Step
from antike2.supply import can_pay, pay, temples_left
from antike2.trade import before_paying
from mnrules.core.effects import Event
from mnrules.core.engine import CONTINUE, DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part
from mnrules.hooks.hookspecs import hookimpl


def temple_cost(game: Game) -> dict[str, int]:
    return {"marble": int(game.param("temple_cost"))}


def sites(game: Game, nation: str) -> tuple[str, ...]:
    """The nation's cities that may take a temple now."""
    state = game.state
    if temples_left(game) <= 0 or not can_pay(state, nation, temple_cost(game)):
        return ()
    return tuple(r for r, c in state.cities.items() if c["owner"] == nation
                 and not c["temple"])


class Templum(Step):
    """Frame ``{nation, action}``: build temples one at a time, then ``done``."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        if before_paying(game, frame):   # book: trades "at any time" in the turn
            return CONTINUE
        nation = frame["nation"]
        found = () if frame.get("over") else sites(game, nation)
        if not found:
            return DONE
        return Decision(nation, "a2.templum", f"{nation}: build a temple for "
                        f"{game.param('temple_cost')} marble",
                        (("done",), *(("temple", r) for r in found)))

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        nation = frame["nation"]
        if choice[0] == "done":
            frame["over"] = True
            return
        region = choice[1]
        paid = pay(game, nation, temple_cost(game))

        def build(ev: Event) -> None:
            game.state.cities[region]["temple"] = True
        game.perform(Event("temple", nation, {"region": region, "paid": paid}), build)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return TEMPLUM, f"{frame['nation']} cannot build {choice!r} now"


@hookimpl
def a2_actions() -> dict[str, str]:
    return {"templum": "a2.templum"}


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.templum": Templum()}


@hookimpl
def mn_params() -> list[Param]:
    return [Param("temple_cost", 5, "marble a temple costs (book: 5)", minimum=0,
                  maximum=20)]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("templum", "turn", "Templum: temples for 5 marble, one per city."),
        DecisionKind("a2.templum", "templum", "A nation builds a temple in one of its "
                     "cities, or stops.", TEMPLUM_CHOICES),
        EventKind("temple", "templum", "A nation has built a temple.", True,
                  (("region", "the city's region"), ("paid", "what it paid, by key")),
                  player="the builder", word="temple"),
    ]
