"""A card may end the game from any reaction, the guide's "at the end of each round"
(`after phase.end when the phase is claims`) included: the game is over at once, with
the card's winner, and no rule asks or runs anything after it (before, the round went
on with an empty stack: IndexError in flow.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnrules import new_game
from mnrules.bots.random_bot import RandomBot
from test_card_scripts import with_cards

PHASES = ("production", "trade", "build", "military", "claims")


@pytest.mark.parametrize("edge", ["start", "end"])
@pytest.mark.parametrize("phase", PHASES)
def test_a_card_that_claims_victory_at_a_phase_edge_ends_the_game_there(
        tmp_path: Path, phase: str, edge: str) -> None:
    rules = with_cards(tmp_path, ("oracle", f"after phase.{edge} when the phase is {phase}: "
                                            "claim victory prestige"))
    game = new_game(rules, players=3, seed=4)
    game.state.tiles["greece"].append("oracle")
    bot = RandomBot(4)
    while game.pending is not None:
        assert game.state.round == 1, "the game went on past the card's victory"
        game.apply(bot.choose(game))
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.victory) == (("greece",), "prestige")
    assert game.state.stack == [] and game.state.round == 1


def test_a_card_that_claims_victory_on_a_conquest_ends_the_game_before_the_pillage(
        tmp_path: Path) -> None:
    """The conquest is told, the card ends the game: Rome is not asked to pillage."""
    from mnrules.tools.scenario import run
    from test_conquest_event import scenario

    f = scenario(tmp_path, "won", "", "  - rome\n  - [done]\n",
                 "  winners: [rome]\n  victory: prestige\n  pending: null\n")
    card_file = tmp_path / "cards" / "warlord.yaml"
    card_file.write_text(card_file.read_text(encoding="utf-8").replace(
        "after conquest: take 2 coin", "after conquest: claim victory prestige"),
        encoding="utf-8")
    assert [o.failures for o in run(f)] == [[]]
