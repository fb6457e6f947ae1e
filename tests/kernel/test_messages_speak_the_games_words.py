"""The kernel's messages give their examples in the game's own words: a modder of Antike II
who writes a bad card is shown a payment in gold, not in Mare Nostrum's coin; a card's
bonuses are shown with the tracks of his game, and a pack's names with its own phases."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnrules import load_ruleset
from mnrules.content.card_files import _checked
from mnrules.content.ruleset import vocabulary
from mnrules.errors import PackError
from mnrules.language.words import Sets, Vocabulary


def test_an_example_payment_is_in_the_games_own_resource() -> None:
    assert vocabulary(load_ruleset("en")).example_resource() == "coin"
    antike = vocabulary(load_ruleset("antike2"))
    assert antike.example_resource() in {"gold", "iron", "marble"}


def test_a_game_without_resources_is_shown_the_word_resource() -> None:
    empty = frozenset[str]()
    vocab = Vocabulary([], Sets(goods=empty, units=empty, cards=empty, tracks=empty,
                                players=empty))
    assert vocab.example_resource() == "resource"


def test_a_cards_bad_bonuses_are_shown_with_the_games_tracks() -> None:
    with pytest.raises(PackError) as err:
        _checked({"bonuses": [1]}, lambda path: "cards/x.yaml:3:1", "",
                 {"bonus_keys": ("faith", "war")})
    assert "({faith: 1})" in str(err.value)
    assert "military" not in str(err.value)


def test_a_packs_bad_names_are_shown_with_its_own_first_phase(tmp_path: Path) -> None:
    pack = tmp_path / "pack.yaml"
    pack.write_text("format: mnrules-pack/1\ngame: antike2\nid: odd\nname: Odd\n"
                    "language: en\nextends: antike2\nphases: [rondel]\nnames:\n  phases: 3\n",
                    encoding="utf-8")
    with pytest.raises(PackError) as err:
        load_ruleset(str(pack))
    assert "phases: {rondel: ...}" in str(err.value)
    assert "trade" not in str(err.value)
