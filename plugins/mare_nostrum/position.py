"""Editing a position piece by piece, for tests and scenario files.

Every edit moves a component between the box (supply, an empire's pieces) and the
board or a screen, so the box is always conserved; an edit the box cannot supply is
refused. Nothing here checks the rules: a scenario may set up any position.
"""

from __future__ import annotations

from typing import Any

from mnrules.errors import StateError
from mnrules.plugins.mare_nostrum.conquest import forget_conquests, record_conquest
from mnrules.plugins.mare_nostrum.state import LEGENDARY, Game, base_good
from mnrules.scenario import start_phase as start_phase  # the kernel's, for tests' imports
from mnrules.scenario import sub


def _edited(game: Game) -> None:
    """A position edit invalidates the decision the game had worked out."""
    game._pending = None


def _player(game: Game, player: str) -> None:
    if player not in game.state.players:
        raise StateError(f"{player!r} does not play (players: "
                         f"{', '.join(game.state.players)})")


def _count(n: int, low: int = 1) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < low:
        raise StateError(f"expected a whole number of at least {low}, not {n!r}")


def _province(game: Game, province: str) -> None:
    if province not in game.state.control:
        raise StateError(f"{province!r} is not a province in play")


def _take_supply(game: Game, key: str, n: int = 1) -> None:
    if game.state.supply.get(key, 0) < n:
        raise StateError(f"the supply has fewer than {n} {key}")
    game.state.supply[key] -= n


def _take_piece(game: Game, player: str, kind: str, n: int = 1) -> None:
    pieces = game.state.pieces[player]
    if pieces.get(kind, 0) < n:
        raise StateError(f"{player} has fewer than {n} {kind} left in his box")
    pieces[kind] -= n


def _capitals(game: Game) -> set[str]:
    return {e.capital for e in game.rules.board.empires.values()}


def clear(game: Game) -> None:
    """An empty board: every unit, marker, building and resource back in the box."""
    _edited(game)
    state = game.state
    for area in list(state.units):
        for player in list(state.units[area]):
            for kind, n in list(state.units[area][player].items()):
                state.remove_units(area, player, kind, n)
                state.pieces[player][kind] += n
    for prov in state.control:
        set_marker(game, prov, None)
        for i, b in enumerate(state.built[prov]):
            if b:
                unbuild(game, prov, i)
    state.marker_occupier.clear()
    for player in state.players:
        clear_screen(game, player)
    forget_conquests(state)


def clear_screen(game: Game, player: str) -> None:
    state = game.state
    for key, n in list(state.screens[player].items()):
        state.spend(player, key, n)
        if key.startswith(LEGENDARY):
            state.legendary_pile.extend([key[len(LEGENDARY):]] * n)
        else:
            state.supply[key] = state.supply.get(key, 0) + n


def give(game: Game, player: str, resources: dict[str, int]) -> None:
    """Resources from the supply (or the legendary pile) onto ``player``'s screen."""
    _edited(game)
    _player(game, player)
    state = game.state
    goods = {str(g) for g in (game.rules.components.get("goods") or {})}
    for key, n in resources.items():
        _count(n, 0)
        if base_good(key) not in goods and key != "coin":
            raise StateError(f"no resource {key!r} in this box")
        if key.startswith(LEGENDARY):
            good = key[len(LEGENDARY):]
            for _ in range(n):
                if good not in state.legendary_pile:
                    raise StateError(f"the legendary pile has no {good}")
                state.legendary_pile.remove(good)
        else:
            _take_supply(game, key, n)
        state.gain(player, key, n)


def set_marker(game: Game, province: str, player: str | None) -> None:
    """Put ``player``'s marker on ``province`` (None: neutral). Capitals' are printed."""
    _edited(game)
    state = game.state
    _province(game, province)
    if player is not None:
        _player(game, player)
    printed = province in _capitals(game)
    old = state.control[province]
    if old is not None and not printed:
        state.pieces[old]["marker"] += 1
    if player is not None and not printed:
        _take_piece(game, player, "marker")
    state.control[province] = player


def slot_index(game: Game, province: str, spec: str, free: bool = True) -> int:
    _province(game, province)
    slots = game.rules.board.provinces[province].slots
    for i, slot in enumerate(slots):
        if (slot.spec == spec or slot.kind == spec) and (
                not free or not game.state.built[province][i]):
            return i
    raise StateError(f"{province} has no {'free ' if free else ''}slot {spec!r}")


