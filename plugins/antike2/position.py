"""Scenario positions and expectations of Antike II (docs/scenarios.md): a position
written as the book's pictures show it, piece by piece.

Position keys (all optional):

``clear`` (default true: no city, unit, resource, know-how or personage on the board,
every rondel marker off; the neutral temples as the board has them unless ``neutral``
names them), ``order`` (the nations in order of play, the start player first),
``cities`` (``ROMA: yellow temple``, ``PAPHOS: red iron``: the owner, the resource when
the site does not say it, ``temple``), ``units`` (``yellow: {ROMA: {galley: 1}}``),
``stock`` (``yellow: {iron: 4, coin: 1}``), ``rondel`` (``yellow: ferrum``), ``know_how``
(``red: [regnum, res_publica]``), ``firsts`` (``res_publica: red``; default: the first
nation in order of play that holds it), ``personages`` (``red: [king, general]``),
``destroyed`` (``red: 1``), ``neutral`` (``[ANCONA]``), ``bellona`` (``yellow``).

Expectation keys: the same names, each checked partially (a nation's stock names only
the keys it checks, ``{}`` is an empty stock; a city is ``null`` when there is none),
and ``bank`` (``{coins: 3, temples: 18}``: what is left in the box).
"""

from __future__ import annotations

from typing import Any

from antike2.state import HOLDINGS, RESOURCES, UNITS, Game
from antike2.supply import (
    bank_coins,
    personages_left,
    temples_left,
    tokens_left,
    units_left,
)
from mnrules.errors import StateError
from mnrules.tools.scenario import start_phase as start_phase  # the kernel's, for tests' imports
from mnrules.tools.scenario import sub

POSITION_KEYS = ("clear", "order", "cities", "units", "stock", "rondel", "know_how",
                 "firsts", "personages", "destroyed", "neutral", "bellona")
EXPECT_KEYS = ("cities", "units", "stock", "rondel", "know_how", "firsts", "personages",
               "destroyed", "neutral", "bellona", "bank")


def _edited(game: Game) -> None:
    game._pending = None


def _within_the_box(game: Game, part: str, nation: str = "") -> None:
    """Refuse, at the key being set, a position that takes more than the box holds (the
    pack's ``components``: 10 kings, 12 legions a nation...): a save is refused so when
    it loads, and a scenario must be a position a save could hold. Each part is judged
    by what it alone decides (the temples once both cities and neutral ones are set)."""
    comps = game.rules.components
    if part == "units":
        for kind in UNITS:
            if units_left(game, nation, kind) < 0:
                raise StateError(f"beyond the box: more than {comps[kind]} {kind}s of "
                                 f"{nation} on the board")
    elif part == "cities":
        if nation and tokens_left(game, nation) < 0:
            raise StateError(f"beyond the box: more cities of {nation} than its "
                             f"{comps['city_tokens']} city tokens")
        if not nation and temples_left(game) < 0:
            raise StateError(f"beyond the box: more than {comps['temples']} temples on "
                             f"the board, the neutral ones counted")
    elif part == "stock":
        if any(n < 0 for n in game.state.stock[nation].values()):
            raise StateError("a nation holds no fewer than none of a resource")
        if bank_coins(game) < 0:
            raise StateError(f"beyond the box: the nations hold more than the "
                             f"{comps['coins']} coins of the box")
    elif part == "personages":
        for kind, n in (comps.get("personages") or {}).items():
            if personages_left(game, kind) < 0:
                raise StateError(f"beyond the box: more {kind} personages taken than the "
                                 f"{n} the box holds")


def _nation(game: Game, nation: str) -> None:
    if nation not in game.state.players:
        raise StateError(f"{nation!r} does not play (nations: "
                         f"{', '.join(game.state.players)})")


def _region(game: Game, region: str) -> None:
    if region not in game.rules.board.regions:
        raise StateError(f"{region!r} is no region of the board")


def _area(game: Game, area: str) -> None:
    board = game.rules.board
    if area not in board.regions and area not in board.seas:
        raise StateError(f"{area!r} is no region or sea of the board")


def clear(game: Game) -> None:
    """An empty board: the box holds everything again; the neutral temples stay."""
    _edited(game)
    state = game.state
    state.cities.clear()
    state.units = {p: {} for p in state.players}
    state.stock = {p: {k: 0 for k in HOLDINGS} for p in state.players}
    state.rondel = {p: "" for p in state.players}
    state.know_how = {p: [] for p in state.players}
    state.personages = {p: [] for p in state.players}
    state.destroyed = {p: 0 for p in state.players}
    state.firsts.clear()


