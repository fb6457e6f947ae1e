"""What Mare Nostrum teaches the kernel's search player (``mcts:N``): its playouts answer
a conquered province by rule of thumb, as the heuristic mostly would (occupy a building,
else place the marker, else leave the buildings standing), without the heuristic's
clone-and-evaluate lookahead of every option; and a purchase is valued once the round
is over, a move once its phase is."""

from __future__ import annotations

import pytest

from mare_nostrum.bots.policy import MareNostrumPolicy, quick_conquest
from mnrules import load_ruleset, new_game
from mnrules.bots import make_bot
from mnrules.core.engine import Decision


def _conquered(*options: tuple[object, ...]) -> Decision:
    return Decision("rome", "conquest.choose", "rome: you conquered Thracia",
                    tuple(options))


@pytest.mark.parametrize(("options", "taken"), [
    ([("pass",), ("pillage", 0), ("occupy", 1), ("marker",)], ("occupy", 1)),
    ([("pass",), ("pillage", 0), ("marker",)], ("marker",)),
    ([("pass",), ("marker",)], ("marker",)),
    ([("pillage", 0), ("pass",), ("pillage", 1)], ("pass",)),
])
def test_a_playout_occupies_else_marks_else_leaves_the_buildings(
        options: list[tuple[object, ...]], taken: tuple[object, ...]) -> None:
    assert quick_conquest(_conquered(*options)) == taken


def test_a_further_occupation_is_taken_while_legions_are_free() -> None:
    dec = Decision("rome", "conquest.occupy", "rome: occupy another building?",
                   (("done",), ("occupy", 2)))
    assert quick_conquest(dec) == ("occupy", 2)


def test_a_purchase_is_valued_at_the_end_of_the_round_a_move_at_its_phase() -> None:
    """A build action's playout goes on through the others' builds and the fights that
    follow (the round); a decision of another kind stops when its phase is over."""
    rules = load_ruleset("en")
    game = new_game(rules, 3, seed=4)
    bots = {p: make_bot("heuristic", k, rules) for k, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None and dec.kind != "build.action":
        game.apply(bots[dec.player].choose(game))
    assert dec is not None
    start, round, phase = dec, game.state.round, game.state.phase
    policy = MareNostrumPolicy(1)
    other = Decision(dec.player, "card.choose", "a card's question", (1, 2))
    while game.state.phase == phase:
        assert not policy.over(game, start, round, phase)
        game.apply(bots[game.pending.player].choose(game))  # type: ignore[union-attr]
    assert game.state.round == round
    assert not policy.over(game, start, round, phase)
    assert policy.over(game, other, round, phase)
    while game.state.round == round:
        game.apply(bots[game.pending.player].choose(game))  # type: ignore[union-attr]
    assert policy.over(game, start, round, phase)
