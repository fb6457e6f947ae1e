"""Every hook of the mnrules event bus, in two parts: first what a game's package says
about itself (its state, board, seats, cards, bots, pictures, presentation and scenario
support: one answer each, mostly first result wins), then the rules hooks, from a rule
set's assembly through setup, the round and the effects to the reports.

Read the second part as the rules' table of contents: a rule plugin (a module of a game's
package) or a compiled card (a game's ``cards/``) implements some of these hooks with
``@hookimpl``. Unless a hook says "first result wins", pluggy calls every
implementation and the engine receives the list of their non-None results.

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
    import random
    from collections.abc import Callable
    from pathlib import Path

    from ..bots import Bot
    from ..bots.mcts import SearchPolicy
    from ..content.ruleset import Ruleset
    from ..core.effects import Event, Modifier, Replacement, Trigger
    from ..core.engine import Decision, Game, Param, Step
    from ..core.state import State
    from ..language.present import Presenter
    from ..language.words import Terms, Word
    from .contract import Declaration

PROJECT = "mnrules"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = ImplMarker(PROJECT)   # pluggy's, also for functions of the compiled core


# --------------------------------------------------------------------------------------
# The game: what a game package (``plugins/<game>/__init__.py``, named by the pack's
# ``game`` key) tells the kernel about itself. The kernel knows no game's pieces.
# --------------------------------------------------------------------------------------
@hookspec(firstresult=True)
def mn_state_class() -> type[State]:
    """The game's state: a dataclass subclass of :class:`mnrules.core.state.State` whose
    ``SHAPES`` declare every field, so that a save is validated and round-trips.
    Without an answer a game has only the kernel's fields."""


@hookspec
def mn_plugins() -> list[object]:
    """Plugins the game registers beside itself (its own checks with an order of their
    own, ...), whatever plugins the pack lists."""


@hookspec(firstresult=True)
def mn_load_board(path: Path, data: dict[str, Any], where: Callable[..., str]) -> Any:
    """Read the board or map file the pack names (``board:``) with the pack's data
    (``where(*key)`` gives a pack key's file:line:col); raise a
    :class:`mnrules.errors.MnrulesError` naming file, line and key on a mistake. The
    result is ``rules.board``, for the game's own plugins."""


@hookspec
def mn_check_pack(rules: Ruleset, source: Any) -> None:
    """Check the assembled rule set against the game (its board against its cards and
    box, ...); raise a :class:`mnrules.errors.PackError` naming the pack's line
    (``source.where(*key)``)."""


@hookspec(firstresult=True)
def mn_seating(rules: Ruleset) -> dict[int, list[str]]:
    """The players of a game for each player count the game supports, in seating order."""


@hookspec(firstresult=True)
def mn_card_schema() -> dict[str, Any]:
    """What the game's cards may declare: ``kinds`` (a tuple of card kinds),
    ``bonus_keys`` (what a card's ``bonuses`` may name) and ``keys`` (the card keys its
    cards may hold at all; without it, every key of
    :data:`mnrules.content.card_files.CARD_KEYS`). Without an answer a card has no kind list and
    no bonuses."""


@hookspec
def mn_word_sets(rules: Ruleset) -> dict[str, frozenset[str]]:
    """Named sets of ids that the effect language's placeholders match (``{good}``,
    ``{unit}``, ...): the game's goods, units, players and so on."""


@hookspec
def mn_check_save(rules: Ruleset, state: State) -> list[str]:
    """Problems of a loaded state that does not fit this rule set (areas, pieces or
    cards it does not have); the kernel refuses the save listing them."""


@hookspec
def mn_view(game: Game[Any], player: str, data: dict[str, Any]) -> None:
    """Hide from ``data`` (a snapshot's dict) what ``player`` may not see: other screens,
    face-down piles. Fires from :func:`mnrules.core.view.player_view`."""


