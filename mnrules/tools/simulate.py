"""Simulating many bot games for variant designers: win rates with intervals, victory
paths, game lengths, title holding; the same seeds under two packs (common random
numbers) to measure what a rule change does; local processes or a Dask cluster.

Results depend only on the pack, the seeds and the bots — never on ``jobs`` or the
backend: every game is a pure function of (pack, variant, players, seed, bots).
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import json
import math
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..content.ruleset import Ruleset, load_ruleset
from ..core.effects import Event
from ..core.engine import Listener
from ..core.start import new_game
from ..errors import MnrulesError
from .stopping import default_in_child

ROUND_CAP = 60
"""The rounds after which a bot game stops undecided, unless the game's pack says how
long its games may run (its parameter ``round_cap``) or the caller gives a cap."""


def round_cap(rules: Ruleset) -> int:
    """The pack's ``round_cap`` parameter if its game declares one, else ``ROUND_CAP``."""
    cap = rules.params.get("round_cap")
    return cap if type(cap) is int and cap > 0 else ROUND_CAP


@dataclass(frozen=True)
class Job:
    pack: str
    variant: str | None
    players: int
    seed: int
    bots: tuple[str, ...]
    round_cap: int | None = None
    """None: the pack's own cap (:func:`round_cap`)."""
    params: tuple[tuple[str, str], ...] = ()
    """Parameter values set on top of the pack and variant (a sweep's point): pairs of
    a parameter's name and its value as JSON text."""


