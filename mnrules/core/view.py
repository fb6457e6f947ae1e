"""What one player may see: the state less what its fields declare hidden from him
(:func:`mnrules.core.state.seen_by`: another's screen, a face-down pile), less what the
game's ``view`` hides beyond that, and nobody else's secret entries in a frame.

A frame keeps secret, per-player data under keys starting with ``secret_`` (a dict by
player); the view keeps only the viewer's own entry.
"""

from __future__ import annotations

from typing import Any

from .engine import Game
from .state import State

SECRET = "secret_"


def player_view(game: Game[Any], player: str) -> dict[str, Any]:
    """A JSON-able picture of the game as ``player`` may know it."""
    data: dict[str, Any] = game.state.to_dict()
    hide_declared(type(game.state), data, player)
    game.rules.definition.view(game=game, player=player, data=data)
    data["rng"] = None
    data["stack"] = [_frame_view(f, player) for f in data["stack"]]
    pending = game.pending
    if pending is not None and pending.player != player:
        data["pending"] = {"player": pending.player, "kind": pending.kind}
    elif pending is not None:
        data["pending"] = {"player": pending.player, "kind": pending.kind,
                           "prompt": pending.prompt, "options": list(pending.options)}
    return data


def hide_declared(state: type[State], data: dict[str, Any], player: str) -> None:
    """Hide in ``data`` (a snapshot's dict) what ``state``'s fields declare ``player`` may
    not see (:func:`mnrules.core.state.seen_by`): another's entry of an ``own`` field
    becomes ``{"hidden": how much}``, a ``count`` field how much it holds."""
    for name, seen in state.seen().items():
        if seen == "own" and isinstance(data[name], dict):
            data[name] = {p: (v if p == player else {"hidden": amount(v)})
                          for p, v in data[name].items()}
        else:
            data[name] = amount(data[name])


def amount(value: Any) -> int:
    """How much a hidden value holds: the sum of a mapping of counts, else its length."""
    if isinstance(value, dict):
        return sum(v for v in value.values() if isinstance(v, int))
    return len(value) if isinstance(value, (list, tuple, str)) else 0


def _frame_view(frame: dict[str, Any], player: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in frame.items():
        if key.startswith(SECRET) and isinstance(value, dict):
            out[key] = {p: (v if p == player else "hidden") for p, v in value.items()}
        else:
            out[key] = value
    return out


def relative_seats(game: Game[Any], player: str) -> list[str]:
    """The seats as ``player`` sees them: he first, then the seating order after him
    (a view that numbers seats from the viewer reads alike from every seat)."""
    seating = list(game.rules.seating[len(game.state.players)])
    i = seating.index(player)
    return seating[i:] + seating[:i]


def one_hot(out: list[float], value: Any, choices: list[Any]) -> None:
    """``value`` appended to a tensor as one 1.0 among ``choices``' places (all 0.0 for
    a value not among them)."""
    out.extend(1.0 if value == c else 0.0 for c in choices)
