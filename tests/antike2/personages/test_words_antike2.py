"""The words of Antike II's card scripts (``plugins/antike2/words.py``): the numbers a
script may give each quantity and each personage rule, the most a card's change makes of
a city's defence, and what the personage rules count where a save leaves a count out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a2_helpers import RULES, at_turn
from antike2.conquest import defence
from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.start import load_game
from mnrules.errors import MnrulesError, StateError
from test_conquest_antike2_rules import at_movere_in
from test_personages_victory import end_turn
from test_victory_antike2 import PACK


def patched(tmp_path: Path, card: str, script: str) -> Ruleset:
    """The pack with ``card``'s script replaced by ``script`` (its lines)."""
    variant = tmp_path / f"{card}.yaml"
    lines = "".join(f"        {line}\n" for line in script.splitlines())
    variant.write_text(f"extends: {PACK.resolve()}\ncards:\n  override:\n    {card}:\n"
                       f"      effects: |\n{lines}", encoding="utf-8")
    return load_ruleset(variant)


@pytest.mark.parametrize(("card", "script", "allowed"), [
    ("metallum", "modify production: add 10", "from 0 to 9"),
    ("bellona", "modify free_units: add 4", "from 0 to 3"),
    ("regnum", "modify city_defence: add 10", "from 0 to 9"),
    ("strata", "modify legion_reach: set 4", "from 1 to 3"),
    ("navigatio", "modify galley_reach: set 0", "from 1 to 3"),
    ("mercatura", "modify bank_trade: add 10", "from 0 to 9"),
    ("king", "after turn.personages: take a king with every 0 cities you own",
     "from 1 to 99"),
    ("citizen", "after turn.personages: take a citizen with every 100 temples you own",
     "from 1 to 99"),
    ("metallum", "after rondel: each opponent gives you 10 coin", "from 1 to 9"),
    ("metallum", "after rondel: each opponent gives you 0 coin", "from 1 to 9"),
    ("metallum", "after rondel: each opponent gives you 10 iron", "from 1 to 9"),
    ("metallum", "after rondel: each opponent gives you 0 gold", "from 1 to 9"),
    ("metallum", "after rondel: lose 10 coin", "from 1 to 9"),
    ("metallum", "after rondel: lose 0 coin", "from 1 to 9"),
])
def test_a_script_gives_each_quantity_the_numbers_the_game_allows(
        tmp_path: Path, card: str, script: str, allowed: str) -> None:
    """A script cannot make a legion cross four borders nor a know-how add ten: the
    number out of range is refused, naming the range (a card's change stays in the
    game's proportions)."""
    with pytest.raises(MnrulesError, match=f"out of range .* {allowed} allowed"):
        patched(tmp_path, card, script)


def test_a_script_may_give_the_edges_of_each_range(tmp_path: Path) -> None:
    """The ranges' own ends are allowed: no production bonus (0) or nine; a legion
    reach of 1; a king for every city (1) or for every 99."""
    rules = patched(tmp_path, "metallum", "modify production: add 0\nmodify production: add 9")
    assert "metallum" in rules.cards
    patched(tmp_path, "strata", "modify legion_reach: set 1")
    patched(tmp_path, "bellona", "modify free_units: add 0")
    patched(tmp_path, "mercatura", "modify bank_trade: add 0")
    patched(tmp_path, "regnum", "modify city_defence: add 0")
    king = patched(tmp_path, "king",
                   "after turn.personages: take a king with every 1 cities you own")
    game = at_turn({"cities": {"ROMA": "yellow", "NEAPOLIS": "yellow"}}, "yellow", rules=king)
    end_turn(game)
    assert game.state.personages["yellow"] == ["king", "king"]
    patched(tmp_path, "king", "after turn.personages: take a king with every 99 cities you own")
    patched(tmp_path, "metallum", "after rondel: each opponent gives you 1 coin\n"
            "after rondel: each opponent gives you 9 coin\n"
            "after rondel: each opponent gives you 1 iron\n"
            "after rondel: each opponent gives you 9 marble")


def test_a_cards_change_makes_a_citys_defence_at_most_99(tmp_path: Path) -> None:
    """A (patched) Regnum setting the defence to 9 and doubling it four times makes it
    99, not 144: the most a card's change may make of a city's defence."""
    rules = patched(tmp_path, "regnum", "modify city_defence: set 9\n"
                    + "modify city_defence: double\n" * 4)
    game = at_movere_in(rules, {"cities": {"GESOCRIBATE": "yellow", "ROMA": "yellow",
                                           "LUTETIA": "red"},
                                "know_how": {"yellow": ["regnum"]},
                                "units": {"red": {"GESOCRIBATE": {"legion": 1}}}}, "red")
    assert defence(game, "GESOCRIBATE") == 99


