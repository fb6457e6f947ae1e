"""The rondel (book, "Ход игры", 1. Выбор сектора на ронделе): each turn a nation moves
its marker clockwise to a space and plays that space's action.

The first turn, any space. Then 1 to 3 spaces free, one resource or coin of its choice
for each space beyond; it may not stay where it is, so the same space again is a full
circle of 8 spaces for 5 resources. Book example: from Ferrum, Templum, Aurum and
Movere are free, Militia costs 1, Marmor 2.

The order of the spaces is the pack's ``rondel`` parameter: the book's board picture is
lost, so the order is a reconstruction (the pack cites it). A space's id is its action,
and ``movere_2`` for the second Movere. The action is played by the plugin that answers
for it in ``a2_actions``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from antike2.rules import RONDEL
from antike2.state import Game, Step
from antike2.supply import held_total
from mnrules.core.effects import Event
from mnrules.core.engine import DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl

ACTIONS = ("marmor", "ferrum", "aurum", "templum", "militia", "scientia", "movere")
DEFAULT_ORDER = ["ferrum", "templum", "aurum", "movere", "militia", "marmor", "scientia",
                 "movere"]


def spaces(game: Game) -> tuple[str, ...]:
    """The space ids, clockwise from the pack's first."""
    return space_ids(game.param("rondel"))


def space_ids(order: Sequence[str]) -> tuple[str, ...]:
    """The ids of the spaces of a rondel whose actions are ``order``: an action's id, and
    ``ACTION_2`` for its second space."""
    return _space_ids(tuple(order))


@lru_cache(maxsize=32)
def _space_ids(order: tuple[str, ...]) -> tuple[str, ...]:
    # made once per order: asked several times a listing (a pack has one, a sweep a few)
    seen: dict[str, int] = {}
    out = []
    for action in order:
        seen[action] = seen.get(action, 0) + 1
        out.append(action if seen[action] == 1 else f"{action}_{seen[action]}")
    return tuple(out)


def action_of(game: Game, space: str) -> str:
    return str(game.param("rondel")[spaces(game).index(space)])


def distance(game: Game, origin: str, to: str) -> int:
    """Spaces moved clockwise from ``origin`` to ``to``: 1 to 8 (8: a full circle)."""
    ids = spaces(game)
    d = (ids.index(to) - ids.index(origin)) % len(ids)
    return d or len(ids)


def free_spaces(game: Game, nation: str | None = None) -> int:
    """The spaces a marker moves free of charge: the ``rondel_free`` parameter, folded
    for ``nation`` as the quantity ``rondel_free`` (a card may change it: ``modify
    rondel_free: add 1``), but at least one for a nation that holds nothing to pay with.

    The book makes the first space always free ("перемещением маркера по часовой
    стрелке на 1,2,3 деления (сектора) бесплатно") and forbids staying ("Остаться на том
    же секторе нельзя"), so a nation always moves. A variant with ``rondel_free: 0``
    keeps that: a nation that can pay for no space moves one space on, free, rather
    than being asked to choose among nothing."""
    free = int(game.param("rondel_free"))
    if nation is not None:
        free = max(0, int(game.fold("rondel_free", free, nation=nation)))
    if free == 0 and nation is not None and held_total(game.state, nation) == 0:
        return 1
    return free


def cost(game: Game, origin: str, to: str, nation: str | None = None) -> int:
    """Resources a move costs: none on the first turn, one per space beyond the free
    (:func:`free_spaces`, for ``nation`` if given)."""
    if not origin:
        return 0
    return max(0, distance(game, origin, to) - free_spaces(game, nation))


def moves(game: Game, nation: str) -> tuple[str, ...]:
    """The spaces ``nation`` may move to now (what it can pay for)."""
    origin = game.state.rondel.get(nation, "")
    can = held_total(game.state, nation)
    return tuple(s for s in spaces(game) if cost(game, origin, s, nation) <= can)


def action_steps(game: Game) -> dict[str, str]:
    steps: dict[str, str] = {}
    for found in game.rules.hook.a2_actions():
        steps.update(found)
    return steps


