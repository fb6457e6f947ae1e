"""A game, as one typed object: what a game's package tells the kernel about itself.

    GAME = GameDefinition(name="tictactoe", state=State, seating={2: ["x", "o"]})

A game's package (or one .py file beside a pack) holds one ``GAME``; the kernel reads
it when a pack names the game, and registers the package itself on the bus as the plugin
``game`` for the rules hooks it answers (``mn_steps``, ``mn_params``, ...). What one game
says once — its state, seats, board loader, card schema, checks, bots, pictures, texts and
scenario support — lives here, typed, each with a default a game may leave alone; what
many plugins answer (parameters, steps, the contract, setup, phases, effects, words,
reports) stays on the bus (:mod:`mnrules.hooks.hookspecs`). As OpenSpiel's ``GameType``
beside ``register_game``, or boardgame.io's ``Game``: the definition is data, the rules
are plugins.

Every callable is called with keyword arguments, named as below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .state import State

if TYPE_CHECKING:
    from ..bots import Bot
    from ..bots.mcts import SearchPolicy


def _none(**_: Any) -> None:
    return None


def _nothing_to_hide(**_: Any) -> None:
    return None


def _no_problems(**_: Any) -> list[str]:
    return []


def _no_areas(**_: Any) -> list[tuple[str, int | None, str, str]]:
    return []


def _no_blunders(**_: Any) -> list[tuple[str, str]]:
    return []


@dataclass(frozen=True)
class Presentation:
    """What a player reads and clicks, in his language. ``say`` is a
    :class:`mnrules.language.present.Presenter` (the pack's names by kind and the
    language's ``messages.yaml`` templates); each answer None means "the kernel's own
    sentence" (made from the declared meaning of a decision or event)."""

    event_text: Callable[..., str | None] = _none
    """(say, game, event, viewer) → ``event`` as one sentence for ``viewer`` (None: an
    onlooker), or "" when he is told nothing of it (a card drawn face down)."""
    prompt_text: Callable[..., str | None] = _none
    """(say, game, decision) → the question of a pending decision."""
    option_text: Callable[..., str | None] = _none
    """(say, game, decision, option) → one option as a sentence (with a warning when it
    costs the player something he may not expect)."""
    option_group: Callable[..., str | None] = _none
    """(say, game, decision, option) → the heading a front end lists ``option`` under
    (moves by origin, payments by what they share); None: no heading."""
    option_places: Callable[..., list[str] | None] = _none
    """(game, decision, option) → the map's areas an option is about, in the order a
    player points at them (a move: from, to): the web app makes them clickable."""
    table: Callable[..., dict[str, Any] | None] = _none
    """(say, game, viewer) → what ``viewer`` sees beside the map: ``{"title": str,
    "sections": [{"title": str, "head": [str], "rows": [[str]], "notes": [str]}]}``;
    nothing he may not know. A section without ``head`` lists (label, value) pairs."""
    board_svg: Callable[..., str | None] = _none
    """(say, game, viewer) → the map as SVG whose areas carry ``data-area`` (the names
    ``option_places`` answers), drawn from what ``viewer`` may see."""
    round_summary: Callable[..., list[str] | None] = _none
    """(say, game, round, events) → the lines ``mnrules play`` prints when ``round`` has
    ended; None: the players' reports (``mn_report``) sum it up."""
    describe: Callable[..., str | None] = _none
    """(say, game, player, what) → what a human asks to see at the terminal: ``what`` is
    "board" (the game as he knows it) or "screen" (what he holds)."""


@dataclass(frozen=True)
class ScenarioSupport:
    """The game's part of a scenario file (docs/scenarios.md). The kernel's own keys
    (round, phase, frame, vars; winners, victory, round, pending, events, no_events,
    report) need nothing here; without ``keys`` a game's ``position:`` may set any field
    its state declares (``State.SHAPES``), checked against its shape."""

    keys: Mapping[str, tuple[str, ...]] | None = None
    """``{"position": (...), "expect": (...)}``: the game's own keys; None: the state's
    declared fields, for ``position`` only."""
    schema: Callable[..., None] = _none
    """(schema, section, data, at) → check the values of the game's keys with the
    schema's helpers (``schema.mapping``, ``names``, ``counts``, ``fail``...), so that a
    mistake names file:line:column and the key."""
    set_position: Callable[..., bool | None] = _none
    """(game, position, at) → set up the game's part of ``position:`` after the kernel has
    set the round, each edit ``with at(*key):``; None: the kernel sets declared fields."""
    expect: Callable[..., list[str] | None] = _none
    """(game, key, want) → the failures of one of the game's expectation keys (each
    "path: expected X, got Y"), or None when ``key`` is not the game's."""


@dataclass(frozen=True)
class GameDefinition:
    """One game: its name, its state and its seats are required; the rest has a default."""

    name: str
    """The game's id, as packs write it (``game: NAME``) and entry points declare it."""
    state: type[State] = State
    """A dataclass subclass of :class:`mnrules.core.state.State` whose ``SHAPES`` declare
    every field, so that a save is validated and round-trips."""
    seating: Mapping[int, list[str]] | Callable[..., Mapping[int, list[str]]] = \
        field(default_factory=dict)
    """The players for each supported player count, in seating order; or (rules) → that,
    for a game whose seats come from its board."""
    hookspecs: ModuleType | type | None = None
    """A module of the game's own hooks (its plugins call each other through them),
    added to the bus beside the kernel's."""
    plugins: tuple[object, ...] = ()
    """Plugins the game registers beside its package, whatever the pack lists (game-wide
    checks with an order of their own, ...)."""
    load_board: Callable[..., Any] | None = None
    """(path, data, where) → the board or map file the pack names (``board:``), read with
    the pack's data (``where(*key)`` gives a pack key's file:line:col); raise a
    :class:`mnrules.errors.MnrulesError` naming file, line and key. It becomes
    ``rules.board``. None: the game has no board file."""
    card_schema: Mapping[str, Any] = field(default_factory=dict)
    """What the game's cards may declare: ``kinds`` (card kinds), ``bonus_keys`` (what a
    card's ``bonuses`` may name), ``keys`` (the card keys allowed; without it, every key
    of :data:`mnrules.content.card_files.CARD_KEYS`)."""
    check_save: Callable[..., list[str]] = _no_problems
    """(rules, state) → what a loaded state holds that this rule set has not (areas,
    pieces, cards); the kernel refuses the save listing them."""
    view: Callable[..., None] = _nothing_to_hide
    """(game, player, data) → hide from ``data`` (a snapshot's dict) what ``player`` may
    not see beyond what the state's fields declare (:func:`mnrules.core.state.seen_by`:
    another's screen, a face-down pile are hidden by their declaration, before this is
    asked; :func:`mnrules.core.view.player_view`)."""
    bots: Mapping[str, Callable[[int, str], Bot]] = field(default_factory=dict)
    """The game's bots by name: a factory of (seed, argument) giving a bot; the argument
    is what follows ``name:`` on the command line, or ""."""
    determinize: Callable[..., None] | None = None
    """(game, viewer, rng) → deal afresh, in ``game`` (a copy), what ``viewer`` cannot
    see, consistently with what he can, drawing from ``rng`` only. None: nothing hidden."""
    tensor: Callable[..., list[float]] | None = None
    """(game, player) → a fixed-length vector of what ``player`` sees, for agents from
    elsewhere (:mod:`mnrules.openspiel`); None: a small generic vector."""
    search_policy: Callable[..., SearchPolicy] | None = None
    """(rules, seed) → the search player's knowledge of this game
    (:class:`mnrules.bots.mcts.SearchPolicy`); None: every option, random playouts."""
    blunders: Callable[..., Sequence[tuple[Any, ...]]] = _no_blunders
    """(game, player, kind, choice, events, notes, say) → what a one-step lookahead shows
    of ``choice`` (not yet applied; leave the game as it is): a (kind of blunder,
    sentence) for each way it is strictly dominated (``mnrules bots check``); a (kind,
    sentence, player, round) where it concerns another player's decision or another
    round (a turn's trades read at its end, when the next player decides)."""
    board_areas: Callable[..., Sequence[tuple[str, int | None, str, str]]] = _no_areas
    """(rules, players) → each area of the board in play with ``players``: (its id, the
    fewest players it is in play with or None, its provenance, its note), so that a
    study names the board facts its pack marks as reconstructed (``mnrules study``)."""
    render: Callable[..., bool] | None = None
    """(game, path, say) → draw the board to ``path`` (its suffix says the format); True
    when done. None: the game draws nothing."""
    presentation: Presentation = field(default_factory=Presentation)
    scenario: ScenarioSupport = field(default_factory=ScenarioSupport)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TypeError("GameDefinition: name must be the game's id, a text")
        if not (isinstance(self.state, type) and issubclass(self.state, State)):
            raise TypeError(f"GameDefinition {self.name!r}: state must be a subclass of "
                            f"mnrules.api.State, not {self.state!r}")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _CALLABLE and value is not None and not callable(value):
                raise TypeError(f"GameDefinition {self.name!r}: {f.name} must be a "
                                f"function, not {value!r:.60}")

    def seats(self, rules: Any) -> dict[int, list[str]]:
        """The seating for ``rules`` (a callable seating is asked with it)."""
        found = self.seating(rules=rules) if callable(self.seating) else self.seating
        return {int(n): list(players) for n, players in (found or {}).items()}


_CALLABLE = frozenset({"load_board", "check_save", "view", "determinize", "tensor",
                       "search_policy", "blunders", "render", "board_areas"})
