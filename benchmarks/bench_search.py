"""One bot among heuristic bots, its seat rotated over every seat: its win rate with a
Wilson 95% interval and the CPU time of its own decisions (issue 31's head-to-head).

    python benchmarks/bench_search.py en mcts:8 200 5            # pack, bot, games, players
    python benchmarks/bench_search.py antike2 mcts:8 200 4 heuristic
    python benchmarks/bench_search.py en mcts:8 200 5 heuristic games.json  # each game's result

The same games (seeds 1000 + i, the bot in seat i mod players) for every bot asked: two
bots' results pair game by game (``games.json``: the share won and the CPU of each).
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from mnrules import load_ruleset, new_game
from mnrules.bots import make_bot
from mnrules.tools.simulate import wilson

ROUND_CAP = 60


def one(args: tuple[str, str, str, int, int]) -> tuple[float, float, int]:
    pack, bot, base, players, i = args
    rules = load_ruleset(pack)
    game = new_game(rules, players, seed=1000 + i)
    seat = game.state.players[i % players]
    bots = {p: make_bot(bot if p == seat else base, 17 * i + k, rules)
            for k, p in enumerate(game.state.players)}
    cpu, mine = 0.0, 0
    while (dec := game.pending) is not None and game.state.round <= ROUND_CAP:
        t = time.process_time()
        choice = bots[dec.player].choose(game)
        if dec.player == seat:
            cpu += time.process_time() - t
            mine += 1
        game.apply(choice)
    won = game.state.winners
    return (1.0 / len(won) if seat in won else 0.0), cpu, mine


def main() -> None:
    pack, bot, games, players = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    base = sys.argv[5] if len(sys.argv) > 5 else "heuristic"
    out = sys.argv[6] if len(sys.argv) > 6 else ""
    jobs = [(pack, bot, base, players, i) for i in range(games)]
    with ProcessPoolExecutor(2) as ex:
        res = list(ex.map(one, jobs))
    wins = sum(r[0] for r in res)
    cpu = sum(r[1] for r in res)
    decisions = sum(r[2] for r in res)
    n = games
    p = wins / n
    low, high = wilson(wins, n)  # type: ignore[arg-type]  # wins count shared ones as shares
    print(f"{bot} among {players - 1} {base} on {pack}: {wins:.1f}/{n} = {100 * p:.1f}% "
          f"[{100 * low:.1f}, {100 * high:.1f}], "
          f"{1000 * cpu / max(decisions, 1):.2f} ms a decision")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump({"pack": pack, "bot": bot, "base": base, "players": players,
                       "games": [{"seed": 1000 + i, "won": r[0], "cpu": r[1],
                                  "decisions": r[2]} for i, r in enumerate(res)]}, f)


if __name__ == "__main__":
    main()
