"""Setup for 3, 4 and 5 players, and 6 on a board that declares a sixth empire (FR "Mise
en place"; NL/PL/UK setup steps 1–5).

Each empire's pieces go on its three starting provinces as its screen shows; its nine
starting resources are what those pieces produce (they *are* round 1's Collect phase,
which is therefore skipped). Titles and the hero/wonder display follow the board file
and the pack's parameters.
"""

from __future__ import annotations

from typing import Any

from mare_nostrum.board import BoardError
from mare_nostrum.box_data import creature_kinds
from mare_nostrum.production import building_income
from mare_nostrum.state import Game, State
from mare_nostrum.supply import take, take_building
from mare_nostrum.tracks import counted
from mnrules.core.engine import Param
from mnrules.core.start import new_game
from mnrules.hooks.contract import Declaration, Part
from mnrules.hooks.hookspecs import hookimpl


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("hw_display", "five_face_up",
              "how the heroes and wonders are laid out at setup (D10)",
              (Param.Option("five_face_up", "hw_display_size random tiles face up, the "
                            "rest face down (first games)",
                            "NL/PL/UK setup 5; FR setup 5 'pour une première partie'"),
               Param.Option("all_face_up", "every tile face up (experienced players)",
                            "FR setup 5; NL/PL/UK setup 5 as a variant"))),
        Param("hw_display_size", 5, "face-up tiles in the five_face_up display",
              minimum=1, maximum=99),
        Param("starting_resources", 9, "resources each empire's starting pieces produce",
              minimum=0, maximum=99),
    ]


def _tiles(game: Game, kinds: tuple[str, ...]) -> list[str]:
    return sorted(c.id for c in game.rules.cards.values() if c.kind in kinds)


def fill_box(rules: Any, state: State) -> None:
    """Put every component of the pack's box in the supply or the empires' boxes."""
    comp = rules.components
    state.supply = {"coin": int(comp.get("coins", 0))}
    for good, n in (comp.get("goods") or {}).items():
        state.supply[str(good)] = int(n)
    for kind, n in (comp.get("buildings") or {}).items():
        state.supply[str(kind)] = int(n)
    pieces = {str(k): int(v) for k, v in (comp.get("pieces") or {}).items()}
    for kind, spec in creature_kinds(comp).items():   # a pack's own unit kinds
        pieces[str(kind)] = int(spec["count"])
    state.pieces = {p: dict(pieces) for p in state.players}
    state.screens = {p: {} for p in state.players}
    state.tiles = {p: [] for p in state.players}


@hookimpl
def mn_setup(game: Game) -> None:
    state = game.state
    fill_box(game.rules, state)
    board = game.rules.board
    n = len(state.players)
    # Every visible province is in play; covered ones are simply absent from the state.
    for prov in board.provinces_in_play(n):
        slots = board.provinces[prov].slots
        state.control[prov] = None
        state.built[prov] = [False] * len(slots)
        state.occupied[prov] = [None] * len(slots)
    for player in state.players:
        emp = board.empires[player]
        for prov in emp.provinces:
            state.control[prov] = player
            if prov != emp.capital:  # the capital's marker is printed on the board
                state.pieces[player]["marker"] -= 1
        for prov, indices in emp.buildings.items():
            for i in indices:
                state.built[prov][i] = True
                take_building(state, board.provinces[prov].slots[i].kind)
        for prov, k in emp.legions.items():
            state.add_units(prov, player, "legion", k)
            state.pieces[player]["legion"] -= k
        for prov in emp.fortresses:
            state.add_units(prov, player, "fortress")
            state.pieces[player]["fortress"] -= 1
        for sea, k in emp.triremes.items():
            state.add_units(sea, player, "trireme", k)
            state.pieces[player]["trireme"] -= k
        state.tiles[player] = [emp.starting_hero]
    goods = list((game.rules.components.get("goods") or {}).keys())
    state.legendary_pile = list(goods)
    game.rng.shuffle(state.legendary_pile)
    for player in state.players:
        for key, k in building_income(game, player):
            # The temple beside a legendary city: no starting empire has one; take a coin.
            take(game, player, key.split("|")[0], k)
    for track in ("trade", "culture", "military"):
        state.titles[track] = board.start_title(track, n)
    pool = _tiles(game, ("hero", "wonder"))
    game.rng.shuffle(pool)
    if game.param("hw_display") == "all_face_up":
        state.display = sorted(pool)
        state.display_hidden = []
    else:
        size = game.param("hw_display_size")
        state.display, state.display_hidden = sorted(pool[:size]), pool[size:]
    state.display.extend(_tiles(game, ("special wonder",)))


@hookimpl
def mn_check_board(rules: Any) -> list[str]:
    """Each empire's start must produce the starting resources and the books' track values.

    These are the printed board's figures: a pack that patches the board's data (a
    variant such as "Rome starts without its market") departs from them on purpose, and
    its board gets every structural check but this one, except for an empire the patch
    declares whole (a sixth empire, docs/board.md): the books' setup step 3 ("take the 9
    resources shown") holds for it too, and its problems point at the patch's lines."""
    problems: list[str] = []
    board = rules.board
    steps = rules.source.patches.get("board") if rules.source is not None else None
    new = {str(s.path[1]) for s in steps or () if s.verb == "set" and len(s.path) == 2
           and s.path[0] == "empires"}
    if steps and not new:
        return problems
    located: list[Any] = []
    biggest = max(board.players)
    game = new_game(rules, biggest, seed=0)
    want = game.param("starting_resources")
    levels = counted(game)
    for player in game.state.players:
        if steps and player not in new:
            continue
        got = game.state.held(player)
        if got != want:
            problems.append(f"empires.{player}: the starting pieces produce {got} resources, "
                            f"not {want}")
            located.append(board.problem(("empires", player, "buildings"), problems[-1]
                                         .split(": ", 1)[1]))
        for track, value in board.empires[player].tracks.items():
            if levels[player].get(track) != value:
                problems.append(f"empires.{player}.tracks.{track}: the pieces count "
                                f"{levels[player].get(track)}, the rulebook says {value}")
                located.append(board.problem(("empires", player, "tracks", track),
                                             f"the pieces count {levels[player].get(track)}"
                                             f", not the {value} the empire declares"))
    if steps and located:
        raise BoardError(located)
    return problems


@hookimpl
def mn_contract() -> list[Declaration]:
    """What this plugin is for: it folds, performs and asks nothing."""
    return [Part("setup", "", "The starting position: each empire's pieces, buildings, "
                 "resources and tiles, the titles, and the heroes and wonders on display.")]
