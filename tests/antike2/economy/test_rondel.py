"""The rondel (book 002, «Ход игры», 1. «Выбор сектора на ронделе»): the marker's moves,
what they cost, the action each space plays, and the pack's rondel checked before a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from a2_helpers import asked, at_turn, options, play
from antike2.rondel import distance, space_ids, spaces
from mnrules import load_ruleset
from mnrules.core.effects import Event
from mnrules.core.invariants import check
from mnrules.errors import IllegalChoice, MnrulesError

YELLOW = {"ROMA": "yellow", "NEAPOLIS": "yellow", "SYRACUS": "yellow"}


def test_the_second_space_of_an_action_is_told_apart() -> None:
    """The rondel has two Movere spaces: the second is ``movere_2``, a third would be
    ``movere_3``; every other space is its action's name."""
    assert spaces(at_turn({}, "yellow"))[-1] == "movere_2"
    assert space_ids(["movere", "ferrum", "movere", "movere"]) == (
        "movere", "ferrum", "movere_2", "movere_3")


def test_distances_run_clockwise_and_the_same_space_is_a_full_circle() -> None:
    """«...а чтобы снова оказаться на том же секторе, нужно пройти 8 секторов»."""
    game = at_turn({}, "yellow")
    assert distance(game, "ferrum", "templum") == 1
    assert distance(game, "templum", "ferrum") == 7   # clockwise only, never back
    assert distance(game, "movere_2", "ferrum") == 1  # the circle closes
    assert distance(game, "aurum", "aurum") == 8


def test_on_its_first_turn_a_nation_may_take_any_space_for_nothing() -> None:
    """«В первый ход нация может выбрать любой сектор рондели.»"""
    game = at_turn({"cities": YELLOW}, "yellow")
    assert options(game) == set(spaces(game))
    assert "off the rondel" in game.pending.prompt  # type: ignore[union-attr]
    seen: list[Event] = []
    game.listeners.append(seen.append)
    play(game, "scientia")
    assert game.state.rondel["yellow"] == "scientia"
    assert asked(game) != ("yellow", "a2.pay")
    assert [(e.data["space"], e.data["from"], e.data["cost"]) for e in seen
            if e.kind == "rondel"] == [("scientia", "", 0)]


def test_a_free_move_plays_the_space_at_once_and_a_paid_one_asks_for_payment_first() -> None:
    """Three spaces are free; Militia from Ferrum costs one resource of the nation's choice,
    paid before the units are raised."""
    game = at_turn({"cities": YELLOW, "rondel": {"yellow": "ferrum"},
                    "stock": {"yellow": {"iron": 4, "gold": 1}}, "bellona": "green"}, "yellow")
    play(game, "militia")
    assert asked(game) == ("yellow", "a2.pay")
    assert options(game) == {"iron", "gold"}
    play(game, "gold")
    assert asked(game) == ("yellow", "a2.militia")
    assert game.state.stock["yellow"]["gold"] == 0

    free = at_turn({"cities": YELLOW, "rondel": {"yellow": "ferrum"},
                    "stock": {"yellow": {"marble": 5}}}, "yellow")
    play(free, "templum")
    assert asked(free) == ("yellow", "a2.templum")
    assert free.state.stock["yellow"]["marble"] == 5


def test_a_full_circle_costs_five_and_plays_the_space_again() -> None:
    """«...нужно пройти 8 секторов и заплатить 5 ресурсов.»"""
    game = at_turn({"cities": YELLOW, "rondel": {"yellow": "aurum"},
                    "stock": {"yellow": {"marble": 5}}}, "yellow")
    assert "aurum" in options(game)
    play(game, "aurum")
    assert game.state.stock["yellow"] == {"marble": 0, "iron": 0, "gold": 1, "coin": 1}


def test_a_space_not_on_the_rondel_is_refused_naming_the_spaces() -> None:
    game = at_turn({"cities": YELLOW, "rondel": {"yellow": "ferrum"}}, "yellow")
    with pytest.raises(IllegalChoice, match="'forum' is no rondel space") as caught:
        game.apply("forum")
    assert "movere_2" in str(caught.value)
    with pytest.raises(IllegalChoice, match="would pay 5 resources to move from ferrum to "
                       "ferrum and holds 0"):
        game.apply("ferrum")