@hookspec
def mn_bots() -> dict[str, Callable[[int, str], Bot]]:
    """The game's bots by name (``"heuristic"``): a factory of (seed, argument) giving a
    bot; the argument is what follows ``name:`` on the command line, or ""."""


@hookspec
def mn_determinize(game: Game[Any], viewer: str, rng: random.Random) -> None:
    """Deal afresh, in ``game`` (a copy), what ``viewer`` cannot see, consistently with
    what he can (other screens from the hidden pool, face-down piles reshuffled), drawing
    from ``rng`` only: the search player's imagined worlds (:mod:`mnrules.bots.mcts`). A
    game that hides nothing implements nothing."""


@hookspec(firstresult=True)
def mn_tensor(game: Game[Any], player: str) -> list[float]:
    """A fixed-length vector of what ``player`` sees (the same length in every state of
    a game): agents from elsewhere read it (:mod:`mnrules.openspiel`'s observation
    tensor). A game without one gets a small generic vector."""


@hookspec(firstresult=True)
def mn_search_policy(rules: Ruleset, seed: int) -> SearchPolicy:
    """The search player's knowledge of this game (:class:`mnrules.bots.mcts.SearchPolicy`):
    which decisions to search, the candidates in order, a playout's choices and each
    seat's estimated chance to win. Without one: every option, random playouts, outcomes."""


# --------------------------------------------------------------------------------------
# Blunder checks (``mnrules bots check``, :mod:`mnrules.tools.blunders`): a game's own tests
# of its bots' decisions. A block of its own: nothing else in the kernel calls it.
# --------------------------------------------------------------------------------------
@hookspec
def mn_blunders(game: Game[Any], player: str, kind: str, choice: Any,
                events: list[Event], notes: dict[str, Any], say: Presenter
                ) -> list[tuple[str, str]]:
    """What a one-step lookahead shows of ``choice``, ``player``'s answer to the pending
    decision of ``kind`` (not yet applied; the game must be left as it is): a finding
    for each way it is strictly dominated, as (kind of blunder, a sentence of ``say``
    with the pack's names). ``events`` are those performed since the previous decision;
    ``notes`` a dict kept for the whole game (what a test remembers, such as the trades
    of the turn); a test adds to ``notes["checked"]`` (a list) the kind of blunder it
    looked for at this decision, so the report can say how many were checked."""


@hookspec(firstresult=True)
def mn_render(game: Game[Any], path: Path, say: Presenter) -> bool:
    """Draw the game's board to ``path`` (its suffix says the format), its words in
    ``say``'s language; True when done."""


@hookspec(firstresult=True)
def mn_round_summary(say: Presenter, game: Game[Any], round: int, events: list[Event]
                     ) -> list[str]:
    """The lines ``mnrules play`` prints when ``round`` has ended: what happened (from
    ``events``) and where each player stands, as sentences of ``say`` (the presentation
    layer in the language asked: its names and ``messages.yaml`` templates). A game
    that answers nothing is summed up by its players' reports (``mn_report``)."""


@hookspec(firstresult=True)
def mn_describe(say: Presenter, game: Game[Any], player: str, what: str) -> str:
    """What a human asks to see at the terminal, as sentences of ``say`` (the language
    he plays in): ``what`` is "board" (the game as ``player`` knows it) or "screen"
    (what he holds)."""


# --------------------------------------------------------------------------------------
# Presentation: what a player reads and clicks, in his language (mnrules/language/present.py).
# ``say`` is a :class:`mnrules.language.present.Presenter`: the pack's names by kind and the
# language's message templates (``messages.yaml`` beside the packs). A front end shows
# nothing of a game but what these hooks answer (and the kernel's own sentences).
# --------------------------------------------------------------------------------------
@hookspec(firstresult=True)
def mn_event_text(say: Presenter, game: Game[Any], event: Event, viewer: str | None
                  ) -> str | None:
    """``event`` as one sentence for ``viewer`` (None: an onlooker), or "" when he is told
    nothing of it (a card drawn face down, what another keeps behind his screen)."""