def city_spec(game: Game, region: str, spec: Any) -> dict[str, Any]:
    """``"yellow temple"`` / ``"red iron"`` / ``{owner, resource, temple}`` as a city."""
    if isinstance(spec, dict):
        words = [str(spec.get("owner", "")), str(spec.get("resource", "")),
                 "temple" if spec.get("temple") else ""]
    else:
        words = str(spec).split()
    owner = next((w for w in words if w in game.state.players), None)
    if owner is None:
        raise StateError(f"a city names its owner, one of {', '.join(game.state.players)}")
    resource = next((w for w in words if w in RESOURCES), None)
    site = game.rules.board.regions[region].city
    if resource is None:
        if site not in RESOURCES:
            raise StateError(f"{region} is a site of {site}: name the city's resource "
                             f"({', '.join(RESOURCES)})")
        resource = site
    extra = [w for w in words if w and w not in (owner, resource, "temple")]
    if extra:
        raise StateError(f"{extra[0]!r}: a city is written as its owner, its resource and "
                         f"'temple'")
    return {"owner": owner, "resource": resource, "temple": "temple" in words}


def set_position(game: Game, p: dict[str, Any], at: Any) -> None:
    state = game.state
    if p.get("clear", True):
        clear(game)
    _edited(game)
    if "order" in p:
        with at("order"):
            order = [str(n) for n in p["order"]]
            if sorted(order) != sorted(state.players):
                raise StateError(f"the order names each nation once: {state.players}")
            state.players = order
    for region, spec in (p.get("cities") or {}).items():
        with at("cities", region):
            _region(game, region)
            state.cities[region] = city_spec(game, region, spec)
            if region in state.neutral:
                state.neutral.remove(region)
            _within_the_box(game, "cities", state.cities[region]["owner"])
    if "neutral" in p:
        with at("neutral"):
            for region in p["neutral"] or []:
                _region(game, region)
            state.neutral = [str(r) for r in p["neutral"] or []]
    if "cities" in p or "neutral" in p:
        with at("cities" if "cities" in p else "neutral"):
            _within_the_box(game, "cities")
    for nation, areas in (p.get("units") or {}).items():
        with at("units", nation):
            _nation(game, nation)
            for area, kinds in (areas or {}).items():
                _area(game, area)
                for kind, n in (kinds or {}).items():
                    if kind not in UNITS:
                        raise StateError(f"{kind!r} is not a unit ({', '.join(UNITS)})")
                    state.add_units(nation, area, kind, int(n))
            _within_the_box(game, "units", nation)
    for nation, held in (p.get("stock") or {}).items():
        with at("stock", nation):
            _nation(game, nation)
            for key, n in (held or {}).items():
                if key not in HOLDINGS:
                    raise StateError(f"{key!r} is not one of {', '.join(HOLDINGS)}")
                state.stock[nation][key] = int(n)
            _within_the_box(game, "stock", nation)
    for nation, space in (p.get("rondel") or {}).items():
        with at("rondel", nation):
            _nation(game, nation)
            from antike2.rondel import spaces

            if space and space not in spaces(game):
                raise StateError(f"{space!r} is no rondel space ({', '.join(spaces(game))})")
            state.rondel[nation] = str(space or "")
    for nation, learnt in (p.get("know_how") or {}).items():
        with at("know_how", nation):
            _nation(game, nation)
            for k in learnt or []:
                card = game.rules.cards.get(k)
                if card is None or card.kind != "know-how":
                    raise StateError(f"{k!r} is no know-how")
            state.know_how[nation] = [str(k) for k in learnt or []]
    for k, nation in (p.get("firsts") or {}).items():
        with at("firsts", k):
            _nation(game, nation)
            state.firsts[str(k)] = str(nation)
    for nation in state.players:
        for k in state.know_how[nation]:
            state.firsts.setdefault(k, nation)
    for nation, cards in (p.get("personages") or {}).items():
        with at("personages", nation):
            _nation(game, nation)
            for c in cards or []:
                card = game.rules.cards.get(c)
                if card is None or card.kind != "personage":
                    raise StateError(f"{c!r} is no personage")
            state.personages[nation] = [str(c) for c in cards or []]
            _within_the_box(game, "personages")
    for nation, n in (p.get("destroyed") or {}).items():
        with at("destroyed", nation):
            _nation(game, nation)
            state.destroyed[nation] = int(n)
    if "bellona" in p:
        with at("bellona"):
            _nation(game, str(p["bellona"]))
            state.bellona = str(p["bellona"])


