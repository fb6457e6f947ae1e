"""Militia (book, "MILITIA / ополчение"): a unit costs 2 iron (coins for any); it is
raised in the region of one of the nation's cities, 1 per city, 3 per city with a
temple ("Указанные пределы применяются только к новым воинским частям"); a galley only
where the region has a blue border, a legion anywhere on land; the box holds 12 legions
and 13 galleys a nation. Other nations' units there change nothing.

Free units (Bellona's) are the quantity ``free_units``: they are raised first, at no
cost, under the same limits. Book example: yellow pays 4 iron for 2 galleys and takes a
legion with Bellona; ROMA (temple) could take all three, each other city one.
"""

from __future__ import annotations

from typing import Any

from antike2.choices import MILITIA as MILITIA_CHOICES
from antike2.rules import MILITIA
from antike2.state import UNITS, Game, Step
from antike2.supply import can_pay, pay, units_left
from antike2.trade import before_paying
from mnrules.core.effects import Event
from mnrules.core.engine import CONTINUE, DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl


def unit_cost(game: Game) -> dict[str, int]:
    return {"iron": int(game.param("unit_cost"))}


def options(game: Game, frame: Frame) -> tuple[Any, ...]:
    state = game.state
    nation = frame["nation"]
    board = game.rules.board
    free = frame["free"] > 0
    affordable = free or can_pay(state, nation, unit_cost(game))
    if not affordable:
        return ()
    per_temple = int(game.param("temple_units"))
    raised: dict[str, int] = frame["raised"]
    out: list[Any] = []
    left = {kind: units_left(game, nation, kind) for kind in UNITS}
    for region, city in state.cities.items():
        if city["owner"] != nation:
            continue
        room = (per_temple if city["temple"] else 1) - raised.get(region, 0)
        if room <= 0:
            continue
        if left["legion"] > 0:
            out.append(("legion", region))
        if left["galley"] > 0 and board.coastal(region):
            out.append(("galley", region))
    return tuple(out)


class Militia(Step):
    """Frame ``{nation, action}``: raise units one at a time, then ``done``."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        if before_paying(game, frame):   # book: trades "at any time" in the turn
            return CONTINUE
        nation = frame["nation"]
        if "free" not in frame:
            frame["free"] = max(0, int(game.fold("free_units", 0, nation=nation)))
            frame["raised"] = {}
        found = options(game, frame) if not frame.get("over") else ()
        if not found:
            self._end(game, frame)
            return DONE
        return Decision(nation, "a2.militia", f"{nation}: raise a unit "
                        f"({frame['free']} free)" if frame["free"] else
                        f"{nation}: raise a unit for {game.param('unit_cost')} iron",
                        (("done",), *found))

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        nation = frame["nation"]
        if choice[0] == "done":
            frame["over"] = True
            return
        kind, region = choice
        free = frame["free"] > 0
        if free:
            frame["free"] -= 1
        else:
            pay(game, nation, unit_cost(game))
        frame["raised"][region] = frame["raised"].get(region, 0) + 1

        def place(ev: Event) -> None:
            game.state.add_units(nation, region, kind)
        game.perform(Event("raise", nation, {"unit": kind, "region": region, "free": free}),
                     place)

    @staticmethod
    def _end(game: Game, frame: Frame) -> None:
        game.perform(Event("militia", frame["nation"],
                           {"raised": sum(frame["raised"].values())}), lambda e: None)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return MILITIA, f"{frame['nation']} cannot raise {choice!r} now"


@hookimpl
def a2_actions() -> dict[str, str]:
    return {"militia": "a2.militia"}


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.militia": Militia()}


@hookimpl
def mn_params() -> list[Param]:
    return [Param("unit_cost", 2, "iron a legion or galley costs (book: 2)", minimum=0,
                  maximum=9),
            Param("temple_units", 3, "units a city with a temple may raise in one Militia "
                  "(book: 3; without a temple 1)", minimum=1, maximum=9)]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("militia", "turn", "Militia: units for 2 iron, 1 per city, 3 per city with a "
             "temple, galleys on the coast."),
        Quantity("free_units", "militia", "Units a nation raises free of charge when it "
                 "enters Militia (Bellona gives one).", "int", (("nation", "who raises"),),
                 subject="nation", word="free_units"),
        DecisionKind("a2.militia", "militia", "A nation raises a legion or a galley in the "
                     "region of one of its cities, or stops.",
                     MILITIA_CHOICES),
        EventKind("raise", "militia", "A nation has raised a unit.", True,
                  (("unit", "legion or galley"), ("region", "where"),
                   ("free", "whether it cost nothing")),
                  player="the nation that raised it", word="raise"),
        EventKind("militia", "militia", "A nation's Militia action is over.", True,
                  (("raised", "how many units it raised"),),
                  player="the nation that entered Militia", word="militia", reported=True),
    ]

