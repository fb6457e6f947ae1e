"""Skill as a dimension of every balance question (``mnrules skill``).

* **The skill trace** (``skill trace``): at each budget N of a doubling ladder, one search
  player of budget 2N among players of budget N, its seat rotated over every seat; its
  win rate against the fair share says what doubling still buys. The ladder's first rung
  may be another bot (``--base heuristic``: ``mcts:N`` among heuristic bots). A game
  nobody won (a draw, the round cap) counts an even share for every seat. The trace
  stops paying where doubling gains less than ``--gain`` points (5 by default).
* **The balance table by bot** (``skill table``): the same seeds under each bot of a list
  (a style, a strength: ``heuristic,heuristic:builder,mcts:8``), every seat played by that
  bot; each seat's win rate with its Wilson interval, its verdict (above, below or within
  the fair share at 95%), the ranking under each bot, and the cells whose verdict depends
  on the bot, flagged: a balance claim should hold under every bot a player may be.

Both are pure functions of their arguments (the games are ``simulate``'s seeded jobs), so
a table is reproduced by its command, which it prints.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from typing import Any

from ..errors import MnrulesError
from . import simulate as sim


@dataclass(frozen=True)
class Rung:
    """One step of the trace: ``strong`` in one seat against ``weak`` in the others."""

    strong: str
    weak: str
    games: int
    wins: float
    interval: tuple[float, float]
    fair: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def gain(self) -> float:
        """Points won above the fair share (percentage points)."""
        return 100.0 * (self.rate - self.fair)


def trace_jobs(pack: str, variant: str | None, players: int, strong: str, weak: str,
               games: int, seed: int, cap: int | None) -> list[sim.Job]:
    """``games`` seeded games, ``strong`` in seat ``i % players`` of game ``i``."""
    jobs = []
    for i in range(games):
        bots = [weak] * players
        bots[i % players] = strong
        jobs.append(sim.Job(pack, variant, players, seed * 1_000_003 + i, tuple(bots), cap))
    return jobs


def rung(strong: str, weak: str, jobs: list[sim.Job],
         results: list[sim.GameResult]) -> Rung:
    wins = 0.0
    for job, res in zip(jobs, results, strict=True):
        seat = job.bots.index(strong)
        me = res.players[seat]
        if me in res.winners:
            wins += 1.0 / len(res.winners)
        elif not res.winners:   # a draw or an undecided game: an even share
            wins += 1.0 / len(res.players)
    n = len(jobs)
    players = jobs[0].players if jobs else 1
    return Rung(strong, weak, n, wins, sim.wilson(round(wins), n), 1.0 / players)


def ladder(budgets: list[int], base: str | None, name: str = "mcts") -> list[tuple[str, str]]:
    """The (strong, weak) pairs of a doubling ladder over ``budgets``."""
    pairs = []
    if base:
        pairs.append((f"{name}:{budgets[0]}", base))
    for n in budgets:
        pairs.append((f"{name}:{2 * n}", f"{name}:{n}"))
    return pairs


def format_trace(rungs: list[Rung], gain: float, title: str) -> str:
    lines = [title, f"{'strong':<16}{'among':<16}{'games':>6}  {'wins':>6}  "
                    f"{'rate':>6}  {'95% interval':<14}{'gain':>7}"]
    stop = None
    for r in rungs:
        lo, hi = r.interval
        lines.append(f"{r.strong:<16}{r.weak:<16}{r.games:>6}  {r.wins:>6.1f}  "
                     f"{100 * r.rate:>5.1f}%  [{100 * lo:4.1f}, {100 * hi:4.1f}]  "
                     f"{r.gain:>+6.1f}")
        if stop is None and r.weak.startswith("mcts") and r.gain < gain:
            stop = r
    if stop is not None:
        lines.append(f"doubling stops paying at {stop.weak} → {stop.strong}: it gains "
                     f"{stop.gain:+.1f} points, under the {gain:g} asked")
    else:
        lines.append(f"every doubling gained at least {gain:g} points: the ladder has not "
                     f"reached where strength stops paying")
    return "\n".join(lines)


@dataclass(frozen=True)
class Cell:
    bot: str
    seat: str
    games: int
    wins: float
    interval: tuple[float, float]
    fair: float

    @property
    def verdict(self) -> str:
        lo, hi = self.interval
        if lo > self.fair:
            return "above"
        if hi < self.fair:
            return "below"
        return "even"


def table_cells(bot: str, results: list[sim.GameResult]) -> list[Cell]:
    """Each seat's (each empire's, each nation's) wins under ``bot``."""
    seats: dict[str, float] = {}
    order: list[str] = []
    for res in results:
        for p in res.players:
            if p not in seats:
                seats[p] = 0.0
                order.append(p)
        for w in res.winners:
            seats[w] = seats.get(w, 0.0) + 1.0 / len(res.winners)
    n = len(results)
    fair = 1.0 / len(order) if order else 0.0
    return [Cell(bot, p, n, seats[p], sim.wilson(round(seats[p]), n), fair) for p in order]