def test_a_nation_without_a_destroyed_temples_entry_counts_none() -> None:
    """The general's rule counts the temples a nation destroyed: a nation left out of
    that count (none destroyed) gets no general at the end of its turn. A save so made
    is refused at load (every per-nation map has every nation), so the state is edited
    here."""
    game = new_game(RULES, 4, seed=2)
    data = json.loads(game.snapshot().to_json())
    first = data["players"][0]
    data["destroyed"].pop(first)
    with pytest.raises(StateError, match=f"destroyed.{first}: missing"):
        load_game(RULES, data)
    loaded = load_game(RULES, game.snapshot().to_json())
    loaded.state.destroyed.pop(first)
    end_turn(loaded)
    assert "general" not in loaded.state.personages[first]


def test_res_publica_takes_the_place_of_regnum() -> None:
    """«+1, если защитник владеет Ноу-Хау REGNUM или 2, если ... RES PUBLICA»: Regnum's
    script adds 1 only while its nation does not know Res Publica, which adds 2."""
    city = {"cities": {"GESOCRIBATE": "yellow", "ROMA": "yellow"},
            "personages": {"yellow": ["king"] * 3}}
    plain = at_turn(city, "red")
    regnum = at_turn({**city, "know_how": {"yellow": ["regnum"]}}, "red")
    both = at_turn({**city, "know_how": {"yellow": ["regnum", "res_publica"]}}, "red")
    assert [defence(g, "GESOCRIBATE") for g in (plain, regnum, both)] == [1, 2, 3]


def test_a_cards_change_makes_a_bank_trade_at_most_nine(tmp_path: Path) -> None:
    """A (patched) Mercatura setting the bank's trade to 9 and doubling it gives 9
    resources, not 18: the most a card's change may make of one trade."""
    from antike2.trade import trades

    rules = patched(tmp_path, "mercatura", "modify bank_trade: set 9\n"
                    "modify bank_trade: double")
    game = at_turn({"know_how": {"yellow": ["mercatura"]},
                    "stock": {"yellow": {"iron": 2, "gold": 1}}}, "yellow", rules=rules)
    assert {taken for _, _, taken in trades(game, "yellow")} == {9}


def test_a_script_counts_a_nations_holdings(tmp_path: Path) -> None:
    """A modder's know-how may count what a nation holds ('per 2 cities you own', 'at
    least 2 temples you own'): Metallum rewritten to add one per two cities gives yellow,
    with four cities, two more; the words count the acting nation's own."""
    from antike2.production import amount, base_amount

    rules = patched(tmp_path, "metallum", "modify production: add 1 per 2 cities you own\n"
                    "modify production when at least 2 temples you own: add 5")
    cities = {"ROMA": "yellow", "NEAPOLIS": "yellow", "SYRACUS": "yellow temple",
              "CARTHAGO": "yellow", "CARALES": "green"}
    game = at_turn({"cities": cities, "know_how": {"yellow": ["metallum"]}}, "yellow",
                   rules=rules)
    for resource in ("marble", "iron", "gold"):
        assert amount(game, "yellow", resource) == base_amount(game, "yellow", resource) + 2
        assert amount(game, "green", resource) == base_amount(game, "green", resource)
    cities["ROMA"] = "yellow temple"
    game = at_turn({"cities": cities, "know_how": {"yellow": ["metallum"]}}, "yellow",
                   rules=rules)
    assert amount(game, "yellow", "gold") == base_amount(game, "yellow", "gold") + 7


def test_a_stock_that_omits_a_resource_holds_none_of_it() -> None:
    """A save may list only the resources a nation holds ({coin: 2}): 'gold you have'
    counts 0 of the gold it omits, 'you have 1 gold' is false, and paying it takes none."""
    from mnrules.content.ruleset import vocabulary
    from mnrules.language.compiler import Env

    game = new_game(RULES, 4, seed=1)
    nation = game.state.players[0]
    game.state.stock[nation] = {"coin": 2}
    words = {w.pattern: w for w in vocabulary(RULES).words("count")}
    conds = {w.pattern: w for w in vocabulary(RULES).words("condition")}
    acts = {w.pattern: w for w in vocabulary(RULES).words("action")}
    env = Env(game, nation, "moneta", {})
    assert words["{good} you have"].meaning(env, "gold") == 0
    assert words["coin you have"].meaning(env) == 2
    assert not conds["you have {n} {good}"].meaning(env, 1, "gold")
    assert conds["you have {n} coin"].meaning(env, 2)
    acts["lose {n} {good}"].meaning(env, 1, "gold")
    acts["pay {n} coin"].meaning(env, 1)
    assert game.state.stock[nation] == {"coin": 1}
