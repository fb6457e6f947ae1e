"""The generic parts of the effect language: what they refuse with a reason, and what
only a game of several rounds shows (once per game)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mare_nostrum import position as pos
from mnrules import new_game
from mnrules.language.syntax import ScriptError
from test_card_scripts import with_cards


@pytest.mark.parametrize("script, message", [
    ("after collect: if you do take 1 coin",
     "'if you do' follows a 'may' action"),
    ("after collect: you may take 1 coin, if you do",
     "'if you do' needs an action after it"),
    ("before pillage: you may take 1 coin",
     "a 'before' rule acts at once, while the event is under way: it cannot ask"),
    ("before pillage: take 1 good of your choice",
     "a 'before' rule acts at once"),
    ("modify build.first by an opponent: include you",
     "'by ...' picks whose quantity it is, but 'build.first' is nobody's in particular"),
    ("modify battle.total: add 1 per 0 legion die",
     "'per 0 ...' divides by nothing"),
    ("after collect by an oponent: take 1 coin",
     "unknown player (who) 'an oponent'; did you mean 'an opponent'?"),
    ("modify battle.total when at least 2 goods of empty caravan slots under your legions: "
     "add 1", "is not a number: it cannot be compared"),
    ("after collect: you may pay 2 wood to take 1 coin, if you do the attacker loses 1 coin",
     "the player (who) 'the attacker' means something only for battle"),
    ("after collect: each opponent may pay 2 coins to take 1 good of your choice", None),
    ("modify battle.total when more legions you have here than legions the enemy has here "
     "and at most 3 provinces you control: add 1 per 2 legion die", None),
])
def test_the_generic_parts_refuse_with_a_reason(tmp_path: Path, script: str,
                                                message: str | None) -> None:
    if message is None:
        with_cards(tmp_path, ("hero", script))
        return
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, ("hero", script))
    assert message in str(err.value)


def test_once_per_game_is_once_in_the_game(tmp_path: Path) -> None:
    """Midas: three coins after a Collect; the next rounds' Collects give nothing more."""
    rules = with_cards(tmp_path, ("midas", "once per game after collect: take 3 coin"))
    game = new_game(rules, 5, seed=1)
    pos.clear(game)
    pos.give_tiles(game, "rome", "midas")
    for rnd in (2, 3, 4):
        game.state.round = rnd
        pos.start_phase(game, "production")
        assert game.pending is not None               # the phase has run
        assert game.state.screens["rome"].get("coin", 0) == 3, rnd


def test_a_tie_claimed_by_two_is_settled_among_them(tmp_path: Path) -> None:
    """Two players claim culture ties: tied with each other and a third, the holder
    chooses between the two only; one claiming every tie takes the others unasked."""
    rules = with_cards(tmp_path, ("solon", "modify title.ties when the track is culture: "
                                           "include you"),
                       ("lycurgus", "modify title.ties: include you"))
    game = new_game(rules, 5, seed=1)
    pos.clear(game)
    game.state.round = 2
    for prov, who in (("LATIUM", "rome"), ("ACHAEA", "greece"), ("AEGYPTUS", "egypt")):
        pos.set_marker(game, prov, who)
        pos.build(game, prov, "temple")
    game.state.titles.update(culture="egypt", trade="rome", military="rome")
    pos.give_tiles(game, "rome", "solon")
    pos.give_tiles(game, "greece", "lycurgus")
    pos.start_phase(game, "claims")
    d = game.pending                       # trade, all at 0: Lycurgus takes it unasked
    assert game.state.titles["trade"] == "greece"
    assert d is not None and (d.player, d.kind) == ("egypt", "claims.tie")
    assert set(d.options) == {"rome", "greece"}   # culture: only the two claimants
    game.apply("rome")
    assert game.state.titles["culture"] == "rome"
    assert game.state.titles["military"] == "greece"
