"""What Antike II teaches the search player (``mcts:N``): it searches the rondel; every
other decision it makes at the table as the heuristic bot would, its trades included
(its playouts leave trades out for speed: answering the table with the playout's choice
made it trade never and win 17.5% of 200 games among three heuristic bots, below the
fair 25%). In a playout every nation moves on the rondel as the heuristic does at the
table, and a position is valued for each nation as the heuristic values it."""

from __future__ import annotations

import math

from antike2.bots.evaluate import value
from antike2.bots.heuristic import HeuristicBot
from antike2.bots.policy import SCALE, Antike2Policy
from mnrules import load_ruleset, new_game
from mnrules.bots import make_bot


def test_at_the_table_it_trades_as_the_heuristic_does() -> None:
    rules = load_ruleset("antike2")
    game = new_game(rules, 4, seed=1000)
    bots = {p: make_bot("heuristic", k, rules) for k, p in enumerate(game.state.players)}
    seed = 5
    searcher = make_bot("mcts:8", seed, rules)
    heuristic = HeuristicBot(seed * 7919 + 2)     # the search policy's own heuristic
    trades = asked = 0
    while (dec := game.pending) is not None and game.state.round <= 40 and trades < 3:
        if dec.kind == "a2.trade" and len(dec.options) > 1:
            asked += 1
            mine = searcher.choose(game)
            assert mine == heuristic.choose(game), (game.state.round, dec.player)
            trades += mine != ("done",)
        game.apply(bots[dec.player].choose(game))
    assert trades >= 1, f"no trade made in {asked} trade decisions: the test shows nothing"


def _midgame(rounds: int = 12) -> object:
    rules = load_ruleset("antike2")
    game = new_game(rules, 4, seed=1001)
    bots = {p: make_bot("heuristic", k, rules) for k, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None and game.state.round <= rounds:
        game.apply(bots[dec.player].choose(game))
    return game


def test_a_position_is_valued_for_each_nation_as_the_heuristic_values_it() -> None:
    """Each nation's chance to win grows with the heuristic's value of the position for
    it (its standing less half the best rival's): the odds of two nations are e to the
    difference of their values over ``SCALE``, and the chances sum to 1."""
    game = _midgame()
    chances = Antike2Policy(3).values(game)  # type: ignore[arg-type]
    players = game.state.players  # type: ignore[attr-defined]
    worth = {p: value(game, p) for p in players}  # type: ignore[arg-type]
    first = players[0]
    for p in players[1:]:
        odds = math.log(chances[p] / chances[first])
        assert abs(odds - (worth[p] - worth[first]) / SCALE) < 1e-9, p
    assert abs(sum(chances.values()) - 1.0) < 1e-9
    assert len({round(v, 12) for v in chances.values()}) > 1


def test_in_a_playout_the_rondel_move_is_the_heuristics_at_the_table() -> None:
    rules = load_ruleset("antike2")
    game = new_game(rules, 4, seed=1002)
    bots = {p: make_bot("heuristic", k, rules) for k, p in enumerate(game.state.players)}
    policy = Antike2Policy(7)
    rondels = 0
    while (dec := game.pending) is not None and rondels < 12:
        if dec.kind == "a2.rondel" and len(dec.options) > 1:
            rondels += 1
            assert policy.playout(game, 0) == policy.play.choose(game)
        game.apply(bots[dec.player].choose(game))
