"""The vocabulary of Antike II's effect language: what its know-how, personage and
Bellona scripts (``cards/antike2/``) may say beyond the quantities and events the rule
plugins declare, and the quantities the war plugins fold.

The war plugins (``movere``, ``conquest``) fold ``legion_reach``, ``galley_reach`` and
``city_defence``; they are declared here, so that Strata, Navigatio, Regnum and Res
Publica mean the same whether or not a pack plays war (and a variant replacing movere
keeps the words). Each quantity's numbers have a range (``Terms``): a script cannot make
a legion cross a thousand borders.
"""

from __future__ import annotations

from antike2.bellona import pass_right
from antike2.board import UNIVERSAL
from antike2.personages import Earns, EarnsEach
from antike2.state import COIN, Game
from antike2.supply import (
    cities_of,
    seas_held,
    take_coin,
    temples_of,
    units_out,
)
from antike2.turn import this_turn
from mnrules.content.ruleset import Ruleset
from mnrules.hooks.contract import Declaration, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.compiler import ORIGINAL_RANK, Env
from mnrules.language.words import Terms, Word, one_of

# The numbers a script may give each quantity, and the most a card's change may make of it.
QUANTITY_NUMBERS: dict[str, tuple[tuple[int, int], int | None]] = {
    "production": ((0, 9), 99),
    "free_units": ((0, 3), 6),
    "city_defence": ((0, 9), 99),
    "legion_reach": ((1, 3), 3),
    "galley_reach": ((1, 3), 3),
    "bank_trade": ((0, 9), 9),
    "rondel_free": ((0, 7), 7),
}


def _knows(env: Env, card: str) -> bool:
    return card in env.game.state.know_how.get(env.holder, ())


def _learnt_now(env: Env) -> bool:
    turn = this_turn(env.game)
    return turn.get("nation") == env.holder and env.card in turn.get("learnt", ())


def _knows_all(env: Env) -> bool:
    learnt = env.game.state.know_how.get(env.holder, ())
    cards = env.game.rules.cards
    every = [c for c, card in cards.items() if card.kind == "know-how"]
    return bool(every) and all(c in learnt for c in every)


PLACED = frozenset({"found", "raise", "conquest", "temple", "battle", "move"})
"""The events that happen in one area: a city founded, a unit raised, a conquest, a
temple built, a battle, a move (where the unit went)."""


def _region(env: Env) -> str | None:
    """The area the event happens in (where a move ends)."""
    area = env.ctx.get("region") or env.ctx.get("area") or env.ctx.get("to")
    return str(area) if area else None


def _site_is(env: Env, resource: str) -> bool:
    """The event's region is a city site of ``resource`` (or ``universal``)."""
    region = env.game.rules.board.regions.get(_region(env) or "")
    return region is not None and region.city == resource


def _next_to(env: Env, other: str) -> bool:
    here = _region(env)
    return bool(here) and here != other and env.game.rules.board.border(here, other) is not None


def _owned_next_to(env: Env) -> list[str]:
    """The actor's cities that share a border (of any kind) with the event's area."""
    here = _region(env)
    if not here:
        return []
    board = env.game.rules.board
    return [r for r, city in env.game.state.cities.items()
            if city.get("owner") == env.actor and r != here
            and board.border(here, r) is not None]


def _coastal(env: Env) -> bool:
    here = _region(env)
    return bool(here) and env.game.rules.board.coastal(here)


def _at_sea(env: Env) -> bool:
    here = _region(env)
    return bool(here) and env.game.rules.board.is_sea(here)


def _every_nation(game: Game, card: str) -> list[tuple[str, int]]:
    """The personage cards say what earns a personage: every nation is subject to them
    (the card's holders, who took one, already are)."""
    data = game.rules.cards.get(card)
    if data is None or data.kind != "personage":
        return []
    # a personage lies among its holder's personages, nowhere else he holds cards
    personages = game.state.personages
    return [(p, ORIGINAL_RANK) for p in game.state.players
            if card not in personages.get(p, ())]


def _firsts(game: Game, nation: str) -> int:
    return sum(1 for who in game.state.firsts.values() if who == nation)


