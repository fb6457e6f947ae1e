"""Helpers of the Antike II core tests: a game at a nation's turn in a position written
as the scenario files write it, and a few ways to read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from antike2.state import Game
from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.tools.scenario import set_position

RULES = load_ruleset("antike2")
VARIANTS = "editions/antike2/variants"


def at_turn(position: dict[str, Any], nation: str, players: int = 4,
            rules: Ruleset = RULES) -> Game:
    """A game whose round starts at ``nation``'s turn, in ``position``."""
    game: Game = new_game(rules, players, seed=1)
    set_position(game, {**position, "phase": "turn", "frame": {"nation": nation}})
    return game


def play(game: Game, *choices: Any) -> None:
    for c in choices:
        game.apply(c)


def asked(game: Game) -> tuple[str, str] | None:
    dec = game.pending
    return None if dec is None else (dec.player, dec.kind)


def options(game: Game) -> set[Any]:
    dec = game.pending
    return set() if dec is None else set(dec.options)


def until(game: Game, kind: str, player: str | None = None, limit: int = 50) -> None:
    """Answer 'done' (else the first option) until ``player`` is asked a ``kind``."""
    for _ in range(limit):
        dec = game.pending
        assert dec is not None, f"the game ended before a {kind} decision"
        if dec.kind == kind and player in (None, dec.player):
            return
        game.apply(("done",) if ("done",) in dec.options else dec.options[0])
    raise AssertionError(f"no {kind} decision within {limit} choices")


def variant_file(tmp_path: Path, text: str) -> Path:
    """A variant file (``v.yaml``) on the antike2 pack, holding ``text``."""
    path = tmp_path / "v.yaml"
    path.write_text("extends: antike2\n" + text, encoding="utf-8")
    return path
