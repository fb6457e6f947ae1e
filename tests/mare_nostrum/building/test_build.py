"""Phase 3 — Build, as the rulebooks' examples tell it (EX-BUILD-1, -5 to -10, EX-CONQ-7's
capital exception, the hero/wonder prices and the display)."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import pending, play
from mare_nostrum import position as pos
from mare_nostrum.tracks import counted, levels
from mnrules import Game, IllegalChoice, new_game
from mnrules.content.ruleset import Ruleset

NINE = {"coin": 3, "grain": 2, "wood": 1, "sheep": 1, "gold": 1, "gladiators": 1}
COINS = ("coin", "coin", "coin")
ACTION_KINDS = {"end", "marker", "legion", "fortress", "trireme", "building", "tile"}


def game_at(rules: Ruleset, n: int = 4, *, blank: bool = False,
            screens: dict[str, dict[str, int]] | None = None) -> Game:
    """A game (the starting position, or a blank board) with these screens only."""
    game = new_game(rules, n, seed=1)
    if blank:
        pos.clear(game)
    for p in game.state.players:
        pos.clear_screen(game, p)
    for p, res in (screens or {}).items():
        pos.give(game, p, res)
    return game


def turn(game: Game, player: str) -> None:
    """Start Phase 3 (the position as it is now is the phase start) with ``player``."""
    pos.start_phase(game, "build", round=2)
    dec = game.pending
    assert dec is not None and dec.kind == "build.next"
    play(game, player)
    assert pending(game) == (player, "build.action")


def options(game: Game) -> tuple[Any, ...]:
    dec = game.pending
    assert dec is not None and dec.kind == "build.action"
    return dec.options


def sites(game: Game) -> set[str]:
    return {o[1] for o in options(game) if o[0] == "marker"}


def buy(game: Game, action: tuple[Any, ...], paying: tuple[str, ...] | None = None) -> None:
    play(game, action)
    dec = game.pending
    assert dec is not None and dec.kind == "build.pay"
    play(game, paying if paying is not None else dec.options[0])
    assert game.over or pending(game)[1] == "build.action"


def refused(game: Game, choice: tuple[Any, ...]) -> str:
    """The id of the rule that refuses ``choice``; the state is untouched."""
    before = game.state.to_json()
    with pytest.raises(IllegalChoice) as err:
        game.apply(choice)
    assert game.state.to_json() == before
    assert err.value.rule is not None, err.value
    return err.value.rule.id


def tracks(game: Game, player: str) -> tuple[int, int, int]:
    lv = levels(game)[player]
    return lv["trade"], lv["culture"], lv["military"]


# --- EX-BUILD-1: nine resources buy one caravan and two legions ------------------------


def test_nine_resources_buy_a_caravan_and_two_legions(rules: Ruleset) -> None:
    """Rome (Caesar: no payment power) holds the nine resources of the example."""
    game = game_at(rules, blank=True, screens={"rome": NINE})
    pos.set_marker(game, "LATIUM", "rome")
    pos.set_marker(game, "ITALIA", "rome")
    turn(game, "rome")
    before = counted(game)["rome"]
    caravan, market = ("building", "ITALIA", 0), ("building", "ITALIA", 2)
    assert caravan in options(game)
    # no set of 6: neither a market nor a temple
    assert market not in options(game)
    assert ("building", "LATIUM", 4) not in options(game)
    assert refused(game, market) == "payment-set"
    buy(game, caravan, COINS)
    buy(game, ("legion", "ITALIA"), ("grain", "sheep", "wood"))
    buy(game, ("legion", "LATIUM"), ("gladiators", "gold", "grain"))
    assert game.state.screens["rome"] == {}
    assert options(game) == (("end",),)
    after = counted(game)["rome"]
    assert after["trade"] - before["trade"] == 1
    assert after["military"] - before["military"] == 2
    assert after["culture"] == before["culture"]


# --- EX-BUILD-5: where a control marker may be placed ----------------------------------


def greek_north(rules: Ruleset) -> Game:
    """Greek markers in DACIA, THRACIA and ACHAEA; Greece has 9 coins."""
    game = game_at(rules, blank=True, screens={"greece": {"coin": 9}})
    for prov in ("DACIA", "THRACIA", "ACHAEA"):
        pos.set_marker(game, prov, "greece")
    return game


def test_marker_sites_fr_pl_uk(rules: Ruleset) -> None:
    """State S1: a Greek trireme in PONTUS EUXINUS, MACEDONIA Roman, a Roman legion in
    DALMATIA."""
    game = greek_north(rules)
    pos.add_units(game, "greece", "PONTUS EUXINUS", "trireme")
    pos.set_marker(game, "MACEDONIA", "rome")
    pos.add_units(game, "rome", "DALMATIA", "legion")
    turn(game, "greece")
    # GERMANIA: beside DACIA; ASIA (and CAPPADOCIA): connected by the trireme
    assert sites(game) == {"GERMANIA", "ASIA", "CAPPADOCIA"}
    assert refused(game, ("marker", "MACEDONIA")) == "marker-placement"  # not neutral
    assert refused(game, ("marker", "DALMATIA")) == "marker-placement"  # a Roman legion


def test_marker_sites_nl(rules: Ruleset) -> None:
    """State S2: no Greek trireme, DALMATIA Roman, a Roman legion in MACEDONIA."""
    game = greek_north(rules)
    pos.set_marker(game, "DALMATIA", "rome")
    pos.add_units(game, "rome", "MACEDONIA", "legion")
    turn(game, "greece")
    assert sites(game) == {"GERMANIA"}
    for prov in ("ASIA", "DALMATIA", "MACEDONIA"):
        assert refused(game, ("marker", prov)) == "marker-placement", prov


def test_marker_sites_nl_with_a_trireme_in_the_aegean(rules: Ruleset) -> None:
    """NL: "Hij zou een controlefiche hebben mogen bouwen in Asia, als hij een trireme
    had in een van de zeeën die zijn provincies verbindt met Asia"."""
    game = greek_north(rules)
    pos.set_marker(game, "DALMATIA", "rome")
    pos.add_units(game, "rome", "MACEDONIA", "legion")
    pos.add_units(game, "greece", "MARE AEGAEUM", "trireme")
    turn(game, "greece")
    assert sites(game) == {"GERMANIA", "ASIA", "CRETE"}


