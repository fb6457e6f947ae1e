"""Editing a position piece by piece, for tests and scenario files.

Every edit moves a component between the box (supply, an empire's pieces) and the
board or a screen, so the box is always conserved; an edit the box cannot supply is
refused. Nothing here checks the rules: a scenario may set up any position.
"""

from __future__ import annotations

from typing import Any

from mare_nostrum.conquest import forget_conquests, record_conquest
from mare_nostrum.state import LEGENDARY, Game, base_good
from mnrules.errors import StateError
from mnrules.tools.scenario import start_phase as start_phase  # the kernel's, for tests' imports
from mnrules.tools.scenario import sub


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


def set_display(game: Game, tiles: list[str]) -> None:
    """Exactly these heroes and wonders face up in the display; every other tile not held
    by a player lies face down."""
    _edited(game)
    state = game.state
    held = {t: p for p in state.players for t in state.tiles[p]}
    for tile in tiles:
        if tile not in game.rules.cards:
            raise StateError(f"no card {tile!r} in this rule set")
        if tile in held:
            raise StateError(f"{held[tile]} holds {tile!r}")
    pool = [t for t in (*state.display, *state.display_hidden) if t not in tiles]
    state.display = sorted(tiles)
    state.display_hidden = pool


# -- scenario files: the game's keys of ``position:`` and ``expect:`` ----------------------
POSITION_KEYS = ("clear", "titles", "control", "buildings", "units", "resources", "tiles",
                 "occupied", "marker_occupied", "conquest", "display")
EXPECT_KEYS = ("control", "units", "resources", "buildings", "tracks", "titles", "supply",
               "tiles", "occupied", "marker_occupied", "conquest", "display")


def _occupiers(schema: Any, value: Any, at: tuple[str | int, ...], allow_null: bool) -> None:
    """``{PROVINCE: {slot: player}}``: a slot is a spec or a slot number (0 first, as the
    choices number them); a spec several built slots share may take a list, in order."""
    for prov, slots in schema.mapping(value, at).items():
        for slot, who in schema.mapping(slots, (*at, prov)).items():
            where = (*at, prov, slot)
            if isinstance(slot, bool) or not isinstance(slot, str | int):
                raise schema.fail(where, "expected a slot's spec or number")
            if isinstance(who, list) and isinstance(slot, str):
                for i, w in enumerate(who):
                    schema.text(w, (*where, i), allow_null)
            else:
                schema.text(who, where, allow_null)


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
        _occupiers(schema, p.get("occupied"), (*at, "occupied"), allow_null=False)
        schema.name_map(p.get("marker_occupied"), (*at, "marker_occupied"))
        for prov, info in schema.mapping(p.get("conquest"), (*at, "conquest")).items():
            _conquest(schema, info, (*at, "conquest", prov), allow_null=False)
        schema.names(p.get("display"), (*at, "display"))
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
    _occupiers(schema, e.get("occupied"), (*at, "occupied"), allow_null=True)
    schema.name_map(e.get("marker_occupied"), (*at, "marker_occupied"), allow_null=True)
    for prov, info in schema.mapping(e.get("conquest"), (*at, "conquest")).items():
        _conquest(schema, info, (*at, "conquest", prov), allow_null=True)
    schema.names(e.get("display"), (*at, "display"))


def _conquest(schema: Any, info: Any, at: tuple[str | int, ...], allow_null: bool) -> None:
    """A conquest's status: ``{player: rome, round: 2, marker_round: 2}`` (an expectation
    names only what it checks; null: no conquest under way)."""
    if info is None and allow_null:
        return
    values = schema.mapping(info, at, allow_null=False)
    from mnrules.tools.scenario import _check_keys

    _check_keys(schema.src, values, ("player", "round", "marker_round"), at)
    if "player" in values:
        schema.text(values["player"], (*at, "player"))
    elif not allow_null:
        raise schema.fail(at, "a conquest names its player (the conqueror)")
    for key in ("round", "marker_round"):
        if key in values:
            schema.whole(values[key], (*at, key), 0, 10_000)


def _slots_named(game: Game, province: str, slot: str | int) -> list[int]:
    """The built slots a scenario's ``slot`` (a spec, or a slot number) stands for."""
    _province(game, province)
    slots = game.rules.board.provinces[province].slots
    if isinstance(slot, int):
        if not 0 <= slot < len(slots):
            raise StateError(f"{province} has no slot {slot} (its slots: 0 to "
                             f"{len(slots) - 1})")
        return [slot]
    return [i for i, s in enumerate(slots) if (s.spec == slot or s.kind == slot)
            and game.state.built[province][i]]


