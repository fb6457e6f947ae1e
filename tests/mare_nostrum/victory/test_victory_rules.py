"""Victory rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

import json

import pytest

from mare_nostrum import api
from mare_nostrum import position as pos
from mnrules import load_ruleset, new_game
from test_editions import FOUR, build_phase, build_turn, finish_phase
from test_movement import empty_board


def test_able_whoever_could_build_the_pyramids_shares_them_once_built() -> None:
    """FR (``build_victory: able``, the digest's Q16 ability reading of « peuvent
    construire »): Egypt leads culture; Rome and Carthage each hold 12 coins, enough for
    the Pyramids. Rome builds them: that wins for both, by the Pyramids' own victory
    (``prestige``), not by a fifth tile, at the end of the Build phase.

    Kills: ``if effects is not None`` -> ``is None`` in ``victory._card_path`` (a special
    wonder's path read as its own name, so nobody able to build it shares its win)."""
    game = build_phase("fr", "egypt", {}, {"rome": 12, "carthage": 12})
    build_turn(game, "rome", "pyramids")
    assert not game.over  # Carthage could build them too: the phase goes on
    finish_phase(game)
    assert "pyramids" not in game.state.tiles["carthage"]
    assert (game.state.winners, game.state.victory) == (["rome", "carthage"], "prestige")


def test_a_fifth_tile_waits_for_the_end_of_the_phase_where_bots_can_see_it() -> None:
    """NL (victory at the end of the Build phase): Rome, not the culture leader, buys his
    fifth tile. Until the phase ends his claim is pending, and what the bots read of it
    is a copy they cannot change the game through; at the end he wins.

    Kills: deleting the ``return`` of ``victory.pending_claims`` (``api``'s view of it)."""
    game = build_phase("nl", "egypt", {"rome": FOUR}, {"rome": 10})
    build_turn(game, "rome", "colossus")
    assert not game.over
    seen = api.pending_build_victories(game)
    assert seen == {"fifth": ["rome"]}
    seen["fifth"].append("carthage")
    assert api.pending_build_victories(game) == {"fifth": ["rome"]}
    finish_phase(game)
    assert (game.state.winners, game.state.victory) == (["rome"], "fifth")


def test_each_players_report_counts_his_great_cities() -> None:
    """What a player reads of the conquest victory (6.3: four capitals and/or legendary
    cities): each empire starts with its capital; Rome, with his marker on SICILIA and
    SYRACUSAE built there, holds two.

    Kills: deleting the ``return`` of ``victory.mn_report``."""
    game = new_game(load_ruleset("en"), 5, seed=1)
    pos.set_marker(game, "SICILIA", "rome")
    pos.build(game, "SICILIA", "legendary")
    report = game.report()
    assert {p: r["great_cities"] for p, r in report.items()} == {
        "rome": 2, "greece": 1, "babylon": 1, "egypt": 1, "carthage": 1}


@pytest.mark.parametrize("edition", ["en", "nl", "fr"])
def test_ability_to_win_by_building_is_judged_only_as_the_build_phase_starts(
        edition: str) -> None:
    """FR 3.2/6.1, PL 6.1 (``build_victory: able``): who could win by building is judged
    as the Build phase starts, and only then; the timed reading (NL/UK) never judges it.
    A game saved in the Trade phase records no such judgement under any reading, nor
    one saved in the Build phase under the timed reading.

    Kills: ``phase != "build" or ... != "able"`` -> ``and`` in ``victory.mn_phase_start``."""
    rules = load_ruleset(edition)
    game = empty_board(rules)
    pos.give(game, "rome", {"coin": 10})
    pos.start_phase(game, "trade", round=2)
    assert "victory.able" not in json.loads(game.state.to_json())["vars"]
    pos.start_phase(game, "build", round=2)
    judged = "victory.able" in json.loads(game.state.to_json())["vars"]
    assert judged is (rules.params["build_victory"] == "able")


OTHER_FOUR = ["antigone", "hercules", "gilgamesh"]  # with his starting hero, four tiles


@pytest.mark.parametrize("edition", ["fr", "pl"])
def test_affording_the_pyramids_without_building_them_wins_nothing(edition: str) -> None:
    """FR 6.1 « Si les Pyramides ne sont pas construites, les joueurs pouvant acheter leur
    cinquième HM gagnent à égalité » (PL 6.1 « Jeśli żaden z graczy nie zbudował piramid,
    wygrywają wszyscy gracze, którzy zbudowali swojego 5. bohatera »). Egypt leads
    culture. Rome holds four tiles and 10 coins and buys his fifth; Carthage holds 12
    coins, could build the Pyramids, but does not. Rome wins alone with his fifth tile."""
    game = build_phase(edition, "egypt", {"rome": FOUR}, {"rome": 10, "carthage": 12})
    build_turn(game, "rome", "colossus")
    assert not game.over  # two players were able: the phase goes on
    finish_phase(game)  # Carthage ends his turn without building
    assert "pyramids" not in game.state.tiles["carthage"]
    assert (game.state.winners, game.state.victory) == (["rome"], "fifth")


@pytest.mark.parametrize(("edition", "winners"), [("fr", ["rome", "carthage"]),
                                                  ("pl", ["rome"])])
def test_fifth_tile_shared_with_who_could_buy_fr_with_who_built_pl(
        edition: str, winners: list[str]) -> None:
    """Rome and Carthage each hold four tiles and 10 coins; Egypt leads culture. Rome
    buys his fifth, Carthage does not. FR 6.1 « les joueurs pouvant acheter leur
    cinquième HM gagnent à égalité »: both win. PL 6.1 « wygrywają wszyscy gracze, którzy
    zbudowali swojego 5. bohatera »: only Rome, who built it."""
    game = build_phase(edition, "egypt", {"rome": FOUR, "carthage": OTHER_FOUR},
                       {"rome": 10, "carthage": 10})
    build_turn(game, "rome", "colossus")
    assert not game.over
    finish_phase(game)  # Carthage ends his turn without building
    assert len(game.state.tiles["carthage"]) == 4
    assert (game.state.winners, game.state.victory) == (winners, "fifth")
