"""Phase 1 — Collect resources, as the rulebooks' examples tell it (EX-PROD-1 to -6,
and the occupied-market case of EX-CONQ-2)."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import pending, play
from mare_nostrum import position as pos
from mare_nostrum.tracks import counted
from mnrules import Game, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check


def blank(rules: Ruleset, n: int = 4, seed: int = 1) -> Game:
    """An empty board (no markers, not even the capitals'), empty screens."""
    game = new_game(rules, n, seed=seed)
    pos.clear(game)
    return game


def build(game: Game, player: str | None, province: str, *specs: str) -> list[int]:
    """Mark ``province`` for ``player`` and build ``specs`` there; the slot indices."""
    if player is not None:
        pos.set_marker(game, province, player)
    return [pos.build(game, province, spec) for spec in specs]


def occupy(game: Game, player: str, province: str, slot: int) -> None:
    """``player`` occupies a building with a legion of his (4.3.2)."""
    pos.add_units(game, player, province, "legion")
    game.state.occupied[province][slot] = player


def collect(game: Game, *choices: Any, round: int = 2) -> dict[str, dict[str, int]]:
    """Run Phase 1 of ``round`` on empty screens; what each player collected."""
    for p in game.state.players:
        assert game.state.held(p) == 0
    pos.start_phase(game, "production", round=round)
    play(game, *choices)
    assert pending(game) == ("carthage", "trade.token"), "Phase 1 is over"
    assert check(game) == []
    return {p: dict(s) for p, s in game.state.screens.items() if s}


# --- EX-PROD-1: Aethiopia --------------------------------------------------------


def test_aethiopia_two_caravans_give_grain_and_gold(rules: Ruleset) -> None:
    """NL "Controle": Dave controls both caravans and collects grain and gold."""
    game = blank(rules)
    build(game, "egypt", "AETHIOPIA", "caravan:grain", "caravan:gold")
    assert counted(game)["egypt"]["trade"] == 2
    assert collect(game) == {"egypt": {"grain": 1, "gold": 1}}


def test_aethiopia_with_a_market_doubles_both(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "egypt", "AETHIOPIA", "caravan:grain", "caravan:gold", "market")
    assert counted(game)["egypt"]["trade"] == 3
    assert collect(game) == {"egypt": {"grain": 2, "gold": 2}}


# --- EX-PROD-2: Macedonia, one caravan occupied (FR 1.1 Exemple 2) ---------------


def test_macedonia_one_caravan_occupied(rules: Ruleset) -> None:
    """Thierry (greece) has the marker; Serge (rome) occupies one caravan."""
    game = blank(rules)
    metal, oil = build(game, "greece", "MACEDONIA", "caravan:metal", "caravan:oil")
    occupy(game, "rome", "MACEDONIA", oil)
    lv = counted(game)
    assert (lv["greece"]["trade"], lv["rome"]["trade"]) == (1, 1)
    assert collect(game) == {"greece": {"metal": 1}, "rome": {"oil": 1}}
    assert metal != oil


def test_macedonia_market_doubles_only_for_its_controller(rules: Ruleset) -> None:
    game = blank(rules)
    _, oil, _ = build(game, "greece", "MACEDONIA", "caravan:metal", "caravan:oil", "market")
    occupy(game, "rome", "MACEDONIA", oil)
    assert collect(game) == {"greece": {"metal": 2}, "rome": {"oil": 1}}


# --- EX-PROD-4: temple and market doubling ---------------------------------------


def test_city_with_temple_gives_two_coins(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "greece", "CRETE", "city", "temple")
    assert collect(game) == {"greece": {"coin": 2}}


def test_city_without_temple_gives_one_coin(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "greece", "CRETE", "city")
    assert collect(game) == {"greece": {"coin": 1}}


def test_caravan_with_market_gives_two_goods(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "rome", "ITALIA", "caravan:oil", "market")
    build(game, "greece", "MACEDONIA", "caravan:metal", "caravan:oil", "market")
    assert collect(game) == {"rome": {"oil": 2}, "greece": {"metal": 2, "oil": 2}}


def test_capital_and_city_with_temple_give_four_coins(rules: Ruleset) -> None:
    """ACHAEA: ATHENAE + a city + a temple = 2 coins per city-type building (NL 1.1,
    FR, PL, UK; the NL overview's "1 extra munt" would give 3)."""
    game = blank(rules)
    build(game, "greece", "ACHAEA", "capital", "city", "temple")
    assert collect(game) == {"greece": {"coin": 4}}


def test_temple_or_market_alone_produces_nothing(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "greece", "THRACIA", "temple", "market")
    build(game, "rome", "GALLIA", "market")
    assert collect(game) == {}


def test_occupied_caravan_and_market_give_the_conqueror_two_papyrus(rules: Ruleset) -> None:
    """EX-CONQ-2: Rome occupies CYRENAICA's caravan and market; Egypt keeps the city coin."""
    game = blank(rules)
    caravan, market, _city = build(game, "egypt", "CYRENAICA", "caravan:papyrus", "market",
                                   "city")
    occupy(game, "rome", "CYRENAICA", caravan)
    occupy(game, "rome", "CYRENAICA", market)
    lv = counted(game)
    assert (lv["rome"]["trade"], lv["egypt"]["trade"]) == (2, 0)
    assert collect(game) == {"rome": {"papyrus": 2}, "egypt": {"coin": 1}}


def test_occupied_caravan_only_is_not_doubled_by_the_enemy_market(rules: Ruleset) -> None:
    game = blank(rules)
    caravan, _market, _city = build(game, "egypt", "CYRENAICA", "caravan:papyrus", "market",
                                     "city")
    occupy(game, "rome", "CYRENAICA", caravan)
    assert collect(game) == {"rome": {"papyrus": 1}, "egypt": {"coin": 1}}


def test_occupied_market_only_yields_nothing_and_stops_doubling(rules: Ruleset) -> None:
    """"een markt of een tempel bezetten levert op zich geen goederen op" (NL 4.3.2)."""
    game = blank(rules)
    _caravan, market, _city = build(game, "egypt", "CYRENAICA", "caravan:papyrus", "market",
                                    "city")
    occupy(game, "rome", "CYRENAICA", market)
    assert collect(game) == {"egypt": {"papyrus": 1, "coin": 1}}


def test_occupied_temple_doubles_only_the_occupiers_cities(rules: Ruleset) -> None:
    game = blank(rules)
    capital, city, temple = build(game, "greece", "ACHAEA", "capital", "city", "temple")
    occupy(game, "rome", "ACHAEA", city)
    occupy(game, "rome", "ACHAEA", temple)
    assert capital != city
    assert collect(game) == {"rome": {"coin": 2}, "greece": {"coin": 1}}


def test_at_war_province_still_produces_for_its_marker_holder(rules: Ruleset) -> None:
    """FR 4.5; NL/PL/UK 4.2.1: enemy units alone do not take the buildings."""
    game = blank(rules)
    build(game, "egypt", "CYRENAICA", "caravan:papyrus", "market", "city")
    pos.add_units(game, "rome", "CYRENAICA", "legion", 2)
    assert collect(game) == {"egypt": {"papyrus": 2, "coin": 1}}


def test_buildings_without_a_marker_produce_for_nobody(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, None, "GALLIA", "caravan:grain", "market")
    pos.add_units(game, "rome", "GALLIA", "legion")
    assert collect(game) == {}


# --- EX-PROD-5: legendary city with a temple -------------------------------------


def test_legendary_city_gives_a_coin_and_a_legendary_good(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "greece", "ASIA", "legendary")
    game.force("legendary draw", ["sheep"])
    assert collect(game) == {"greece": {"coin": 1, "legendary:sheep": 1}}
    assert "sheep" not in game.state.legendary_pile
    assert len(game.state.legendary_pile) == 12


@pytest.mark.parametrize(("extra", "expected"), [
    ("coin", {"coin": 2, "legendary:sheep": 1}),
    ("legendary", {"coin": 1, "legendary:sheep": 1, "legendary:wine": 1}),
])
def test_legendary_city_with_temple_adds_a_coin_or_a_legendary_good(
        rules: Ruleset, extra: str, expected: dict[str, int]) -> None:
    game = blank(rules)
    build(game, "greece", "ASIA", "legendary", "temple")
    game.force("legendary draw", ["sheep", "wine"])
    pos.start_phase(game, "production", round=2)
    dec = game.pending
    assert dec is not None
    assert (dec.player, dec.kind) == ("greece", "collect.choice")
    assert set(dec.options) == {"coin", "legendary"}
    play(game, extra)
    assert pending(game) == ("carthage", "trade.token")
    assert game.state.screens["greece"] == expected


def test_empty_legendary_pile_is_the_reshuffled_discard(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "greece", "SICILIA", "legendary")
    state = game.state
    state.legendary_discard = list(state.legendary_pile)
    state.legendary_pile = []
    game.force("legendary draw", ["gems"])
    assert collect(game) == {"greece": {"coin": 1, "legendary:gems": 1}}
    assert state.legendary_discard == []
    assert len(state.legendary_pile) == 12 and "gems" not in state.legendary_pile


# --- EX-PROD-6: the supply is finite ---------------------------------------------


def test_no_papyrus_when_all_five_are_behind_screens(rules: Ruleset) -> None:
    """NL Q&A 9: "op is op"."""
    game = blank(rules)
    build(game, "egypt", "AEGYPTUS", "caravan:papyrus", "market", "city")
    pos.give(game, "rome", {"papyrus": 5})
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("carthage", "trade.token")
    assert game.state.screens["egypt"] == {"coin": 1}
    assert game.state.supply["papyrus"] == 0
    assert check(game) == []


def test_collect_takes_what_is_left(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "egypt", "AEGYPTUS", "caravan:papyrus", "market")
    pos.give(game, "rome", {"papyrus": 4})
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("carthage", "trade.token")
    assert game.state.screens["egypt"] == {"papyrus": 1}
    assert game.state.screens["rome"] == {"papyrus": 4}
    assert check(game) == []


def test_coins_run_out_too(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "greece", "ACHAEA", "capital", "city", "temple")
    pos.give(game, "rome", {"coin": 42})
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("carthage", "trade.token")
    assert game.state.screens["greece"] == {"coin": 2}
    assert game.state.supply["coin"] == 0
    assert check(game) == []


# --- round 1 ---------------------------------------------------------------------


def test_round_one_has_no_collect_phase(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=1)
    before = {p: dict(s) for p, s in game.state.screens.items()}
    pos.start_phase(game, "production", round=1)
    assert pending(game) == ("carthage", "trade.token")
    assert {p: dict(s) for p, s in game.state.screens.items()} == before


def test_round_two_collects_what_the_pieces_produce(rules: Ruleset) -> None:
    """The starting pieces produce the nine starting resources again in round 2."""
    game = new_game(rules, 5, seed=1)
    start = {p: dict(s) for p, s in game.state.screens.items()}
    for p in game.state.players:
        pos.clear_screen(game, p)
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("carthage", "trade.token")
    assert {p: dict(s) for p, s in game.state.screens.items()} == start


def test_first_round_collects_parameter(fresh_rules: Any) -> None:
    game = new_game(fresh_rules(first_round_collects=True), 3, seed=1)
    pos.start_phase(game, "production", round=1)
    assert pending(game) == ("carthage", "trade.token")
    state = game.state
    # the start's oil (Rome 2, Greece 2, Carthage 1) is the whole supply of 5: none more
    assert state.screens["carthage"] == {"coin": 2, "sheep": 6, "spices": 4, "gold": 2,
                                         "gladiators": 2, "oil": 1}
    assert state.screens["greece"]["coin"] == 10
    # Rome's and Greece's 8 metal do not fit in a supply of 5: it runs out
    assert state.screens["rome"].get("metal", 0) + state.screens["greece"]["metal"] == 5
    assert state.supply["metal"] == 0
    assert check(game) == []


def test_no_choice_when_no_legendary_good_is_left(rules: Ruleset) -> None:
    """All 13 legendary goods are behind screens: the temple's extra can only be a coin."""
    game = blank(rules)
    build(game, "greece", "ASIA", "legendary", "temple")
    pos.give(game, "rome", {f"legendary:{g}": 1 for g in game.state.legendary_pile})
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("carthage", "trade.token")
    assert game.state.screens["greece"] == {"coin": 2}
    assert check(game) == []


def test_no_choice_when_the_coins_have_run_out(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "greece", "ASIA", "legendary", "temple")
    pos.give(game, "rome", {"coin": 43})
    game.force("legendary draw", ["oil", "wine"])
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("carthage", "trade.token")
    assert game.state.screens["greece"] == {"coin": 1, "legendary:oil": 1,
                                            "legendary:wine": 1}
    assert game.state.supply["coin"] == 0


# --- heroes and wonders in Phase 1 (the "income" quantity, the production event) -------


def own(game: Game, player: str, tile: str) -> None:
    game.state.tiles[player].append(tile)
    for pile in (game.state.display, game.state.display_hidden):
        if tile in pile:
            pile.remove(tile)


def test_temple_of_artemis_adds_a_coin(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "egypt", "AETHIOPIA", "caravan:grain")
    own(game, "egypt", "temple_of_artemis")
    assert collect(game) == {"egypt": {"grain": 1, "coin": 1}}


def test_temple_of_artemis_not_in_round_one(rules: Ruleset) -> None:
    game = blank(rules)
    own(game, "egypt", "temple_of_artemis")
    pos.start_phase(game, "production", round=1)
    assert pending(game) == ("carthage", "trade.token")
    assert game.state.held("egypt") == 0


def test_circe_legion_on_an_empty_caravan_slot(rules: Ruleset) -> None:
    """EX-HW-4 (NL/PL/UK): a Roman legion on CYRENAICA's empty papyrus slot."""
    game = blank(rules)
    build(game, "egypt", "CYRENAICA", "market", "city")
    own(game, "rome", "circe")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    trade = counted(game)["rome"]["trade"]
    assert collect(game) == {"rome": {"papyrus": 1}, "egypt": {"coin": 1}}
    assert counted(game)["rome"]["trade"] == trade  # the legion is no caravan


def test_colossus_takes_a_good_of_choice_after_everyone_collected(rules: Ruleset) -> None:
    game = blank(rules)
    build(game, "egypt", "AEGYPTUS", "caravan:papyrus")
    own(game, "rome", "colossus")
    pos.give(game, "greece", {"ceramics": 3})  # none left: not on offer
    pos.start_phase(game, "production", round=2)
    dec = game.pending
    assert dec is not None and dec.player == "rome"
    assert "ceramics" not in dec.options and "coin" not in dec.options
    assert game.state.screens["egypt"] == {"papyrus": 1}  # Egypt has collected already
    play(game, "gems")
    assert pending(game) == ("carthage", "trade.token")
    assert game.state.screens["rome"] == {"gems": 1}