def test_a_marker_placed_this_phase_is_not_a_base(rules: Ruleset) -> None:
    game = greek_north(rules)
    turn(game, "greece")
    assert "GALLIA" not in sites(game)
    buy(game, ("marker", "GERMANIA"))
    assert game.state.control["GERMANIA"] == "greece"
    # GALLIA borders GERMANIA, which was not Greek when the phase began
    assert "GALLIA" not in sites(game)
    assert refused(game, ("marker", "GALLIA")) == "marker-placement"
    # but Greece may build in GERMANIA at once
    assert ("legion", "GERMANIA") in options(game)
    assert ("building", "GERMANIA", 0) in options(game)
    # the marker changes no track
    assert tracks(game, "greece") == (0, 0, 0)


# --- EX-BUILD-6 / -7: trireme in the Aegean, marker in ASIA, legendary city -----------


def test_trireme_then_marker_then_legendary_city(rules: Ruleset) -> None:
    game = game_at(rules, screens={"greece": {"coin": 9}})
    turn(game, "greece")
    assert tracks(game, "greece") == (4, 4, 3)
    # placing the ASIA marker first is refused: no connection yet
    assert "ASIA" not in sites(game)
    assert refused(game, ("marker", "ASIA")) == "marker-placement"
    buy(game, ("trireme", "MARE AEGAEUM"), COINS)
    assert "ASIA" in sites(game)
    buy(game, ("marker", "ASIA"), COINS)
    troia = ("building", "ASIA", 0)
    assert rules.board.provinces["ASIA"].slots[0].spec == "legendary:TROIA"
    assert troia in options(game)
    buy(game, troia, COINS)
    state = game.state
    assert state.control["ASIA"] == "greece"
    assert state.built["ASIA"] == [True, False]
    assert state.screens["greece"] == {}
    # ASIA has no caravan or market slot
    assert refused(game, ("building", "ASIA", 2)) == "building-placement"
    # EX-BUILD-7: military +1 (the trireme), culture +1 (the legendary city)
    assert tracks(game, "greece") == (4, 5, 4)


