"""Founding cities (book, "Ход игры", 2. Основать город): after its action a nation may
found one or more cities. Each needs a unit of its own (legion or galley) in the region
— other nations' units there do not prevent it — and 1 marble, 1 iron and 1 gold, coins
for any. One city per region; where a neutral temple stands it must be destroyed first.
The token is the nation's own with the board's resource; a universal site ("Orient",
all three resources) takes the resource the nation chooses, and so does every site
under the variant "free choice of a city's resource" (parameter ``free_city_resource``).
A nation with no city token left cannot found.

Book example: red may found in ATTALIA (gold) and PAPHOS (universal), not in ANTIOCHIA
(no red unit); 2 gold, 2 marble, 1 iron and 1 coin pay for both.
"""

from __future__ import annotations

from typing import Any

from antike2.choices import FOUNDING as FOUNDING_CHOICES
from antike2.movere import place, say
from antike2.rules import FOUNDING
from antike2.state import RESOURCES, Game, Step
from antike2.supply import can_pay, pay, tokens_left
from mnrules.core.effects import Event
from mnrules.core.engine import DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part
from mnrules.hooks.hookspecs import hookimpl


def city_cost(game: Game) -> dict[str, int]:
    cost: dict[str, int] = game.param("city_cost")
    return {r: int(n) for r, n in cost.items() if n}


def site_resources(game: Game, region: str) -> tuple[str, ...]:
    """The tokens a city founded in ``region`` may show."""
    site = game.rules.board.regions[region].city
    if game.param("free_city_resource") or site not in RESOURCES:
        return RESOURCES
    return (site,)


def sites(game: Game, nation: str) -> tuple[tuple[str, str, str], ...]:
    state = game.state
    if not can_pay(state, nation, city_cost(game)):
        return ()
    regions = game.rules.board.regions
    out = []
    for area, kinds in state.units.get(nation, {}).items():
        if area not in regions or area in state.cities or area in state.neutral:
            continue
        if not any(kinds.values()):
            continue
        if tokens_left(game, nation) > 0:
            out += [("found", area, r) for r in site_resources(game, area)]
    return tuple(sorted(out))


class Founding(Step):
    """Frame ``{nation}``: found cities one at a time, then ``done``."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        nation = frame["nation"]
        found = () if frame.get("over") else sites(game, nation)
        if not found:
            return DONE
        return Decision(nation, "a2.found", f"{nation}: found a city for 1 marble, 1 iron "
                        f"and 1 gold", (("done",), *found))

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        nation = frame["nation"]
        if choice[0] == "done":
            frame["over"] = True
            return
        _, region, resource = choice
        paid = pay(game, nation, city_cost(game))

        def found(ev: Event) -> None:
            game.state.cities[region] = {"owner": nation, "resource": resource,
                                         "temple": False}
        game.perform(Event("found", nation, {"region": region, "resource": resource,
                                             "paid": paid}), found)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        nation = frame["nation"]
        if isinstance(choice, tuple) and len(choice) == 3:
            region = choice[1]
            where = place(game, region) if isinstance(region, str) else repr(region)
            if region in game.state.cities:
                return FOUNDING, f"{where} has a city already"
            if region in game.state.neutral:
                return FOUNDING, f"a neutral temple stands in {where}"
            if not any(game.state.units.get(nation, {}).get(region, {}).values()):
                return FOUNDING, f"{say(game, nation)} has no unit in {where}"
        return FOUNDING, f"{nation} cannot found {choice!r}"


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.found": Founding()}


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("city_cost", {"marble": 1, "iron": 1, "gold": 1}, "what a city costs (book: "
              "1 marble, 1 iron, 1 gold)", minimum=0, maximum=9),
        Param("free_city_resource", False, "the book's variant 'free choice of a city's "
              "resource': a new city shows any resource, whatever the board's site",
              choices=(Param.Option(False, "the board's resource (universal sites: any)",
                                    "002 Ход игры 2"),
                       Param.Option(True, "any resource", "002 Варианты игры"))),
    ]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("founding", "turn", "Step 2 of a turn: cities founded where the nation has a "
             "unit, for 1 marble, 1 iron and 1 gold."),
        DecisionKind("a2.found", "founding", "A nation founds a city in a region where it "
                     "has a unit, or stops.", FOUNDING_CHOICES),
        EventKind("found", "founding", "A nation has founded a city.", True,
                  (("region", "where"), ("resource", "the token's resource"),
                   ("paid", "what it paid, by key")),
                  player="the founder", word="found"),
    ]
