"""Trade rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from conftest import play
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from test_trade import DAVE, GRADY, offer, pick, trade_game


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
