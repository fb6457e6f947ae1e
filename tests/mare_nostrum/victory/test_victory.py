"""Victory (EX-VICT-2 to -4): four capitals and/or legendary cities at the end of
Move & Fight, all three titles at the end of Phase 5, the Pyramids and the fifth hero or
wonder under both `build_victory` readings."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conftest import pending, play
from mare_nostrum import position as pos
from mare_nostrum.position import (
    add_units,
    build,
    face_up,
    give,
    give_tiles,
    set_marker,
    start_phase,
)
from mare_nostrum.victory import great_cities
from mnrules import Game
from mnrules.content.ruleset import Ruleset
from test_claims import buy
from test_movement import empty_board, units

ALEXANDRIA = 3  # AEGYPTUS slots: caravan, market, city, capital:ALEXANDRIA, temple


def finish_phase(game: Game) -> None:
    phase, rnd = game.state.phase, game.state.round
    while game.pending is not None and (game.state.phase, game.state.round) == (phase, rnd):
        play(game, game.legal()[0])


# -- EX-VICT-3: four capitals and/or legendary cities -----------------------------------------
def three_great_cities(rules: Ruleset) -> Game:
    """Rome controls ROMA, TROIA and SYRACUSAE; one legion stands alone in AEGYPTUS."""
    game = empty_board(rules)
    build(game, "LATIUM", "capital")
    for prov in ("ASIA", "SICILIA"):
        set_marker(game, prov, "rome")
        build(game, prov, "legendary")
    build(game, "AEGYPTUS", "capital")
    add_units(game, "rome", "AEGYPTUS", "legion")
    add_units(game, "egypt", "JUDAEA", "legion", 2)  # Egypt may come back later
    start_phase(game, "military")
    assert great_cities(game)["rome"] == 3
    return game


def test_ex_vict_3_four_cities_win_at_the_end_of_move_and_fight(rules: Ruleset) -> None:
    game = three_great_cities(rules)
    play(game, "rome", ("done",), ("occupy", ALEXANDRIA))
    assert great_cities(game)["rome"] == 4
    assert not game.over  # only at the end of the phase, after every player's turn
    play(game, "egypt", ("done",))  # Egypt stays in Judaea
    finish_phase(game)
    assert game.over
    assert (game.state.winners, game.state.victory) == (["rome"], "conquest")


def test_ex_vict_3_a_pillaged_capital_does_not_count(rules: Ruleset) -> None:
    game = three_great_cities(rules)
    play(game, "rome", ("done",), ("pillage", ALEXANDRIA))
    assert great_cities(game)["rome"] == 3
    finish_phase(game)
    assert not game.over


def test_ex_vict_3_four_at_the_end_of_a_turn_is_not_enough(rules: Ruleset) -> None:
    game = three_great_cities(rules)
    play(game, "rome", ("done",), ("occupy", ALEXANDRIA))
    # Egypt, acting later, retakes Alexandria: two legions against one.
    game.force("land die", [5, 0, 0])
    play(game, "egypt", ("move", "JUDAEA", "AEGYPTUS"), ("move", "JUDAEA", "AEGYPTUS"))
    assert units(game, "AEGYPTUS") == {"egypt": {"legion": 2}}
    assert great_cities(game)["rome"] == 3
    finish_phase(game)
    assert not game.over


def test_ex_vict_3_two_players_share_the_win(rules: Ruleset) -> None:
    game = empty_board(rules)
    # Rome: ROMA, SYRACUSAE, TROIA and (to occupy) CARTHAGO.
    build(game, "LATIUM", "capital")
    for prov in ("ASIA", "SICILIA"):
        set_marker(game, prov, "rome")
        build(game, prov, "legendary")
    build(game, "AFRICA", "capital")
    add_units(game, "rome", "AFRICA", "legion")
    # Greece: ATHENAE, IERUSALEM and (to occupy) ALEXANDRIA and BABYLON.
    build(game, "ACHAEA", "capital")
    set_marker(game, "JUDAEA", "greece")
    build(game, "JUDAEA", "legendary")
    build(game, "AEGYPTUS", "capital")
    build(game, "BABYLONIA", "capital")
    add_units(game, "greece", "AEGYPTUS", "legion")
    add_units(game, "greece", "BABYLONIA", "legion")
    start_phase(game, "military")
    play(game, "rome", ("done",), ("occupy", 3))  # AFRICA: caravan, caravan, market, capital
    play(game, "greece", ("done",))
    for _ in range(2):
        assert pending(game) == ("greece", "conquest.choose")
        capital = next(c for c in game.legal() if c[0] == "occupy")
        play(game, capital)
    assert great_cities(game) == {"rome": 4, "greece": 4, "babylon": 0, "egypt": 0,
                                  "carthage": 0}
    finish_phase(game)
    assert (game.state.winners, game.state.victory) == (["rome", "greece"], "conquest")


# -- EX-VICT-4: all three titles --------------------------------------------------------------
def test_ex_vict_4_all_three_titles_at_the_end_of_phase_5(rules: Ruleset) -> None:
    game = empty_board(rules)
    build(game, "LATIUM", "capital")                # culture 1
    build(game, "LATIUM", "caravan:metal")          # trade 1
    add_units(game, "rome", "LATIUM", "legion")     # military 1
    start_phase(game, "claims")
    assert game.over
    assert (game.state.winners, game.state.victory) == (["rome"], "leadership")
    assert game.state.titles == {"trade": "rome", "culture": "rome", "military": "rome"}


def test_ex_vict_4_three_titles_before_phase_5_are_not_a_win(rules: Ruleset) -> None:
    game = empty_board(rules)
    build(game, "LATIUM", "caravan:metal")
    add_units(game, "rome", "LATIUM", "legion")
    build(game, "ACHAEA", "capital")                # Greece leads culture
    game.state.titles = {"trade": "rome", "culture": "rome", "military": "rome"}
    start_phase(game, "military")
    finish_phase(game)                              # Move & Fight, then Claims: no win
    assert not game.over
    assert game.state.round == 2
    assert game.state.titles == {"trade": "rome", "culture": "greece", "military": "rome"}


# -- EX-VICT-2: the Pyramids and the fifth hero or wonder -------------------------------------
def own(game: Game, player: str, tiles: list[str]) -> None:
    give_tiles(game, player, *tiles)


def build_phase(rules: Ruleset, culture: str, fourth: dict[str, list[str]],
                coins: dict[str, int]) -> Game:
    game = empty_board(rules)
    for player, tiles in fourth.items():
        own(game, player, tiles)
    face_up(game, "colossus", "pharos", "hercules")
    for player, n in coins.items():
        give(game, player, {"coin": n})
    game.state.titles["culture"] = culture
    start_phase(game, "build")
    return game


FOUR = {"rome": ["antigone", "circe", "gilgamesh"],
        "greece": ["hamilcar", "queen_of_sheba", "ramesses"],
        "carthage": ["spartacus", "penthesilea", "nebuchadnezzar"]}


def turn(game: Game, player: str, *tiles: str) -> None:
    """The culture leader names ``player``, who buys these tiles and ends his turn."""
    leader = game.state.titles["culture"]
    assert pending(game) == (leader, "build.next")
    play(game, player)
    buy(game, *[("tile", t) for t in tiles])
    if not game.over:
        play(game, ("end",))


def test_pyramids_win_at_once_under_timed(rules: Ruleset) -> None:
    game = build_phase(rules, "egypt", {}, {"carthage": 12, "rome": 12})
    assert "pyramids" in game.state.display
    turn(game, "carthage", "pyramids")
    assert game.over  # Rome never builds
    assert (game.state.winners, game.state.victory) == (["carthage"], "prestige")
    assert game.state.tiles["carthage"] == ["hannibal", "pyramids"]


@pytest.mark.parametrize(("culture", "winners"), [
    ("greece", ["greece"]),           # the culture leader among them wins alone
    ("egypt", ["rome", "greece"]),    # neither leads culture: they share
])
def test_fifth_tile_wins_at_the_end_of_the_build_phase(rules: Ruleset, culture: str,
                                                       winners: list[str]) -> None:
    game = build_phase(rules, culture, FOUR, {"rome": 10, "greece": 10})
    assert game.legal()  # the leader's choice of who builds first
    turn(game, "rome", "colossus")
    assert not game.over  # a fifth tile wins only at the end of the phase
    turn(game, "greece", "pharos")
    assert not game.over
    finish_phase(game)
    assert (game.state.winners, game.state.victory) == (winners, "fifth")


def test_pyramids_later_in_the_phase_beat_a_fifth_tile(rules: Ruleset) -> None:
    game = build_phase(rules, "rome", FOUR, {"rome": 10, "greece": 12})
    turn(game, "rome", "colossus")
    turn(game, "greece", "pyramids")
    assert (game.state.winners, game.state.victory) == (["greece"], "prestige")


@pytest.mark.parametrize("model", ["timed", "leader_priority"])
@pytest.mark.parametrize("tile", ["pharos", "pyramids"])
def test_ex_vict_1_perseus_wins_at_once_and_alone(fresh_rules: Callable[..., Ruleset],
                                                  model: str, tile: str) -> None:
    """Perseus' holder buys his fifth tile or the Pyramids: he wins at once, alone, even
    when he does not lead culture and another player could win in the same phase."""
    four = {"rome": FOUR["rome"], "greece": ["hamilcar", "perseus", "ramesses"]}
    game = build_phase(fresh_rules(build_victory=model), "rome", four,
                       {"rome": 10, "greece": 12})
    assert pending(game) == ("greece", "build.claim_first")
    play(game, "yes")  # he claims the first build turn (he may)
    turn(game, "greece", tile)
    assert game.over  # Rome, the culture leader, never builds his fifth
    assert (game.state.winners, game.state.victory) == (
        ["greece"], "fifth" if tile == "pharos" else "prestige")


def test_a_fourth_tile_is_not_a_win(rules: Ruleset) -> None:
    game = build_phase(rules, "egypt", {"rome": ["antigone", "circe"]}, {"rome": 9})
    turn(game, "rome", "hercules")  # the 4th costs 9
    finish_phase(game)
    assert not game.over


# -- the leader_priority reading (FR/PL 6.1) --------------------------------------------------
@pytest.fixture
def priority(fresh_rules: Callable[..., Ruleset]) -> Ruleset:
    return fresh_rules(build_victory="leader_priority")


def test_priority_culture_leader_wins_at_once_with_his_fifth(priority: Ruleset) -> None:
    game = build_phase(priority, "greece", FOUR, {"rome": 10, "greece": 10})
    turn(game, "greece", "pharos")
    assert game.over  # Rome, who could also have built his fifth, never builds
    assert (game.state.winners, game.state.victory) == (["greece"], "fifth")


def test_priority_culture_leader_wins_at_once_with_the_pyramids(priority: Ruleset) -> None:
    game = build_phase(priority, "greece", {}, {"greece": 12})
    turn(game, "greece", "pyramids")
    assert (game.state.winners, game.state.victory) == (["greece"], "prestige")


def test_priority_others_win_at_the_end_of_the_phase(priority: Ruleset) -> None:
    game = build_phase(priority, "egypt", FOUR, {"rome": 12, "greece": 10})
    turn(game, "rome", "pyramids")
    assert not game.over  # not the culture leader: the phase goes on
    turn(game, "greece", "pharos")
    assert not game.over
    finish_phase(game)
    # Those who built the Pyramids take precedence over a fifth tile.
    assert (game.state.winners, game.state.victory) == (["rome"], "prestige")


def test_priority_fifth_tiles_share(priority: Ruleset) -> None:
    game = build_phase(priority, "egypt", FOUR, {"rome": 10, "carthage": 10})
    turn(game, "carthage", "pharos")
    turn(game, "rome", "colossus")
    finish_phase(game)
    assert (game.state.winners, game.state.victory) == (["rome", "carthage"], "fifth")


ROME_FOUR = {"rome": FOUR["rome"], "greece": FOUR["greece"]}


def test_three_titles_win_only_at_the_end_of_the_claims_phase(rules: Ruleset) -> None:
    """Kills: ``phase == "claims"`` → ``phase != "claims"`` in ``victory.mn_phase_end``.

    Rome holds all three titles through the Trade phase: that is no win until Phase 5."""
    game = empty_board(rules)
    game.state.titles = {"trade": "rome", "culture": "rome", "military": "rome"}
    pos.start_phase(game, "trade", round=2)
    finish_phase(game)  # the whole Trade phase
    assert game.state.phase != "trade"
    assert not game.over


def test_only_built_capitals_and_legendary_cities_count_for_conquest(rules: Ruleset) -> None:
    """Kills: ``if b and slots[i].kind in kinds`` → ``or`` in ``victory.great_cities``.

    Rome's markers stand on four provinces with capital or legendary slots, none built,
    and CYRENAICA holds his caravan, market, city and temple: he controls no great city,
    so the end of Move & Fight is no conquest victory."""
    game = empty_board(rules)
    for prov in ("ASIA", "SICILIA", "JUDAEA", "CYRENAICA"):
        pos.set_marker(game, prov, "rome")  # plus LATIUM, his printed capital
    for spec in ("caravan", "market", "city", "temple"):
        pos.build(game, "CYRENAICA", spec)
    pos.start_phase(game, "military")
    finish_phase(game)
    assert game.state.phase != "military"
    assert not game.over


def test_able_every_player_able_to_buy_his_fifth_shares_the_win(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """Kills, under ``build_victory: able``: deleting the shared fifth-tile victory at the
    end of the build phase; judging who can buy a fifth tile with ``+ 2`` (Carthage, with
    three tiles, would count) or with ``>`` (nobody would count, so Rome would not share).

    FR 6.1: Rome and Greece own four tiles and 10 coins each as the phase starts; neither
    leads culture. Greece builds his fifth, Rome builds nothing: both win, Carthage (three
    tiles, who could only buy his fourth) does not."""
    rules = fresh_rules(build_victory="able")
    game = build_phase(rules, "egypt",
                       {**ROME_FOUR, "carthage": ["spartacus", "penthesilea"]},
                       {"rome": 10, "greece": 10, "carthage": 10})
    turn(game, "greece", "pharos")
    assert not game.over  # another could win too: the phase goes on
    turn(game, "rome")    # Rome buys nothing
    finish_phase(game)
    assert game.over
    assert (set(game.state.winners), game.state.victory) == ({"rome", "greece"}, "fifth")


def test_able_a_fifth_built_by_one_who_was_not_able_at_the_start_still_wins(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """Kills, under ``build_victory: able``: deleting ``or p in fifth`` (the win of someone
    who built though nobody was able at the start of the phase).

    Rome owns three tiles: as the phase starts he cannot buy a fifth. In one turn he buys
    his fourth (9) and his fifth (10): he wins at the end of the phase."""
    rules = fresh_rules(build_victory="able")
    game = empty_board(rules)
    pos.give_tiles(game, "rome", "antigone", "circe")
    pos.set_display(game, ["colossus", "hercules"])
    pos.give(game, "rome", {"coin": 19})
    game.state.titles["culture"] = "egypt"
    pos.start_phase(game, "build")
    turn(game, "rome", "hercules", "colossus")
    finish_phase(game)
    assert game.over
    assert (game.state.winners, game.state.victory) == (["rome"], "fifth")
