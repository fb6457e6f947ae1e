"""Creating a game: the box's components from the pack, then the plugins' setup."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from .effects import Event
from .engine import Game
from .errors import MnrulesError, StateError
from .ruleset import Ruleset, load_ruleset
from .state import LEGENDARY, State


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


TRIAL_CHOICES = 2_000
"""At most this many choices of the trial a loaded game must pass (see :func:`load_game`);
the rest of a round takes a few hundred."""


def load_game(rules: Ruleset, snapshot: State | dict[str, Any] | str | bytes,
              source: str = "") -> Game:
    """A game resumed from a snapshot (a State, its dict or its JSON text).

    Nothing is played from a snapshot before it is checked: its shape and bounds
    (:meth:`State.from_dict`), that it fits this rule set's board and box
    (:func:`fits`), every invariant of the rules (:func:`mnrules.invariants.check`), and
    that its decision stack plays: a copy is played on, with the first legal option,
    to the end of its round. A snapshot that fails is refused with a
    :class:`StateError` naming ``source`` (the file, if any) and the key.
    """
    try:
        if isinstance(snapshot, str | bytes):
            state = State.from_json(snapshot)
        elif isinstance(snapshot, dict):
            state = State.from_dict(snapshot)
        elif isinstance(snapshot, State):
            state = State.from_dict(copy.deepcopy(snapshot.to_dict()))
        else:
            raise StateError(f"a snapshot is a State, its dict or its JSON text, not "
                             f"{type(snapshot).__name__}")
        fits(rules, state)
        game = Game(rules, state)
        _trial(game)
    except StateError as exc:
        raise exc.within(source) if source else exc from None
    except RecursionError:
        raise StateError("nests too deep", "", source) from None
    _maybe_check(game)
    return game


def _trial(game: Game) -> None:
    """Refuse a game whose invariants are broken or whose decision stack does not play
    under the rules (a frame with a key missing or of the wrong kind)."""
    from .invariants import check

    try:
        problems = check(game)
    except StateError:
        raise
    except Exception as exc:  # a rule meeting a frame it cannot read
        raise StateError(f"does not play under these rules ({_why(exc)})",
                         _top(game, game.state.stack)) from None
    if problems:
        raise StateError("breaks the rules' invariants: " + "; ".join(problems[:8])
                         + (f" (and {len(problems) - 8} more)" if len(problems) > 8 else ""))
    copy_state = State(**copy.deepcopy({f.name: getattr(game.state, f.name)
                                        for f in fields(State)}))
    trial = Game(game.rules, copy_state)
    trial.rng.setstate(game.rng.getstate())
    frames = list(copy_state.stack)
    start = copy_state.round
    try:
        for _ in range(TRIAL_CHOICES):
            dec = trial.pending
            if dec is None or copy_state.round != start:
                break
            if dec.player not in copy_state.players or not dec.options:
                raise StateError(f"asks {dec.player!r} ({dec.kind}), who cannot answer",
                                 _top(trial, frames))
            trial.apply(dec.options[0])
    except StateError as exc:
        raise StateError(f"does not play under these rules ({exc})",
                         exc.key or _top(trial, frames)) from None
    except Exception as exc:  # a rule meeting a frame it cannot read
        raise StateError(f"does not play under these rules ({_why(exc)})",
                         _top(trial, frames)) from None


def _why(exc: BaseException) -> str:
    text = str(exc)
    if isinstance(exc, KeyError):
        text = f"no key {text}"
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


def _top(game: Game, frames: list[dict[str, Any]]) -> str:
    """The saved frame the rules were working on (the top one still on the stack)."""
    stack = game.state.stack
    for frame in reversed(stack):
        for i, saved in enumerate(frames):
            if saved is frame:
                return f"stack[{i}] ({frame.get('step')})"
    return "stack"


def fits(rules: Ruleset, state: State) -> None:
    """Refuse a state that does not fit this rule set's board and box (a clean error)."""
    board = rules.board
    players = state.players
    for i, p in enumerate(players):
        if p not in board.empires:
            raise StateError(f"{p!r} is not an empire of this board", f"players[{i}]")
    allowed = board.players.get(len(players))
    if allowed is None or sorted(players) != sorted(allowed):
        raise StateError(f"a {len(players)}-player game on this board is played by "
                         f"{', '.join(allowed or ())}" if allowed else
                         f"this board plays with "
                         f"{', '.join(str(n) for n in sorted(board.players))} players",
                         "players")
    for key in ("screens", "pieces", "tiles"):
        for who in getattr(state, key):
            if who not in players:
                raise StateError(f"{who!r} does not play", f"{key}.{who}")
    areas = set(board.provinces) | set(board.seas)
    in_play = board.provinces_in_play(len(players))
    for key in ("control", "built", "occupied"):
        for prov in getattr(state, key):
            if prov not in board.provinces:
                raise StateError(f"{prov!r} is not a province of this board", key)
        missing = [p for p in in_play if p not in getattr(state, key)]
        extra = [p for p in getattr(state, key) if p not in in_play]
        if missing or extra:
            raise StateError(f"the provinces in play with {len(players)} players are "
                             f"not these (missing: {', '.join(missing) or 'none'}; not in "
                             f"play: {', '.join(extra) or 'none'})", key)
    for track, who in state.titles.items():
        if who not in players:
            raise StateError(f"{who!r} does not play", f"titles.{track}")
    for prov, who in state.control.items():
        if who is not None and who not in players:
            raise StateError(f"{who!r} does not play", f"control.{prov}")
    for prov, who in state.marker_occupier.items():
        if prov not in state.control:
            raise StateError("not a province in play", f"marker_occupier.{prov}")
        if who not in players:
            raise StateError(f"{who!r} does not play", f"marker_occupier.{prov}")
    for prov, row in state.occupied.items():
        for i, who in enumerate(row):
            if who is not None and who not in players:
                raise StateError(f"an occupier {who!r} who does not play",
                                 f"occupied.{prov}[{i}]")
    for prov, slots in state.built.items():
        if len(slots) != len(board.provinces[prov].slots) or \
                len(state.occupied.get(prov, [])) != len(slots):
            raise StateError(f"{len(slots)} slots, the board has "
                             f"{len(board.provinces[prov].slots)}", f"built.{prov}")
    for p, tiles in state.tiles.items():
        for i, t in enumerate(tiles):
            if t not in rules.cards:
                raise StateError(f"no card {t!r} in this rule set", f"tiles.{p}[{i}]")
    for key in ("screens", "pieces", "tiles"):
        for p in players:
            if p not in getattr(state, key):
                raise StateError(f"{p} has no entry", key)
    for area, here in state.units.items():
        if area not in areas:
            raise StateError(f"{area!r} is not an area of this board", "units")
        for who, kinds in here.items():
            if who not in players:
                raise StateError(f"{who!r} does not play", f"units.{area}")
            for kind in kinds:
                if kind not in state.pieces[who]:
                    raise StateError(f"no {kind!r} in an empire's box",
                                     f"units.{area}.{who}.{kind}")
    for key in ("display", "display_hidden"):
        for i, t in enumerate(getattr(state, key)):
            if t not in rules.cards:
                raise StateError(f"no card {t!r} in this rule set", f"{key}[{i}]")
    goods = {str(g) for g in (rules.components.get("goods") or {})}
    resources = {"coin", *goods, *(f"{LEGENDARY}{g}" for g in goods)}
    for p, screen in state.screens.items():
        for key in screen:
            if key not in resources:
                raise StateError(f"no resource {key!r} in this box", f"screens.{p}.{key}")
    stock = {"coin", *goods, *(str(k) for k in rules.components.get("buildings") or {})}
    for key in state.supply:
        if key not in stock:
            raise StateError(f"no {key!r} in this box", f"supply.{key}")
    box_pieces = {str(k) for k in rules.components.get("pieces") or {}}
    for p, pieces in state.pieces.items():
        for key in pieces:
            if key not in box_pieces:
                raise StateError(f"no piece {key!r} in this box", f"pieces.{p}.{key}")
    for key in ("legendary_pile", "legendary_discard"):
        for i, g in enumerate(getattr(state, key)):
            if g not in goods:
                raise StateError(f"no good {g!r} in this box", f"{key}[{i}]")
    if state.phase and state.phase not in rules.phases:
        raise StateError(f"the pack has no phase {state.phase!r}", "phase")
    for i, frame in enumerate(state.stack):
        if frame.get("step") not in rules.steps:
            raise StateError(f"no plugin provides the step {frame.get('step')!r}",
                             f"stack[{i}]")
