"""Movere, step 1: moving and fighting (book, "MOVEKE / маневры", 1. Передвижение и
сражение). Conquest, step 2, is :mod:`.conquest`.

Every legion and galley of the nation may move once, in any order: legions across red
borders, galleys across blue, both across combined ones; a unit crosses one border, two
with Strata (legions) or Navigatio (galleys) — the quantities ``legion_reach`` and
``galley_reach`` the know-how scripts modify. A move names its way (``("galley",
("DYRRHACHION", "SPARTA", "ATHENAE"))``), because what a unit meets on its way is met
where it is: a unit entering a region where another nation has units of its kind may
start a battle there, the mover declaring first, then the other nation (book,
"Сражения"). The PELLA example has a galley pass a region where an enemy galley "could
have demanded battle": with no battle the unit goes on; a unit that fights stops there.

A battle is between two nations and one kind: legions fight legions, galleys galleys;
both lose the same number 1:1, that is every unit of the side with fewer there and as
many of the other (the Antike example of three galleys entering a province with one
enemy galley: "each removes one galley"). Units that did not move may fight in their
region ("Военные подразделения, которые не передвигались, могут сражаться в своем
регионе"): the mover may start a battle where such units of his stand.

Two readings the book leaves open, chosen here: units of the mover that fought a battle
end their move in its region (they stood and fought); and a battle is fought only when
a nation asks for it, so units of several nations may share a region in peace ("Обе
стороны могут прийти к согласию").
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any, NamedTuple

from antike2.state import UNITS, Game, State, Step
from mnrules.core.effects import Event
from mnrules.core.engine import CONTINUE, DONE, Decision, Frame
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.present import place_name

BOOK = "002"
R_MOVE = RuleRef("movere-move", "legions cross red borders, galleys blue borders, both "
                 "cross combined ones; a unit crosses one border in a Movere, two with "
                 "Strata (legions) or Navigatio (galleys)",
                 f"{BOOK} Movere 1 (Передвижение и сражение); Scientia: STRATA, NAVIGATO")
R_BATTLE = RuleRef("movere-battle", "a battle is fought between units of one kind "
                   "(legions against legions, galleys against galleys) in one region, when "
                   "units move in or by the mover's units that did not move; both lose "
                   "the same number 1:1", f"{BOOK} Movere 1 (Сражения)")
R_DECLARE = RuleRef("movere-declare", "units entering a region with another nation's units "
                    "of their kind fight if either nation wants it, the mover declaring "
                    "first", f"{BOOK} Movere 1 (Сражения)")

MOVERE = "a2.movere"
BATTLE = "a2.battle"
CONQUEST = "a2.conquest"
"""The quantity giving how many borders a unit of each kind crosses in one Movere."""
CROSSES = {"legion": "red and combined", "galley": "blue and combined"}


class Move(NamedTuple):
    """Move one unit along its way, border by border —
    ``("galley", ("DYRRHACHION", "SPARTA", "ATHENAE"))``: from the first area to the last."""

    unit: str
    path: tuple[str, ...]


class Fight(NamedTuple):
    """Start a battle with units that did not move — ``("battle", "ATHENAE", "galley",
    "yellow")``."""

    kind: str
    area: str
    unit: str
    enemy: str


class Done(NamedTuple):
    """Moving and fighting is over: on to conquest — ``("done",)``."""

    kind: str


MOVE_CHOICES = (("legion", Move), ("galley", Move), ("battle", Fight), ("done", Done))


def say(game: Game, nation: str) -> str:
    """A nation as the pack names it (``Red``, ``Красные``)."""
    return game.rules.name(nation, "nations")


def place(game: Game, area: str) -> str:
    """An area as a player reads it: the pack's name, else the id as a name
    (``MARE_GALLICUM``: Mare Gallicum), in every refusal and question."""
    named = game.rules.name(area)
    return place_name(area) if named == area else named


def reach(game: Game, nation: str, unit: str) -> int:
    """The borders ``nation``'s units of ``unit`` cross in one Movere (1; 2 with Strata or
    Navigatio, whose scripts modify the quantity)."""
    # each quantity spelt out, so the contract's scan of the source sees both folded
    if unit == "legion":
        return max(0, int(game.fold("legion_reach", 1, nation=nation)))
    return max(0, int(game.fold("galley_reach", 1, nation=nation)))


def ways(game: Game, origin: str, unit: str, steps: int) -> list[tuple[str, ...]]:
    """Every way a unit of ``unit`` may take from ``origin`` crossing 1 to ``steps``
    borders, never passing an area twice nor ending where it began."""
    board = game.rules.board
    out: list[tuple[str, ...]] = []
    todo: list[tuple[str, ...]] = [(origin,)]
    while todo:
        path = todo.pop()
        if len(path) > steps:
            continue
        for nxt in board.neighbours(path[-1], unit):
            if nxt not in path:
                out.append((*path, nxt))
                todo.append((*path, nxt))
    return sorted(out, key=lambda p: (len(p), p))


# -- the units that have moved: the Movere frame's "moved" -----------------------------------
# moved[unit][area] counts the nation's units of that kind in area that have moved or
# fought this Movere (they move no more); the others there are fresh.


def _moved(frame: Frame, unit: str) -> dict[str, int]:
    found: dict[str, int] = frame.setdefault("moved", {}).setdefault(unit, {})
    return found


def fresh(state: State, frame: Frame, nation: str, unit: str, area: str) -> int:
    """``nation``'s units of ``unit`` in ``area`` that have neither moved nor fought."""
    moved = int(frame.get("moved", {}).get(unit, {}).get(area, 0))
    return max(0, state.count(nation, area, unit) - moved)


