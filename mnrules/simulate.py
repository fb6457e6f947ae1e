"""Simulating many bot games for variant designers: win rates with intervals, victory
paths, game lengths, title holding; the same seeds under two packs (common random
numbers) to measure what a rule change does; local processes or a Dask cluster.

Results depend only on the pack, the seeds and the bots — never on ``jobs`` or the
backend: every game is a pure function of (pack, variant, players, seed, bots).
"""

from __future__ import annotations

import csv
import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .bots import make_bot
from .effects import Event
from .errors import MnrulesError
from .ruleset import Ruleset, load_ruleset
from .start import new_game

ROUND_CAP = 60


@dataclass(frozen=True)
class Job:
    pack: str
    variant: str | None
    players: int
    seed: int
    bots: tuple[str, ...]
    round_cap: int = ROUND_CAP


@dataclass
class GameResult:
    seed: int
    players: list[str]
    winners: list[str]
    victory: str
    rounds: int
    decisions: int
    titles_held: dict[str, dict[str, int]] = field(default_factory=dict)


_RULES: dict[tuple[str, str | None], Ruleset] = {}


def _rules(pack: str, variant: str | None) -> Ruleset:
    key = (pack, variant)
    if key not in _RULES:
        _RULES[key] = load_ruleset(pack, variant=variant)
    return _RULES[key]


def play_one(job: Job) -> GameResult:
    """One seeded bot game (runs in whichever process or worker gets it)."""
    rules = _rules(job.pack, job.variant)
    game = new_game(rules, job.players, seed=job.seed, round_cap=job.round_cap)
    players = game.state.players
    bots = {p: make_bot(job.bots[i % len(job.bots)], job.seed * 1009 + i, rules)
            for i, p in enumerate(players)}
    held: dict[str, dict[str, int]] = {p: {} for p in players}

    def on_event(e: Event) -> None:
        if e.kind == "phase_start" and e.data.get("phase") == game.rules.phases[0]:
            for who, figures in game.report().items():
                for title in figures.get("titles", ()):
                    held[who][title] = held[who].get(title, 0) + 1
    game.listeners.append(on_event)
    decisions = 0
    while (dec := game.pending) is not None:
        game.apply(bots[dec.player].choose(game))
        decisions += 1
    st = game.state
    return GameResult(job.seed, list(players), list(st.winners), st.victory or "round cap",
                      st.round - 1, decisions, held)


def jobs_for(pack: str, variant: str | None, players: int, games: int, seed: int,
             bots: Sequence[str]) -> list[Job]:
    return [Job(pack, variant, players, seed * 1_000_003 + i, tuple(bots))
            for i in range(games)]


def run_local(jobs: list[Job], workers: int, progress: Callable[[int], None] | None = None
              ) -> list[GameResult]:
    """Play the jobs in ``workers`` processes; results come back in job order."""
    if workers <= 1:
        out = []
        for job in jobs:
            out.append(play_one(job))
            if progress:
                progress(1)
        return out
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    if ctx.get_start_method() == "fork":
        for pack, variant in {(j.pack, j.variant) for j in jobs}:
            _rules(pack, variant)  # loaded once here, inherited by every worker
    with ctx.Pool(workers) as pool:
        out = []
        # one game at a time: games vary from 4 to 30+ rounds, so big chunks leave a
        # worker idle at the end; a game is far longer than a hand-off
        for r in pool.imap(play_one, jobs, chunksize=1):
            out.append(r)
            if progress:
                progress(1)
        return out


