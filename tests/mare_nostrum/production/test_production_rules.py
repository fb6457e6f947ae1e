"""Phase 1 — Collect resources (FR 1.1-1.4; NL/PL/UK 1.1-1.2; digest §6): the pack's
choices a variant may make, what a player is told he collected, and the income a bot
plans with, which must be the income collected."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from conftest import pending
from mare_nostrum import api
from mare_nostrum import position as pos
from mare_nostrum.production import income
from mnrules import Game, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from mnrules.errors import MnrulesError
from mnrules.hooks.hookspecs import hookimpl
from test_production import blank, build, collect


@pytest.mark.parametrize("collects", [False, True])
def test_a_variant_may_say_whether_round_one_collects(
        fresh_rules: Callable[..., Ruleset], collects: bool) -> None:
    """Setup 3 (every edition): the starting resources are round 1's income, so round 1
    has no Collect phase; a variant may say so explicitly (false) or give round 1 a
    Collect phase (true). Greece's capital and city: two coins, or none in round 1."""
    rules = fresh_rules(first_round_collects=collects)
    assert rules.params["first_round_collects"] is collects
    game = blank(rules)
    build(game, "greece", "ACHAEA", "capital", "city")
    pos.start_phase(game, "production", round=1)
    assert pending(game) == ("carthage", "trade.token")
    assert game.state.screens["greece"] == ({"coin": 2} if collects else {})


def test_round_one_collects_is_a_yes_or_no(fresh_rules: Callable[..., Ruleset]) -> None:
    with pytest.raises(MnrulesError, match="first_round_collects"):
        fresh_rules(first_round_collects="sometimes")


def test_a_temple_beside_a_legendary_city_may_add_one_thing_only(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """1.1/1.2: a legendary city gives a coin and a legendary good, and with a temple one
    more of a list (coin or legendary good, the controller's choice). A variant whose
    list is only a coin gives the coin, and asks nothing."""
    rules = fresh_rules(legendary_temple_bonus=["coin"])
    game = blank(rules)
    build(game, "greece", "ASIA", "legendary", "temple")
    game.force("legendary draw", ["sheep"])
    assert collect(game) == {"greece": {"coin": 2, "legendary:sheep": 1}}


def test_what_a_player_is_told_he_collected_is_what_he_took(rules: Ruleset) -> None:
    """The supply is finite (NL/PL/UK Q&A 9): of Aethiopia's two grain (a caravan and a
    market) Egypt takes the one left, and is told one grain; Greece's capital and city
    with a temple, four coins, and he is told four."""
    game = blank(rules)
    build(game, "egypt", "AETHIOPIA", "caravan:grain", "market")
    build(game, "greece", "ACHAEA", "capital", "city", "temple")
    pos.give(game, "rome", {"grain": game.state.supply["grain"] - 1})
    told: dict[str, dict[str, int]] = {}

    def seen(e: Event) -> None:
        if e.kind == "collected" and e.player is not None:
            told[e.player] = dict(e.data["resources"])
    game.listeners.append(seen)
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("carthage", "trade.token")
    assert told["egypt"] == {"grain": 1} == game.state.screens["egypt"]
    assert told["greece"] == {"coin": 4} == game.state.screens["greece"]
    assert told["rome"] == {}


class Vineyards:
    """A modder's plugin: every player collects one wine more in each Collect phase."""

    @hookimpl
    def mn_income(self, game: Game, player: str) -> list[tuple[str, int]]:
        return [("wine", 1)]


@pytest.mark.parametrize("players", [3, 5])
def test_the_income_a_bot_plans_with_is_the_income_collected(
        fresh_rules: Callable[..., Ruleset], players: int) -> None:
    """Whatever plugin adds to a player's income (here a modder's "one wine more"), the
    incomes the bots read (``api.incomes``, the board counted once for all players)
    are each player's income (:func:`production.income`), and what he collects."""
    rules = fresh_rules()
    rules.pm.register(Vineyards(), name="test:vineyards")
    game = new_game(rules, players, seed=3)
    planned = api.incomes(game)
    for p in game.state.players:
        assert planned[p] == dict(_summed(income(game, p)))
        assert planned[p]["wine"] >= 1
    for p in game.state.players:
        pos.clear_screen(game, p)
    pos.start_phase(game, "production", round=2)
    while game.pending is not None and pending(game)[1] == "collect.choice":
        game.apply(game.legal()[0])
    for p in game.state.players:
        assert game.state.screens[p].get("wine", 0) >= 1


def _summed(items: list[tuple[str, int]]) -> dict[str, Any]:
    out: dict[str, int] = {}
    for k, n in items:
        out[k] = out.get(k, 0) + n
    return out


class Tithe:
    """A modder's wrapper around every income: one coin more for each player."""

    @hookimpl(wrapper=True)
    def mn_income(self, game: Game, player: str) -> Any:
        found = yield
        return [*found, [("coin", 1)]]


def test_a_wrapper_around_the_income_is_applied_once(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """A modder's plugin may wrap the income hook (pluggy's wrapper): "one coin more".
    Greece's capital and city then collect three coins, and the bots read three."""
    rules = fresh_rules()
    rules.pm.register(Tithe(), name="test:tithe")
    game = blank(rules)
    build(game, "greece", "ACHAEA", "capital", "city")
    assert api.incomes(game)["greece"] == {"coin": 3}
    assert collect(game)["greece"] == {"coin": 3}


@pytest.mark.parametrize(("province", "specs"), [
    ("AETHIOPIA", ("caravan:grain", "caravan:gold", "market")),
    ("ACHAEA", ("capital", "city", "temple")),
    ("ASIA", ("legendary", "temple")),
    ("MACEDONIA", ("caravan:metal", "caravan:oil")),
])
def test_what_a_bot_reads_a_province_yields_is_what_its_owner_collects(
        rules: Ruleset, province: str, specs: tuple[str, ...]) -> None:
    """1.1: a province's buildings yield to their controller (temples double cities,
    markets caravans, a temple beside a legendary city adds a choice); the yield a bot
    reads for those slots (``api.province_income``) is what Greece collects there."""
    game = blank(rules)
    slots = build(game, "greece", province, *specs)
    read = api.province_income(game, province, slots)
    assert read == dict(_summed(income(game, "greece")))
    assert sum(read.values()) >= len(specs) - 1
