"""Snapshot and save speed, and a save's size, at a mid-game position (random play, 5
players, seed 3, 800 choices in). Run by hand, once per tree, alternately, e.g.

    for t in /tmp/base . /tmp/base .; do (cd /tmp && PYTHONPATH=$t \\
        python /path/to/benchmarks/bench_saves.py); done

It prints the tree's module, then the median over 5 repeats of the CPU time of
``game.snapshot()``, of writing a save file (``mnrules.tools.log.save``) and of its text alone
where the tree has it, and the file's size.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable

import mnrules
from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.tools.log import save


def per_call_ms(fn: Callable[[], object], n: int) -> float:
    runs = []
    for _ in range(5):
        t = time.process_time()
        for _ in range(n):
            fn()
        runs.append((time.process_time() - t) / n * 1000)
    return statistics.median(runs)


def main() -> None:
    rules = load_ruleset("en")
    game = new_game(rules, 5, seed=3)
    bot = RandomBot(3)
    for _ in range(800):
        game.apply(bot.choose(game))
    path = os.path.join(tempfile.mkdtemp(), "g.save")
    print(f"{os.path.dirname(mnrules.__file__)}:")
    print(f"  snapshot   {per_call_ms(game.snapshot, 200):.3f} ms")
    print(f"  save file  {per_call_ms(lambda: save(game, 'en', None, path), 50):.3f} ms")
    try:
        from mnrules.tools.log import save_text
    except ImportError:
        pass
    else:
        print(f"  save text  {per_call_ms(lambda: save_text(game, 'en', None), 200):.3f} ms")
    print(f"  save size  {os.path.getsize(path):,} bytes")


if __name__ == "__main__":
    main()
