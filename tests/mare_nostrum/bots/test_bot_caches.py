"""The heuristic bot's caches make it cheaper, never different: what a bot's memo
remembers across decisions (levels, great cities and incomes by the board; storage,
payment rules and purchase targets by a player's cards; dangers) is what the rules
answer afresh in the position at hand, and a bot that kept its memo through a game
chooses at every decision what a new bot, with nothing remembered, chooses there."""

from __future__ import annotations

from collections.abc import Iterator

from mare_nostrum import api
from mare_nostrum import position as pos
from mare_nostrum.bots import evaluate as ev
from mare_nostrum.bots import threat
from mare_nostrum.bots.common import Memo, clone
from mare_nostrum.bots.heuristic import HeuristicBot
from mnrules import Game, new_game
from mnrules.content.ruleset import Ruleset


def positions(rules: Ruleset, seed: int, rounds: int) -> Iterator[tuple[Game, HeuristicBot]]:
    """Every decision of a seeded 5-player heuristic game, with the bot that takes it
    (each seat keeps its bot, and so its memo, for the whole game)."""
    game = new_game(rules, 5, seed=seed, round_cap=rounds)
    bots = {p: HeuristicBot(seed * 31 + i) for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None:
        bot = bots[dec.player]
        yield game, bot
        game.apply(bot.choose(game))


def test_a_bot_with_a_memo_chooses_as_a_bot_without_one(rules: Ruleset) -> None:
    seen: set[str] = set()
    for game, bot in positions(rules, seed=3, rounds=7):
        dec = game.pending
        assert dec is not None
        seen.add(dec.kind)
        if len(dec.options) == 1:
            continue
        # on a copy of the game: the bots at one table share a memo (common.game_memo)
        fresh = HeuristicBot(bot.seed, bot.profile)
        assert fresh.scores(clone(game, 0)) == bot.scores(game), (dec.kind,
                                                                  game.state.choices)
    # the decisions whose caches matter were met
    assert {"build.action", "build.pay", "trade.pick", "military.legion"} <= seen


def test_what_a_memo_remembers_is_what_the_rules_answer_now(rules: Ruleset) -> None:
    memo = Memo()
    checked = 0
    for game, _ in positions(rules, seed=5, rounds=6):
        if game.state.choices % 3:
            continue
        checked += 1
        t = ev.table(game, memo)
        assert (t.levels, t.great) == (api.levels(game), api.great_cities(game))
        t.all_incomes()
        assert t._incomes == api.incomes(game)
        for p in game.state.players:
            assert t.income(p) == api.income(game, p)
            assert ev.storage(game, p, memo) == api.storage(game, p)
            assert ev.payment_rules(game, p, memo) == api.payment_rules(game, p)
            assert ev.targets(game, p, memo) == ev.targets(game, p)
        assert threat.dangers(game, memo=memo) == threat.dangers(game)
        assert threat.dangers(game, ev.table(game, memo), memo) == threat.dangers(game)
    assert checked > 50



def test_a_memo_tells_apart_a_legion_on_a_slot_and_one_on_a_marker(rules: Ruleset) -> None:
    """Circe's legions produce as caravans only where they stand on an empty slot: a
    legion occupying the marker stands on it (EX-HW-4). Two positions that differ in
    that alone differ in income, and a bot's memo must not give the one for the other
    (it did, when only the board's pieces made its key)."""
    from test_movement import empty_board

    game = empty_board(rules, 4)
    game.state.tiles["rome"].append("circe")
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    memo = Memo()
    on_slot = ev.table(game, memo)
    on_slot.all_incomes()
    assert on_slot.income("rome").get("papyrus", 0) == 1
    game.state.marker_occupier["CYRENAICA"] = "rome"
    on_marker = ev.table(game, memo)
    on_marker.all_incomes()
    assert on_marker.income("rome").get("papyrus", 0) == 0 == \
        api.income(game, "rome").get("papyrus", 0)
