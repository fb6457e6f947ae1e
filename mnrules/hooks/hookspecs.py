"""The rules hooks of the mnrules event bus: what many plugins answer, from a rule set's
assembly through setup, the round and the effects to the reports. Read it as the rules'
table of contents: a rule plugin (a module of a game's package) or a compiled card (a
game's ``cards/``) implements some of these hooks with ``@hookimpl``. pluggy calls every
implementation and the engine receives the list of their non-None results.

What a game says of itself once (its state, seats, board loader, card schema, bots,
pictures, texts, scenario support) is no hook: it is the game's
:class:`mnrules.core.definition.GameDefinition`. A game's own hooks, which only its plugins
call, are its package's (``GameDefinition.hookspecs``: Mare Nostrum's ``mn_income``,
``mn_in_transit``...). A hook implementation no spec declares is refused when a rule set
is assembled, naming the nearest hook.

Effects are never ordered by pluggy's call order: the effect hooks return
:mod:`mnrules.core.effects` objects that the engine sorts by ``(layer, rank, source)``.

A card (a plugin with a ``card_id`` and a ``card_holder_key(hook, name)``, as every
compiled card is) is asked by ``mn_modifiers``, ``mn_triggers``, ``mn_replacements``
and ``mn_build_offers`` only when someone at the table has its power — the player its
answer concerns, or anyone — as the state's ``holdings`` say, unless a game's
'holder' word (a copy of a card) is at work, when every card is asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

from .bus import ImplMarker

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..bots import Bot
    from ..content.ruleset import Ruleset
    from ..core.effects import Event, Modifier, Replacement, Trigger
    from ..core.engine import Game, Param, Step
    from ..language.words import Terms, Word
    from .contract import Declaration

PROJECT = "mnrules"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = ImplMarker(PROJECT)   # pluggy's, also for functions of the compiled core


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
def mn_steps() -> dict[str, Step[Any]]:
    """Return the decision-loop steps this plugin runs, by step name ("trade.pick", ...).

    Fires once when a rule set is assembled. A phase named in the pack's ``phases`` list
    must be one of these step names. Two plugins may not claim the same name.
    """


@hookspec
def mn_contract() -> list[Declaration]:
    """Declare, once, every name this plugin owns in the rules' contract: the quantities
    it folds (``Quantity``), the events it performs or only emits (``EventKind``), the
    kinds of the decisions its steps ask (``DecisionKind``) and what it is for, with its
    phase (``Part``); see :mod:`mnrules.hooks.contract`.

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


@hookspec
def mn_check_pack(rules: Ruleset, source: Any) -> None:
    """Check the assembled rule set against the game (its board against its cards and
    box, ...); raise a :class:`mnrules.errors.PackError` naming the pack's line
    (``source.where(*key)``)."""


# --------------------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------------------
@hookspec
def mn_setup(game: Game[Any]) -> None:
    """Put the game in its starting position (pieces, resources, titles, display).

    Fires once, when a new game is created, before the first decision. Randomness must
    come from ``game.rng``.
    """


# --------------------------------------------------------------------------------------
# The round
# --------------------------------------------------------------------------------------
@hookspec
def mn_phase_start(game: Game[Any], phase: str) -> None:
    """A phase begins; ``game.state.phase`` already holds its name."""


@hookspec
def mn_phase_end(game: Game[Any], phase: str) -> None:
    """A phase has ended; victory checks that come "at the end of phase N" live here."""


# --------------------------------------------------------------------------------------
# Offers: what the effect language's ``offer`` rules give a card's holder
# --------------------------------------------------------------------------------------
@hookspec
def mn_build_offers(game: Game[Any], player: str) -> list[Any]:
    """The items ``player``'s cards offer him now (:class:`mnrules.language.compiler.Offer`:
    a cheap legion once per round, ...): every compiled card with an ``offer`` rule
    answers it; the game's own step that takes such items lists them among its choices
    (Mare Nostrum's build step, ``plugins/mare_nostrum/build.py``).
    """


