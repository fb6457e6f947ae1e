"""The rondel, production, Militia, Templum, Scientia, founding and the bank trades as
the Russian rulebook (seed 002) states them, beside the worked examples the scenario
files play (the scenarios/ of tests/antike2/economy/)."""

from __future__ import annotations

import pytest

from a2_helpers import RULES, VARIANTS, asked, at_turn, options, play, until
from antike2.production import amount
from antike2.rondel import cost, spaces
from antike2.scientia import price
from antike2.supply import bank_coins, temples_left
from mnrules import load_ruleset
from mnrules.errors import IllegalChoice

YELLOW = {"ROMA": "yellow", "NEAPOLIS": "yellow", "SYRACUS": "yellow"}


def test_the_rondel_has_eight_spaces_and_the_book_costs_from_ferrum() -> None:
    """«Маркер нации расположен на FERRUM. Можно перейти на TEMPLUM, AURUM, или MOVERE
    бесплатно. ... MILITIA ... 1 ресурс, ... MARMOR 2 ресурса.»"""
    game = at_turn({}, "yellow")
    assert len(spaces(game)) == 8
    costs = {s: cost(game, "ferrum", s) for s in spaces(game)}
    assert costs == {"templum": 0, "aurum": 0, "movere": 0, "militia": 1, "marmor": 2,
                     "scientia": 3, "movere_2": 4, "ferrum": 5}
    assert {s: cost(game, "", s) for s in spaces(game)} == dict.fromkeys(spaces(game), 0)


def test_a_marker_never_stands_still_and_moves_only_as_far_as_it_can_pay() -> None:
    game = at_turn({"cities": YELLOW, "rondel": {"yellow": "aurum"}}, "yellow")
    assert options(game) == {"movere", "militia", "marmor"}
    with pytest.raises(IllegalChoice, match="rondel"):
        game.apply("aurum")


def test_production_counts_one_per_city_three_with_a_temple_and_a_coin() -> None:
    game = at_turn({"cities": {"SYRACUS": "yellow temple", "CARTHAGO": "yellow",
                               "ROMA": "yellow"}}, "yellow")
    assert amount(game, "yellow", "gold") == 4
    assert amount(game, "yellow", "marble") == 1
    assert amount(game, "yellow", "iron") == 0
    play(game, "ferrum")
    assert game.state.stock["yellow"]["coin"] == 1  # a coin whatever was produced
    assert bank_coins(game) == RULES.components["coins"] - 1


@pytest.mark.parametrize(("know_how", "extra"), [([], 0), (["metallum"], 1),
                                                 (["metallum", "moneta"], 2)])
def test_metallum_adds_one_and_moneta_two_in_its_place(know_how: list[str],
                                                       extra: int) -> None:
    """«METALLUM: 1 дополнительный ресурс ... MONETA: 2 дополнительных ресурса» — the
    marker moves up the column: Moneta's 2 replace Metallum's 1, they do not add to 3."""
    game = at_turn({"cities": YELLOW, "know_how": {"yellow": know_how}}, "yellow")
    play(game, "aurum")
    assert game.state.stock["yellow"]["gold"] == 1 + extra


def test_militia_pays_two_iron_a_unit_and_coins_stand_for_iron() -> None:
    game = at_turn({"cities": YELLOW, "stock": {"yellow": {"iron": 1, "coin": 3}},
                    "bellona": "green"}, "yellow")
    play(game, "militia", ("legion", "ROMA"))
    assert game.state.stock["yellow"] == {"marble": 0, "iron": 0, "gold": 0, "coin": 2}
    play(game, ("galley", "NEAPOLIS"))
    assert game.state.stock["yellow"]["coin"] == 0
    assert asked(game) != ("yellow", "a2.militia")  # nothing left to pay with


def test_militia_stops_at_the_box_twelve_legions() -> None:
    game = at_turn({"cities": {"ROMA": "yellow temple"},
                    "units": {"yellow": {"LUGDUNUM": {"legion": 12}}},
                    "stock": {"yellow": {"iron": 10}}, "bellona": "green"}, "yellow")
    play(game, "militia")
    assert options(game) == {("done",), ("galley", "ROMA")}


def test_templum_stops_when_the_twenty_temples_are_on_the_board() -> None:
    cities = {r: "black temple" for r in list(RULES.board.regions)[20:40]
              if RULES.board.regions[r].city != "universal"}
    cities.update(YELLOW)
    game = at_turn({"cities": cities, "neutral": [],
                    "stock": {"yellow": {"marble": 10}}}, "yellow")
    assert temples_left(game) == 0
    play(game, "templum")
    assert asked(game) != ("yellow", "a2.templum")


