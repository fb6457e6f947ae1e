"""The personages (book 002, «ЦЕЛЬ ИГРЫ») as their card scripts say what earns each: the
script's number is how many of what it counts earn one (5 cities a king, 3 temples a
citizen, 7 seas a navigator; one general per temple destroyed, one scholar per first
know-how), a card without a script earns nothing, and only personages are held."""

from __future__ import annotations

from pathlib import Path

from a2_helpers import at_turn
from antike2.personages import due, earned, every
from mnrules import load_ruleset
from mnrules.core.invariants import check
from test_personages_victory import cities, end_turn
from test_victory_antike2 import PACK


def test_the_scripts_numbers_are_what_earns_one() -> None:
    """«За каждые 5 городов ... Короля», «За каждые 3 храма ... Гражданина», «За каждые 7
    морей ... 1 Мореплавателя»; a general per temple and a scholar per first know-how
    have no number (one each); Pliny is one card for all eight."""
    game = at_turn({}, "yellow")
    assert {k: every(game, k) for k in ("king", "citizen", "navigator", "general",
                                        "scholar", "pliny")} == \
        {"king": 5, "citizen": 3, "navigator": 7, "general": 0, "scholar": 0, "pliny": 0}


def test_a_general_for_each_temple_destroyed() -> None:
    """«за каждый разрушенный Храм нация получает полководца»: one temple, one general;
    three, three."""
    for n in (1, 3):
        game = at_turn({"destroyed": {"yellow": n}}, "yellow")
        assert earned(game, "yellow", "general") == n
        assert due(game, "yellow") == {"general": n}


def test_a_personage_card_without_a_script_earns_nothing(tmp_path: Path) -> None:
    """A pack may take the king's rule away (its card with no script): ten cities earn
    no king, the other personages are earned as ever."""
    variant = tmp_path / "no_king.yaml"
    variant.write_text(f"extends: {PACK.resolve()}\ncards:\n  override:\n    king:\n"
                       "      effects: \"\"\n", encoding="utf-8")
    rules = load_ruleset(variant)
    game = at_turn({"cities": cities("yellow", 10), "destroyed": {"yellow": 1}}, "yellow",
                   rules=rules)
    assert earned(game, "yellow", "king") == 0
    assert due(game, "yellow") == {"general": 1}
    end_turn(game)
    assert game.state.personages["yellow"] == ["general"]


def test_a_nation_holds_only_personages() -> None:
    """What a nation holds as personages is a personage card of the pack: an unknown
    card, or a know-how, is a broken position the invariants name."""
    game = at_turn({"personages": {"yellow": ["king"]}}, "yellow")
    assert check(game) == []
    game.state.personages["yellow"] += ["emperor", "strata"]
    assert check(game) == ["yellow holds 'emperor', no personage",
                           "yellow holds 'strata', no personage"]


def test_a_personage_may_be_earned_by_any_count_the_words_declare(tmp_path: Path) -> None:
    """A modder's navigator for every 2 galleys on the board ('take 1 navigator per 2
    galleys you have', the generic 'take N CARD per [M] COUNT'): 5 galleys earn two,
    and the two are taken at the end of the turn, as the book's own words' are."""
    variant = tmp_path / "galleys.yaml"
    variant.write_text(f"extends: {PACK.resolve()}\ncards:\n  override:\n    navigator:\n"
                       "      effects: \"after turn.personages: take 1 navigator per 2 "
                       "galleys you have\"\n", encoding="utf-8")
    rules = load_ruleset(variant)
    seas = {"MARE_TYRRHENUM": {"galley": 3}, "MARE_IONIUM": {"galley": 2}}
    game = at_turn({"units": {"yellow": seas}}, "yellow", rules=rules)
    assert earned(game, "yellow", "navigator") == 2
    assert every(game, "navigator") == 2
    end_turn(game)
    assert game.state.personages["yellow"] == ["navigator", "navigator"]
