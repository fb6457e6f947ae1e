"""Trade rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from collections.abc import Callable

from conftest import pending, play
from mare_nostrum import position as pos
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from test_trade import DAVE, GRADY, SHORT, STOCK, offer, pick, trade_game


def test_everyone_is_told_who_gave_back_to_whom_but_not_what(rules: Ruleset) -> None:
    """EX-TRADE-5 (2.2.1): Dave ends the trade with nothing, so the trade leader, Grady,
    gives him one resource back. The table sees that Grady gave one to Dave; what he gave
    stays behind the screens (the choice is hidden).

    Kills: deleting the ``trade_giveback`` event in ``trade.Trade.choose`` (the give back
    happening unseen by the log, the summaries and the scenarios)."""
    game = trade_game(rules, n=3)
    told: list[Event] = []
    game.listeners.append(told.append)
    play(game, ("2/1", 1))
    offer(game)
    pick(game, "G<K")
    pick(game, "K<G")
    pick(game, "G<D")
    play(game, "oil")
    givebacks = [e for e in told if e.kind == "trade_giveback"]
    assert [(e.player, e.data) for e in givebacks] == [(GRADY, {"to": DAVE})]


def test_exclude_a_player_holding_exactly_the_token_value_takes_part(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """Kills: ``s <= held`` → ``s < held`` in ``Trade._sizes`` (trade_short_player:
    exclude). Kirsten holds 4 resources; the token is played at 4: she offers all four."""
    game = trade_game(fresh_rules(trade_short_player="exclude"), stock=SHORT)
    play(game, ("4/3", 4))
    assert offer(game) == {p: 4 for p in SHORT}


def test_antigone_holder_with_one_resource_is_asked_how_many(rules: Ruleset) -> None:
    """Kills: the size question skipped when only two numbers are possible
    (``len(sizes) > 1`` weakened). Rome holds Antigone and one resource: he chooses in
    secret to offer 0 or 1, and offers the one he chose to."""
    game = trade_game(rules, stock={**STOCK, "rome": {"metal": 1}})
    pos.give_tiles(game, "rome", "antigone")
    play(game, ("2/1", 2))
    assert pending(game) == ("rome", "trade.size")
    assert game.legal() == (0, 1)
    play(game, 1)
    assert offer(game) == {"carthage": 2, "rome": 1, "greece": 2, "egypt": 2}


def test_antigone_holder_who_offers_nothing_takes_nothing(rules: Ruleset) -> None:
    """Kills: ``if choice > 0`` → ``>= 0`` in ``Trade.choose`` (choosing 0 still made a
    participant). Grady, the trade leader, holds Antigone and offers nothing: he takes
    no part, so Dave (next in seat) makes the first pick and Grady never picks."""
    game = trade_game(rules)
    pos.give_tiles(game, "carthage", "antigone")
    play(game, ("2/1", 2))
    assert pending(game) == ("carthage", "trade.size")
    play(game, 0)
    assert "carthage" not in offer(game)
    first = game.pending
    assert first is not None and first.kind == "trade.pick"
    assert first.player != "carthage"
    while (dec := game.pending) is not None and dec.kind == "trade.pick":
        assert dec.player != "carthage"
        assert all(t != "carthage" for t, _ in dec.options)
        play(game, dec.options[0])
    assert game.state.screens["carthage"] == STOCK["carthage"]
