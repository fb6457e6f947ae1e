"""Invariants checked after every choice in tests (and with ``--check``): the box is
conserved, nothing is negative, and each rule plugin's own conditions hold."""

from __future__ import annotations

from collections import Counter

from .engine import Game
from .state import LEGENDARY, base_good


def conservation(game: Game) -> list[str]:
    """Supply + board + screens + piles + what is in transit = the box, for everything."""
    state = game.state
    comp = game.rules.components
    board = game.rules.board
    problems: list[str] = []
    held: Counter[str] = Counter()
    for screen in state.screens.values():
        held.update(screen)
    for transit in game.rules.hook.mn_in_transit(game=game):
        held.update(transit)
    for key, n in held.items():
        if n < 0:
            problems.append(f"{n} {key} held somewhere")
    box = {"coin": int(comp.get("coins", 0)), **{str(g): int(n) for g, n in
                                                 (comp.get("goods") or {}).items()}}
    for key, total in box.items():
        have = state.supply.get(key, 0) + held.get(key, 0)
        if have != total:
            problems.append(f"{key}: supply {state.supply.get(key, 0)} + held "
                            f"{held.get(key, 0)} != box {total}")
    legendary = Counter(state.legendary_pile) + Counter(state.legendary_discard)
    for key, n in held.items():
        if key.startswith(LEGENDARY):
            legendary[base_good(key)] += n
    for good in box:
        if good != "coin" and legendary.get(good, 0) != 1:
            problems.append(f"legendary {good}: {legendary.get(good, 0)} tokens, not 1")
    built: Counter[str] = Counter()
    for prov, slots in state.built.items():
        for i, b in enumerate(slots):
            if b:
                built[board.provinces[prov].slots[i].kind] += 1
    for kind, total in (comp.get("buildings") or {}).items():
        if state.supply.get(kind, 0) + built.get(kind, 0) != total:
            problems.append(f"{kind}: supply {state.supply.get(kind, 0)} + built "
                            f"{built.get(kind, 0)} != box {total}")
    capitals = {e.capital for e in board.empires.values()}
    for player in state.players:
        on_board: Counter[str] = Counter()
        for here in state.units.values():
            on_board.update(here.get(player, {}))
        on_board["marker"] = sum(1 for prov, who in state.control.items()
                                 if who == player and prov not in capitals)
        for kind, total in (comp.get("pieces") or {}).items():
            left = state.pieces[player].get(kind, 0)
            if left < 0 or left + on_board.get(kind, 0) != total:
                problems.append(f"{player} {kind}: box {left} + board "
                                f"{on_board.get(kind, 0)} != {total}")
    for key, n in state.supply.items():
        if n < 0:
            problems.append(f"supply of {key} is {n}")
    return problems


def check(game: Game) -> list[str]:
    """Every invariant problem of the current state (an empty list when all is well)."""
    problems = conservation(game)
    for found in game.rules.hook.mn_check_state(game=game):
        problems.extend(found)
    dec = game.pending
    if dec is not None and dec.player not in game.state.players:
        problems.append(f"the pending decision belongs to {dec.player}, not a player")
    if dec is not None and not dec.options:
        problems.append(f"the pending decision {dec.kind} has no legal option")
    return problems
