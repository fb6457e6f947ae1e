"""The box and the bank (book 002: «Снабжение ограничено», supply is limited except
resources; «Монеты в игре заменяют любые ресурсы»): what is left is the box minus what is
out, a cost is paid with its resources and a coin for each one missing, and the pack's box
is checked before a game."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from a2_helpers import RULES, at_turn, variant_file
from antike2.state import Game
from antike2.supply import can_pay, pay, take_coin
from mnrules import load_ruleset
from mnrules.core.invariants import check
from mnrules.core.start import load_game
from mnrules.errors import MnrulesError


def test_a_cost_is_paid_with_its_resources_and_a_coin_for_each_one_missing() -> None:
    game = at_turn({"stock": {"yellow": {"marble": 1, "iron": 3, "coin": 2}}}, "yellow")
    cost = {"marble": 1, "iron": 1, "gold": 1}
    assert can_pay(game.state, "yellow", cost)
    assert not can_pay(game.state, "yellow", {"gold": 3})
    assert pay(game, "yellow", cost) == {"marble": 1, "iron": 1, "coin": 1}
    assert game.state.stock["yellow"] == {"marble": 0, "iron": 2, "gold": 0, "coin": 1}
    assert pay(game, "yellow", {"iron": 3}) == {"iron": 2, "coin": 1}


def test_the_bank_gives_coins_until_it_has_none() -> None:
    coins = RULES.components["coins"]
    game = at_turn({"stock": {"black": {"coin": coins - 1}}}, "yellow")
    assert take_coin(game, "yellow") is True
    assert take_coin(game, "yellow") is False
    assert game.state.stock["yellow"]["coin"] == 1
    assert check(game) == []


def test_the_summary_counts_a_nations_temples_and_its_seas() -> None:
    """Navigators (book: «морское присутствие удваивается»): a sea with the galley symbol
    counts twice; a legion at sea or a galley in a land region counts for nothing."""
    game = at_turn({"cities": {"ROMA": "yellow temple", "NEAPOLIS": "yellow",
                               "SYRACUS": "black temple", "CARTHAGO": "black temple"},
                    "units": {"yellow": {"MARE_TYRRHENUM": {"galley": 2},
                                         "MARE_IONIUM": {"galley": 1},
                                         "MARE_SARDOUM": {"galley": 0},
                                         "NEAPOLIS": {"galley": 1}}}}, "yellow")
    figures = game.report()["yellow"]
    assert figures["temples"] == 1 and figures["cities"] == 2
    assert figures["seas"] == 1 + 2


def test_the_box_is_full_at_twelve_legions_and_broken_at_thirteen() -> None:
    game = at_turn({"units": {"yellow": {"ROMA": {"legion": 12, "galley": 13}}}}, "yellow")
    assert check(game) == []
    game.state.units["yellow"]["ROMA"]["legion"] = 13
    assert check(game) == ["yellow has more than 12 legions on the board"]


@pytest.mark.parametrize(("edit", "says"), [
    (lambda g: g.state.stock["yellow"].update(iron=-1), "yellow holds -1 iron"),
    (lambda g: g.state.stock["yellow"].update(coin=RULES.components["coins"] + 1),
     "the nations hold more than the 50 coins of the box"),
    (lambda g: g.state.personages["yellow"].extend(["pliny", "pliny"]),
     "more pliny personages taken than the box holds"),
    (lambda g: g.state.cities.update(ANCONA={"owner": "yellow", "resource": "marble",
                                             "temple": False}),
     "ANCONA holds both a city and a neutral temple"),
    (lambda g: g.state.cities.update(LUNA={"owner": "purple", "resource": "marble",
                                           "temple": False}),
     "the city of LUNA belongs to purple, not a player"),
])
def test_the_rules_invariants_name_what_the_box_cannot_hold(edit: Callable[[Game], object],
                                                            says: str) -> None:
    game = at_turn({"neutral": ["ANCONA"], "stock": {"yellow": {"iron": 0}}}, "yellow")
    assert check(game) == []
    edit(game)
    assert says in check(game)


def test_the_neutral_temples_count_among_the_boxs_twenty() -> None:
    """«20 Храмов» in the box, and «Если все 20 храмов на игровом поле, то больше их
    построить нельзя»: the board's six neutral temples and 14 in cities are the 20; a
    fifteenth city temple is one the box does not hold."""
    sites = [r for r, site in RULES.board.regions.items() if site.city != "universal"
             and not site.neutral_temple]
    game = at_turn({"cities": {r: "black temple" for r in sites[:14]}}, "yellow")
    assert len(game.state.neutral) == 6
    assert check(game) == []
    game.state.cities[sites[14]] = {"owner": "black", "resource": "marble", "temple": True}
    assert check(game) == ["more than 20 temples on the board (21, 6 of them neutral)"]


@pytest.mark.parametrize(("text", "says"), [
    ("components: {temples: 1000}", "components.temples: expected a whole number from 0 "
     "to 999, got 1000"),
    ("components: {legion: true}", "components.legion: expected a whole number"),
    ("components: {coins: 2.5}", "components.coins: expected a whole number"),
    ("components: {personages: {king: -1}}", "components.personages.king: expected a "
     "whole number"),
    ("components: {personages: {kings: 3}}", "components.personages.kings: no such "
     "personage; did you mean 'king'?"),
])
def test_a_box_that_cannot_be_is_refused_at_its_key(tmp_path: Path, text: str,
                                                      says: str) -> None:
    with pytest.raises(MnrulesError) as caught:
        load_ruleset("antike2", variant=variant_file(tmp_path, text))
    assert says in str(caught.value)


def test_the_largest_box_loads(tmp_path: Path) -> None:
    rules = load_ruleset("antike2", variant=variant_file(
        tmp_path, "components: {temples: 999, coins: 0}"))
    assert rules.components["temples"] == 999 and rules.components["coins"] == 0


def test_a_save_that_lists_nothing_held_pays_for_nothing() -> None:
    """A save may leave out what a nation holds none of: an empty stock pays no cost."""
    game = at_turn({"cities": {"ROMA": "yellow"}}, "yellow")
    data = json.loads(game.snapshot().to_json())
    data["stock"]["yellow"] = {}
    loaded = load_game(RULES, data)
    assert not can_pay(loaded.state, "yellow", {"gold": 1})
    assert can_pay(loaded.state, "yellow", {})


def test_every_general_of_the_box_taken_is_no_fault_one_more_is() -> None:
    """The box's generals may all be held (the bank empty); one more than it holds is a
    broken state."""
    game = at_turn({}, "yellow")
    n = int(RULES.components["personages"]["general"])
    game.state.personages = {"yellow": ["general"] * n}
    assert check(game) == []
    game.state.personages["yellow"].append("general")
    assert check(game) == ["more general personages taken than the box holds"]