def test_a_marker_on_no_space_breaks_the_rules_invariants() -> None:
    game = at_turn({"cities": YELLOW, "rondel": {"yellow": "ferrum"}}, "yellow")
    assert check(game) == []
    game.state.rondel["yellow"] = "forum"
    assert check(game) == ["yellow's rondel marker stands on 'forum', no space"]


def _variant(tmp_path: Path, plugin: str) -> Path:
    (tmp_path / "extra.py").write_text(
        "from mnrules.hooks.hookspecs import hookimpl\n\n\n@hookimpl\n"
        f"def a2_actions() -> dict[str, str]:\n    return {plugin}\n", encoding="utf-8")
    path = tmp_path / "v.yaml"
    path.write_text("extends: antike2\nplugins: {add: [extra.py]}\n", encoding="utf-8")
    return path


def test_each_action_is_played_by_one_plugin_with_a_step_of_the_rule_set(
        tmp_path: Path) -> None:
    with pytest.raises(MnrulesError, match="'militia' is played by two plugins"):
        load_ruleset("antike2", variant=_variant(tmp_path, "{'militia': 'a2.templum'}"))
    with pytest.raises(MnrulesError, match=r"plays 'forum' with the step 'a2\.forum', "
                       r"which no plugin provides"):
        load_ruleset("antike2", variant=_variant(tmp_path, "{'forum': 'a2.forum'}"))
    rules = load_ruleset("antike2", variant=_variant(tmp_path, "{'forum': 'a2.templum'}"))
    assert "a2.rondel" in rules.steps


def test_a_player_reads_what_each_space_costs_before_he_picks_it() -> None:
    """The menu says the price of a space beyond the free three (Ferrum to Ferrum, the
    full circle: five resources; Militia from Ferrum: one), in English and in Russian."""
    from mnrules.language.present import presenter

    game = at_turn({"cities": YELLOW, "rondel": {"yellow": "ferrum"},
                    "stock": {"yellow": {"marble": 5}}}, "yellow")
    dec = game.pending
    assert dec is not None
    for lang, full, one, free in (("en", "Ferrum, paying 5 resources",
                                   "Militia, paying 1 resource", "Templum"),
                                  ("ru", "с оплатой: 5 ресурсов", "с оплатой: 1 ресурс",
                                   "Templum (храм)")):
        said = dict(zip(dec.options, presenter(game.rules, lang).options(game, dec),
                        strict=True))
        assert full in said["ferrum"] and one in said["militia"], said
        assert said["templum"] == free


def test_a_card_may_change_the_free_spaces_of_its_holder(tmp_path: Path) -> None:
    """The free spaces are a quantity (``rondel_free``), not only the pack's number: a
    modder's Strata that also gives one more free space lets yellow, who knows it, go
    from Ferrum to Militia (4 spaces) for nothing, and the option says so; green, who
    does not, still pays for the fourth space."""
    from test_words_antike2 import patched

    rules = patched(tmp_path, "strata", "modify legion_reach: set 2\n"
                    "modify rondel_free: add 1")
    position = {"cities": YELLOW, "rondel": {"yellow": "ferrum", "green": "ferrum"},
                "know_how": {"yellow": ["strata"]}, "bellona": "green",
                "stock": {"yellow": {"iron": 4}, "green": {"iron": 4}}}
    from mnrules.language.present import presenter

    costs, said = {}, {}
    for nation in ("yellow", "green"):
        game = at_turn(position, nation, rules=rules)
        said[nation] = presenter(rules).option(game, game.pending, "militia")
        seen: list[Event] = []
        game.listeners.append(seen.append)
        play(game, "militia")
        costs[nation] = [e.data["cost"] for e in seen if e.kind == "rondel"]
    assert costs == {"yellow": [0], "green": [1]}
    assert "pay" not in said["yellow"] and "pay" in said["green"]
