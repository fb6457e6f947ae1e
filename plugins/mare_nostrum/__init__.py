"""Mare Nostrum: Empires as a game on the mnrules kernel.

This package is the game: its rule plugins (one module per part of the rules; an
edition pack lists the ones it plays with), its state, its board file format, its
board picture, its scenario positions and its bots. ``GAME`` below tells the kernel
what the game is made of; the kernel names none of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mare_nostrum import hookspecs as _hookspecs
from mare_nostrum import reports, tensor
from mare_nostrum.board_fit import BoardFit
from mare_nostrum.box import (
    mn_check_state as mn_check_state,  # the box's conservation, a game-wide rule
)
from mare_nostrum.state import TRACKS, Game, State
from mnrules.api import GameDefinition, Presentation, ScenarioSupport, hookimpl
from mnrules.bots import Bot
from mnrules.errors import MnrulesError
from mnrules.files import write_atomic

FORMER_NAMES = ("mnrules.plugins.mare_nostrum", "mnrules.plugins")
"""This package's names in earlier releases (mnrules 0.1: ``mnrules.plugins.mare_nostrum``,
and before the games were two, ``mnrules.plugins.<rule>``): served, deprecated, until
mnrules 0.3 (see :mod:`mnrules._legacy`)."""

CARD_KINDS = ("starting hero", "hero", "wonder", "special wonder")
UNITS = ("legion", "trireme", "fortress")


def _load_board(path: Path, data: dict[str, Any], where: Callable[..., str]) -> Any:
    """The board file, as the pack's ``patch: {board: ...}`` changes it (the kernel reads
    and patches it: ``data[PATCHED]["board"]``), its empires named as the pack names them."""
    from mare_nostrum.board import load_board, with_names
    from mare_nostrum.box_data import check_components
    from mnrules.content.packs import PATCHED, name_kinds

    components = data.get("components") or {}
    check_components(components, lambda *key: where("components", *map(str, key)))
    board = load_board(path, list(components["goods"]),
                       source=(data.get(PATCHED) or {}).get("board"))
    return with_names(board, name_kinds(data.get("names") or {}).get("empires", {}))


@hookimpl
def mn_check_pack(rules: Any, source: Any) -> None:
    from mare_nostrum.board_fit import check_pack

    check_pack(rules, source)


def _seating(rules: Any) -> dict[int, list[str]]:
    return {n: list(empires) for n, empires in rules.board.players.items()}


@hookimpl
def mn_word_sets(rules: Any) -> dict[str, frozenset[str]]:
    goods = frozenset(str(g) for g in ((rules.components.get("goods")) or {}))
    from mare_nostrum.box_data import creature_kinds

    units = frozenset(UNITS) | frozenset(map(str, creature_kinds(rules.components)))
    return {"goods": goods, "units": units, "tracks": frozenset(TRACKS),
            "players": frozenset(rules.board.empires)}


def _check_save(rules: Any, state: State) -> list[str]:
    from mare_nostrum.board import fits

    return fits(rules, state)


def _heuristic(seed: int, arg: str) -> Bot:
    from .bots.heuristic import HeuristicBot
    from .bots.profiles import profile

    return HeuristicBot(seed, profile(arg))


def _search(seed: int, arg: str) -> Bot:
    from .bots.search import MAX_ITERATIONS, SearchBot

    if not arg:
        return SearchBot(seed)
    if arg.isdigit() and int(arg) > 0:
        if int(arg) > MAX_ITERATIONS:   # a budget no game would see the end of
            raise MnrulesError(f"--bots: search:{arg}: at most {MAX_ITERATIONS:,} search "
                               f"iterations a decision (search:200 is already slow)")
        return SearchBot(seed, iterations=int(arg))
    raise MnrulesError(f"--bots: search:{arg}: give the search iterations as a positive "
                       f"number, e.g. search:200")


def _determinize(game: Game, viewer: str, rng: random.Random) -> None:
    from .bots.common import determinize

    determinize(game, viewer, rng, canonical=True)


def _search_policy(rules: Any, seed: int) -> Any:
    from .bots.policy import MareNostrumPolicy

    return MareNostrumPolicy(seed)


def _render(game: Game, path: Path, say: Any) -> bool:
    from mare_nostrum.render import render_png, render_svg

    if path.suffix.lower() == ".png":
        render_png(game, path=path, say=say)
    else:
        write_atomic(path, render_svg(game, say=say))
    return True


def _scenario_keys() -> dict[str, tuple[str, ...]]:
    from mare_nostrum.position import EXPECT_KEYS, POSITION_KEYS

    return {"position": POSITION_KEYS, "expect": EXPECT_KEYS}


def _check_scenario(schema: Any, section: str, data: dict[str, Any],
                    at: tuple[str | int, ...]) -> None:
    from mare_nostrum.position import check_scenario

    check_scenario(schema, section, data, at)


def _set_position(game: Game, position: dict[str, Any], at: Any) -> bool:
    from mare_nostrum.position import set_position

    set_position(game, position, at)
    return True


def _expect(game: Game, key: str, want: Any) -> list[str] | None:
    from mare_nostrum.position import expect

    return expect(game, key, want)


def _blunders(game: Game, player: str, kind: str, choice: Any, events: list[Any],
              notes: dict[str, Any], say: Any) -> list[tuple[str, str]]:
    from mare_nostrum.blunders import check

    return check(game, player, kind, choice, notes, say)


def _board_areas(rules: Any, players: int) -> list[tuple[str, int | None, str, str]]:
    board = rules.board
    if board is None:
        return []
    return [*((p.name, p.min_players, p.provenance, p.note)
              for p in board.provinces.values() if p.min_players <= players),
            *((name, None, sea.provenance, getattr(sea, "note", ""))
              for name, sea in board.seas.items())]


GAME = GameDefinition(
    name="mare_nostrum",
    state=State,
    seating=_seating,
    hookspecs=_hookspecs,   # the hooks the game's plugins call on each other
    plugins=(BoardFit(),),  # the board's checks, in an order of their own
    load_board=_load_board,
    card_schema={"kinds": CARD_KINDS, "bonus_keys": TRACKS},
    check_save=_check_save,
    bots={"heuristic": _heuristic, "search": _search},
    determinize=_determinize,
    tensor=tensor.tensor,   # what agents from elsewhere see
    search_policy=_search_policy,
    blunders=_blunders,
    board_areas=_board_areas,
    render=_render,
    presentation=Presentation(   # what a player reads, in his language
        event_text=reports.event_text, prompt_text=reports.prompt_text,
        option_text=reports.option_text, option_group=reports.option_group,
        option_places=reports.option_places, table=reports.table,
        board_svg=reports.board_svg, round_summary=reports.round_summary,
        describe=reports.describe),
    scenario=ScenarioSupport(keys=_scenario_keys(), schema=_check_scenario,
                             set_position=_set_position, expect=_expect),
)
"""Mare Nostrum: Empires, as the kernel reads it."""