def format_table(cells: dict[str, list[Cell]], title: str,
                 names: sim.Names = sim.IDS) -> str:
    bots = list(cells)
    seats = [c.seat for c in cells[bots[0]]]
    width = max(12, *(len(b) + 2 for b in bots))
    lines = [title, f"{'':<12}" + "".join(f"{b:>{width}}" for b in bots) + "  verdict"]
    flagged = []
    for i, seat in enumerate(seats):
        row = [cells[b][i] for b in bots]
        verdicts = {c.verdict for c in row}
        mark = "depends on the bot" if len(verdicts) > 1 else next(iter(verdicts))
        if len(verdicts) > 1:
            flagged.append(seat)
        lines.append(f"{sim._w(names.player(seat), 11):<12}" + "".join(
            f"{f'{100 * c.wins / max(c.games, 1):.1f}% {_arrow(c.verdict)}':>{width}}"
            for c in row) + f"  {mark}")
    ranks = {b: [names.player(c.seat) for c in sorted(cells[b], key=lambda c: -c.wins)]
             for b in bots}
    lines.append("ranking: " + "; ".join(f"{b}: {' > '.join(ranks[b])}" for b in bots))
    leaders = {r[0] for r in ranks.values()}
    if len(leaders) == 1 and not flagged:
        lines.append("stable: the same leader and the same verdicts under every bot")
    else:
        lines.append(f"NOT stable: leaders {', '.join(sorted(leaders))}; verdicts that depend "
                     f"on the bot: {', '.join(map(names.player, flagged)) or 'none'}")
    lines.append("(↑ above the fair share, ↓ below it, = within it: Wilson 95%)")
    return "\n".join(lines)


def _arrow(verdict: str) -> str:
    return {"above": "↑", "below": "↓"}.get(verdict, "=")


def command(args: Any) -> int:
    """``mnrules skill trace|table``."""
    from ..bots import make_bot
    from ..content.ruleset import load_ruleset
    from ..files import check_writable, write_atomic

    if args.out:
        if not args.out.endswith(".json"):
            raise MnrulesError(f"--out {args.out}: give a file ending in .json")
        check_writable(args.out, "--out")
    rules = load_ruleset(args.edition, variant=args.variant)
    players = args.players or max(rules.seating, default=2)
    if players not in rules.seating:
        raise MnrulesError(f"--players {players}: this game seats "
                           f"{', '.join(map(str, sorted(rules.seating)))}")
    said = "mnrules " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    title = (f"{args.edition}{' + ' + args.variant if args.variant else ''}, {players} "
             f"players, {args.games} games a cell, seed {args.seed}")
    out: dict[str, Any] = {"provenance": None, "command": said, "pack": args.edition,
                           "variant": args.variant, "players": players, "games": args.games,
                           "seed": args.seed}
    played: list[str] = []
    if args.what == "trace":
        try:
            budgets = [int(b) for b in args.budgets.split(",")]
        except ValueError:
            budgets = []
        if not budgets or any(b < 1 for b in budgets):
            raise MnrulesError(f"--budgets {args.budgets}: give whole numbers of "
                               "iterations, comma-separated, e.g. 2,4,8")
        pairs = ladder(budgets, args.base)
        for strong, weak in pairs:
            make_bot(strong, 0, rules)
            make_bot(weak, 0, rules)
            played += [strong, weak]
        rungs = []
        for strong, weak in pairs:
            jobs = trace_jobs(args.edition, args.variant, players, strong, weak, args.games,
                              args.seed, args.round_cap)
            results = sim.run(jobs, sim.worker_count(args.jobs, len(jobs)),
                              show_progress=not args.quiet)
            rungs.append(rung(strong, weak, jobs, results))
            if not args.quiet:
                r = rungs[-1]
                print(f"{strong} among {weak}: {r.wins:g} of {r.games} ({r.gain:+.1f} points)",
                      file=sys.stderr)
        text = format_trace(rungs, args.gain, title)
        out["trace"] = [{"strong": r.strong, "among": r.weak, "games": r.games,
                         "wins": r.wins, "interval": list(r.interval), "gain": r.gain}
                        for r in rungs]
    else:
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        if len(bots) < 2 or len(set(bots)) != len(bots):
            raise MnrulesError(f"--bots {args.bots}: name at least two different bots")
        for b in bots:
            make_bot(b, 0, rules)
        played += bots
        cells: dict[str, list[Cell]] = {}
        for b in bots:
            jobs = sim.jobs_for(args.edition, args.variant, players, args.games, args.seed,
                                [b], args.round_cap)
            results = sim.run(jobs, sim.worker_count(args.jobs, len(jobs)),
                              show_progress=not args.quiet)
            cells[b] = table_cells(b, results)
        from ..language.present import presenter

        text = format_table(cells, title, sim.Names(presenter(rules)))
        out["table"] = {b: [{"seat": c.seat, "wins": c.wins, "games": c.games,
                             "interval": list(c.interval), "verdict": c.verdict}
                            for c in cs] for b, cs in cells.items()}
    print(text)
    print(f"(reproduce: {said})")
    if args.out:
        from .provenance import provenance, seed_rule

        out["provenance"] = provenance(
            packs=[(args.edition, args.variant)], bots=played,
            seeds=seed_rule(args.seed, args.games),
            round_cap=args.round_cap or sim.round_cap(rules),
            argv=getattr(args, "argv", None), rules=rules, players=players)
        write_atomic(args.out, json.dumps(out, indent=1))
        print(f"written to {args.out}")
    return 0
