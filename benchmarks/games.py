"""A fixed set of seeded bot games, played through the public API only, and each game's
digest: the SHA-256 of its whole choice history (player, kind, choice per line, as a log
writes it) and of its final state with its generator.

Two users: ``tests/test_speed_determinism.py`` replays the guard set and compares the
digests recorded in ``tests/speed_digests.json`` (so every speed change is proved to
leave every game as it was), and ``benchmarks/bench_compare.py`` plays the speed set in
worker processes under the code of another tree (a baseline commit, a compiled build).

``python benchmarks/games.py --record`` rewrites the digests: do it only for a change
that is meant to alter the games (a rule, a bot), and say so in the commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DIGESTS = Path(__file__).resolve().parents[1] / "tests" / "speed_digests.json"


@dataclass(frozen=True)
class Spec:
    """One seeded game: pack, players, seed, the bot every seat plays, the round cap."""

    pack: str
    players: int
    seed: int
    bot: str
    cap: int

    @property
    def name(self) -> str:
        return f"{self.pack}-{self.players}p-{self.bot}-seed{self.seed}-cap{self.cap}"


GUARD: tuple[Spec, ...] = (
    *(Spec("en", 5, s, "random", 100) for s in range(8)),
    Spec("en", 3, 1, "random", 100),
    Spec("en", 4, 2, "random", 100),
    *(Spec(pack, 5, 3, "random", 100) for pack in ("fr", "nl", "pl", "uk")),
    *(Spec("en", 5, s, "heuristic", 60) for s in range(4)),
    Spec("fr", 4, 5, "heuristic", 60),
    Spec("uk", 3, 6, "heuristic", 60),
    Spec("en", 5, 7, "search:2", 3),
)
"""The games whose digests guard determinism: every pack, 3 to 5 players, every bot."""

SPEED = {
    "random": tuple(Spec("en", 5, s, "random", 100) for s in range(12)),
    "heuristic": tuple(Spec("en", 5, s, "heuristic", 60) for s in range(4)),
}
"""The games the speed benchmark times: 5 players, random and heuristic play."""


_RULES: dict[str, Any] = {}


def rules_for(pack: str) -> Any:
    """The rule set of a pack, loaded once per process (a rule set is shared by games)."""
    from mnrules import load_ruleset

    if pack not in _RULES:
        _RULES[pack] = load_ruleset(pack)
    return _RULES[pack]


def play(spec: Spec, digest: bool = True) -> tuple[int, str, str]:
    """Play one game: its decisions, history digest and final-state digest (both empty
    when ``digest`` is false: the benchmark times play alone)."""
    from mnrules import new_game
    from mnrules.bots import make_bot

    rules = rules_for(spec.pack)
    game = new_game(rules, spec.players, seed=spec.seed, round_cap=spec.cap)
    bots = {p: make_bot(spec.bot, spec.seed * 1009 + i, rules)
            for i, p in enumerate(game.state.players)}
    history = hashlib.sha256()
    decisions = 0
    while (dec := game.pending) is not None:
        choice = bots[dec.player].choose(game)
        if digest:
            line = json.dumps({"player": dec.player, "kind": dec.kind, "choice": choice},
                              ensure_ascii=False)
            history.update((line + "\n").encode())
        game.apply(choice)
        decisions += 1
    if not digest:
        return decisions, "", ""
    return decisions, history.hexdigest(), state_digest(game.snapshot())


def state_digest(state: Any) -> str:
    """SHA-256 of a state as canonical JSON, its generator included, the round cap not."""
    data = state.to_dict()
    data["vars"] = {k: v for k, v in data.get("vars", {}).items() if k != "round_cap"}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def digests(specs: tuple[Spec, ...] = GUARD) -> dict[str, dict[str, Any]]:
    out = {}
    for spec in specs:
        decisions, history, final = play(spec)
        out[spec.name] = {"decisions": decisions, "history": history, "state": final}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--record", action="store_true",
                    help=f"rewrite {DIGESTS.name} from the games as the code plays them now")
    args = ap.parse_args(argv)
    found = digests()
    if args.record:
        DIGESTS.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n",
                           encoding="utf-8")
        print(f"recorded {len(found)} games in {DIGESTS}")
        return 0
    known = json.loads(DIGESTS.read_text(encoding="utf-8"))
    differ = [name for name in found if found[name] != known.get(name)]
    print(f"{len(found) - len(differ)} of {len(found)} games as recorded"
          + (f"; differ: {', '.join(differ)}" if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())


def span(values: list[float], fmt: str) -> str:
    """A set of timings as the benchmarks print them: the median and the range."""
    return (f"median {format(statistics.median(values), fmt)} "
            f"(range {format(min(values), fmt)}-{format(max(values), fmt)})")