def build(game: Game, province: str, spec: str) -> int:
    """Build on the first free slot matching ``spec`` ("caravan:papyrus", "city", ...)."""
    _edited(game)
    i = slot_index(game, province, spec)
    kind = game.rules.board.provinces[province].slots[i].kind
    _take_supply(game, kind)
    game.state.built[province][i] = True
    return i


def unbuild(game: Game, province: str, i: int) -> None:
    state = game.state
    kind = game.rules.board.provinces[province].slots[i].kind
    state.built[province][i] = False
    state.occupied[province][i] = None
    state.supply[kind] = state.supply.get(kind, 0) + 1


def add_units(game: Game, player: str, area: str, kind: str, n: int = 1) -> None:
    _edited(game)
    _player(game, player)
    _count(n)
    if area not in game.state.control and area not in game.rules.board.seas:
        raise StateError(f"{area!r} is not a province in play nor a sea")
    if kind not in game.state.pieces[player]:
        raise StateError(f"no {kind!r} among an empire's pieces "
                         f"({', '.join(game.state.pieces[player])})")
    _take_piece(game, player, kind, n)
    game.state.add_units(area, player, kind, n)


def give_tiles(game: Game, player: str, *tiles: str) -> None:
    """Hand ``player`` these heroes or wonders, from the display or the face-down stack."""
    _edited(game)
    _player(game, player)
    state = game.state
    for tile in tiles:
        if tile not in game.rules.cards:
            raise StateError(f"no card {tile!r} in this rule set")
        for other in state.players:
            if other != player and tile in state.tiles[other]:
                raise StateError(f"{other} holds {tile!r}")
        for pile in (state.display, state.display_hidden):
            if tile in pile:
                pile.remove(tile)
        if tile not in state.tiles[player]:
            state.tiles[player].append(tile)


def face_up(game: Game, *tiles: str) -> None:
    """Turn these face-down tiles face up in the display."""
    _edited(game)
    state = game.state
    for tile in tiles:
        if tile in state.display_hidden:
            state.display_hidden.remove(tile)
            state.display.append(tile)
    state.display.sort()


# -- scenario files: the game's keys of ``position:`` and ``expect:`` ----------------------
POSITION_KEYS = ("clear", "titles", "control", "buildings", "units", "resources", "tiles",
                 "occupied", "marker_occupied")
EXPECT_KEYS = ("control", "units", "resources", "buildings", "tracks", "titles", "supply",
               "tiles", "occupied")


def check_scenario(schema: Any, section: str, data: dict[str, Any],
                   at: tuple[str | int, ...]) -> None:
    """The kind of value each of the game's scenario keys holds (docs/scenarios.md)."""
    if section == "position":
        p = data
        if "clear" in p and not isinstance(p["clear"], bool):
            raise schema.fail((*at, "clear"), f"expected true or false, got {p['clear']!r}")
        schema.name_map(p.get("titles"), (*at, "titles"))
        schema.name_map(p.get("control"), (*at, "control"), allow_null=True)
        for prov, specs in schema.mapping(p.get("buildings"), (*at, "buildings")).items():
            schema.names(specs, (*at, "buildings", prov))
        for area, owners in schema.mapping(p.get("units"), (*at, "units")).items():
            for who, kinds in schema.mapping(owners, (*at, "units", area)).items():
                schema.counts(kinds, (*at, "units", area, who), 1)
        for who, res in schema.mapping(p.get("resources"), (*at, "resources")).items():
            schema.counts(res, (*at, "resources", who), 0)
        for who, tiles in schema.mapping(p.get("tiles"), (*at, "tiles")).items():
            schema.names(tiles, (*at, "tiles", who))
        for prov, slots in schema.mapping(p.get("occupied"), (*at, "occupied")).items():
            schema.name_map(slots, (*at, "occupied", prov))
        schema.name_map(p.get("marker_occupied"), (*at, "marker_occupied"))
        return
    e = data
    schema.name_map(e.get("control"), (*at, "control"), allow_null=True)
    for area, owners in schema.mapping(e.get("units"), (*at, "units")).items():
        for who, kinds in schema.mapping(owners, (*at, "units", area)).items():
            schema.counts(kinds, (*at, "units", area, who), 0, allow_null=True)
    for who, res in schema.mapping(e.get("resources"), (*at, "resources")).items():
        schema.counts(res, (*at, "resources", who), 0, allow_null=True)
    for prov, specs in schema.mapping(e.get("buildings"), (*at, "buildings")).items():
        schema.names(specs, (*at, "buildings", prov))
    for who, tracks in schema.mapping(e.get("tracks"), (*at, "tracks")).items():
        schema.mapping(tracks, (*at, "tracks", who))
    schema.name_map(e.get("titles"), (*at, "titles"), allow_null=True)
    schema.counts(e.get("supply"), (*at, "supply"), 0)
    for who, tiles in schema.mapping(e.get("tiles"), (*at, "tiles")).items():
        schema.names(tiles, (*at, "tiles", who))
    for prov, slots in schema.mapping(e.get("occupied"), (*at, "occupied")).items():
        schema.name_map(slots, (*at, "occupied", prov), allow_null=True)


