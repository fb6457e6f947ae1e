"""Phase 1 — Collect resources (FR 1.1–1.4; NL/PL/UK 1.1–1.2).

Each city or capital a player controls gives a coin (two with a temple he controls in
the province); each caravan gives its good (two with a market he controls there); a
legendary city gives a coin and a legendary good, plus a coin or a legendary good of
his choice with a temple. Occupied buildings produce for their occupier. The supply
is finite: what has run out is not collected.
"""

from __future__ import annotations

from typing import Any

from mare_nostrum.state import Game, Step
from mare_nostrum.supply import in_supply, take
from mnrules.core.effects import Event
from mnrules.core.engine import DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl

CHOICE = "|"  # an income key "coin|legendary" lets the player pick one of them


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("first_round_collects", False,
              "whether round 1 has a Collect phase",
              (Param.Option(False, "no: the starting resources are round 1's income",
                            "FR/NL/PL/UK setup 3"),
               Param.Option(True, "yes: round 1 collects as every other round (no book)"))),
        Param("income", {"city": ["coin"], "capital": ["coin"], "legendary": ["coin",
                                                                              "legendary"]},
              "what each city kind yields (a caravan yields its printed good)",
              length=(0, 9), resources=True),
        Param("income_doublers", {"temple": ["city", "capital", "legendary"],
                                  "market": ["caravan"]},
              "a building that doubles the yield of others it shares a controller with "
              "(beside a legendary city, a temple adds legendary_temple_bonus instead)",
              ("caravan", "market", "city", "capital", "legendary", "temple"),
              length=(0, 6)),
        Param("legendary_temple_bonus", ["coin", "legendary"],
              "a temple beside a legendary city adds one of these, the controller's choice",
              length=(1, 9), resources=True),
    ]


def buildings_income(game: Game) -> dict[str, dict[str, int]]:
    """What every player's buildings yield this Collect phase, in one pass over the board
    (occupied buildings for their occupier; temples and markets double per controller)."""
    state = game.state
    provinces = game.rules.board.provinces
    income_of, doublers, bonus = _yields(game)
    per: dict[str, dict[str, int]] = {p: {} for p in state.players}
    control = state.control
    occupied = state.occupied
    for prov, built in state.built.items():
        if True not in built:
            continue
        mine: dict[str, list[int]] = {}
        occupiers = occupied[prov]
        for i, b in enumerate(built):
            if not b:
                continue
            # slot_controller's rule, inlined (a pass over every slot of the board)
            who = occupiers[i] or control.get(prov)
            if who is not None:
                mine.setdefault(who, []).append(i)
        for who, idx in mine.items():
            out = per.get(who)
            if out is not None:
                _add_yield(out, provinces[prov].slots, idx, income_of, doublers, bonus)
    return per


def province_income(game: Game, province: str, slots: list[int]) -> dict[str, int]:
    """What the built ``slots`` (indices) of ``province`` would yield together to one
    controller this Collect phase (the rule of :func:`buildings_income`, for one
    province and any set of its slots: a bot asks what a marker or a building adds)."""
    out: dict[str, int] = {}
    _add_yield(out, game.rules.board.provinces[province].slots, slots, *_yields(game))
    return out


def _yields(game: Game) -> tuple[dict[str, list[str]], dict[str, list[str]], list[str]]:
    return game.param("income"), game.param("income_doublers"), \
        game.param("legendary_temple_bonus")


def _add_yield(out: dict[str, int], slots: Any, idx: list[int],
               income_of: dict[str, list[str]], doublers: dict[str, list[str]],
               bonus: list[str]) -> None:
    """Add to ``out`` what the slots ``idx`` (of one province, one controller) yield."""
    doubled: set[str] = set()
    for i in idx:
        doubled.update(doublers.get(slots[i].kind, ()))
    for i in idx:
        slot = slots[i]
        factor = 2 if slot.kind in doubled else 1
        if slot.kind == "caravan" and slot.good:
            out[slot.good] = out.get(slot.good, 0) + factor
        elif slot.kind in income_of:
            if slot.kind == "legendary":
                # the temple's extra is one of two things, not a doubling (1.1/1.2)
                for key in income_of[slot.kind]:
                    out[key] = out.get(key, 0) + 1
                if factor == 2 and bonus:
                    k = CHOICE.join(bonus)
                    out[k] = out.get(k, 0) + 1
            else:
                for key in income_of[slot.kind]:
                    out[key] = out.get(key, 0) + factor


def building_income(game: Game, player: str) -> list[tuple[str, int]]:
    """What ``player``'s buildings yield this Collect phase."""
    return _choices_apart(buildings_income(game).get(player, {}))


def _choices_apart(counted: dict[str, int]) -> list[tuple[str, int]]:
    """The incomes as pairs, each choice apart: two temples' "coin or legendary good" are
    two choices, (key, 1) twice; a pair (choice, n) is n of the one resource chosen
    (a Circe legion on a doubled caravan slot: 2 of the good it stands on)."""
    out: list[tuple[str, int]] = []
    for key, n in sorted(counted.items()):
        out.extend([(key, 1)] * n if CHOICE in key else [(key, n)])
    return out


