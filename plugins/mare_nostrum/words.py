"""The vocabulary of the effect language: every condition, count, action and item a
card script may name, with what it means in these rules, and what the quantity words
need beyond the rules' contract.

The quantity and event words are not here: they are the contract's (each plugin's
``mn_contract`` gives a ``Quantity`` or a performed ``EventKind`` its ``word``), so a card
can only modify what is folded and react to what is performed. A modder reads
``mnrules cards words`` (docs/words.md) to know what he can write; a new word needs a
line here (or a ``word=`` in a declaration), never a change to the engine.
"""

from __future__ import annotations

from typing import Any

from mare_nostrum.box import may_stand
from mare_nostrum.box_data import creature_kinds
from mare_nostrum.build import area_of, item_of
from mare_nostrum.conquest import can_convert_now, convert_at_once, free_legions
from mare_nostrum.control import capital, has_enemies, slot_controller
from mare_nostrum.production import CHOICE
from mare_nostrum.state import Game, base_good
from mare_nostrum.supply import take
from mnrules.core.effects import Event, Modifier
from mnrules.core.engine import Param
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.compiler import Env, Interactive
from mnrules.language.words import Terms, Word, one_of

# -- what the quantity words need beyond the contract ---------------------------------------
# The quantity and event words themselves are the contract's: each plugin's mn_contract
# declares them (Quantity(..., word=...), EventKind(..., word=...)) with their meaning; a
# card names only what is folded or performed. What follows is keyed to declared names.
#
# The numbers a script may give each quantity (the N of 'add/subtract/set N', 'N per ...',
# 'N coin', and A and B of 'choose A to B'), and the most any card's change may make of
# it (a card never takes a value above this, nor above what it was before if that was
# higher already): so no script, however its changes combine (doubled again and again),
# makes the engine roll millions of dice or list millions of sizes.
QUANTITY_NUMBERS: dict[str, tuple[tuple[int, int], int | None]] = {
    "battle.dice": ((0, 10), 30),
    "battle.total": ((0, 99), 999),
    "battle.hits": ((0, 20), 99),
    "battle.shield": ((0, 20), 99),
    "cost": ((0, 99), 999),
    "offer_size": ((0, 20), None),
    "trade.value": ((0, 10), 20),
    "storage.coins": ((0, 99), 999),
    "storage.goods": ((0, 20), 99),
    "track": ((0, 20), 99),
    "income": ((0, 20), None),
    "move.range": ((0, 5), 9),
    "move.sea_crossing": ((0, 5), 9),
    "move.trireme_range": ((0, 5), 9),
}
LIST_HOLDS = {"income": "resources", "build.first": "players", "victory.alone": "players",
              "title.ties": "players"}
ALLOW_NUMBERS = (0, 9)       # 'allow N ...': payment sets are never larger
PAY_NUMBERS = (0, 20)        # 'offer ITEM for N coin': no item costs more
TAKE_NUMBERS = (1, 5)        # 'take N good of your choice': asked N times, one good each

# The declared names whose context or data a word reads (Word.on): it means nothing
# elsewhere, so a rule of any other quantity or event may not use it.
ROLL = frozenset({"battle.dice", "battle.total", "battle.hits", "battle.shield"})  # "battle"
DICE = ROLL - {"battle.dice"}                            # "dice": the dice rolled
FIGHT = ROLL | {"battle", "battle_start", "battle_roll", "unit_lost"}
#   a battle: folded, begun, rolled, fought, or one of its units lost
ATTACKERS = frozenset({"battle", "battle_start", "battle_roll"})  # events whose player
#   is the attacker: 'you defend' is never true of the holder's own
PROVINCE = FIGHT | {"conquest", "pillage", "occupy", "occupy_marker", "convert", "cost", "move",
                    "built"}
#   an area or a "province": where a battle is, a conquest happens, an item bought goes,
#   a unit moved to

COPY_RANK = 2  # NL Q&A: when an original and a Castor & Pollux copy conflict, the original wins


def _no_copies(game: Game) -> bool:
    return not game.state.vars.get("copies")


def _copies(game: Game, card: str) -> list[tuple[str, int]]:
    """The players who copied ``card`` (Castor & Pollux) hold its power too, ranked after
    its owner."""
    copies: dict[str, list[str]] | None = game.state.vars.get("copies")
    if not copies:   # (nobody has copied a card: most games, asked at every card's fold)
        return []
    return [(p, COPY_RANK) for p, cs in copies.items() if card in cs]


# What this plugin answers on the bus (see mnrules.hooks.bus).
MODIFIES = frozenset({"battle.allowed", "move.destinations"})


def _battle(env: Env) -> dict[str, Any]:
    """The battle a rule reads: a fold's ``battle``, or a battle event's own data (its
    player the attacker)."""
    b: dict[str, Any] | None = env.ctx.get("battle")
    if b is not None:
        return b
    ev = env.event
    if ev is not None:
        if ev.kind in ATTACKERS:
            return {**ev.data, "attacker": ev.player}
        if ev.kind == "unit_lost":   # (its player is the unit's owner; its data names both)
            return ev.data
    return {}


def _resource_is(env: Env, resource: str) -> bool:
    """The resource taken in the trade is ``resource`` (a legendary good: its type)."""
    taken = env.ctx.get("resource")
    return isinstance(taken, str) and base_good(taken) == resource


