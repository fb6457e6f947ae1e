"""Trading with the bank (book, Scientia: MERCATURA "2 к 1", COMMERCIIUM "3 к 2"): a
nation pays resources of any kind and mix (coins too) and takes resources of its choice,
never coins. Not in the turn the know-how is learnt. The book allows it "at any time
during the player's turn" ("Торг возможен в любое время во время хода игрока"): it is
offered wherever a payment follows — before the rondel move, at the start of the actions
that pay (Militia, Templum, Scientia: :func:`before_paying`) and before founding. Between
two payments of one action nothing is gained, so a trade there could as well be made
before the first.

What the bank gives for ``pay`` resources is the quantity ``bank_trade`` (0: no such
trade); the know-how scripts add to it.
"""

from __future__ import annotations

from typing import Any

from antike2.choices import TRADE as TRADE_CHOICES
from antike2.rules import TRADE
from antike2.state import RESOURCES, Game, Step
from antike2.supply import held_total
from mnrules.core.effects import Event
from mnrules.core.engine import DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl


def trades(game: Game, nation: str) -> tuple[tuple[str, int, int], ...]:
    """Every trade ``nation`` may make now: (``"trade"``, resources paid, resources taken)."""
    have = held_total(game.state, nation)
    out: list[tuple[str, int, int]] = []
    for pay in game.param("trade_sizes"):
        if pay > have:
            continue
        get = int(game.fold("bank_trade", 0, nation=nation, pay=pay))
        if get > 0:
            out.append(("trade", pay, get))
    return tuple(out)


def paid_kinds(frame: Frame, stock: dict[str, int]) -> frozenset[str]:
    """The kinds the trade under way in ``frame`` paid the bank, the nation's ``stock``
    being what it holds now (its takes so far included)."""
    held = frame.get("held") or {}
    took = list(frame.get("took") or ())
    return frozenset(k for k, n in held.items() if stock[k] - took.count(k) < n)


def before_paying(game: Game, frame: Frame) -> bool:
    """At the start of an action that pays (its ``frame``), push the trades the nation may
    make first, once; True if pushed (the action's step then continues after them)."""
    if frame.get("traded") or "a2.trade" not in game.rules.steps:
        return False
    frame["traded"] = True
    if not trades(game, frame["nation"]):
        return False
    game.push("a2.trade", nation=frame["nation"])
    return True


class Trade(Step):
    """Frame ``{nation}``: trades one at a time (each paid, then its resources taken one
    by one, each of the nation's choice), then ``done``. While a trade is under way the
    frame holds its size (``pay``, ``get`` still to take, ``took``) and the stock
    ``held`` before its payment."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        nation = frame["nation"]
        if frame.get("get"):
            return Decision(nation, "a2.trade_take", f"{nation}: take a resource from the "
                            f"bank ({frame['get']} to take)", RESOURCES)
        if frame.get("took"):
            frame.pop("held", None)
            game.perform(Event("trade", nation, {"paid": frame.pop("pay"),
                                                 "took": frame.pop("took")}),
                         lambda e: None)
        found = () if frame.get("over") else trades(game, nation)
        if not found:
            return DONE
        return Decision(nation, "a2.trade", f"{nation}: trade with the bank",
                        (("done",), *found))

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        if frame.get("get"):
            game.state.gain(frame["nation"], str(choice))
            frame["get"] -= 1
            frame.setdefault("took", []).append(str(choice))
            return
        if choice[0] == "done":
            frame["over"] = True
            return
        frame["pay"] = int(choice[1])
        frame["get"] = int(choice[2])
        # what the nation held before paying: the trade's takes are then read against
        # its payment (a kind taken back is a loss, whoever decides)
        frame["held"] = dict(game.state.stock[frame["nation"]])
        game.push("a2.pay", nation=frame["nation"], n=int(choice[1]), why="bank_trade")

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        if frame.get("get"):
            return TRADE, f"{choice!r} is not marble, iron or gold (never a coin)"
        return TRADE, f"{frame['nation']} cannot make the trade {choice!r} now"


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.trade": Trade()}


@hookimpl
def mn_params() -> list[Param]:
    return [Param("trade_sizes", [2, 3], "how many resources a bank trade may pay (the "
                  "know-how say what the bank gives for each)", minimum=1, maximum=9,
                  length=(0, 9))]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("trade", "turn", "Bank trades: Mercatura 2 for 1, Commercium 3 for 2."),
        Quantity("bank_trade", "trade", "How many resources of its choice the bank gives "
                 "a nation for the resources it pays, none unless a know-how allows the "
                 "trade.", "int",
                 (("nation", "who trades"), ("pay", "how many resources it pays")),
                 subject="nation", word="bank_trade"),
        DecisionKind("a2.trade", "trade", "A nation trades resources with the bank, or "
                     "stops.", TRADE_CHOICES),
        DecisionKind("a2.trade_take", "trade", "A nation trading takes one resource of its "
                     "choice from the bank (not a coin)."),
        EventKind("trade", "trade", "A nation has traded with the bank.", True,
                  (("paid", "how many it paid"), ("took", "what it took")),
                  player="the nation that traded", word="trade", reported=True),
    ]
