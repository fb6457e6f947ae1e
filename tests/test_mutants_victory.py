"""Victory rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from mnrules.plugins.mare_nostrum import api
from test_editions import FOUR, build_phase, build_turn, finish_phase


def test_able_whoever_could_build_the_pyramids_shares_them_once_built() -> None:
    """FR (``build_victory: able``, the digest's Q16 ability reading of « peuvent
    construire »): Egypt leads culture; Rome and Carthage each hold 12 coins, enough for
    the Pyramids. Rome builds them: that wins for both, by the Pyramids' own victory
    (``prestige``), not by a fifth tile, at the end of the Build phase.

    Kills: ``if effects is not None`` -> ``is None`` in ``victory._card_path`` (a special
    wonder's path read as its own name, so nobody able to build it shares its win)."""
    game = build_phase("fr", "egypt", {}, {"rome": 12, "carthage": 12})
    build_turn(game, "rome", "pyramids")
    assert not game.over  # Carthage could build them too: the phase goes on
    finish_phase(game)
    assert "pyramids" not in game.state.tiles["carthage"]
    assert (game.state.winners, game.state.victory) == (["rome", "carthage"], "prestige")


def test_a_fifth_tile_waits_for_the_end_of_the_phase_where_bots_can_see_it() -> None:
    """NL (victory at the end of the Build phase): Rome, not the culture leader, buys his
    fifth tile. Until the phase ends his claim is pending, and what the bots read of it
    is a copy they cannot change the game through; at the end he wins.

    Kills: deleting the ``return`` of ``victory.pending_claims`` (``api``'s view of it)."""
    game = build_phase("nl", "egypt", {"rome": FOUR}, {"rome": 10})
    build_turn(game, "rome", "colossus")
    assert not game.over
    seen = api.pending_build_victories(game)
    assert seen == {"fifth": ["rome"]}
    seen["fifth"].append("carthage")
    assert api.pending_build_victories(game) == {"fifth": ["rome"]}
    finish_phase(game)
    assert (game.state.winners, game.state.victory) == (["rome"], "fifth")
