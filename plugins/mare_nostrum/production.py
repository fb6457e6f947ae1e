"""Phase 1 — Collect resources (FR 1.1–1.4; NL/PL/UK 1.1–1.2).

Each city or capital a player controls gives a coin (two with a temple he controls in
the province); each caravan gives its good (two with a market he controls there); a
legendary city gives a coin and a legendary good, plus a coin or a legendary good of
his choice with a temple. Occupied buildings produce for their occupier. The supply
is finite: what has run out is not collected.
"""

from __future__ import annotations

from typing import Any

from mnrules.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from mnrules.effects import Event
from mnrules.engine import DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hookspecs import hookimpl
from mnrules.plugins.mare_nostrum.control import slot_controller
from mnrules.plugins.mare_nostrum.state import LEGENDARY, Game, State, Step

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
    board = game.rules.board
    income_of: dict[str, list[str]] = game.param("income")
    doublers: dict[str, list[str]] = game.param("income_doublers")
    bonus = game.param("legendary_temple_bonus")
    per: dict[str, dict[str, int]] = {p: {} for p in state.players}
    for prov, built in state.built.items():
        if not any(built):
            continue
        slots = board.provinces[prov].slots
        mine: dict[str, list[int]] = {}
        for i, b in enumerate(built):
            who = slot_controller(state, prov, i) if b else None
            if who is not None:
                mine.setdefault(who, []).append(i)
        for who, idx in mine.items():
            out = per.get(who)
            if out is None:
                continue
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
    return per


def building_income(game: Game, player: str) -> list[tuple[str, int]]:
    """What ``player``'s buildings yield this Collect phase."""
    return sorted(buildings_income(game).get(player, {}).items())


@hookimpl
def mn_income(game: Game, player: str) -> list[tuple[str, int]]:
    return building_income(game, player)


def draw_legendary(game: Game) -> str | None:
    """The top legendary good; the discard pile is reshuffled when the pile is empty."""
    state = game.state
    if not state.legendary_pile and state.legendary_discard:
        state.legendary_pile = list(state.legendary_discard)
        state.legendary_discard.clear()
        game.rng.shuffle(state.legendary_pile)
    if not state.legendary_pile:
        return None
    good = game.chance("legendary draw", sorted(state.legendary_pile))
    state.legendary_pile.remove(good)
    return good


def in_supply(game: Game, key: str) -> bool:
    """Whether one ``key`` ("legendary": a legendary draw) can be taken now."""
    state = game.state
    if key == "legendary":
        return bool(state.legendary_pile or state.legendary_discard)
    return state.supply.get(key, 0) > 0


def take(game: Game, player: str, key: str, n: int = 1) -> int:
    """Move up to ``n`` of ``key`` from the supply to ``player``'s screen; returns how many."""
    state = game.state
    got = 0
    for _ in range(n):
        if key == "legendary":
            good = draw_legendary(game)
            if good is None:
                break
            state.gain(player, LEGENDARY + good)
        else:
            if state.supply.get(key, 0) <= 0:
                break
            state.supply[key] -= 1
            state.gain(player, key)
        got += 1
    return got


def give_back(state: State, player: str, key: str, n: int = 1) -> None:
    """Return resources to the supply (legendary goods to their discard pile)."""
    state.spend(player, key, n)
    if key.startswith(LEGENDARY):
        state.legendary_discard.extend([key[len(LEGENDARY):]] * n)
    else:
        state.supply[key] = state.supply.get(key, 0) + n


class Production(Step):
    """All players collect; the incomes are fixed before anyone takes from the supply."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        if state.round == 1 and not game.param("first_round_collects"):
            return DONE
        if "queue" not in frame:
            queue: list[list[Any]] = []
            for p in state.players:
                items: list[tuple[str, int]] = []
                for contributed in game.rules.hook.mn_income(game=game, player=p):
                    items.extend(contributed)
                # heroes and wonders add to it (Temple of Artemis, Circe)
                items = list(game.fold("income", items, player=p))
                for key, n in items:
                    queue.extend([p, key] for _ in range(n))
            frame["queue"] = queue
            frame["got"] = {p: {} for p in state.players}
        queue = frame["queue"]
        while queue:
            player, key = queue[0]
            if CHOICE in key:
                # only what is left to take is a choice ("op is op", NL Q&A 9)
                options = tuple(k for k in key.split(CHOICE) if in_supply(game, k))
                if len(options) > 1:
                    return Decision(player, "collect.choice",
                                    f"{player}: collect one of {', '.join(options)}", options)
                key = options[0] if options else key.split(CHOICE)[0]
            queue.pop(0)
            self._collect(game, frame, player, key)
        for p in state.players:
            # performed, not only told: a card may react to a player's collecting
            game.perform(Event("collected", p, {"resources": frame["got"][p]}), lambda e: None)
        game.perform(Event("production_done"), lambda e: None)
        return DONE

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        player, _ = frame["queue"].pop(0)
        self._collect(game, frame, player, str(choice))

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return RuleRef("income-choice", "an income of one resource or another takes one of "
                       "them; the supply is finite: only what it still holds can be taken",
                       "FR 1.2; NL/PL/UK 1.1, Q&A 9"), \
            f"{choice!r} is not one of the resources this income offers now"

    @staticmethod
    def _collect(game: Game, frame: Frame, player: str, key: str) -> None:
        if take(game, player, key):
            got = frame["got"][player]
            got[key] = got.get(key, 0) + 1


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
                  player="the player who collected", word="collect"),
        EventKind("production_done", "production", "Every player has collected his "
                  "income.", True, word="production"),
    ]
