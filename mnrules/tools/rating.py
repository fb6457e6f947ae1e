"""Bot strength as a rating table: a round robin of bots (or strategy profiles) over
seeded games, and a Bradley–Terry model fitted to who beat whom.

A game of several players is read as pairwise results: every winner beats every
player who did not win, winners of a shared win draw with each other, and players
who both lost say nothing about each other (nor does a game stopped at the round
cap). Each lineup is played in every seat rotation so that no bot keeps a strong
empire. The model gives each bot a strength ``p`` with ``P(i beats j) = p_i / (p_i +
p_j)``; it is fitted by Hunter's MM iterations with a weak prior (one win and one
loss against a reference of strength 1, so that a bot that never wins keeps a finite
rating) and shown on the Elo scale, ``400 log10 p``, centred on 1500. The 95%
intervals are percentiles of a bootstrap over whole games (resampled with a
generator seeded by the table's seed, so the table is reproducible).

Nothing here knows a game: the bots are names the bot registry understands.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import MnrulesError
from . import simulate as sim

ELO = 400.0 / math.log(10.0)
CENTRE = 1500.0
PRIOR = 1.0
"""Virtual wins and losses of every bot against the reference of strength 1."""
BOOTSTRAP = 200


def lineups(entrants: int, players: int) -> list[tuple[int, ...]]:
    """The round robin's seatings: every set of ``players`` distinct entrants (or, with
    fewer entrants than seats, all of them in turn), each in every seat rotation."""
    if entrants < 2:
        raise MnrulesError("rate: give at least two bots to compare")
    if entrants >= players:
        groups = list(itertools.combinations(range(entrants), players))
    else:
        groups = [tuple(i % entrants for i in range(players))]
    out: list[tuple[int, ...]] = []
    for g in groups:
        for r in range(players):
            seating = g[r:] + g[:r]
            if seating not in out:
                out.append(seating)
    return out


def schedule(pack: str, variant: str | None, players: int, entrants: Sequence[str],
             rounds: int, seed: int, round_cap: int | None = None) -> list[sim.Job]:
    """The round robin's games: ``rounds`` times every lineup, one seed per game (a
    ``round_cap`` of None: the pack's, :func:`mnrules.tools.simulate.round_cap`)."""
    jobs: list[sim.Job] = []
    seats = lineups(len(entrants), players)
    for _ in range(rounds):
        for seating in seats:
            jobs.append(sim.Job(pack, variant, players, seed * 1_000_003 + len(jobs),
                                tuple(entrants[i] for i in seating), round_cap))
    return jobs


Pairs = dict[tuple[int, int], float]
"""(i, j) -> wins of i over j (a draw counts half to each)."""


def pairwise(results: Sequence[sim.GameResult], jobs: Sequence[sim.Job],
             entrants: Sequence[str]) -> list[Pairs]:
    """Per game, the pairwise results between the entrants seated in it."""
    index = {name: i for i, name in enumerate(entrants)}
    out: list[Pairs] = []
    for r, job in zip(results, jobs, strict=True):
        won: Pairs = {}
        seat = {p: index[job.bots[k % len(job.bots)]] for k, p in enumerate(r.players)}
        winners = set(r.winners)
        for a, b in itertools.combinations(r.players, 2):
            i, j = seat[a], seat[b]
            if i == j or (a not in winners and b not in winners):
                continue
            if a in winners and b in winners:
                won[(i, j)] = won.get((i, j), 0.0) + 0.5
                won[(j, i)] = won.get((j, i), 0.0) + 0.5
            elif a in winners:
                won[(i, j)] = won.get((i, j), 0.0) + 1.0
            else:
                won[(j, i)] = won.get((j, i), 0.0) + 1.0
        out.append(won)
    return out


def fit(games: Sequence[Pairs], n: int, iterations: int = 500, tol: float = 1e-10
        ) -> list[float]:
    """Bradley–Terry strengths (geometric mean 1) by Hunter's MM algorithm, with the
    prior of :data:`PRIOR` wins and losses against a reference of strength 1."""
    wins = [[0.0] * n for _ in range(n)]
    for g in games:
        for (i, j), w in g.items():
            wins[i][j] += w
    total = [sum(row) + PRIOR for row in wins]
    meet = [[wins[i][j] + wins[j][i] for j in range(n)] for i in range(n)]
    p = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            den = 2 * PRIOR / (p[i] + 1.0)
            den += sum(meet[i][j] / (p[i] + p[j]) for j in range(n) if j != i and meet[i][j])
            new.append(total[i] / den)
        mean = math.exp(sum(math.log(x) for x in new) / n)
        new = [x / mean for x in new]
        done = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, p, strict=True)) < tol
        p = new
        if done:
            break
    return p


def elo(strength: float) -> float:
    return CENTRE + ELO * math.log(strength)


@dataclass
class Row:
    bot: str
    rating: float
    interval: tuple[float, float]
    games: int
    wins: float
    """Games won, a shared win counted as a share."""
    fair: float
    """Games it would have won at an equal strength (the sum of 1/players)."""


