"""The event bus's overhead: the same seeded random games played with every effect
hook called through pluggy's own hook caller, and through the bus's pre-resolved flat
call lists (one list per quantity or event kind).

Run by hand: ``python benchmarks/bench_bus.py``. The two setups alternate within one
process; medians of the repeats are compared.
"""

from __future__ import annotations

import statistics
import time

from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset


def rate(rules: Ruleset, games: int) -> float:
    decisions = 0
    t = time.perf_counter()
    for seed in range(games):
        game = new_game(rules, 5, seed=seed, round_cap=15)
        bot = RandomBot(seed)
        while game.pending is not None:
            game.apply(bot.choose(game))
            decisions += 1
    return decisions / (time.perf_counter() - t)


def main() -> None:
    rules = load_ruleset("en")
    flat, pluggy_ = [], []
    for _ in range(5):
        rules.pm.flat = True
        flat.append(rate(rules, 4))
        rules.pm.flat = False
        pluggy_.append(rate(rules, 4))
    a, b = statistics.median(flat), statistics.median(pluggy_)
    print(f"random play, 5 players: flat call lists median {a:,.0f} decisions/s; through "
          f"pluggy's hook caller median {b:,.0f} decisions/s; the bus as pluggy costs "
          f"{(a / b - 1) * 100:.0f}% more time per decision")


if __name__ == "__main__":
    main()
