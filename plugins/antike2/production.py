"""Production (book, "Производство": MARMOR, FERRUM, AURUM): the nation takes 1 of the
space's resource for each city of that resource, 3 for a city with a temple, plus one
coin whatever it produced. With the bank out of coins it takes another resource of its
choice instead ("Если в банке нет больше монет, нация может выбрать любой другой тип
ресурса"). Book example: yellow's Aurum gives 3 gold from SYRACUS (temple), 1 from
CARTHAGO and a coin.

The amount is the quantity ``production`` (Metallum and Moneta add to it).
"""

from __future__ import annotations

from typing import Any

from antike2.rules import PRODUCTION
from antike2.state import RESOURCES, Game, Step
from antike2.supply import bank_coins, take_coin
from mnrules.core.effects import Event
from mnrules.core.engine import DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl

PRODUCES = {"marmor": "marble", "ferrum": "iron", "aurum": "gold"}


def base_amount(game: Game, nation: str, resource: str) -> int:
    """What the nation's cities of ``resource`` yield before know-how."""
    per_temple = int(game.param("temple_production"))
    return sum(per_temple if c["temple"] else 1 for c in game.state.cities.values()
               if c["owner"] == nation and c["resource"] == resource)


def amount(game: Game, nation: str, resource: str) -> int:
    return max(0, int(game.fold("production", base_amount(game, nation, resource),
                                nation=nation, resource=resource)))


class Produce(Step):
    """Frame ``{nation, action}``: produce, then the coin (or a resource instead)."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        nation = frame["nation"]
        if "made" not in frame:
            resource = PRODUCES[frame["action"]]
            n = amount(game, nation, resource)

            def produce(ev: Event) -> None:
                game.state.gain(nation, resource, n)
            # whether the coin follows is known now: the sentence tells what happened
            game.perform(Event("produce", nation, {"resource": resource, "amount": n,
                                                   "coin": bank_coins(game) > 0}), produce)
            frame["made"] = n
            frame["coin"] = take_coin(game, nation)
        if frame["coin"] or frame.get("instead"):
            return DONE
        return Decision(nation, "a2.no_coin", f"{nation}: the bank has no coin; take a "
                        f"resource instead", RESOURCES)

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        game.state.gain(frame["nation"], str(choice))
        frame["instead"] = str(choice)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return PRODUCTION, f"{choice!r} is not marble, iron or gold"


@hookimpl
def a2_actions() -> dict[str, str]:
    return {action: "a2.produce" for action in PRODUCES}


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.produce": Produce()}


@hookimpl
def mn_params() -> list[Param]:
    return [Param("temple_production", 3, "what a city with a temple produces (book: "
                  "3; a city without one: 1)", minimum=1, maximum=9)]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("production", "turn", "Marmor, Ferrum, Aurum: each city of the resource "
             "yields 1, 3 with a temple, and a coin."),
        Quantity("production", "production", "How much of the space's resource a nation "
                 "produces: 1 per city of that resource, 3 per city with a temple.", "int",
                 (("nation", "who produces"), ("resource", "marble, iron or gold")),
                 subject="nation", word="production"),
        DecisionKind("a2.no_coin", "production", "A nation producing while the bank has no "
                     "coin picks the resource it takes instead."),
        EventKind("produce", "production", "A nation has produced.", True,
                  (("resource", "what it produced"), ("amount", "how much")),
                  player="the nation that produced", word="produce"),
    ]