# What the personage scripts count (book, ЦЕЛЬ ИГРЫ), each as one 'take' word.
EARNS = (
    ("take {card} with every {n} cities you own", lambda g, n: len(cities_of(g.state, n)),
     "take {card} for every {n} cities you own, less those you hold"),
    ("take {card} with every temple you destroyed", lambda g, n: g.state.destroyed.get(n, 0),
     "take {card} for every temple you destroyed (neutral ones too), less those you hold"),
    ("take {card} with every {n} temples you own", lambda g, n: len(temples_of(g.state, n)),
     "take {card} for every {n} temples in your cities, less those you hold"),
    ("take {card} with every know_how you learnt first", _firsts,
     "take {card} for every know-how your nation was the first to learn, less those "
     "you hold"),
    ("take {card} with every {n} seas your galleys are in doubling galley symbol seas",
     seas_held, "take {card} for every {n} seas your galleys are in, a sea with the "
     "galley symbol counting twice, less those you hold"),
    ("take {card}", lambda g, n: 1, "take {card} if you hold none"),
)


# What a script may count ('per COUNT', 'at least N COUNT'): the acting nation's
# holdings, as the book's tallies read them. The count's 'you' is the one who acts.
COUNTS = (
    ("city you own", lambda e: len(cities_of(e.game.state, e.actor)), "each city you own"),
    ("temple you own", lambda e: len(temples_of(e.game.state, e.actor)),
     "each temple in your cities"),
    ("temple you destroyed", lambda e: e.game.state.destroyed.get(e.actor, 0),
     "each temple you destroyed (neutral ones too)"),
    ("know_how you know", lambda e: len(e.game.state.know_how.get(e.actor, ())),
     "each know-how you have learnt"),
    ("personage you hold", lambda e: len(e.game.state.personages.get(e.actor, ())),
     "each personage you hold"),
    ("{unit} you have", lambda e, u: units_out(e.game.state, e.actor, u),
     "each of your {unit} pieces on the board"),
    ("{good} you have", lambda e, g: e.game.state.stock.get(e.actor, {}).get(g, 0),
     "each {good} in your stock"),
    ("coin you have", lambda e: e.game.state.stock.get(e.actor, {}).get("coin", 0),
     "each coin you have"),
)


def _take_good(env: Env, n: int, good: str) -> None:
    env.game.state.gain(env.actor, good, n)


def _take_coins(env: Env, n: int) -> None:
    for _ in range(n):
        if not take_coin(env.game, env.actor):
            return


def _has(env: Env, n: int, key: str = COIN) -> bool:
    return bool(env.game.state.stock.get(env.actor, {}).get(key, 0) >= n)


def _pay(env: Env, n: int, key: str = COIN) -> None:
    """``n`` of ``key`` from the actor's stock (to the bank: its coins are what nobody
    holds); a payment is asked only of one who has it, a loss takes what he has."""
    k = min(n, env.game.state.stock.get(env.actor, {}).get(key, 0))
    if k:
        env.game.state.spend(env.actor, key, k)


def _give_holder(env: Env, n: int, key: str = COIN) -> None:
    """Up to ``n`` of ``key`` from the actor's stock to the card holder's (a tribute:
    'each opponent gives you 1 coin'); the holder gives himself nothing."""
    if env.actor == env.holder:
        return
    state = env.game.state
    k = min(n, state.stock.get(env.actor, {}).get(key, 0))
    if k:
        state.spend(env.actor, key, k)
        state.gain(env.holder, key, k)


def _pass_bellona(env: Env) -> None:
    if env.game.state.bellona == env.holder:
        pass_right(env.game)


@hookimpl
def mn_word_sets(rules: Ruleset) -> dict[str, frozenset[str]]:
    """{region}: the board's land regions and seas (the side the pack plays)."""
    board = rules.board
    return {"region": frozenset(board.areas) if board is not None else frozenset()}


