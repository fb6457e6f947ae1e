"""The heuristic and search bots: legal in every kind of decision, reproducible from
their seeds, stronger than random play, and playing games to a victory."""

from __future__ import annotations

import pytest

from mare_nostrum.bots.common import clone, determinize
from mare_nostrum.bots.heuristic import HeuristicBot
from mare_nostrum.bots.search import SearchBot
from mare_nostrum.state import State
from mnrules import Game, load_game, new_game
from mnrules.bots import Bot, make_bot
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check
from mnrules.errors import MnrulesError

KINDS = {
    "trade.token", "trade.size", "trade.offer", "trade.pick", "trade.giveback",
    "build.claim_first", "build.next", "build.action", "build.pay", "build.keep",
    "military.next", "military.trireme", "military.naval", "military.legion", "military.land",
    "battle.loss", "conquest.choose", "conquest.occupy", "conquest.gain", "claims.tie",
    "card.may", "card.choose", "collect.choice",
}


def play(game: Game, bots: dict[str, Bot], checked: bool = False) -> list[object]:
    while (dec := game.pending) is not None:
        choice = bots[dec.player].choose(game)
        assert choice in dec.options, (dec.kind, choice)
        game.apply(choice)
        if checked:
            problems = check(game)
            assert not problems, problems
    return list(game.history)


@pytest.fixture(scope="module")
def decisions(rules: Ruleset) -> list[tuple[str, State]]:
    """Snapshots of every kind of decision (two of each), from random games whose
    seeds are known to reach them all."""
    found: dict[str, list[State]] = {}
    for seed in (4, 6, 0, 2):
        game = new_game(rules, 5, seed=seed, round_cap=40)
        bot = RandomBot(seed)
        while (dec := game.pending) is not None:
            if len(dec.options) > 1 and len(found.setdefault(dec.kind, [])) < 2:
                found[dec.kind].append(game.snapshot())
            game.apply(bot.choose(game))
    assert set(found) == KINDS
    return [(kind, snap) for kind, snaps in sorted(found.items()) for snap in snaps]


@pytest.mark.parametrize("name", ["heuristic", "search:2"])
def test_every_kind_of_decision_gets_a_legal_choice(rules: Ruleset,
                                                    decisions: list[tuple[str, State]],
                                                    name: str) -> None:
    for i, (kind, snap) in enumerate(decisions):
        game = load_game(rules, snap)
        dec = game.pending
        assert dec is not None and dec.kind == kind
        before = game.state.to_json()
        choice = make_bot(name, i, rules).choose(game)
        assert choice in dec.options, (kind, choice)
        assert game.state.to_json() == before, f"{name} changed the game on {kind}"


def test_heuristic_games_are_legal_and_sound(rules: Ruleset) -> None:
    game = new_game(rules, 4, seed=7, round_cap=60)
    play(game, {p: HeuristicBot(i) for i, p in enumerate(game.state.players)}, checked=True)
    assert game.state.winners


def test_a_heuristic_three_player_game_ends_in_a_victory(rules: Ruleset) -> None:
    game = new_game(rules, 3, seed=3, round_cap=60)
    play(game, {p: HeuristicBot(i) for i, p in enumerate(game.state.players)})
    assert game.state.winners and game.state.victory != "round cap"


@pytest.mark.parametrize("name, cap", [("heuristic", 60), ("search:4", 2)])
def test_seeded_games_replay_identically(rules: Ruleset, name: str, cap: int) -> None:
    def once() -> tuple[list[object], str]:
        game = new_game(rules, 5, seed=11, round_cap=cap)
        kinds = [name if i == 0 else "heuristic" for i in range(5)]
        bots = {p: make_bot(kinds[i], 100 + i, rules) for i, p in enumerate(game.state.players)}
        return play(game, bots), game.state.to_json()
    assert once() == once()


def test_the_heuristic_beats_random_play(rules: Ruleset) -> None:
    """One heuristic bot against four random ones, its seat rotated: a fair share
    would be one game in five; it must win clearly more."""
    wins = 0.0
    for seed in range(20):
        game = new_game(rules, 5, seed=seed, round_cap=60)
        hero = game.state.players[seed % 5]
        bots: dict[str, Bot] = {p: (HeuristicBot(seed) if p == hero else RandomBot(seed + i))
                                for i, p in enumerate(game.state.players)}
        play(game, bots)
        if hero in game.state.winners:
            wins += 1 / len(game.state.winners)
    assert wins >= 12, wins


def test_determinization_keeps_what_the_player_knows(rules: Ruleset) -> None:
    import random

    game = new_game(rules, 5, seed=2, round_cap=60)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.state.players)}
    while game.state.round < 3:
        game.apply(bots[game.pending.player].choose(game))  # type: ignore[union-attr]
    me = "rome"
    copy = clone(game, 5)
    determinize(copy, me, random.Random(5))
    s, c = game.state, copy.state
    assert c.screens[me] == s.screens[me]
    for p in s.players:
        assert sum(c.screens[p].values()) == sum(s.screens[p].values())
    assert len(c.legendary_pile) == len(s.legendary_pile)
    assert (c.supply, c.units, c.control, c.tiles) == (s.supply, s.units, s.control, s.tiles)
    assert not check(copy)
    assert sorted(c.display_hidden) == sorted(s.display_hidden)


def test_make_bot_names(rules: Ruleset) -> None:
    assert isinstance(make_bot("heuristic", 1, rules), HeuristicBot)
    bot = make_bot("search:7", 1, rules)
    assert isinstance(bot, SearchBot) and bot.iterations == 7
    for bad in ("search:x", "search:0", "clever", "heuristic:3"):
        with pytest.raises(MnrulesError):
            make_bot(bad, 1, rules)
