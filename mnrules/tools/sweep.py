"""Parameter sweeps and a balance search for variant designers.

A sweep plays the same seeds (common random numbers) at every point of a grid of
parameter values and reports, per point, each player's win rate, the spread of the
win rates (the best less the worst: 0 is a perfectly even table), the game length and
the victory paths, each with its interval, and the paired difference of every point
from the pack's own values (McNemar, Holm over the players).

The balance search races the points (successive elimination): it plays a first batch
of games at every point still in the race, drops each point whose spread is worse
than the best point's with 95% confidence (a paired bootstrap over the seeds of the
difference of the two spreads), doubles the games and goes on until one point is
left or the game budget is spent (no point is dropped before :data:`MIN_GAMES` games).
What it reports is the point with the smallest
spread, with its interval and the points it could not tell apart from it.

A parameter is named as the pack names it (``hit_divisor``) or, inside a mapping
parameter, by a dotted path (``costs.legion``); values are a range ``3..7`` (whole
numbers, ``3..9:2`` with a step) or a comma-separated list read as YAML scalars
(``1,2,4`` or ``timed,able``). The axis named ``variant`` takes variant files instead
(``variant=none,east_a.yaml,east_b.yaml``; ``none`` is the pack itself), so a sweep
also compares board patches and setups, which are not parameters. The axis named
``bots`` takes bot names, one for every seat at each point
(``bots=heuristic,heuristic:balanced+first_tile=2``), so a sweep also shows how the
table follows the bots' settings. Nothing here knows a game.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import yaml

from ..bots import default_bots
from ..content.ruleset import Ruleset, load_ruleset
from ..errors import MnrulesError, PackError
from ..language.present import presenter
from . import simulate as sim

BOOTSTRAP = 400
VARIANT = "variant"
"""The axis whose values are variant files (``none``: the pack alone)."""
BOTS = "bots"
"""The axis whose values are bot names, one for every seat (instead of ``--bots``)."""
MIN_GAMES = 30
"""Games a point plays before the search may drop it: a bootstrap over fewer seeds
understates the spread's variance."""


@dataclass(frozen=True)
class Axis:
    name: str
    """The parameter, or a dotted path into a mapping parameter."""
    values: tuple[Any, ...]


def parse_axis(text: str) -> Axis:
    """``NAME=A..B[:STEP]`` or ``NAME=V1,V2,...`` (see the module's docstring)."""
    name, eq, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not eq or not name or not spec:
        raise MnrulesError(f"--param {text!r}: expected NAME=VALUES, e.g. hit_divisor=4..6 "
                           f"or build_victory=timed,able")
    if name == VARIANT:
        files = tuple(None if v.strip() in ("none", "-") else v.strip()
                      for v in spec.split(","))
        if len(set(files)) != len(files) or "" in files:
            raise MnrulesError(f"--param {text!r}: give distinct variant files (or none)")
        return Axis(name, files)
    if name == BOTS:
        names = tuple(v.strip() for v in spec.split(","))
        if len(set(names)) != len(names) or "" in names:
            raise MnrulesError(f"--param {text!r}: give distinct bot names, e.g. "
                               f"bots=heuristic,heuristic:builder")
        return Axis(name, names)
    if ".." in spec:
        lo_text, _, rest = spec.partition("..")
        hi_text, _, step_text = rest.partition(":")
        try:
            lo, hi, step = int(lo_text), int(hi_text), int(step_text or 1)
        except ValueError:
            raise MnrulesError(f"--param {text!r}: a range is two whole numbers, e.g. "
                               f"{name}=3..7 (or 3..9:2 with a step)") from None
        if step < 1 or hi < lo:
            raise MnrulesError(f"--param {text!r}: the range must go up, by a step of at "
                               f"least 1")
        values: tuple[Any, ...] = tuple(range(lo, hi + 1, step))
    else:
        values = tuple(_scalar(v.strip(), text) for v in spec.split(","))
    if len(values) > 50:
        raise MnrulesError(f"--param {text!r}: {len(values)} values; at most 50 per "
                           f"parameter")
    if len(set(map(repr, values))) != len(values):
        raise MnrulesError(f"--param {text!r}: a value is given twice")
    return Axis(name, values)


def _scalar(text: str, whole: str) -> Any:
    try:
        value = yaml.safe_load(text) if text else None
    except yaml.YAMLError:
        value = None
    if value is None or isinstance(value, (dict, list)):
        raise MnrulesError(f"--param {whole!r}: {text!r} is not a single value")
    return value


