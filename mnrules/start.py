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


def new_game(rules: Ruleset | str | Path = "en", players: int | Sequence[str] = 5, seed: int = 0,
             round_cap: int | None = None,
             listeners: Iterable[Callable[[Event], None]] = ()) -> Game[Any]:
    """A new game at its first decision.

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
    rules.hook.mn_setup(game=game)
    state.stack.append({"step": "game"})
    return game


def _maybe_check(game: Game[Any]) -> None:
    """MNRULES_CHECK=1 in the environment checks every invariant after every choice."""
    import os

    if os.environ.get("MNRULES_CHECK", "") not in ("", "0"):
        from .invariants import check

        game.checker = check


def load_game(rules: Ruleset, snapshot: State | dict[str, Any] | str) -> Game[Any]:
    """A game resumed from a snapshot (a State, its dict or its JSON)."""
    if isinstance(snapshot, str):
        state = rules.state_class.from_json(snapshot)
    elif isinstance(snapshot, dict):
        state = rules.state_class.from_dict(snapshot)
    else:
        state = rules.state_class.from_dict(snapshot.copy().to_dict())
    fits(rules, state)
    game = Game(rules, state)
    _maybe_check(game)
    return game


def fits(rules: Ruleset, state: State) -> None:
    """Refuse a state that does not fit this rule set (a clean error): players of its
    seating, steps it provides, a generator state, and what the game checks itself."""
    from .errors import StateError

    problems = [p for found in rules.hook.mn_check_save(rules=rules, state=state)
                for p in found]
    if problems:
        raise StateError("; ".join(problems))
    seats = rules.seating.get(len(state.players))
    if rules.seating and (seats is None or sorted(seats) != sorted(state.players)):
        raise StateError(f"players: {state.players} is not a seating of this game")
    for frame in state.stack:
        if frame.get("step") not in rules.steps:
            raise StateError(f"stack: no plugin provides the step {frame.get('step')!r}")
    if state.rng and (len(state.rng) != 3 or not isinstance(state.rng[1], list)):
        raise StateError("rng: not a random generator state")
