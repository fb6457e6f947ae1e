"""Every hook of the mnrules event bus, in the order a game meets them.

Read this module as the rules' table of contents: a rule plugin (``plugins/``)
or a compiled card (``cards/``) implements some of these hooks with
``@hookimpl``. Unless a hook says "first result wins", pluggy calls every
implementation and the engine receives the list of their non-None results.

Effects are never ordered by pluggy's call order: the effect hooks return
:mod:`mnrules.effects` objects that the engine sorts by ``(layer, rank, source)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from .contract import Declaration
    from .effects import Event, Modifier, Replacement, Trigger
    from .engine import Game, Param, Step
    from .language.words import Word
    from .ruleset import Ruleset

PROJECT = "mnrules"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# --------------------------------------------------------------------------------------
# Assembly: when a rule set is built from an edition pack (once, not per game)
# --------------------------------------------------------------------------------------
@hookspec
def mn_params() -> list[Param]:
    """Declare the rule parameters this plugin reads, with their defaults and meaning.

    Fires once when a rule set is assembled. An edition pack or a variant may set only
    declared parameters; a misspelt name is refused with the nearest declared one.
    """


@hookspec
def mn_steps() -> dict[str, Step]:
    """Return the decision-loop steps this plugin runs, by step name ("trade.pick", ...).

    Fires once when a rule set is assembled. A phase named in the pack's ``phases`` list
    must be one of these step names. Two plugins may not claim the same name.
    """


@hookspec
def mn_contract() -> list[Declaration]:
    """Declare, once, every name this plugin owns in the rules' contract: the quantities
    it folds (``Quantity``), the events it performs or only emits (``EventKind``), the
    kinds of the decisions its steps ask (``DecisionKind``) and what it is for, with its
    phase (``Part``); see :mod:`mnrules.contract`.

    Fires when a rule set is assembled and again after a plugin is registered or
    unregistered (the bus builds its contract from the answers, plus the kernel's own).
    A name declared by two plugins is refused, naming both; so is a ``game.fold``,
    ``game.perform`` or ``game.emit`` of an undeclared name, or a ``MODIFIES``,
    ``TRIGGERED_BY`` or ``REPLACES`` set naming one, with the nearest declared name.
    """


@hookspec
def mn_check_board(rules: Ruleset) -> list[str]:
    """Check a board file against the rules (not its structure): return problems found.

    Fires from ``mnrules map check``; e.g. starting setups that do not produce the
    starting resources or the rulebook's track values.
    """


# --------------------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------------------
@hookspec
def mn_setup(game: Game) -> None:
    """Put the game in its starting position (pieces, resources, titles, display).

    Fires once, when a new game is created, before the first decision. Randomness must
    come from ``game.rng``.
    """


# --------------------------------------------------------------------------------------
# The round
# --------------------------------------------------------------------------------------
@hookspec
def mn_round_start(game: Game) -> None:
    """A new round begins (``game.state.round`` already holds its number)."""


@hookspec
def mn_phase_start(game: Game, phase: str) -> None:
    """A phase begins; ``game.state.phase`` already holds its name."""


@hookspec
def mn_phase_end(game: Game, phase: str) -> None:
    """A phase has ended; victory checks that come "at the end of phase N" live here."""


@hookspec
def mn_round_end(game: Game) -> None:
    """The last phase of the round has ended."""


# --------------------------------------------------------------------------------------
# Phase 1 — Collect resources
# --------------------------------------------------------------------------------------
@hookspec
def mn_income(game: Game, player: str) -> list[tuple[str, int]]:
    """What ``player`` collects this Collect phase, as ``(resource key, amount)`` pairs.

    Every implementation contributes (buildings, legendary cities, a wonder's coin).
    A legendary draw is the key ``"legendary"``; the engine draws it from the pile.
    """


# --------------------------------------------------------------------------------------
# Phase 3 — Build
# --------------------------------------------------------------------------------------
@hookspec
def mn_build_offers(game: Game, player: str) -> list[Any]:
    """Extra ways to build that ``player`` has now (a cheap legion once per round, ...).

    Returns build offers (see ``plugins/build.py``); the Build step lists them among
    the legal choices next to the normal purchases.
    """


# --------------------------------------------------------------------------------------
# Effects (all phases)
# --------------------------------------------------------------------------------------
@hookspec
def mn_modifiers(game: Game, quantity: str, ctx: dict[str, Any]) -> list[Modifier] | None:
    """Modifiers for ``quantity`` in context ``ctx`` (a cost, a dice total, ...).

    Fires each time the rules fold a value through :meth:`Game.fold`. Every result
    counts; the engine applies them in ``(layer, rank, source)`` order. The quantities
    the base rules fold are vocabulary words of kind "quantity" (``plugins/words.py``).
    """


@hookspec
def mn_replacements(game: Game, event: Event) -> list[Replacement] | None:
    """Replacements for an event that is about to happen (see :meth:`Game.perform`)."""


@hookspec
def mn_triggers(game: Game, event: Event) -> list[Trigger] | None:
    """Reactions to an event that has just happened; they may push decision frames."""


# --------------------------------------------------------------------------------------
# The effect language
# --------------------------------------------------------------------------------------
@hookspec
def mn_vocabulary() -> list[Word]:
    """The words card scripts may use: quantities, events, conditions, counts, actions.

    Fires once when a rule set is assembled, before the cards are compiled; a script
    phrase that no plugin declares is an error at load time.
    """


# --------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------
@hookspec
def mn_report(game: Game, player: str) -> dict[str, Any]:
    """Figures about ``player`` for summaries and reports (track levels, provinces, ...).

    Every implementation contributes; the dicts are merged in plugin order.
    """


@hookspec
def mn_compare(a: Ruleset, b: Ruleset) -> list[str]:
    """What differs in play between two rule sets, measured (``mnrules editions diff``):
    e.g. the exact change in battle outcomes. Fires on the first rule set's plugins."""


@hookspec
def mn_in_transit(game: Game) -> dict[str, int]:
    """Resources a step holds outside every screen for now (trade offers), by key.

    The conservation check adds them to the screens and the supply.
    """


@hookspec
def mn_check_state(game: Game) -> list[str]:
    """Problems with the state under this plugin's rules (units where they may not be,
    two fortresses in a province, ...). Fires from :func:`mnrules.invariants.check`
    after every choice when checking is on, and in tests."""