def point_params(rules: Ruleset, axes: Sequence[Axis], values: Sequence[Any]
                 ) -> tuple[tuple[str, str], ...]:
    """The parameter overrides of one grid point (a dotted name sets one key of the
    pack's own mapping), as a job carries them (each value as JSON text)."""
    out: dict[str, Any] = {}
    for axis, value in zip(axes, values, strict=True):
        if axis.name in (VARIANT, BOTS):
            continue
        top, _, key = axis.name.partition(".")
        if top not in rules.params:
            from ..content.yamlsource import did_you_mean
            raise MnrulesError(f"--param {axis.name}: no such parameter"
                               f"{did_you_mean(top, list(rules.params))}")
        if key:
            current = out.get(top, rules.params[top])
            if not isinstance(current, dict) or key not in current:
                known = sorted(current) if isinstance(current, dict) else []
                raise MnrulesError(f"--param {axis.name}: {top} has no key {key!r}"
                                   + (f" (its keys: {', '.join(map(str, known))})"
                                      if known else ""))
            out[top] = {**current, key: value}
        else:
            out[top] = value
    return tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in out.items()))


def check_point(pack: str, variant: str | None, params: tuple[tuple[str, str], ...],
                label: str) -> None:
    """Refuse a point the pack does not accept, naming the option (before any game)."""
    try:
        load_ruleset(pack, {"params": {k: json.loads(v) for k, v in params}},
                     variant=variant)
    except PackError as exc:
        reason = str(exc) if variant is not None else str(exc).split(": ", 2)[-1]
        raise MnrulesError(f"--param {label}: {reason}") from None


@dataclass
class Point:
    values: dict[str, Any]
    params: tuple[tuple[str, str], ...]
    results: list[sim.GameResult] = field(default_factory=list)
    variant: str | None = None
    bots: tuple[str, ...] | None = None
    """Every seat's bot at this point (None: the sweep's ``--bots``)."""


def spread(results: Sequence[sim.GameResult], players: Sequence[str],
           index: Sequence[int] | None = None) -> float:
    """The best win rate less the worst over ``players`` (a shared win counts for each
    winner), over the games ``index`` picks (all by default)."""
    picked = [results[i] for i in index] if index is not None else list(results)
    if not picked:
        return 0.0
    rates = [sum(p in r.winners for r in picked) / len(picked) for p in players]
    return max(rates) - min(rates)


def bootstrap_spreads(points: Sequence[Point], players: Sequence[str], seed: int,
                      samples: int = BOOTSTRAP) -> list[list[float]]:
    """Per point, the spread under ``samples`` resamplings of the seeds, the same
    resampling for every point (the points share their seeds)."""
    n = min(len(p.results) for p in points)
    rng = random.Random(seed)
    out: list[list[float]] = [[] for _ in points]
    for _ in range(samples):
        index = [rng.randrange(n) for _ in range(n)]
        for k, p in enumerate(points):
            out[k].append(spread(p.results, players, index))
    return out


def interval(estimate: float, xs: Sequence[float], low: float = -math.inf,
             high: float = math.inf) -> tuple[float, float]:
    """The 95% basic (reverse-percentile) bootstrap interval of ``estimate`` from its
    resampled values ``xs``, kept within [low, high]. Not the plain percentiles: the
    best less the worst rate is biased upward under resampling, and the basic interval
    turns that bias back (the percentile one would sit above the estimate)."""
    s = sorted(xs)
    lo = 2 * estimate - sim.quantile(s, 0.975)
    hi = 2 * estimate - sim.quantile(s, 0.025)
    return (min(max(lo, low), high), min(max(hi, low), high))


def summary(point: Point, base: Point, boot: list[float]) -> dict[str, Any]:
    """What one point's games say, and how they differ from the base point's."""
    rep = sim.report(point.results)
    rows = sim.compare(point.results, base.results) if point is not base else []
    lengths = [float(r.rounds) for r in point.results]
    mean, ci = sim.paired_mean(lengths)
    value = spread(point.results, rep.players)
    return {"values": point.values,
            "games": rep.games,
            "win_rate": rep.win_rate, "interval": rep.interval,
            "spread": value, "spread_ci95": interval(value, boot, 0.0, 1.0),
            "rounds_mean": mean, "rounds_ci95": ci, "completion": rep.completion,
            "paths": rep.paths,
            "versus_base": [{k: row[k] for k in ("player", "difference", "ci95", "p_holm")}
                            for row in rows]}


