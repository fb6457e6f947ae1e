"""The hooks Mare Nostrum's own plugins call on each other, beside the kernel's
(``mnrules.hooks.hookspecs``): the game adds them to the bus through its definition's
``hookspecs`` (``GAME`` in its package). Read with the kernel's module as the rules'
table of contents."""

from __future__ import annotations

from typing import Any

from mnrules.hooks.hookspecs import hookspec


# --------------------------------------------------------------------------------------
# Phase 1 — Collect resources
# --------------------------------------------------------------------------------------
@hookspec
def mn_income(game: Any, player: str) -> list[tuple[str, int]]:
    """What ``player`` collects this Collect phase, as ``(resource key, amount)`` pairs.

    Every implementation contributes (buildings, legendary cities, a wonder's coin).
    A legendary draw is the key ``"legendary"``; the Collect phase draws it from the pile.
    """


# --------------------------------------------------------------------------------------
# Phase 4 — Move & Fight: what the battle step (military) asks the battle plugin
# --------------------------------------------------------------------------------------
@hookspec(firstresult=True)
def mn_battle_roll(game: Any, battle: dict[str, Any]) -> dict[str, Any]:
    """Roll one battle (FR 4.2; NL/PL/UK 4.2): ``battle`` is ``{"area", "kind" ("land"
    or "sea"), "attacker", "defender"}``. Returns ``{"rolls": {player: [die faces]},
    "hits": {player: hits he scores}}``, the attacker first, the dice drawn from
    ``game.chance``. The battle step caps each side's losses at its units there and
    has their owner choose them. First result wins: the ``battle`` plugin answers (or
    the copy a variant replaces it with), so a variant's battle rules are the rules
    of every battle played."""


@hookspec(firstresult=True)
def mn_battle_odds(game: Any, battle: dict[str, Any],
                   units: dict[str, int]) -> dict[str, Any]:
    """The odds of ``battle`` (as for :func:`mn_battle_roll`) with the board as it
    stands, every rule and card folded in, each side's losses capped at ``units[player]``.
    Returns ``{"hits": {player: ((hits he scores, probability), ...)}, "losses":
    ((attacker's losses, defender's losses, probability), ...)}``, probabilities as
    floats. Rolls no die and changes nothing. First result wins: the ``battle``
    plugin answers; bots ask it through :mod:`mare_nostrum.api`."""


# --------------------------------------------------------------------------------------
# The box: what the conservation check (box) asks the plugins
# --------------------------------------------------------------------------------------
@hookspec
def mn_in_transit(game: Any) -> dict[str, int]:
    """Resources a step holds outside every screen for now (trade offers), by key.

    The conservation check adds them to the screens and the supply.
    """
