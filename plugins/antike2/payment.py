"""Paying resources of one's choice (book, the rondel: "один ресурс по выбору (мрамор,
железо, золото или монету)"; Mercatura: "2 ресурса (независимо от типа и состава)"): the
one step that asks a nation which of its holdings pays, one at a time. When it holds
only one kind, it pays without being asked."""

from __future__ import annotations

from typing import Any

from antike2.rules import PAY
from antike2.state import HOLDINGS, Game, Step
from mnrules.core.engine import DONE, Decision, Frame
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part
from mnrules.hooks.hookspecs import hookimpl

WHY = {"rondel_move": "the rondel", "bank_trade": "a trade"}
"""What a payment of one's choice is for (the frame's ``why``), as the prompt says it."""


def _kinds_held(game: Game, nation: str) -> tuple[str, ...]:
    stock = game.state.stock[nation]
    return tuple(k for k in HOLDINGS if stock.get(k, 0) > 0)


class PayAny(Step):
    """Frame ``{nation, n, why}``: ``nation`` pays ``n`` resources of its choice."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        nation = frame["nation"]
        while frame.setdefault("paid", 0) < frame["n"]:
            kinds = _kinds_held(game, nation)
            if not kinds:
                return DONE  # nothing left (the caller checked he could pay)
            if len(kinds) > 1:
                why = WHY.get(str(frame.get("why")), "a payment")
                return Decision(nation, "a2.pay", f"{nation}: pay one resource for {why} "
                                f"({frame['n'] - frame['paid']} to pay)", kinds)
            self._pay(game, frame, kinds[0])
        return DONE

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        self._pay(game, frame, str(choice))

    @staticmethod
    def _pay(game: Game, frame: Frame, key: str) -> None:
        game.state.spend(frame["nation"], key)
        frame["paid"] += 1
        game.emit(_paid(frame["nation"], key, frame.get("why", "")))

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return PAY, f"{choice!r} is not something {frame['nation']} holds"


def _paid(nation: str, key: str, why: str) -> Any:
    from mnrules.core.effects import Event

    return Event("paid", nation, {"what": key, "why": why})


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.pay": PayAny()}


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("payment", "", "Paying resources of one's choice, one at a time."),
        DecisionKind("a2.pay", "payment", "A nation picks which of its resources or coins "
                     "pays one resource of its choice."),
        EventKind("paid", "payment", "A nation paid one resource of its choice.", False,
                  (("what", "what it paid"), ("why", "what for")),
                  player="the nation that paid"),
    ]