def _area(env: Env) -> str | None:
    area = _battle(env).get("area") or env.ctx.get("province") or env.ctx.get("area")
    if not area and env.ctx.get("action"):   # a purchase: where its action put the item
        area = area_of(env.ctx["action"])
    return str(area) if area else None


def _next_to(env: Env, other: str | None) -> bool:
    """The battle's area or the province shares a border with ``other`` (a land border,
    or a coast when one of the two is a sea): never itself."""
    here = _area(env)
    return bool(here and other and here != other
                and env.game.rules.board.is_adjacent(here, other))


def _controlled_next_to(env: Env) -> list[str]:
    """The provinces with the actor's control marker that border the area or province."""
    here = _area(env)
    if not here:
        return []
    board = env.game.rules.board
    return [p for p, who in env.game.state.control.items()
            if who == env.actor and p != here and board.is_adjacent(here, p)]


def _on_coast(env: Env) -> bool:
    here = _area(env)
    province = env.game.rules.board.provinces.get(here) if here else None
    return province is not None and bool(province.seas)


def _homeland(env: Env) -> bool:
    """The area is one of the provinces the actor's empire starts with (its setup)."""
    here = _area(env)
    empire = env.game.rules.board.empires.get(str(env.actor))
    return bool(here) and empire is not None and here in empire.provinces


def _resources(env: Env) -> list[str]:
    goods = env.game.rules.components.get("goods") or {}
    return sorted(g for g in goods if env.game.state.supply.get(g, 0) > 0)


def _take_good(env: Env, choice: Any, n: int = 1) -> None:
    take(env.game, env.actor, str(choice))


def _goods_held(env: Env) -> list[str]:
    """The goods behind the actor's screen, by key (a legendary good apart: it is his
    to choose which he gives)."""
    return sorted(k for k, n in env.game.state.screens[env.actor].items()
                  if n > 0 and k != "coin")


def _lose_good(env: Env, choice: Any, n: int = 1) -> None:
    from mare_nostrum.supply import give_back
    give_back(env.game.state, env.actor, str(choice))


def _tiles_of(env: Env, kind: str, except_card: str | None = None) -> tuple[str, ...]:
    state = env.game.state
    cards = env.game.rules.cards
    mine = set(state.tiles[env.holder]) | set(state.vars.get("copies", {}).get(env.holder, []))
    return tuple(sorted(t for p in state.players if p != env.holder for t in state.tiles[p]
                        if cards[t].kind == kind and t != except_card and t not in mine
                        and cards[t].extra.get("copyable", True)))


def _copy(env: Env, choice: Any, *args: Any) -> None:
    env.game.state.vars.setdefault("copies", {}).setdefault(env.holder, []).append(choice)


def _peace_options(env: Env) -> tuple[str, ...]:
    state = env.game.state
    last = state.vars.get("peace", {})
    barred = last.get("with") if last.get("by") == env.holder and \
        last.get("round") == state.round - 1 else None
    return tuple(p for p in state.players if p not in (env.holder, barred))


def _make_peace(env: Env, choice: Any) -> None:
    env.game.state.vars["peace"] = {"by": env.holder, "with": choice,
                                    "round": env.game.state.round}


def _partner(env: Env) -> str | None:
    peace = env.game.state.vars.get("peace", {})
    if peace.get("by") == env.holder and peace.get("round") == env.game.state.round:
        return str(peace["with"])
    return None


def _send_home(game: Game, who: str, owner: str, kinds: tuple[str, ...]) -> None:
    """``who``'s units of ``kinds`` in ``owner``'s provinces return to ``who``'s capital."""
    state = game.state
    home = capital(game, who)
    for prov, holder in list(state.control.items()):
        if holder != owner or prov == home:
            continue
        for kind in kinds:
            n = state.count(prov, who, kind)
            if n:
                state.remove_units(prov, who, kind, n)
                if kind == "fortress":
                    state.pieces[who][kind] += n  # a fortress cannot move: back to the box
                else:
                    state.add_units(home, who, kind, n)
        from mare_nostrum.conquest import release_excess
        release_excess(state, prov, who)


def _their_legions_home(env: Env) -> None:
    other = _partner(env)
    if other:
        _send_home(env.game, other, env.holder, ("legion",))


def _our_legions_home(env: Env) -> None:
    other = _partner(env)
    if other:
        _send_home(env.game, env.holder, other, ("legion",))


def _their_units_home(env: Env) -> None:
    other = _partner(env)
    if other:
        _send_home(env.game, other, env.holder, ("legion", "fortress"))
        _send_home(env.game, env.holder, other, ("legion", "fortress"))


def _give_up(env: Env, to: str) -> None:
    """The card leaves its holder: out of the game (``box``) or face up on the display.
    What it printed (its track bonuses) and its rules go with it: both are read from the
    tiles held."""
    tile = env.card
    state = env.game.state

    def apply(e: Event) -> None:
        held = state.tiles.get(env.holder, [])
        if tile in held:
            held.remove(tile)
            if to == "display":
                state.display.append(tile)
    if tile in state.tiles.get(env.holder, []):
        env.game.perform(Event("tile_discarded", env.holder, {"tile": tile, "to": to}), apply)


