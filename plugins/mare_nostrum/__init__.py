"""Mare Nostrum: Empires as a game on the mnrules kernel.

This package is the game: its rule plugins (one module per part of the rules; an
edition pack lists the ones it plays with), its state, its board file format, its
board picture, its scenario positions and its bots. The hooks below tell the kernel
what the game is made of; the kernel names none of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mare_nostrum import hookspecs as _hookspecs
from mare_nostrum.board_fit import BoardFit
from mare_nostrum.box import (
    mn_check_state as mn_check_state,  # the box's conservation, a game-wide rule
)
from mare_nostrum.reports import (  # what a player reads, in his language
    mn_board_svg as mn_board_svg,
)
from mare_nostrum.reports import mn_describe as mn_describe
from mare_nostrum.reports import mn_event_text as mn_event_text
from mare_nostrum.reports import mn_option_group as mn_option_group
from mare_nostrum.reports import mn_option_places as mn_option_places
from mare_nostrum.reports import mn_option_text as mn_option_text
from mare_nostrum.reports import mn_prompt_text as mn_prompt_text
from mare_nostrum.reports import mn_round_summary as mn_round_summary
from mare_nostrum.reports import mn_table as mn_table
from mare_nostrum.state import TRACKS, Game, State
from mare_nostrum.tensor import mn_tensor as mn_tensor  # what agents from elsewhere see
from mnrules.bots import Bot
from mnrules.errors import MnrulesError
from mnrules.files import write_atomic
from mnrules.hooks.hookspecs import hookimpl

FORMER_NAMES = ("mnrules.plugins.mare_nostrum", "mnrules.plugins")
"""This package's names in earlier releases (mnrules 0.1: ``mnrules.plugins.mare_nostrum``,
and before the games were two, ``mnrules.plugins.<rule>``): served, deprecated, until
mnrules 0.3 (see :mod:`mnrules._legacy`)."""

HOOKSPECS = _hookspecs
"""The hooks the game's plugins call on each other, added to the bus beside the kernel's."""

CARD_KINDS = ("starting hero", "hero", "wonder", "special wonder")
UNITS = ("legion", "trireme", "fortress")


@hookimpl
def mn_plugins() -> list[object]:
    return [BoardFit()]


@hookimpl
def mn_state_class() -> type[State]:
    return State


@hookimpl
def mn_load_board(path: Path, data: dict[str, Any], where: Callable[..., str]) -> Any:
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


@hookimpl
def mn_seating(rules: Any) -> dict[int, list[str]]:
    return {n: list(empires) for n, empires in rules.board.players.items()}


@hookimpl
def mn_card_schema() -> dict[str, Any]:
    return {"kinds": CARD_KINDS, "bonus_keys": TRACKS}


@hookimpl
def mn_word_sets(rules: Any) -> dict[str, frozenset[str]]:
    goods = frozenset(str(g) for g in ((rules.components.get("goods")) or {}))
    from mare_nostrum.box_data import creature_kinds

    units = frozenset(UNITS) | frozenset(map(str, creature_kinds(rules.components)))
    return {"goods": goods, "units": units, "tracks": frozenset(TRACKS),
            "players": frozenset(rules.board.empires)}


@hookimpl
def mn_check_save(rules: Any, state: State) -> list[str]:
    from mare_nostrum.board import fits

    return fits(rules, state)


@hookimpl
def mn_view(game: Game, player: str, data: dict[str, Any]) -> None:
    data["screens"] = {p: (dict(s) if p == player else {"hidden": sum(s.values())})
                       for p, s in data["screens"].items()}
    data["legendary_pile"] = len(data["legendary_pile"])
    data["display_hidden"] = len(data["display_hidden"])


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


@hookimpl
def mn_bots() -> dict[str, Callable[[int, str], Bot]]:
    return {"heuristic": _heuristic, "search": _search}


@hookimpl
def mn_determinize(game: Game, viewer: str, rng: random.Random) -> None:
    from .bots.common import determinize

    determinize(game, viewer, rng, canonical=True)


@hookimpl
def mn_search_policy(rules: Any, seed: int) -> Any:
    from .bots.policy import MareNostrumPolicy

    return MareNostrumPolicy(seed)


@hookimpl
def mn_render(game: Game, path: Path, say: Any) -> bool:
    from mare_nostrum.render import render_png, render_svg

    if path.suffix.lower() == ".png":
        render_png(game, path=path, say=say)
    else:
        write_atomic(path, render_svg(game, say=say))
    return True


@hookimpl
def mn_scenario_keys() -> dict[str, tuple[str, ...]]:
    from mare_nostrum.position import EXPECT_KEYS, POSITION_KEYS

    return {"position": POSITION_KEYS, "expect": EXPECT_KEYS}


@hookimpl
def mn_scenario_schema(schema: Any, section: str, data: dict[str, Any],
                       at: tuple[str | int, ...]) -> None:
    from mare_nostrum.position import check_scenario

    check_scenario(schema, section, data, at)


@hookimpl
def mn_set_position(game: Game, position: dict[str, Any], at: Any) -> bool:
    from mare_nostrum.position import set_position

    set_position(game, position, at)
    return True


@hookimpl
def mn_expect(game: Game, key: str, want: Any) -> list[str] | None:
    from mare_nostrum.position import expect

    return expect(game, key, want)


@hookimpl
def mn_blunders(game: Game, player: str, kind: str, choice: Any, events: list[Any],
                notes: dict[str, Any], say: Any) -> list[tuple[str, str]]:
    from mare_nostrum.blunders import check

    return check(game, player, kind, choice, notes, say)