def movere_frame(game: Game, nation: str) -> Frame | None:
    """The frame of ``nation``'s Movere under way (a battle step marks its units)."""
    for frame in reversed(game.state.stack):
        if frame.get("step") == MOVERE and frame.get("nation") == nation:
            return frame
    return None


def enemies_in(state: State, nation: str, unit: str, area: str) -> list[str]:
    """The other nations with units of ``unit`` in ``area``, in order of play."""
    return [p for p in state.players if p != nation and state.count(p, area, unit)]


def fight(game: Game, area: str, unit: str, attacker: str, defender: str,
          declared: str) -> int:
    """The battle of ``attacker`` (the nation playing Movere) against ``defender``'s units
    of ``unit`` in ``area``, which ``declared`` asked for: both lose the same number,
    every unit of the side with fewer. The attacker's units there have fought: they move
    no more. Returns the number each side lost."""
    state = game.state
    n = min(state.count(attacker, area, unit), state.count(defender, area, unit))

    def lose(e: Event) -> None:
        state.remove_units(attacker, area, unit, n)
        state.remove_units(defender, area, unit, n)
    game.perform(Event("battle", attacker, {"area": area, "unit": unit,
                                            "defender": defender, "declared": declared,
                                            "lost": n}), lose)
    frame = movere_frame(game, attacker)
    if frame is not None:
        moved = _moved(frame, unit)
        moved[area] = state.count(attacker, area, unit)
        if not moved[area]:
            del moved[area]
        going = frame.get("going")
        if going and going["unit"] == unit and going["path"][0] == area:
            frame.pop("going")
    return n