@dataclass
class Table:
    players: int
    games: int
    rows: list[Row]
    """Strongest first."""
    unfinished: int = 0
    expected: list[list[float]] = field(default_factory=list)
    """P(row beats column) by the fitted model, in the order of ``rows``."""


def rate(results: Sequence[sim.GameResult], jobs: Sequence[sim.Job],
         entrants: Sequence[str], seed: int = 1, bootstrap: int = BOOTSTRAP) -> Table:
    """The rating table of a played round robin."""
    n = len(entrants)
    games = pairwise(results, jobs, entrants)
    strength = fit(games, n)
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(n)]
    for _ in range(bootstrap):
        pick = [games[rng.randrange(len(games))] for _ in games]
        for i, s in enumerate(fit(pick, n)):
            samples[i].append(elo(s))
    index = {name: i for i, name in enumerate(entrants)}
    played = [0] * n
    wins = [0.0] * n
    fair = [0.0] * n
    for r, job in zip(results, jobs, strict=True):
        present = {index[b] for b in job.bots}
        for i in present:
            played[i] += 1
        share = 1.0 / len(r.winners) if r.winners else 0.0
        for k, p in enumerate(r.players):
            i = index[job.bots[k % len(job.bots)]]
            fair[i] += 1.0 / len(r.players)
            if p in r.winners:
                wins[i] += share
    rows = []
    for i, name in enumerate(entrants):
        xs = sorted(samples[i])
        lo = sim.quantile(xs, 0.025) if xs else elo(strength[i])
        hi = sim.quantile(xs, 0.975) if xs else elo(strength[i])
        rows.append(Row(name, elo(strength[i]), (lo, hi), played[i], wins[i], fair[i]))
    order = sorted(range(n), key=lambda i: (-strength[i], i))
    expected = [[strength[i] / (strength[i] + strength[j]) for j in order] for i in order]
    return Table(len(results[0].players) if results else 0, len(results),
                 [rows[i] for i in order], sum(1 for r in results if not r.winners),
                 expected)


def format_table(table: Table, title: str) -> str:
    lines = [title,
             f"{table.games} games at {table.players} players (every lineup in every seat "
             f"rotation); {table.unfinished} reached the round cap",
             "Bradley-Terry ratings on the Elo scale (mean 1500; 400 points: 10 to 1 odds "
             "in a duel), 95% bootstrap intervals over games:",
             "rank  bot                        rating   95% interval    games    wins  "
             "fair share"]
    for k, row in enumerate(table.rows, 1):
        lo, hi = row.interval
        lines.append(f"{k:>4}  {row.bot:<24} {row.rating:7.0f}   [{lo:5.0f}, {hi:5.0f}]  "
                     f"{row.games:>6}  {row.wins:6.1f}  {row.fair:10.1f}")
    names = [row.bot for row in table.rows]
    width = max(8, *(len(x) for x in names))
    lines.append("P(row beats column) by the model:")
    lines.append(" " * (width + 2) + "".join(f"{x[:width]:>{width + 1}}" for x in names))
    for name, probs in zip(names, table.expected, strict=True):
        lines.append(f"  {name:<{width}}" + "".join(f"{q:>{width + 1}.2f}" for q in probs))
    return "\n".join(lines)


def command(args: Any) -> int:
    """``mnrules rate``: play the round robin and print (and write) the table."""
    import json
    from dataclasses import asdict

    from ..bots import make_bot
    from ..content.ruleset import load_ruleset
    from ..files import check_writable, write_atomic

    entrants = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(set(entrants)) != len(entrants):
        raise MnrulesError(f"--bots: a bot is named twice in {args.bots!r}")
    if args.out:
        if not args.out.endswith(".json"):
            raise MnrulesError(f"--out {args.out}: give a file ending in .json")
        check_writable(args.out, "--out")
    rules = load_ruleset(args.edition, variant=args.variant)
    for b in entrants:
        make_bot(b, 0, rules)  # a misspelt bot is refused before any game
    players = args.players or max(rules.seating, default=2)
    jobs = schedule(args.edition, args.variant, players, entrants, args.rounds, args.seed,
                    args.round_cap)
    results = sim.run(jobs, sim.worker_count(args.jobs, len(jobs)), show_progress=not args.quiet)
    table = rate(results, jobs, entrants, seed=args.seed)
    print(format_table(table, f"{args.edition}{' + ' + args.variant if args.variant else ''}"
                              f", seed {args.seed}"))
    if args.out:
        from .provenance import provenance

        record = provenance(packs=[(args.edition, args.variant)], bots=entrants,
                            seeds=[j.seed for j in jobs],
                            round_cap=args.round_cap or sim.round_cap(rules),
                            argv=getattr(args, "argv", None), rules=rules, players=players,
                            rounds=args.rounds)
        data = {"provenance": record, "table": asdict(table), "entrants": entrants,
                "games": [{"seed": j.seed, "bots": list(j.bots), "winners": r.winners,
                           "victory": r.victory, "rounds": r.rounds}
                          for j, r in zip(jobs, results, strict=True)]}
        write_atomic(args.out, json.dumps(data, indent=1))
        print(f"table written to {args.out}")
    return 0
