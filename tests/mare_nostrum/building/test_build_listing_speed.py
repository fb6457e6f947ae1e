"""The build listing's short ways (docs/speed.md) list what the rule lists: every place
of every item the buyer can pay, in the same order, whether prices are folded (a card
or a plugin changes them) or taken as they are (nothing does)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mare_nostrum.build import item_cost, legal_actions, placements
from mare_nostrum.payment import payments, set_rules
from mnrules import Game, new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Modifier
from mnrules.hooks.hookspecs import hookimpl


def by_the_rule(game: Game, player: str) -> list[tuple[Any, ...]]:
    """The placements whose item the buyer can pay, each price folded at its own place
    and each set listed (no short way), then the cards' offers as the listing adds them."""
    screen = game.state.screens[player]
    rules = set_rules(game, player)
    out = []
    for action in placements(game, player):
        cost = item_cost(game, player, action)
        if cost is not None and next(payments(screen, cost, rules), None) is not None:
            out.append(action)
    return out


def check_listings(game: Game, seed: int) -> int:
    bots = {p: make_bot("random", seed * 1009 + i, game.rules)
            for i, p in enumerate(game.state.players)}
    seen = 0
    while (dec := game.pending) is not None:
        if dec.kind == "build.action":
            listed = [a for a in legal_actions(game, dec.player) if a[0] != "offer"]
            assert listed == by_the_rule(game, dec.player)
            seen += 1
        game.apply(bots[dec.player].choose(game))
    return seen


def test_the_listing_without_price_changes_is_the_rule(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=4, round_cap=8)
    assert not game.modified("cost")
    assert check_listings(game, 4) > 50


class OtherPrices:
    """A modder's plugin: a legion costs nothing, a marker one coin more, and anything
    built or bought in a province whose name sorts after M four more (a price by place:
    the listing folds each item's price at each of its places)."""

    MODIFIES = frozenset({"cost"})

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        out = []
        if ctx["item"] == "legion":
            out.append(Modifier("test:prices", lambda v: 0, rank=1))
        if ctx["item"] == "marker":
            out.append(Modifier("test:prices", lambda v: v + 1, rank=1))
        if (ctx.get("province") or "") > "M":
            out.append(Modifier("test:region", lambda v: v + 4, rank=2))
        return out or None


def test_a_plugin_that_changes_prices_is_folded(fresh_rules: Callable[..., Ruleset]) -> None:
    rules = fresh_rules()
    rules.pm.register(OtherPrices(), name="test:prices")
    game = new_game(rules, 5, seed=4, round_cap=8)
    assert game.modified("cost")
    assert check_listings(game, 4) > 50
    rules.pm.unregister(name="test:prices")
    assert not game.modified("cost")   # the bus's routes follow its plugins


def test_one_pass_finds_the_legions_and_the_fleet(rules: Ruleset) -> None:
    from mare_nostrum.geometry import fleet_seas
    from mare_nostrum.military import legions_and_fleet, placed

    game = new_game(rules, 5, seed=6, round_cap=10)
    bots = {p: make_bot("random", 60 + i, rules) for i, p in enumerate(game.state.players)}
    seen = 0
    while (dec := game.pending) is not None:
        for p in game.state.players:
            legions, fleet = legions_and_fleet(game.state, p)
            assert legions == placed(game.state, p, "legion")
            assert set(fleet) == fleet_seas(game.state, p) and len(fleet) == len(set(fleet))
            seen += bool(legions) and bool(fleet)
        game.apply(bots[dec.player].choose(game))
    assert seen > 100
    sea = next(iter(rules.board.seas))
    game.state.units.setdefault(sea, {})["rome"] = {"trireme": 0, "legion": 0}  # a script's 0
    legions, fleet = legions_and_fleet(game.state, "rome")
    assert sea in fleet and sea not in legions     # as fleet_seas and placed each say
    assert set(fleet) == fleet_seas(game.state, "rome")


