"""A bot from elsewhere plugged in through a pack (a variant's mn_bots) receives its
player's view and the legal options, never the game, and the view hides the others'
screens."""

from __future__ import annotations

import json
from pathlib import Path

from mnrules import load_ruleset, new_game
from mnrules.bots import ViewBot, make_bot
from mnrules.core.engine import Game

VARIANT = Path(__file__).parent / "seat_bot" / "variant.yaml"


def test_a_pack_bot_gets_only_its_view_and_options() -> None:
    rules = load_ruleset("en", variant=VARIANT)
    bot = make_bot("peek", 1, rules)
    assert isinstance(bot, ViewBot)
    seen = bot._seat.seen  # type: ignore[attr-defined]
    game = new_game(rules, 3, seed=2)
    others = {p: make_bot("random", k, rules) for k, p in enumerate(game.state.players)}
    while game.pending is not None and game.state.choices < 300:
        dec = game.pending
        game.apply((bot if dec.player == "rome" else others[dec.player]).choose(game))
    assert seen
    for view, options in seen:
        assert isinstance(view, dict) and isinstance(options, list)
        text = json.dumps(view, default=str)
        assert "Game(" not in text and not any(isinstance(v, Game) for v in view.values())
        assert view["pending"]["player"] == "rome"
        # the others' screens are a count alone, the piles' order unseen
        for p, screen in view["screens"].items():
            assert p == "rome" or set(screen) == {"hidden"}
        assert isinstance(view["legendary_pile"], int)
        assert view["rng"] is None
