"""Editing a position piece by piece, for tests and scenario files.

Every edit moves a component between the box (supply, an empire's pieces) and the
board or a screen, so the box is always conserved; an edit the box cannot supply is
refused. Nothing here checks the rules: a scenario may set up any position.
"""

from __future__ import annotations

from typing import Any

from .engine import Game
from .errors import StateError
from .state import LEGENDARY, base_good


def _edited(game: Game) -> None:
    """A position edit invalidates the decision the game had worked out."""
    game._pending = None


def _player(game: Game, player: str) -> None:
    if player not in game.state.players:
        raise StateError(f"{player!r} does not play (players: "
                         f"{', '.join(game.state.players)})")


def _count(n: int, low: int = 1) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < low:
        raise StateError(f"expected a whole number of at least {low}, not {n!r}")


def _province(game: Game, province: str) -> None:
    if province not in game.state.control:
        raise StateError(f"{province!r} is not a province in play")


def _take_supply(game: Game, key: str, n: int = 1) -> None:
    if game.state.supply.get(key, 0) < n:
        raise StateError(f"the supply has fewer than {n} {key}")
    game.state.supply[key] -= n


def _take_piece(game: Game, player: str, kind: str, n: int = 1) -> None:
    pieces = game.state.pieces[player]
    if pieces.get(kind, 0) < n:
        raise StateError(f"{player} has fewer than {n} {kind} left in his box")
    pieces[kind] -= n


def _capitals(game: Game) -> set[str]:
    return {e.capital for e in game.rules.board.empires.values()}


def clear(game: Game) -> None:
    """An empty board: every unit, marker, building and resource back in the box."""
    _edited(game)
    state = game.state
    for area in list(state.units):
        for player in list(state.units[area]):
            for kind, n in list(state.units[area][player].items()):
                state.remove_units(area, player, kind, n)
                state.pieces[player][kind] += n
    for prov in state.control:
        set_marker(game, prov, None)
        for i, b in enumerate(state.built[prov]):
            if b:
                unbuild(game, prov, i)
    state.marker_occupier.clear()
    for player in state.players:
        clear_screen(game, player)
    state.vars.pop("conquest", None)


def clear_screen(game: Game, player: str) -> None:
    state = game.state
    for key, n in list(state.screens[player].items()):
        state.spend(player, key, n)
        if key.startswith(LEGENDARY):
            state.legendary_pile.extend([key[len(LEGENDARY):]] * n)
        else:
            state.supply[key] = state.supply.get(key, 0) + n


def give(game: Game, player: str, resources: dict[str, int]) -> None:
    """Resources from the supply (or the legendary pile) onto ``player``'s screen."""
    _edited(game)
    _player(game, player)
    state = game.state
    goods = {str(g) for g in (game.rules.components.get("goods") or {})}
    for key, n in resources.items():
        _count(n, 0)
        if base_good(key) not in goods and key != "coin":
            raise StateError(f"no resource {key!r} in this box")
        if key.startswith(LEGENDARY):
            good = key[len(LEGENDARY):]
            for _ in range(n):
                if good not in state.legendary_pile:
                    raise StateError(f"the legendary pile has no {good}")
                state.legendary_pile.remove(good)
        else:
            _take_supply(game, key, n)
        state.gain(player, key, n)


def set_marker(game: Game, province: str, player: str | None) -> None:
    """Put ``player``'s marker on ``province`` (None: neutral). Capitals' are printed."""
    _edited(game)
    state = game.state
    _province(game, province)
    if player is not None:
        _player(game, player)
    printed = province in _capitals(game)
    old = state.control[province]
    if old is not None and not printed:
        state.pieces[old]["marker"] += 1
    if player is not None and not printed:
        _take_piece(game, player, "marker")
    state.control[province] = player


def slot_index(game: Game, province: str, spec: str, free: bool = True) -> int:
    _province(game, province)
    slots = game.rules.board.provinces[province].slots
    for i, slot in enumerate(slots):
        if (slot.spec == spec or slot.kind == spec) and (
                not free or not game.state.built[province][i]):
            return i
    raise StateError(f"{province} has no {'free ' if free else ''}slot {spec!r}")


def build(game: Game, province: str, spec: str) -> int:
    """Build on the first free slot matching ``spec`` ("caravan:papyrus", "city", ...)."""
    _edited(game)
    i = slot_index(game, province, spec)
    kind = game.rules.board.provinces[province].slots[i].kind
    _take_supply(game, kind)
    game.state.built[province][i] = True
    return i


def unbuild(game: Game, province: str, i: int) -> None:
    state = game.state
    kind = game.rules.board.provinces[province].slots[i].kind
    state.built[province][i] = False
    state.occupied[province][i] = None
    state.supply[kind] = state.supply.get(kind, 0) + 1


def add_units(game: Game, player: str, area: str, kind: str, n: int = 1) -> None:
    _edited(game)
    _player(game, player)
    _count(n)
    if area not in game.state.control and area not in game.rules.board.seas:
        raise StateError(f"{area!r} is not a province in play nor a sea")
    if kind not in game.state.pieces[player]:
        raise StateError(f"no {kind!r} among an empire's pieces "
                         f"({', '.join(game.state.pieces[player])})")
    _take_piece(game, player, kind, n)
    game.state.add_units(area, player, kind, n)


def start_phase(game: Game, phase: str, round: int | None = None, **frame: Any) -> None:
    """Make ``phase`` of the current round (or ``round``) the next thing the game plays."""
    state = game.state
    if round is not None:
        state.round = round
    phases = game.rules.phases
    if phase not in phases:
        raise StateError(f"the pack has no phase {phase!r}; its phases: {phases}")
    state.stack = [{"step": "game"}, {"step": "round", "i": phases.index(phase),
                                      "running": True}]
    state.phase = phase
    game.rules.hook.mn_phase_start(game=game, phase=phase)
    state.stack.append({"step": phase, **frame})
    game._pending = None
    # as RoundStep does: what reacts to a phase's start (a card's question) runs first
    from .effects import Event

    game.perform(Event("phase_start", None, {"phase": phase}), lambda e: None)


def give_tiles(game: Game, player: str, *tiles: str) -> None:
    """Hand ``player`` these heroes or wonders, from the display or the face-down stack."""
    _edited(game)
    _player(game, player)
    state = game.state
    for tile in tiles:
        if tile not in game.rules.cards:
            raise StateError(f"no card {tile!r} in this rule set")
        for other in state.players:
            if other != player and tile in state.tiles[other]:
                raise StateError(f"{other} holds {tile!r}")
        for pile in (state.display, state.display_hidden):
            if tile in pile:
                pile.remove(tile)
        if tile not in state.tiles[player]:
            state.tiles[player].append(tile)


def face_up(game: Game, *tiles: str) -> None:
    """Turn these face-down tiles face up in the display."""
    _edited(game)
    state = game.state
    for tile in tiles:
        if tile in state.display_hidden:
            state.display_hidden.remove(tile)
            state.display.append(tile)
    state.display.sort()
