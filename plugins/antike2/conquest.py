"""Movere, step 2: conquest (book, "MOVEKE / маневры", 2. Завоевание).

When all moves and battles are over, the nation may conquer each hostile city, and each
neutral temple, where its units (legions and galleys together) reach the defence:

* a city: 1, 3 with a temple; +1 per legion and galley of its owner in the region; +1 if
  the owner holds 2 personages or fewer; +1 with Regnum, +2 with Res Publica (the
  know-how scripts modify the quantity ``city_defence``);
* a neutral temple: 3 ("Сила обороны нейтральных храмов - 3").

The attacker wins ties and loses as many units as the defence, choosing their kind if
he has more there than that; every legion and galley of the defender in the region goes
back to the box; a temple is destroyed (back to the box; the conqueror's count of
destroyed temples, ``state.destroyed``, grows by one: the personage plugin turns it into
a general, or notes that the box has none left for it); the city token takes the
conqueror's colour and keeps its resource. A nation's last city cannot be conquered.

A reading the book leaves open, chosen here: the conqueror needs a city token of his
colour left in the box ("Снабжение ограничено": the supply is limited; a token is
double-sided, so any token shows the resource); without one the city cannot change
colour, so it cannot be conquered.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from antike2.movere import CONQUEST, place, say
from antike2.personages import temple_destroyed
from antike2.state import UNITS, Game, State, Step
from antike2.supply import cities_of, tokens_left
from mnrules.core.effects import Event
from mnrules.core.engine import DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part
from mnrules.hooks.hookspecs import hookimpl

BOOK = "002"
SECTION = f"{BOOK} Movere 2 (Завоевание)"
R_CONQUER = RuleRef("conquest", "a city or neutral temple is conquered by the units of "
                    "one nation in its region when they number at least its defence (the "
                    "attacker wins ties)", SECTION)
R_LAST = RuleRef("last-city", "a nation's last city cannot be conquered", SECTION)
R_TOKEN = RuleRef("conquest-token", "a conquered city takes a city token of the "
                  "conqueror's colour from the box, showing the same resource: the supply "
                  "is limited",
                  f"{SECTION}; {BOOK} Снабжение ограничено")
R_LOSSES = RuleRef("conquest-losses", "the conqueror loses as many units as the defence, "
                   "choosing legions or galleys among his units in the region", SECTION)


class Conquer(NamedTuple):
    """Conquer the city or neutral temple of a region — ``("conquer", "PELLA")``."""

    kind: str
    region: str


class Losses(NamedTuple):
    """The units a conqueror gives up — ``("lose", 2, 1)``: 2 legions and 1 galley."""

    kind: str
    legions: int
    galleys: int


class Done(NamedTuple):
    """No more conquests this Movere — ``("done",)``."""

    kind: str


CONQUEST_CHOICES = (("conquer", Conquer), ("done", Done))
LOSS_CHOICES = (("lose", Losses),)


def personages_of(state: State, nation: str) -> int:
    return len(state.personages.get(nation, ()))


def strength(state: State, nation: str, region: str) -> int:
    """``nation``'s legions and galleys in ``region``."""
    return sum(state.count(nation, region, u) for u in UNITS)


def defence_parts(game: Game, region: str) -> list[tuple[str, int]]:
    """What the defence of ``region``'s city or neutral temple is made of, as the book
    counts it: ``[(why, amount), ...]``; empty where there is nothing to conquer. The
    know-how's part is what the ``city_defence`` fold adds."""
    state = game.state
    if region in state.neutral:
        return [("a neutral temple", int(game.param("neutral_temple_defence")))]
    city = state.cities.get(region)
    if city is None:
        return []
    owner = city["owner"]
    parts = [("a city with a temple", 3) if city["temple"] else ("a city", 1)]
    units = strength(state, owner, region)
    if units:
        parts.append((f"{units} defending unit{'s' if units > 1 else ''}", units))
    if personages_of(state, owner) <= int(game.param("few_personages")):
        parts.append((f"{say(game, owner)} holds {personages_of(state, owner)} personages",
                      1))
    base = sum(n for _, n in parts)
    total = int(game.fold("city_defence", base, nation=owner, region=region))
    if total != base:
        parts.append(("its know-how", total - base))
    return parts


def defence(game: Game, region: str) -> int:
    """The defence of ``region``'s city or neutral temple (0: nothing to conquer)."""
    return max(0, sum(n for _, n in defence_parts(game, region)))


def refusal(game: Game, nation: str, region: str) -> tuple[RuleRef, str] | None:
    """Why ``nation`` may not conquer in ``region`` now, or None if it may."""
    state = game.state
    where = place(game, region)
    city = state.cities.get(region)
    if region not in state.neutral and city is None:
        return R_CONQUER, f"{where} holds no city nor neutral temple"
    if city is not None and city["owner"] == nation:
        return R_CONQUER, f"the city of {where} is {say(game, nation)}'s own"
    parts = defence_parts(game, region)
    need = defence(game, region)
    have = strength(state, nation, region)
    if have < need:
        made = " + ".join(f"{n} for {why}" for why, n in parts)
        return R_CONQUER, (f"{where}'s defence is {need} ({made}) and {say(game, nation)} has "
                           f"{have} unit{'s' if have != 1 else ''} there")
    if city is not None:
        owner = city["owner"]
        if len(cities_of(state, owner)) <= 1:
            return R_LAST, f"{where} is {say(game, owner)}'s last city"
        if tokens_left(game, nation) <= 0:
            return R_TOKEN, f"{say(game, nation)} has no city token left in the box"
    return None


