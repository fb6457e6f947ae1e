"""The game hooks of mnrules 0.2, before :class:`mnrules.core.definition.GameDefinition`:
a game's package answered 25 one-answer hooks (``mn_state_class``, ``mn_seating``,
``mn_view``, ``mn_table``...). A game still written so plays, with a
``DeprecationWarning``, until mnrules 0.3: the kernel adds these specs to the bus for it
alone and reads its answers into a definition (:func:`definition_from_hooks`).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from ..core.definition import GameDefinition, Presentation, ScenarioSupport
from ..core.state import State
from .hookspecs import hookspec

if TYPE_CHECKING:
    import random
    from collections.abc import Callable
    from pathlib import Path

    from ..bots.mcts import SearchPolicy
    from ..content.ruleset import Ruleset
    from ..core.effects import Event
    from ..core.engine import Decision, Game
    from ..language.present import Presenter
    from .bus import Bus

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
def mn_check_save(rules: Ruleset, state: State) -> list[str]:
    """Problems of a loaded state that does not fit this rule set (areas, pieces or
    cards it does not have); the kernel refuses the save listing them."""


@hookspec
def mn_view(game: Game[Any], player: str, data: dict[str, Any]) -> None:
    """Hide from ``data`` (a snapshot's dict) what ``player`` may not see: other screens,
    face-down piles. Fires from :func:`mnrules.core.view.player_view`."""


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


HOOKS = frozenset(name for name in dict(globals()) if name.startswith("mn_"))
"""The game hooks of 0.2, by name."""


def is_legacy(module: object) -> bool:
    """Whether ``module`` answers a game hook of 0.2 (and so has no definition)."""
    return any(callable(getattr(module, name, None)) for name in HOOKS)


def definition_from_hooks(pm: Bus, name: str, where: str) -> GameDefinition:
    """The definition of a game written as hooks (its package registered on ``pm`` beside
    these specs): each field asks the bus as the kernel of 0.2 did."""
    warnings.warn(f"{where}: game {name!r} answers the game hooks of mnrules 0.2 "
                  f"(mn_state_class, mn_seating, ...); define GAME = "
                  f"mnrules.api.GameDefinition(...) instead (docs/writing-a-game.md): the "
                  f"hooks are read until mnrules 0.3", DeprecationWarning, stacklevel=2)
    hook = pm.hook

    def answered(hook_name: str) -> bool:
        return bool(getattr(hook, hook_name).get_hookimpls())

    def first(hook_name: str) -> Callable[..., Any]:
        return lambda **kw: getattr(hook, hook_name)(**kw)

    def every(hook_name: str) -> Callable[..., list[Any]]:
        return lambda **kw: [x for found in getattr(hook, hook_name)(**kw)
                             for x in (found or ())]

    def each(hook_name: str) -> Callable[..., None]:
        def call(**kw: Any) -> None:
            getattr(hook, hook_name)(**kw)
        return call

    def maybe(hook_name: str, make: Callable[[str], Callable[..., Any]]
              ) -> Callable[..., Any] | None:
        return make(hook_name) if answered(hook_name) else None

    state = hook.mn_state_class() or State
    keys = hook.mn_scenario_keys() if answered("mn_scenario_keys") else None
    return GameDefinition(
        name=name, state=state,
        seating=lambda rules: hook.mn_seating(rules=rules) or {},
        plugins=tuple(x for found in hook.mn_plugins() for x in found),
        load_board=maybe("mn_load_board", first),
        card_schema=dict(hook.mn_card_schema() or {}),
        check_save=every("mn_check_save"), view=each("mn_view"),
        determinize=maybe("mn_determinize", each), tensor=maybe("mn_tensor", first),
        search_policy=maybe("mn_search_policy", first), blunders=every("mn_blunders"),
        render=maybe("mn_render", first),
        presentation=Presentation(
            event_text=first("mn_event_text"), prompt_text=first("mn_prompt_text"),
            option_text=first("mn_option_text"), option_group=first("mn_option_group"),
            option_places=first("mn_option_places"), table=first("mn_table"),
            board_svg=first("mn_board_svg"), round_summary=first("mn_round_summary"),
            describe=first("mn_describe")),
        scenario=ScenarioSupport(
            keys=keys, schema=each("mn_scenario_schema"),
            set_position=first("mn_set_position"), expect=first("mn_expect")))
