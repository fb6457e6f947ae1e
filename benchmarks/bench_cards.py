"""The effect language's costs: loading and compiling every card, and the cost per
decision of having every tile in play against none.

Run by hand: ``python benchmarks/bench_cards.py``. Prints medians; the per-decision
comparison plays the same seeded games in one process, alternating the two setups.
"""

from __future__ import annotations

import statistics
import time

from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset, compile_cards


def time_load(repeat: int = 7) -> tuple[float, float]:
    loads, compiles = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        rules = load_ruleset("en")
        loads.append(time.perf_counter() - t)
        t = time.perf_counter()
        compile_cards(rules)
        compiles.append(time.perf_counter() - t)
    return statistics.median(loads), statistics.median(compiles)


def play(rules: Ruleset, games: int, every_tile: bool) -> float:
    """Decisions per second over ``games`` seeded 5-player games (round cap 12)."""
    decisions = 0
    elapsed = 0.0
    tiles = sorted(c.id for c in rules.cards.values() if c.kind in ("hero", "wonder"))
    for seed in range(games):
        game = new_game(rules, 5, seed=seed, round_cap=12)
        if every_tile:
            for i, tile in enumerate(tiles):   # deal every tile round the table
                game.state.tiles[game.state.players[i % 5]].append(tile)
            game.state.display = [t for t in game.state.display if t not in tiles]
            game.state.display_hidden = []
        bot = RandomBot(seed)
        t = time.perf_counter()
        while game.pending is not None:
            game.apply(bot.choose(game))
            decisions += 1
        elapsed += time.perf_counter() - t
    return decisions / elapsed


def main() -> None:
    load, comp = time_load()
    print(f"load the en rule set: median {load * 1000:.1f} ms, of which compiling the "
          f"23 cards {comp * 1000:.1f} ms")
    rules = load_ruleset("en")
    none_, all_ = [], []
    for _ in range(5):
        none_.append(play(rules, 6, False))
        all_.append(play(rules, 6, True))
    a, b = statistics.median(none_), statistics.median(all_)
    print(f"random play, starting heroes only: median {a:,.0f} decisions/s; every tile "
          f"in play: median {b:,.0f} decisions/s; cost per decision x{a / b:.2f} "
          f"({(1 / b - 1 / a) * 1e6:.1f} µs more)")


if __name__ == "__main__":
    main()