@hookimpl
def mn_vocabulary() -> list[Word | Terms]:
    w: list[Word | Terms] = [Terms(name, numbers, ceiling)
                             for name, (numbers, ceiling) in QUANTITY_NUMBERS.items()]
    w += [
        Word("condition", "you know {card}", _knows, "you have learnt the know-how {card}"),
        Word("condition", "this was learnt this turn", _learnt_now,
             "you learnt this know-how in the turn under way"),
        Word("condition", "you pay {n}", lambda e, n: e.ctx.get("pay", e.ctx.get("paid")) == n,
             "the trade pays {n} resources", on=frozenset({"bank_trade", "trade"})),
        Word("condition", "you know every know_how", _knows_all,
             "you have learnt every know-how"),
        Word("condition", "you have {n} {good}", _has, "you have at least {n} {good}",
             numbers=(0, 20)),
        Word("condition", "you have {n} coin", _has, "you have at least {n} coins",
             numbers=(0, 20)),
        Word("condition", "the unit is {unit}", lambda e, u: e.ctx.get("unit") == u,
             "the unit raised or moved, or that fought the battle, is a {unit}",
             on=frozenset({"raise", "move", "battle"})),
        Word("condition", "the resource is {good}", lambda e, g: e.ctx.get("resource") == g,
             "the resource produced is {good}", on=frozenset({"production", "produce"})),
        Word("condition", "the action is {name}", lambda e, a: e.ctx.get("action") == a,
             "the rondel space moved to plays the action {name}", on=frozenset({"rondel"}),
             refuses=one_of("action", "rondel action")),
        Word("condition", "the region is {region}", lambda e, r: _region(e) == r,
             "the event's area (where a city is founded, a unit raised, a conquest or a "
             "battle happens, a temple built, a unit moved to) is {region}", on=PLACED),
        Word("condition", "the region is next to {region}", _next_to,
             "the event's area shares a border (of any kind) with {region}", on=PLACED),
        Word("condition", "the region is next to a city you own", lambda e: bool(
             _owned_next_to(e)), "the event's area shares a border (of any kind) with "
             "a region holding your city", on=PLACED),
        Word("condition", "the region is a {good} site", _site_is,
             "the event's area is a land region whose city site produces {good}",
             on=PLACED),
        Word("condition", "the region is a universal site",
             lambda e: _site_is(e, UNIVERSAL), "the event's area is a universal city "
             "site (the Orient side's: its city produces what its founder chose)",
             on=PLACED),
        Word("condition", "the region is on the coast", _coastal,
             "the event's area is a land region with a blue or combined border (galleys "
             "may be raised there)", on=PLACED),
        Word("condition", "the region is a sea", _at_sea, "the event's area is a sea",
             on=PLACED),
        Word("count", "city you own next to the region", lambda e: len(_owned_next_to(e)),
             "each of your cities sharing a border with the event's area", on=PLACED),
        *(Word("count", pattern, tally, doc) for pattern, tally, doc in COUNTS),
        Word("holder", "every nation", _every_nation,
             "every nation is subject to a personage card's script (what earns one)"),
        *(Word("action", pattern, Earns(tally), doc + " (the box permitting; a "
               "personage is never lost)", numbers=(1, 99))
          for pattern, tally, doc in EARNS),
        Word("action", "take {n} {card}", EarnsEach(),
             "take {n} {card} (with 'per [M] COUNT': for each whole M of any count, as "
             "'take 1 navigator per 5 galleys you have'), less those you hold (the box "
             "permitting; a personage is never lost)", numbers=(1, 9)),
        Word("action", "take {n} {good}", _take_good,
             "take {n} {good} from the bank (resources never run out)", numbers=(1, 9)),
        Word("action", "take {n} coin", _take_coins,
             "take {n} coins from the bank (what it has left)", numbers=(1, 9)),
        Word("action", "pay {n} {good}", _pay, "pay {n} {good} to the bank", numbers=(1, 9)),
        Word("action", "pay {n} coin", _pay, "pay {n} coins to the bank", numbers=(1, 9)),
        Word("action", "lose {n} {good}", _pay, "give {n} {good} back to the bank (what you "
             "have)", numbers=(1, 9)),
        Word("action", "lose {n} coin", _pay, "give {n} coins back to the bank (what you "
             "have)", numbers=(1, 9)),
        Word("action", "give you {n} {good}", _give_holder, "give the card's holder {n} "
             "{good} from your stock (what you have)", numbers=(1, 9)),
        Word("action", "give you {n} coin", _give_holder, "give the card's holder {n} coins "
             "from your stock (what you have)", numbers=(1, 9)),
        Word("action", "pass bellona to the right", _pass_bellona,
             "the Bellona card goes to the nation on your right (counter-clockwise)",
             numbers=(0, 0)),
    ]
    return w


@hookimpl
def mn_contract() -> list[Declaration]:
    return [
        Part("words", "", "The words of the know-how, personage and Bellona scripts, and the "
             "quantities the war plugins fold."),
        Quantity("city_defence", "conquest", "A city's defence against conquest: 1, 3 with "
                 "a temple, +1 per defending unit, +1 for a nation with 0 to 2 personages "
                 "(Regnum and Res Publica add to it).", "int",
                 (("region", "the city's region"), ("nation", "the city's owner")),
                 subject="nation", word="city_defence"),
        Quantity("legion_reach", "movere", "How many red (or combined) borders a nation's "
                 "legion may cross in one Movere: 1 (Strata: 2).", "int",
                 (("nation", "whose legion"),), subject="nation", word="legion_reach"),
        Quantity("galley_reach", "movere", "How many blue (or combined) borders a nation's "
                 "galley may cross in one Movere: 1 (Navigatio: 2).", "int",
                 (("nation", "whose galley"),), subject="nation", word="galley_reach"),
    ]
