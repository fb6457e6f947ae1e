"""Antike II (Mac Gerdts) as a game on the mnrules kernel: the second game (issue 12).

This package is the game: its rule plugins (one module per part of the rules: the
rondel, production, militia, templum, scientia, founding, personages, victory, Bellona,
trade; movere and conquest for war), its state, its board file format (``board.py``),
its scenario positions and its reports. The hooks below tell the kernel what the game is
made of; the kernel names none of it. The Russian rulebook (seed 002) is the authority;
the packs (``editions/antike2/``) quote it where a reading was chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from antike2 import hookspecs as _hookspecs
from antike2.bots import mn_bots as mn_bots  # the heuristic bot
from antike2.bots.policy import (  # what the search player knows
    mn_determinize as mn_determinize,
)
from antike2.bots.policy import mn_search_policy as mn_search_policy
from antike2.present import mn_event_text as mn_event_text
from antike2.present import mn_option_places as mn_option_places
from antike2.present import mn_option_text as mn_option_text
from antike2.present import mn_prompt_text as mn_prompt_text
from antike2.present import mn_table as mn_table
from antike2.render import mn_board_svg as mn_board_svg  # the web map
from antike2.render import mn_render as mn_render  # the board picture
from antike2.reports import mn_describe as mn_describe
from antike2.reports import mn_report as mn_report
from antike2.reports import mn_round_summary as mn_round_summary
from antike2.state import RESOURCES, UNITS, Game, State
from antike2.supply import (
    mn_check_state as mn_check_state,  # the box's limits, a game-wide rule
)
from antike2.tensor import mn_tensor as mn_tensor  # what agents from elsewhere see
from mnrules.hooks.hookspecs import hookimpl

FORMER_NAMES = ("mnrules.plugins.antike2",)
"""This package's name in mnrules 0.1: served, deprecated, until mnrules 0.3 (see
:mod:`mnrules._legacy`)."""

HOOKSPECS = _hookspecs
"""The hooks the game's plugins call on each other, added to the bus beside the kernel's."""

CARD_KINDS = ("know-how", "personage", "bellona")


@hookimpl
def mn_state_class() -> type[State]:
    return State


@hookimpl
def mn_load_board(path: Path, data: dict[str, Any], where: Callable[..., str]) -> Any:
    """The board side the pack names (``board:``), as ``board.py`` reads and checks it."""
    from antike2.board import from_pack

    return from_pack(path, data, where)


@hookimpl
def mn_check_pack(rules: Any, source: Any) -> None:
    from antike2.supply import check_components

    check_components(rules.data.get("components"), source.where,
                     [c for c, card in rules.cards.items() if card.kind == "personage"])


@hookimpl
def mn_seating(rules: Any) -> dict[int, list[str]]:
    """Each player count the board seats: its nations, in the board's order (setup then
    rotates them so that a start player drawn at random plays first)."""
    board = rules.board
    return {n: [nation for nation in board.nations if nation in board.start(n)]
            for n in board.player_counts}


@hookimpl
def mn_card_schema() -> dict[str, Any]:
    # no leadership bonuses, fixed costs or copying: those are Mare Nostrum's
    return {"kinds": CARD_KINDS, "bonus_keys": (),
            "keys": ("id", "kind", "phase", "names", "text", "effects", "variants")}


@hookimpl
def mn_word_sets(rules: Any) -> dict[str, frozenset[str]]:
    # '{name}' of 'the action is {name}': the rondel's actions, as the pack orders them
    rondel = rules.params.get("rondel") if isinstance(rules.params, dict) else None
    return {"goods": frozenset(RESOURCES), "units": frozenset(UNITS),
            "tracks": frozenset(), "players": frozenset(rules.board.nations),
            "action": frozenset(str(a) for a in rondel or ())}


@hookimpl
def mn_check_save(rules: Any, state: State) -> list[str]:
    from antike2.api import fits

    return fits(rules, state)


@hookimpl
def mn_view(game: Game, player: str, data: dict[str, Any]) -> None:
    """Nothing is hidden in Antike II: stocks, know-how and personages lie open."""


@hookimpl
def mn_scenario_keys() -> dict[str, tuple[str, ...]]:
    from antike2.position import EXPECT_KEYS, POSITION_KEYS

    return {"position": POSITION_KEYS, "expect": EXPECT_KEYS}


@hookimpl
def mn_scenario_schema(schema: Any, section: str, data: dict[str, Any],
                       at: tuple[str | int, ...]) -> None:
    from antike2.position import check_scenario

    check_scenario(schema, section, data, at)


@hookimpl
def mn_set_position(game: Game, position: dict[str, Any], at: Any) -> bool:
    from antike2.position import set_position

    set_position(game, position, at)
    return True


@hookimpl
def mn_expect(game: Game, key: str, want: Any) -> list[str] | None:
    from antike2.position import expect

    return expect(game, key, want)


@hookimpl
def mn_blunders(game: Any, player: str, kind: str, choice: Any, events: list[Any],
                notes: dict[str, Any], say: Any) -> list[tuple[str, str]]:
    """The blunder checks of :mod:`.blunders` (``mnrules bots check``)."""
    from antike2.blunders import check

    return check(game, player, kind, choice, events, notes, say)
