"""Random-game fuzzing: many seeded games over editions, player counts and bots, with
every invariant checked after every choice. A failure is reported with its seed and
choice sequence, shrunk to a short reproduction and written as a replayable log.

A choice sequence is kept as option *indices*, so a shrunk sequence can be replayed
(each index taken modulo the options then on offer).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..content.ruleset import Ruleset, load_ruleset
from ..core.engine import Game
from ..core.invariants import check
from ..core.start import new_game
from ..errors import MnrulesError


@dataclass
class Failure:
    edition: str
    players: int
    seed: int
    indices: list[int]
    error: str
    shrunk: list[int] = field(default_factory=list)
    round_cap: int = 30
    """The round cap the game was played under (its reproduction needs the same)."""

    def describe(self) -> str:
        seq = self.shrunk or self.indices
        return (f"edition {self.edition}, {self.players} players, seed {self.seed}: "
                f"{self.error}\n  reproduction: {len(seq)} choices (option indices): "
                f"{seq[:60]}{' ...' if len(seq) > 60 else ''}")


Checker = Callable[[Game], list[str]]


def _play(rules: Ruleset, players: int, seed: int, pick: Callable[[int, int], int],
          round_cap: int, checker: Checker = check) -> tuple[Game, list[int], str | None]:
    """Play with invariants checked; returns the game, indices taken and any failure."""
    game = new_game(rules, players, seed=seed, round_cap=round_cap)
    game.checker = checker
    taken: list[int] = []
    try:
        while (dec := game.pending) is not None:
            i = pick(len(taken), len(dec.options)) % len(dec.options)
            taken.append(i)
            game.apply(dec.options[i])
    except MnrulesError as exc:
        return game, taken, f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # a crash in the rules is exactly what fuzzing is for
        return game, taken, f"{type(exc).__name__}: {exc}"
    return game, taken, None


def replay_indices(rules: Ruleset, players: int, seed: int, indices: list[int],
                   round_cap: int, checker: Checker = check) -> str | None:
    """The failure a sequence of option indices leads to (choices past it: option 0)."""
    def pick(n: int, k: int) -> int:
        return indices[n] if n < len(indices) else 0
    _, taken, err = _play(rules, players, seed, pick, round_cap, checker)
    return err if err is not None and len(taken) <= len(indices) else None


def shrink(rules: Ruleset, f: Failure, round_cap: int, budget: float = 20.0,
           checker: Checker = check) -> list[int]:
    """Make the failing sequence simpler: zero out chunks (option 0 is the simplest
    choice), halving the chunk size, while the failure persists; bounded in time."""
    seq = list(f.indices)
    kind = f.error.split(":", 1)[0]
    deadline = time.monotonic() + budget
    chunk = max(1, len(seq) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        while i < len(seq) and time.monotonic() < deadline:
            trial = seq[:i] + [0] * min(chunk, len(seq) - i) + seq[i + chunk:]
            if trial != seq:
                err = replay_indices(rules, f.players, f.seed, trial, round_cap, checker)
                if err is not None and err.split(":", 1)[0] == kind:
                    seq = trial
            i += chunk
        chunk //= 2
    while seq and seq[-1] == 0:
        seq.pop()
    return seq


def _random_picker(seed: int) -> Callable[[int, int], int]:
    rng = random.Random(seed)
    return lambda i, k: rng.randrange(k)


def player_counts(rules: Ruleset) -> list[int]:
    """Every player count the game seats (its board's), the default of a fuzz run: a
    count left out is a game never fuzzed (Antike II's six nations)."""
    return sorted(rules.seating) or [3, 4, 5]


def fuzz(games: int, seed: int = 0, editions: list[str] | None = None,
         players: list[int] | None = None, round_cap: int | None = None,
         progress: Callable[[int], None] | None = None, shrink_budget: float = 20.0,
         checker: Checker = check, rules_for: Callable[[str], Ruleset] | None = None
         ) -> tuple[int, int, list[Failure]]:
    """Play ``games`` random games; returns (games, decisions, failures). By default
    each edition is played at every player count it seats (:func:`player_counts`) and
    to its own round cap (:func:`mnrules.tools.simulate.round_cap`), so that whole games are
    fuzzed, not only their openings."""
    from .simulate import round_cap as pack_round_cap

    if not editions:   # every pack of the one game installed
        from ..content import packs

        editions = packs.game_packs(packs.default_game())
    cache: dict[str, Ruleset] = {}
    failures: list[Failure] = []
    decisions = 0
    for g in range(games):
        edition = editions[g % len(editions)]
        if edition not in cache:
            cache[edition] = rules_for(edition) if rules_for else load_ruleset(edition)
        rules = cache[edition]
        counts = players or player_counts(rules)
        n = counts[(g // len(editions)) % len(counts)]
        cap = round_cap if round_cap is not None else pack_round_cap(rules)
        game_seed = seed * 1_000_003 + g
        _, taken, err = _play(rules, n, game_seed, _random_picker(game_seed), cap, checker)
        decisions += len(taken)
        if err is not None:
            f = Failure(edition, n, game_seed, taken, err, round_cap=cap)
            f.shrunk = shrink(rules, f, cap, shrink_budget, checker)
            failures.append(f)
        if progress:
            progress(1)
    return games, decisions, failures


def write_log(f: Failure, path: str, round_cap: int | None = None,
              variant: str | None = None) -> None:
    """The failing game as a log `mnrules replay` reads (up to the failure); ``variant``
    is the variant the games were played with (``fuzz --variant``); the round cap is
    the failure's own unless given."""
    if round_cap is None:
        round_cap = f.round_cap
    import json

    from .log import LOG_FORMAT, file_ref

    rules = load_ruleset(f.edition, variant=variant)
    game = new_game(rules, f.players, seed=f.seed, round_cap=round_cap)
    lines: list[dict[str, Any]] = [{"format": LOG_FORMAT, "pack": file_ref(f.edition),
                                    "variant": file_ref(variant),
                                    "players": game.state.players, "seed": f.seed,
                                    "round_cap": round_cap}]
    seq = f.shrunk or f.indices
    try:
        for i in seq:
            dec = game.pending
            if dec is None:
                break
            choice = dec.options[i % len(dec.options)]
            lines.append({"player": dec.player, "kind": dec.kind, "choice": choice})
            game.apply(choice)
    except Exception:  # the failure itself: the log stops at it
        pass
    from ..files import write_atomic

    write_atomic(path, "".join(json.dumps(rec) + "\n" for rec in lines))