def check_scenario(schema: Any, section: str, data: dict[str, Any],
                   at: tuple[str | int, ...]) -> None:
    """The kind of value each of the game's scenario keys holds."""
    d = data
    if section == "position" and "clear" in d and not isinstance(d["clear"], bool):
        raise schema.fail((*at, "clear"), f"expected true or false, got {d['clear']!r}")
    if "order" in d:
        schema.names(d["order"], (*at, "order"))
    for region, spec in schema.mapping(d.get("cities"), (*at, "cities")).items():
        if not isinstance(spec, dict):
            schema.text(spec, (*at, "cities", region), allow_null=section == "expect")
    for nation, areas in schema.mapping(d.get("units"), (*at, "units")).items():
        for area, kinds in schema.mapping(areas, (*at, "units", nation)).items():
            schema.counts(kinds, (*at, "units", nation, area), 0, allow_null=True)
    for nation, held in schema.mapping(d.get("stock"), (*at, "stock")).items():
        schema.counts(held, (*at, "stock", nation), 0, allow_null=True)
    schema.name_map(d.get("rondel"), (*at, "rondel"), allow_null=True)
    for key in ("know_how", "personages"):
        for nation, cards in schema.mapping(d.get(key), (*at, key)).items():
            schema.names(cards, (*at, key, nation))
    schema.name_map(d.get("firsts"), (*at, "firsts"))
    schema.counts(d.get("destroyed"), (*at, "destroyed"), 0)
    if "neutral" in d:
        schema.names(d["neutral"], (*at, "neutral"))
    if "bellona" in d:
        schema.text(d["bellona"], (*at, "bellona"))
    if section == "expect":
        schema.counts(d.get("bank"), (*at, "bank"), 0)


def expect(game: Game, key: str, want: Any) -> list[str] | None:
    """The failures of one of the game's expectations, or None if ``key`` is not one."""
    state = game.state
    failures: list[str] = []
    if key == "cities":
        for region, spec in (want or {}).items():
            got = state.cities.get(region)
            if spec is None:
                if got is not None:
                    failures.append(f"cities.{region}: expected none, got {got}")
                continue
            try:
                wanted = city_spec(game, region, spec)
            except StateError as exc:
                failures.append(f"cities.{region}: {exc}")
                continue
            if got != wanted:
                failures.append(f"cities.{region}: expected {wanted}, got {got}")
    elif key == "units":
        for nation, areas in (want or {}).items():
            for area, kinds in (areas or {}).items():
                got = dict(state.units.get(nation, {}).get(area, {}))
                if not kinds:
                    if got:
                        failures.append(f"units.{nation}.{area}: expected none, got {got}")
                    continue
                full = {k: 0 for k in UNITS}
                full.update(got)
                sub(kinds, full, f"units.{nation}.{area}", failures)
    elif key == "stock":
        for nation, held in (want or {}).items():
            got = state.stock.get(nation, {})
            if not held:
                if any(got.values()):
                    failures.append(f"stock.{nation}: expected nothing, got {got}")
                continue
            sub(held, {k: got.get(k, 0) for k in HOLDINGS}, f"stock.{nation}", failures)
    elif key in ("rondel", "firsts", "destroyed"):
        sub(want, getattr(state, key), key, failures)
    elif key in ("know_how", "personages"):
        for nation, cards in (want or {}).items():
            got = getattr(state, key).get(nation, [])
            if sorted(cards or []) != sorted(got):
                failures.append(f"{key}.{nation}: expected {sorted(cards or [])}, "
                                f"got {sorted(got)}")
    elif key == "neutral":
        if sorted(want or []) != sorted(state.neutral):
            failures.append(f"neutral: expected {sorted(want or [])}, "
                            f"got {sorted(state.neutral)}")
    elif key == "bellona":
        if want != state.bellona:
            failures.append(f"bellona: expected {want}, got {state.bellona}")
    elif key == "bank":
        left: dict[str, int] = {"coins": bank_coins(game), "temples": temples_left(game)}
        for kind in game.rules.components.get("personages", {}):
            left[kind] = personages_left(game, kind)
        sub(want, left, "bank", failures)
    else:
        return None
    return failures