def _holds_this(env: Env) -> bool:
    return env.card in env.game.state.tiles.get(env.holder, [])


def _can_convert(env: Env) -> bool:
    """The occupied marker may be replaced now (the conquest plugin's rule: linked, a
    control marker left)."""
    prov = env.ctx.get("province")
    return bool(prov) and can_convert_now(env.game, env.holder, str(prov))


def _convert_now(env: Env) -> None:
    """Queen of Sheba's kind of conversion: at once, the occupying legion removed."""
    convert_at_once(env.game, env.holder, str(env.ctx["province"]))


def _claim(env: Env, path: str) -> None:
    env.game.perform(Event("victory_claim", env.holder, {"path": path}), lambda e: None)


def _double_gains(env: Env) -> Event | None:
    ev = env.event
    assert ev is not None
    gains: list[str] = []
    for g in ev.data.get("gains", []):
        gains.extend(g.split("|") if "|" in g else [g, g])
    return Event(ev.kind, ev.player, {**ev.data, "gains": gains})


def _gains_into(env: Env, resource: str) -> Event | None:
    """Each gain, a choice of two included, becomes one ``resource``."""
    ev = env.event
    assert ev is not None
    return Event(ev.kind, ev.player, {**ev.data,
                                      "gains": [resource for _ in ev.data.get("gains", [])]})


def _provinces_with_enemies(env: Env) -> int:
    state = env.game.state
    return sum(1 for prov, who in state.control.items()
               if who == env.holder and has_enemies(state, prov, env.holder))


def _caravan_goods_under_legions(env: Env, restricted: bool = False) -> list[tuple[str, int]]:
    """Each of the holder's legions on an empty caravan slot yields that slot's good, as
    a caravan would: twice where he controls a market there (EX-HW-4). A legion that
    occupies a building or a marker stands on it, not on a slot. Where his legions are
    fewer than the empty caravan slots, he chooses which slot each stands on (NL 10
    Circe: on the goods symbol): an income of one good or another ("wine|metal"), chosen
    as he collects (the Collect phase's decision)."""
    state = env.game.state
    board = env.game.rules.board
    doublers: dict[str, list[str]] = env.game.param("income_doublers")
    out: list[tuple[str, int]] = []
    for prov in state.built:
        legions = free_legions(state, prov, env.holder)
        if legions <= 0:
            continue
        if restricted and (state.control.get(prov) not in (None, env.holder)
                           or has_enemies(state, prov, env.holder)):
            continue
        slots = board.provinces[prov].slots
        empty = [s.good for i, s in enumerate(slots)
                 if s.kind == "caravan" and not state.built[prov][i] and s.good]
        doubled = any("caravan" in doublers.get(s.kind, ())
                      and slot_controller(state, prov, i) == env.holder
                      for i, s in enumerate(slots))
        if legions >= len(empty):
            stands_on = [str(good) for good in empty]
        else:  # the player's choice, not the first slot in file order
            stands_on = [CHOICE.join(dict.fromkeys(str(g) for g in empty))] * legions
        for key in stands_on:
            out.append((key, 2 if doubled else 1))
    return out


def _can_win_building(env: Env) -> bool:
    """The holder could buy his last hero/wonder or a special wonder right now."""
    from mare_nostrum.build import legal_actions, tile_cost
    game = env.game
    cards = game.rules.cards
    for action in legal_actions(game, env.holder):
        if action[0] != "tile":
            continue
        card = cards[action[1]]
        if card.kind == "special wonder":
            return True
        owned = sum(1 for t in game.state.tiles[env.holder]
                    if cards[t].kind != "special wonder")
        if owned + 1 >= game.param("max_tiles") and tile_cost(game, env.holder,
                                                              action[1]) is not None:
            return True
    return False


