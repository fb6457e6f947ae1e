"""Creating a game: the box's components from the pack, then the plugins' setup."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from ..content.ruleset import Ruleset, load_ruleset
from ..errors import MnrulesError, StateError
from .effects import Event
from .engine import Game
from .state import State


def set_round_cap(game: Game[Any], cap: int | None) -> None:
    """End ``game`` undecided after ``cap`` rounds (None: no cap), as ``new_game``'s
    ``round_cap`` does; a loaded game goes on under another cap (``play --load
    --max-rounds``). This module owns the ``round_cap`` var."""
    if cap is None:
        game.state.vars.pop("round_cap", None)
    else:
        game.state.vars["round_cap"] = cap


def new_game(rules: Ruleset | str | Path | None = None, players: int | Sequence[str] = 5,
             seed: int = 0,
             round_cap: int | None = None,
             listeners: Iterable[Callable[[Event], None]] = (),
             chooser: Callable[[str, Sequence[Any], int], int] | None = None) -> Game[Any]:
    """A new game at its first decision.

    ``chooser``, if given, answers the set-up's chance too (:attr:`Game.chooser`).

    ``players`` is a count (the game's seating for that count) or a list of player ids.
    """
    if not isinstance(rules, Ruleset):
        rules = load_ruleset(rules)
    seating = rules.seating
    if isinstance(players, int):
        if players not in seating:
            raise MnrulesError(f"--players: this game plays with "
                               f"{', '.join(str(n) for n in sorted(seating))} players, "
                               f"not {players}")
        seats = list(seating[players])
    else:
        seats = list(players)
        allowed = seating.get(len(seats))
        if allowed is None or sorted(seats) != sorted(allowed):
            raise MnrulesError(f"players: a {len(seats)}-player game uses "
                               f"{list(allowed or [])}, not {seats}")
    state = rules.state_class(seed=seed, players=seats)
    if round_cap is not None:
        state.vars["round_cap"] = round_cap
    game = Game(rules, state)
    _maybe_check(game)
    game.listeners.extend(listeners)
    game.chooser = chooser
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
              source: str = "") -> Game[Any]:
    """A game resumed from a snapshot (a State, its dict or its JSON text).

    Nothing is played from a snapshot before it is checked: its shape and bounds
    (:meth:`State.from_dict`), that it fits this rule set's board and box
    (:func:`fits`), every invariant of the rules (:func:`mnrules.core.invariants.check`), and
    that its decision stack plays: a copy is played on, with the first legal option,
    to the end of its round. A snapshot that fails is refused with a
    :class:`StateError` naming ``source`` (the file, if any) and the key.
    """
    try:
        if isinstance(snapshot, str | bytes):
            state = rules.state_class.from_json(snapshot)
        elif isinstance(snapshot, dict):
            state = rules.state_class.from_dict(snapshot)
        elif isinstance(snapshot, State):
            state = rules.state_class.from_dict(copy.deepcopy(snapshot.to_dict()))
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
    cls = type(game.state)
    copy_state = cls(**copy.deepcopy({f.name: getattr(game.state, f.name)
                                      for f in fields(cls)}))
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
    """Refuse a state that does not fit this rule set (a :class:`StateError` naming the
    key): what the game checks itself (its definition's ``check_save``: its board and
    box), a seating of the game, its phases and steps."""
    problems = list(rules.definition.check_save(rules=rules, state=state))
    if problems:
        raise StateError("; ".join(problems))
    seats = rules.seating.get(len(state.players))
    if rules.seating and (seats is None or sorted(seats) != sorted(state.players)):
        raise StateError(f"{state.players} is not a seating of this game", "players")
    if state.phase and state.phase not in rules.phases:
        raise StateError(f"the pack has no phase {state.phase!r}", "phase")
    for i, frame in enumerate(state.stack):
        if frame.get("step") not in rules.steps:
            raise StateError(f"no plugin provides the step {frame.get('step')!r}",
                             f"stack[{i}]")