# --- EX-BUILD-8: tracks after buying Circe ----------------------------------------------


def test_circe_raises_trade_and_military(fresh_rules: Any) -> None:
    game = game_at(fresh_rules(hw_display="all_face_up"), screens={"egypt": {"coin": 7}})
    turn(game, "egypt")
    assert tracks(game, "egypt") == (4, 4, 2)
    buy(game, ("tile", "circe"), ("coin",) * 7)
    assert game.state.tiles["egypt"] == ["cleopatra", "circe"]
    assert "circe" not in game.state.display
    assert tracks(game, "egypt") == (5, 4, 3)


# --- heroes and wonders: 7/8/9/10, the Pyramids 12 ------------------------------------


def test_hero_and_wonder_prices(fresh_rules: Any) -> None:
    game = game_at(fresh_rules(hw_display="all_face_up"), screens={"rome": {"coin": 34}})
    turn(game, "rome")
    for tile, cost in (("hercules", 7), ("pharos", 8), ("spartacus", 9), ("colossus", 10)):
        play(game, ("tile", tile))
        dec = game.pending
        assert dec is not None
        assert dec.options == (("coin",) * cost,), tile
        play(game, dec.options[0])
    assert game.state.screens["rome"] == {}
    assert game.state.tiles["rome"] == ["caesar", "hercules", "pharos", "spartacus", "colossus"]
    # a sixth is never bought: the fifth wins (at the end of the phase)
    assert refused(game, ("tile", "circe")) == "hero-wonder-purchase"


def test_a_sixth_tile_is_never_offered(fresh_rules: Any) -> None:
    game = game_at(fresh_rules(hw_display="all_face_up"), screens={"rome": {"coin": 12}})
    game.state.tiles["rome"].extend(["hercules", "pharos", "spartacus", "colossus"])
    for tile in game.state.tiles["rome"][1:]:
        game.state.display.remove(tile)
    turn(game, "rome")
    assert [o for o in options(game) if o[0] == "tile"] == [("tile", "pyramids")]
    assert refused(game, ("tile", "circe")) == "hero-wonder-purchase"


def test_pyramids_cost_twelve(fresh_rules: Any) -> None:
    rules = fresh_rules(hw_display="all_face_up")
    game = game_at(rules, screens={"rome": {"coin": 11}})
    turn(game, "rome")
    assert ("tile", "pyramids") not in options(game)
    assert refused(game, ("tile", "pyramids")) == "payment-set"
    game = game_at(rules, screens={"rome": {"coin": 12}})
    turn(game, "rome")
    play(game, ("tile", "pyramids"))
    dec = game.pending
    assert dec is not None and dec.options == (("coin",) * 12,)
    play(game, dec.options[0])
    assert "pyramids" in game.state.tiles["rome"]
    assert game.state.screens["rome"] == {}
    # (what the Pyramids win, and when, is the victory rules' business)


def test_only_face_up_tiles_can_be_bought(rules: Ruleset) -> None:
    game = game_at(rules, screens={"rome": {"coin": 9}})
    hidden = game.state.display_hidden[0]
    turn(game, "rome")
    tiles = {o[1] for o in options(game) if o[0] == "tile"}
    assert tiles == set(game.state.display) - {"pyramids"}
    assert refused(game, ("tile", hidden)) == "hero-wonder-purchase"


