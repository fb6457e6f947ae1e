"""What one player may see: the state less what the game hides from him (its
``mn_view`` hook: other screens, face-down piles) and nobody else's secret entries in a
frame.

A frame keeps secret, per-player data under keys starting with ``secret_`` (a dict by
player); the view keeps only the viewer's own entry.
"""

from __future__ import annotations

from typing import Any

from .engine import Game

SECRET = "secret_"


def player_view(game: Game[Any], player: str) -> dict[str, Any]:
    """A JSON-able picture of the game as ``player`` may know it."""
    data: dict[str, Any] = game.state.to_dict()
    game.rules.hook.mn_view(game=game, player=player, data=data)
    data["rng"] = None
    data["stack"] = [_frame_view(f, player) for f in data["stack"]]
    pending = game.pending
    if pending is not None and pending.player != player:
        data["pending"] = {"player": pending.player, "kind": pending.kind}
    elif pending is not None:
        data["pending"] = {"player": pending.player, "kind": pending.kind,
                           "prompt": pending.prompt, "options": list(pending.options)}
    return data


def _frame_view(frame: dict[str, Any], player: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in frame.items():
        if key.startswith(SECRET) and isinstance(value, dict):
            out[key] = {p: (v if p == player else "hidden") for p, v in value.items()}
        else:
            out[key] = value
    return out