@dataclass
class GameResult:
    seed: int
    players: list[str]
    winners: list[str]
    victory: str
    rounds: int
    decisions: int
    titles_held: dict[str, dict[str, int]] = field(default_factory=dict)
    title_rounds: int = 0
    """The rounds whose start was counted in ``titles_held`` (the denominator of a title
    share: a title is held by at most one player at a time)."""
    history: str = ""
    """SHA-256 of the choice history, one line per choice as the game log writes it."""
    state_hash: str = ""
    """SHA-256 of the final state with its generator (:func:`state_hash` of the game's
    snapshot, as a save holds it)."""
    scores: list[list[float]] = field(default_factory=list)
    """The lead series: each player's score (:func:`score`, in the order of ``players``)
    at the start of every counted round, then once more when the game stopped."""
    cards: dict[str, list[str]] = field(default_factory=dict)
    """The cards each player held when the game stopped (the report's lists of card
    names)."""
    picked: dict[str, int] = field(default_factory=dict)
    """Cards taken during the game (not held at its first counted round), with the
    round they were taken in (the round before the one whose start first found them
    held; the last round for a card first seen held at the end)."""
    values: list[list[float]] = field(default_factory=list)
    """The evaluation series: each player's chance to win as the game's own evaluation
    (its search policy's ``values``) puts it, in the order of ``players``, once a round
    (at the round's first decision); empty for a game that gives no evaluation."""
    firsts: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per phase: how many rounds each player made the phase's first decision (who went
    first; in Mare Nostrum the phase's leader names the order, in Antike II the start
    player leads every round)."""


_RULES: dict[tuple[str, str | None, tuple[tuple[str, str], ...]], Ruleset] = {}


def _rules(pack: str, variant: str | None,
           params: tuple[tuple[str, str], ...] = ()) -> Ruleset:
    """The rule set of a job, loaded once per process (a cache of read-only rule sets:
    no game's state lives in it)."""
    key = (pack, variant, params)
    if key not in _RULES:
        overrides = {"params": {k: json.loads(v) for k, v in params}} if params else None
        _RULES[key] = load_ruleset(pack, overrides, variant=variant)
    return _RULES[key]


def held_cards(figures: dict[str, Any], cards: Any) -> list[str]:
    """The card names among a player's report figures (every list of names that are
    all cards of the rule set): what he holds, without knowing the game."""
    out: list[str] = []
    for value in figures.values():
        if isinstance(value, list) and value and \
                all(isinstance(x, str) and x in cards for x in value):
            out.extend(value)
    return out


def rounds_played(state: Any) -> int:
    """The rounds a game has played, the one under way counted: a game won during its
    round 7 played 7; one stopped between rounds (the round cap) the rounds before."""
    return int(state.round) if state.phase else int(state.round) - 1


def state_hash(state: Any) -> str:
    """SHA-256 of a state as canonical JSON (sorted keys). The round cap is left out: it
    is the driver's setting, not the position (``play`` has none, ``simulate`` one)."""
    data = state.to_dict()
    data["vars"] = {k: v for k, v in data.get("vars", {}).items() if k != "round_cap"}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def score(figures: dict[str, Any]) -> float:
    """A player's score for the lead series: the sum of the numeric figures the game's
    report gives him (tracks, counts; lists, names and flags left out). A generic proxy —
    the kernel knows no game's scoring — that a proper score hook may replace."""
    return float(sum(v for v in figures.values()
                     if isinstance(v, (int, float)) and not isinstance(v, bool)))


_LINE = json.JSONEncoder(ensure_ascii=False)
"""``json.dumps(..., ensure_ascii=False)``'s encoder, made once (``dumps`` makes one a call)."""
HASHED_LINES = 256
"""Choices whose log lines are hashed at once in a game's history digest."""


def history_line(player: str, kind: str, choice: Any) -> str:
    """One choice as the game log (:class:`mnrules.tools.log.Recorder`) writes it."""
    return _LINE.encode({"player": player, "kind": kind, "choice": choice})


def play_one(job: Job) -> GameResult:
    """One seeded bot game (runs in whichever process or worker gets it)."""
    rules = _rules(job.pack, job.variant, job.params)
    cap = job.round_cap if job.round_cap is not None else round_cap(rules)
    game = new_game(rules, job.players, seed=job.seed, round_cap=cap)
    players = game.state.players
    bots = {p: make_bot(job.bots[i % len(job.bots)], job.seed * 1009 + i, rules)
            for i, p in enumerate(players)}
    held: dict[str, dict[str, int]] = {p: {} for p in players}
    # its own policy, not a bot's: its caches then never touch a bot's choices
    make_policy = rules.definition.search_policy
    policy = make_policy(rules=rules, seed=job.seed) if make_policy is not None else None
    values: list[list[float]] = []
    evaluated: int | None = None
    firsts: dict[str, dict[str, int]] = {}
    opened: set[tuple[int, str]] = set()
    counted = 0
    history = hashlib.sha256()
    series: list[list[float]] = []
    first_held: dict[str, int] = {}

    def on_event(e: Event) -> None:
        nonlocal counted
        if e.kind == "phase_start" and e.data.get("phase") == game.rules.phases[0]:
            counted += 1
            figures_now = game.report()
            series.append([score(figures_now.get(p, {})) for p in players])
            for p in players:
                for c in held_cards(figures_now.get(p, {}), rules.cards):
                    first_held.setdefault(c, counted)
            for who, figures in figures_now.items():
                for title in figures.get("titles", ()):
                    held[who][title] = held[who].get(title, 0) + 1

    lines: list[str] = []

    def on_choice(dec: Any, choice: Any) -> None:
        # the log's lines, hashed in batches: the digest of the same bytes, a tenth the calls
        lines.append(history_line(dec.player, dec.kind, choice))
        if len(lines) == HASHED_LINES:
            history.update(("\n".join(lines) + "\n").encode())
            lines.clear()
    # the round's start is all it reads, as it happens: no other event is made for it
    game.listeners.append(Listener(on_event, kinds=("phase_start",), keeps=False))
    game.choice_listeners.append(on_choice)
    decisions = 0
    while (dec := game.pending) is not None:
        now = game.state
        if policy is not None and now.round != evaluated:
            evaluated = now.round   # once a round: a decision's worth would cost a search
            v = policy.values(game)
            values.append([round(float(v.get(p, 0.0)), 6) for p in players])
        if now.phase and (now.round, now.phase) not in opened:
            opened.add((now.round, now.phase))
            by = firsts.setdefault(now.phase, {})
            by[dec.player] = by.get(dec.player, 0) + 1
        game.apply(bots[dec.player].choose(game))
        decisions += 1
    if lines:
        history.update(("\n".join(lines) + "\n").encode())
    st = game.state
    final = state_hash(game.snapshot())
    end = game.report()
    series.append([score(end.get(p, {})) for p in players])
    cards = {p: held_cards(end.get(p, {}), rules.cards) for p in players}
    for p in players:
        for c in cards[p]:
            first_held.setdefault(c, counted + 1)
    picked = {c: r - 1 for c, r in sorted(first_held.items()) if r > 1}
    return GameResult(job.seed, list(players), list(st.winners), st.victory or "round cap",
                      rounds_played(st), decisions, held, counted, history.hexdigest(),
                      final, series, cards, picked, values, firsts)


def jobs_for(pack: str, variant: str | None, players: int, games: int, seed: int,
             bots: Sequence[str], cap: int | None = None) -> list[Job]:
    return [Job(pack, variant, players, seed * 1_000_003 + i, tuple(bots), cap)
            for i in range(games)]


RETRIES = 3
"""Times a game is handed out again after its worker process was lost (it died, stopped
answering or ran past the deadline) before giving up."""
HEARTBEAT = 0.5
"""Seconds between a worker's signs of life (and between the parent's checks of them)."""
SILENCE = 10.0
"""Seconds without a sign of life after which a worker is taken for lost (stopped with
SIGSTOP, frozen): it is killed, replaced, and its game handed out again."""
GAME_DEADLINE = 3600.0
"""Seconds a worker may spend on one game (its own signs of life notwithstanding)
before it is taken for lost the same way (``simulate --game-deadline``): far beyond a
bot game of either bundled game, long Antike II games with searching bots included."""


class WorkerError(MnrulesError):
    """A game that could not be played in a worker process."""


def _die_with_parent(parent: int) -> None:
    """A worker must not outlive its parent (killed with SIGKILL, which no clean-up
    follows): on Linux the kernel kills it when the parent goes; elsewhere, and for a
    parent gone before this ran, :func:`_beat` sees the worker reparented."""
    import contextlib
    import signal
    import sys

    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        with contextlib.suppress(OSError, AttributeError):   # no libc to ask: the watch
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL,
                                                    0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _beat(beat: Any, parent: int) -> None:
    """The worker's signs of life: the time, written where the parent reads it, while
    the worker's main thread plays (a stopped process writes nothing)."""
    while True:
        beat.value = time.monotonic()
        if os.getppid() != parent:
            os._exit(1)
        time.sleep(HEARTBEAT)


def _worker(conn: Any, beat: Any = None, parent: int | None = None) -> None:
    """A worker process: play the games it is handed until told to stop (None)."""
    import signal
    import threading
    import traceback

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's business
    default_in_child()
    if hasattr(signal, "pthread_sigmask"):       # blocked while it was forked
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if parent is not None:
        _die_with_parent(parent)
    if beat is not None:
        threading.Thread(target=_beat, args=(beat, parent), daemon=True,
                         name="mnrules-heartbeat").start()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            reply: tuple[str, Any] = ("ok", play_one(job))
        except MnrulesError as exc:
            reply = ("error", str(exc))
        except Exception as exc:  # a bug in the rules: said with where it happened
            where = traceback.extract_tb(exc.__traceback__)[-1]
            reply = ("error", f"{type(exc).__name__}: {exc} ({where.filename}:{where.lineno})")
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


Finished = Callable[[int, GameResult], None]
"""Called in the calling process as each game finishes, with its index in the jobs and
its result (``run``'s ``on_result``)."""


def run_local(jobs: list[Job], workers: int, progress: Callable[[int], None] | None = None,
              deadline: float | None = None,
              on_result: Finished | None = None) -> list[GameResult]:
    """Play the jobs in ``workers`` processes; results come back in job order — or, with
    ``on_result``, are handed to it as each game finishes (in the order they finish) and
    not kept, so that memory stays flat however many games are played (an empty list is
    returned).

    Each worker gets one game at a time. A worker that is lost — it dies (killed, out of
    memory), gives no sign of life for :data:`SILENCE` seconds (stopped, frozen), or
    spends more than ``deadline`` seconds (:data:`GAME_DEADLINE`) on one game — is
    killed, replaced and its game handed out again — a game is a pure function of its
    job, so the results are the same — up to :data:`RETRIES` times for one game. Ctrl-C
    stops every worker before the KeyboardInterrupt goes on; the workers die with this
    process however it ends."""
    if workers <= 1 or len(jobs) <= 1:
        out = []
        for k, job in enumerate(jobs):
            result = play_one(job)
            if on_result is not None:
                on_result(k, result)
            else:
                out.append(result)
            if progress:
                progress(1)
        return out
    import multiprocessing as mp
    import signal
    from multiprocessing.connection import wait

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    if ctx.get_start_method() == "fork":
        for pack, variant, params in {(j.pack, j.variant, j.params) for j in jobs}:
            _rules(pack, variant, params)  # loaded once here, inherited by every worker
    workers = min(workers, len(jobs))
    results: list[GameResult | None] = [None] * len(jobs)
    todo = list(range(len(jobs) - 1, -1, -1))    # popped from the end: job order
    tries = [0] * len(jobs)
    busy: dict[Any, tuple[Any, int | None]] = {}  # connection -> (process, job or None)
    beats: dict[Any, Any] = {}     # connection -> the worker's last sign of life
    since: dict[Any, float] = {}   # connection -> when its game was handed out
    limit = GAME_DEADLINE if deadline is None else deadline
    me = os.getpid()
    conn: Any
    done = 0
    serial = 0

    def start() -> None:
        nonlocal serial
        serial += 1
        here, there = ctx.Pipe()
        # Ctrl-C is held back (not lost) while a worker is forked, so that none reaches
        # the worker before it ignores it itself
        mask = hasattr(signal, "pthread_sigmask")
        if mask:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            beat = ctx.RawValue("d", time.monotonic())
            proc = ctx.Process(target=_worker, args=(there, beat, me), daemon=True,
                               name=f"mnrules-simulate-{serial}")
            proc.start()
        finally:
            if mask:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        there.close()
        busy[here] = (proc, None)
        beats[here] = beat

    def hand_out(conn: Any) -> None:
        proc, _ = busy[conn]
        if not todo:
            busy[conn] = (proc, None)
            return
        i = todo.pop()
        tries[i] += 1
        busy[conn] = (proc, i)
        since[conn] = time.monotonic()
        try:
            conn.send(jobs[i])
        except OSError:   # it died meanwhile
            lost(conn)

    def lost(conn: Any, why: str | None = None) -> None:
        """A worker died, or (``why``) is alive but of no more use: kill it, replace
        it, and hand its game out again."""
        proc, i = busy.pop(conn)
        beats.pop(conn, None)
        since.pop(conn, None)
        conn.close()
        if why is None:
            proc.join(5)
        if proc.is_alive():
            proc.kill()   # SIGKILL ends a stopped process too
            proc.join()
        if i is not None:
            if tries[i] >= RETRIES:
                what = f"{why}, {tries[i]} times" if why else \
                    f"died {tries[i]} times (exit code {proc.exitcode})"
                raise WorkerError(f"game {i + 1} (seed {jobs[i].seed}): its worker process "
                                  f"{what}; try it alone with --jobs 1")
            todo.append(i)
        if todo:
            start()
            hand_out(next(reversed(busy)))

    def check_alive() -> None:
        """Replace the workers that gave no sign of life lately or overran a game."""
        now = time.monotonic()
        for conn, (_, i) in list(busy.items()):
            if conn not in busy:
                continue
            if now - beats[conn].value > SILENCE:
                lost(conn, f"gave no sign of life for {SILENCE:g} s")
            elif i is not None and now - since[conn] > limit:
                lost(conn, f"spent more than {limit:g} s on it")

    def stop_all() -> None:
        for proc, _ in busy.values():
            if proc.is_alive():
                proc.terminate()
        for conn, (proc, _) in busy.items():
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join()
            conn.close()
        busy.clear()

    try:
        for _ in range(workers):
            start()
        for first in list(busy):
            if first in busy:
                hand_out(first)
        while done < len(jobs):
            waiting = {proc.sentinel: conn for conn, (proc, _) in busy.items()}
            for ready in wait([*busy, *waiting], timeout=HEARTBEAT):
                conn = waiting[ready] if isinstance(ready, int) else ready
                if conn not in busy:
                    continue   # already replaced in this pass
                proc, i = busy[conn]
                reply: Any
                try:
                    reply = conn.recv() if conn.poll() else None
                except (EOFError, OSError):
                    reply = None
                if reply is None:
                    proc.join(1)
                    if not proc.is_alive():
                        lost(conn)
                    continue
                kind, value = reply
                if i is None:
                    continue
                if kind == "error":
                    raise WorkerError(f"game {i + 1} (seed {jobs[i].seed}): {value}")
                if on_result is not None:
                    on_result(i, value)
                else:
                    results[i] = value
                done += 1
                hand_out(conn)   # the next game first, so that no worker waits on us
                if progress:
                    progress(1)
            check_alive()
    finally:
        stop_all()
    return [r for r in results if r is not None]


def local_cluster(workers: int) -> Any:
    """A Dask cluster on this machine that only this process can use.

    A plain ``LocalCluster`` listens on 127.0.0.1 with no authentication, and a Dask
    client may run any code it likes: any other user of the machine could run his in
    the simulation and its workers. Its scheduler and workers are given throwaway TLS
    credentials, held in memory and handed to the workers by their nannies, that both
    sides must present (mutual TLS): a client without them is refused at the handshake."""
    try:
        from dask.distributed import LocalCluster
        from distributed.security import Security
    except ImportError:
        raise MnrulesError("--backend dask needs Dask: pip install 'mnrules[cluster]'") \
            from None
    try:
        security = Security.temporary()  # type: ignore[no-untyped-call]
    except ImportError:
        raise MnrulesError("--backend dask needs the cryptography package for the local "
                           "cluster's credentials: pip install 'mnrules[cluster]'") from None
    return LocalCluster(n_workers=max(1, workers),  # type: ignore[no-untyped-call]
                        threads_per_worker=1, processes=True, dashboard_address=None,
                        host="127.0.0.1", protocol="tls://", security=security)


def run_dask(jobs: list[Job], workers: int, address: str | None,
             progress: Callable[[int], None] | None = None,
             on_result: Finished | None = None) -> list[GameResult]:
    """The same games on a Dask cluster (a local one unless ``address`` names one: that
    cluster's own security, if any, is its operator's business); ``on_result`` as for
    :func:`run_local`."""
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise MnrulesError("--backend dask needs Dask: pip install 'mnrules[cluster]'") \
            from None
    cluster = None
    if address is None:
        cluster = local_cluster(workers)
        client = Client(cluster)  # type: ignore[no-untyped-call]
    else:
        client = Client(address)  # type: ignore[no-untyped-call]
    try:
        futures = client.map(play_one, jobs, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        out: list[GameResult | None] = [None] * len(jobs)
        for fut in as_completed(futures):  # type: ignore[no-untyped-call]
            if on_result is not None:
                on_result(index[fut.key], fut.result())
                fut.release()   # its result no longer held on the cluster either
            else:
                out[index[fut.key]] = fut.result()
            if progress:
                progress(1)
        return [r for r in out if r is not None]
    finally:
        client.close()  # type: ignore[no-untyped-call]
        if cluster is not None:
            cluster.close()


def run(jobs: list[Job], workers: int = 1, backend: str = "local",
        address: str | None = None, show_progress: bool = False,
        deadline: float | None = None,
        on_result: Finished | None = None) -> list[GameResult]:
    """The jobs' results in job order, or with ``on_result`` handed to it as each game
    finishes and not kept (:func:`run_local`)."""
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
            return run_dask(jobs, workers, address, progress, on_result)
        if backend != "local":
            raise MnrulesError(f"--backend: expected local or dask, got {backend!r}")
        return run_local(jobs, workers, progress, deadline, on_result)
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


def binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p of ``k`` successes in ``n`` fair coin tosses (the exact McNemar
    test on ``n`` discordant pairs, ``k`` of one kind): twice the smaller tail, at most 1."""
    if n == 0:
        return 1.0
    k = min(k, n - k)
    tail = sum(math.comb(n, i) for i in range(k + 1))
    return min(1.0, 2 * tail / (1 << n))


EXACT_UP_TO = 1000
"""Discordant games up to which :func:`mcnemar` is exact (beyond, the normal
approximation, with a continuity correction, is close enough and cheaper)."""


def mcnemar(gained: int, lost: int) -> tuple[float, str]:
    """Two-sided p of McNemar's test on the discordant pairs: ``gained`` games the first
    side won and the second did not, ``lost`` the other way round. Exact (binomial) up to
    :data:`EXACT_UP_TO` discordant games."""
    n = gained + lost
    if n <= EXACT_UP_TO:
        return binomial_two_sided(gained, n), "exact"
    z = (abs(gained - lost) - 1) / math.sqrt(n)
    return math.erfc(max(z, 0.0) / math.sqrt(2)), "normal"


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of several p values (family-wise error rate)."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted ``values``, interpolated linearly between the order
    statistics (the usual definition, numpy's default); 0 for no values."""
    if not values:
        return 0.0
    h = (len(values) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(values) - 1)
    return float(values[lo] + (h - lo) * (values[hi] - values[lo]))


@dataclass
class Lead:
    """What one game's lead series says (see :data:`DEFINITIONS`)."""
    changes: int
    """Times the sole leader differed from the previous sole leader (ties skipped)."""
    steps: int
    """Steps of the series (its points less one)."""
    decided_at: float | None
    """Fraction of the series (0 its start, 1 its end) from which a winner led to the
    end; 1 if no winner led at the end; None for a game without a winner."""
    behind: float | None
    """Fraction of the series' points at which no winner led; None without a winner."""
    gaps: list[float]
    """At those points: the leader's score less the best winner's."""


def lead_series(result: GameResult) -> list[list[float]]:
    """The series the lead metrics read: the game's evaluation when it gives one, else
    the proxy score (:func:`score`)."""
    return result.values or result.scores


def lead(result: GameResult) -> Lead:
    """The lead metrics of one game, from its lead series (:func:`lead_series`). A winner
    *leads* at a point when the best winner's value is above every other player's (a
    shared win: any of the winners)."""
    series = lead_series(result)
    changes, last = 0, None
    for point in series:
        top = max(point, default=0.0)
        leaders = [i for i, v in enumerate(point) if v == top]
        if len(leaders) == 1:
            if last is not None and leaders[0] != last:
                changes += 1
            last = leaders[0]
    steps = max(0, len(series) - 1)
    won = [i for i, p in enumerate(result.players) if p in result.winners]
    if not won or not series:
        return Lead(changes, steps, None, None, [])
    ahead: list[bool] = []
    gaps: list[float] = []
    for point in series:
        best = max(point[i] for i in won)
        others = max((v for i, v in enumerate(point) if i not in won), default=-math.inf)
        ahead.append(best > others)
        if best <= others:
            gaps.append(others - best)
    start = len(ahead)
    while start > 0 and ahead[start - 1]:
        start -= 1
    decided = 1.0 if start == len(ahead) else (start / steps if steps else 0.0)
    return Lead(changes, steps, decided, ahead.count(False) / len(ahead), gaps)


def stability(result: GameResult) -> float | None:
    """The mean share of the chance to win that changes hands from one round to the next
    (half the sum of the players' absolute changes): 0 never moves, 1 all of it every
    round. None below two evaluated rounds."""
    v = result.values
    if len(v) < 2:
        return None
    moves = [sum(abs(b - a) for a, b in zip(x, y, strict=True)) / 2
             for x, y in itertools.pairwise(v)]
    return sum(moves) / len(moves)


def clarity(result: GameResult) -> float | None:
    """The mean margin of the evaluation's leader over the runner-up (how plain it is,
    round by round, who is ahead)."""
    margins = [sorted(point, reverse=True)[0] - sorted(point, reverse=True)[1]
               for point in result.values if len(point) > 1]
    return sum(margins) / len(margins) if margins else None


TENTHS = 10


def predictive(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """How often the evaluation's leader goes on to win, per tenth of the game: for each
    game with a winner and each tenth, the first evaluated round in it (a tie for the
    lead shares the credit), against chance (winners over players)."""
    hits = [0.0] * TENTHS
    games = [0] * TENTHS
    chance = [0.0] * TENTHS
    for r in results:
        m = len(r.values)
        if not r.winners or not m:
            continue
        done: set[int] = set()
        for i, point in enumerate(r.values):
            t = min(TENTHS - 1, i * TENTHS // m)
            if t in done:
                continue
            done.add(t)
            top = max(point)
            leaders = [k for k, x in enumerate(point) if x == top]
            hits[t] += sum(r.players[k] in r.winners for k in leaders) / len(leaders)
            games[t] += 1
            chance[t] += len(r.winners) / len(r.players)
    return [{"tenth": t + 1, "games": games[t], "rate": hits[t] / games[t],
             "interval": wilson(round(hits[t]), games[t]), "chance": chance[t] / games[t]}
            for t in range(TENTHS) if games[t]]


def advantage_rows(results: Sequence[GameResult], fair: float) -> list[dict[str, Any]]:
    """Per position in the order of play (1: the first player), whoever held it: its
    wins, win rate with interval, advantage over ``fair``, and who held it how often."""
    n = len(results)
    out: list[dict[str, Any]] = []
    for k in range(max((len(r.players) for r in results), default=0)):
        held = Counter(r.players[k] for r in results if k < len(r.players))
        w = sum(1 for r in results if k < len(r.players) and r.players[k] in r.winners)
        out.append({"position": k + 1, "wins": w, "win_rate": w / n if n else 0.0,
                    "interval": wilson(w, n), "advantage": (w / n if n else 0.0) - fair,
                    "held_by": dict(held.most_common())})
    return out


def first_rows(results: Sequence[GameResult], fair: float) -> list[dict[str, Any]]:
    """Per phase: each player's share of the rounds he went first in it, and the win
    rate of the player who went first most often in a game (games with a tie for that
    left out) less ``fair``."""
    out: list[dict[str, Any]] = []
    for phase in dict.fromkeys(ph for r in results for ph in r.firsts):
        rounds: Counter[str] = Counter()
        games = wins = 0
        for r in results:
            by = r.firsts.get(phase, {})
            rounds.update(by)
            if by:
                top = max(by.values())
                most = [p for p, c in by.items() if c == top]
                if len(most) == 1:
                    games += 1
                    wins += most[0] in r.winners
        total = sum(rounds.values())
        out.append({"phase": phase, "rounds": total,
                    "share": {p: c / total for p, c in rounds.most_common()},
                    "games": games, "wins": wins,
                    "win_rate": wins / games if games else 0.0,
                    "interval": wilson(wins, games),
                    "advantage": (wins / games if games else 0.0) - fair})
    return out


DEFINITIONS: dict[str, str] = {
    "win rate": "the share of games a player won, a shared win counted as a win for each "
                "winner, with its 95% Wilson interval.",
    "advantage by player": "each player's (nation's, empire's) win rate less the fair "
                           "share 1/players, wherever he sat.",
    "advantage by position": "the win rate of whoever held each position in the real "
                             "order of play (1 the first player: in Antike II the start "
                             "player drawn at random), less 1/players, with its 95% "
                             "interval and who held it; where the seating is fixed the "
                             "position is the player's own.",
    "first to act": "per phase, each player's share of the rounds he made its first "
                    "decision, and the win rate less 1/players of the player who went "
                    "first in it most often in a game (in Mare Nostrum a phase's leader "
                    "names the order, so this reads the leader as much as the order).",
    "completion": "the share of games ended by a victory rather than stopped at the round "
                  "cap (Ludii's completion rate; the rest are timeouts).",
    "shared-win rate": "the share of games won by more than one player at once.",
    "duration": "the rounds a game played (the one under way at its end counted): mean, "
                "sample standard deviation, and the 10th, 50th and 90th percentiles "
                "(linear interpolation).",
    "score": "a player's score at a point of the game: the sum of the numeric figures "
             "the game's own report gives him (a generic proxy, not the game's scoring), "
             "taken at every round start and at the end; the lead series only for a game "
             "that gives no evaluation.",
    "evaluation": "each player's chance to win as the game's own evaluation puts it (its "
                  "search policy's values), once a round at the round's first decision: "
                  "the lead series when the game gives one.",
    "lead changes": "the times per game the sole leader of the lead series differs from "
                    "the previous sole leader (ties skipped), and per step of the series "
                    "(one a round).",
    "decisiveness": "over games with a winner, the mean fraction of the game (0 its "
                    "start, 1 its end) after which a winner led the lead series to the "
                    "end; lower means decided earlier, 1 that the series never showed it.",
    "drama": "over games with a winner, the mean share of the lead series' points at "
             "which no winner led (a comeback), with the mean gap behind the leader at "
             "those points.",
    "stability": "the mean share of the evaluated chance to win that changes hands from "
                 "one round to the next (0 never moves, 1 all of it every round).",
    "clarity": "the mean margin, round by round, of the evaluation's leader over the "
               "runner-up (how plain it is who is ahead).",
    "predictive rate": "per tenth of the game, how often the evaluation's leader at the "
                       "tenth's first evaluated round goes on to win, against chance "
                       "(winners over players): what makes the lead metrics worth "
                       "reading.",
    "victory paths per player": "for each player, how his wins ended the game (a shared "
                                "win counted for each winner).",
    "card pick rate": "the share of games in which a card was taken during the game (a "
                      "card held from the start, like a starting hero, is never picked), "
                      "with the mean round it was taken in.",
    "win rate when held": "over the games in which some player held a card at the end, "
                          "the share its holder won, with its 95% Wilson interval.",
    "paired length": "under --compare, the mean difference in rounds played on the same "
                     "seeds with its 95% interval, and the exact sign test on the games "
                     "whose length differs.",
    "paired paths": "under --compare, for each victory path, the difference in the share "
                    "of games it ended, McNemar's exact test on the games where it ended "
                    "one side only, Holm-adjusted over the paths.",
}
"""One sentence per metric: printed with ``simulate --explain``, kept in the JSON."""


@dataclass
class Report:
    games: int
    players: list[str]
    wins: dict[str, int]
    """Games each player won, a shared win counted for each winner (see ``shared``)."""
    shared: dict[str, int]
    """How many of a player's wins were shared with another winner."""
    shared_games: int
    win_rate: dict[str, float]
    interval: dict[str, tuple[float, float]]
    paths: dict[str, int]
    rounds_mean: float
    rounds_median: float
    round_hist: dict[int, int]
    title_share: dict[str, dict[str, float]]
    """Per player and title: the share of the counted rounds (their starts) he held it;
    over the players a title's shares sum to at most 1."""
    unfinished: int
    completion: float = 0.0
    shared_rate: float = 0.0
    rounds_sd: float = 0.0
    rounds_p10: float = 0.0
    rounds_p50: float = 0.0
    rounds_p90: float = 0.0
    seats: list[dict[str, Any]] = field(default_factory=list)
    """Per position in the order of play (:func:`advantage_rows`): position (from 1),
    wins, win_rate, interval, advantage, held_by."""
    advantage: dict[str, float] = field(default_factory=dict)
    """Per player: his win rate less 1/players."""
    first_to_act: list[dict[str, Any]] = field(default_factory=list)
    """Per phase (:func:`first_rows`)."""
    lead_basis: str = "score"
    """What the lead metrics read: "evaluation" (the game's) or "score" (the proxy)."""
    stability: float | None = None
    clarity: float | None = None
    predictive: list[dict[str, Any]] = field(default_factory=list)
    """Per tenth of the game (:func:`predictive`)."""
    lead_changes: float = 0.0
    """Mean lead changes per game."""
    lead_change_rate: float = 0.0
    """Lead changes per step of the lead series, over all games."""
    decisiveness: float | None = None
    drama: float | None = None
    drama_gap: float | None = None
    paths_by_player: dict[str, dict[str, int]] = field(default_factory=dict)
    cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per card: games, picked (games it was taken in), pick_rate, held (games some
    player held it at the end), held_wins (of those, games its holder won),
    win_when_held with its interval, mean_round (when it was taken)."""


def card_stats(results: Sequence[GameResult]) -> dict[str, dict[str, Any]]:
    """Pick rate and win rate when held, per card (see :data:`DEFINITIONS`)."""
    n = len(results)
    names = sorted({c for r in results for held in r.cards.values() for c in held})
    out: dict[str, dict[str, Any]] = {}
    for c in names:
        picked = [r.picked[c] for r in results if c in r.picked]
        holders = [(r, p) for r in results for p, held in r.cards.items() if c in held]
        wins = sum(1 for r, p in holders if p in r.winners)
        out[c] = {"games": n, "picked": len(picked), "pick_rate": len(picked) / n if n else 0.0,
                  "held": len(holders), "held_wins": wins,
                  "win_when_held": wins / len(holders) if holders else 0.0,
                  "interval": wilson(wins, len(holders)),
                  "mean_round": sum(picked) / len(picked) if picked else None}
    return out


def report(results: list[GameResult], order: Sequence[str] | None = None) -> Report:
    """The report of a run's games. ``order`` lists the players as the table shows them
    (the pack's seating); without it, the first game's order, which in a game that draws
    its start player is that game's alone."""
    players = list(order) if order else (results[0].players if results else [])
    seen = {p for r in results for p in r.players}
    if order and not seen <= set(players):
        players = players + sorted(seen - set(players))
    wins: Counter[str] = Counter()
    shared: Counter[str] = Counter()
    by_player: dict[str, Counter[str]] = {e: Counter() for e in players}
    for r in results:
        wins.update(r.winners)
        if len(r.winners) > 1:
            shared.update(r.winners)
        for w in r.winners:
            by_player.setdefault(w, Counter())[r.victory] += 1
    n = len(results)
    rounds = sorted(r.rounds for r in results)
    mean = sum(rounds) / n if n else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in rounds) / (n - 1)) if n > 1 else 0.0
    counted = sum(r.title_rounds for r in results) or 1
    share: dict[str, dict[str, float]] = {}
    # the titles in the order games first saw them held (the game's report names them)
    titles = list(dict.fromkeys(t for r in results for held in r.titles_held.values()
                                for t in held))
    for e in players:
        share[e] = {t: sum(r.titles_held.get(e, {}).get(t, 0) for r in results) / counted
                    for t in titles}
    fair = 1 / len(players) if players else 0.0
    leads = [lead(r) for r in results]
    stable = [x for x in map(stability, results) if x is not None]
    clear = [x for x in map(clarity, results) if x is not None]
    decided = [x.decided_at for x in leads if x.decided_at is not None]
    behind = [x.behind for x in leads if x.behind is not None]
    gaps = [g for x in leads for g in x.gaps]
    steps = sum(x.steps for x in leads)
    shared_games = sum(1 for r in results if len(r.winners) > 1)
    unfinished = sum(1 for r in results if not r.winners)
    return Report(
        games=n, players=players, wins={e: wins[e] for e in players},
        shared={e: shared[e] for e in players},
        shared_games=shared_games,
        win_rate={e: wins[e] / n if n else 0.0 for e in players},
        interval={e: wilson(wins[e], n) for e in players},
        paths=dict(Counter(r.victory for r in results)),
        rounds_mean=mean,
        rounds_median=float(statistics.median(rounds)) if n else 0.0,
        round_hist=dict(sorted(Counter(rounds).items())),
        title_share=share, unfinished=unfinished,
        completion=(n - unfinished) / n if n else 0.0,
        shared_rate=shared_games / n if n else 0.0,
        rounds_sd=sd, rounds_p10=quantile(rounds, 0.1), rounds_p50=quantile(rounds, 0.5),
        rounds_p90=quantile(rounds, 0.9), seats=advantage_rows(results, fair),
        advantage={e: (wins[e] / n if n else 0.0) - fair for e in players},
        first_to_act=first_rows(results, fair),
        lead_basis="evaluation" if results and all(r.values for r in results) else "score",
        stability=sum(stable) / len(stable) if stable else None,
        clarity=sum(clear) / len(clear) if clear else None,
        predictive=predictive(results),
        lead_changes=sum(x.changes for x in leads) / n if n else 0.0,
        lead_change_rate=sum(x.changes for x in leads) / steps if steps else 0.0,
        decisiveness=sum(decided) / len(decided) if decided else None,
        drama=sum(behind) / len(behind) if behind else None,
        drama_gap=sum(gaps) / len(gaps) if gaps else None,
        paths_by_player={e: dict(c.most_common()) for e, c in by_player.items()},
        cards=card_stats(results))


def compare(a: list[GameResult], b: list[GameResult]) -> list[dict[str, Any]]:
    """Per-player win-rate difference on the same seeds: McNemar's test on the games
    whose outcome for him differs (exact for small counts), Holm-adjusted over the
    players (``p_holm``); ``ci95`` is the normal interval of the paired difference."""
    out: list[dict[str, Any]] = []
    for e in a[0].players if a else []:
        d = [(e in x.winners) - (e in y.winners) for x, y in zip(a, b, strict=True)]
        n = len(d)
        mean = sum(d) / n
        var = sum((v - mean) ** 2 for v in d) / (n - 1) if n > 1 else 0.0
        se = math.sqrt(var / n) if var > 0 else 0.0
        gained, lost = d.count(1), d.count(-1)
        p, test = mcnemar(gained, lost)
        out.append({"player": e, "a": sum(e in x.winners for x in a) / n,
                    "b": sum(e in y.winners for y in b) / n, "difference": mean,
                    "ci95": (mean - 1.96 * se, mean + 1.96 * se), "p": p, "test": test,
                    "games_that_differ": gained + lost, "a_only": gained, "b_only": lost})
    for row, adjusted in zip(out, holm([r["p"] for r in out]), strict=True):
        row["p_holm"] = adjusted
    return out


def paired_mean(d: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean of paired differences with its 95% normal interval."""
    n = len(d)
    if not n:
        return 0.0, (0.0, 0.0)
    mean = sum(d) / n
    var = sum((v - mean) ** 2 for v in d) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def compare_games(a: Sequence[GameResult], b: Sequence[GameResult]) -> dict[str, Any]:
    """Paired tests beyond the win rates, on the same seeds: the game length (the mean
    difference and the exact sign test) and each victory path (McNemar, Holm over the
    paths). ``a`` and ``b`` are the two sides' results in seed order."""
    diffs = [x.rounds - y.rounds for x, y in zip(a, b, strict=True)]
    longer, shorter = sum(1 for v in diffs if v > 0), sum(1 for v in diffs if v < 0)
    mean, ci = paired_mean(diffs)
    length = {"a": sum(x.rounds for x in a) / len(a) if a else 0.0,
              "b": sum(y.rounds for y in b) / len(b) if b else 0.0,
              "difference": mean, "ci95": ci, "a_longer": longer, "b_longer": shorter,
              "p": binomial_two_sided(longer, longer + shorter), "test": "sign"}
    paths: list[dict[str, Any]] = []
    names = sorted({x.victory for x in a} | {y.victory for y in b})
    for name in names:
        d = [(x.victory == name) - (y.victory == name) for x, y in zip(a, b, strict=True)]
        only_a, only_b = d.count(1), d.count(-1)
        mean, ci = paired_mean(d)
        p, test = mcnemar(only_a, only_b)
        paths.append({"path": name, "a": sum(x.victory == name for x in a) / len(a),
                      "b": sum(y.victory == name for y in b) / len(b), "difference": mean,
                      "ci95": ci, "p": p, "test": test, "a_only": only_a, "b_only": only_b})
    for row, adjusted in zip(paths, holm([r["p"] for r in paths]), strict=True):
        row["p_holm"] = adjusted
    return {"length": length, "paths": paths}


@dataclass(frozen=True)
class Names:
    """How a report names a game's ids: as the pack does (a presenter's names: "Temple
    of Artemis", "Rzym"), or, without one, the ids themselves (files written for tools)."""

    say: Any = None

    def player(self, p: str) -> str:
        return str(self.say.player(p)) if self.say is not None else p

    def card(self, c: str) -> str:
        return str(self.say.card_name(c)) if self.say is not None else c

    def phase(self, ph: str) -> str:
        return str(self.say.name(ph, "phases")) if self.say is not None else ph

    def victory(self, v: str) -> str:
        return str(self.say.name(v, "victories")) if self.say is not None else v

    def title(self, t: str) -> str:
        """A title by its track's name, short enough for a column ("Trade", "Handel")."""
        return str(self.say.name(t, "tracks")) if self.say is not None else t

    def paths(self, counts: dict[str, int]) -> str:
        """Victory paths counted, the most frequent first: "Fame 3, Conquest 1"."""
        return ", ".join(f"{self.victory(k)} {v}"
                         for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))


IDS = Names()
"""A report that names every id by itself (no pack at hand)."""


def _w(text: str, width: int) -> str:
    """``text`` padded to ``width``, or cut with "." if a pack's name is longer."""
    return text.ljust(width) if len(text) <= width else text[:width - 1] + "."


def format_compare(rows: list[dict[str, Any]], more: dict[str, Any], a_name: str,
                   b_name: str, names: Names = IDS) -> str:
    """The paired comparison as report lines."""
    lines = [f"difference ({a_name} - {b_name}), paired on the same seeds (McNemar's "
             f"test, exact up to {EXACT_UP_TO} differing games; p_holm: Holm-adjusted over "
             f"the players, * below 0.05):"]
    for row in rows:
        lo, hi = row["ci95"]
        star = " *" if row["p_holm"] < 0.05 else ""
        lines.append(f"  {_w(names.player(row['player']), 10)} {row['difference']:+7.1%}  "
                     f"[{lo:+6.1%}, {hi:+6.1%}]  p={row['p']:.3f} "
                     f"p_holm={row['p_holm']:.3f}{star}  "
                     f"({row['games_that_differ']} games differ: {row['a_only']} won only "
                     f"under {a_name}, {row['b_only']} only under {b_name})")
    ln = more["length"]
    lo, hi = ln["ci95"]
    lines.append(f"game length: {ln['a']:.2f} vs {ln['b']:.2f} rounds, difference "
                 f"{ln['difference']:+.2f} [{lo:+.2f}, {hi:+.2f}]; sign test p={ln['p']:.3f} "
                 f"({ln['a_longer']} games longer under {a_name}, {ln['b_longer']} under "
                 f"{b_name})")
    lines.append("victory paths (share of games; p_holm over the paths):")
    for row in more["paths"]:
        lo, hi = row["ci95"]
        star = " *" if row["p_holm"] < 0.05 else ""
        lines.append(f"  {names.victory(row['path']):<12} {row['a']:6.1%} vs {row['b']:6.1%}  "
                     f"{row['difference']:+7.1%} [{lo:+6.1%}, {hi:+6.1%}]  p={row['p']:.3f} "
                     f"p_holm={row['p_holm']:.3f}{star}")
    return "\n".join(lines)


def format_cards(rep: Report, names: Names = IDS) -> list[str]:
    """The card table: pick rate, win rate when held, mean round taken."""
    if not rep.cards:
        return []
    lines = ["cards: pick rate (mean round taken; 'start': held from the start), win rate "
             "when held [95% interval] (games held)"]
    order = sorted(rep.cards.items(), key=lambda kv: (-kv[1]["win_when_held"], kv[0]))
    for name, c in order:
        lo, hi = c["interval"]
        taken = "" if c["mean_round"] is None else f" (round {c['mean_round']:.1f})"
        # a card held though nobody took it was dealt before play: "0.0%" would misread it
        rate = "  start" if not c["picked"] and c["held"] else f"{c['pick_rate']:6.1%}"
        lines.append(f"  {_w(names.card(name), 20)} {rate:>6}{taken:<13} "
                     f"{c['win_when_held']:6.1%} [{lo:5.1%}, {hi:5.1%}] ({c['held']})")
    return lines


def format_report(rep: Report, title: str, names: Names = IDS) -> str:
    titles = list(dict.fromkeys(t for e in rep.players for t in rep.title_share[e]))
    lines = [title, f"{rep.games} games; {rep.unfinished} reached the round cap; "
             f"{rep.shared_games} shared wins; rounds: mean {rep.rounds_mean:.1f}, median "
             f"{rep.rounds_median:.0f}",
             "(a shared win counts as a win for each winner, so win rates may sum above "
             "100%; 'shared': how many of the wins were shared)",
             "player      wins  shared   win rate   95% interval   "
             + "".join(f" {_w(names.title(t), 8):>8}" for t in titles)
             + ("  (share of rounds holding the title)" if titles else "")]
    for e in rep.players:
        lo, hi = rep.interval[e]
        ts = rep.title_share[e]
        lines.append(f"{_w(names.player(e), 10)} {rep.wins[e]:>5}  {rep.shared[e]:>6}   "
                     f"{rep.win_rate[e]:7.1%}   [{lo:5.1%}, {hi:5.1%}] "
                     + "".join(f"{ts[t]:9.0%}" for t in titles))
    lines.append("victory paths: " + names.paths(rep.paths))
    lines.extend(format_metrics(rep, names))
    lines.extend(format_cards(rep, names))
    return "\n".join(lines)


def _opt(value: float | None, fmt: str) -> str:
    return "n/a" if value is None else format(value, fmt)


def format_metrics(rep: Report, names: Names = IDS) -> list[str]:
    """The designer metrics (see :data:`DEFINITIONS`) as report lines."""
    n = rep.games
    basis = "the game's evaluation" if rep.lead_basis == "evaluation" else \
        "score (a proxy: this game gives no evaluation)"
    lines = [f"completion: {n - rep.unfinished} of {n} games ended by a victory "
             f"({rep.completion:.1%}), {rep.unfinished} at the round cap; shared-win rate "
             f"{rep.shared_rate:.1%}",
             f"duration (rounds): mean {rep.rounds_mean:.2f}, sd {rep.rounds_sd:.2f}, "
             f"p10 {rep.rounds_p10:g}, p50 {rep.rounds_p50:g}, p90 {rep.rounds_p90:g}",
             f"lead by {basis}: "
             f"{rep.lead_changes:.2f} lead changes per game "
             f"({rep.lead_change_rate:.2f} per round); decisiveness "
             f"{_opt(rep.decisiveness, '.2f')}; drama {_opt(rep.drama, '.2f')} (gap "
             f"{_opt(rep.drama_gap, '.2f')})"
             + (f"; stability {_opt(rep.stability, '.2f')}; clarity "
                f"{_opt(rep.clarity, '.2f')}" if rep.lead_basis == "evaluation" else "")]
    if rep.predictive:
        overall = sum(t["rate"] * t["games"] for t in rep.predictive) / \
            sum(t["games"] for t in rep.predictive)
        lines.append("the evaluation's leader goes on to win (by tenth of the game; "
                     "chance: winners over players):")
        lines.append("  " + ", ".join(
            f"{t['tenth']}: {t['rate']:.0%} [{t['interval'][0]:.0%}, "
            f"{t['interval'][1]:.0%}]" for t in rep.predictive)
            + f" (chance {rep.predictive[0]['chance']:.0%}; "
              f"{rep.predictive[0]['games']} games; all tenths {overall:.0%})")
    lines.append("advantage by player (win rate less 1/players): " + ", ".join(
        f"{names.player(e)} {rep.advantage.get(e, 0.0):+.1%}" for e in rep.players))
    lines.append("advantage by position in the order of play (1: the first player; "
                 "win rate less 1/players):")
    fixed = all(len(s["held_by"]) <= 1 for s in rep.seats)
    for s in rep.seats:
        lo, hi = s["interval"]
        held = "always " + names.player(next(iter(s["held_by"]), "")) if fixed else \
            ", ".join(f"{names.player(p)} {c}" for p, c in s["held_by"].items())
        lines.append(f"  position {s['position']:<2} {s['win_rate']:6.1%} "
                     f"[{lo:5.1%}, {hi:5.1%}]  {s['advantage']:+6.1%}  ({held})")
    if fixed and len(rep.seats) > 1:
        lines.append("  (the seating is fixed: each position is one player's, so its row "
                     "repeats his; who goes first is measured per phase below)")
    if rep.first_to_act:
        lines.append("first to act per phase (share of rounds; win rate of the player who "
                     "went first most often, less 1/players):")
        for f in rep.first_to_act:
            lo, hi = f["interval"]
            shares = ", ".join(f"{names.player(p)} {x:.0%}" for p, x in f["share"].items())
            lines.append(f"  {_w(names.phase(f['phase']), 12)} {shares}; most often first "
                         f"won {f['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] of "
                         f"{f['games']} games ({f['advantage']:+.1%})")
    lines.append("victory paths per player: " + "; ".join(
        f"{names.player(e)} " + (names.paths(paths) or "-")
        for e, paths in rep.paths_by_player.items()))
    return lines


def format_definitions() -> str:
    return "\n".join(["metrics:"] + [f"  {k}: {v}" for k, v in DEFINITIONS.items()])


@dataclass
class Compared:
    """The other side of a ``--compare``: its label, games and report, and the paired
    differences (side A less this side) on the same seeds."""
    name: str
    results: list[GameResult]
    report: Report
    rows: list[dict[str, Any]]
    """Per player (:func:`compare`)."""
    more: dict[str, Any]
    """Length and victory paths (:func:`compare_games`)."""


def compared(name: str, a: list[GameResult], b: list[GameResult],
             order: Sequence[str] | None = None) -> Compared:
    return Compared(name, b, report(b, order), compare(a, b), compare_games(a, b))


CSV_HEADER = ["side", "seed", "winners", "victory", "rounds", "decisions", "lead_changes",
              "decided_at", "behind", "final_scores", "cards_picked"]


def _csv_rows(side: str, results: list[GameResult]) -> Iterator[list[Any]]:
    for r in results:
        x = lead(r)
        yield [side, r.seed, " ".join(r.winners), r.victory, r.rounds, r.decisions,
               x.changes, "" if x.decided_at is None else round(x.decided_at, 4),
               "" if x.behind is None else round(x.behind, 4),
               " ".join(f"{v:g}" for v in (r.scores[-1] if r.scores else [])),
               " ".join(r.picked)]


def write_out(path: str, results: list[GameResult], rep: Report,
              other: Compared | None = None, name: str = "a",
              provenance: dict[str, Any] | None = None) -> None:
    """The results as CSV (one row per game, its ``side`` first) or JSON (the report and
    every game; under a comparison the other side's too, with the paired differences),
    written atomically. ``name`` labels this side (the other's is its own name);
    ``provenance`` (:func:`mnrules.tools.provenance.provenance`) heads either file."""
    import io

    from ..files import write_atomic

    if Path(path).suffix == ".csv":
        buf = io.StringIO(newline="")
        if provenance is not None:
            from .provenance import csv_comment

            buf.write(csv_comment(provenance))
        w = csv.writer(buf)
        w.writerow(CSV_HEADER)
        w.writerows(_csv_rows(name, results))
        if other is not None:
            w.writerows(_csv_rows(other.name, other.results))
        write_atomic(path, buf.getvalue())
        return
    data: dict[str, Any] = {"provenance": provenance, "side": name, "report": asdict(rep),
                            "definitions": DEFINITIONS,
                            "games": [asdict(r) for r in results]}
    if other is not None:
        data["compare"] = {"side": other.name, "report": asdict(other.report),
                           "games": [asdict(r) for r in other.results],
                           "difference": other.rows, **other.more}
    write_atomic(path, json.dumps(data, indent=1))


def figure(rep: Report, title: str, other: Compared | None = None, name: str = "a",
           names: Names = IDS) -> Any:
    """The matplotlib figure of the win rates and the game lengths (:func:`plot`); the
    caller closes it (``matplotlib.pyplot.close``). Its first axes are the win rates'."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MnrulesError("--plot needs matplotlib: pip install 'mnrules[sim]'") from None
    panels = 3 if other is not None else 2
    fig, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 4.2))
    ax1, ax2 = axes[0], axes[-1]
    es = rep.players
    sides = [(name, rep, "#7a8fb3")] + ([(other.name, other.report, "#c98f5a")]
                                       if other is not None else [])
    width = 0.8 / len(sides)
    for k, (label, r, colour) in enumerate(sides):
        xs = [i + (k - (len(sides) - 1) / 2) * width for i in range(len(es))]
        rates = [r.win_rate[e] for e in es]
        lo = [r.win_rate[e] - r.interval[e][0] for e in es]
        hi = [r.interval[e][1] - r.win_rate[e] for e in es]
        ax1.bar(xs, rates, width, yerr=[lo, hi], capsize=4, color=colour, label=label)
    ax1.set_xticks(range(len(es)), [names.player(e) for e in es])
    ax1.axhline(1 / max(1, len(es)), color="grey", linestyle="--", linewidth=1)
    ax1.set_ylabel("win rate (95% Wilson interval)")
    ax1.set_title("Wins per player")
    if other is not None:
        ax1.legend(fontsize=8)
        ax = axes[1]
        diff = [row["difference"] for row in other.rows]
        lo = [row["difference"] - row["ci95"][0] for row in other.rows]
        hi = [row["ci95"][1] - row["difference"] for row in other.rows]
        colours = ["#b34a4a" if row["p_holm"] < 0.05 else "#999999" for row in other.rows]
        ax.bar([names.player(row["player"]) for row in other.rows], diff, yerr=[lo, hi],
               capsize=4,
               color=colours)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylabel("paired difference in win rate (95% interval)")
        ax.set_title(f"{name} - {other.name} (red: Holm p < 0.05)")
    for label, r, colour in sides:
        ax2.bar(list(r.round_hist), list(r.round_hist.values()), color=colour, alpha=0.6,
                label=f"{label} (median {r.rounds_median:.0f})")
    ax2.set_xlabel("rounds")
    ax2.set_ylabel("games")
    ax2.set_title("Game length")
    ax2.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot(path: str, rep: Report, title: str, other: Compared | None = None,
         name: str = "a", names: Names = IDS) -> None:
    """A figure of the win rates and the game lengths, written atomically; under a
    comparison both sides' win rates side by side, their paired difference with its
    interval, and both sides' lengths."""
    import io

    from ..files import write_atomic

    fig = figure(rep, title, other, name, names)   # refuses first if matplotlib is missing
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    try:
        fig.savefig(buf, dpi=110, format=Path(path).suffix.lstrip(".").lower() or "png")
    except ValueError as exc:  # a format matplotlib does not write
        raise MnrulesError(f"--plot {path}: {exc}") from None
    finally:
        plt.close(fig)
    write_atomic(path, buf.getvalue())


PLOT_FORMATS = (".png", ".svg", ".pdf")


def check_plot_format(path: str) -> None:
    """Refuse a figure that cannot be drawn (an unknown format, no matplotlib) now, before
    any game is played (``--plot`` of simulate and sweep)."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise MnrulesError(f"--plot {path}: give a file ending in "
                           f"{', '.join(PLOT_FORMATS)}")
    try:
        import matplotlib
        matplotlib.use("Agg")
    except ImportError:
        raise MnrulesError("--plot needs matplotlib: pip install 'mnrules[sim]'") from None


def worker_count(asked: int | None, games: int) -> int:
    """Worker processes: as asked, but never more than the games nor than a machine can
    usefully run (four per core); a lowered count is said on stderr. Not asked: half the
    cores (at least one), leaving the rest of a shared machine to others."""
    cores = os.cpu_count() or 1
    if asked is None:
        return max(1, min(cores // 2, games))
    most = min(games, cores * 4)
    if asked > most:
        why = "one per game" if most == games else f"4 per core on {cores} core(s)"
        print(f"mnrules: --jobs {asked}: using {most} ({why})", file=sys.stderr)
        return most
    return asked
