"""What a player reads is a sentence in his language with the pack's names: whole bot
games under every bundled pack are rendered (every question, option, event for every
viewer, the table and the map) and scanned for what must never reach a player."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from mnrules import load_ruleset, new_game
from mnrules.content.yamlsource import load_yaml
from mnrules.core.effects import Event
from mnrules.errors import PackError
from mnrules.language.present import presenter, read_messages, roman

LEAKS = re.compile(r"[{}\[\]]|card:|#\d|\(\'|\'\)|legendary:|\bNone\b|\bTrue\b|\bFalse\b"
                   r"|\b[A-Z]{4,}\b|\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z]+\b")
PACKS = ["en", "fr", "nl", "pl", "uk"]
EN_WORDS = re.compile(r"\b(the|and|from|moves|buys|takes|battle|Round|your)\b")


def texts_of(table: dict[str, Any]) -> list[str]:
    out = [table["title"]]
    for sec in table["sections"]:
        out += [sec["title"], *sec.get("head", []), *sec.get("notes", [])]
        out += [cell for row in sec["rows"] for cell in row]
    return out


def play_and_read(pack: str, seed: int, lang: str | None = None) -> list[str]:
    rules = load_ruleset(pack)
    say = presenter(rules, lang)
    game = new_game(rules, players=5, seed=seed)
    read: list[str] = []
    viewers: list[str | None] = [None, *game.state.players]

    def hear(event: Event) -> None:
        for v in viewers:
            read.append(say.event(game, event, v))

    game.listeners.append(hear)
    rng = random.Random(seed)
    while (dec := game.pending) is not None:
        read.append(say.prompt(game, dec))
        for opt in dec.options[:40]:
            read.append(say.option(game, dec, opt))
            group = game.rules.definition.presentation.option_group(
                say=say, game=game, decision=dec, option=opt)
            if group:
                read.append(group)
        if game.state.choices % 97 == 0:
            for v in viewers:
                read += texts_of(game.rules.definition.presentation.table(
                    say=say, game=game, viewer=v))
        game.apply(dec.options[rng.randrange(len(dec.options))])
    for v in viewers:
        read += texts_of(game.rules.definition.presentation.table(say=say, game=game, viewer=v))
    read.append(say.outcome(game.state.winners, game.state.victory))
    return [t for t in read if t]


def leaks(read: list[str], allowed: set[str] = frozenset()) -> list[str]:
    bad = []
    for text in read:
        found = [m for m in LEAKS.findall(text) if m not in allowed]
        if found:
            bad.append(f"{text!r}: {found}")
    return bad


@pytest.mark.parametrize("pack", PACKS)
def test_a_whole_game_reads_as_sentences_under_every_pack(pack: str) -> None:
    read = play_and_read(pack, seed=PACKS.index(pack) + 1)
    assert len(read) > 500
    # Card texts a pack does not translate are printed as the card gives them.
    assert leaks(read) == []


def test_french_names_and_words_in_french() -> None:
    read = play_and_read("fr", seed=3)
    joined = "\n".join(read)
    assert "Grèce" in joined and "Chef Militaire" in joined and "Tour" in joined
    # a card printed in English only is told by what its script says, in French
    assert [t for t in read if EN_WORDS.search(t)] == []


def test_a_language_over_another_pack() -> None:
    read = play_and_read("en", seed=4, lang="uk")
    assert any("Раунд" in t or "Рим" in t for t in read)


def test_dice_are_shown_as_the_books_print_them() -> None:
    say = presenter(load_ruleset("en"))
    assert [say.number(n, "die") for n in range(6)] == ["blank", "I", "II", "III", "IV", "V"]
    assert roman(14) == "XIV"
    game = new_game(load_ruleset("en"), players=5, seed=1)
    text = say.event(game, Event("battle", "rome", {
        "area": "ITALIA", "kind": "land", "defender": "greece",
        "units": {"rome": 2, "greece": 1}, "rolls": {"rome": [5, 0], "greece": [3]},
        "hits": {"rome": 1, "greece": 0}}), None)
    assert text == ("Battle in Italia: Rome (2 units) attacks Greece (1 unit). Dice: Rome V "
                    "blank, Greece III. Rome scores 1 hit, Greece 0 hits.")


def test_what_another_keeps_is_not_told() -> None:
    rules = load_ruleset("en")
    say = presenter(rules)
    game = new_game(rules, players=5, seed=1)
    ev = Event("build_turn_end", "rome", {"kept": {"wine": 1, "coin": 2}})
    assert "wine" in say.event(game, ev, "rome")
    assert "wine" not in say.event(game, ev, "greece")
    assert "wine" not in say.event(game, ev, None)


def test_keeping_nothing_and_a_cards_free_pieces_read_as_french_does() -> None:
    """Once "Vous gardez rien" and "place 1 × marqueur": the negation and the count's
    plural, as a French reader writes them."""
    rules = load_ruleset("fr")
    say = presenter(rules)
    game = new_game(rules, players=5, seed=1)
    kept = say.event(game, Event("build_turn_end", "rome", {"kept": {"coin": 0}}), "rome")
    assert kept.startswith("Vous ne gardez rien derrière votre paravent")
    free = say.event(game, Event("built", "babylon", {"action": ["legion", "ARABIA"],
                                                      "paid": [], "count": 2,
                                                      "offer": "hammurabi"}), None)
    assert "place 2 légions en Arabia" in free and "×" not in free, free


def test_every_language_says_every_english_message() -> None:
    en = load_yaml("editions/mare_nostrum/en/messages.yaml").data["messages"]
    for lang in PACKS[1:]:
        other = load_yaml(f"editions/mare_nostrum/{lang}/messages.yaml").data["messages"]
        assert sorted(set(en) - set(other)) == [], lang


def test_a_bad_messages_file_names_file_line_and_key(tmp_path: Any) -> None:
    f = tmp_path / "messages.yaml"
    f.write_text("format: mnrules-messages/1\nmessages:\n  event.move: \"{player.__class__}\"\n")
    with pytest.raises(PackError, match=r"messages.yaml:3:\d+: messages.event.move"):
        read_messages(f, {}, {}, {})
    f.write_text("format: mnrules-messages/1\nmesages: {}\n")
    with pytest.raises(PackError, match="did you mean 'messages'"):
        read_messages(f, {}, {}, {})