@hookimpl
def mn_income(game: Game, player: str) -> list[tuple[str, int]]:
    return building_income(game, player)


def income(game: Game, player: str) -> list[tuple[str, int]]:
    """Everything ``player`` collects this Collect phase, before anything is taken from
    the supply: what every plugin's ``mn_income`` contributes, then folded through the
    heroes and wonders (``income``)."""
    items: list[tuple[str, int]] = []
    for contributed in game.rules.hook.mn_income(game=game, player=player):
        items.extend(contributed)
    # heroes and wonders add to it (Temple of Artemis, Circe)
    return list(game.fold("income", items, player=player))


def incomes(game: Game) -> dict[str, list[tuple[str, int]]]:
    """Every player's :func:`income` (the same pairs, in the same order), with the
    board's buildings counted once for all players."""
    # pluggy's call order; this plugin's own contribution is taken from the one count
    impls = list(reversed(game.rules.hook.mn_income.get_hookimpls()))
    if any(impl.hookwrapper or getattr(impl, "wrapper", False) for impl in impls):
        return {p: income(game, p) for p in game.state.players}   # pluggy calls those
    per = buildings_income(game)
    out: dict[str, list[tuple[str, int]]] = {}
    for p in game.state.players:
        items: list[tuple[str, int]] = []
        for impl in impls:
            if impl.function is mn_income:
                items.extend(_choices_apart(per.get(p, {})))
            else:
                items.extend(impl.function(game=game, player=p) or ())
        out[p] = list(game.fold("income", items, player=p))
    return out


class Production(Step):
    """All players collect; the incomes are fixed before anyone takes from the supply."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        if state.round == 1 and not game.param("first_round_collects"):
            return DONE
        if "queue" not in frame:
            queue: list[list[Any]] = []
            # nothing changes between two players' incomes: the board counted once
            per = incomes(game)
            for p in state.players:
                for key, n in per[p]:
                    if CHOICE in key:   # one choice: n of the resource chosen
                        queue.append([p, key, n] if n > 1 else [p, key])
                    else:
                        queue.extend([p, key] for _ in range(n))
            frame["queue"] = queue
            frame["got"] = {p: {} for p in state.players}
        queue = frame["queue"]
        while queue:
            player, key = queue[0][:2]
            if CHOICE in key:
                # only what is left to take is a choice ("op is op", NL Q&A 9)
                options = tuple(k for k in key.split(CHOICE) if in_supply(game, k))
                if len(options) > 1:
                    return Decision(player, "collect.choice",
                                    f"{player}: collect one of {', '.join(options)}", options)
                key = options[0] if options else key.split(CHOICE)[0]
                entry = queue.pop(0)
                self._collect(game, frame, player, key, int(entry[2]) if len(entry) > 2 else 1)
                continue
            # a run of one player's same income (no choice in it) taken at once: take's
            # n draws are n takes of one, in the same order
            run = 1
            while run < len(queue) and queue[run][1] == key and queue[run][0] == player:
                run += 1
            del queue[:run]
            self._collect(game, frame, player, key, run)
        for p in state.players:
            # performed, not only told: a card may react to a player's collecting
            game.perform(Event("collected", p, {"resources": frame["got"][p]}), lambda e: None)
        game.perform(Event("production_done"), lambda e: None)
        return DONE

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        entry = frame["queue"].pop(0)
        self._collect(game, frame, entry[0], str(choice), int(entry[2]) if len(entry) > 2
                      else 1)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return RuleRef("income-choice", "an income of one resource or another takes one of "
                       "them; the supply is finite: only what it still holds can be taken",
                       "FR 1.2; NL/PL/UK 1.1, Q&A 9"), \
            f"{choice!r} is not one of the resources this income offers now"

    @staticmethod
    def _collect(game: Game, frame: Frame, player: str, key: str, n: int = 1) -> None:
        taken = take(game, player, key, n)
        if taken:
            got = frame["got"][player]
            got[key] = got.get(key, 0) + taken


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"production": Production()}


@hookimpl
def mn_contract() -> list[Declaration]:
    """The income this plugin folds, its one decision and its events."""
    return [
        Part("production", "production", "Phase 1: every player collects what his "
             "buildings, legendary cities, heroes and wonders produce."),
        DecisionKind("collect.choice", "production", "A player whose income offers a "
                     "choice of resources takes one of those left in the supply."),
        Quantity("income", "production", "What a player collects in the Collect phase, "
                 "as (resource, amount) pairs, before anything is taken from the supply.",
                 "list", (("player", "who collects"),), subject="player", word="income"),
        EventKind("collected", "production", "A player has collected his income.", True,
                  (("resources", "what he took from the supply, by resource"),),
                  player="the player who collected", word="collect", reported=True),
        EventKind("production_done", "production", "Every player has collected his "
                  "income.", True, word="production", reported=True, told=False),
    ]
