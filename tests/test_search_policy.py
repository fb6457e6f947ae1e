"""What Mare Nostrum teaches the kernel's search player (``mcts:N``): its playouts answer
a conquered province by rule of thumb, as the heuristic mostly would (occupy a building,
else place the marker, else leave the buildings standing), without the heuristic's
clone-and-evaluate lookahead of every option."""

from __future__ import annotations

import pytest

from mare_nostrum.bots.policy import quick_conquest
from mnrules.engine import Decision


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
