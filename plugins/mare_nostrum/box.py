"""The box: every component the pack's box holds is somewhere (the supply, a screen,
the board, a pile, a trade in transit) exactly once, and nothing is negative
(components and their hard limits, NL "Spelonderdelen"); a pack's own unit kind (a
creature) is in its owner's box or on the board, where it may stand. Checked after every choice
when invariants are on."""

from __future__ import annotations

from mare_nostrum.box_data import creature_kinds
from mare_nostrum.state import LEGENDARY, Game, base_good
from mnrules.hooks.hookspecs import hookimpl


def _add(into: dict[str, int], items: dict[str, int]) -> None:
    for k, n in items.items():
        into[k] = into.get(k, 0) + n


@hookimpl
def mn_check_state(game: Game) -> list[str]:
    """Supply + board + screens + piles + what is in transit = the box, for everything."""
    state = game.state
    comp = game.rules.components
    board = game.rules.board
    problems: list[str] = []
    held: dict[str, int] = {}
    for screen in state.screens.values():
        _add(held, screen)
    for transit in game.rules.hook.mn_in_transit(game=game):
        _add(held, transit)
    for key, n in held.items():
        if n < 0:
            problems.append(f"{n} {key} held somewhere")
    box = _box(game)
    supply = state.supply
    for key, total in box.items():
        have = supply.get(key, 0) + held.get(key, 0)
        if have != total:
            problems.append(f"{key}: supply {supply.get(key, 0)} + held "
                            f"{held.get(key, 0)} != box {total}")
    legendary: dict[str, int] = {}
    for g in state.legendary_pile:
        legendary[g] = legendary.get(g, 0) + 1
    for g in state.legendary_discard:
        legendary[g] = legendary.get(g, 0) + 1
    for key, n in held.items():
        if key.startswith(LEGENDARY):
            g = base_good(key)
            legendary[g] = legendary.get(g, 0) + n
    for good in box:
        if good != "coin" and legendary.get(good, 0) != 1:
            problems.append(f"legendary {good}: {legendary.get(good, 0)} tokens, not 1")
    built: dict[str, int] = {}
    for prov, slots in state.built.items():
        kinds = board.provinces[prov].slots
        for i, b in enumerate(slots):
            if b:
                k = kinds[i].kind
                built[k] = built.get(k, 0) + 1
    for kind, total in (comp.get("buildings") or {}).items():
        if supply.get(kind, 0) + built.get(kind, 0) != total:
            problems.append(f"{kind}: supply {supply.get(kind, 0)} + built "
                            f"{built.get(kind, 0)} != box {total}")
    capitals = {e.capital for e in board.empires.values()}
    on_board: dict[str, dict[str, int]] = {p: {} for p in state.players}
    for here in state.units.values():
        for who, units in here.items():
            _add(on_board.setdefault(who, {}), units)
    for prov, holder in state.control.items():
        if holder is not None and prov not in capitals:
            mine = on_board.setdefault(holder, {})
            mine["marker"] = mine.get("marker", 0) + 1
    creatures = creature_kinds(comp)
    totals = {**(comp.get("pieces") or {}),
              **{kind: spec["count"] for kind, spec in creatures.items()}}
    for player in state.players:
        for kind, total in totals.items():
            left = state.pieces[player].get(kind, 0)
            placed = on_board[player].get(kind, 0)
            if left < 0 or left + placed != total:
                problems.append(f"{player} {kind}: box {left} + board {placed} != {total}")
    for area, here in state.units.items():
        for who, units in here.items():
            for kind in units:
                if kind in creatures and not may_stand(game, kind, area):
                    problems.append(f"{who}'s {kind} stands in {area}, where it may not")
    for key, n in supply.items():
        if n < 0:
            problems.append(f"supply of {key} is {n}")
    return problems


def may_stand(game: Game, kind: str, area: str) -> bool:
    """Whether a piece of ``kind`` may stand in ``area``: a trireme at sea, a pack's
    creature where it enters (any province in play, or the provinces listed), any other
    unit on land in play."""
    if kind == "trireme":
        return area in game.rules.board.seas
    if area not in game.state.built:
        return False
    creature = creature_kinds(game.rules.components).get(kind)
    return creature is None or creature["enters"] == "land" or area in creature["enters"]


def _box(game: Game) -> dict[str, int]:
    comp = game.rules.components
    return {"coin": int(comp.get("coins", 0)),
            **{str(g): int(n) for g, n in (comp.get("goods") or {}).items()}}