class Movere(Step):
    """Frame ``{nation, action}`` (pushed by the rondel): moves and battles, then the
    conquest step. ``going`` is a unit on its way, stopped where a battle may be fought:
    ``{"unit", "path"}``, its area first."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        if frame.get("over"):
            return DONE
        if frame.get("going"):
            self._go(game, frame)
            return CONTINUE
        nation = frame["nation"]
        options = (("done",), *self.moves(game, frame), *self.battles(game, frame))
        if len(options) == 1:
            return self._finish(game, frame)
        return Decision(nation, "a2.move", f"{say(game, nation)}: move a legion or galley, start a "
                        f"battle, or end the moves (then conquest)", options)

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        nation = frame["nation"]
        if isinstance(choice, Done):
            self._finish(game, frame)
        elif isinstance(choice, Fight):
            fight(game, choice.area, choice.unit, nation, choice.enemy, nation)
        elif isinstance(choice, Move):
            frame["going"] = {"unit": choice.unit, "path": list(choice.path)}
            _moved(frame, choice.unit)[choice.path[0]] = \
                _moved(frame, choice.unit).get(choice.path[0], 0) + 1

    def _finish(self, game: Game, frame: Frame) -> str:
        frame["over"] = True
        if CONQUEST in game.rules.steps:
            game.push(CONQUEST, nation=frame["nation"])
            return CONTINUE
        return DONE

    def _go(self, game: Game, frame: Frame) -> None:
        """The unit on its way crosses its next border; where another nation's units of
        its kind stand, it stops while the battle is asked for."""
        state = game.state
        nation = frame["nation"]
        going = frame["going"]
        unit, path = going["unit"], going["path"]
        origin, to = path[0], path[1]
        moved = _moved(frame, unit)

        state.remove_units(nation, origin, unit)
        state.add_units(nation, to, unit)
        moved[origin] -= 1
        if not moved[origin]:
            del moved[origin]
        moved[to] = moved.get(to, 0) + 1
        if len(path) > 2:
            going["path"] = path[1:]
        else:
            frame.pop("going")
        enemies = enemies_in(state, nation, unit, to)
        if enemies:
            game.push(BATTLE, nation=nation, area=to, unit=unit, enemies=enemies)
        # performed once done, after the battle is asked for: what a card asks on a move
        # ('after move: you may ...') is answered before the battle
        game.perform(Event("move", nation, {"unit": unit, "from": origin, "to": to}),
                     lambda e: None)

    def moves(self, game: Game, frame: Frame) -> list[tuple[str, tuple[str, ...]]]:
        """Each fresh unit's ways: ``(unit, (origin, ..., to))``."""
        state = game.state
        nation = frame["nation"]
        out: list[tuple[str, tuple[str, ...]]] = []
        for area in sorted(state.units.get(nation, {})):
            for unit in UNITS:
                if fresh(state, frame, nation, unit, area):
                    steps = reach(game, nation, unit)
                    out.extend((unit, way) for way in ways(game, area, unit, steps))
        return out

    def battles(self, game: Game, frame: Frame) -> list[tuple[str, str, str, str]]:
        """The battles the mover may start with units that did not move."""
        state = game.state
        nation = frame["nation"]
        out: list[tuple[str, str, str, str]] = []
        for area in sorted(state.units.get(nation, {})):
            for unit in UNITS:
                if fresh(state, frame, nation, unit, area):
                    out.extend(("battle", area, unit, enemy)
                               for enemy in enemies_in(state, nation, unit, area))
        return out

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        state = game.state
        board = game.rules.board
        nation = frame["nation"]
        if isinstance(choice, tuple) and len(choice) == 4 and choice[0] == "battle" \
                and all(isinstance(c, str) for c in choice):
            _, area, unit, enemy = choice
            if unit not in UNITS:
                return R_BATTLE, f"{unit!r} is no unit ({', '.join(UNITS)})"
            if enemy == nation or not state.count(enemy, area, unit):
                return R_BATTLE, (f"{say(game, enemy)} has no {unit} in {place(game, area)} for "
                                  f"{say(game, nation)} to fight")
            if not state.count(nation, area, unit):
                return R_BATTLE, f"{say(game, nation)} has no {unit} in {place(game, area)}"
            return R_BATTLE, (f"{say(game, nation)}'s {unit}s in {place(game, area)} have "
                              f"moved or fought this Movere: only units that did not move "
                              f"start a battle where they stand")
        if isinstance(choice, tuple) and len(choice) == 2 and choice[0] in UNITS \
                and isinstance(choice[1], tuple) and len(choice[1]) >= 2 \
                and all(isinstance(a, str) for a in choice[1]):
            unit, path = choice
            for area in path:
                if area not in board.areas:
                    return R_MOVE, f"{area!r} is no region or sea of the board"
            origin = path[0]
            if not state.count(nation, origin, unit):
                return R_MOVE, f"{say(game, nation)} has no {unit} in {place(game, origin)}"
            if not fresh(state, frame, nation, unit, origin):
                return R_MOVE, (f"{say(game, nation)}'s {unit}s in {place(game, origin)} have all "
                                f"moved or fought this Movere: a unit moves once")
            for a, b in pairwise(path):
                if b not in board.neighbours(a, unit):
                    kind = board.border(a, b)
                    what = f"a {kind} border" if kind else "no border"
                    return R_MOVE, (f"{place(game, a)} and {place(game, b)} share {what}: "
                                    f"{unit}s cross {CROSSES[unit]} borders")
            n = reach(game, nation, unit)
            if len(path) - 1 > n:
                return R_MOVE, (f"{say(game, nation)}'s {unit}s cross {n} "
                                f"border{'s' if n > 1 else ''} in a Movere; this way "
                                f"crosses {len(path) - 1}")
            return R_MOVE, "a way passes an area once and ends elsewhere than it began"
        return R_MOVE, (f"{choice!r} is not a move, battle or end {say(game, nation)} may "
                        f"choose now: "
                        f"write (legion|galley, (from, ..., to)), (battle, region, "
                        f"legion|galley, nation) or (done)")


