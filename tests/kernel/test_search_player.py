"""The kernel's search player (``mcts:N``, information-set MCTS) plays any game on the
kernel through the one decision loop: it finds the move a game demands, it is a pure
function of its seed and the position (a saved game goes on as it would have), it sees
only its own seat, and its name is input refused with what to write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnrules import load_ruleset, new_game
from mnrules.bots import make_bot
from mnrules.bots.mcts import MctsBot
from mnrules.core.engine import Game
from mnrules.errors import MnrulesError
from mnrules.tools.scenario import set_position

PACK = str(Path(__file__).parent / "tictactoe" / "pack.yaml")


def _tictactoe(cells: list[str]) -> Game[Any]:
    game = new_game(load_ruleset(PACK), 2, seed=1)
    set_position(game, {"cells": cells})
    return game


def test_it_completes_its_own_line_when_it_can() -> None:
    """x holds 0 and 1; 2 wins at once."""
    game = _tictactoe(["x", "x", "", "o", "o", "", "", "", ""])
    assert make_bot("mcts:60", 1, game.rules).choose(game) == 2


def test_it_blocks_the_line_the_opponent_would_complete() -> None:
    """o holds 3 and 4 and threatens 5; x has no win of his own, so he blocks 5."""
    game = _tictactoe(["x", "", "", "o", "o", "", "", "", "x"])
    assert make_bot("mcts:200", 1, game.rules).choose(game) == 5


def test_it_never_loses_to_the_random_player() -> None:
    rules = load_ruleset(PACK)
    for seed in range(4):
        game = new_game(rules, 2, seed=seed)
        bots = {"x": make_bot("mcts:100", seed, rules), "o": make_bot("random", seed, rules)}
        while (dec := game.pending) is not None:
            game.apply(bots[dec.player].choose(game))
        assert game.state.winners in (["x"], []), f"seed {seed}: {game.state.winners}"


def _play(rules: Any, players: int, names: list[str], choices: int,
          game: Game[Any] | None = None) -> Game[Any]:
    game = game if game is not None else new_game(rules, players, seed=5)
    bots = {p: make_bot(n, k, rules) for k, (p, n) in enumerate(zip(game.state.players,
                                                                     names, strict=True))}
    while (dec := game.pending) is not None and game.state.choices < choices:
        game.apply(bots[dec.player].choose(game))
    return game


@pytest.mark.parametrize(("pack", "players", "choices"), [("en", 3, 70), ("antike2", 3, 40)])
def test_a_saved_game_goes_on_as_it_would_have(pack: str, players: int, choices: int) -> None:
    """Played straight through, or saved at choice 30 and loaded: the same game (the
    search keeps no tree and no generator between decisions)."""
    rules = load_ruleset(pack)
    names = ["mcts:3", "heuristic", "mcts:2+width=3"]
    straight = _play(rules, players, names, choices)
    half = _play(rules, players, names, 30)
    from mnrules import load_game

    resumed = _play(rules, players, names, choices,
                    load_game(rules, half.snapshot().to_json()))
    assert resumed.snapshot().to_dict() == straight.snapshot().to_dict()


def test_it_sees_only_its_own_seat() -> None:
    """Two Mare Nostrum positions that differ only in what Rome cannot see (Greece's and
    Egypt's screens swapped good for good, the same sizes) get the same search."""
    rules = load_ruleset("en")
    game = new_game(rules, 3, seed=2)
    heur = make_bot("heuristic", 1, rules)
    while True:
        dec = game.pending
        assert dec is not None
        if dec.player == "rome" and dec.kind in ("build.action", "trade.pick") \
                and len(dec.options) > 2:
            break
        game.apply(heur.choose(game))
    other = load_game_copy(game)
    screens = other.state.screens
    a, b = (p for p in other.state.players if p != "rome")
    screens[a], screens[b] = _swapped(screens[a], screens[b])
    assert other.state.screens != game.state.screens
    trees = []
    for g in (game, other):
        bot = make_bot("mcts:6", 9, rules)
        assert isinstance(bot, MctsBot)
        root = bot.search(g, list(bot.policy.candidates(g))[:bot.width])
        trees.append({c: (n.visits, round(n.total, 9)) for c, n in root.children.items()})
    assert trees[0] == trees[1]


def load_game_copy(game: Game[Any]) -> Game[Any]:
    from mnrules import load_game

    return load_game(game.rules, game.snapshot().to_json())


def _swapped(x: dict[str, int], y: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """The two screens with their contents traded one for one, as far as they go (the
    sizes kept)."""
    xs = [k for k, n in sorted(x.items()) for _ in range(n)]
    ys = [k for k, n in sorted(y.items()) for _ in range(n)]
    k = min(len(xs), len(ys))
    xs[:k], ys[:k] = ys[:k], xs[:k]

    def count(items: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for i in items:
            out[i] = out.get(i, 0) + 1
        return out
    return count(xs), count(ys)


@pytest.mark.parametrize(("name", "said"), [
    ("mcts:0", "from 1 to 10,000"),
    ("mcts:lots", "from 1 to 10,000"),
    ("mcts:1000000000", "from 1 to 10,000"),
    ("mcts:8+width=0", "width takes a int from 1 to 64"),
    ("mcts:8+breadth=3", "write key=value with a key of width, depth, explore"),
    ("mcts:8+explore=x", "explore takes a float"),
])
def test_a_malformed_name_is_refused_with_what_to_write(name: str, said: str) -> None:
    with pytest.raises(MnrulesError, match=said.replace("(", r"\(").replace("+", r"\+")):
        make_bot(name, 1, load_ruleset(PACK))


def test_the_width_is_the_policys_unless_the_name_gives_one() -> None:
    """A game's policy may say how many candidates a node considers (Antike II: every
    rondel space); without one the kernel's default holds, and the bot's name wins
    over both."""
    from mnrules.bots.mcts import DEFAULT_WIDTH, RandomPolicy

    class Narrow(RandomPolicy):
        width = 2

    assert MctsBot(1, RandomPolicy()).width == DEFAULT_WIDTH
    assert MctsBot(1, Narrow()).width == 2
    assert MctsBot(1, Narrow(), width=5).width == 5
    game = _tictactoe(["", "", "", "", "", "", "", "", ""])
    bot = MctsBot(1, Narrow(), iterations=40)
    assert bot.choose(game) in game.legal()[:2]    # only the first two are searched
