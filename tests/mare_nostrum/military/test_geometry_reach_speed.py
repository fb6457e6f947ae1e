"""A player's reach (``geometry.Reach``) is found by set operations (docs/speed.md,
issue 15, eighth round): the provinces it answers are those the comprehension it
replaced found, for every province, player and fleet of seeded games, with triremes
written behind the rules' back and provinces taken out of play."""

from __future__ import annotations

import random

from mare_nostrum.geometry import Reach, fleet_seas
from mnrules import Game, new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset


def reach_before(game: Game, player: str, province: str) -> set[str]:
    """``Reach.__call__`` as it was (47809cc), with a fresh Reach's shores."""
    reach = Reach(game, player)
    p = reach.board.provinces[province]
    live = game.state.built
    found = {x for x in p.neighbours if x in live}
    for sea in p.seas:
        found.update(x for x in reach.shores.get(sea, ()) if x in live)
    found.discard(province)
    return found


def test_the_reach_is_the_one_it_replaced(rules: Ruleset) -> None:
    asked = 0
    seas = sorted(rules.board.seas)
    for seed in (41, 42):
        game = new_game(rules, 5, seed=seed, round_cap=10)
        bots = {p: make_bot("random", seed * 1009 + i, rules)
                for i, p in enumerate(game.state.players)}
        rng = random.Random(seed)
        state = game.state
        while (dec := game.pending) is not None:
            if rng.random() < 0.05:
                if rng.random() < 0.3:   # a province out of play, or back in
                    out = rng.choice(sorted(state.built))
                    slots = state.built.pop(out)
                    assert all(out not in r for p in state.players
                               for r in [Reach(game, p)(x) for x in state.built])
                    state.built[out] = slots
                state.add_units(rng.choice(seas), rng.choice(state.players), "trireme")
                for p in state.players:
                    fleet = fleet_seas(state, p)
                    for prov in sorted(rules.board.provinces):
                        mine = Reach(game, p)
                        assert mine(prov) == reach_before(game, p, prov), (seed, p, prov)
                        assert mine(prov) is mine(prov)      # remembered per province
                        imagined = Reach(game, p, fleet | {rng.choice(seas)})
                        assert imagined(prov) >= mine(prov)
                        asked += 1
            game.apply(bots[dec.player].choose(game))
    assert asked > 1000