@hookimpl
def mn_vocabulary() -> list[Word | Terms]:
    w: list[Word | Terms] = [
        Terms(name, *QUANTITY_NUMBERS.get(name, ((0, 0), None)), holds=LIST_HOLDS.get(name, ""))
        for name in dict.fromkeys([*QUANTITY_NUMBERS, *LIST_HOLDS])]
    cond = [
        ("land battle", lambda e: _battle(e).get("kind") == "land", "it is a land battle"),
        ("sea battle", lambda e: _battle(e).get("kind") == "sea", "it is a sea battle"),
        ("you attack", lambda e: _battle(e).get("attacker") == e.holder,
         "you are the active player of the battle"),
        ("you are active", lambda e: _battle(e).get("attacker") == e.holder,
         "you are the active player"),
        ("you defend", lambda e: _battle(e).get("defender") == e.holder,
         "you are not the active player of the battle"),
        ("you fight", lambda e: e.holder in (_battle(e).get("attacker"),
                                             _battle(e).get("defender")),
         "you take part in the battle"),
        ("your marker is here", lambda e: e.game.state.control.get(_area(e) or "")
         == e.holder, "the province carries your control marker"),
        ("your fortress is here", lambda e: bool(e.game.state.count(_area(e) or "",
                                                                    e.holder, "fortress")),
         "you have a fortress in the province"),
        ("you have units here", lambda e: e.holder in e.game.state.unit_owners(_area(e) or ""),
         "you have at least one unit there"),
        ("this is the card", lambda e: list(e.ctx.get("action", [])) == ["tile", e.card],
         "the item bought is this very card"),
        ("the item is {name}", _item_is, "the item priced or bought is {name}"),
        ("the track is {track}", lambda e, t: e.ctx.get("track") == t,
         "the track is {track}"),
        ("the phase is {name}", lambda e, n: e.ctx.get("phase", e.game.state.phase) == n,
         "the phase is {name}"),
        ("you can win by building", _can_win_building,
         "you could now buy your last hero or wonder, or a special wonder"),
        ("you can convert the marker", _can_convert,
         "the marker you occupy here may become yours now: the province is adjacent to or "
         "connected with another of yours, and you have a control marker left"),
    ]
    on = {"land battle": FIGHT, "sea battle": FIGHT, "you attack": FIGHT,
          "you are active": FIGHT, "you defend": FIGHT, "you fight": FIGHT,
          "your marker is here": PROVINCE,
          "your fortress is here": PROVINCE, "you have units here": PROVINCE,
          "this is the card": {"built"}, "the item is {name}": {"cost", "built"},
          "the track is {track}": {"track", "title", "title.ties"},
          "you can convert the marker": {"occupy_marker"},
          "legion die": ROLL, "die": DICE,
          "convert the marker by removing the legion": {"occupy_marker"},
          "double the gains": {"pillage"}, "turn the gains into {resource}": {"pillage"}}
    typed = {"the item is {name}": one_of("item", "item"),
             "the phase is {name}": one_of("phase", "phase"),
             "claim victory {name}": one_of("victory", "victory")}
    w += [Word("condition", p, f, d, on=frozenset(on.get(p, ())), refuses=typed.get(p),
               never_own=ATTACKERS if p == "you defend" else frozenset())
          for p, f, d in cond]
    # a count is a number ("int"), or resources with amounts ("list", as income is)
    counts = [
        ("legion die", lambda e: e.ctx.get("units", 0) if _battle(e).get("kind") == "land"
         else 0, "each of your legions' dice (one per legion, not an extra die)", "int"),
        ("die", lambda e: e.ctx.get("dice", 0), "each die you roll, extra dice included",
         "int"),
        ("province of yours with enemy units", _provinces_with_enemies,
         "each province with your marker where another player has units", "int"),
        ("goods of empty caravan slots under your legions", _caravan_goods_under_legions,
         "for each of your legions on an empty caravan slot (not one occupying a building "
         "or a marker), that slot's good, twice where you control a market there", "list"),
        ("goods of empty caravan slots under your legions in friendly provinces",
         lambda e: _caravan_goods_under_legions(e, True),
         "the same, only in your own or neutral provinces holding no enemy unit", "list"),
    ]
    w += [Word("count", p, f, d, vtype=t, on=frozenset(on.get(p, ())))
          for p, f, d, t in counts]
    actions = [
        ("take {n} good of your choice", Interactive(
            lambda e, n: tuple(_resources(e)), _take_good, "take a good of your choice",
            repeats=True),
         "take {n} good of your choice from the supply"),
        ("lose {n} good of your choice", Interactive(
            lambda e, n: tuple(_goods_held(e)), _lose_good,
            "give back a good of your choice", repeats=True),
         "put {n} good of your choice back in the supply (none if you have none)"),
        ("copy a hero of another player except {card}", Interactive(
            lambda e, c: _tiles_of(e, "hero", c), lambda e, ch, c: _copy(e, ch),
            "choose a hero of another player to copy"),
         "copy the power (not the bonuses) of a hero another player holds, except "
         "{card}, for the rest of the game"),
        ("make peace with another player", Interactive(
            lambda e: _peace_options(e), _make_peace,
            "choose the player you make peace with"),
         "make peace with a player of your choice (not the one of last round): for the "
         "rest of the round neither of you may fight the other or enter the other's "
         "provinces"),
        ("send their legions in your provinces to their capital", _their_legions_home,
         "your peace partner's legions in your provinces go to his capital province"),
        ("send your legions in their provinces to your capital", _our_legions_home,
         "your legions in your peace partner's provinces go to your capital province"),
        ("send all units in each other's provinces home", _their_units_home,
         "both sides' units in the other's provinces go home (fortresses to the box)"),
        ("convert the marker by removing the legion", _convert_now,
         "replace the marker you occupy by your own at once; the occupying legion is "
         "removed"),
        ("claim victory {name}", _claim, "claim the {name} victory, timed as the rules say"),
    ]
    w += [Word("action", p, f, d, numbers=TAKE_NUMBERS if "{n}" in p else (0, 0),
               on=frozenset(on.get(p, ())), refuses=typed.get(p)) for p, f, d in actions]
    w.append(Word("change", "double the gains", _double_gains,
                  "each gain counts twice; a choice of two gains gives both",
                  on=frozenset(on["double the gains"])))
    w.append(Word("change", "turn the gains into {resource}", _gains_into,
                  "each gain (a choice of two included) becomes one {resource}",
                  on=frozenset(on["turn the gains into {resource}"])))
    w.append(Word("change", "cancel it", lambda e: None, "the event does not happen"))
    w.append(Word("include", "you", lambda e: e.holder, "you"))
    w += [
        Word("allowance", "coin in goods sets",
             lambda e, v, n: v.loosen(coins_in_goods_set=n),
             "each goods set may hold that many coins instead of goods",
             numbers=ALLOW_NUMBERS),
        Word("allowance", "good in coin sets",
             lambda e, v, n: v.loosen(goods_in_coin_set=n),
             "each coin set may hold that many goods instead of coins",
             numbers=ALLOW_NUMBERS),
        Word("allowance", "repeated good type",
             lambda e, v, n: v.loosen(repeated_types=n),
             "in each goods set, that many goods types may appear twice",
             numbers=ALLOW_NUMBERS),
    ]
    w += [
        Word("item", "{unit}", lambda e, u: (u, "any"), "a {unit}, placed by the normal rules",
             numbers=PAY_NUMBERS),
        Word("item", "marker", lambda e: ("marker", "any"),
             "a control marker, placed by the normal rules", numbers=PAY_NUMBERS),
        Word("item", "{unit} in your capital", lambda e, u: (u, "capital"),
             "a {unit} in your capital province", numbers=PAY_NUMBERS),
    ]
    goods = ["coin"]
    w += [Word("resource", g, g, "a resource") for g in goods]
    w += _generic_words()
    w.append(Word("holder", "a copy", _copies, "a player who copied the card holds its "
                  "power too; where his copy and the original conflict, the original wins",
                  idle=_no_copies))
    return w


