"""What a player of Antike II reads is a sentence in his language with the pack's names:
whole bot games under the English, Russian and Latin packs are rendered (every question,
option and event, and the table) and scanned for what must never reach a player — the
same scan as Mare Nostrum's (tests/language/texts/test_present.py)."""

from __future__ import annotations

import random

import pytest

from mnrules import load_ruleset, new_game
from mnrules.core.effects import Event
from mnrules.core.engine import Decision
from mnrules.language.present import presenter
from test_present import leaks, texts_of


def read_game(lang: str | None, seed: int, rounds: int = 30) -> list[str]:
    rules = load_ruleset("antike2")
    say = presenter(rules, lang)
    game = new_game(rules, 4, seed=seed, round_cap=rounds)
    read: list[str] = []

    def hear(event: Event) -> None:
        read.append(say.event(game, event, None))
    game.listeners.append(hear)
    rng = random.Random(seed)
    while (dec := game.pending) is not None:
        read.append(say.prompt(game, dec))
        read += [say.option(game, dec, o) for o in dec.options[:40]]
        if game.state.choices % 97 == 0:
            read += texts_of(game.rules.definition.presentation.table(say=say, game=game,
                                                                      viewer=None))
        game.apply(dec.options[rng.randrange(len(dec.options))])
    return [t for t in read if t]


@pytest.mark.parametrize(("lang", "word"), [(None, "moves to"), ("ru", "сектор"),
                                            ("la", "Ferrum")])
def test_a_whole_game_reads_as_sentences(lang: str | None, word: str) -> None:
    read = read_game(lang, seed=3)
    assert len(read) > 500
    assert leaks(read) == []
    assert any(word in text for text in read)


def test_russian_questions_and_options_use_the_books_words() -> None:
    read = read_game("ru", seed=4)
    assert any(t.startswith("— ход: ") for t in read)
    assert any("переместите маркер на ронделе" in t for t in read)
    assert not any("the rondel" in t for t in read)


def test_losses_are_counted_with_the_russian_plural() -> None:
    rules = load_ruleset("antike2")
    game = new_game(rules, 3, seed=1)
    ru, en = presenter(rules, "ru"), presenter(rules)
    for lost, said in ((1, "1 галера"), (2, "2 галеры"), (5, "5 галер"), (21, "21 галера")):
        event = Event("battle", "red", {"area": "MARE_GALLICUM", "unit": "galley",
                                        "defender": "green", "lost": lost})
        assert ru.event(game, event, None) == ("Сражение в Mare Gallicum: Красный и "
                                               f"Зеленый, потери каждого: {said}.")
    event = Event("battle", "red", {"area": "NARBO", "unit": "legion", "defender": "green",
                                    "lost": 1})
    assert en.event(game, event, None) == "Battle in Narbo: Red and Green each lose 1 legion."
    losses = Decision("red", "a2.losses", "", (("lose", 2, 5),))
    assert ru.option(game, losses, ("lose", 2, 5)) == "потерять 2 легиона и 5 галер"
    assert en.option(game, losses, ("lose", 1, 0)) == "lose 1 legion and 0 galleys"


def test_russian_names_after_a_verb_take_its_case() -> None:
    """«сражается с Синим» (instrumental), «передает карту Беллоны Синему» (dative),
    «получает Короля», «потерять 1 галеру» (accusative): the case forms are the pack's
    data (``cases:``, ``plural.galley.acc``), not the nominative after a colon."""
    from antike2.reports import round_lines
    rules = load_ruleset("antike2")
    game = new_game(rules, 3, seed=1)
    ru = presenter(rules, "ru")
    battle = Event("battle", "red", {"area": "MARE_GALLICUM", "unit": "galley",
                                     "defender": "blue", "lost": 1})
    assert ("  Красный: сражается с Синим в Mare Gallicum (потери каждого: 1 галера)"
            in round_lines(ru, game, 1, [battle]))
    bellona = Event("bellona", "red", {"to": "blue"})
    assert ru.event(game, bellona, None) == "Красный передает карту Беллоны Синему."
    king = Event("personage", "red", {"personage": "king"})
    assert ru.event(game, king, None) == "Красный получает Короля (древний персонаж)."
    losses = Decision("red", "a2.losses", "", (("lose", 1, 1),))
    assert ru.option(game, losses, ("lose", 1, 1)) == "потерять 1 легион и 1 галеру"
