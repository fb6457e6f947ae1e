"""The heuristic bot's sense of threat (bots/threat.py): players block the leader. An
empire one tile from his fifth is denied the last face-up tile, an empire holding two
titles is kept from the third, and his chance of paying falls with what he loses."""

from __future__ import annotations

import pytest

from mare_nostrum.bots import evaluate as ev
from mare_nostrum.bots import threat
from mare_nostrum.bots.common import Memo
from mare_nostrum.bots.heuristic import BuildContext
from mare_nostrum.bots.profiles import PROFILES
from mare_nostrum.position import (
    add_units,
    build,
    give,
    give_tiles,
    set_display,
    set_marker,
    start_phase,
)
from mnrules import Game, new_game
from mnrules.content.ruleset import Ruleset


def greece_builds_first(rules: Ruleset, display: list[str]) -> Game:
    """Three players, the build phase: Carthage holds four heroes and wonders and seven
    types of goods in his income (DACIA's wine and stone caravans besides his own five),
    and has yet to build; Greece, the culture leader, names herself first and holds 9
    coins."""
    game = new_game(rules, 3, seed=1)
    set_marker(game, "DACIA", "carthage")
    build(game, "DACIA", "caravan:wine")
    build(game, "DACIA", "caravan:stone")
    start_phase(game, "build")
    give_tiles(game, "carthage", "hercules", "spartacus", "circe")
    give(game, "carthage", {"coin": 12})
    give(game, "greece", {"coin": 9})
    set_display(game, display)
    dec = game.pending
    assert dec is not None and dec.kind == "build.next" and dec.player == "greece"
    game.apply("greece")
    return game


def context(game: Game, me: str, profile: str = "balanced") -> BuildContext:
    return BuildContext(game, me, Memo(), PROFILES[profile])


def test_the_last_face_up_tile_is_worth_denying_to_an_empire_one_from_his_fifth(
        rules: Ruleset) -> None:
    game = greece_builds_first(rules, ["pharos", "pyramids"])
    assert threat.dangers(game)["carthage"].fifth > 0.05
    assert context(game, "greece").display_denial("pharos") > 5.0


def test_no_denial_while_another_tile_stays_face_up(rules: Ruleset) -> None:
    game = greece_builds_first(rules, ["pharos", "pyramids", "ramesses"])
    assert context(game, "greece").display_denial("pharos") == 0.0


def test_no_denial_once_he_has_built(rules: Ruleset) -> None:
    game = greece_builds_first(rules, ["pharos", "pyramids"])
    for frame in game.state.stack:
        if frame.get("step") == "build":
            frame["done"].append("carthage")
    assert threat.still_to_build(game) == ["rome"]
    assert context(game, "greece").display_denial("pharos") == 0.0


def test_the_naive_profile_has_no_sense_of_threat(rules: Ruleset) -> None:
    game = greece_builds_first(rules, ["pharos", "pyramids"])
    naive = context(game, "greece", "naive")
    balanced = context(game, "greece")
    assert naive.tile_value("pharos") < balanced.tile_value("pharos")


def greece_near_leadership(rules: Ruleset, titles: dict[str, str]) -> Game:
    """Three players: Greece has raised her military to 5 (two more legions) and her
    trade to 7, level with Rome and Carthage (three markets)."""
    game = new_game(rules, 3, seed=1)
    start_phase(game, "build")
    add_units(game, "greece", "ACHAEA", "legion", 2)
    for province in ("ACHAEA", "MACEDONIA", "THRACIA"):
        build(game, province, "market")
    game.state.titles = titles
    return game


def test_an_empire_holding_two_titles_is_kept_from_the_third(rules: Ruleset) -> None:
    game = greece_near_leadership(rules, {"trade": "carthage", "culture": "greece",
                                          "military": "greece"})
    t = ev.table(game)
    assert t.levels["greece"]["trade"] == t.levels["carthage"]["trade"] == 7
    found = threat.dangers(game, t)
    assert found["greece"].leadership > 0.1
    # Carthage, the trade leader, raising his trade level takes from Greece's chance
    assert threat.title_denial(t, "carthage", found, {"trade": 1}) > 1.0
    assert context(game, "carthage").titles_matter


def test_one_title_is_no_leadership_threat(rules: Ruleset) -> None:
    game = greece_near_leadership(rules, {"trade": "carthage", "culture": "greece",
                                          "military": "rome"})
    found = threat.dangers(game)
    assert found["greece"].leadership == 0.0
    assert not context(game, "carthage").titles_matter


def danger(coins: int, types: int, cost: int | None = 10,
           special: int | None = None) -> threat.Danger:
    d = threat.Danger(0.0, 0.0, 0.0, 0.0, coins, types, 99, cost, False, special)
    fifth, prestige = d.build_chances()
    return threat.Danger(fifth, prestige, 0.0, 0.0, coins, types, 99, cost, False, special)


@pytest.mark.parametrize("coins", [8, 10, 12])
def test_the_chance_of_paying_falls_with_what_he_loses(rules: Ruleset, coins: int) -> None:
    game = new_game(rules, 3, seed=1)
    d = danger(coins, 3)
    fifth, _ = d.build_chances(minus=2)
    assert fifth < d.fifth
    assert threat.relief(game, d, 2) > 0.0
    assert threat.relief(game, d, 0) == 0.0


def test_a_coin_feeds_a_coin_payer_and_a_new_good_a_goods_payer(rules: Ruleset) -> None:
    game = new_game(rules, 3, seed=1)
    coin_payer = danger(9, 3)
    goods_payer = danger(2, 9)
    assert threat.feed(game, coin_payer, "coin") > 0.0
    assert threat.feed(game, coin_payer, "wine") == 0.0
    assert threat.feed(game, goods_payer, "wine") > 0.0
    assert threat.feed(game, goods_payer, "coin") == 0.0


def test_the_most_dangerous_opponent_counts_most() -> None:
    found = {"rome": danger(10, 3), "greece": danger(4, 3), "carthage": danger(2, 2)}
    w = threat.weights("carthage", found)
    assert set(w) == {"rome", "greece"}
    assert w["rome"] > w["greece"]
    assert sum(w.values()) == pytest.approx(1.0)
