"""A conquest is an event (FR 4.3; NL/PL/UK 4.3): when a player's units stand alone, after
his battles, in another player's province he had not already conquered, he conquers it,
and only then may he pillage or occupy. A card reacts to it ("after conquest: take 2
coin"), or cancels it ("replace conquest ...: cancel it", the third modder's Limes); every
player reads it ("Rome conquers Cyrenaica, Egypt's province.")."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnrules.tools.scenario import run
from test_card_scripts import card

VARIANT = "extends: en\ncards:\n  add: [./cards]\n"


def scenario(tmp_path: Path, name: str, position: str, choices: str, expect: str) -> Path:
    """Rome, the military leader, holding the hero Warlord ('after conquest: take 2
    coin'), his legions alone in Egypt's Cyrenaica; ``position`` adds to that."""
    card(tmp_path / "cards", "warlord", "after conquest: take 2 coin")
    (tmp_path / "variant.yaml").write_text(VARIANT, encoding="utf-8")
    f = tmp_path / f"{name}.yaml"
    f.write_text(f"""scenario: {name}
edition: en
variant: variant.yaml
position:
  round: 2
  titles: {{military: rome}}
  control: {{CYRENAICA: egypt, ITALIA: rome}}
  buildings: {{CYRENAICA: [caravan:papyrus, market]}}
  units:
    CYRENAICA: {{rome: {{legion: 2}}}}
  resources: {{rome: {{coin: 0}}}}
  tiles: {{rome: [warlord]}}
  phase: military
{position}choices:
{choices}expect:
{expect}""", encoding="utf-8")
    return f


def test_a_conquest_is_told_before_the_conqueror_pillages(tmp_path: Path) -> None:
    f = scenario(tmp_path, "first", "", "  - rome\n  - [done]\n",
                 "  resources: {rome: {coin: 2}}\n  pending: {kind: conquest.choose}\n"
                 "  conquest: {CYRENAICA: {player: rome, round: 2}}\n")
    outcomes = list(run(f))
    assert [o.failures for o in outcomes] == [[]]


def test_a_province_conquered_in_an_earlier_turn_is_not_conquered_again(
        tmp_path: Path) -> None:
    """Rome has held his conquest of Cyrenaica since round 1: he may pillage it again,
    but conquers nothing (the card pays nothing)."""
    f = scenario(tmp_path, "held", "  conquest: {CYRENAICA: {player: rome, round: 1}}\n",
                 "  - rome\n  - [done]\n",
                 "  resources: {rome: {coin: 0}}\n  pending: {kind: conquest.choose}\n"
                 "  conquest: {CYRENAICA: {player: rome, round: 1}}\n")
    outcomes = list(run(f))
    assert [o.failures for o in outcomes] == [[]]


def test_a_conquest_cancelled_allows_neither_pillage_nor_occupation(tmp_path: Path) -> None:
    """Egypt holds Limes ('replace conquest by an opponent when the province was yours:
    cancel it'): Rome conquers nothing this turn, so he is asked nothing, takes nothing,
    and holds no conquest there."""
    card(tmp_path / "cards", "limes", "replace conquest by an opponent when the province "
         "was yours: cancel it")
    f = scenario(tmp_path, "cancelled", "", "  - rome\n  - [done]\n",
                 "  resources: {rome: {coin: 0}}\n  pending: {kind: military.next}\n"
                 "  conquest: {CYRENAICA: null}\n")
    text = f.read_text(encoding="utf-8").replace("tiles: {rome: [warlord]}",
                                                 "tiles: {rome: [warlord], egypt: [limes]}")
    f.write_text(text, encoding="utf-8")
    outcomes = list(run(f))
    assert [o.failures for o in outcomes] == [[]]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Rome conquers Cyrenaica, Egypt's province."),
    ("fr", "Rome conquiert Cyrenaica, province d’Égypte."),
])
def test_every_player_reads_the_conquest(lang: str, said: str) -> None:
    from mnrules import load_ruleset, new_game
    from mnrules.core.effects import Event
    from mnrules.language.present import presenter

    rules = load_ruleset(lang)
    game = new_game(rules, 5, seed=1)
    say = presenter(rules, lang)
    text = say.event(game, Event("conquest", "rome", {"province": "CYRENAICA",
                                                      "from": "egypt"}), None)
    assert text == said
