"""The rules API: what a bot (``bots/``) or any other player's tool may ask about a game
of Mare Nostrum, answered by the rule plugins themselves.

A bot decides among the options a decision offers; to value them it asks questions
here — what it may build and at what price, where it can reach, what it will collect,
what a battle's odds are — and never calls a plugin's private functions or computes a
rule again on its own: if a variant changes a rule, the answers change with it. Each
function says which rule answers it. Every answer is computed from the position as it
stands; none changes the game (a function that imagines a position puts it back
exactly) and none reads what the asking player may not see, unless he passes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from mare_nostrum import (
    build,
    conquest,
    control,
    geometry,
    production,
    tracks,
    trade,
)
from mare_nostrum import victory as victory_rules
from mare_nostrum.payment import Payment as Payment
from mare_nostrum.payment import SetRules as SetRules
from mare_nostrum.payment import set_rules
from mare_nostrum.state import TRACKS as TRACKS
from mare_nostrum.state import Game
from mnrules.language.compiler import BuildOffer as BuildOffer

Action = tuple[Any, ...]
SPECIAL_KINDS = victory_rules.SPECIAL_KINDS
"""Card kinds outside the hero/wonder count (the Pyramids): they win by their own script."""
Reach = geometry.Reach
"""Where one player can reach from provinces (see :func:`reach`)."""


# -- building (phase 3) ------------------------------------------------------------------
def legal_builds(game: Game, player: str) -> list[Action]:
    """Every purchase ``player`` may make now: what the placement rules, the box, the
    display and his screen allow (``("marker", province)``, ``("legion", province)``,
    ``("building", province, slot)``, ``("tile", id)``, ``("offer", card, item, site)``,
    ...), as the build step offers them. (build)"""
    return build.legal_actions(game, player)


def cost(game: Game, player: str, action: Action) -> int | None:
    """What ``action`` (a purchase, not a card's offer) costs ``player``, his heroes and
    wonders included; None if he may not buy it (a sixth hero). (build)"""
    return build.item_cost(game, player, action)


def tile_cost(game: Game, player: str, tile: str) -> int | None:
    """The price of a hero or wonder for ``player`` now, or None if he may not buy it.
    (build)"""
    return build.tile_cost(game, player, tile)


def marker_bases(game: Game, player: str) -> list[str]:
    """The provinces where ``player`` had a control marker when the build phase began:
    a new marker goes next to or connected with one of them. (build)"""
    return build.marker_bases(game, player)


def marker_sites(game: Game, player: str) -> set[str]:
    """Where ``player`` may place a control marker now. (build)"""
    return build.marker_sites(game, player)


def card_offers(game: Game, player: str) -> list[BuildOffer]:
    """The ways to build ``player``'s heroes and wonders give him now (their item, price
    alternatives, count, limit). (build, through the cards' ``mn_build_offers``)"""
    return build.card_offers(game, player)


def find_offer(game: Game, player: str, action: Action) -> BuildOffer | None:
    """The card offer an ``("offer", card, item, site)`` action uses, or None. (build)"""
    return build.find_offer(game, player, action)


def offer_payments(game: Game, player: str, offer: BuildOffer) -> list[Payment]:
    """The prices of ``offer`` that ``player`` can pay now, as the resources paid.
    (build)"""
    return build.offer_payments(game, player, offer)


def payment_rules(game: Game, player: str) -> SetRules:
    """What ``player``'s payment sets may hold beyond the base rule (coins in goods sets,
    goods in coin sets, a goods type twice), his heroes and wonders included.
    (payment)"""
    return set_rules(game, player)


def storage(game: Game, player: str) -> tuple[int, int]:
    """What ``player`` keeps at the end of his build turn: (coins, goods of different
    types). (build)"""
    return build.storage(game, player)


# -- trade (phase 2) ---------------------------------------------------------------------
def offer_sizes(game: Game, player: str, value: int) -> tuple[int, ...]:
    """How many resources ``player`` may offer when the trade token's face is ``value``,
    before what he holds limits it. (trade)"""
    return trade.offer_sizes(game, player, value)


# -- income (phase 1) --------------------------------------------------------------------
def _summed(items: Iterable[tuple[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, n in items:
        out[key] = out.get(key, 0) + n
    return out


def income(game: Game, player: str) -> dict[str, int]:
    """What ``player`` would collect if the Collect phase came now, by resource key
    ("legendary": a legendary draw; "a|b": his choice of one), heroes and wonders
    included, before the supply limits it. (production)"""
    return _summed(production.income(game, player))


def incomes(game: Game) -> dict[str, dict[str, int]]:
    """Every player's :func:`income`, the board counted once. (production)"""
    return {p: _summed(items) for p, items in production.incomes(game).items()}


def province_income(game: Game, province: str, slots: list[int]) -> dict[str, int]:
    """What the built ``slots`` of ``province`` (indices; built or imagined built) would
    yield together to one controller (temples and markets doubling, a legendary city's
    temple bonus), before heroes and wonders. (production)"""
    return production.province_income(game, province, slots)


# -- the board ---------------------------------------------------------------------------
def capital(game: Game, player: str) -> str:
    """``player``'s capital province. (control)"""
    return control.capital(game, player)


def slot_controller(game: Game, province: str, slot: int) -> str | None:
    """Who controls a built building: its occupier, else the marker's holder. (control)"""
    return control.slot_controller(game.state, province, slot)


def has_enemies(game: Game, area: str, player: str) -> bool:
    """Whether another player has units in ``area``. (control)"""
    return control.has_enemies(game.state, area, player)


def may_build_in(game: Game, player: str, province: str) -> bool:
    """Whether ``player`` may place units and buildings in ``province`` now (his, at
    peace, or his capital). (control)"""
    return control.may_build_in(game, player, province) is None


def fleet_seas(game: Game, player: str) -> set[str]:
    """The seas holding ``player``'s triremes. (geometry)"""
    return geometry.fleet_seas(game.state, player)


def reach(game: Game, player: str, fleet: Iterable[str] | None = None) -> geometry.Reach:
    """Where ``player`` can reach from provinces: ``reach(prov)`` is the provinces in
    play adjacent to or connected with ``prov`` by his trireme chains, and
    ``reach.connected(prov)`` those the chains alone connect; ``fleet`` imagines his
    triremes in those seas. Ask one Reach many provinces of one position. (geometry)"""
    return geometry.Reach(game, player, fleet)


# -- move & fight (phase 4) --------------------------------------------------------------
@contextmanager
def _imagined(game: Game, area: str, attacker: str, defender: str, legions: int | None,
              defenders: int | None) -> Iterator[None]:
    """The board with ``attacker`` having ``legions`` legions in ``area`` (and
    ``defender`` at least ``defenders``), put back exactly afterwards."""
    state = game.state
    add = 0 if legions is None else legions - state.count(area, attacker, "legion")
    add_d = 0 if defenders is None else defenders - state.count(area, defender, "legion")
    if add > 0:
        state.add_units(area, attacker, "legion", add)
    if add_d > 0:
        state.add_units(area, defender, "legion", add_d)
    try:
        yield
    finally:
        if add_d > 0:
            state.remove_units(area, defender, "legion", add_d)
        if add > 0:
            state.remove_units(area, attacker, "legion", add)


def _battle(game: Game, area: str, attacker: str, defender: str) -> dict[str, Any]:
    kind = "sea" if area in game.rules.board.seas else "land"
    return {"area": area, "kind": kind, "attacker": attacker, "defender": defender}


def _odds(game: Game, battle: dict[str, Any], units: dict[str, int]) -> dict[str, Any]:
    found: dict[str, Any] | None = game.rules.pm.first("mn_battle_odds", game=game,
                                                       battle=battle, units=units)
    if found is None:
        raise LookupError("no plugin tells a battle's odds (mn_battle_odds)")
    return found


def battle_odds(game: Game, area: str, attacker: str, defender: str,
                legions: int | None = None, defenders: int | None = None,
                units: tuple[int, int] | None = None) -> tuple[tuple[int, int, float], ...]:
    """The exact odds of a battle ``attacker`` would start against ``defender`` in
    ``area`` (a sea: a naval battle), every rule and card folded in: ``(attacker's
    losses, defender's losses, probability)``. ``legions`` imagines the attacker with
    that many legions there, ``defenders`` the defender with at least that many;
    ``units`` caps the losses (default: each side's units there, as the battle step
    caps them). (battle, through ``mn_battle_odds``)"""
    battle = _battle(game, area, attacker, defender)
    with _imagined(game, area, attacker, defender, legions, defenders):
        if units is None:
            here = game.state.units.get(area, {})
            caps = {p: sum(here.get(p, {}).values()) for p in (attacker, defender)}
        else:
            caps = {attacker: units[0], defender: units[1]}
        losses: tuple[tuple[int, int, float], ...] = _odds(game, battle, caps)["losses"]
        return losses


def expected_hits(game: Game, area: str, attacker: str, defender: str,
                  legions: int | None = None, defenders: int | None = None
                  ) -> tuple[float, float]:
    """The hits each side of that battle scores on average, before the other's units
    cap them: (attacker's, defender's). (battle, through ``mn_battle_odds``)"""
    battle = _battle(game, area, attacker, defender)
    with _imagined(game, area, attacker, defender, legions, defenders):
        dist = _odds(game, battle, {attacker: 0, defender: 0})["hits"]
    return (sum(h * p for h, p in dist[attacker]), sum(h * p for h, p in dist[defender]))


def hopeless_battle(game: Game, area: str, attacker: str, defender: str,
                    units: int | None = None) -> bool:
    """Whether the battle ``attacker`` would fight against ``defender`` in ``area`` is
    lost before the dice: on no roll are all the defender's units destroyed with one of
    the attacker's left, on none does a defending unit fall, and on every roll the
    attacker loses a unit (one legion against a lone fortress, FR/NL/PL/UK 4.2). ``units``
    imagines the attacker with that many legions (or triremes, at sea) there, more or
    fewer. Exact, every card folded in. (battle, through ``mn_battle_odds``)"""
    if units is not None and units <= 0:
        return False
    state = game.state
    unit = "trireme" if area in game.rules.board.seas else "legion"
    have = state.count(area, attacker, unit)
    # (one at least stays: no key of the board's units is removed and put back, which
    # would change their order)
    less = 0 if units is None else max(0, have - units)
    if less:
        state.remove_units(area, attacker, unit, less)
    try:
        here = state.units.get(area, {})
        mine = sum(here.get(attacker, {}).values()) + (
            max(0, units - have) if units is not None else 0)
        theirs = sum(here.get(defender, {}).values())
        if not mine or not theirs:
            return False
        legions = units if units is not None and units > have and unit == "legion" \
            else None
        win = hurt = lose = 0.0
        for la, lb, q in battle_odds(game, area, attacker, defender, legions,
                                     units=(mine, theirs)):
            if lb >= theirs and la < mine:
                win += q
            if lb > 0:
                hurt += q
            if la > 0:
                lose += q
    finally:
        if less:
            state.add_units(area, attacker, unit, less)
    return win == 0.0 and hurt == 0.0 and lose >= 1.0 - 1e-12


def occupations(game: Game, province: str, player: str) -> int:
    """How many of ``player``'s legions in ``province`` occupy a building or the marker
    (they stay when he moves the others). (conquest)"""
    return conquest.occupations(game.state, province, player)


def linked(game: Game, player: str, province: str, reach: geometry.Reach | None = None
           ) -> bool:
    """Whether ``province`` is adjacent to or connected with another of ``player``'s (a
    conqueror may then occupy and later convert its marker); ``reach``: his Reach in
    this position, if one is at hand. (conquest)"""
    return conquest.linked(game, player, province, reach)


# -- tracks and victory ------------------------------------------------------------------
def levels(game: Game) -> dict[str, dict[str, int]]:
    """Each player's level on each track, his tiles' bonuses included. (tracks)"""
    return tracks.levels(game)


def great_cities(game: Game) -> dict[str, int]:
    """The capitals and legendary cities (the kinds the conquest victory counts) each
    player controls or occupies. (victory)"""
    return victory_rules.great_cities(game)


def heroes_and_wonders(game: Game, player: str) -> int:
    """The tiles that count toward ``player``'s fifth hero or wonder. (victory)"""
    return victory_rules.heroes_and_wonders(game, player)


def pending_build_victories(game: Game) -> dict[str, list[str]]:
    """This build phase's victories by building still to be decided at its end: path ->
    claimants. (victory)"""
    return victory_rules.pending_claims(game)


def wins_alone(game: Game, player: str, path: str) -> bool:
    """Whether a card makes ``player``'s build victory by ``path`` immediate and sole.
    (victory)"""
    return victory_rules.wins_alone(game, player, path)


def copied_tiles(game: Game, player: str) -> list[str]:
    """The heroes ``player`` copies (a card's power, for the rest of the game): the card
    words write them, the effect language reads them."""
    copies: dict[str, list[str]] = game.state.vars.get("copies", {})
    return list(copies.get(player, []))