@pytest.mark.parametrize("refill", ["end_of_phase", "end_of_turn"])
def test_display_refill(fresh_rules: Any, refill: str) -> None:
    game = game_at(fresh_rules(hw_refill=refill), screens={"rome": {"coin": 7}})
    state = game.state
    bought = state.display[0]
    coming = state.display_hidden[-1]
    turn(game, "rome")
    buy(game, ("tile", bought))
    assert len(state.display) == 5 and "pyramids" in state.display
    play(game, ("end",))
    assert pending(game) == ("egypt", "build.next")
    if refill == "end_of_turn":  # UK 3.1.3
        assert coming in state.display and len(state.display) == 6
    else:
        assert coming not in state.display and len(state.display) == 5
    while (dec := game.pending) is not None and dec.kind.startswith("build."):
        play(game, ("end",) if dec.kind == "build.action" else dec.options[0])
    assert sorted(state.display) == state.display
    assert coming in state.display and bought not in state.display
    assert len(state.display) == 6 and len(state.display_hidden) == 11


def test_all_face_up_display_has_nothing_to_refill(fresh_rules: Any) -> None:
    game = game_at(fresh_rules(hw_display="all_face_up"), screens={"rome": {"coin": 7}})
    turn(game, "rome")
    buy(game, ("tile", "hercules"))
    while (dec := game.pending) is not None and dec.kind.startswith("build."):
        play(game, ("end",) if dec.kind == "build.action" else dec.options[0])
    assert len(game.state.display) == 17


# --- at war, the capital exception, one fortress, limits --------------------------------


def egypt_invaded(rules: Ruleset) -> Game:
    """Roman legions in CYRENAICA and in AEGYPTUS, Egypt's capital province."""
    game = game_at(rules, blank=True, screens={"egypt": {"coin": 9}})
    pos.set_marker(game, "AEGYPTUS", "egypt")
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    pos.add_units(game, "rome", "AEGYPTUS", "legion")
    return game


def test_at_war_province_refuses_building(rules: Ruleset) -> None:
    game = egypt_invaded(rules)
    turn(game, "egypt")
    for choice in (("legion", "CYRENAICA"), ("fortress", "CYRENAICA"),
                   ("building", "CYRENAICA", 0), ("trireme", "MARE AFRICUM")):
        assert choice not in options(game)
        assert refused(game, choice) == "at-war", choice


def test_capital_province_is_always_buildable(rules: Ruleset) -> None:
    """FR 4.5 "Exception" + 4.6; NL/PL/UK 3.1.1, 4.3.5."""
    game = egypt_invaded(rules)
    turn(game, "egypt")
    for choice in (("legion", "AEGYPTUS"), ("fortress", "AEGYPTUS"),
                   ("building", "AEGYPTUS", 0), ("trireme", "MARE AEGYPTIUM")):
        assert choice in options(game), choice
    buy(game, ("fortress", "AEGYPTUS"))
    buy(game, ("building", "AEGYPTUS", 2))  # the city
    buy(game, ("trireme", "MARE AEGYPTIUM"))
    assert game.state.count("AEGYPTUS", "egypt", "fortress") == 1
    assert game.state.count("MARE AEGYPTIUM", "egypt", "trireme") == 1


def test_ukrainian_trireme_reading(fresh_rules: Any) -> None:
    """trireme_anchor: all_adjacent_clean — CYRENAICA at war closes MARE AEGYPTIUM too."""
    game = egypt_invaded(fresh_rules(trireme_anchor="all_adjacent_clean"))
    turn(game, "egypt")
    assert ("trireme", "MARE AEGYPTIUM") not in options(game)
    assert refused(game, ("trireme", "MARE AEGYPTIUM")) == "at-war"


def test_only_in_provinces_you_control(rules: Ruleset) -> None:
    game = game_at(rules, screens={"rome": {"coin": 9}})
    turn(game, "rome")
    assert refused(game, ("legion", "MACEDONIA")) == "build-where"
    assert refused(game, ("building", "DALMATIA", 2)) == "build-where"
    assert refused(game, ("trireme", "MARE AEGYPTIUM")) == "unit-placement"


