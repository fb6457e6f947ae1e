"""The hooks Mare Nostrum's own plugins call on each other, beside the kernel's
(``mnrules.hookspecs``): the game adds them to the bus through ``HOOKSPECS`` in its
package. Read with the kernel's module as the rules' table of contents."""

from __future__ import annotations

from typing import Any

from mnrules.hookspecs import hookspec


# --------------------------------------------------------------------------------------
# Phase 1 — Collect resources
# --------------------------------------------------------------------------------------
@hookspec
def mn_income(game: Any, player: str) -> list[tuple[str, int]]:
    """What ``player`` collects this Collect phase, as ``(resource key, amount)`` pairs.

    Every implementation contributes (buildings, legendary cities, a wonder's coin).
    A legendary draw is the key ``"legendary"``; the Collect phase draws it from the pile.
    """
