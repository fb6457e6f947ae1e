"""Conquest rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conftest import pending, play
from mare_nostrum import position as pos
from mare_nostrum.conquest import convert_at_once, record_conquest
from mnrules.content.ruleset import Ruleset
from test_cards import sheba
from test_conquest import CARAVAN, MARKET, after_ex_move_3, finish_phase, tracks
from test_movement import empty_board


def test_sheba_cannot_convert_without_a_marker_in_the_box(rules: Ruleset) -> None:
    """4.3.3: the Queen of Sheba converts an occupied marker at once only if her holder
    has a control marker left in his box (a hard limit). Greece has none: Cyrenaica's
    marker is only occupied, and the conquest goes on to Garamantia unasked.

    Kills: ``return False`` -> ``return True`` for an empty box in
    ``conquest.can_convert_now``."""
    game = sheba(rules)
    state = game.state
    free = (p for p in sorted(rules.board.provinces) if state.control.get(p) != "greece"
            and p not in ("CYRENAICA", "GARAMANTIA"))
    while state.pieces["greece"]["marker"] > 0:  # all his markers on the board
        pos.set_marker(game, next(free), "greece")
    play(game, ("marker",))
    assert pending(game) == ("greece", "conquest.choose")
    assert game.state.marker_occupier["CYRENAICA"] == "greece"
    assert game.state.control["CYRENAICA"] == "egypt"


def test_a_battle_that_leaves_both_sides_ends_the_occupation_at_once(rules: Ruleset) -> None:
    """FR 4.5; NL/PL/UK 4.2.1 (digest 9.6): if another player keeps units after a battle,
    the province is at war and the conqueror loses his status there and then, not at the
    end of the turn. Rome occupies Cyrenaica's caravan and market; Carthage marches into
    Cyrenaica, Garamantia and Phazania and fights in Cyrenaica first: nobody scores. With
    two battles still to fight, the buildings are already Egypt's again.

    Kills: ``event.kind != "battle"`` -> ``==`` in ``conquest.mn_triggers`` (the at-war
    trigger that never fires after a battle)."""
    game = after_ex_move_3(rules)
    play(game, ("occupy", CARAVAN), ("occupy", MARKET))
    assert tracks(game, "egypt")[0] == 0
    pos.add_units(game, "carthage", "LIBYA", "legion", 3)
    for prov in ("GARAMANTIA", "PHAZANIA"):
        pos.add_units(game, "egypt", prov, "legion")
    play(game, "carthage", ("move", "LIBYA", "CYRENAICA"), ("move", "LIBYA", "GARAMANTIA"),
         ("move", "LIBYA", "PHAZANIA"))
    assert pending(game) == ("carthage", "military.land")
    game.force("land die", [0, 0, 0])  # Carthage's die, then Rome's two: no hit
    play(game, ("battle", "CYRENAICA", "rome"))
    assert pending(game) == ("carthage", "military.land")  # two battles to go
    assert game.state.occupied["CYRENAICA"] == [None] * 4
    assert tracks(game, "egypt")[0] == 2 and tracks(game, "rome")[0] == 0


def test_a_conqueror_who_left_leaves_the_next_conqueror_his_own_conquest(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """4.3.3: a conqueror whose legions leave the province loses his status. Rome
    occupies Cyrenaica's marker in round 1 and marches both legions home in round 2;
    Carthage then conquers Cyrenaica, occupies the marker and, a round later (FR 4.3.3:
    at the end of his next Military turn), converts it: Rome's old conquest is no
    claim on it.

    Kills: deleting ``status(state).pop(prov, None)`` in ``conquest.tidy`` (the
    departed conqueror's status kept, so Carthage's occupation is recorded as Rome's)."""
    game = after_ex_move_3(fresh_rules(conversion_timing="end_of_next_turn"))
    play(game, ("marker",))
    pos.set_marker(game, "LIBYA", "carthage")
    finish_phase(game)
    pos.start_phase(game, "military", round=2)
    pos.add_units(game, "carthage", "LIBYA", "legion", 2)
    play(game, "rome", ("done",), ("done",),
         ("move", "CYRENAICA", "ITALIA"), ("move", "CYRENAICA", "ITALIA"))
    assert game.state.marker_occupier == {}
    while pending(game) != ("rome", "military.next"):
        play(game, game.legal()[0])
    play(game, "carthage", ("move", "LIBYA", "CYRENAICA"), ("done",))
    assert pending(game) == ("carthage", "conquest.choose")
    play(game, ("marker",))
    assert game.state.marker_occupier == {"CYRENAICA": "carthage"}
    finish_phase(game)
    pos.start_phase(game, "military", round=3)
    play(game, "carthage", ("done",))
    while game.state.control["CYRENAICA"] == "egypt" and pending(game)[0] == "carthage":
        play(game, game.legal()[0])
    assert game.state.control["CYRENAICA"] == "carthage"


@pytest.mark.parametrize("conqueror", [None, "greece"], ids=["no conquest", "another's"])
def test_a_legion_on_the_marker_converts_only_for_the_conqueror(
        rules: Ruleset, conqueror: str | None) -> None:
    """FR 4.3.3: the marker is converted only if the player occupying it "has kept his
    conqueror status" since. A position (a scenario's) with a Roman legion on Egypt's
    marker in Cyrenaica, linked to Roman Libya, but no conquest of Rome's under way
    there: at the start of Rome's next turn (NL/PL 4.3.3) nothing is converted.

    Kills: the ``or`` -> ``and`` of the first test of ``conquest.try_convert``."""
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.set_marker(game, "LIBYA", "rome")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    game.state.marker_occupier["CYRENAICA"] = "rome"
    if conqueror is not None:
        record_conquest(game.state, "CYRENAICA", conqueror, 1, marker_round=1)
    pos.start_phase(game, "military", round=3)
    play(game, "rome")
    assert game.state.control["CYRENAICA"] == "egypt"


def test_a_card_converting_at_once_still_needs_the_link(rules: Ruleset) -> None:
    """4.3.3 in every edition: a marker becomes the occupier's only if the province is
    adjacent to or connected with another of his. A card that converts at once (the
    card words' ``convert the marker``, whatever the card checked first) changes
    nothing when Cyrenaica touches no Roman province; beside Roman Libya it converts,
    removing the legion.

    Kills: deleting the ``return`` of ``conquest.convert_at_once`` when the conversion
    is not allowed."""
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "rome", "CYRENAICA", "legion", 2)
    game.state.marker_occupier["CYRENAICA"] = "rome"
    convert_at_once(game, "rome", "CYRENAICA")
    assert game.state.control["CYRENAICA"] == "egypt"
    assert game.state.count("CYRENAICA", "rome", "legion") == 2
    pos.set_marker(game, "LIBYA", "rome")
    convert_at_once(game, "rome", "CYRENAICA")
    assert game.state.control["CYRENAICA"] == "rome"
    assert game.state.count("CYRENAICA", "rome", "legion") == 1
