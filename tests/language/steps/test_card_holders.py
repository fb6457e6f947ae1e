"""Who holds a card is the kernel's, so a script of either game may test it: ``you hold
CARD``, ``an opponent holds CARD``, ``nobody holds CARD`` (issue 35, item 1's "holds
CARD")."""

from __future__ import annotations

import pytest

from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import vocabulary
from mnrules.core.engine import Game
from mnrules.language.compiler import Env


def holds(game: Game, holder: str, text: str) -> bool:
    """Whether the condition ``text`` holds for a card of ``holder``'s."""
    found = vocabulary(game.rules).match("condition", tuple(text.split()))
    assert found is not None, text
    word, args = found
    return bool(word.meaning(Env(game, holder, "", {}), *args))


def test_mare_nostrum_rome_holds_caesar_and_the_others_see_it() -> None:
    """At the start Rome holds its starting hero, Caesar, and nobody holds a hero of
    the display until it is bought."""
    game = new_game(load_ruleset("en"), 5, seed=1)
    assert holds(game, "rome", "you hold caesar")
    assert not holds(game, "rome", "an opponent holds caesar")
    assert holds(game, "greece", "an opponent holds caesar")
    assert not holds(game, "greece", "you hold caesar")
    assert not holds(game, "greece", "nobody holds caesar")
    bought = game.state.display[0]
    assert holds(game, "rome", f"nobody holds {bought}")


@pytest.mark.parametrize(("text", "yellow", "green"), [
    ("you hold bellona", True, False),
    ("an opponent holds bellona", False, True),
    ("nobody holds king", True, True),
])
def test_antike_bellona_is_held_by_one_nation(text: str, yellow: bool, green: bool) -> None:
    game = new_game(load_ruleset("antike2"), 3, seed=1)
    game.state.bellona = "yellow"
    assert holds(game, "yellow", text) is yellow
    assert holds(game, "green", text) is green
