"""The box and the bank (book: "Снабжение ограничено"): the one home of what is left to
take and of paying.

Supply is limited except resources: a nation has 12 legions, 13 galleys and 24 city
tokens (double-sided: the English rules' "24 double sided tokens per nation"; which
faces pair is not said, so a token may show any resource); the box has 20 temples
(the neutral ones standing at the start among them: ``temples_on_board``),
the personage cards and the coins (the pack's ``components``). What is on the board or
in a stock is counted, never stored twice, so what is left is always the box minus what
is out. Not a rule plugin of its own except for the box's invariant (``mn_check_state``):
every plugin that raises a unit, builds a temple, founds a city, pays or takes
personages asks here.

Payment (book, Founding: "Монеты в игре заменяют любые ресурсы"): a cost in resources is
paid with those resources and a coin for each one missing; the resources go back to the
unlimited pile, the coins to the bank.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from antike2.state import COIN, RESOURCES, UNITS, Game, State
from mnrules.hooks.hookspecs import hookimpl

# -- counting (derived, never stored) ------------------------------------------------------


def cities_of(state: State, nation: str) -> list[str]:
    return [r for r, c in state.cities.items() if c["owner"] == nation]


def temples_of(state: State, nation: str) -> list[str]:
    return [r for r, c in state.cities.items() if c["owner"] == nation and c["temple"]]


def units_out(state: State, nation: str, kind: str) -> int:
    """``nation``'s units of ``kind`` on the board."""
    return sum(k.get(kind, 0) for k in state.units.get(nation, {}).values())


def units_left(game: Game, nation: str, kind: str) -> int:
    return int(game.rules.components[kind]) - units_out(game.state, nation, kind)


def temples_on_board(state: State) -> int:
    """The temples standing: those in the nations' cities and the neutral ones, all from
    the box's 20 (book, Templum: "Если все 20 храмов на игровом поле, то больше их
    построить нельзя до тех пор, пока они не будут разрушены и не вернутся в резерв")."""
    return sum(1 for c in state.cities.values() if c["temple"]) + len(state.neutral)


def temples_left(game: Game) -> int:
    return int(game.rules.components["temples"]) - temples_on_board(game.state)


def tokens_left(game: Game, nation: str, resource: str = "") -> int:
    """City tokens in ``nation``'s colour not on the board (any resource: each token is
    double-sided, so ``resource`` does not narrow it)."""
    used = sum(1 for c in game.state.cities.values() if c["owner"] == nation)
    return int(game.rules.components["city_tokens"]) - used


def personages_left(game: Game, kind: str) -> int:
    taken = sum(held.count(kind) for held in game.state.personages.values())
    return int(game.rules.components["personages"][kind]) - taken


def bank_coins(game: Game) -> int:
    held = sum(s.get(COIN, 0) for s in game.state.stock.values())
    return int(game.rules.components["coins"]) - held


def held_total(state: State, nation: str) -> int:
    """Resources and coins ``nation`` holds: what may pay a cost of any resource."""
    return sum(state.stock[nation].values())


def seas_held(game: Game, nation: str) -> int:
    """The seas ``nation``'s galleys are in, a sea with the galley symbol counting twice
    (book, Navigators: "морское присутствие удваивается")."""
    board = game.rules.board
    total = 0
    for area, kinds in game.state.units.get(nation, {}).items():
        if kinds.get("galley") and board.is_sea(area):
            total += board.sea_weight(area)
    return total


# -- paying --------------------------------------------------------------------------------


def shortfall(state: State, nation: str, cost: dict[str, int]) -> int:
    """The coins a cost in resources needs besides the resources held."""
    stock = state.stock[nation]
    return sum(max(0, n - stock.get(r, 0)) for r, n in cost.items())


def can_pay(state: State, nation: str, cost: dict[str, int]) -> bool:
    return shortfall(state, nation, cost) <= state.stock[nation].get(COIN, 0)


def pay(game: Game, nation: str, cost: dict[str, int]) -> dict[str, int]:
    """Pay ``cost`` with the resources named, a coin for each one missing; returns what
    was paid, by key. The caller has checked :func:`can_pay`."""
    state = game.state
    stock = state.stock[nation]
    paid: dict[str, int] = {}
    for r, n in cost.items():
        own = min(n, stock.get(r, 0))
        coins = n - own
        if own:
            state.spend(nation, r, own)
            paid[r] = paid.get(r, 0) + own
        if coins:
            state.spend(nation, COIN, coins)
            paid[COIN] = paid.get(COIN, 0) + coins
    return paid


