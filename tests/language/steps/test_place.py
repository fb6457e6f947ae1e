"""The words of place in Mare Nostrum (issue 35, item 4) read the battle's area, the
province conquered or where a purchase goes against the board: a sea borders the
provinces on its shores, a province never borders itself. (The cards written only with
them are tests/language/modders/place.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import vocabulary
from mnrules.core.engine import Game
from mnrules.errors import MnrulesError
from mnrules.language.compiler import Env
from test_card_scripts import with_cards


def reads(game: Game, holder: str, kind: str, text: str, area: str) -> object:
    found = vocabulary(game.rules).match(kind, tuple(text.split()))
    assert found is not None, text
    word, args = found
    return word.meaning(Env(game, holder, "", {"area": area}), *args)


@pytest.mark.parametrize(("area", "next_to_capital", "coast", "home"), [
    ("LIBYA", True, True, True),          # borders AFRICA by land, on the African Sea
    ("AFRICA", False, True, True),        # the capital itself
    ("PHAZANIA", True, False, False),     # inland, on AFRICA's border
    ("MARE AFRICUM", True, False, False),  # a sea on AFRICA's shore: never "the coast"
    ("CYRENAICA", False, True, False),
])
def test_carthage_reads_where_it_happens(area: str, next_to_capital: bool, coast: bool,
                                         home: bool) -> None:
    game = new_game(load_ruleset("en"), 3, seed=1)
    assert reads(game, "carthage", "condition", "the province is next to your capital",
                 area) is next_to_capital
    assert reads(game, "carthage", "condition", "the province is on the coast", area) is coast
    assert reads(game, "carthage", "condition",
                 "the province is one of your starting provinces", area) is home


def test_the_provinces_you_control_around_it_are_counted() -> None:
    """At the start Carthage controls AFRICA, NUMIDIA and LIBYA: PHAZANIA borders all
    three, AFRICA two (NUMIDIA and LIBYA; never itself)."""
    game = new_game(load_ruleset("en"), 3, seed=1)
    count = "province you control next to the province"
    assert reads(game, "carthage", "count", count, "PHAZANIA") == 3
    assert reads(game, "carthage", "count", count, "AFRICA") == 2
    assert reads(game, "rome", "count", count, "PHAZANIA") == 0


def test_a_word_of_place_is_refused_where_nothing_happens_on_the_map(tmp_path: Path) -> None:
    with pytest.raises(MnrulesError, match="means something only for"):
        with_cards(tmp_path, ("shore", "after phase.end when the province is on the coast: "
                                       "take 1 coin"))