def conquerable(game: Game, nation: str) -> list[str]:
    """The regions where ``nation`` may conquer now, sorted."""
    state = game.state
    out = []
    for region in sorted(state.units.get(nation, {})):
        city = state.cities.get(region)
        if (region in state.neutral or (city is not None and city["owner"] != nation)) \
                and refusal(game, nation, region) is None:
            out.append(region)
    return out


def loss_options(state: State, nation: str, region: str, n: int) -> list[tuple[str, int, int]]:
    """The ways to give up ``n`` units in ``region``: ``("lose", legions, galleys)``."""
    legions = state.count(nation, region, "legion")
    galleys = state.count(nation, region, "galley")
    return [("lose", k, n - k) for k in range(max(0, n - galleys), min(legions, n) + 1)]


def conquer(game: Game, nation: str, region: str, legions: int, galleys: int) -> None:
    """Conquer ``region``: the attacker loses ``legions`` and ``galleys``, the defender
    every unit there, a temple is destroyed, the city changes colour."""
    state = game.state
    city = state.cities.get(region)
    owner = city["owner"] if city is not None else ""
    temple = city is None or bool(city["temple"])
    need = defence(game, region)

    def take(e: Event) -> None:
        state.remove_units(nation, region, "legion", legions)
        state.remove_units(nation, region, "galley", galleys)
        if owner:
            for unit in UNITS:
                n = state.count(owner, region, unit)
                if n:
                    state.remove_units(owner, region, unit, n)
        if city is None:
            state.neutral.remove(region)
        else:
            city["owner"] = nation
            city["temple"] = False
        if temple:
            state.destroyed[nation] = state.destroyed.get(nation, 0) + 1
            temple_destroyed(game, nation)
    game.perform(Event("conquest", nation, {
        "region": region, "defender": owner, "defence": need, "temple": temple,
        "lost": {"legion": legions, "galley": galleys}}), take)


class Conquest(Step):
    """Frame ``{nation}``: the nation conquers, one region at a time, until it stops or
    nothing is left to conquer."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        nation = frame["nation"]
        if frame.get("stop"):
            return DONE
        region = frame.get("region")
        if region:
            need = defence(game, region)
            options = loss_options(game.state, nation, region, need)
            if len(options) == 1:
                self._take(game, frame, options[0][1], options[0][2])
                return self.advance(game, frame)
            return Decision(nation, "a2.losses", f"{say(game, nation)}: which {need} units do you "
                            f"give up to conquer {place(game, region)}? (legions, galleys)",
                            tuple(options))
        regions = conquerable(game, nation)
        if not regions:
            return DONE
        return Decision(nation, "a2.conquest", f"{say(game, nation)}: conquer a city or neutral "
                        f"temple, or stop", (("done",), *(("conquer", r) for r in regions)))

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        if isinstance(choice, Losses):
            self._take(game, frame, choice.legions, choice.galleys)
        elif isinstance(choice, Conquer):
            frame["region"] = choice.region
        else:
            frame["stop"] = True

    @staticmethod
    def _take(game: Game, frame: Frame, legions: int, galleys: int) -> None:
        conquer(game, frame["nation"], frame.pop("region"), legions, galleys)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        nation = frame["nation"]
        region = frame.get("region")
        if region:
            need = defence(game, region)
            return R_LOSSES, (f"{choice!r}: give up {need} units of those "
                              f"{say(game, nation)} has in "
                              f"{place(game, region)}, as (lose, legions, galleys)")
        if isinstance(choice, tuple) and len(choice) == 2 and choice[0] == "conquer" \
                and isinstance(choice[1], str):
            if choice[1] not in game.rules.board.regions:
                return R_CONQUER, f"{choice[1]!r} is no region of the board"
            why = refusal(game, nation, choice[1])
            if why is not None:
                return why
        return R_CONQUER, f"{choice!r} is not a conquest {say(game, nation)} may make now"


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("neutral_temple_defence", 3, "the defence of a neutral temple (book: "
              "\"Сила обороны нейтральных храмов - 3\")", minimum=0, maximum=20),
        Param("few_personages", 2, "a city's owner holding this many personages or fewer "
              "adds 1 to its defence (book: \"2 или менее древними персонажами\")",
              minimum=-1, maximum=37),
    ]


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {CONQUEST: Conquest()}


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("conquest", "", "Movere, step 2: after the moves, the nation conquers hostile "
             "cities and neutral temples its units in the region can take."),
        DecisionKind("a2.conquest", "conquest", "The nation conquers a city or neutral "
                     "temple its units reach the defence of, or stops.",
                     choices=CONQUEST_CHOICES),
        DecisionKind("a2.losses", "conquest", "A conqueror with more units in the region "
                     "than the defence chooses the legions and galleys he loses.",
                     choices=LOSS_CHOICES),
        EventKind("conquest", "conquest", "A nation conquered a city (it changes colour, "
                  "its temple destroyed) or destroyed a neutral temple.", True,
                  (("region", "the region"), ("defender", "the city's owner ('' for a "
                   "neutral temple)"), ("defence", "the defence overcome"),
                   ("temple", "whether a temple was destroyed"),
                   ("lost", "the conqueror's legions and galleys lost")),
                  player="the conqueror", word="conquest"),
    ]