def test_one_fortress_per_province(rules: Ruleset) -> None:
    game = game_at(rules, screens={"rome": {"coin": 9}})
    turn(game, "rome")
    assert ("fortress", "LATIUM") not in options(game)
    assert refused(game, ("fortress", "LATIUM")) == "one-fortress"
    buy(game, ("fortress", "GALLIA"))
    assert ("fortress", "GALLIA") not in options(game)
    assert refused(game, ("fortress", "GALLIA")) == "one-fortress"
    assert ("fortress", "ITALIA") in options(game)


def test_eight_legions_at_most(rules: Ruleset) -> None:
    game = game_at(rules, screens={"rome": {"coin": 9}})
    pos.add_units(game, "rome", "ITALIA", "legion", 5)
    turn(game, "rome")
    buy(game, ("legion", "ITALIA"))
    assert game.state.pieces["rome"]["legion"] == 0
    assert not any(o[0] == "legion" for o in options(game))
    assert refused(game, ("legion", "LATIUM")) == "component-limit"


def test_five_triremes_five_fortresses_seven_markers(rules: Ruleset) -> None:
    game = game_at(rules, screens={"rome": {"coin": 9}})
    pos.add_units(game, "rome", "MARE TYRRHENUM", "trireme", 5)
    for prov in ("ITALIA", "GALLIA", "DALMATIA", "GERMANIA"):
        pos.add_units(game, "rome", prov, "fortress")
    for prov in ("SICILIA", "CRETE", "JUDAEA", "CILICIA", "ASIA"):
        pos.set_marker(game, prov, "rome")
    turn(game, "rome")
    assert game.state.pieces["rome"] == {"legion": 6, "trireme": 0, "fortress": 0, "marker": 0}
    assert {o[0] for o in options(game)} == {"end", "legion", "building", "tile"}
    assert refused(game, ("trireme", "MARE HADRIATICUM")) == "component-limit"
    assert refused(game, ("fortress", "CRETE")) == "component-limit"
    assert refused(game, ("marker", "DACIA")) == "component-limit"


def test_no_action_removes_a_unit(rules: Ruleset) -> None:
    """NL/PL/UK Q&A 9: never destroy your own unit voluntarily (e.g. to rebuild it)."""
    game = game_at(rules, screens={p: {"coin": 9} for p in ("rome", "egypt")})
    turn(game, "rome")
    assert {o[0] for o in options(game)} <= ACTION_KINDS
    before = game.state.to_json()
    with pytest.raises(IllegalChoice):
        game.apply(("destroy", "LATIUM", "legion"))
    assert game.state.to_json() == before


def test_the_culture_leader_names_each_builder(rules: Ruleset) -> None:
    game = game_at(rules)
    pos.start_phase(game, "build", round=2)
    named: list[str] = []
    while (dec := game.pending) is not None and dec.kind.startswith("build."):
        if dec.kind == "build.next":
            assert dec.player == "egypt"
            assert set(dec.options) == {"rome", "greece", "egypt", "carthage"} - set(named)
            named.append(dec.options[-1])
        play(game, dec.options[-1] if dec.kind == "build.next" else ("end",))
    assert named == ["carthage", "egypt", "greece"]  # Rome, the last, is not named
    assert game.state.phase == "military"


# --- EX-BUILD-9: storage at the end of the build turn ----------------------------------


STORE = {"coin": 3, "grain": 1, "wood": 1, "legendary:gold": 1}


def end_turn(game: Game, *keep: Any) -> None:
    play(game, ("end",), *keep)
    assert pending(game)[1] == "build.next"


def test_storage_two_coins_kept(rules: Ruleset) -> None:
    game = game_at(rules, screens={"rome": STORE})
    supply = dict(game.state.supply)
    turn(game, "rome")
    end_turn(game)
    state = game.state
    assert state.screens["rome"] == {"coin": 2}
    assert state.supply["coin"] == supply["coin"] + 1
    assert state.supply["grain"] == supply["grain"] + 1
    assert state.supply["wood"] == supply["wood"] + 1
    assert state.supply["gold"] == supply["gold"]  # the legendary gold is no ordinary gold
    assert state.legendary_discard == ["gold"]