def run_points(points: Sequence[Point], pack: str, variant: str | None, players: int,
               bots: Sequence[str], seeds: Sequence[int], round_cap: int | None,
               workers: int,
               backend: str, address: str | None, quiet: bool) -> None:
    """Play ``seeds`` at every point (added to what each point already played)."""
    jobs = [sim.Job(pack, p.variant if p.variant is not None else variant, players, s,
                    p.bots or tuple(bots), round_cap, p.params)
            for p in points for s in seeds]
    results = sim.run(jobs, workers, backend, address, show_progress=not quiet)
    for k, p in enumerate(points):
        p.results.extend(results[k * len(seeds):(k + 1) * len(seeds)])


def race(points: list[Point], seed: int, play: Any, first: int, budget: int
         ) -> tuple[list[Point], list[dict[str, Any]]]:
    """The balance search: successive elimination of the points whose spread is worse
    than the best's at 95% (paired bootstrap), doubling the games each stage, until
    one is left or the next stage would pass ``budget`` games a point. Returns the
    points still in the race and the stages' log."""
    alive = list(points)
    stages: list[dict[str, Any]] = []
    played = 0
    games = first
    while True:
        play(alive, range(played, played + games))
        played += games
        players = alive[0].results[0].players
        boot = bootstrap_spreads(alive, players, seed + played)
        best = min(range(len(alive)), key=lambda k: (spread(alive[k].results, players), k))
        keep = []
        dropped = []
        top = spread(alive[best].results, players)
        for k, p in enumerate(alive):
            diff = [a - b for a, b in zip(boot[k], boot[best], strict=True)]
            if k != best and played >= MIN_GAMES and \
                    interval(spread(p.results, players) - top, diff)[0] > 0:
                dropped.append(p.values)
            else:
                keep.append(p)
        stages.append({"games": played, "points": len(alive), "best": alive[best].values,
                       "best_spread": spread(alive[best].results, players),
                       "dropped": dropped})
        alive = keep
        if len(alive) == 1 or played + 2 * games > budget:
            return alive, stages
        games *= 2


def found(alive: list[Point], seed: int) -> dict[str, Any]:
    """The search's answer: the surviving point with the smallest spread, its spread's
    interval, and the survivors it could not be told apart from."""
    players = alive[0].results[0].players
    boot = bootstrap_spreads(alive, players, seed)
    best = min(range(len(alive)), key=lambda k: (spread(alive[k].results, players), k))
    rep = sim.report(alive[best].results)
    value = spread(alive[best].results, players)
    return {"values": alive[best].values, "games": len(alive[best].results),
            "spread": value, "spread_ci95": interval(value, boot[best], 0.0, 1.0),
            "win_rate": rep.win_rate,
            "interval": rep.interval,
            "tied_with": [p.values for k, p in enumerate(alive) if k != best]}


def sim_seeds(first: int, points: Sequence[Point]) -> dict[str, Any]:
    """The seeds a sweep played: the same at every point, game i ``first*1000003+i``,
    as many as the point that played most."""
    from .provenance import seed_rule

    return seed_rule(first, max((len(p.results) for p in points), default=0))