@hookspec(firstresult=True)
def mn_prompt_text(say: Presenter, game: Game[Any], decision: Decision) -> str | None:
    """The question of a pending decision, for the player who answers it."""


@hookspec(firstresult=True)
def mn_option_text(say: Presenter, game: Game[Any], decision: Decision, option: Any
                   ) -> str | None:
    """One option of a decision as a sentence (with a warning when it costs the player
    something he may not expect, such as goods discarded)."""


@hookspec(firstresult=True)
def mn_option_group(say: Presenter, game: Game[Any], decision: Decision, option: Any
                    ) -> str | None:
    """The heading a front end lists ``option`` under (moves by origin, payments by the
    items they share), so that long menus stay short; None: no heading."""


@hookspec(firstresult=True)
def mn_option_places(game: Game[Any], decision: Decision, option: Any) -> list[str] | None:
    """The areas of the map an option is about, in the order a player points at them
    (a move: from, to), so that the web app makes them clickable."""


@hookspec(firstresult=True)
def mn_table(say: Presenter, game: Game[Any], viewer: str | None) -> dict[str, Any] | None:
    """What ``viewer`` sees at the table beside the map, as plain sentences and numbers:
    ``{"title": str, "sections": [{"title": str, "head": [str], "rows": [[str]],
    "notes": [str]}]}``; nothing ``viewer`` may not know (another's screen, face-down
    piles). A section without ``head`` is a list of labelled values (label, value); its
    notes, if any, say the same in sentences, and a front end may show them instead."""


@hookspec(firstresult=True)
def mn_board_svg(say: Presenter, game: Game[Any], viewer: str | None) -> str | None:
    """The map as an SVG document whose areas carry ``data-area`` (the names
    ``mn_option_places`` answers), drawn from what ``viewer`` may see."""


@hookspec(firstresult=True)
def mn_scenario_keys() -> dict[str, tuple[str, ...]]:
    """The game's own keys of a scenario file: ``{"position": (...), "expect": (...)}``
    (docs/scenarios.md); the kernel's own (round, phase, frame, vars; winners, victory,
    round, pending, events, no_events, report) need no declaring."""


@hookspec
def mn_scenario_schema(schema: Any, section: str, data: dict[str, Any],
                       at: tuple[str | int, ...]) -> None:
    """Check the values of the game's keys in a scenario's ``position`` or ``expect``
    (``section``) with the schema's helpers (``schema.mapping``, ``names``, ``counts``,
    ``fail``...), so that a mistake names file:line:column and the key."""


@hookspec(firstresult=True)
def mn_set_position(game: Game[Any], position: dict[str, Any], at: Any) -> bool:
    """Set up the game's part of a scenario's ``position:`` (the board, screens, ...),
    after the kernel has set the round; each edit ``with at(*key):`` so that a refused
    one names its key and line."""


@hookspec(firstresult=True)
def mn_expect(game: Game[Any], key: str, want: Any) -> list[str] | None:
    """Check one of the game's expectation keys of a scenario: the failures (each
    "path: expected X, got Y"), or None when ``key`` is not the game's."""


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
# Phase 3 — Build
# --------------------------------------------------------------------------------------
@hookspec
def mn_build_offers(game: Game[Any], player: str) -> list[Any]:
    """Extra ways to build that ``player`` has now (a cheap legion once per round, ...).

    Returns build offers (see ``plugins/mare_nostrum/build.py``); the Build step lists them among
    the legal choices next to the normal purchases.
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
def mn_in_transit(game: Game[Any]) -> dict[str, int]:
    """Resources a step holds outside every screen for now (trade offers), by key.

    The conservation check adds them to the screens and the supply.
    """


@hookspec
def mn_check_state(game: Game[Any]) -> list[str]:
    """Problems with the state under this plugin's rules (units where they may not be,
    two fortresses in a province, ...). Fires from :func:`mnrules.core.invariants.check`
    after every choice when checking is on, and in tests."""