def take_coin(game: Game, nation: str) -> bool:
    """One coin from the bank, if it has one."""
    if bank_coins(game) <= 0:
        return False
    game.state.gain(nation, COIN)
    return True


# -- the box's invariant ----------------------------------------------------------------------


def box_problems(game: Game) -> list[str]:
    state = game.state
    comps = game.rules.components
    out: list[str] = []
    for nation in state.players:
        for kind in UNITS:
            if units_left(game, nation, kind) < 0:
                out.append(f"{nation} has more than {comps[kind]} {kind}s on the board")
        if tokens_left(game, nation) < 0:
            out.append(f"{nation} has more cities than its {comps['city_tokens']} tokens")
        for key, n in state.stock.get(nation, {}).items():
            if n < 0:
                out.append(f"{nation} holds {n} {key}")
    if temples_left(game) < 0:
        out.append(f"more than {comps['temples']} temples on the board "
                   f"({temples_on_board(state)}, {len(state.neutral)} of them neutral)")
    if bank_coins(game) < 0:
        out.append(f"the nations hold more than the {comps['coins']} coins of the box")
    for kind in comps.get("personages", {}):
        if personages_left(game, kind) < 0:
            out.append(f"more {kind} personages taken than the box holds")
    for region, city in state.cities.items():
        if city["owner"] not in state.players:
            out.append(f"the city of {region} belongs to {city['owner']}, not a player")
        if region in state.neutral:
            out.append(f"{region} holds both a city and a neutral temple")
    return out


@hookimpl
def mn_check_state(game: Any) -> list[str]:
    return box_problems(game)


COMPONENTS = {"coins": "coins in the bank", "legion": "legions per nation",
              "galley": "galleys per nation", "temples": "temples in the box",
              "city_tokens": "city tokens per nation"}
PERSONAGE_KINDS = ("king", "general", "citizen", "scholar", "pliny", "navigator")


def check_components(components: Any, where: Any,
                     personages: Iterable[str] = PERSONAGE_KINDS) -> None:
    """The pack's box: no key the game does not know, every count a whole number from 0
    to 999, every kind named, the three resources listed; the personages counted are the
    pack's personage cards (a variant's new one too), each of them counted."""
    from mnrules.content.box import known_keys, whole_count
    from mnrules.content.yamlsource import did_you_mean
    from mnrules.errors import PackError

    kinds = sorted(personages)

    def whole(value: Any, *key: str) -> None:
        whole_count(value, f"components.{'.'.join(key)}", where("components", *key))

    if not isinstance(components, dict):
        raise PackError(f"{where('components')}: components: expected a mapping")
    known_keys(components, [*COMPONENTS, "personages", "resources"], "components",
               lambda k: where("components", str(k)))
    resources = components.get("resources", list(RESOURCES))
    if not isinstance(resources, list) or sorted(map(str, resources)) != sorted(RESOURCES):
        for i, r in enumerate(resources if isinstance(resources, list) else ()):
            if r not in RESOURCES:
                raise PackError(f"{where('components', 'resources', str(i))}: "
                                f"components.resources[{i}]: {r!r:.40} is no resource of "
                                f"the game" + did_you_mean(str(r), RESOURCES,
                                                           f" ({', '.join(RESOURCES)})"))
        raise PackError(f"{where('components', 'resources')}: components.resources: "
                        f"expected the game's three resources, each once "
                        f"([{', '.join(RESOURCES)}]; the rules produce and spend all "
                        f"three), got {resources!r:.80}")
    for key, what in COMPONENTS.items():
        if key not in components:
            raise PackError(f"{where('components')}: components: missing {key!r} ({what})")
        whole(components[key], key)
    people = components.get("personages")
    if not isinstance(people, dict):
        raise PackError(f"{where('components')}: components.personages: expected the "
                        f"personage cards by kind ({', '.join(kinds)})")
    missing = [k for k in kinds if k not in people]
    if missing:
        raise PackError(f"{where('components', 'personages')}: components.personages: "
                        f"how many {', '.join(missing)} the box holds is not said (every "
                        f"personage card needs its count)")
    for kind, n in people.items():
        if kind not in kinds:
            raise PackError(f"{where('components', 'personages', str(kind))}: "
                            f"components.personages.{kind}: no such personage"
                            + did_you_mean(str(kind), kinds)
                            + " (the personages are the pack's personage cards)")
        whole(n, "personages", str(kind))
