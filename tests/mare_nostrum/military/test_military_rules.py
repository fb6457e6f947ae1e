"""Move & Fight rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import pending, play
from mare_nostrum import position as pos
from mnrules import Game, IllegalChoice
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Modifier
from mnrules.hooks.hookspecs import hookimpl
from test_card_scripts import fight_two_battles, with_cards
from test_movement import empty_board, moves, record, units


def test_each_empire_moves_and_fights_once_per_phase(rules: Ruleset) -> None:
    """4.1: the military leader names who plays next, among the empires that have not
    played this phase; once Rome's turn is over he cannot be named again.

    Kills: deleting ``frame["done"].append(choice)`` in ``military.Military.choose``."""
    game = empty_board(rules)
    pos.start_phase(game, "military")
    assert pending(game)[1] == "military.next"
    first = game.legal()
    play(game, "rome")
    while pending(game)[1] != "military.next":
        play(game, game.legal()[0])
    assert "rome" in first and "rome" not in game.legal()
    assert set(game.legal()) == set(first) - {"rome"}


class LongMarch:
    """A card: "your legions move two provinces instead of one"."""

    MODIFIES = frozenset({"move.range"})

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        if ctx.get("player") == "rome":
            return Modifier("test:long march", lambda v: v + 1)
        return None


def legion_moves(rules: Ruleset) -> set[tuple[str, str]]:
    game = empty_board(rules)
    pos.add_units(game, "rome", "LATIUM", "legion", 1)
    pos.start_phase(game, "military")
    play(game, "rome")
    while pending(game)[1] != "military.legion":
        play(game, ("done",))
    return moves(game)


def test_a_card_lengthening_the_march_reaches_two_provinces_away(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """With "move two provinces", Rome's legion in Latium reaches every province one step
    away and some two steps away, but none it could not reach in two single steps.

    Kills: ``steps == 1`` -> ``steps != 1`` in ``military.MilitaryTurn._legion_moves``
    (a longer march cut to one step)."""
    plain = fresh_rules()
    one = {to for _, to in legion_moves(plain)}
    rules = fresh_rules()
    rules.pm.register(LongMarch(), name="test:long march")
    two = {to for _, to in legion_moves(rules)}
    assert one < two
    assert two <= one | {to for _, to in legion_moves_from(plain, one)}


def legion_moves_from(rules: Ruleset, starts: set[str]) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for start in sorted(starts):
        game = empty_board(rules)
        pos.add_units(game, "rome", start, "legion", 1)
        pos.start_phase(game, "military")
        play(game, "rome")
        while pending(game)[1] != "military.legion":
            play(game, ("done",))
        found |= moves(game)
    return found


def test_a_card_answering_the_battles_start_acts_before_the_dice(tmp_path: Path) -> None:
    """A card that reacts to a battle's start ("after battle.start when you attack: you
    may place 1 legion here", docs/effect-language.md) is answered before anyone rolls
    (4.2: one simultaneous roll, by the units present). Carthage, attacking Egypt in
    Cyrenaica, says yes: his second legion rolls too, and his two V score two hits.

    Kills: ``len(state.stack) != depth`` -> ``==`` after the ``battle_start`` event in
    ``military.Battle.advance`` (the dice rolled under the card's open question)."""
    rules = with_cards(tmp_path, ("ares", "after battle.start when you attack: you may "
                                          "place 1 legion here"))
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "carthage", "CYRENAICA", "legion")
    pos.add_units(game, "egypt", "CYRENAICA", "legion", 2)
    pos.give_tiles(game, "carthage", "ares")
    rolls = record(game, "battle_roll")
    pos.start_phase(game, "military")
    play(game, "carthage", ("done",))
    assert pending(game) == ("carthage", "card.may")
    assert rolls == []
    game.force("land die", [5, 5, 0, 0])  # Carthage's two dice, then Egypt's two
    play(game, "yes")
    assert [e.data["rolls"] for e in rolls] == [{"carthage": [5, 5], "egypt": [0, 0]}]
    assert [e.data["hits"] for e in rolls] == [{"carthage": 2, "egypt": 0}]
    assert units(game, "CYRENAICA") == {"carthage": {"legion": 2}}


def test_a_once_per_round_card_is_spent_by_the_roll_it_changed(tmp_path: Path) -> None:
    """"Once per round: +6 to your dice total in a land battle": what uses it up is the
    roll of the battle it changed (the ``battle_roll`` event, as the dice fall). Rome
    fights Egypt in Cyrenaica, then Carthage in Libya, every die a blank: one hit in
    the first battle, none in the second.

    Kills: deleting the ``battle_roll`` event of ``military.Battle._roll`` (the card
    never spent, +6 in every battle)."""
    rules = with_cards(tmp_path, ("achilles", "once per round modify battle.total when "
                                              "land battle: add 6"))
    first, second = fight_two_battles(rules, preview=False)
    assert (first["rome"], second["rome"]) == (1, 0)


@pytest.mark.parametrize("answer", ["fortress", ("move", "MARE IONIUM"), ("done", "now")])
def test_an_answer_that_is_no_move_is_refused_as_no_trireme_move(
        rules: Ruleset, answer: Any) -> None:
    """4.1.1: during his trireme moves a player moves a trireme or ends them; an answer
    that is no move at all (a word, a move naming one place) is refused by that rule,
    not taken for a move of another stage of the turn.

    Kills: deleting the ``return ""`` of ``military.MilitaryTurn._out_of_order`` for a
    choice that is not a (move|battle, area, x) triple."""
    game = empty_board(rules)
    pos.add_units(game, "rome", "MARE IONIUM", "trireme")
    pos.start_phase(game, "military")
    play(game, "rome")
    assert pending(game) == ("rome", "military.trireme")
    with pytest.raises(IllegalChoice) as err:
        game.apply(answer)
    assert err.value.rule is not None and err.value.rule.id == "trireme-move"


def test_a_trireme_move_after_the_trireme_moves_is_refused_as_out_of_order(
        rules: Ruleset) -> None:
    """FR 4.1-4.2; NL/PL/UK 4.1-4.2: a turn runs trireme moves, naval battles, legion
    moves, land battles. Once Rome moves legions, a trireme move is refused by that
    order, and the refusal says the trireme moves are over.

    Kills: deleting the "are over" ``return`` of ``military.MilitaryTurn._out_of_order``
    (a past stage's move refused as a mere bad legion move)."""
    game = empty_board(rules)
    pos.add_units(game, "rome", "MARE TYRRHENUM", "trireme")
    pos.add_units(game, "rome", "LATIUM", "legion")
    pos.start_phase(game, "military")
    play(game, "rome", ("done",))
    assert pending(game) == ("rome", "military.legion")
    with pytest.raises(IllegalChoice) as err:
        game.apply(("move", "MARE TYRRHENUM", "MARE SARDUM"))
    assert err.value.rule is not None and err.value.rule.id == "move-fight-order"
    assert "the trireme moves are over" in str(err.value)