def command(args: Any) -> int:
    """``mnrules sweep``: the sweep (or, with ``--search``, the balance search)."""
    from ..bots import make_bot
    from ..files import check_distinct, check_writable, write_atomic

    axes = [parse_axis(t) for t in args.param]
    if len({a.name for a in axes}) != len(axes):
        raise MnrulesError("--param: a parameter is swept twice")
    if args.variant and any(a.name == VARIANT for a in axes):
        raise MnrulesError("--param variant=...: give the variants there, not --variant too")
    check_distinct(("--out", args.out), ("--plot", args.plot))
    if args.out:
        if not args.out.endswith(".json"):
            raise MnrulesError(f"--out {args.out}: give a file ending in .json")
        check_writable(args.out, "--out")
    if args.plot:
        sim.check_plot_format(args.plot)
        check_writable(args.plot, "--plot")
    rules = load_ruleset(args.edition, variant=args.variant)
    args.bots = default_bots(args.bots, rules)
    bots = args.bots.split(",")
    for b in bots:
        make_bot(b, 0, rules)  # a misspelt bot is refused before any game
    for b in (str(v) for a in axes if a.name == BOTS for v in a.values):
        try:
            make_bot(b, 0, rules)
        except MnrulesError as exc:
            raise MnrulesError(f"--param bots: {str(exc).removeprefix('--bots: ')}"
                               ) from None
    players = args.players or max(rules.seating, default=1)
    grid = list(itertools.product(*(a.values for a in axes)))
    if len(grid) > 200:
        raise MnrulesError(f"--param: {len(grid)} points; at most 200")
    points = []
    for values in grid:
        params = point_params(rules, axes, values)
        label = ", ".join(f"{a.name}={v}" for a, v in zip(axes, values, strict=True))
        chosen = dict(zip((a.name for a in axes), values, strict=True))
        variant = chosen.get(VARIANT)
        check_point(args.edition, variant or args.variant, params, label)
        points.append(Point(chosen, params, variant=variant,
                            bots=(chosen[BOTS],) if BOTS in chosen else None))
    own = point_params(rules, axes, [current(rules, a.name) for a in axes])
    base = next((p for p in points if p.params == own and p.variant is None
                 and p.bots in (None, tuple(bots))), points[0])
    workers = sim.worker_count(args.jobs, args.games * len(points))

    def play(which: Sequence[Point], indices: Sequence[int]) -> None:
        seeds = [args.seed * 1_000_003 + i for i in indices]
        run_points(which, args.edition, args.variant, players, bots, seeds, args.round_cap,
                   workers, args.backend, args.scheduler, args.quiet)

    stages: list[dict[str, Any]] = []
    alive: list[Point] = []
    if args.search:
        alive, stages = race(points, args.seed, play, args.games,
                             max(args.games, args.max_games))
    else:
        play(points, range(args.games))
    # the pack's seating, not the first game's order (Antike II draws its start player)
    names = rules.seating.get(players) or points[0].results[0].players
    common = min(len(p.results) for p in points)
    trimmed = [Point(p.values, p.params, p.results[:common], p.variant, p.bots)
               for p in points]
    tbase = trimmed[points.index(base)]
    boot = bootstrap_spreads(trimmed, names, args.seed)
    rows = [summary(p, tbase, b) for p, b in zip(trimmed, boot, strict=True)]
    by = "by point" if any(a.name == BOTS for a in axes) else args.bots
    title = (f"{args.edition}{' + ' + args.variant if args.variant else ''}, {players} "
             f"players, bots {by}, seed {args.seed}, {common} games per point "
             f"(the same seeds at every point"
             + ("; the search's first stage, which every point played)" if args.search
                else ")"))
    print(format_sweep(rows, names, base.values, title, sim.Names(presenter(rules))))
    answer = None
    if args.search:
        answer = found(alive, args.seed)
        print(format_search(answer, stages))
    if args.out:
        from .provenance import provenance

        variants = list(dict.fromkeys([args.variant] + [p.variant for p in points
                                                        if p.variant is not None]))
        point_bots = [b for p in points for b in (p.bots or ())]
        record = provenance(packs=[(args.edition, v) for v in variants],
                            bots=list(dict.fromkeys(bots + point_bots)),
                            seeds=sim_seeds(args.seed, points),
                            round_cap=args.round_cap or sim.round_cap(rules),
                            argv=getattr(args, "argv", None), rules=rules, players=players,
                            games=args.games, max_games=args.max_games,
                            search=args.search)
        data = {"provenance": record, "title": title, "axes": [asdict(a) for a in axes],
                "base": base.values,
                "points": rows, "search": {"result": answer, "stages": stages}
                if args.search else None}
        write_atomic(args.out, json.dumps(data, indent=1, default=str))
        print(f"results written to {args.out}")
    if args.plot:
        plot(args.plot, rows, names, axes, title, sim.Names(presenter(rules)))
        print(f"figure written to {args.plot}")
    return 0


def current(rules: Ruleset, name: str) -> Any:
    """The pack's own value of a parameter (or of one key of a mapping parameter)."""
    if name in (VARIANT, BOTS):
        return None
    top, _, key = name.partition(".")
    value = rules.params.get(top)
    return value.get(key) if key and isinstance(value, dict) else value


def _label(values: dict[str, Any]) -> str:
    from pathlib import Path

    def shown(k: str, v: Any) -> Any:
        if k != VARIANT:
            return v
        return Path(v).name if v else "none"

    return ", ".join(f"{k}={shown(k, v)}" for k, v in values.items())


