"""The heuristic bot made cheaper without choosing otherwise: the bots at one table share
one memo (what one asked of a position, another need not ask again), which goes with
its game; what the cheaper bot remembers within a decision is what it would compute."""

from __future__ import annotations

import gc

from mare_nostrum.bots import common
from mare_nostrum.bots import evaluate as ev
from mare_nostrum.bots.common import Memo, clone
from mare_nostrum.bots.heuristic import HeuristicBot
from mnrules import new_game
from mnrules.content.ruleset import Ruleset


def test_the_bots_at_one_table_share_one_memo_which_goes_with_the_game(
        rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=11, round_cap=3)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.state.players)}
    own = {p: b.memo for p, b in bots.items()}
    asked: set[str] = set()
    for _ in range(60):
        dec = game.pending
        if dec is None:
            break
        if len(dec.options) > 1:
            asked.add(dec.player)
        game.apply(bots[dec.player].choose(game))
    assert len(asked) == 5
    shared = common.game_memo(game, Memo())
    # the first bot to score a decision lent its memo; every other one adopted it
    assert all(b.memo is shared for b in bots.values())
    assert sum(1 for p in bots if own[p] is shared) == 1
    # a copy of the game (a lookahead's, a search's rollout) is another table
    assert common.game_memo(clone(game, 1), Memo()) is not shared
    entries = len(common._SHARED)
    del game
    gc.collect()
    assert len(common._SHARED) < entries


def test_a_bot_alone_at_a_copy_scores_as_the_bots_sharing_a_memo(rules: Ruleset) -> None:
    game = new_game(rules, 4, seed=8, round_cap=4)
    bots = {p: HeuristicBot(i * 17) for i, p in enumerate(game.state.players)}
    kinds: set[str] = set()
    while (dec := game.pending) is not None:
        bot = bots[dec.player]
        if len(dec.options) > 1:
            kinds.add(dec.kind)
            alone = HeuristicBot(bot.seed, bot.profile)
            assert alone.scores(clone(game, 3)) == bot.scores(game), (dec.kind,
                                                                      game.state.choices)
        game.apply(bot.choose(game))
    assert {"build.action", "trade.offer", "trade.pick", "military.legion"} <= kinds


def test_screen_values_remembered_by_the_targets_are_what_they_count(
        rules: Ruleset) -> None:
    """A screen's worth depends on the goods' counts, not their types: two screens of
    the same counts share an entry, and each entry is the value counted afresh."""
    from mare_nostrum.api import SetRules

    tg = ev.Targets(((4, 13.0), (6, 250.0)), 2, SetRules(repeated_types=1))
    a = ev.screen_value({"wine": 2, "grain": 1}, 3, tg)
    b = ev.screen_value({"gems": 1, "cloth": 2}, 3, tg, ahead=0)
    assert a == b
    assert len(tg.values) == 1
    fresh = ev.Targets(tg.big, tg.storage, tg.rules)
    for goods, coins, ahead in [({"wine": 2, "grain": 1}, 3, 0), ({"wine": 1}, 5, 2),
                                ({}, 7, 1), ({"a": 3, "b": 1, "c": 1}, 0, 0)]:
        once = ev.screen_value(goods, coins, tg, ahead)
        assert once == ev.screen_value(goods, coins, tg, ahead)
        assert once == ev.screen_value(goods, coins,
                                       ev.Targets(fresh.big, fresh.storage, fresh.rules),
                                       ahead)
    assert tg == fresh and hash(tg) == hash(fresh)


def test_one_players_exposure_is_his_share_of_everyones(rules: Ruleset) -> None:
    """An evaluation asks the viewer's risk alone: counted for him only (and remembered
    by the board), it is what the whole table's count gives him, bit for bit."""
    game = new_game(rules, 5, seed=4, round_cap=6)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.state.players)}
    memo = Memo()
    checked = 0
    while (dec := game.pending) is not None:
        if game.state.choices % 7 == 0:
            t = ev.table(game, memo)
            everyone = ev.exposure(game, t.great)
            for p in game.state.players:
                alone = ev.exposure(game, t.great, p)
                assert set(alone) <= {p}
                assert alone.get(p, 0.0) == everyone.get(p, 0.0)
                assert t.risk(p) == everyone.get(p, 0.0) == ev.table(game).risk(p)
                checked += everyone.get(p, 0.0) > 0
        game.apply(bots[dec.player].choose(game))
    assert checked > 10
