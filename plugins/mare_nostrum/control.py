"""Who controls what: markers, occupied buildings, capitals, enemy presence, and so
where a player may build (FR 3.5-3.7, 4.5; NL/PL/UK 3.1.1-3.1.2, 4.2.1). Every other rule
plugin asks these questions. Where a player can reach (adjacency, trireme chains) is
the map's geometry: :mod:`.geometry`."""

from __future__ import annotations

from typing import Any

from mare_nostrum.state import Game, State
from mnrules.core.engine import Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import Declaration, Part
from mnrules.hooks.hookspecs import hookimpl

AT_WAR = RuleRef("at-war", "a province holding another player's units is at war: its "
                 "marker holder may not build there or in the seas beside it, except in "
                 "his capital province", "FR 4.5; NL/PL/UK 3.1.1, 4.2.1")
NOT_CONTROLLED = RuleRef("build-where", "units and buildings go only in provinces you "
                         "control", "FR 3.6-3.7; NL/PL/UK 3.1.2")


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("trireme_anchor", "anchor_clean",
              "which provinces beside a sea must hold no enemy unit for a trireme to be "
              "placed there (D24)",
              (Param.Option("anchor_clean", "one province beside the sea that you control "
                            "and that holds no enemy unit (or your capital's) is enough",
                            "NL/PL 3.1.2; FR 3.6 with 3.5.1"),
               Param.Option("all_adjacent_clean", "every province you control beside the "
                            "sea must hold no enemy unit (your capital's excepted)",
                            "UK 3.1.2 read literally"))),
    ]


def capital(game: Game, player: str) -> str:
    return str(game.rules.board.empires[player].capital)


def slot_controller(state: State, province: str, i: int) -> str | None:
    """A built building is controlled by its occupier, else by the marker holder."""
    if not state.built[province][i]:
        return None
    return state.occupied[province][i] or state.control.get(province)


def has_enemies(state: State, area: str, player: str) -> bool:
    here = state.units.get(area)
    if not here:
        return False
    return any(p != player for p in here)


def may_build_in(game: Game, player: str, province: str) -> RuleRef | None:
    """None if ``player`` may place units or buildings in ``province``; else the rule."""
    state = game.state
    if province == capital(game, player):
        return None
    if state.control.get(province) != player:
        return NOT_CONTROLLED
    if has_enemies(state, province, player):
        return AT_WAR
    return None


def buildable(game: Game, player: str) -> list[str]:
    """The provinces in play where :func:`may_build_in` lets ``player`` build, in the
    state's order: his capital's, and those he controls that hold no enemy unit (one
    pass, for a listing that asks of every province)."""
    state = game.state
    home = capital(game, player)
    control = state.control
    units = state.units
    out = []
    for prov in state.built:
        if prov == home:
            out.append(prov)
        elif control.get(prov) == player:
            here = units.get(prov)
            # no unit of another player: none at all, or his alone (the owners are the
            # keys, each once)
            if not here or (len(here) == 1 and player in here):
                out.append(prov)
    return out


def trireme_seas(game: Game, player: str, where: list[str] | None = None) -> list[str]:
    """Seas where ``player`` may place a trireme (``where``: :func:`buildable`, if the
    caller has it)."""
    board = game.rules.board
    state = game.state
    literal = game.param("trireme_anchor") == "all_adjacent_clean"
    anchor = set(buildable(game, player) if where is None else where)
    out: list[str] = []
    on_sea = board.on_sea
    for sea in board.seas:
        shore = on_sea[sea]   # board.provinces_on_sea(sea), without a call per sea
        if anchor.isdisjoint(shore):
            continue
        if literal and any(has_enemies(state, p, player) and p != capital(game, player)
                           for p in shore if p in state.built
                           and state.control.get(p) == player):
            continue
        out.append(sea)
    return out


@hookimpl
def mn_report(game: Game, player: str) -> dict[str, Any]:
    state = game.state
    return {"provinces": sum(1 for who in state.control.values() if who == player),
            "resources": state.held(player),
            "tiles": list(state.tiles.get(player, []))}


@hookimpl
def mn_check_state(game: Game) -> list[str]:
    """Units only where they may stand; one fortress per player and province."""
    state = game.state
    board = game.rules.board
    problems = []
    for area, here in state.units.items():
        is_sea = area in board.seas
        if not is_sea and area not in state.built:
            problems.append(f"units in {area}, which is not in play")
        for who, units in here.items():
            for kind, n in units.items():
                if n <= 0:
                    problems.append(f"{who} has {n} {kind} in {area}")
                if (kind == "trireme") != is_sea:
                    problems.append(f"{who}'s {kind} stands in {area}")
            if units.get("fortress", 0) > 1:
                problems.append(f"{who} has {units['fortress']} fortresses in {area}")
    for prov, occ in state.occupied.items():
        for i, occupier in enumerate(occ):
            if occupier is not None and not state.built[prov][i]:
                problems.append(f"{occupier} occupies an empty slot in {prov}")
    return problems


@hookimpl
def mn_contract() -> list[Declaration]:
    """What this plugin is for: it folds, performs and asks nothing."""
    return [Part("control", "", "Who controls what: provinces, building slots and "
                 "capitals, and where a player's units and fleets can reach.")]