# -- the generic words: subjects, counts, conditions and actions built from parts --------
# "markets you control", "legions the attacker has here", "each opponent loses 1 coin",
# "you may pay 2 coin to ...": one word serves every card that names a building kind, a
# unit kind, a resource or a track, so a new power is a combination, not a new word.
TILE_KINDS = {"hero": ("hero", "starting hero"), "wonder": ("wonder", "special wonder")}
ITEM_KINDS = ("unit", "building", *TILE_KINDS)
"""What 'the item is {name}' may name besides one item: a kind of them ("heroes cost you
1 less" is 'modify cost when the item is a hero: subtract 1')."""
AMOUNTS = (0, 20)      # the N of 'take/lose/pay N R', 'place N UNIT'


@hookimpl
def mn_word_sets(rules: Any) -> dict[str, frozenset[str]]:
    """The sets the generic words' placeholders name: {resource} (the goods and coin),
    {building} (the board's building kinds), {province} (the board's provinces), {tile}
    (a kind of tile: hero or wonder)."""
    from mare_nostrum.board import BUILDING_KINDS
    goods = frozenset(str(g) for g in (rules.components.get("goods") or {}))
    board = rules.board
    units = frozenset(str(u) for u in (rules.components.get("pieces") or {})) \
        | frozenset(creature_kinds(rules.components))
    return {"resource": goods | {"coin"}, "building": frozenset(BUILDING_KINDS),
            "province": frozenset(board.provinces) if board is not None else frozenset(),
            "tile": frozenset(TILE_KINDS),
            # what a '{name}' names where only one kind of id fits: the item priced (a
            # unit, a building, a marker, a hero or wonder), a phase, a victory path
            "item": units | frozenset(BUILDING_KINDS) | {"marker"} | frozenset(rules.cards)
            | frozenset(ITEM_KINDS),
            "phase": frozenset(rules.phases) | frozenset(rules.names_by_kind.get("phases")
                                                          or {}),
            "victory": frozenset(rules.names_by_kind.get("victories") or {})}


def _who(env: Env, role: str) -> str | None:
    """The attacker or defender of the battle the rule reads (a fold's context or a
    battle event's data)."""
    b = _battle(env)
    if b.get(role):
        return str(b[role])
    if role == "defender" and env.ctx.get("defender"):
        return str(env.ctx["defender"])
    if role == "attacker":
        if env.ctx.get("attacker"):
            return str(env.ctx["attacker"])
        if env.event is not None and env.event.kind in ("battle", "battle_start",
                                                        "battle_roll"):
            return env.event.player
    return None


def _enemy(env: Env) -> str | None:
    """The other side of the battle from the actor's."""
    att, dfd = _who(env, "attacker"), _who(env, "defender")
    return dfd if env.actor == att else att if env.actor == dfd else None


def _controls(env: Env, who: str | None = None) -> list[str]:
    who = who or env.actor
    return [p for p, c in env.game.state.control.items() if c == who]


def _buildings(env: Env, kind: str, who: str | None = None) -> int:
    """Built slots of ``kind`` that ``who`` (the actor) controls."""
    state = env.game.state
    board = env.game.rules.board
    who = who or env.actor
    return sum(1 for prov, built in state.built.items()
               for i, b in enumerate(built)
               if b and board.provinces[prov].slots[i].kind == kind
               and slot_controller(state, prov, i) == who)


def _built_here(env: Env, kind: str, who: str | None) -> bool:
    """A built slot of ``kind`` in the area the event is about, controlled by ``who``
    (anyone's when None)."""
    area = _area(env)
    province = env.game.rules.board.provinces.get(area or "")
    if province is None:
        return False
    state = env.game.state
    return any(b and province.slots[i].kind == kind
               and (who is None or slot_controller(state, area or "", i) == who)
               for i, b in enumerate(state.built.get(area or "", ())))


def _units(env: Env, kind: str, who: str | None, area: str | None = None) -> int:
    if who is None:
        return 0
    state = env.game.state
    if area is not None:
        return int(state.count(area, who, kind))
    return sum(state.count(a, who, kind) for a in state.units)


