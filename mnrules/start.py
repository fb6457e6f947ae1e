"""Creating a game: the box's components from the pack, then the plugins' setup."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .effects import Event
from .engine import Game
from .errors import MnrulesError
from .ruleset import Ruleset, load_ruleset
from .state import State


def fill_box(rules: Ruleset, state: State) -> None:
    """Put every component of the pack's box in the supply or the empires' boxes."""
    comp = rules.components
    state.supply = {"coin": int(comp.get("coins", 0))}
    for good, n in (comp.get("goods") or {}).items():
        state.supply[str(good)] = int(n)
    for kind, n in (comp.get("buildings") or {}).items():
        state.supply[str(kind)] = int(n)
    pieces = {str(k): int(v) for k, v in (comp.get("pieces") or {}).items()}
    state.pieces = {p: dict(pieces) for p in state.players}
    state.screens = {p: {} for p in state.players}
    state.tiles = {p: [] for p in state.players}


def new_game(rules: Ruleset | str | Path = "en", players: int | Sequence[str] = 5, seed: int = 0,
             round_cap: int | None = None,
             listeners: Iterable[Callable[[Event], None]] = ()) -> Game:
    """A new game at its first decision.

    ``players`` is a count (the board's empires for that count) or a list of empire ids.
    """
    if not isinstance(rules, Ruleset):
        rules = load_ruleset(rules)
    board = rules.board
    if isinstance(players, int):
        if players not in board.players:
            raise MnrulesError(f"--players: this board plays with "
                               f"{', '.join(str(n) for n in sorted(board.players))} players, "
                               f"not {players}")
        empires = list(board.players[players])
    else:
        empires = list(players)
        allowed = board.players.get(len(empires))
        if allowed is None or sorted(empires) != sorted(allowed):
            raise MnrulesError(f"players: a {len(empires)}-player game uses "
                               f"{list(allowed or [])}, not {empires}")
    state = State(seed=seed, players=empires)
    if round_cap is not None:
        state.vars["round_cap"] = round_cap
    game = Game(rules, state)
    _maybe_check(game)
    game.listeners.extend(listeners)
    fill_box(rules, state)
    rules.hook.mn_setup(game=game)
    state.stack.append({"step": "game"})
    return game


def _maybe_check(game: Game) -> None:
    """MNRULES_CHECK=1 in the environment checks every invariant after every choice."""
    import os

    if os.environ.get("MNRULES_CHECK", "") not in ("", "0"):
        from .invariants import check

        game.checker = check


def load_game(rules: Ruleset, snapshot: State | dict[str, Any] | str) -> Game:
    """A game resumed from a snapshot (a State, its dict or its JSON)."""
    if isinstance(snapshot, str):
        state = State.from_json(snapshot)
    elif isinstance(snapshot, dict):
        state = State.from_dict(snapshot)
    else:
        state = snapshot.copy()
    fits(rules, state)
    game = Game(rules, state)
    _maybe_check(game)
    return game


def fits(rules: Ruleset, state: State) -> None:
    """Refuse a state that does not fit this rule set's board and box (a clean error)."""
    from .errors import StateError

    board = rules.board
    for p in state.players:
        if p not in board.empires:
            raise StateError(f"players: {p!r} is not an empire of this board")
    areas = set(board.provinces) | set(board.seas)
    for key in ("control", "built", "occupied"):
        for prov in getattr(state, key):
            if prov not in board.provinces:
                raise StateError(f"{key}: {prov!r} is not a province of this board")
    for prov, who in [*state.control.items(), *state.marker_occupier.items()]:
        if who is not None and who not in state.players:
            raise StateError(f"{prov}: {who!r} does not play")
    for prov, row in state.occupied.items():
        for who in row:
            if who is not None and who not in state.players:
                raise StateError(f"occupied.{prov}: an occupier {who!r} who does not play")
    for prov, slots in state.built.items():
        if len(slots) != len(board.provinces[prov].slots) or \
                len(state.occupied.get(prov, [])) != len(slots):
            raise StateError(f"built.{prov}: {len(slots)} slots, the board has "
                             f"{len(board.provinces[prov].slots)}")
    for area, here in state.units.items():
        if area not in areas:
            raise StateError(f"units: {area!r} is not an area of this board")
        for who in here:
            if who not in state.players:
                raise StateError(f"units.{area}: {who!r} does not play")
    for p, tiles in state.tiles.items():
        for t in tiles:
            if t not in rules.cards:
                raise StateError(f"tiles.{p}: no card {t!r} in this rule set")
    for frame in state.stack:
        if frame.get("step") not in rules.steps:
            raise StateError(f"stack: no plugin provides the step {frame.get('step')!r}")
    if state.rng and (len(state.rng) != 3 or not isinstance(state.rng[1], list)):
        raise StateError("rng: not a random generator state")