def test_scientia_columns_are_learnt_bottom_up_and_several_in_a_turn() -> None:
    game = at_turn({"stock": {"black": {"gold": 40}}}, "black")
    play(game, "scientia")
    learnable = {o[1] for o in options(game) if o[0] == "learn"}
    assert learnable == {"mercatura", "metallum", "regnum", "strata", "navigatio"}
    play(game, ("learn", "regnum"))
    assert ("learn", "res_publica") in options(game)
    assert price(game, "regnum") == 6  # black was first: the next pays the lower price
    play(game, ("learn", "res_publica"))
    assert game.state.firsts == {"regnum": "black", "res_publica": "black"}
    assert game.state.stock["black"]["gold"] == 40 - 12 - 16


def test_founding_one_city_per_region_none_under_a_neutral_temple() -> None:
    """«Общий лимит города для каждого региона 1. В регионах с нейтральными храмами эти
    храмы должны быть разрушены до строительства нового города.»"""
    game = at_turn({"cities": {**YELLOW, "CARALES": "green"}, "neutral": ["ANCONA"],
                    "units": {"yellow": {"ANCONA": {"legion": 1}, "CARALES": {"galley": 1},
                                         "LUNA": {"legion": 1}}},
                    "stock": {"yellow": {"marble": 3, "iron": 3, "gold": 3}}}, "yellow")
    until(game, "a2.rondel", "yellow")
    play(game, "templum")
    assert options(game) == {("done",), ("found", "LUNA", "marble")}
    with pytest.raises(IllegalChoice, match="neutral temple"):
        game.apply(("found", "ANCONA", "marble"))
    with pytest.raises(IllegalChoice, match="has a city already"):
        game.apply(("found", "CARALES", "iron"))


def test_founding_stops_when_the_nations_24_tokens_are_out() -> None:
    regions = [r for r, site in RULES.board.regions.items() if site.city != "universal"
               and not site.neutral_temple and r != "LUNA"][:24]
    game = at_turn({"cities": dict.fromkeys(regions, "yellow"),
                    "units": {"yellow": {"LUNA": {"legion": 1}}},
                    "stock": {"yellow": {"marble": 3, "iron": 3, "gold": 3}}}, "yellow")
    assert "LUNA" not in regions
    play(game, "templum")
    assert asked(game) != ("yellow", "a2.found")


def test_free_choice_of_a_citys_resource_variant() -> None:
    """The book's variant «Свободный выбор ресурсов городов»."""
    rules = load_ruleset("antike2", variant=f"{VARIANTS}/free_city_resource.yaml")
    game = at_turn({"units": {"yellow": {"LUNA": {"legion": 1}}},
                    "stock": {"yellow": {"marble": 1, "iron": 1, "gold": 1}}}, "yellow",
                   rules=rules)
    play(game, "templum")
    assert options(game) == {("done",), ("found", "LUNA", "marble"),
                             ("found", "LUNA", "iron"), ("found", "LUNA", "gold")}


def test_mercatura_trades_two_for_one_but_not_in_the_turn_it_is_learnt() -> None:
    """«Торг возможен в любое время во время хода игрока, но не во время хода, в котором
    игрок развивает MERCATURA.» Coins pay, the bank never gives one."""
    game = at_turn({"stock": {"yellow": {"gold": 8}}}, "yellow")
    play(game, "scientia", ("learn", "mercatura"))
    assert asked(game) != ("yellow", "a2.trade")   # learnt this turn: no trade yet
    assert game.state.know_how["yellow"] == ["mercatura"]
    until(game, "a2.trade", "yellow")              # yellow's next turn opens with trades
    assert options(game) == {("done",), ("trade", 2, 1)}
    play(game, ("trade", 2, 1))
    assert asked(game) == ("yellow", "a2.trade_take")
    assert options(game) == {"marble", "iron", "gold"}
    play(game, "iron")
    assert game.state.stock["yellow"]["gold"] == 2 and game.state.stock["yellow"]["iron"] == 1


def test_commercium_adds_a_three_for_two_trade() -> None:
    game = at_turn({"know_how": {"yellow": ["mercatura", "commercium"]},
                    "stock": {"yellow": {"marble": 2, "coin": 1}}}, "yellow")
    assert options(game) == {("done",), ("trade", 2, 1), ("trade", 3, 2)}
    play(game, ("trade", 3, 2), "marble", "marble", "gold", "gold")  # the coin pays last
    assert game.state.stock["yellow"] == {"marble": 0, "iron": 0, "gold": 2, "coin": 0}
    assert ("trade", 3, 2) not in options(game)