class Battle(Step):
    """Frame ``{nation, area, unit, enemies}``: units have entered ``area``; for each
    other nation there with units of that kind, the mover declares battle or not, then
    that nation."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        nation, area, unit = frame["nation"], frame["area"], frame["unit"]
        enemies = frame["enemies"]
        i = frame.setdefault("i", 0)
        while i < len(enemies):
            enemy = enemies[i]
            if state.count(nation, area, unit) and state.count(enemy, area, unit):
                asks = frame.get("asks") or nation
                other = enemy if asks == nation else nation
                return Decision(asks, "a2.battle", f"{say(game, asks)}: fight "
                                f"{say(game, other)}'s "
                                f"{unit}s in {place(game, area)} ({state.count(other, area, unit)} "
                                f"against your {state.count(asks, area, unit)}), or let "
                                f"them be?", ("fight", "peace"))
            i = frame["i"] = i + 1
            frame.pop("asks", None)
        return DONE

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        nation = frame["nation"]
        enemy = frame["enemies"][frame["i"]]
        asks = frame.get("asks") or nation
        if choice == "fight":
            fight(game, frame["area"], frame["unit"], nation, enemy, asks)
        elif asks == nation:
            frame["asks"] = enemy
            return
        frame["i"] += 1
        frame.pop("asks", None)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return R_DECLARE, f"{choice!r}: answer fight or peace"


@hookimpl
def mn_check_state(game: Any) -> list[str]:
    """Units stand where they can: a legion on land, a galley at sea or in a region with
    a blue or combined border."""
    board = game.rules.board
    out: list[str] = []
    for nation, areas in game.state.units.items():
        for area, kinds in areas.items():
            if area not in board.regions and area not in board.seas:
                continue  # the save check names areas the board does not have
            if kinds.get("legion") and board.is_sea(area):
                out.append(f"{nation} has legions at sea, in {area}")
            if kinds.get("galley") and not board.is_sea(area) and not board.coastal(area):
                out.append(f"{nation} has galleys inland, in {area}")
    return out


@hookimpl
def a2_actions() -> dict[str, str]:
    return {"movere": MOVERE}


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {MOVERE: Movere(), BATTLE: Battle()}


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("movere", "", "Movere, step 1: the nation moves its legions and galleys and "
             "fights the battles either side wants, then conquers (conquest)."),
        DecisionKind("a2.move", "movere", "The nation moves one unit that has not moved "
                     "along its way, starts a battle with units that did not move, or ends "
                     "its moves.",
                     choices=MOVE_CHOICES),
        DecisionKind("a2.battle", "movere", "Units have entered a region with another "
                     "nation's units of their kind: the mover, then the other nation, "
                     "says whether they fight."),
        EventKind("move", "movere", "A unit crossed one border (a move of two borders "
                  "is two).", True,
                  (("unit", "legion or galley"), ("from", "the area it left"),
                   ("to", "the area it entered")), player="the nation moving", word="move",
                  reported=True),
        EventKind("battle", "movere", "A battle was fought: both sides lost the same "
                  "number of units of one kind.", True,
                  (("area", "the region or sea"), ("unit", "legion or galley"),
                   ("defender", "the other nation"), ("declared", "who asked for it"),
                   ("lost", "units each side lost")),
                  player="the nation that moved this Movere", word="battle"),
    ]
