"""Production (book 002, «Производство»: MARMOR, FERRUM, AURUM): 1 of the space's resource
per city of that resource, 3 with a temple, a coin whatever was produced, and another
resource of the nation's choice when the bank has no coin left."""

from __future__ import annotations

from pathlib import Path

import pytest

from a2_helpers import RULES, asked, at_turn, options, play
from antike2.production import amount
from mnrules import load_ruleset
from mnrules.core.effects import Event
from mnrules.errors import IllegalChoice


def test_only_the_nations_own_cities_of_that_resource_produce() -> None:
    """Black's marble city and yellow's iron and gold cities give yellow no marble."""
    game = at_turn({"cities": {"ROMA": "yellow temple", "NEAPOLIS": "yellow",
                               "SYRACUS": "yellow", "CARTHAGO": "black"}}, "yellow")
    resources = {r: game.state.cities[r]["resource"] for r in game.state.cities}
    assert resources["ROMA"] != resources["NEAPOLIS"]
    for resource in ("marble", "iron", "gold"):
        mine = [r for r in ("ROMA", "NEAPOLIS", "SYRACUS") if resources[r] == resource]
        assert amount(game, "yellow", resource) == sum(3 if r == "ROMA" else 1 for r in mine)


def test_a_space_with_no_city_of_its_resource_still_gives_the_coin() -> None:
    game = at_turn({"cities": {"CARTHAGO": "yellow"}}, "yellow")
    kind = game.state.cities["CARTHAGO"]["resource"]
    other = next(a for a, r in (("marmor", "marble"), ("ferrum", "iron"), ("aurum", "gold"))
                 if r != kind)
    seen: list[Event] = []
    game.listeners.append(seen.append)
    play(game, other)
    assert [(e.data["amount"]) for e in seen if e.kind == "produce"] == [0]
    assert game.state.stock["yellow"]["coin"] == 1
    assert sum(game.state.stock["yellow"].values()) == 1


def test_with_the_bank_empty_the_nation_produces_once_and_takes_a_resource_instead() -> None:
    """«Если в банке нет больше монет, нация может выбрать любой другой тип ресурса ...
    вместо них, но не наоборот.» A coin is never what it takes instead."""
    coins = RULES.components["coins"]
    game = at_turn({"cities": {"SYRACUS": "yellow temple"},
                    "stock": {"black": {"coin": coins}}}, "yellow")
    play(game, "aurum")
    assert asked(game) == ("yellow", "a2.no_coin")
    assert options(game) == {"marble", "iron", "gold"}
    with pytest.raises(IllegalChoice, match="'coin' is not marble, iron or gold"):
        game.apply("coin")
    play(game, "gold")
    assert game.state.stock["yellow"] == {"marble": 0, "iron": 0, "gold": 4, "coin": 0}
    assert asked(game) != ("yellow", "a2.no_coin")


def test_what_a_temple_city_yields_is_the_packs_parameter(tmp_path: Path) -> None:
    """The book's 3 per city with a temple is ``temple_production``; a city without one
    yields 1 whatever the parameter."""
    path = tmp_path / "v.yaml"
    path.write_text("extends: antike2\nparams: {temple_production: 5}\n", encoding="utf-8")
    rules = load_ruleset("antike2", variant=path)
    game = at_turn({"cities": {"SYRACUS": "yellow temple", "CARTHAGO": "yellow"}}, "yellow",
                   rules=rules)
    assert amount(game, "yellow", "gold") == 6
    assert amount(at_turn({"cities": {"SYRACUS": "yellow temple"}}, "yellow"), "yellow",
                  "gold") == 3


def test_the_production_sentence_tells_whether_the_coin_came() -> None:
    """What a player reads says what happened: three gold and the coin, or three gold and
    no coin (the bank empty, a resource instead), counted in the language's plural."""
    from mnrules.language.present import presenter

    def told(stock: dict[str, dict[str, int]], lang: str) -> str:
        game = at_turn({"cities": {"SYRACUS": "yellow temple"}, "stock": stock}, "yellow")
        seen: list[Event] = []
        game.listeners.append(seen.append)
        play(game, "aurum")
        say = presenter(game.rules, lang)
        return " ".join(say.event(game, e, None) or "" for e in seen if e.kind == "produce")

    empty = {"black": {"coin": RULES.components["coins"]}}
    last = {"black": {"coin": RULES.components["coins"] - 1}}    # the bank's last coin
    assert told({}, "en") == "Yellow produces 3 gold and takes a coin from the bank."
    assert told(last, "en") == "Yellow produces 3 gold and takes a coin from the bank."
    assert "the bank has no coin left" in told(empty, "en")
    assert told({}, "ru") == "Желтый производит: 3 золота и получает монету из банка."
    assert "в банке нет монет" in told(empty, "ru")
