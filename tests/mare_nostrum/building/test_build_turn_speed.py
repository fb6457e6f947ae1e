"""The build listing's eighth-round short ways (docs/speed.md, issue 15) list what the
code they replaced listed: where a player may build, the marker sites, the placements
and the whole listing with the cards' offers, in the same order, at every build
decision of seeded games and after writes behind the rules' back (another player's
units in a province, a fortress, a trireme, a marker taken or given)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mare_nostrum import build
from mare_nostrum.build import (
    UNITS,
    buildable,
    card_offers,
    item_cost,
    legal_actions,
    marker_sites,
    offer_payments,
    placements,
)
from mare_nostrum.control import capital, has_enemies, trireme_seas
from mare_nostrum.geometry import fleet_seas
from mare_nostrum.payment import payments, set_rules
from mnrules import Game, new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset
from test_offer_payments import key_by_key, paying

# -- the code as it was (47809cc) -------------------------------------------------------


def old_buildable(game: Game, player: str) -> list[str]:
    state = game.state
    home = capital(game, player)
    out = []
    for prov in state.built:
        if prov == home:
            out.append(prov)
        elif state.control.get(prov) == player:
            here = state.units.get(prov)
            if not here or all(p == player for p in here):
                out.append(prov)
    return out


def old_marker_filter(game: Game, player: str, sites: set[str]) -> set[str]:
    state = game.state
    return {p for p in sites if state.control.get(p) is None
            and not has_enemies(state, p, player)}


def old_placements(game: Game, player: str) -> list[tuple[Any, ...]]:
    """Every placement, whatever its price (no ``keep``), as the code listed them."""
    state = game.state
    board = game.rules.board
    out: list[tuple[Any, ...]] = []
    pieces = state.pieces[player]
    if pieces.get("marker", 0) > 0:
        out += [("marker", p) for p in sorted(marker_sites(game, player))]
    where = old_buildable(game, player)
    if pieces.get("legion", 0) > 0:
        out += [("legion", p) for p in where]
    if pieces.get("fortress", 0) > 0:
        out += [("fortress", p) for p in where if not state.count(p, player, "fortress")]
    if pieces.get("trireme", 0) > 0:
        out += [("trireme", s) for s in trireme_seas(game, player, where)]
    for prov in where:
        seen: set[str] = set()
        for i, is_built in enumerate(state.built[prov]):
            slot = board.provinces[prov].slots[i]
            if is_built or state.supply.get(slot.kind, 0) <= 0 or slot.spec in seen:
                continue
            seen.add(slot.spec)
            out.append(("building", prov, i))
    out += [("tile", t) for t in state.display if t not in state.tiles[player]]
    return out


def old_offer_sites(game: Game, player: str, offer: Any) -> list[str]:
    state = game.state
    item = offer.item
    if state.pieces[player].get(item, 0) <= 0:
        return []
    if item == "marker":
        return sorted(marker_sites(game, player))
    home = capital(game, player)
    if item == "trireme":
        seas = trireme_seas(game, player)
        if offer.where == "capital":
            return [s for s in seas if s in game.rules.board.provinces[home].seas]
        return seas
    if item not in UNITS:
        return []
    places = [home] if offer.where == "capital" else old_buildable(game, player)
    if item == "fortress":
        places = [p for p in places if not state.count(p, player, "fortress")]
    return places


def old_offers(game: Game, player: str) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for offer in card_offers(game, player):
        if offer_payments(game, player, offer):
            out.extend(("offer", offer.source, offer.item, site)
                       for site in old_offer_sites(game, player, offer))
    return out


def old_marker_sites(game: Game, player: str) -> set[str]:
    """The sites before the filter, through the fleet as ``fleet_seas`` finds it (a
    fresh Reach)."""
    from mare_nostrum.geometry import Reach

    state = game.state
    sites: set[str] = set()
    reach = Reach(game, player, fleet_seas(state, player))
    for base in build.marker_bases(game, player):
        sites |= reach(base)
    return old_marker_filter(game, player, {p for p in sites if p in state.built})


def scribble(game: Game, rng: random.Random) -> None:
    """A script's write between two decisions: another player's units where one
    builds, a fortress or a legion of his own, a trireme, a marker taken or given."""
    state = game.state
    p, q = rng.sample(state.players, 2)
    provinces = sorted(state.built)
    what = rng.randrange(5)
    if what == 0:     # an enemy legion in one of p's provinces
        mine = [x for x in provinces if state.control.get(x) == p] or provinces
        state.add_units(rng.choice(mine), q, "legion")
    elif what == 1:   # p's own fortress or legion somewhere he controls
        mine = [x for x in provinces if state.control.get(x) == p] or provinces
        state.add_units(rng.choice(mine), p, rng.choice(("fortress", "legion")))
    elif what == 2:   # a trireme at sea
        state.add_units(rng.choice(sorted(game.rules.board.seas)), p, "trireme")
    elif what == 3:   # a marker given or taken
        prov = rng.choice(provinces)
        state.control[prov] = None if state.control.get(prov) else p
    else:             # another player's trireme at sea
        state.add_units(rng.choice(sorted(game.rules.board.seas)), q, "trireme")


def check_build_turns(rules: Ruleset, seed: int, writes: float) -> tuple[int, int]:
    game = new_game(rules, 5, seed=seed, round_cap=14)
    bots = {p: make_bot("random", seed * 1009 + i, rules)
            for i, p in enumerate(game.state.players)}
    rng = random.Random(seed)
    listings = written = 0
    while (dec := game.pending) is not None:
        if rng.random() < writes:
            scribble(game, rng)
            written += 1
        if dec.kind == "build.action":
            for p in game.state.players:
                assert buildable(game, p) == old_buildable(game, p), (seed, p)
                assert marker_sites(game, p) == old_marker_sites(game, p), (seed, p)
                assert placements(game, p) == old_placements(game, p), (seed, p)
            p = dec.player
            listed = legal_actions(game, p)
            offers = [a for a in listed if a[0] == "offer"]
            assert offers == old_offers(game, p), (seed, p)
            screen, rules_p = game.state.screens[p], set_rules(game, p)
            assert listed[:len(listed) - len(offers)] == [
                a for a in old_placements(game, p)
                if (cost := item_cost(game, p, a)) is not None
                and next(payments(screen, cost, rules_p), None) is not None], (seed, p)
            listings += 1
        game.apply(bots[dec.player].choose(game))
    return listings, written


def test_the_build_listing_is_the_one_it_replaced(rules: Ruleset) -> None:
    listings, _ = check_build_turns(rules, 21, 0.0)
    assert listings > 100


def test_the_build_listing_follows_writes_behind_the_rules_back(rules: Ruleset) -> None:
    total = writes = 0
    for seed in (22, 23):
        listings, written = check_build_turns(rules, seed, 0.05)
        total += listings
        writes += written
    assert total > 100 and writes > 20


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(("coin", "grain", "legendary:grain", "wine", "oil")),
                       st.integers(0, 3), max_size=5),
       st.lists(st.lists(st.sampled_from(("coin", "grain", "wine", "oil")), max_size=4)
                .map(tuple), min_size=1, max_size=3))
def test_an_offers_prices_count_keys_held_and_at_zero(screen: dict[str, int],
                                                      prices: list[tuple[str, ...]]) -> None:
    """A card's offer is paid as choosing a key for each resource in turn finds (one good
    of a type among its keys held, a key at zero left out), prices in any order."""
    assert paying(screen, *prices) == key_by_key(screen, prices)


def test_a_purchase_gives_back_each_run_of_a_key_as_one_by_one(rules: Ruleset) -> None:
    """A set's keys are given back a run at a time: the screen, the supply and the
    legendary discard (its order too) end as giving them back one by one leaves them."""
    from mare_nostrum.build import BuildTurn
    from mare_nostrum.supply import give_back

    sets = [("coin", "coin", "coin"), ("grain", "legendary:grain", "legendary:grain", "wine"),
            ("legendary:oil", "legendary:grain", "legendary:oil"), ("wine",), ()]
    for paid in sets:
        game = new_game(rules, 5, seed=5)
        state = game.state
        p = state.players[0]
        for key in paid:
            state.gain(p, key, 1)
        before = game.snapshot()
        one_by_one = Game(rules, before)
        for key in paid:
            give_back(one_by_one.state, p, key)
        BuildTurn()._buy(game, p, ("tile", state.display[0]), paid)
        assert state.screens == one_by_one.state.screens, paid
        assert state.supply == one_by_one.state.supply, paid
        assert state.legendary_discard == one_by_one.state.legendary_discard, paid
