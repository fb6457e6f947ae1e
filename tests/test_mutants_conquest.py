"""Conquest rules that mutation testing found unguarded (issue 19, items 2-3)."""

from __future__ import annotations

from conftest import pending, play
from mnrules.plugins.mare_nostrum import position as pos
from mnrules.ruleset import Ruleset
from test_cards import sheba


def test_sheba_cannot_convert_without_a_marker_in_the_box(rules: Ruleset) -> None:
    """4.3.3: the Queen of Sheba converts an occupied marker at once only if her holder
    has a control marker left in his box (a hard limit). Greece has none: Cyrenaica's
    marker is only occupied, and the conquest goes on to Garamantia unasked.

    Kills: ``return False`` -> ``return True`` for an empty box in
    ``conquest.can_convert_now``."""
    game = sheba(rules)
    state = game.state
    free = (p for p in sorted(rules.board.provinces) if state.control.get(p) != "greece"
            and p not in ("CYRENAICA", "GARAMANTIA"))
    while state.pieces["greece"]["marker"] > 0:  # all his markers on the board
        pos.set_marker(game, next(free), "greece")
    play(game, ("marker",))
    assert pending(game) == ("greece", "conquest.choose")
    assert game.state.marker_occupier["CYRENAICA"] == "greece"
    assert game.state.control["CYRENAICA"] == "egypt"
