"""Antike II (Mac Gerdts) as a game on the mnrules kernel: the second game (issue 12).

This package is the game: its rule plugins (one module per part of the rules: the
rondel, production, militia, templum, scientia, founding, personages, victory, Bellona,
trade; movere and conquest for war), its state, its board file format (``board.py``),
its scenario positions and its reports. ``GAME`` below tells the kernel what the game is
made of; the kernel names none of it. The Russian rulebook (seed 002) is the authority;
the packs (``editions/antike2/``) quote it where a reading was chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from antike2 import hookspecs as _hookspecs
from antike2 import present, render, reports, tensor
from antike2.bots import bots
from antike2.bots.policy import search_policy
from antike2.reports import mn_report as mn_report  # each nation's figures
from antike2.state import RESOURCES, UNITS, Game, State
from antike2.supply import (
    mn_check_state as mn_check_state,  # the box's limits, a game-wide rule
)
from mnrules.api import GameDefinition, Presentation, ScenarioSupport, hookimpl

FORMER_NAMES = ("mnrules.plugins.antike2",)
"""This package's name in mnrules 0.1: served, deprecated, until mnrules 0.3 (see
:mod:`mnrules._legacy`)."""

CARD_KINDS = ("know-how", "personage", "bellona")


def _load_board(path: Path, data: dict[str, Any], where: Callable[..., str]) -> Any:
    """The board side the pack names (``board:``), as ``board.py`` reads and checks it."""
    from antike2.board import from_pack

    return from_pack(path, data, where)


@hookimpl
def mn_check_pack(rules: Any, source: Any) -> None:
    from antike2.supply import check_components

    check_components(rules.data.get("components"), source.where,
                     [c for c, card in rules.cards.items() if card.kind == "personage"])


def _seating(rules: Any) -> dict[int, list[str]]:
    """Each player count the board seats: its nations, in the board's order (setup then
    rotates them so that a start player drawn at random plays first)."""
    board = rules.board
    return {n: [nation for nation in board.nations if nation in board.start(n)]
            for n in board.player_counts}


@hookimpl
def mn_word_sets(rules: Any) -> dict[str, frozenset[str]]:
    # '{name}' of 'the action is {name}': the rondel's actions, as the pack orders them
    rondel = rules.params.get("rondel") if isinstance(rules.params, dict) else None
    return {"goods": frozenset(RESOURCES), "units": frozenset(UNITS),
            "tracks": frozenset(), "players": frozenset(rules.board.nations),
            "action": frozenset(str(a) for a in rondel or ())}


def _check_save(rules: Any, state: State) -> list[str]:
    from antike2.api import fits

    return fits(rules, state)


def _check_scenario(schema: Any, section: str, data: dict[str, Any],
                    at: tuple[str | int, ...]) -> None:
    from antike2.position import check_scenario

    check_scenario(schema, section, data, at)


def _set_position(game: Game, position: dict[str, Any], at: Any) -> bool:
    from antike2.position import set_position

    set_position(game, position, at)
    return True


def _expect(game: Game, key: str, want: Any) -> list[str] | None:
    from antike2.position import expect

    return expect(game, key, want)


def _blunders(game: Any, player: str, kind: str, choice: Any, events: list[Any],
              notes: dict[str, Any], say: Any) -> list[tuple[str, str, str, int]]:
    """The blunder checks of :mod:`.blunders` (``mnrules bots check``)."""
    from antike2.blunders import check

    return check(game, player, kind, choice, events, notes, say)


def _scenario_keys() -> dict[str, tuple[str, ...]]:
    from antike2.position import EXPECT_KEYS, POSITION_KEYS

    return {"position": POSITION_KEYS, "expect": EXPECT_KEYS}


def _board_areas(rules: Any, players: int) -> list[tuple[str, int | None, str, str]]:
    board = rules.board
    if board is None:
        return []
    return [(a.name, None, a.provenance, a.note)
            for a in (*board.regions.values(), *board.seas.values())]


GAME = GameDefinition(
    name="antike2",
    state=State,
    seating=_seating,
    hookspecs=_hookspecs,   # the hooks the game's plugins call on each other
    load_board=_load_board,
    # no leadership bonuses, fixed costs or copying: those are Mare Nostrum's
    card_schema={"kinds": CARD_KINDS, "bonus_keys": (),
                 "keys": ("id", "kind", "phase", "names", "text", "effects", "variants")},
    check_save=_check_save,
    # nothing is hidden in Antike II (stocks, know-how and personages lie open, and no
    # die is thrown): no view and no determinize
    bots=bots(),
    tensor=tensor.tensor,                # what agents from elsewhere see
    search_policy=search_policy,         # what the search player knows
    blunders=_blunders,
    board_areas=_board_areas,
    render=render.render,                # the board picture
    presentation=Presentation(
        event_text=present.event_text, prompt_text=present.prompt_text,
        option_text=present.option_text, option_places=present.option_places,
        table=present.table, board_svg=render.board_svg,   # the web map
        round_summary=reports.round_summary, describe=reports.describe),
    scenario=ScenarioSupport(keys=_scenario_keys(), schema=_check_scenario,
                             set_position=_set_position, expect=_expect),
)
"""Antike II, as the kernel reads it."""
