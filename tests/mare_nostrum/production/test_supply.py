"""The general supply (FR Matériel; NL/PL/UK components, 1.1, Q&A 9; digest §2, §6.3): it
is finite, and what has run out cannot be taken, but the last one can; a legendary good
is drawn from its pile, whose discard is shuffled in only once the pile is empty; what
is paid goes back to the supply, a legendary good to its discard, a pillaged building
to the supply."""

from __future__ import annotations

from conftest import pending, play
from mare_nostrum import position as pos
from mare_nostrum.supply import give_back, take
from mnrules.content.ruleset import Ruleset
from test_movement import empty_board
from test_production import blank, build


def test_the_last_coin_in_the_supply_may_still_be_chosen_and_taken(rules: Ruleset) -> None:
    """A legendary city with a temple: a coin, a legendary good, and a coin or a
    legendary good of the owner's choice. With two coins left in the supply, the first
    is collected and the choice still offers the last one, which Greece takes."""
    game = blank(rules)
    build(game, "greece", "ASIA", "legendary", "temple")
    pos.give(game, "rome", {"coin": game.state.supply["coin"] - 2})
    game.force("legendary draw", ["sheep"])
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("greece", "collect.choice")
    assert set(game.legal()) == {"coin", "legendary"}
    play(game, "coin")
    assert game.state.screens["greece"] == {"coin": 2, "legendary:sheep": 1}
    assert game.state.supply["coin"] == 0


def test_the_discard_is_shuffled_in_only_when_the_pile_is_empty(rules: Ruleset) -> None:
    """A legendary good is drawn from the pile while it holds any; the discard (here the
    wine paid earlier) waits until the pile runs out."""
    game = blank(rules)
    state = game.state
    state.legendary_pile.remove("wine")
    state.legendary_discard.append("wine")
    pile = len(state.legendary_pile)
    build(game, "greece", "ASIA", "legendary")
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("carthage", "trade.token")
    assert state.legendary_discard == ["wine"]
    assert len(state.legendary_pile) == pile - 1
    assert "legendary:wine" not in state.screens["greece"]


def test_what_is_paid_goes_back_to_the_supply_or_the_legendary_discard(
        rules: Ruleset) -> None:
    game = blank(rules)
    state = game.state
    pos.give(game, "rome", {"coin": 3, "legendary:oil": 1})
    coins = state.supply["coin"]
    give_back(state, "rome", "coin", 2)
    give_back(state, "rome", "legendary:oil")
    assert state.screens["rome"].get("coin") == 1
    assert not state.screens["rome"].get("legendary:oil")
    assert state.supply["coin"] == coins + 2
    assert state.legendary_discard == ["oil"]


def test_taking_gives_what_the_supply_holds_and_says_how_many(rules: Ruleset) -> None:
    """A player told to take two wine with one left in the supply gets that one."""
    game = blank(rules)
    pos.give(game, "greece", {"wine": game.state.supply["wine"] - 1})
    assert take(game, "rome", "wine", 2) == 1
    assert game.state.screens["rome"] == {"wine": 1}
    assert take(game, "rome", "wine", 2) == 0
    assert take(game, "rome", "coin", 3) == 3


def test_a_pillaged_building_goes_back_to_the_supply(rules: Ruleset) -> None:
    """4.3.1: the pillaged building is destroyed, its token back in the supply, and the
    conqueror takes a coin for a city."""
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    i = pos.build(game, "CYRENAICA", "city")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    cities = game.state.supply["city"]
    pos.start_phase(game, "military", round=2)
    play(game, "rome", ("done",))
    assert pending(game) == ("rome", "conquest.choose")
    play(game, ("pillage", i))
    assert game.state.supply["city"] == cities + 1
    assert not game.state.built["CYRENAICA"][i]
    assert game.state.screens["rome"]["coin"] >= 1