def test_storage_fewer_coins_kept_as_they_are(rules: Ruleset) -> None:
    game = game_at(rules, screens={"rome": {"coin": 1, "oil": 2}})
    turn(game, "rome")
    end_turn(game)
    assert game.state.screens["rome"] == {"coin": 1}


def test_storage_goods_parameter(fresh_rules: Any) -> None:
    """Hanging Gardens (storage_goods 2): two coins and two goods of different types."""
    game = game_at(fresh_rules(storage_goods=2), screens={"rome": STORE})
    turn(game, "rome")
    play(game, ("end",))
    dec = game.pending
    assert dec is not None and (dec.player, dec.kind) == ("rome", "build.keep")
    assert set(dec.options) == {("grain", "wood"), ("grain", "legendary:gold"),
                                ("legendary:gold", "wood")}
    play(game, ("grain", "wood"))
    assert game.state.screens["rome"] == {"coin": 2, "grain": 1, "wood": 1}
    assert game.state.legendary_discard == ["gold"]


def test_storage_goods_of_one_type_keeps_one(fresh_rules: Any) -> None:
    game = game_at(fresh_rules(storage_goods=2), screens={"rome": {"oil": 2}})
    turn(game, "rome")
    end_turn(game)
    assert game.state.screens["rome"] == {"oil": 1}


# --- more placement cases ------------------------------------------------------------


def test_no_marker_on_the_covered_part_of_the_board(rules: Ruleset) -> None:
    """3 players: CYRENAICA (Egyptian, covered) is out of play though it borders LIBYA."""
    game = game_at(rules, 3, screens={"carthage": {"coin": 9}})
    assert "CYRENAICA" not in game.state.control
    turn(game, "carthage")
    assert sites(game) == {"GARAMANTIA", "PHAZANIA"}
    assert refused(game, ("marker", "CYRENAICA")) == "marker-placement"


def test_own_units_do_not_stop_a_marker(rules: Ruleset) -> None:
    game = game_at(rules, screens={"rome": {"coin": 9}})
    pos.add_units(game, "rome", "DALMATIA", "legion")
    pos.add_units(game, "greece", "GERMANIA", "legion")
    turn(game, "rome")
    assert "DALMATIA" in sites(game)
    assert "GERMANIA" not in sites(game)
    buy(game, ("marker", "DALMATIA"))
    assert game.state.control["DALMATIA"] == "rome"
    assert game.state.pieces["rome"]["marker"] == 4


def test_a_trireme_may_join_enemy_triremes(rules: Ruleset) -> None:
    game = game_at(rules, screens={"carthage": {"coin": 9}})
    pos.add_units(game, "egypt", "MARE AFRICUM", "trireme", 2)
    turn(game, "carthage")
    assert ("trireme", "MARE AFRICUM") in options(game)
    buy(game, ("trireme", "MARE AFRICUM"))
    assert game.state.units["MARE AFRICUM"] == {"egypt": {"trireme": 2},
                                                "carthage": {"trireme": 1}}


def test_a_building_only_on_a_free_slot_of_its_type(rules: Ruleset) -> None:
    game = game_at(rules, screens={"rome": {"coin": 6}})
    turn(game, "rome")
    # LATIUM: caravans and ROMA are built; the market and temple slots are free (6 coins)
    assert game.state.built["LATIUM"] == [True, True, False, True, False]
    assert {o for o in options(game) if o[:2] == ("building", "LATIUM")} == {
        ("building", "LATIUM", 2), ("building", "LATIUM", 4)}
    assert refused(game, ("building", "LATIUM", 1)) == "building-placement"
    assert refused(game, ("building", "LATIUM", 3)) == "building-placement"
    assert refused(game, ("building", "LATIUM", 9)) == "building-placement"
    buy(game, ("building", "LATIUM", 4), ("coin",) * 6)
    assert tracks(game, "rome") == (7, 2, 3)