def _occupy(game: Game, province: str, slot: str | int, who: Any) -> None:
    state = game.state
    players = who if isinstance(who, list) else [who]
    for w in players:
        if str(w) not in state.players:
            raise StateError(f"{w!r} does not play")
    found = _slots_named(game, province, slot)
    if isinstance(slot, int) and not state.built[province][slot]:
        raise StateError(f"{province}'s slot {slot} is not built")
    free = [i for i in found if state.occupied[province][i] is None]
    if isinstance(who, list):
        if len(who) > len(found):
            raise StateError(f"{province} has {len(found)} built slot(s) {slot!r}, "
                             f"not {len(who)}")
        targets = found
    else:
        targets = found if isinstance(slot, int) else free
        if not targets:
            raise StateError(f"{province} has no {'' if found else 'built '}slot {slot!r}"
                             + (" left unoccupied" if found else ""))
    for i, w in zip(targets, players, strict=False):
        state.occupied[province][i] = str(w)


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
            if tiles is not None and not tiles:    # []: none, not even his starting hero
                _player(game, str(who))
                _edited(game)
                state.tiles[str(who)].clear()
            give_tiles(game, str(who), *[str(t) for t in tiles or ()])
    if "display" in p:
        with at("display"):
            set_display(game, [str(t) for t in p.get("display") or ()])
    for track, who in (p.get("titles") or {}).items():
        with at("titles", track):
            if str(who) not in state.players:
                raise StateError(f"{who!r} does not play")
            state.titles[str(track)] = str(who)
    for prov, slots in (p.get("occupied") or {}).items():
        for slot, who in (slots or {}).items():
            with at("occupied", prov, slot):
                _occupy(game, str(prov), slot, who)
    for prov, who in (p.get("marker_occupied") or {}).items():
        with at("marker_occupied", prov):
            if str(prov) not in state.control:
                raise StateError(f"{prov!r} is not a province in play")
            if str(who) not in state.players:
                raise StateError(f"{who!r} does not play")
            state.marker_occupier[str(prov)] = str(who)
            record_conquest(state, str(prov), str(who), state.round - 1, state.round - 1)
    for prov, info in (p.get("conquest") or {}).items():
        with at("conquest", prov):
            _province(game, str(prov))
            if str(info["player"]) not in state.players:
                raise StateError(f"{info['player']!r} does not play")
            record_conquest(state, str(prov), str(info["player"]),
                            int(info.get("round", state.round - 1)),
                            info.get("marker_round"))


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
        _expect_occupied(game, want, failures)
    elif key == "marker_occupied":
        for prov, who in want.items():
            if prov not in state.control:
                failures.append(f"marker_occupied.{prov}: not a province in play")
                continue
            sub(who, state.marker_occupier.get(prov), f"marker_occupied.{prov}", failures)
    elif key == "conquest":
        from mare_nostrum.conquest import status

        under_way = status(state)
        for prov, info in want.items():
            now = under_way.get(prov)
            if info is None or now is None:
                if info != now:
                    failures.append(f"conquest.{prov}: expected {info or 'none'}, got "
                                    f"{now or 'none'}")
                continue
            sub(info, now, f"conquest.{prov}", failures)
    elif key == "display":
        if sorted(want) != sorted(state.display):
            failures.append(f"display: expected {sorted(want)} face up, got "
                            f"{sorted(state.display)}")
    elif key == "tracks":
        sub(want, game.report(), "tracks", failures)
    elif key in ("titles", "supply", "tiles"):
        sub(want, getattr(state, key), key, failures)
    else:
        return None
    return failures


def _expect_occupied(game: Game, want: dict[str, Any], failures: list[str]) -> None:
    state = game.state
    for prov, slots in want.items():
        if prov not in state.occupied:
            failures.append(f"occupied.{prov}: not a province in play")
            continue
        for slot, who in (slots or {}).items():
            path = f"occupied.{prov}.{slot}"
            try:
                found = _slots_named(game, prov, slot)
            except StateError as exc:
                failures.append(f"{path}: {exc}")
                continue
            got = [state.occupied[prov][i] for i in found]
            if isinstance(who, list):
                sub(who, got, path, failures)
            elif len(got) > 1:
                failures.append(f"{path}: {len(got)} built slots are {slot!r}: give a list "
                                f"(in the board's order, null for a free one) or slot numbers; "
                                f"they hold {got}")
            elif not got:
                if who is not None:
                    failures.append(f"{path}: expected {who}, but no such slot is built")
            else:
                sub(who, got[0], path, failures)