def set_position(game: Game, p: dict[str, Any], at: Any) -> None:
    """A scenario's board, screens, tiles and titles; ``at(*key)`` is a context naming
    the key (and its line) when an edit is refused."""
    state = game.state
    with at("clear"):
        if p.get("clear", True):
            clear(game)
    for prov, who in (p.get("control") or {}).items():
        with at("control", prov):
            set_marker(game, str(prov), None if who is None else str(who))
    for prov, specs in (p.get("buildings") or {}).items():
        for i, spec in enumerate(specs or ()):
            with at("buildings", prov, i):
                build(game, str(prov), str(spec))
    for area, owners in (p.get("units") or {}).items():
        for who, kinds in (owners or {}).items():
            for kind, n in (kinds or {}).items():
                with at("units", area, who, kind):
                    add_units(game, str(who), str(area), str(kind), n)
    for who, res in (p.get("resources") or {}).items():
        with at("resources", who):
            give(game, str(who), {str(k): v for k, v in (res or {}).items()})
    for who, tiles in (p.get("tiles") or {}).items():
        with at("tiles", who):
            give_tiles(game, str(who), *[str(t) for t in tiles or ()])
    for track, who in (p.get("titles") or {}).items():
        with at("titles", track):
            if str(who) not in state.players:
                raise StateError(f"{who!r} does not play")
            state.titles[str(track)] = str(who)
    for prov, slots in (p.get("occupied") or {}).items():
        for spec, who in (slots or {}).items():
            with at("occupied", prov, spec):
                if str(who) not in state.players:
                    raise StateError(f"{who!r} does not play")
                i = slot_index(game, str(prov), str(spec), free=False)
                state.occupied[str(prov)][i] = str(who)
    for prov, who in (p.get("marker_occupied") or {}).items():
        with at("marker_occupied", prov):
            if str(prov) not in state.control:
                raise StateError(f"{prov!r} is not a province in play")
            if str(who) not in state.players:
                raise StateError(f"{who!r} does not play")
            state.marker_occupier[str(prov)] = str(who)
            record_conquest(state, str(prov), str(who), state.round - 1, state.round - 1)


def expect(game: Game, key: str, want: Any) -> list[str] | None:
    """The failures of one of the game's expectations, or None if ``key`` is not one."""
    state = game.state
    failures: list[str] = []
    if key == "control":
        sub(want, state.control, "control", failures)
    elif key == "units":
        actual = {a: {p: dict(k) for p, k in who.items()} for a, who in state.units.items()}
        for area, owners in want.items():
            for who, kinds in (owners or {}).items():
                got = actual.get(area, {}).get(who, {})
                sub(kinds or {}, got, f"units.{area}.{who}", failures)
                if not kinds and got:
                    failures.append(f"units.{area}.{who}: expected none, got {got}")
    elif key == "resources":
        for who, res in want.items():
            if who not in state.screens:
                failures.append(f"resources.{who}: {who!r} does not play")
                continue
            screen = state.screens[who]
            if res == {} or res is None:
                if screen:
                    failures.append(f"resources.{who}: expected none, got {screen}")
                continue
            sub(res, screen, f"resources.{who}", failures)
    elif key == "buildings":
        for prov, specs in want.items():
            if prov not in state.built:
                failures.append(f"buildings.{prov}: not a province in play")
                continue
            slots = game.rules.board.provinces[prov].slots
            built = sorted(slots[i].spec for i, b in enumerate(state.built[prov]) if b)
            if sorted(specs) != built:
                failures.append(f"buildings.{prov}: expected {sorted(specs)}, got {built}")
    elif key == "occupied":
        for prov, slots in want.items():
            if prov not in state.occupied:
                failures.append(f"occupied.{prov}: not a province in play")
                continue
            occ: dict[str, str] = {game.rules.board.provinces[prov].slots[i].spec: who
                                   for i, who in enumerate(state.occupied[prov]) if who}
            sub(slots, occ, f"occupied.{prov}", failures)
    elif key == "tracks":
        sub(want, game.report(), "tracks", failures)
    elif key in ("titles", "supply", "tiles"):
        sub(want, getattr(state, key), key, failures)
    else:
        return None
    return failures
