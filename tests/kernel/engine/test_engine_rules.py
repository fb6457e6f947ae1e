"""The decision loop's promises that mutation testing found unguarded (issue 19)."""

from __future__ import annotations

import random

import pytest

from mnrules import InvalidChoice, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from mnrules.core.engine import MAX_DEPTH
from mnrules.errors import GameOver, StateError


def test_the_stack_holds_exactly_its_bound_of_frames(rules: Ruleset) -> None:
    """Steps that push each other without end are stopped at MAX_DEPTH frames, naming the
    step that would go one deeper; up to the bound itself, pushing is allowed.

    Kills: ``len(stack) >= MAX_DEPTH`` -> ``>`` in ``Game.push``."""
    game = new_game(rules, 3, seed=1)
    step = next(iter(rules.steps))
    while len(game.state.stack) < MAX_DEPTH:
        game.push(step)
    with pytest.raises(StateError, match=f"would make the stack {MAX_DEPTH + 1} frames deep"):
        game.push(step)
    assert len(game.state.stack) == MAX_DEPTH


def test_a_malformed_choice_says_what_is_wrong_where(rules: Ruleset) -> None:
    """A float as the whole choice is "not float"; a float inside a list is named with its
    value; neither changes anything of the game.

    Kills: negating ``if depth == 0`` in ``engine._normal``."""
    game = new_game(rules, 3, seed=1)
    before = game.pending
    with pytest.raises(InvalidChoice) as whole:
        game.apply(1.5)
    assert whole.value.detail.endswith("not float")
    with pytest.raises(InvalidChoice) as inside:
        game.apply(["end", 1.5])
    assert "it holds 1.5 (float)" in inside.value.detail
    assert game.pending == before


def test_a_forced_outcome_must_be_one_the_dice_can_show(rules: Ruleset) -> None:
    """A scenario forcing a die to show 9 is refused by name, not by a crash.

    Kills: deleting the ``StateError`` in ``Game.chance``."""
    game = new_game(rules, 3, seed=1)
    game.force("land die", [9])
    with pytest.raises(StateError, match="forced land die outcome 9 is not one of"):
        game.chance("land die", (0, 1, 2, 3, 4, 5))


def test_what_an_observer_was_told_never_changes_afterwards(rules: Ruleset) -> None:
    """A listener keeps the event as it was when it happened, even if the rules go on
    changing the lists they told it about.

    Kills: ``kind is dict`` -> ``is not`` in ``engine._copied``."""
    game = new_game(rules, 3, seed=1)
    told: list[Event] = []
    game.listeners.append(told.append)
    action = ["legion", "LATIUM"]
    event = Event("built", "rome", {"action": action, "paid": [["coin"]], "count": 1})
    game.perform(event, lambda e: None)
    action.append("changed later")
    event.data["paid"][0].append("coin")
    built = [e for e in told if e.kind == "built"]
    assert [e.data for e in built] == [{"action": ["legion", "LATIUM"], "paid": [["coin"]],
                                        "count": 1}]


def test_a_forced_die_shows_the_forced_face(rules: Ruleset) -> None:
    """A scenario forcing the next land die to IV gets IV, then chance again.

    Kills: deleting the forced outcome's ``out = ...`` in ``Game.chance``."""
    game = new_game(rules, 3, seed=1)
    game.force("land die", [4, 0])
    assert [game.chance("land die", (0, 1, 2, 3, 4, 5)) for _ in range(2)] == [4, 0]


def test_every_choice_is_counted_and_none_after_the_end(rules: Ruleset) -> None:
    """The game counts the choices made (saves, logs and the bots' chance read it); once
    it is over, a further choice is refused as such.

    Kills: deleting ``self.state.choices += 1`` and the ``GameOver`` in ``Game.apply``."""
    game = new_game(rules, 3, seed=1)
    pick = random.Random(7)
    made = 0
    while game.pending is not None:
        game.apply(pick.choice(game.legal()))
        made += 1
        assert game.state.choices == made
    assert game.over
    with pytest.raises(GameOver, match="no decision is pending"):
        game.apply("anything")
