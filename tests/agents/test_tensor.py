"""The big games' observation tensors (``GameDefinition.tensor``): one fixed length per game and
number of players, read from the viewer's view alone, seen from his seat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mnrules import load_ruleset, new_game
from mnrules.agents import copy_game
from mnrules.bots import make_bot


def tensor(game: Any, player: str) -> list[float]:
    assert game.rules.definition.tensor is not None
    found = game.rules.definition.tensor(game=game, player=player)
    assert found is not None
    return list(found)


def played(pack: str, players: int, seed: int, choices: int) -> Any:
    rules = load_ruleset(pack)
    game = new_game(rules, players, seed=seed)
    bots = {p: make_bot("random", seed * 7 + i, rules)
            for i, p in enumerate(game.state.players)}
    while game.pending is not None and game.state.choices < choices:
        game.apply(bots[game.pending.player].choose(game))
    return game


@pytest.mark.parametrize("pack,players,size", [("en", 5, 1017), ("en", 3, 653),
                                               ("antike2", 4, 954), ("antike2", 3, 753)])
def test_one_length_in_every_state_of_a_game(pack: str, players: int, size: int) -> None:
    rules = load_ruleset(pack)
    game = new_game(rules, players, seed=5, round_cap=6)
    bots = {p: make_bot("random", i, rules) for i, p in enumerate(game.state.players)}
    lengths: set[int] = set()
    while game.pending is not None:
        lengths.update(len(tensor(game, p)) for p in game.state.players)
        game.apply(bots[game.pending.player].choose(game))
    lengths.update(len(tensor(game, p)) for p in game.state.players)
    assert lengths == {size}


def test_another_empires_screen_and_the_face_down_piles_do_not_show() -> None:
    game = played("en", 4, 3, 150)
    viewer = game.state.players[0]
    other = next(p for p in game.state.players[1:]
                 if sum(1 for n in game.state.screens[p].values() if n) >= 1)
    screen = game.state.screens[other]
    had = next(g for g, n in screen.items() if n and g != "coin")
    before = {p: tensor(game, p) for p in game.state.players}
    # the same table but for what the viewer cannot see: the other's goods are others
    # (as many of them), the legendary pile and the face-down tiles in another order
    twin = copy_game(game)
    hidden = twin.state.screens[other]
    hidden[had] -= 1
    hidden["coin"] = hidden.get("coin", 0) + 1
    random.Random(1).shuffle(twin.state.legendary_pile)
    twin.state.display_hidden.reverse()
    assert tensor(twin, viewer) == before[viewer]
    assert tensor(twin, other) != before[other]     # he sees his own screen
    # what the viewer sees does show: a legion more of the other's somewhere
    area = next(iter(twin.state.units))
    twin.state.add_units(area, other, "legion")
    assert tensor(twin, viewer) != before[viewer]


@pytest.mark.parametrize("pack,players", [("antike2", 4), ("en", 3)])
def test_each_seat_sees_the_table_from_its_own_place(pack: str, players: int) -> None:
    game = played(pack, players, 2, 120)
    first, second = game.state.players[0], game.state.players[1]
    a, b = tensor(game, first), tensor(game, second)
    assert a != b
    if pack == "antike2":
        # nothing is hidden: the same facts, the seats turned
        assert sorted(a) == sorted(b)
    # the viewer's own box of pieces (Mare Nostrum) or stock (Antike II) comes first
    # among the seats' blocks in his tensor, wherever he sits
    if pack == "en":
        box = game.state.pieces[first]
        start = tensor_block_start(game)
        assert a[start:start + 4] == [float(box.get(k, 0)) for k in
                                      ("legion", "trireme", "fortress", "marker")]


def tensor_block_start(game: Any) -> int:
    """Where Mare Nostrum's per-seat block begins: after the provinces and the areas."""
    board = game.rules.board
    n = len(game.state.players)
    return len(board.provinces) * (n + 1 + 1 + n) + \
        (len(board.provinces) + len(board.seas)) * 3 * n


def test_the_openspiel_observation_tensor_is_the_games() -> None:
    pytest.importorskip("pyspiel")
    import pyspiel

    import mnrules.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("mnrules", {"game": "antike2", "players": 4, "seed": 1})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seen = state.observation_tensor(1)
    table = state.table
    assert len(seen) == 954
    assert seen == pytest.approx(tensor(table.game, table.seats[1]))