def format_sweep(rows: list[dict[str, Any]], players: Sequence[str], base: dict[str, Any],
                 title: str, names: sim.Names = sim.IDS) -> str:
    lines = [title,
             f"base point (the pack's own values): {_label(base)}; win rates with 95% "
             f"Wilson intervals; spread = best less worst win rate, 95% bootstrap "
             f"interval; * a player whose win rate differs from the base's (McNemar, "
             f"Holm p < 0.05)",
             f"{'point':<24}" + "".join(f"{names.player(p)[:15]:>16}" for p in players)
             + "   spread [95%]         rounds [95%]     paths"]
    for row in rows:
        cells = []
        star = {r["player"] for r in row["versus_base"] if r["p_holm"] < 0.05}
        for p in players:
            lo, hi = row["interval"][p]
            mark = "*" if p in star else " "
            cells.append(f"{row['win_rate'][p]:5.0%}[{lo:3.0%},{hi:3.0%}]{mark}".rjust(16))
        slo, shi = row["spread_ci95"]
        rlo, rhi = row["rounds_ci95"]
        paths = names.paths(row["paths"])
        lines.append(f"{_label(row['values']):<24}" + "".join(cells)
                     + f"   {row['spread']:4.0%} [{slo:3.0%}, {shi:3.0%}]"
                     + f"   {row['rounds_mean']:4.1f} [{rlo:4.1f}, {rhi:4.1f}]   {paths}")
    return "\n".join(lines)


def format_search(answer: dict[str, Any], stages: list[dict[str, Any]]) -> str:
    lines = ["balance search (successive elimination on the spread of win rates, paired "
             "bootstrap at 95%):"]
    for st in stages:
        dropped = "; ".join(_label(v) for v in st["dropped"]) or "none"
        lines.append(f"  after {st['games']} games a point: {st['points']} point(s) in the "
                     f"race, best {_label(st['best'])} (spread {st['best_spread']:.0%}); "
                     f"dropped: {dropped}")
    lo, hi = answer["spread_ci95"]
    tied = "; ".join(_label(v) for v in answer["tied_with"])
    lines.append(f"most even: {_label(answer['values'])}, spread {answer['spread']:.1%} "
                 f"[{lo:.1%}, {hi:.1%}] over {answer['games']} games"
                 + (f"; not told apart from: {tied}" if tied else "; every other point "
                    "is less even at 95%"))
    return "\n".join(lines)


def plot(path: str, rows: list[dict[str, Any]], players: Sequence[str],
         axes: Sequence[Axis], title: str, say: sim.Names = sim.IDS) -> None:
    """Win rates (with intervals), spread and game length along the sweep."""
    import io
    from pathlib import Path

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..files import write_atomic

    labels = [_label(r["values"]) if len(axes) > 1
              else _label(r["values"]).partition("=")[2] for r in rows]
    tilt = 25 if max(len(x) for x in labels) > 8 else 0
    xs = list(range(len(rows)))
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(16, 4.4))
    for p in players:
        ys = [r["win_rate"][p] for r in rows]
        lo = [r["interval"][p][0] for r in rows]
        hi = [r["interval"][p][1] for r in rows]
        (line,) = ax1.plot(xs, ys, marker="o", label=say.player(p))
        ax1.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.12)
    ax1.axhline(1 / max(1, len(players)), color="grey", linestyle="--", linewidth=1)
    ax1.set_ylabel("win rate (95% Wilson interval)")
    ax1.set_title("Win rate per player")
    ax1.legend(fontsize=7)
    sp = [r["spread"] for r in rows]
    ax2.errorbar(xs, sp, yerr=[[s - r["spread_ci95"][0] for s, r in zip(sp, rows,
                                                                        strict=True)],
                               [r["spread_ci95"][1] - s for s, r in zip(sp, rows,
                                                                        strict=True)]],
                 marker="o", capsize=4, color="#b34a4a")
    ax2.set_ylabel("best less worst win rate (95% bootstrap)")
    ax2.set_title("Spread of the win rates")
    rm = [r["rounds_mean"] for r in rows]
    ax3.errorbar(xs, rm, yerr=[[m - r["rounds_ci95"][0] for m, r in zip(rm, rows,
                                                                        strict=True)],
                               [r["rounds_ci95"][1] - m for m, r in zip(rm, rows,
                                                                        strict=True)]],
                 marker="o", capsize=4, color="#7a8fb3")
    ax3.set_ylabel("rounds (mean, 95% interval)")
    ax3.set_title("Game length")
    name = " x ".join(a.name for a in axes)
    for ax in (ax1, ax2, ax3):
        ax.set_xticks(xs, labels, rotation=tilt, ha="right" if tilt else "center",
                      fontsize=8)
        ax.set_xlabel(name)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    buf = io.BytesIO()
    try:
        fig.savefig(buf, dpi=110, format=Path(path).suffix.lstrip(".").lower() or "png")
    finally:
        plt.close(fig)
    write_atomic(path, buf.getvalue())