def _tiles(env: Env, kind: str) -> int:
    cards = env.game.rules.cards
    return sum(1 for t in env.game.state.tiles[env.actor] if cards[t].kind in TILE_KINDS[kind])


def _has(env: Env, n: int, key: str) -> bool:
    return bool(env.game.state.screens[env.actor].get(key, 0) >= n)


def _lose(env: Env, n: int, key: str) -> None:
    """Up to ``n`` of ``key`` from the actor's screen back to the supply."""
    from mare_nostrum.supply import give_back
    k = min(n, env.game.state.screens[env.actor].get(key, 0))
    if k:
        give_back(env.game.state, env.actor, key, k)


def _pay(env: Env, n: int, key: str) -> None:
    """``n`` of ``key`` paid into the supply, all of them or none: a payment he cannot
    make is not made (so 'you choose: pay 2 coin or discard this card' offers the
    payment only to one who has 2 coins)."""
    if env.game.state.screens[env.actor].get(key, 0) >= n:
        _lose(env, n, key)


def _gain(env: Env, n: int, key: str) -> None:
    take(env.game, env.actor, key, n)


def _take_from(env: Env, n: int, key: str, victims: list[str]) -> None:
    """Up to ``n`` of ``key`` from each victim's screen to the actor's."""
    state = env.game.state
    for v in victims:
        if v == env.actor:
            continue
        k = min(n, state.screens[v].get(key, 0))
        if k:
            state.spend(v, key, k)
            state.gain(env.actor, key, k)


def _give_holder(env: Env, n: int, key: str) -> None:
    """Up to ``n`` of ``key`` from the actor's screen to the card holder's (a tribute:
    'each opponent gives you 1 coin'): the holder taking it from him, as he would take
    it from each opponent; the holder gives himself nothing."""
    _take_from(env.acting(env.holder), n, key, [env.actor])


def _place(env: Env, n: int, unit: str, area: str | None) -> None:
    """Up to ``n`` of the actor's ``unit`` pieces from his box onto ``area``, where such a
    piece may stand: a trireme at sea, any other unit on land in play (a pack's creature
    where it enters), one fortress of a player in a province."""
    if area is None:
        return
    game, state = env.game, env.game.state
    if not may_stand(game, unit, area):
        return
    k = min(n, state.pieces[env.actor].get(unit, 0))
    if unit == "fortress":
        k = min(k, 1 - state.count(area, env.actor, "fortress"))
    if k:
        state.pieces[env.actor][unit] -= k
        state.add_units(area, env.actor, unit, k)


def _no_trireme(sets: Any, n: int, unit: str) -> str | None:
    return "a trireme stands at sea, never in a province" if unit == "trireme" else None


def _level(env: Env, track: str, who: str | None) -> int:
    from mare_nostrum.tracks import levels
    return levels(env.game)[who][track] if who else 0


def _item_is(env: Env, name: str) -> bool:
    """The item priced or bought is ``name``, or is of the kind ``name``
    (:data:`ITEM_KINDS`)."""
    item = env.ctx.get("item")
    action = env.ctx.get("action")
    if item is None and action:   # a purchase: its item is what its action places
        item = item_of(env.game, action)
    if item == name or name not in ITEM_KINDS:
        return bool(item == name)
    rules = env.game.rules
    if name in TILE_KINDS:
        card = rules.cards.get(item) if isinstance(item, str) else None
        return card is not None and card.kind in TILE_KINDS[name]
    from mare_nostrum.board import BUILDING_KINDS
    if name == "building":
        return item in BUILDING_KINDS
    units = set(rules.components.get("pieces") or {}) - {"marker"}
    return item in units or item in creature_kinds(rules.components)


def _bought(env: Env, kind: str) -> bool:
    action = list(env.ctx.get("action") or [])
    cards = env.game.rules.cards
    return len(action) == 2 and action[0] == "tile" and action[1] in cards \
        and cards[action[1]].kind in TILE_KINDS[kind]