def run_dask(jobs: list[Job], workers: int, address: str | None,
             progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """The same games on a Dask cluster (a local one unless ``address`` names one)."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise MnrulesError("--backend dask needs Dask: pip install 'mnrules[cluster]'") \
            from None
    cluster = None
    if address is None:
        cluster = LocalCluster(n_workers=max(1, workers),  # type: ignore[no-untyped-call]
                               threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)  # type: ignore[no-untyped-call]
    else:
        client = Client(address)  # type: ignore[no-untyped-call]
    try:
        futures = client.map(play_one, jobs, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        out: list[GameResult | None] = [None] * len(jobs)
        for fut in as_completed(futures):  # type: ignore[no-untyped-call]
            out[index[fut.key]] = fut.result()
            if progress:
                progress(1)
        return [r for r in out if r is not None]
    finally:
        client.close()  # type: ignore[no-untyped-call]
        if cluster is not None:
            cluster.close()


def run(jobs: list[Job], workers: int = 1, backend: str = "local",
        address: str | None = None, show_progress: bool = False) -> list[GameResult]:
    bar: Any = None
    progress = None
    if show_progress:
        try:
            from tqdm import tqdm
            bar = tqdm(total=len(jobs), unit="game", smoothing=0.1)
            progress = bar.update
        except ImportError:
            bar = None
    try:
        if backend == "dask":
            return run_dask(jobs, workers, address, progress)
        if backend != "local":
            raise MnrulesError(f"--backend: expected local or dask, got {backend!r}")
        return run_local(jobs, workers, progress)
    finally:
        if bar is not None:
            bar.close()


# -- statistics -----------------------------------------------------------------------------
def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


@dataclass
class Report:
    games: int
    empires: list[str]
    wins: dict[str, int]
    win_rate: dict[str, float]
    interval: dict[str, tuple[float, float]]
    paths: dict[str, int]
    rounds_mean: float
    rounds_median: float
    round_hist: dict[int, int]
    title_share: dict[str, dict[str, float]]
    unfinished: int


def report(results: list[GameResult]) -> Report:
    empires = results[0].players if results else []
    wins: Counter[str] = Counter()
    for r in results:
        wins.update(r.winners)
    n = len(results)
    rounds = sorted(r.rounds for r in results)
    total_rounds = sum(rounds) or 1
    share: dict[str, dict[str, float]] = {}
    for e in empires:
        share[e] = {t: sum(r.titles_held.get(e, {}).get(t, 0) for r in results) / total_rounds
                    for t in ("trade", "culture", "military")}
    return Report(
        games=n, empires=empires, wins={e: wins[e] for e in empires},
        win_rate={e: wins[e] / n if n else 0.0 for e in empires},
        interval={e: wilson(wins[e], n) for e in empires},
        paths=dict(Counter(r.victory for r in results)),
        rounds_mean=sum(rounds) / n if n else 0.0,
        rounds_median=float(rounds[n // 2]) if n else 0.0,
        round_hist=dict(sorted(Counter(rounds).items())),
        title_share=share, unfinished=sum(1 for r in results if not r.winners))


def compare(a: list[GameResult], b: list[GameResult]) -> list[dict[str, Any]]:
    """Per-empire win-rate difference on the same seeds, with a paired z test."""
    out = []
    for e in a[0].players if a else []:
        d = [(e in x.winners) - (e in y.winners) for x, y in zip(a, b, strict=True)]
        n = len(d)
        mean = sum(d) / n
        var = sum((v - mean) ** 2 for v in d) / (n - 1) if n > 1 else 0.0
        se = math.sqrt(var / n) if var > 0 else 0.0
        z = mean / se if se else 0.0
        p = math.erfc(abs(z) / math.sqrt(2)) if se else 1.0
        out.append({"empire": e, "a": sum(e in x.winners for x in a) / n,
                    "b": sum(e in y.winners for y in b) / n, "difference": mean,
                    "ci95": (mean - 1.96 * se, mean + 1.96 * se), "z": z, "p": p,
                    "games_that_differ": sum(1 for v in d if v)})
    return out


def format_report(rep: Report, title: str) -> str:
    lines = [title, f"{rep.games} games; {rep.unfinished} reached the round cap; rounds: mean "
             f"{rep.rounds_mean:.1f}, median {rep.rounds_median:.0f}",
             "empire      wins   win rate   95% interval     trade  culture  military "
             "(share of rounds holding the title)"]
    for e in rep.empires:
        lo, hi = rep.interval[e]
        ts = rep.title_share[e]
        lines.append(f"{e:<10} {rep.wins[e]:>5}   {rep.win_rate[e]:7.1%}   [{lo:5.1%}, "
                     f"{hi:5.1%}]   {ts['trade']:5.0%}  {ts['culture']:7.0%}  "
                     f"{ts['military']:8.0%}")
    lines.append("victory paths: " + ", ".join(f"{k} {v}" for k, v in
                                              sorted(rep.paths.items(), key=lambda kv: -kv[1])))
    return "\n".join(lines)


def write_out(path: str, results: list[GameResult], rep: Report) -> None:
    p = Path(path)
    if p.suffix == ".csv":
        with p.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["seed", "winners", "victory", "rounds", "decisions"])
            for r in results:
                w.writerow([r.seed, " ".join(r.winners), r.victory, r.rounds, r.decisions])
        return
    data = {"report": asdict(rep), "games": [asdict(r) for r in results]}
    p.write_text(json.dumps(data, indent=1), encoding="utf-8")


def plot(path: str, rep: Report, title: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MnrulesError("--plot needs matplotlib: pip install 'mnrules[sim]'") from None
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    es = rep.empires
    rates = [rep.win_rate[e] for e in es]
    lo = [rep.win_rate[e] - rep.interval[e][0] for e in es]
    hi = [rep.interval[e][1] - rep.win_rate[e] for e in es]
    ax1.bar(es, rates, yerr=[lo, hi], capsize=5, color="#7a8fb3")
    ax1.axhline(1 / max(1, len(es)), color="grey", linestyle="--", linewidth=1)
    ax1.set_ylabel("win rate (95% Wilson interval)")
    ax1.set_title("Wins per empire")
    ax2.bar(list(rep.round_hist), list(rep.round_hist.values()), color="#b3927a")
    ax2.set_xlabel("rounds")
    ax2.set_ylabel("games")
    ax2.set_title(f"Game length (median {rep.rounds_median:.0f})")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def iter_chunks(items: Iterable[Job], size: int) -> Iterator[list[Job]]:
    chunk: list[Job] = []
    for it in items:
        chunk.append(it)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
