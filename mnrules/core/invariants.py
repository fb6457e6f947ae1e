"""Invariants checked after every choice in tests (and with ``--check``): each rule
plugin's own conditions hold (``mn_check_state``: for a board game, the box is
conserved and nothing is negative), and the pending decision is a real one."""

from __future__ import annotations

from typing import Any

from .engine import Game


def check(game: Game[Any]) -> list[str]:
    """Every invariant problem of the current state (an empty list when all is well)."""
    problems: list[str] = []
    for found in game.rules.hook.mn_check_state(game=game):
        problems.extend(found)
    dec = game.pending
    if dec is not None and dec.player not in game.state.players:
        problems.append(f"the pending decision belongs to {dec.player}, not a player")
    if dec is not None and not dec.options:
        problems.append(f"the pending decision {dec.kind} has no legal option")
    return problems
