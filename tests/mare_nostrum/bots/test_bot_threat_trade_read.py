"""Issue 14's fourth step: the threat reads what a trade may bring a goods payer toward
his fifth tile (profile weight ``trade_read``): a set of goods must be of different
types, the picks of a trade are goods of the others' types, and a bot that plans its
trade assembles the types it lacks by them."""

from __future__ import annotations

from dataclasses import replace

from mare_nostrum.bots import threat
from mare_nostrum.bots.common import Memo
from mare_nostrum.bots.profiles import DEFAULT, profile
from mare_nostrum.state import Game
from mnrules import new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset
from mnrules.tools import simulate as sim


def _danger(coins: int, types: int, gain: int, cost: int = 10,
            special: int | None = 12) -> threat.Danger:
    d = threat.Danger(0.0, 0.0, 0.0, 0.0, coins, types, 99, cost, False, special,
                      frozenset(), gain)
    fifth, prestige = d.build_chances()
    return replace(d, fifth=fifth, prestige=prestige)


def test_a_trade_brings_more_types_the_more_rivals_offer(rules: Ruleset) -> None:
    faces = [int(f) for t in rules.components["trade_tokens"] for f in str(t).split("/")]
    assert sum(faces) / len(faces) == 2.5
    gains = [threat.trade_types(new_game(rules, n, seed=1)) for n in (3, 4, 5)]
    assert gains == [0.0, 1.25, 2.5]


def test_the_trade_counts_toward_a_goods_payers_fifth_only() -> None:
    plain, traded = _danger(3, 6, 0), _danger(3, 6, 3)
    assert traded.fifth > 3 * plain.fifth and traded.fifth == _danger(3, 9, 0).fifth
    assert traded.prestige == plain.prestige          # the special wonder: as before
    # a coin payer is read by his coins: the types he may gain do not reach them
    assert _danger(9, 4, 3).fifth == _danger(9, 4, 0).fifth
    # what he would lose still lowers it, and a new type still feeds him
    assert traded.build_chances(minus=2)[0] < traded.fifth
    assert traded.build_chances(types=1)[0] > traded.fifth


def _goods_payer_near_his_fifth(rules: Ruleset) -> tuple[Game, str]:
    """A five-player game played into a trade phase where someone paying in goods holds
    four tiles."""
    for seed in range(1, 40):
        game = new_game(rules, 5, seed=seed, round_cap=8)
        bots = {p: make_bot("heuristic", seed * 10 + i, rules)
                for i, p in enumerate(game.state.players)}
        while (dec := game.pending) is not None:
            if game.state.phase == "trade":
                found = threat.dangers(game)
                near = [p for p, d in found.items()
                        if d.tile_cost is not None and d.types > d.coins]
                if near:
                    return game, near[0]
            game.apply(bots[dec.player].choose(game))
    raise AssertionError("no goods payer near his fifth in 39 games")


def test_the_reading_follows_the_profile_and_a_memo_keeps_them_apart(rules: Ruleset
                                                                       ) -> None:
    game, who = _goods_payer_near_his_fifth(rules)
    assert DEFAULT.trade_read == 1.0 and profile("planner").trade_read == 0.0
    plain = threat.dangers(game)
    read = threat.dangers(game, trade=1.0)
    assert read[who].fifth > plain[who].fifth and read[who].gain == 3
    assert plain[who].gain == 0
    memo = Memo()
    for trade in (0.0, 1.0, 0.0):
        assert threat.dangers(game, memo=memo, trade=trade) == \
            threat.dangers(game, trade=trade)


OLD_DEFAULT = {  # the default before the fourth step, re-recorded on the board of the
    # fifth (docs/board.md: the 3-player outline, Rome's market in ITALIA)
    0: "07eb9df359ee497e1c87fb1fd4e759527dc1cb182a0946de4e42bc9ce0bba597",
    1: "9c2f51895baa679869c1d8e8596758768d4a4fe11d424e42c8d10c5a71c634a0",
}


def test_the_planner_plays_the_default_before_the_fourth_step() -> None:
    for seed, history in OLD_DEFAULT.items():
        job = sim.Job("en", None, 5, seed, ("heuristic:planner",), 60)
        played = sim.play_one(job)
        assert played.history == history
        assert sim.play_one(replace(job, bots=("heuristic",))).history != history


def test_with_two_rivals_the_default_plays_as_before() -> None:
    """Three players: a trade brings no types beyond the income's (the reading was
    right there), so the default plays the planner's games."""
    for seed in (1, 2):
        job = sim.Job("en", None, 3, seed, ("heuristic",), 60)
        assert sim.play_one(job).history == \
            sim.play_one(replace(job, bots=("heuristic:planner",))).history


def test_a_table_of_readers_and_planners_shares_its_memo_safely(rules: Ruleset) -> None:
    """The bots at one table share one memo (common.game_memo): a planner seated beside
    the default scores every decision as a fresh bot of his own would."""
    from mare_nostrum.bots.common import clone
    from mare_nostrum.bots.heuristic import HeuristicBot

    game = new_game(rules, 5, seed=4, round_cap=6)
    styles = [DEFAULT, profile("planner")]
    bots = {p: HeuristicBot(40 + i, styles[i % 2]) for i, p in enumerate(game.state.players)}
    checked = 0
    while (dec := game.pending) is not None:
        bot = bots[dec.player]
        if len(dec.options) > 1 and dec.kind.startswith(("trade", "build")):
            fresh = HeuristicBot(bot.seed, bot.profile)
            assert fresh.scores(clone(game, 0)) == bot.scores(game)
            checked += 1
        game.apply(bot.choose(game))
    assert checked > 20
