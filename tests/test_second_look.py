"""Rules under a second look (issue 17, items 1-6), written like the books' examples."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conftest import pending, play
from mare_nostrum import position as pos
from mare_nostrum.battle import hits, side_for
from mnrules.content.ruleset import Ruleset
from test_editions import FOUR, build_phase, build_turn, finish_phase, pack

OTHER_FOUR = ["antigone", "hercules", "gilgamesh"]  # with his starting hero, four tiles


# -- 1. FR/PL 6.1: nobody built the Pyramids --------------------------------------------------
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


# -- 2. who shares the fifth-tile win: FR could buy, PL built ---------------------------------
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


# -- 3. Circe: the player chooses the slot his legion stands on -------------------------------
def test_circe_the_legion_stands_on_the_caravan_slot_its_player_chooses() -> None:
    """NL 10 Circe: the legion is placed on the goods symbol. Rome holds Circe; one Roman
    legion stands in LATIUM, whose two caravan slots (metal, wine) are empty. Rome
    chooses the wine slot, not the first slot in file order."""
    from test_production import blank, collect, own

    game = blank(pack("nl"))
    own(game, "rome", "circe")
    pos.add_units(game, "rome", "LATIUM", "legion")
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("rome", "collect.choice")
    assert set(game.legal()) == {"metal", "wine"}
    play(game, "wine")
    assert game.state.screens["rome"] == {"wine": 1}
    # two legions stand on both slots: no choice
    game = blank(pack("nl"))
    own(game, "rome", "circe")
    pos.add_units(game, "rome", "LATIUM", "legion", 2)
    assert collect(game) == {"rome": {"metal": 1, "wine": 1}}


# -- 4. Perseus is a "you may" -----------------------------------------------------------------
def test_perseus_holder_may_let_the_culture_leader_name_whom_he_likes() -> None:
    """NL 10 Perseus « Je mag de culturele leider negeren » (you may ignore the culture
    leader). Greece holds Perseus and four tiles with 10 coins, and could win by
    building first; he declines. Egypt, the culture leader, names anyone."""
    game = build_phase("nl", "egypt", {"greece": ["perseus", "hamilcar", "ramesses"]},
                       {"greece": 10, "rome": 10})
    assert pending(game) == ("greece", "build.claim_first")
    assert set(game.legal()) == {"yes", "no"}
    play(game, "no")
    dec = game.pending
    assert dec is not None and (dec.player, dec.kind) == ("egypt", "build.next")
    assert set(dec.options) == set(game.state.players)
    play(game, "rome")  # Rome builds first: the order is the culture leader's
    assert pending(game) == ("rome", "build.action")


# -- 5. the French fortress adds 5, not the hit divisor -----------------------------------------
def test_a_fortress_adds_five_whatever_the_dice_total_per_hit(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """FR 4.2: a fortress adds 5 to its owner's dice total (and cancels one hit). A
    variant that scores a hit per 4 (hit_divisor: 4) keeps the +5: Egypt's legion rolls
    III, +5 for the fortress = 8, two hits at 4 a hit (with +4 it would be 7: one)."""
    from test_battle import BATTLE, fortress_game

    rules = fresh_rules("fr", hit_divisor=4, fortress_model="plus_five")
    game = fortress_game(rules, 3, 1, fortress=True, attacker="rome")
    rome, egypt = side_for(game, BATTLE, "rome"), side_for(game, BATTLE, "egypt")
    assert (egypt.bonus, egypt.shield) == (5, 1)
    assert hits(3, egypt, rome, 4) == 2


# -- 6. UK conversion timing: the book's own example --------------------------------------------
@pytest.mark.parametrize("edition", ["uk", "fr"])
def test_uk_conversion_at_the_end_of_the_roman_turn_as_its_example(edition: str) -> None:
    """UK 4.3.3, example: « Якщо червоний Легіон залишиться на жовтому Жетоні контролю у
    кінці наступної Фази бойових дій гравця за Рим, то жовтий жетон можна буде замінити
    на червоний ». Rome's legion stood on Egypt's marker in CYRENAICA last round; at the
    end of Rome's Move & Fight turn this round the marker is Roman, before Egypt and the
    others play (as FR 4.3.3 « À la fin de sa Phase Militaire du prochain tour »)."""
    from test_conquest import marker_occupied, rome_turn

    game = marker_occupied(pack(edition))
    assert rome_turn(game, []) == ["egypt"]  # still Egypt's as Rome's turn begins
    assert game.state.control["CYRENAICA"] == "rome"  # Egypt has not played yet
