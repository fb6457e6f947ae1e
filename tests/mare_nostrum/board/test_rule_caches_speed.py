"""The rules' own caches of a game (docs/speed.md) answer as the rules would without
them, whatever wrote to the state and however: each is kept only while what it was
made from is unchanged, so a test that writes behind the rules' back — as a card's
script, a scenario or a modder's plugin may — must find the new answer at once."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from mnrules import Game, new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset
from mnrules.hooks.hookspecs import hookimpl


def naive_holders(game: Game, card: str) -> list[str]:
    tiles = game.state.tiles
    return [p for p in game.state.players if card in tiles.get(p, ())]


def storage_goods(game: Game, player: str) -> int:
    """A fold a card answers: the Hanging Gardens keep two goods more."""
    kept: int = game.fold("storage.goods", 0, player=player)
    return kept


def test_card_holders_follow_every_write_to_the_tiles(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=3)
    state = game.state
    a, b = state.players[:2]
    card = "hanging_gardens"
    assert state.card_holders(card) == naive_holders(game, card) == []
    assert storage_goods(game, a) == 0
    state.tiles[a].append(card)                       # a write in place
    assert state.card_holders(card) == [a]
    assert storage_goods(game, a) == 2 and storage_goods(game, b) == 0
    # a swap between two players that keeps every list's length
    state.tiles[a][-1], state.tiles[b] = state.tiles[b][0], [card, *state.tiles[b][1:]]
    assert state.card_holders(card) == naive_holders(game, card) == [b]
    assert storage_goods(game, a) == 0 and storage_goods(game, b) == 2
    state.tiles[b] = [t for t in state.tiles[b] if t != card]   # a new list
    assert state.card_holders(card) == []
    assert storage_goods(game, b) == 0
    state.tiles[a].append(card)
    state.tiles[b].append(card)                       # (no rule does it: two holders)
    assert state.card_holders(card) == [a, b]
    state.players.reverse()                           # the seats' order is the answer's
    assert state.card_holders(card) == [b, a]
    held = state.card_holders(card)
    held.clear()                                      # an answer is the caller's own
    assert state.card_holders(card) == [b, a]


def test_a_copy_written_into_the_state_acts_at_once(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=3)
    a = game.state.players[0]
    assert storage_goods(game, a) == 0
    game.state.vars["copies"] = {a: ["hanging_gardens"]}
    assert storage_goods(game, a) == 2
    game.state.vars["copies"][a].clear()
    assert storage_goods(game, a) == 0


def test_a_clone_and_a_loaded_state_answer_for_themselves(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=3)
    a = game.state.players[0]
    assert game.state.card_holders("hanging_gardens") == []
    clone = game.snapshot()
    clone.tiles[a].append("hanging_gardens")
    assert clone.card_holders("hanging_gardens") == [a]
    assert game.state.card_holders("hanging_gardens") == []
    assert "_held_by" not in game.state.to_dict()


def test_the_holders_match_the_tiles_at_every_decision_of_a_game(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=11, round_cap=12)
    bots = {p: make_bot("random", 11 * 1009 + i, rules)
            for i, p in enumerate(game.state.players)}
    cards = sorted(rules.cards)
    rng = random.Random(5)
    changed = 0
    while (dec := game.pending) is not None:
        if rng.random() < 0.02:   # a script's write, between two decisions
            p, q = rng.sample(game.state.players, 2)
            if game.state.tiles[p]:
                game.state.tiles[q].append(game.state.tiles[p].pop())
                changed += 1
        for card in cards:
            assert game.state.card_holders(card) == naive_holders(game, card), card
        choice: Any = bots[dec.player].choose(game)
        game.apply(choice)
    assert changed > 3


def offers_by_holders(game: Game, player: str) -> list[Any]:
    """The cards' build offers as every holder of each card would list them (the rule:
    a card offers to whoever holds its power, its owner or a copier)."""
    from mnrules.language.compiler import CardEffects, holders

    out = []
    for name, plugin in game.rules.pm.list_name_plugin():
        if not isinstance(plugin, CardEffects) or not plugin.offers:
            continue
        for holder, _ in holders(game, plugin.card.id, plugin.others):
            if holder == player:
                out.append((name, plugin._build_offers(game, player)))
                break
    return sorted((n, o) for n, o in out if o)


def offers_listed(game: Game, player: str) -> list[Any]:
    from mnrules.language.compiler import CardEffects

    out = []
    for name, plugin in game.rules.pm.list_name_plugin():
        if isinstance(plugin, CardEffects) and plugin.offers:
            found = plugin._build_offers(game, player)
            if found:
                out.append((name, found))
    return sorted(out)


def test_a_card_offers_to_its_owner_and_its_copier_only(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=3)
    state = game.state
    a, b, c = state.players[:3]
    card = "spartacus"
    for p in state.players:
        state.tiles[p] = [t for t in state.tiles[p] if t != card]
    assert all(offers_listed(game, p) == offers_by_holders(game, p) for p in state.players)
    state.tiles[a].append(card)
    state.vars["copies"] = {b: [card]}
    for p in (a, b, c):
        assert offers_listed(game, p) == offers_by_holders(game, p), p
    assert [n for n, _ in offers_listed(game, a)] == \
        sorted(n for n, _ in offers_listed(game, a))
    assert any(n == f"card:{card}" for n, _ in offers_listed(game, b))   # the copier's
    assert not any(n == f"card:{card}" for n, _ in offers_listed(game, c))
    state.vars["copies"] = {}
    assert not any(n == f"card:{card}" for n, _ in offers_listed(game, b))


class FoldWatcher:
    """A plugin answering every fold and event with nothing, which meanwhile asks each
    card that modifies the quantity (reacts to or replaces the event) for its effects
    both ways: the holders of the card filtered to the fold's (the event's) player, the
    short way, and every holder, the rule."""

    def __init__(self) -> None:
        self.compared = 0
        self.found = 0
        self.events = 0
        self.events_found = 0

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> None:
        from mnrules.language.compiler import CardEffects

        for _, plugin in game.rules.pm.list_name_plugin():
            if not isinstance(plugin, CardEffects) or quantity not in plugin.for_subject:
                continue
            short = plugin._modifiers(game, quantity, ctx)
            key = plugin.for_subject.pop(quantity)
            try:
                whole = plugin._modifiers(game, quantity, ctx)
            finally:
                plugin.for_subject[quantity] = key
            assert [(m.source, m.layer, m.rank) for m in short or ()] == \
                [(m.source, m.layer, m.rank) for m in whole or ()], (quantity, ctx)
            self.compared += 1
            self.found += bool(short)

    @hookimpl
    def mn_triggers(self, game: Game, event: Any) -> None:
        from mnrules.language.compiler import CardEffects

        for _, plugin in game.rules.pm.list_name_plugin():
            if not isinstance(plugin, CardEffects):
                continue
            for table, attr in ((plugin.reacts, "reacts_for_actor"),
                                (plugin.replaces, "replaces_for_actor")):
                if event.kind not in getattr(plugin, attr):
                    continue
                short = plugin._events(game, table, event)
                kinds = getattr(plugin, attr)
                setattr(plugin, attr, frozenset())
                try:
                    whole = plugin._events(game, table, event)
                finally:
                    setattr(plugin, attr, kinds)
                assert [(r.index, env.holder, rank) for r, env, rank in short] == \
                    [(r.index, env.holder, rank) for r, env, rank in whole], event
                self.events += 1
                self.events_found += bool(short)


def test_a_fold_asks_the_cards_of_its_player_as_of_every_holder(
        fresh_rules: Callable[..., Ruleset]) -> None:
    rules = fresh_rules()
    watcher = FoldWatcher()
    rules.pm.register(watcher, name="test:watcher")
    game = new_game(rules, 5, seed=8, round_cap=30)
    state = game.state
    bots = {p: make_bot("random", 80 + i, rules) for i, p in enumerate(state.players)}
    for tile, p in (("hamilcar", 0), ("queen_of_sheba", 1)):   # cards that react to a
        for where in (state.display, state.display_hidden, *state.tiles.values()):
            if tile in where:                                  # player's own events
                where.remove(tile)
        state.tiles[state.players[p]].append(tile)
    rng = random.Random(8)
    while (dec := game.pending) is not None:
        if rng.random() < 0.01:   # a script's copies of someone's heroes, or none
            p, q = rng.sample(state.players, 2)
            state.vars["copies"] = {p: list(state.tiles[q])} if rng.random() < 0.7 else {}
            for r in state.players[2:]:    # and Hamilcar's, most of the time
                if rng.random() < 0.8:
                    state.vars["copies"].setdefault(r, []).append("hamilcar")
        game.apply(bots[dec.player].choose(game))
    assert watcher.compared > 1000 and watcher.found > 100
    assert watcher.events > 100 and watcher.events_found > 0, \
        (watcher.events, watcher.events_found)


def naive_marker_sites(game: Game, player: str) -> set[str]:
    """marker_sites as it was before its reach was remembered (a fresh Reach per ask)."""
    from mare_nostrum.build import marker_bases
    from mare_nostrum.control import has_enemies
    from mare_nostrum.geometry import Reach

    state = game.state
    sites: set[str] = set()
    reach = Reach(game, player)
    for base in marker_bases(game, player):
        sites |= reach(base)
    return {p for p in sites if state.control.get(p) is None and p in state.built
            and not has_enemies(state, p, player)}


def test_marker_sites_match_the_uncached_answer_at_every_decision(rules: Ruleset) -> None:
    """The reach of a player's bases is remembered by the provinces in play, his fleet
    and his bases: at every decision of seeded games, and after writes behind the rules'
    back (a trireme moved, a base added, a province's control and units changed, a
    province taken out of play or swapped for another), every player's sites are what a
    fresh computation finds."""
    from mare_nostrum.build import marker_sites

    writes = 0
    for seed in (11, 12, 13):
        game = new_game(rules, 5, seed=seed, round_cap=14)
        bots = {p: make_bot("random", seed * 1009 + i, rules)
                for i, p in enumerate(game.state.players)}
        rng = random.Random(seed)
        board = rules.board
        seas = sorted(board.seas)
        provinces = sorted(game.state.built)
        removed: list[tuple[str, list[bool]]] = []
        while (dec := game.pending) is not None:
            state = game.state
            if rng.random() < 0.03:   # a script's write, between two decisions
                p = rng.choice(state.players)
                what = rng.randrange(5)
                if what == 4:   # the provinces in play changed (one out, or one swapped)
                    out = rng.choice(sorted(state.built))
                    slots = state.built.pop(out)
                    if removed and rng.random() < 0.7:
                        back, back_slots = removed.pop()
                        state.built[back] = back_slots
                    removed.append((out, slots))
                elif what == 0:
                    state.units.setdefault(rng.choice(seas), {}).setdefault(
                        p, {})["trireme"] = 1
                elif what == 1:
                    bases = state.vars.setdefault("build.bases", {})
                    bases.setdefault(p, []).append(rng.choice(provinces))
                elif what == 2:
                    prov = rng.choice(provinces)
                    state.control[prov] = None if state.control.get(prov) else p
                else:
                    state.units.setdefault(rng.choice(provinces), {}).setdefault(
                        p, {})["legion"] = 1
                writes += 1
            for p in state.players:
                assert marker_sites(game, p) == naive_marker_sites(game, p), (seed, p)
            game.apply(bots[dec.player].choose(game))
    assert writes > 10