# --- heroes' and wonders' own ways to build (mn_build_offers) and storage ------------


def face_up_game(fresh_rules: Any, n: int = 4, **screens: dict[str, int]) -> Game:
    return game_at(fresh_rules(hw_display="all_face_up"), n, screens=screens)


def offers(game: Game, item: str | None = None) -> list[tuple[Any, ...]]:
    return [o for o in options(game) if o[0] == "offer" and item in (None, o[2])]


def test_spartacus_is_used_at_once(fresh_rules: Any) -> None:
    """EX-BUILD-4 (FR 3.2): Serge buys Spartacus, then a legion for one token."""
    game = face_up_game(fresh_rules, carthage={"coin": 10, "gladiators": 2})
    turn(game, "carthage")
    assert offers(game) == []
    before = tracks(game, "carthage")
    buy(game, ("tile", "spartacus"), ("coin",) * 7)  # his 2nd tile: 7
    cheap = ("offer", "card:spartacus#0", "legion", "LIBYA")
    assert cheap in offers(game, "legion")
    play(game, cheap)
    dec = game.pending
    assert dec is not None and set(dec.options) == {("coin",), ("gladiators",)}
    play(game, ("gladiators",))
    assert game.state.count("LIBYA", "carthage", "legion") == 1
    assert game.state.screens["carthage"] == {"coin": 3, "gladiators": 1}
    assert tracks(game, "carthage") == (before[0], before[1], before[2] + 1)
    # once per round: a second one-token legion is refused, a 3-cost legion is not
    assert offers(game) == []
    assert refused(game, cheap) == "card-build"
    buy(game, ("legion", "LIBYA"), COINS)
    assert game.state.count("LIBYA", "carthage", "legion") == 2


@pytest.mark.parametrize(("used_in", "cheap_legions"), [("1", 3), ("2", 0)])
def test_spartacus_again_next_round(fresh_rules: Any, used_in: str, cheap_legions: int) -> None:
    game = face_up_game(fresh_rules, carthage={"coin": 2})
    game.state.tiles["carthage"].append("spartacus")
    game.state.display.remove("spartacus")
    game.state.vars["used"] = {"spartacus#0/carthage": used_in}
    turn(game, "carthage")  # round 2
    assert len(offers(game, "legion")) == cheap_legions


@pytest.mark.parametrize(("tile", "item", "price", "where"), [
    ("pharos", "trireme", "wood", "MARE SARDUM"),
    ("gilgamesh", "fortress", "stone", "LIBYA"),
])
def test_one_token_trireme_and_fortress(fresh_rules: Any, tile: str, item: str, price: str,
                                        where: str) -> None:
    game = face_up_game(fresh_rules, carthage={price: 1})
    game.state.tiles["carthage"].append(tile)
    game.state.display.remove(tile)
    turn(game, "carthage")
    choice = ("offer", f"card:{tile}#0", item, where)
    assert choice in offers(game, item)
    play(game, choice)
    dec = game.pending
    assert dec is not None and dec.options == ((price,),)
    play(game, (price,))
    assert game.state.count(where, "carthage", item) == 1
    assert game.state.screens["carthage"] == {}


def test_gilgamesh_still_one_fortress_per_province(fresh_rules: Any) -> None:
    game = face_up_game(fresh_rules, carthage={"coin": 1})
    game.state.tiles["carthage"].append("gilgamesh")
    game.state.display.remove("gilgamesh")
    turn(game, "carthage")
    assert {o[3] for o in offers(game, "fortress")} == {"NUMIDIA", "LIBYA"}  # not AFRICA
    assert refused(game, ("offer", "card:gilgamesh#0", "fortress", "AFRICA")) == "card-build"


def test_hammurabi_free_marker(rules: Ruleset) -> None:
    """Once per round, a control marker for free, by the normal placement rules."""
    game = game_at(rules, 5)
    turn(game, "babylon")
    free = offers(game, "marker")
    assert {o[3] for o in free} == {"ARABIA", "ARMENIA", "CILICIA", "JUDAEA"}
    play(game, ("offer", "card:hammurabi#0", "marker", "CILICIA"))  # no payment asked
    assert pending(game) == ("babylon", "build.action")
    assert game.state.control["CILICIA"] == "babylon"
    assert game.state.pieces["babylon"]["marker"] == 4
    assert offers(game) == []


