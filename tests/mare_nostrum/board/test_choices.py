"""Typed choices, after python-chess's Move: a step receives the chosen option as the
small frozen type its decision kind declares (a legion move has an origin and a
destination, a trade token a face value), equal to the plain tuple it is offered and
logged as; a game's end is a typed outcome."""

from __future__ import annotations

import json
import random
from typing import Any

from conftest import TESTS
from mare_nostrum import choices
from mnrules import Decision, load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.engine import Outcome


def _play_and_watch(rules: Ruleset, seed: int, rounds: int) -> list[tuple[str, Any]]:
    game = new_game(rules, 5, seed=seed, round_cap=rounds)
    seen: list[tuple[str, Any]] = []
    game.choice_listeners.append(lambda d, c: seen.append((d.kind, c)))
    rng = random.Random(seed)
    while (dec := game.pending) is not None:
        # as a log or a front end sends it: JSON lists, not tuples
        game.apply(json.loads(json.dumps(dec.options[rng.randrange(len(dec.options))])))
    return seen


def test_each_decision_kind_hands_its_step_the_declared_type(rules: Ruleset) -> None:
    seen = _play_and_watch(rules, seed=4, rounds=4)
    by_kind: dict[str, set[type]] = {}
    for kind, choice in seen:
        by_kind.setdefault(kind, set()).add(type(choice))
    assert by_kind["trade.token"] == {choices.TokenFace}
    assert by_kind["trade.pick"] == {choices.Pick}
    assert by_kind["military.legion"] <= {choices.Done, choices.Move}
    assert choices.Move in by_kind["military.legion"]
    assert by_kind["build.action"] <= {choices.End, choices.Place, choices.Build, choices.Tile,
                                       choices.CardOffer}
    assert choices.End in by_kind["build.action"]
    assert by_kind["build.next"] == {str}           # a player's name stays a name
    move = next(c for k, c in seen if isinstance(c, choices.Move))
    assert (move.kind, move.origin, move.to) == tuple(move)
    token = next(c for k, c in seen if k == "trade.token")
    assert token.value in [int(x) for x in token.token.split("/")]


def test_a_typed_choice_is_the_tuple_it_was_offered_as(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=1)
    dec: Decision | None = game.pending
    assert dec is not None and dec.kind == "trade.token"
    offered = dec.options[0]
    typed = choices.TokenFace._make(offered)
    assert typed == offered and hash(typed) == hash(offered)
    assert json.loads(json.dumps(typed)) == list(offered)   # a log writes a JSON list


def test_a_game_that_has_ended_has_a_typed_outcome(rules: Ruleset) -> None:
    game = new_game(rules, 3, seed=2, round_cap=1)
    assert game.outcome is None
    rng = random.Random(2)
    while (dec := game.pending) is not None:
        game.apply(dec.options[rng.randrange(len(dec.options))])
    assert game.outcome == Outcome(tuple(game.state.winners), game.state.victory)
    assert game.outcome.victory


def test_a_game_that_declares_no_types_gets_its_options_as_they_are() -> None:

    pack = TESTS / "kernel" / "tictactoe" / "pack.yaml"
    game = new_game(load_ruleset(str(pack)), 2, seed=1)
    seen: list[Any] = []
    game.choice_listeners.append(lambda d, c: seen.append(c))
    game.apply(4)
    assert seen == [4] and type(seen[0]) is int
