"""Move & Fight rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import pending, play
from mnrules import Game
from mnrules.effects import Modifier
from mnrules.hookspecs import hookimpl
from mnrules.plugins.mare_nostrum import position as pos
from mnrules.ruleset import Ruleset
from test_movement import empty_board, moves


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