# --------------------------------------------------------------------------------------
# Effects (all phases)
# --------------------------------------------------------------------------------------
@hookspec
def mn_modifiers(game: Game[Any], quantity: str, ctx: dict[str, Any]) -> list[Modifier] | None:
    """Modifiers for ``quantity`` in context ``ctx`` (a cost, a dice total, ...).

    Fires each time the rules fold a value through :meth:`Game.fold`. Every result
    counts; the engine applies them in ``(layer, rank, source)`` order. Every quantity
    is declared once in the rules' contract, by the plugin that folds it (a
    :class:`~mnrules.hooks.contract.Quantity` from its ``mn_contract``): an undeclared one is
    refused. A declared quantity with a ``word`` is what a card's ``modify WORD`` names;
    the card answers for its declared name (docs/rules.md lists them all).
    """


@hookspec
def mn_replacements(game: Game[Any], event: Event) -> list[Replacement] | None:
    """Replacements for an event that is about to happen (see :meth:`Game.perform`)."""


@hookspec
def mn_triggers(game: Game[Any], event: Event) -> list[Trigger] | None:
    """Reactions to an event that has just happened; they may push decision frames."""


# --------------------------------------------------------------------------------------
# The effect language
# --------------------------------------------------------------------------------------
@hookspec
def mn_vocabulary() -> list[Word | Terms]:
    """The words card scripts may use beside the quantities and events: conditions,
    counts, actions, changes, allowances, items.

    The quantity and event words are not answered here: they come from the rules'
    contract (``mn_contract``), the ``word`` of each declared
    :class:`~mnrules.hooks.contract.Quantity` and performed
    :class:`~mnrules.hooks.contract.EventKind`
    with its meaning sentence, so a card can never name a value nobody folds or an
    event that never fires. What a quantity word needs beyond its declaration (the range
    of a script's numbers, a ceiling, what a list holds) is a
    :class:`~mnrules.language.words.Terms` keyed to the declared name; a word that reads
    what only some quantities or events carry lists their declared names in ``Word.on``.

    Fires once when a rule set is assembled, before the cards are compiled. A quantity
    or event ``Word``, or a ``Terms`` or ``on`` naming an undeclared, emit-only or
    wordless name, is refused then (:func:`mnrules.hooks.contract.card_words`); a script
    phrase that is no word is an error at load time.
    """


@hookspec
def mn_word_sets(rules: Ruleset) -> dict[str, frozenset[str]]:
    """Named sets of ids that the effect language's placeholders match (``{good}``,
    ``{unit}``, ...): the game's goods, units, players and so on."""


# --------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------
@hookspec
def mn_report(game: Game[Any], player: str) -> dict[str, Any]:
    """Figures about ``player`` for summaries and reports (track levels, provinces, ...).

    Every implementation contributes; the dicts are merged in plugin order.
    """


@hookspec
def mn_compare(a: Ruleset, b: Ruleset) -> list[str]:
    """What differs in play between two rule sets, measured (``mnrules editions diff``):
    e.g. the exact change in battle outcomes. Fires on the first rule set's plugins."""


@hookspec
def mn_check_state(game: Game[Any]) -> list[str]:
    """Problems with the state under this plugin's rules (units where they may not be,
    two fortresses in a province, ...). Fires from :func:`mnrules.core.invariants.check`
    after every choice when checking is on, and in tests."""


# --------------------------------------------------------------------------------------
# Players a plugin adds
# --------------------------------------------------------------------------------------
@hookspec
def mn_bots() -> dict[str, Callable[[int, str], Bot]]:
    """Bots a plugin adds beside the game's own (``GameDefinition.bots``), such as a
    variant's outside player (docs/agents.md), by name: a factory of (seed, argument)
    giving a bot; the argument is what follows ``name:`` on the command line, or ""."""