def _generic_words() -> list[Word | Terms]:
    battle_or_event = FIGHT
    subjects = [
        ("the attacker", lambda e: [p] if (p := _who(e, "attacker")) else [],
         "the active player of the battle"),
        ("the defender", lambda e: [p] if (p := _who(e, "defender")) else [],
         "the player attacked"),
        ("the {track} leader", lambda e, t: [p] if (p := e.game.state.titles.get(t)) else [],
         "the holder of the {track} title"),
        ("the player", lambda e: [e.event.player] if e.event and e.event.player else [],
         "the player the event is about (who bought, collected, pillaged...)"),
    ]
    out: list[Word | Terms] = [Word("subject", p, f, d, on=battle_or_event
                                    if p in ("the attacker", "the defender") else frozenset())
                               for p, f, d in subjects]
    on_here = PROVINCE
    counts = [
        ("{building} you control", lambda e, b: _buildings(e, b),
         "each {building} you control (built, with your marker or your occupying legion)",
         frozenset()),
        ("province you control", lambda e: len(_controls(e)),
         "each province with your control marker", frozenset()),
        ("{unit} you have", lambda e, u: _units(e, u, e.actor),
         "each of your {unit} pieces on the board", frozenset()),
        ("{unit} you have here", lambda e, u: _units(e, u, e.actor, _area(e)),
         "each of your {unit} pieces in the battle's area or the province", on_here),
        ("{unit} the enemy has here", lambda e, u: _units(e, u, _enemy(e), _area(e)),
         "each {unit} of the other side in the battle's area", battle_or_event),
        ("province you control next to the province", lambda e: len(_controlled_next_to(e)),
         "each province with your control marker bordering the battle's area or the "
         "province", on_here),
        ("{tile} you hold", _tiles, "each {tile} tile you hold", frozenset()),
        ("{resource} you have", lambda e, r: e.game.state.screens[e.actor].get(r, 0),
         "each {resource} behind your screen", frozenset()),
        ("opponent", lambda e: len(e.game.state.players) - 1, "each other player",
         frozenset()),
        ("your {track} level", lambda e, t: _level(e, t, e.actor),
         "your level on the {track} track", frozenset()),
        ("the attacker's {track} level", lambda e, t: _level(e, t, _who(e, "attacker")),
         "the attacker's level on the {track} track", battle_or_event),
        ("the enemy's {track} level", lambda e, t: _level(e, t, _enemy(e)),
         "the other side's level on the {track} track", battle_or_event),
    ]
    out += [Word("count", p, f, d, on=on) for p, f, d, on in counts]
    conds = [
        ("you control {province}", lambda e, p: e.game.state.control.get(p) == e.actor,
         "{province} carries your control marker", frozenset()),
        ("a {building} is here", lambda e, b: _built_here(e, b, None),
         "a {building} stands built in the battle's area or the province", on_here),
        ("your {building} is here", lambda e, b: _built_here(e, b, e.holder),
         "a {building} you control (with your marker or your occupying legion) stands "
         "built in the battle's area or the province", on_here),
        ("the province is {province}", lambda e, p: _area(e) == p,
         "the battle's area, the province conquered or where the item bought goes is "
         "{province}", on_here),
        ("the province is your capital", lambda e: _area(e) == capital(e.game, e.actor),
         "the battle's area, the province conquered or where the item bought goes is your "
         "capital", on_here),
        ("the province is next to your capital",
         lambda e: _next_to(e, capital(e.game, e.actor)),
         "the battle's area, the province conquered or where the item bought goes borders "
         "your capital (by land, or its coast for a sea)", on_here),
        ("the province is next to {province}", _next_to,
         "the battle's area, the province conquered or where the item bought goes borders "
         "{province} (by land, or its coast for a sea)", on_here),
        ("the province is next to a province you control",
         lambda e: bool(_controlled_next_to(e)),
         "the battle's area, the province conquered or where the item bought goes borders "
         "a province with your control marker", on_here),
        ("the province is on the coast", _on_coast,
         "the province (never a sea) touches a sea", on_here),
        ("the province is one of your starting provinces", _homeland,
         "the battle's area, the province conquered or where the item bought goes is one "
         "your empire started the game with", on_here),
        ("you bought a {tile}", _bought, "the item bought is a {tile} tile",
         frozenset({"built"})),
        ("the player bought a {tile}", _bought, "the item the event's player bought is a "
         "{tile} tile (with 'by an opponent': what he bought)", frozenset({"built"})),
        ("you are the {track} leader", lambda e, t: e.game.state.titles.get(t) == e.actor,
         "you hold the {track} title", frozenset()),
        ("you have {n} {resource}", _has, "you have at least {n} {resource} behind your "
         "screen", frozenset()),
        ("you were attacked", lambda e: _who(e, "defender") == e.holder,
         "you are the player attacked", battle_or_event),
        ("you won", lambda e: _won(e), "your side scored more hits than the other",
         frozenset({"battle"})),
        ("you lost", lambda e: _lost(e), "you fought and the other side scored more hits "
         "than yours", frozenset({"battle"})),
        ("the unit is {unit}", lambda e, u: e.ctx.get("unit") == u,
         "the unit lost or moved is a {unit}", frozenset({"unit_lost", "move"})),
        ("the province was yours", lambda e: e.ctx.get("from") == e.holder,
         "the province changing hands, pillaged or occupied was yours (with 'by an "
         "opponent': he took it from you)",
         frozenset({"conquest", "convert", "pillage", "occupy", "occupy_marker"})),
        ("the offer was yours", lambda e: e.ctx.get("from") == e.holder,
         "the resource taken in the trade came from your offer (with 'by an opponent': he "
         "took it from you)", frozenset({"trade_pick"})),
        ("the resource is {resource}", _resource_is,
         "the resource taken in the trade is {resource} (a legendary good counts as its "
         "type)", frozenset({"trade_pick"})),
    ]
    out += [Word("condition", p, f, d, numbers=AMOUNTS, on=on,
                 never_own=ATTACKERS if p == "you were attacked" else frozenset())
            for p, f, d, on in conds]
    acts = [
        ("take {n} {resource}", _gain, "take {n} {resource} from the supply (what is left)"),
        ("gain {n} {resource}", _gain, "take {n} {resource} from the supply (what is left)"),
        ("lose {n} {resource}", _lose, "put {n} {resource} of yours back in the supply (what "
         "you have)"),
        ("pay {n} {resource}", _pay, "pay {n} {resource} into the supply"),
        ("discard this card", lambda e: _give_up(e, "box"), "give up this card: it leaves "
         "the game, and its bonuses and rules leave you"),
        ("give this card back to the display", lambda e: _give_up(e, "display"),
         "put this card face up on the display, where anyone may buy it again; its "
         "bonuses and rules leave you"),
        ("take {n} {resource} from each opponent",
         lambda e, n, r: _take_from(e, n, r, [p for p in e.game.state.players
                                                if p != e.actor]),
         "take {n} {resource} from each other player's screen (what he has)"),
        ("give you {n} {resource}", _give_holder,
         "give the card's holder {n} {resource} from your screen (what you have)"),
        ("take {n} {resource} from the attacker",
         lambda e, n, r: _take_from(e, n, r, [p] if (p := _who(e, "attacker")) else []),
         "take {n} {resource} from the attacker's screen (what he has)"),
        ("place {n} {unit} in your capital",
         lambda e, n, u: _place(e, n, u, capital(e.game, e.actor)),
         "put {n} {unit} from your box in your capital province, free (never a trireme: "
         "it stands at sea; one fortress of yours a province)"),
        ("place {n} {unit} here", lambda e, n, u: _place(e, n, u, _area(e)),
         "put {n} {unit} from your box in the battle's area or the province, free, if it "
         "may stand there (a trireme at sea, the others on land; one fortress of yours "
         "there)"),
    ]
    out += [Word("action", p, f, d, numbers=AMOUNTS,
                 on=on_here if p.endswith("here") else frozenset(),
                 refuses=_no_trireme if p.endswith("capital") else None)
            for p, f, d in acts]
    # what uses up a 'once per ...' modifier of a quantity: the event, and the contexts
    # the quantity was folded in for it (each side of a battle, the buyer, the collector)
    out += [Word("occasion", q, _battle_sides, "a battle's dice are rolled",
                 on=frozenset({"battle_roll"})) for q in sorted(ROLL)]
    out += [Word("occasion", "cost", _purchase, "an item is bought", on=frozenset({"built"})),
            Word("occasion", "payment", _purchase, "an item is bought",
                 on=frozenset({"built"})),
            Word("occasion", "income", lambda g, ev: [{"player": ev.player}],
                 "a player collects", on=frozenset({"collected"}))]
    return out