def test_penthesilea_free_legions_in_the_capital(fresh_rules: Any) -> None:
    """EX-HW-5: enemy units in two Egyptian provinces, AEGYPTUS itself occupied too."""
    game = face_up_game(fresh_rules)
    game.state.tiles["egypt"].append("penthesilea")
    game.state.display.remove("penthesilea")
    pos.add_units(game, "rome", "CYRENAICA", "legion", 3)
    pos.add_units(game, "carthage", "AETHIOPIA", "legion")
    turn(game, "egypt")
    military = tracks(game, "egypt")[2]
    assert offers(game) == [("offer", "card:penthesilea#0", "legion", "AEGYPTUS")]
    play(game, offers(game)[0])
    assert game.state.count("AEGYPTUS", "egypt", "legion") == 3
    assert tracks(game, "egypt")[2] == military + 2
    assert offers(game) == []  # a second batch in the same round is refused


def test_penthesilea_within_the_legion_limit(fresh_rules: Any) -> None:
    game = face_up_game(fresh_rules)
    game.state.tiles["egypt"].append("penthesilea")
    game.state.display.remove("penthesilea")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    pos.add_units(game, "rome", "AETHIOPIA", "legion")
    pos.add_units(game, "egypt", "AEGYPTUS", "legion", 6)  # 7 on the board
    turn(game, "egypt")
    play(game, ("offer", "card:penthesilea#0", "legion", "AEGYPTUS"))
    assert game.state.pieces["egypt"]["legion"] == 0
    assert game.state.count("AEGYPTUS", "egypt", "legion") == 8


def test_hanging_gardens_keep_two_goods(fresh_rules: Any) -> None:
    """EX-BUILD-9, test 2, with the wonder itself."""
    game = face_up_game(fresh_rules, rome={"coin": 10, "grain": 1, "wood": 1,
                                           "legendary:gold": 1})
    turn(game, "rome")
    buy(game, ("tile", "hanging_gardens"), ("coin",) * 7)
    play(game, ("end",))
    dec = game.pending
    assert dec is not None and (dec.player, dec.kind) == ("rome", "build.keep")
    play(game, ("grain", "legendary:gold"))
    assert game.state.screens["rome"] == {"coin": 2, "grain": 1, "legendary:gold": 1}
    assert game.state.supply["wood"] == 5


def test_perseus_claims_the_first_build_turn(fresh_rules: Any) -> None:
    """EX-VICT-1: the culture leader must name Perseus' holder first when he can win."""
    game = face_up_game(fresh_rules, greece={"coin": 10})
    for t in ("perseus", "hamilcar", "ramesses"):
        game.state.tiles["greece"].append(t)
        game.state.display.remove(t)
    pos.start_phase(game, "build", round=2)
    assert pending(game) == ("greece", "build.claim_first")  # he may (NL 10)
    play(game, "yes")
    dec = game.pending
    assert dec is not None and (dec.player, dec.kind) == ("egypt", "build.next")
    assert dec.options == ("greece",)
    assert refused(game, "rome") == "first-build-turn"
    play(game, "greece")
    buy(game, ("tile", "pharos"), ("coin",) * 10)  # his 5th: he wins at once, alone
    assert game.over and game.state.winners == ["greece"]


def test_perseus_without_the_means_claims_nothing(fresh_rules: Any) -> None:
    game = face_up_game(fresh_rules, greece={"coin": 9})
    for t in ("perseus", "hamilcar", "ramesses"):
        game.state.tiles["greece"].append(t)
        game.state.display.remove(t)
    pos.start_phase(game, "build", round=2)
    dec = game.pending
    assert dec is not None and set(dec.options) == {"rome", "greece", "egypt", "carthage"}
