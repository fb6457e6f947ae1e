"""The search player (``mcts:N``) searches Antike II's rondel; every other decision it
makes at the table as the heuristic bot would, its trades included. (Its playouts leave
trades out for speed; answering the table with the playout's choice made it trade never
and win 17.5% of 200 games among three heuristic bots, below the fair 25%.)"""

from __future__ import annotations

from antike2.bots.heuristic import HeuristicBot
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