class Rondel(Step):
    """Frame ``{nation}``: the nation chooses its space, pays, then plays the action."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        if frame.get("to"):
            return DONE
        nation = frame["nation"]
        options = moves(game, nation)
        where = game.state.rondel.get(nation) or "off the rondel"
        return Decision(nation, "a2.rondel", f"{nation}: move the rondel marker from "
                        f"{where}", options)

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        nation = frame["nation"]
        to = str(choice)
        origin = game.state.rondel.get(nation, "")
        price = cost(game, origin, to, nation)
        action = action_of(game, to)

        def move(ev: Event) -> None:
            game.state.rondel[nation] = to
        game.perform(Event("rondel", nation, {"space": to, "action": action,
                                              "from": origin, "cost": price}), move)
        frame["to"] = to
        frames: list[tuple[str, dict[str, Any]]] = []
        if price:
            frames.append(("a2.pay", {"nation": nation, "n": price, "why": "rondel_move"}))
        step = action_steps(game).get(action)
        if step is not None:
            frames.append((step, {"nation": nation, "action": action}))
        game.push_all(frames)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        nation = frame["nation"]
        ids = spaces(game)
        if choice not in ids:
            return RONDEL, f"{choice!r} is no rondel space ({', '.join(ids)})"
        origin = game.state.rondel.get(nation, "")
        return RONDEL, (f"{nation} would pay {cost(game, origin, str(choice), nation)} "
                        f"resources "
                        f"to move from {origin} to {choice} and holds "
                        f"{held_total(game.state, nation)}")


@hookimpl
def mn_check_pack(rules: Any, source: Any) -> None:
    """One plugin plays each action, with a step of the rule set (a2_actions)."""
    from mnrules.errors import PackError

    played: dict[str, str] = {}
    for impl in rules.hook.a2_actions.get_hookimpls():
        for action, step in (impl.function() or {}).items():
            where = source.where("plugins")
            if action in played:
                raise PackError(f"{where}: plugins: the action {action!r} is played by two "
                                f"plugins ({played[action]!r} and {impl.plugin_name!r})")
            if step not in rules.steps:
                raise PackError(f"{where}: plugins: {impl.plugin_name!r} plays {action!r} "
                                f"with the step {step!r}, which no plugin provides")
            played[action] = impl.plugin_name


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("rondel", list(DEFAULT_ORDER), "the rondel's actions clockwise (8 spaces; the "
              "board's picture is lost: reconstructed, see the pack)", choices=ACTIONS,
              length=(8, 8)),
        # 0 is a variant's: a nation with nothing to pay still moves one space free
        Param("rondel_free", 3, "spaces a marker moves free of charge (book: 1, 2 or 3; "
              "with 0, one for a nation that holds nothing)", minimum=0, maximum=8),
    ]


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.rondel": Rondel()}


@hookimpl
def mn_check_state(game: Any) -> list[str]:
    ids = spaces(game)
    return [f"{nation}'s rondel marker stands on {space!r}, no space"
            for nation, space in game.state.rondel.items() if space and space not in ids]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("rondel", "turn", "Step 1 of a turn: the rondel marker moves to a space and "
             "the space's action is played."),
        DecisionKind("a2.rondel", "rondel", "A nation picks the rondel space its marker "
                     "moves to (any on its first turn; later clockwise, paying for each "
                     "space beyond three)."),
        Quantity("rondel_free", "rondel", "How many spaces a nation's rondel marker moves "
                 "free of charge (the pack's rondel_free: 3 by the book).", "int",
                 (("nation", "who moves"),), subject="nation", word="rondel_free"),
        EventKind("rondel", "rondel", "A nation's rondel marker has moved to a space.",
                  True, (("space", "the space"), ("action", "its action"),
                         ("from", "the space it left ('' on the first turn)"),
                         ("cost", "resources paid for the spaces beyond the free ones")),
                  player="the nation that moved", word="rondel"),
    ]

