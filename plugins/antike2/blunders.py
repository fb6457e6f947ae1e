"""Antike II's blunder checks (``mnrules bots check``, the kernel's ``mn_blunders``): what
a nation's trades with the bank show once its turn is read trade by trade. A bank trade
always gives fewer resources than it takes (Mercatura 2 for 1, Commercium 3 for 2), so:

* **A trade loop**: a trade that pays the bank a resource the nation took from the
  bank earlier in the same turn and has not spent since, or takes from the bank a kind
  it paid the bank earlier in the same turn (or in the same trade). Either way the
  trades together give back what one of them bought, at a loss: fewer trades (or
  other kinds) do better.
* **An idle trade**: a turn whose trades bought resources none of which the nation
  spent before its turn ended. Nothing of its stock changes between its turns but by
  its own actions, and its next turn begins where it may trade again (book: trades "at
  any time during the player's turn"; ``trade.py``), so the same trades made then
  would leave it no worse off and it would know more: they could not matter now.

The turn is followed through the events the kernel hands the check (``paid``,
``trade``, ``turn_start``, ``turn_end``) and the nation's stock at each decision (an
action's price is spent without an event: what its stock lost beyond its trades'
payments was spent).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from antike2.state import Game
from mnrules.language.present import Presenter

LOOP = "trade loop"
IDLE = "idle trade"


class Turn:
    """What one nation's turn has done with the bank so far."""

    def __init__(self, nation: str, stock: dict[str, int], round: int) -> None:
        self.nation = nation
        self.round = round                      # the round the turn was played in
        self.stock = dict(stock)
        self.bought: Counter[str] = Counter()   # taken from the bank, not spent since
        self.sold: Counter[str] = Counter()     # paid the bank
        self.paying: list[str] = []             # the trade under way's payment
        self.trades: list[tuple[list[str], list[str]]] = []
        self.taken = 0                          # resources the turn's trades bought


def _names(say: Presenter, keys: list[str]) -> str:
    counts = Counter(keys)
    return say.join([f"{n} {say.name(k, 'resources')}" for k, n in sorted(counts.items())])


def _spent(turn: Turn, stock: dict[str, int], paid: Counter[str],
           took: Counter[str]) -> None:
    """What the stock lost since it was last seen, beyond the bank's payments and
    takes, was spent: the resources bought are spent last (what was held before goes
    first only when more than that is spent)."""
    for key in set(stock) | set(turn.stock):
        change = stock.get(key, 0) - turn.stock.get(key, 0) + paid[key] - took[key]
        if change < 0:
            turn.bought[key] = max(0, turn.bought[key] + change)
    turn.stock = dict(stock)


def check(game: Game, player: str, kind: str, choice: Any, events: list[Any],
          notes: dict[str, Any], say: Presenter) -> list[tuple[str, str, str, int]]:
    """The trades' findings, each with the nation and the round of the turn it concerns
    (an idle trade shows at the turn's end, read at the next nation's decision)."""
    out: list[tuple[str, str, str, int]] = []
    turn: Turn | None = notes.get("turn")
    paid: Counter[str] = Counter()
    # what the previous decision took from the bank (its stock holds it now)
    took: Counter[str] = Counter(notes.pop("taking", ()))
    for ev in events:
        if ev.kind == "turn_start":
            turn = notes["turn"] = Turn(ev.player, game.state.stock.get(ev.player, {}),
                                        game.state.round)
            paid.clear()
            took.clear()
            continue
        if turn is None or ev.player != turn.nation:
            continue
        if ev.kind == "paid" and ev.data.get("why") == "bank_trade":
            key = str(ev.data.get("what"))
            turn.paying.append(key)
            paid[key] += 1
        elif ev.kind == "trade":
            gave, got = list(turn.paying), [str(k) for k in ev.data.get("took", ())]
            turn.paying.clear()
            notes.setdefault("checked", []).append(LOOP)
            back = [k for k in gave if turn.bought[k] > 0]
            again = [k for k in got if turn.sold[k] > 0 or k in gave]
            if back:
                out.append((LOOP, say.say("blunder.trade_loop_pays", player=say.player(
                    turn.nation), what=_names(say, back), paid=_names(say, gave),
                    took=_names(say, got)), turn.nation, turn.round))
            elif again:
                out.append((LOOP, say.say("blunder.trade_loop_takes", player=say.player(
                    turn.nation), what=_names(say, again), paid=_names(say, gave),
                    took=_names(say, got)), turn.nation, turn.round))
            for k in gave:
                if turn.bought[k] > 0:
                    turn.bought[k] -= 1
                turn.sold[k] += 1
            turn.bought.update(got)
            turn.taken += len(got)
            turn.trades.append((gave, got))
        elif ev.kind == "turn_end":
            _spent(turn, game.state.stock.get(turn.nation, {}), paid, took)
            paid.clear()
            took.clear()
            if turn.trades:
                notes.setdefault("checked", []).append(IDLE)
                if sum(turn.bought.values()) == turn.taken:
                    gave = [k for g, _ in turn.trades for k in g]
                    got = [k for _, t in turn.trades for k in t]
                    out.append((IDLE, say.say(
                        "blunder.idle_trade", player=say.player(turn.nation),
                        trades=say.count(len(turn.trades), "trade"),
                        paid=_names(say, gave), took=_names(say, got)),
                        turn.nation, turn.round))
            turn = notes["turn"] = None
    if turn is not None:
        _spent(turn, game.state.stock.get(turn.nation, {}), paid, took)
        if kind == "a2.trade_take" and player == turn.nation:
            notes["taking"] = [str(choice)]
    return out