def _won(env: Env) -> bool:
    hits = env.ctx.get("hits") or {}
    me = env.holder
    return any(p != me and hits.get(me, 0) > h for p, h in hits.items())


def _lost(env: Env) -> bool:
    hits = env.ctx.get("hits") or {}
    me = env.holder
    return me in hits and any(p != me and h > hits[me] for p, h in hits.items())


def _battle_sides(game: Game, event: Event) -> list[dict[str, Any]]:
    """The contexts a battle's rolls were folded in, one per side, as the dice fall (the
    board is as it was folded: nobody has lost a unit yet)."""
    att, dfd = event.player, event.data.get("defender")
    battle = {"area": event.data.get("area"), "kind": event.data.get("kind"),
              "attacker": att, "defender": dfd}
    unit = "legion" if battle["kind"] == "land" else "trireme"
    rolls = event.data.get("rolls") or {}
    return [{"battle": battle, "side": side, "dice": len(rolls.get(side, ())),
             "units": game.state.count(str(battle["area"]), str(side), unit)}
            for side in (att, dfd)]


def _purchase(game: Game, event: Event) -> list[dict[str, Any]]:
    action = list(event.data.get("action") or [])
    tile = action[:1] == ["tile"]
    item = action[1] if tile and len(action) > 1 else (action[0] if action else None)
    if action[:1] == ["building"]:
        slots = game.rules.board.provinces[action[1]].slots
        item = slots[action[2]].kind
    area = action[1] if not tile and len(action) > 1 else None
    return [{"player": event.player, "item": item, "province": area}]


@hookimpl
def mn_params() -> list[Param]:
    return [Param("peace_blocks", "provinces",
                  "what a peace (the Statue of Zeus) forbids the two players to enter (D37b)",
                  (Param.Option("provinces", "the other's provinces",
                                "NL/PL 10, UK 11 Statue of Zeus"),
                   Param.Option("provinces_and_units", "the other's provinces and any "
                                "province holding his units", "FR 8 Statue de Zeus")))]


@hookimpl
def mn_modifiers(game: Game, quantity: str, ctx: dict[str, Any]) -> list[Modifier] | None:
    """Peace (made by a card): no battle between the two, no entering the other's land."""
    if quantity not in ("battle.allowed", "move.destinations"):
        return None
    peace = game.state.vars.get("peace")
    if not peace or peace.get("round") != game.state.round:
        return None
    pair = {peace["by"], peace["with"]}
    if quantity == "battle.allowed":
        if {ctx.get("attacker"), ctx.get("defender")} == pair:
            return [Modifier("rules:peace", lambda v: False)]
        return None
    player = ctx.get("player")
    if player not in pair:
        return None
    other = next(iter(pair - {player}))
    control = game.state.control
    if game.param("peace_blocks") == "provinces":
        return [Modifier("rules:peace", lambda v: {p for p in v if control.get(p) != other})]
    return [Modifier("rules:peace",
                     lambda v: {p for p in v if control.get(p) != other
                                and other not in game.state.unit_owners(p)})]

