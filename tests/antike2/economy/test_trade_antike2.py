"""Trading with the bank (book 002, Scientia: MERCATURA «2 к 1», COMMERCIUM «3 к 2»):
resources of any kind and mix (coins too) paid, resources of one's choice taken, never a
coin; offered wherever a payment follows in the nation's turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from a2_helpers import asked, at_turn, options, play
from antike2.trade import paid_kinds, trades
from mnrules import load_ruleset
from mnrules.core.effects import Event
from mnrules.errors import IllegalChoice

BOTH = {"yellow": ["mercatura", "commercium"]}


def test_a_trade_is_offered_only_when_the_nation_holds_what_it_pays() -> None:
    game = at_turn({"know_how": BOTH, "stock": {"yellow": {"iron": 1, "coin": 1}}}, "yellow")
    assert options(game) == {("done",), ("trade", 2, 1)}      # 2 held: not 3 for 2
    assert trades(at_turn({"know_how": BOTH, "stock": {"yellow": {"iron": 1}}}, "yellow"),
                  "yellow") == ()


def test_without_mercatura_a_nation_is_never_asked_to_trade() -> None:
    game = at_turn({"stock": {"yellow": {"gold": 9}}}, "yellow")
    assert trades(game, "yellow") == ()
    assert asked(game) == ("yellow", "a2.rondel")


def test_the_bank_never_gives_a_coin_and_the_trade_is_told_once_complete() -> None:
    game = at_turn({"know_how": BOTH, "stock": {"yellow": {"iron": 3}}}, "yellow")
    seen: list[Event] = []
    game.listeners.append(seen.append)
    play(game, ("trade", 3, 2))
    assert asked(game) == ("yellow", "a2.trade_take")
    with pytest.raises(IllegalChoice, match="'coin' is not marble, iron or gold \\(never a "
                       "coin\\)"):
        game.apply("coin")
    play(game, "gold")
    assert [e for e in seen if e.kind == "trade"] == []  # one more to take
    assert "1 to take" in game.pending.prompt  # type: ignore[union-attr]
    play(game, "marble")
    assert [e.data for e in seen if e.kind == "trade"] == [{"paid": 3, "took": ["gold",
                                                                              "marble"]}]
    assert game.state.stock["yellow"] == {"marble": 1, "iron": 0, "gold": 1, "coin": 0}


def test_a_trade_under_way_knows_what_its_payment_paid() -> None:
    """3 for 2 paid with 2 iron and a marble: while its resources are taken the trade
    holds the stock before the payment, so a kind paid is known (taking it back would
    be a loss), a kind taken is not one paid; the record goes with the trade."""
    game = at_turn({"know_how": BOTH, "stock": {"yellow": {"iron": 2, "marble": 1,
                                                          "coin": 1}}}, "yellow")
    play(game, ("trade", 3, 2), "iron", "iron", "marble")
    assert asked(game) == ("yellow", "a2.trade_take")
    frame = game.state.stack[-1]
    assert frame["held"] == {"marble": 1, "iron": 2, "gold": 0, "coin": 1}
    assert paid_kinds(frame, game.state.stock["yellow"]) == {"iron", "marble"}
    play(game, "iron")   # one of the two iron paid taken back: iron is still a kind paid
    assert paid_kinds(frame, game.state.stock["yellow"]) == {"iron", "marble"}
    play(game, "gold")
    assert asked(game) == ("yellow", "a2.trade")
    assert "held" not in game.state.stack[-1] and "took" not in game.state.stack[-1]


def test_done_ends_the_trading_and_the_turn_goes_on() -> None:
    game = at_turn({"know_how": BOTH, "stock": {"yellow": {"iron": 6}}}, "yellow")
    play(game, ("trade", 2, 1), "gold")
    assert asked(game) == ("yellow", "a2.trade")
    with pytest.raises(IllegalChoice, match="yellow cannot make the trade \\('trade', 5, 1\\)"):
        game.apply(("trade", 5, 1))
    play(game, ("done",))
    assert asked(game) == ("yellow", "a2.rondel")
    assert game.state.stock["yellow"] == {"marble": 0, "iron": 4, "gold": 1, "coin": 0}


def test_a_pack_may_allow_no_bank_trade_at_all(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("extends: antike2\nparams: {trade_sizes: []}\n", encoding="utf-8")
    rules = load_ruleset("antike2", variant=path)
    game = at_turn({"know_how": BOTH, "stock": {"yellow": {"iron": 6}}}, "yellow",
                   rules=rules)
    assert trades(game, "yellow") == ()
    assert asked(game) == ("yellow", "a2.rondel")


def test_a_trade_is_offered_again_before_an_action_that_pays() -> None:
    """«Торг возможен в любое время во время хода игрока»: declined before the move, the
    trade is offered again when Templum is to be paid, once."""
    game = at_turn({"know_how": BOTH, "cities": {"ROMA": "yellow"},
                    "stock": {"yellow": {"gold": 4, "marble": 3}}}, "yellow")
    play(game, ("done",), "templum")
    assert asked(game) == ("yellow", "a2.trade")
    play(game, ("trade", 2, 1), "gold", "gold", "marble")
    play(game, ("trade", 2, 1), "gold", "gold", "marble")
    assert game.state.stock["yellow"] == {"marble": 5, "iron": 0, "gold": 0, "coin": 0}
    play(game, ("done",))
    assert asked(game) == ("yellow", "a2.templum")
    play(game, ("temple", "ROMA"))
    assert game.state.cities["ROMA"]["temple"]
    assert asked(game) != ("yellow", "a2.trade")


@pytest.mark.parametrize(("action", "step"), [("templum", "a2.templum"),
                                              ("scientia", "a2.scientia"),
                                              ("militia", "a2.militia")])
def test_each_action_that_pays_opens_with_the_trade(action: str, step: str) -> None:
    """Templum, Scientia and Militia pay: each is preceded by the offer, and the action
    is played after the nation is done trading."""
    game = at_turn({"know_how": BOTH, "cities": {"ROMA": "yellow"}, "bellona": "green",
                    "stock": {"yellow": {"gold": 8, "marble": 5, "iron": 2}}}, "yellow")
    play(game, ("done",), action)
    assert asked(game) == ("yellow", "a2.trade")
    play(game, ("done",))
    assert asked(game) == ("yellow", step)
