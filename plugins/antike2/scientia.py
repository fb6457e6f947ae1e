"""Scientia (book, "SCIENTIA / Ноу-Хау"): know-how bought with gold (coins for any). The
first nation to learn one pays the higher price and wins a scholar (the personage plugin
counts ``state.firsts``); later nations pay the lower. Know-how in a column is learnt
from the bottom up: Mercatura before Commercium, Metallum before Moneta, Regnum before
Res Publica. Several may be learnt in one turn, in any order.

The prices are printed on the board, which is lost: the pack's ``know_how`` parameter is
a reconstruction that fits the book's example (black's options), quoted in the pack.
"""

from __future__ import annotations

from typing import Any

from antike2.choices import SCIENTIA as SCIENTIA_CHOICES
from antike2.rules import SCIENTIA
from antike2.state import Game, Step
from antike2.supply import can_pay, pay
from antike2.trade import before_paying
from antike2.turn import TURN
from mnrules.core.effects import Event
from mnrules.core.engine import CONTINUE, DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part
from mnrules.hooks.hookspecs import hookimpl

DEFAULT_PRICES = {
    "mercatura": {"first": 4, "later": 2, "after": ""},
    "commercium": {"first": 8, "later": 4, "after": "mercatura"},
    "metallum": {"first": 6, "later": 3, "after": ""},
    "moneta": {"first": 14, "later": 7, "after": "metallum"},
    "regnum": {"first": 12, "later": 6, "after": ""},
    "res_publica": {"first": 16, "later": 8, "after": "regnum"},
    "strata": {"first": 6, "later": 3, "after": ""},
    "navigatio": {"first": 8, "later": 4, "after": ""},
}


def table(game: Game) -> dict[str, dict[str, Any]]:
    prices: dict[str, dict[str, Any]] = game.param("know_how")
    return prices


def price(game: Game, know_how: str) -> int:
    """What the next nation to learn ``know_how`` pays: the higher price if nobody has."""
    row = table(game)[know_how]
    return int(row["first"] if know_how not in game.state.firsts else row["later"])


def learnable(game: Game, nation: str) -> tuple[str, ...]:
    """The know-how ``nation`` may learn now: not held, its column's lower one held, paid
    for."""
    state = game.state
    held = state.know_how[nation]
    out = []
    for k, row in table(game).items():
        if k in held or (row["after"] and row["after"] not in held):
            continue
        if can_pay(state, nation, {"gold": price(game, k)}):
            out.append(k)
    return tuple(out)


class Scientia(Step):
    """Frame ``{nation, action}``: learn know-how one at a time, then ``done``."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        if before_paying(game, frame):   # book: trades "at any time" in the turn
            return CONTINUE
        nation = frame["nation"]
        found = () if frame.get("over") else learnable(game, nation)
        if not found:
            return DONE
        return Decision(nation, "a2.scientia", f"{nation}: learn a know-how for gold",
                        (("done",), *(("learn", k) for k in found)))

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        nation = frame["nation"]
        if choice[0] == "done":
            frame["over"] = True
            return
        k = choice[1]
        cost = price(game, k)
        first = k not in game.state.firsts
        paid = pay(game, nation, {"gold": cost})

        def learn(ev: Event) -> None:
            state = game.state
            state.know_how[nation].append(k)
            if first:
                state.firsts[k] = nation
            turn = state.vars.get(TURN)
            if turn is not None:
                turn.setdefault("learnt", []).append(k)
        game.perform(Event("learn", nation, {"know_how": k, "price": cost, "first": first,
                                             "paid": paid}), learn)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return SCIENTIA, f"{frame['nation']} cannot learn {choice!r} now"


@hookimpl
def a2_actions() -> dict[str, str]:
    return {"scientia": "a2.scientia"}


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.scientia": Scientia()}


@hookimpl
def mn_check_pack(rules: Any, source: Any) -> None:
    """The price table and the know-how cards name the same know-how, and a column's
    lower know-how is one of them."""
    from mnrules.content.yamlsource import did_you_mean
    from mnrules.errors import PackError

    prices: dict[str, dict[str, Any]] = rules.params["know_how"]
    cards = sorted(c for c, card in rules.cards.items() if card.kind == "know-how")
    for k, row in prices.items():
        if k not in cards:
            raise PackError(f"{source.where('params', 'know_how', k)}: params.know_how.{k}: "
                            f"no know-how card has this id" + did_you_mean(k, cards))
        if row["after"] and row["after"] not in prices:
            raise PackError(f"{source.where('params', 'know_how', k, 'after')}: "
                            f"params.know_how.{k}.after: {row['after']!r} is no know-how"
                            + did_you_mean(str(row["after"]), list(prices)))
    missing = [c for c in cards if c not in prices]
    if missing:
        raise PackError(f"{source.where('params', 'know_how')}: params.know_how: no price "
                        f"for {', '.join(missing)} (every know-how card needs one)")


@hookimpl
def mn_params() -> list[Param]:
    return [Param("know_how", {k: dict(v) for k, v in DEFAULT_PRICES.items()},
                  "each know-how's price in gold for the first nation and for the later "
                  "ones, and the know-how below it in its column (the board's prices are "
                  "lost: reconstructed, see the pack); a new know-how card adds its row",
                  minimum=0, maximum=99, open_keys=True)]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("scientia", "turn", "Scientia: know-how for gold, dearer for the first, "
             "columns bottom up."),
        DecisionKind("a2.scientia", "scientia", "A nation learns a know-how, or stops.",
                     SCIENTIA_CHOICES),
        EventKind("learn", "scientia", "A nation has learnt a know-how.", True,
                  (("know_how", "which"), ("price", "its price in gold"),
                   ("first", "whether the nation is the first to learn it"),
                   ("paid", "what it paid, by key")),
                  player="the nation that learnt it", word="learn"),
    ]
