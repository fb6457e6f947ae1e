"""Scientia (book 002, «SCIENTIA / Ноу-Хау»): know-how for gold (coins for gold), the
higher price for the first nation, the lower after; a column bottom up; several in a
turn; and the pack's price table checked against the know-how cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from a2_helpers import RULES, asked, at_turn, options, play, variant_file
from antike2.scientia import learnable, price
from mnrules import load_ruleset
from mnrules.core.effects import Event
from mnrules.errors import IllegalChoice, MnrulesError


def test_a_pack_that_leaves_the_prices_out_plays_the_shipped_reconstruction() -> None:
    """The plugin's default table is the pack's (the book's example fits it), so a pack
    extending another game, or written from scratch, prices the know-how the same."""
    assert RULES.declared["know_how"].default == RULES.params["know_how"]


def test_a_later_nation_pays_the_lower_price_and_wins_no_scholar() -> None:
    """«Первая нация ... платит более высокую цену ... последующие нации платят более
    низкую цену.» Coins stand for gold."""
    game = at_turn({"know_how": {"green": ["navigatio"]}, "firsts": {"navigatio": "green"},
                    "stock": {"black": {"gold": 3, "coin": 1}}}, "black")
    assert price(game, "navigatio") == 4
    seen: list[Event] = []
    game.listeners.append(seen.append)
    play(game, "scientia", ("learn", "navigatio"))
    assert game.state.firsts == {"navigatio": "green"}
    assert game.state.know_how["black"] == ["navigatio"]
    assert game.state.stock["black"] == {"marble": 0, "iron": 0, "gold": 0, "coin": 0}
    assert [e.data for e in seen if e.kind == "learn"] == [
        {"know_how": "navigatio", "price": 4, "first": False,
         "paid": {"gold": 3, "coin": 1}}]


def test_the_upper_know_how_of_a_column_waits_for_the_lower() -> None:
    game = at_turn({"know_how": {"black": ["metallum"]},
                    "stock": {"black": {"gold": 99}}}, "black")
    assert "moneta" in learnable(game, "black")
    assert "commercium" not in learnable(game, "black")
    assert "metallum" not in learnable(game, "black")   # held already
    play(game, "scientia")
    with pytest.raises(IllegalChoice, match="black cannot learn \\('learn', 'res_publica'\\)"):
        game.apply(("learn", "res_publica"))


def test_done_stops_learning_with_gold_left() -> None:
    game = at_turn({"stock": {"black": {"gold": 10}}}, "black")
    play(game, "scientia", ("learn", "mercatura"), ("done",))
    assert asked(game) != ("black", "a2.scientia")
    assert game.state.stock["black"]["gold"] == 6
    assert game.state.know_how["black"] == ["mercatura"]


def test_gold_for_nothing_offers_nothing() -> None:
    game = at_turn({"stock": {"black": {"gold": 1, "marble": 9}}}, "black")
    play(game, "scientia")
    assert asked(game) != ("black", "a2.scientia")
    assert options(game) and game.state.know_how["black"] == []


@pytest.mark.parametrize(("text", "says"), [
    ("params: {know_how: {moneta: {after: metalum}}}",
     "params.know_how.moneta.after: 'metalum' is no know-how; did you mean 'metallum'?"),
    ("cards: {remove: [strata]}", "params.know_how.strata: no know-how card has this id"),
])
def test_the_price_table_names_the_know_how_cards(tmp_path: Path, text: str,
                                                  says: str) -> None:
    with pytest.raises(MnrulesError) as caught:
        load_ruleset("antike2", variant=variant_file(tmp_path, text))
    assert says in str(caught.value)
    assert ".yaml:" in str(caught.value)   # the file and line of the faulty entry


def test_every_know_how_card_needs_a_price(tmp_path: Path) -> None:
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "forum.yaml").write_text(
        "id: forum\nkind: know-how\nphase: turn\nnames: {en: Forum}\n"
        "text: {en: A forum.}\neffects: |\n  modify legion_reach: set 2\n",
        encoding="utf-8")
    with pytest.raises(MnrulesError, match=r"params\.know_how: no price for forum "):
        load_ruleset("antike2", variant=variant_file(tmp_path, "cards: {add: [./cards]}\n"))
