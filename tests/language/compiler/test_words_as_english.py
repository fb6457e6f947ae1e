"""The vocabulary as a modder meets it (docs/effect-language.md, "Words are English"):
articles are ignored, a word matches its plural and third person ("markets",
"fortresses", "loses", "cities"), placeholders take the ids of the sets the game names,
and a word a plugin gets wrong is refused with what to fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnrules.errors import MnrulesError
from mnrules.language.syntax import ScriptError
from mnrules.language.words import Sets, Vocabulary, Word, WordError, plural, singular
from test_card_scripts import with_cards

SETS = Sets(goods=frozenset({"wine", "grain"}), units=frozenset({"legion", "fortress"}),
            cards=frozenset({"caesar"}), tracks=frozenset({"trade"}),
            players=frozenset({"rome"}),
            named={"building": frozenset({"city", "market", "caravan"})})


def vocab(*words: Word, unnamed: Any = None) -> Vocabulary:
    return Vocabulary(words, SETS, unnamed)


def never(*_: Any) -> bool:
    return False


@pytest.mark.parametrize(("word", "plural_form"), [
    ("market", "markets"), ("fortress", "fortresses"), ("box", "boxes"),
    ("church", "churches"), ("wish", "wishes"), ("city", "cities"), ("day", "days"),
    ("take", "takes"), ("lose", "loses"), ("y", "ys")])
def test_a_word_has_its_english_plural_or_third_person(word: str, plural_form: str) -> None:
    assert plural(word) == plural_form


@pytest.mark.parametrize(("token", "known", "found"), [
    ("cities", {"city"}, "city"), ("fortresses", {"fortress"}, "fortress"),
    ("markets", {"market"}, "market"), ("market", {"market"}, "market"),
    ("citys", {"city"}, None), ("wines", {"grain"}, None)])
def test_a_plural_names_its_id(token: str, known: set[str], found: str | None) -> None:
    assert singular(token, frozenset(known)) == found


def test_a_phrase_matches_its_word_with_articles_and_plurals() -> None:
    v = vocab(Word("count", "{building} you control", never, "buildings you control"),
              Word("action", "take {n} {good}", never, "take goods"),
              Word("action", "lose {n} coin", never, "lose coins"),
              Word("condition", "the track is {name}", never, "the track"))
    found = v.match("count", ("cities", "you", "control"))
    assert found is not None and found[1] == ["city"]
    found = v.match("action", ("take", 2, "wines"))
    assert found is not None and found[0].pattern == "take {n} {good}" and found[1] == [2, "wine"]
    found = v.match("action", ("loses", 1, "coin"))
    assert found is not None and found[0].pattern == "lose {n} coin"
    found = v.match("condition", ("the", "track", "is", "culture"))
    assert found is not None and found[1] == ["culture"]
    # a number where a name goes, a name where a number goes, a wrong word, another set
    assert v.match("action", ("take", "two", "wine")) is None
    assert v.match("condition", ("track", "is", 3)) is None
    assert v.match("action", ("gain", 1, "coin")) is None
    assert v.match("action", ("take", 1, "legion")) is None
    assert v.match("count", ("temples", "you", "control")) is None
    assert v.match("action", ("take", 1)) is None


def test_the_games_subjects_come_before_the_generic_ones() -> None:
    mine = Word("subject", "you", lambda e: ["me"], "you, as this game says")
    v = vocab(mine)
    found = v.match("subject", ("you",))
    assert found is not None and found[0] is mine
    assert [w.pattern for w in v.words("subject")][:2] == ["you", "you"]
    assert "each opponent" in v.known("subject")


def test_a_word_of_no_kind_is_refused_with_the_nearest_kind() -> None:
    with pytest.raises(WordError) as err:
        vocab(Word("conditon", "the moon is full", never, "a full moon"))
    assert str(err.value).startswith("the word 'the moon is full' has the kind 'conditon', "
                                     "which is no kind of word; did you mean 'condition'?")


def test_a_placeholder_naming_no_set_is_refused_with_the_nearest() -> None:
    with pytest.raises(WordError) as err:
        vocab(Word("count", "{buildng} you control", never, "buildings"))
    message = str(err.value)
    assert "the count '{buildng} you control' has the placeholder {buildng}, which names " \
        "no set of ids; did you mean 'building'?" in message
    assert "{building}" in message
    # the sets the game names are placeholders too, as are the kernel's own
    vocab(Word("count", "{building} of {player} on {track}", never, "ok"))


def test_the_nearest_event_is_found_by_its_word_or_its_declared_name() -> None:
    """'collected' is the rules' name of the event whose word is 'collect'."""
    v = vocab(Word("event", "collect", "collected", "a player collects"),
              Word("event", "buy", "bought", "a player buys"))
    assert v.nearest_name("event", "colect") == "collect"
    assert v.nearest_name("event", "collected") == "collect"
    assert v.nearest_name("event", "bougt") == "buy"
    assert v.nearest_name("event", "zzz") is None
    assert v.word_for("collected") == "collect" and v.word_for("nothing") == "nothing"
    assert v.named("event", "collect") is not None and v.named("event", "collected") is None


def test_a_misspelt_phrase_gets_the_nearest_known_one() -> None:
    v = vocab(Word("action", "take {n} {good}", never, "take goods"))
    assert v.nearest("action", ("tkae", "{n}", "{good}")) == "take {n} {good}"
    assert v.nearest("action", ("sail", "away", "now", "please")) is None


def test_the_rules_name_of_an_event_is_refused_naming_its_word(tmp_path: Path) -> None:
    """'collected' is what the rules call it; a card writes 'collect'."""
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, ("miser", "after collected: take 1 coin"))
    message = str(err.value)
    assert "unknown event 'collected'" in message and "collect" in message


def test_a_number_outside_its_words_range_is_refused(tmp_path: Path) -> None:
    """'take N RESOURCE' takes 0 to 20 (the guide's table of numbers)."""
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, ("midas", "after collect: take 21 coin"))
    assert "21 is out of range for the action 'take {n} {resource}': from 0 to 20 " \
        "allowed" in str(err.value)
    with_cards(tmp_path, ("midas", "after collect: take 20 coin"))


def test_a_plugins_misspelt_word_kind_fails_the_pack_cleanly(tmp_path: Path) -> None:
    plugin = ("from mnrules.hooks.hookspecs import hookimpl\n"
              "from mnrules.language.words import Word\n\n\n"
              "@hookimpl\ndef mn_vocabulary():\n"
              "    return [Word('conditon', 'the moon is full', lambda e: True, 'moon')]\n")
    with pytest.raises(MnrulesError, match="has the kind 'conditon'"):
        with_cards(tmp_path, plugin=plugin)


def test_a_placeholder_is_a_whole_braced_token() -> None:
    """A token braced on one side only is a plain word: a plugin's typo 'take {n} {good.'
    never takes 'wine' for a good."""
    v = vocab(Word("action", "take {n} {good.", never, "a typo"))
    assert v.match("action", ("take", 1, "wine")) is None
    found = v.match("action", ("take", 1, "{good."))
    assert found is not None and found[1] == [1]
