"""What a modder writes in plain English and the language now reads or explains: a
count compared with a number the way English says it ("you control at least 5
provinces", "your military level is at least 4", "you have more than..." explained),
"heroes" as the plural of hero, a rule opened as a sentence ("at the start of the build
phase", "whenever ...") told the language's way, and the end of a phase as an event a
card reacts to ("after phase.end when the phase is military")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mare_nostrum import position as pos
from mnrules import load_ruleset, new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import vocabulary
from mnrules.core.effects import Event
from mnrules.language.comparisons import natural
from mnrules.language.compiler import Env
from mnrules.language.explain import explain
from mnrules.language.syntax import parse_script
from mnrules.language.texts import load_texts
from test_card_scripts import refused_at, with_cards

# what a modder writes, and the language's own form of it
PAIRS = [
    ("you control at least 5 provinces", "at least 5 provinces you control"),
    ("your military level is at least 4", "at least 4 your military level"),
    ("you have at least 3 legions here", "at least 3 legions you have here"),
    ("the enemy has at most 1 legion here", "at most 1 legion the enemy has here"),
    ("you hold at least 2 heroes", "at least 2 heroes you hold"),
    ("you have at least 3 coins", "at least 3 coins you have"),
]


@pytest.mark.parametrize(("english", "form"), PAIRS)
def test_a_comparison_written_as_english_reads_as_the_language_form(
        english: str, form: str) -> None:
    rules = load_ruleset("fr")
    vocab = vocabulary(rules)
    quantity = "modify battle.dice" if "here" in english else "after collect"
    action = "add 1" if "here" in english else "take 1 coin"
    mine = parse_script(f"{quantity} when {english}: {action}")[0]
    theirs = parse_script(f"{quantity} when {form}: {action}")[0]
    assert mine.cond is not None and theirs.cond is not None
    read, want = natural(vocab, mine.cond), theirs.cond
    assert (read.kind, read.n) == (want.kind, want.n)
    assert read.phrase is not None and want.phrase is not None
    assert read.phrase.words == want.phrase.words
    for lang in ("en", "fr", "uk"):
        texts = None if lang == "en" else load_texts(rules, lang)
        assert explain(vocab, [mine], texts) == explain(vocab, [theirs], texts)


def test_a_known_condition_is_never_read_as_a_comparison() -> None:
    vocab = vocabulary(load_ruleset("en"))
    rule = parse_script("after collect when you have 2 coin: take 1 coin")[0]
    assert rule.cond is not None and natural(vocab, rule.cond) is rule.cond


def test_a_census_counts_the_provinces_at_the_end_of_the_phase(tmp_path: Path) -> None:
    """Rome holds Census ('after phase.end when the phase is military and you control at
    least 4 provinces: take 1 coin'): at the end of each military phase he takes a coin
    if he holds 4 provinces, before the rules end the phase; with 3 he takes nothing."""
    rules = with_cards(tmp_path, ("census", "after phase.end when the phase is military "
                                  "and you control at least 4 provinces: take 1 coin"))
    for extra, gained in ((True, 1), (False, 0)):
        game = new_game(rules, 5, seed=4)
        pos.give_tiles(game, "rome", "census")
        if extra:
            pos.set_marker(game, "SICILIA", "rome")
        seen: list[tuple[str, int]] = []
        held: list[int] = []   # the provinces Rome controls, at each

        def watch(ev: Event, game: Any = game, seen: list[tuple[str, int]] = seen,
                  held: list[int] = held) -> None:
            said = f"{ev.kind} {ev.data.get('phase')}"
            if said in ("phase_end military", f"phase_start {game.rules.phases[0]}"):
                seen.append((said, game.state.screens["rome"].get("coin", 0)))
                held.append(list(game.state.control.values()).count("rome"))
        game.listeners.append(watch)
        bots = {p: make_bot("random", i, rules) for i, p in enumerate(game.state.players)}
        while not any(k == "phase_end military" for k, _ in seen):
            dec = game.pending
            assert dec is not None
            game.apply(bots[dec.player].choose(game))
        while game.pending is not None and seen[-1][0] == "phase_end military":
            dec = game.pending
            game.apply(bots[dec.player].choose(game))
        (end, coins), (start, later) = seen[-2:]
        assert (end, start) == ("phase_end military", f"phase_start {rules.phases[0]}")
        assert (held[-2] >= 4) == extra   # (the random bots changed no province)
        assert later - coins == gained


def test_a_question_at_the_end_of_a_phase_is_answered_before_the_next_one(
        tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("vestal", "after phase.end when the phase is build: "
                                  "you may pay 1 coin to take 1 grain"))
    game = new_game(rules, 5, seed=2)
    pos.give_tiles(game, "greece", "vestal")
    bots = {p: make_bot("random", i, rules) for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None and dec.kind != "card.may":
        game.apply(bots[dec.player].choose(game))
    assert dec is not None and dec.player == "greece"
    assert game.state.phase == "build"   # the phase has not moved on
    pos.give(game, "greece", {"coin": 1})
    coins = game.state.screens["greece"].get("coin", 0)
    grain = game.state.screens["greece"].get("grain", 0)
    game.apply("yes")
    assert game.state.screens["greece"].get("coin", 0) == coins - 1
    assert game.state.screens["greece"].get("grain", 0) == grain + 1
    assert game.state.phase != "build"


@pytest.mark.parametrize(("script", "column", "message"), [
    ("at the start of the build phase: take 1 coin", 1,
     "'after phase.start when the phase is NAME'"),
    ("whenever you win a battle: take 1 coin", 1, "'after EVENT'"),
    ("after collect when you have more than 2 legions: take 1 coin", 34,
     "'at least 3 COUNT' (more than 2)"),
    ("after collect when you frobnicate at least 3 things: take 1 coin", 20,
     "a count is compared with a number as 'at least N COUNT'"),
])
def test_english_the_language_does_not_read_is_told_its_way(
        tmp_path: Path, script: str, column: int, message: str) -> None:
    refused_at(tmp_path, script, 1, column, message)


def test_an_antike2_trade_is_read_by_what_it_paid() -> None:
    """'after trade when you pay 3' reads the trade event's payment, as 'modify
    bank_trade when you pay 3' reads the fold's."""
    rules = load_ruleset("antike2")
    vocab = vocabulary(rules)
    game = new_game(rules, 4, seed=1)
    found = vocab.match("condition", ("you", "pay", 3))
    assert found is not None
    word, args = found
    assert {"trade", "bank_trade"} <= set(word.on)
    nation = game.state.players[0]
    for ctx, said in (({"paid": 3, "took": []}, True), ({"paid": 2}, False),
                      ({"pay": 3}, True), ({"pay": 1}, False)):
        assert bool(word.meaning(Env(game, nation, "k", ctx), *args)) is said


def test_a_long_phrase_is_not_searched_for_a_comparison(tmp_path: Path) -> None:
    """A hostile condition of hundreds of words and comparisons is refused as unknown
    at once, not searched for every reading."""
    words = " ".join(["you have at least 3 legions"] * 200)
    refused_at(tmp_path, f"after collect when {words}: take 1 coin", 1, 20,
               "unknown condition")


def test_a_game_saved_at_a_question_at_a_phases_end_goes_on_as_it_would_have(
        tmp_path: Path) -> None:
    """Saved while Greece is asked at the build phase's end, loaded and played on, the
    game makes the same choices and ends in the same state as one never saved."""
    from mnrules.core.start import load_game

    rules = with_cards(tmp_path, ("vestal", "after phase.end when the phase is build: "
                                  "you may pay 1 coin to take 1 grain"))

    def play_on(game: Any) -> list[Any]:
        bots = {p: make_bot("random", i, rules) for i, p in enumerate(game.state.players)}
        made = []
        while (dec := game.pending) is not None:
            choice = bots[dec.player].choose(game)
            made.append(choice)
            game.apply(choice)
        return made

    game = new_game(rules, 5, seed=2, round_cap=6)
    pos.give_tiles(game, "greece", "vestal")
    bots = {p: make_bot("random", i, rules) for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None and dec.kind != "card.may":
        game.apply(bots[dec.player].choose(game))
    assert dec is not None and game.state.phase == "build"
    saved = game.snapshot().to_json()
    whole = play_on(game)
    loaded = load_game(rules, saved)
    assert loaded.pending == dec
    assert play_on(loaded) == whole
    assert loaded.state.to_dict() == game.state.to_dict()