def test_the_tiles_listed_at_every_count_of_tiles_owned(rules: Ruleset) -> None:
    """A hero's or wonder's price is shared by all the ordinary tiles on display (it
    depends on how many the buyer owns); a special one (the Pyramids) has its own."""
    game = new_game(rules, 5, seed=4, round_cap=8)
    bots = {p: make_bot("random", 40 + i, rules) for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None and dec.kind != "build.action":
        game.apply(bots[dec.player].choose(game))
    assert dec is not None
    state = game.state
    player = dec.player
    free = [t for t in sorted(rules.cards) if rules.cards[t].kind in ("hero", "wonder")
            and not any(t in ts for ts in state.tiles.values())]
    special = [t for t in rules.cards if rules.cards[t].kind == "special wonder"]
    assert special and len(free) >= 8
    state.display = sorted([*free[:4], *special])
    state.display_hidden = [t for t in state.display_hidden if t not in state.display]
    seen = set()
    for owned in range(0, 6):
        state.tiles[player] = free[4:4 + owned]
        for coins in (0, 7, 9, 12):
            state.screens[player] = {"coin": coins}
            listed = [a for a in legal_actions(game, player) if a[0] != "offer"]
            assert listed == by_the_rule(game, player), (owned, coins)
            seen.update(a[1] for a in listed if a[0] == "tile")
    assert set(special) <= seen and set(free[:4]) <= seen


def legion_moves_before(game: Game, frame: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The legion moves as listed before provinces without his legions were passed over
    at once (every province in play's count read)."""
    from mare_nostrum.geometry import Reach
    from mare_nostrum.military import farther, legions_and_fleet

    state = game.state
    player = frame["player"]
    out: list[tuple[Any, ...]] = []
    mine, fleet = legions_and_fleet(state, player)
    reach = Reach(game, player, fleet)
    steps: int = game.fold("move.range", 1, player=player)
    crossing: int = game.fold("move.sea_crossing", 0, player=player)
    arrived = frame["arrived"]
    for prov in state.built if mine else ():
        movable = mine.get(prov, 0) - arrived.get(prov, 0)
        if movable <= 0:
            continue
        dests = set(reach(prov)) if steps == 1 and not crossing else \
            farther(game, reach, prov, steps, crossing)
        allowed = game.fold("move.destinations", dests, player=player, origin=prov)
        out += [("move", prov, d) for d in sorted(allowed)]
    return out


def test_the_legion_moves_are_those_counted_everywhere(rules: Ruleset) -> None:
    """At every legion-move decision of seeded games (and with arrivals written behind
    the rules' back where he has no legions), the moves listed are those found by
    reading every province's count."""
    import copy
    import random

    seen = 0
    for seed in (21, 22, 23):
        game = new_game(rules, 5, seed=seed, round_cap=12)
        bots = {p: make_bot("random", seed * 31 + i, rules)
                for i, p in enumerate(game.state.players)}
        rng = random.Random(seed)
        while (dec := game.pending) is not None:
            if dec.kind == "military.legion":
                frame = game.state.stack[-1]
                step = rules.steps[frame["step"]]
                assert list(dec.options[1:]) == legion_moves_before(game, frame)
                # arrivals counted behind the rules' back, where he has legions or none
                arrived = copy.deepcopy(frame["arrived"])
                for prov in rng.sample(sorted(game.state.built), 3):
                    frame["arrived"][prov] = frame["arrived"].get(prov, 0) + 1
                assert step._legion_moves(game, frame) == legion_moves_before(game, frame)
                frame["arrived"] = arrived
                seen += 1
            game.apply(bots[dec.player].choose(game))
    assert seen > 300


def test_the_trireme_seas_read_the_shores_the_board_answers(rules: Ruleset) -> None:
    """``trireme_seas`` reads the board's shores by sea whole: the seas it lists at every
    decision of a seeded game are those found asking ``provinces_on_sea`` of each sea."""
    from mare_nostrum.control import (
        buildable,
        capital,
        has_enemies,
        trireme_seas,
    )

    def before(game: Game, player: str) -> list[str]:
        board, state = game.rules.board, game.state
        literal = game.param("trireme_anchor") == "all_adjacent_clean"
        anchor = set(buildable(game, player))
        return [sea for sea in board.seas
                if not anchor.isdisjoint(board.provinces_on_sea(sea))
                and not (literal and any(
                    has_enemies(state, p, player) and p != capital(game, player)
                    for p in board.provinces_on_sea(sea)
                    if p in state.built and state.control.get(p) == player))]

    assert all(rules.board.on_sea[s] == rules.board.provinces_on_sea(s) for s in rules.board.seas)
    game = new_game(rules, 5, seed=8, round_cap=10)
    bots = {p: make_bot("random", 80 + i, rules) for i, p in enumerate(game.state.players)}
    found = 0
    while (dec := game.pending) is not None:
        for p in game.state.players:
            seas = trireme_seas(game, p)
            assert seas == before(game, p)
            found += len(seas)
        game.apply(bots[dec.player].choose(game))
    assert found > 1000
