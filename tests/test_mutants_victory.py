"""Victory rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from test_editions import build_phase, build_turn, finish_phase


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
