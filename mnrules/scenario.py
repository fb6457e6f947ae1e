"""Scenario files: a position, forced chance, a sequence of choices, and expectations
on the resulting state and on the events that happened (docs/scenarios.md).

A scenario names the editions (and variant) it runs under; each run reports every
failed expectation as expected against actual.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .effects import Event
from .engine import Game, as_choice
from .errors import MnrulesError, StateError
from .ruleset import Ruleset, load_ruleset
from .start import new_game
from .yamlsource import Sourced, load_yaml, suggest

KEYS = ("scenario", "edition", "variant", "players", "seed", "position", "forced",
        "choices", "expect", "expect_by_edition", "notes")
POSITION_KEYS = ("round", "phase", "frame", "vars")
EXPECT_KEYS = ("winners", "victory", "pending", "events", "round", "no_events", "report")


class ScenarioError(MnrulesError):
    """A scenario file that cannot be run as written."""


@dataclass
class Outcome:
    file: str
    name: str
    edition: str
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def _check_keys(src: Sourced, data: dict[str, Any], allowed: tuple[str, ...],
                path: tuple[str, ...]) -> None:
    for key in data:
        if key not in allowed:
            hint = suggest(str(key), allowed)
            p = src.position((*path, key))
            at = f":{p[0]}:{p[1]}" if p else ""
            dotted = ".".join((*path, str(key)))
            raise ScenarioError(f"{src.file}{at}: {dotted}: unknown key"
                                + (f"; did you mean {hint!r}?" if hint else
                                   f"; expected one of {', '.join(allowed)}"))


def load(file: str | Path) -> tuple[Sourced, dict[str, Any]]:
    src = load_yaml(file)
    if not isinstance(src.data, dict):
        raise ScenarioError(f"{file}: a scenario must be a mapping of keys")
    data: dict[str, Any] = src.data
    _check_keys(src, data, KEYS, ())
    return src, data


def check_keys(rules: Ruleset, src: Sourced, data: dict[str, Any]) -> None:
    """Refuse position and expectation keys neither the kernel nor the game knows."""
    game_keys = rules.hook.mn_scenario_keys() or {}
    _check_keys(src, data.get("position") or {},
                (*POSITION_KEYS, *game_keys.get("position", ())), ("position",))
    _check_keys(src, data.get("expect") or {},
                (*EXPECT_KEYS, *game_keys.get("expect", ())), ("expect",))


def editions(data: dict[str, Any]) -> list[str]:
    ed = data.get("edition", "en")
    return [str(e) for e in ed] if isinstance(ed, list) else [str(ed)]


def set_position(game: Game[Any], p: dict[str, Any]) -> None:
    """The game sets its part (``mn_set_position``), then the round, the plugins' vars,
    and the phase to start in (with its frame)."""
    game.rules.hook.mn_set_position(game=game, position=p)
    state = game.state
    if "round" in p:
        state.round = int(p["round"])
    for key, value in (p.get("vars") or {}).items():
        state.vars[str(key)] = value
    if "phase" in p:
        start_phase(game, str(p["phase"]), **(p.get("frame") or {}))


def start_phase(game: Game[Any], phase: str, round: int | None = None, **frame: Any) -> None:
    """Make ``phase`` of the current round (or ``round``) the next thing the game plays."""
    state = game.state
    if round is not None:
        state.round = round
    phases = game.rules.phases
    if phase not in phases:
        raise StateError(f"the pack has no phase {phase!r}; its phases: {phases}")
    state.stack = [{"step": "game"}, {"step": "round", "i": phases.index(phase),
                                      "running": True}]
    state.phase = phase
    game.rules.hook.mn_phase_start(game=game, phase=phase)
    state.stack.append({"step": phase, **frame})
    game._pending = None
    # as RoundStep does: what reacts to a phase's start (a card's question) runs first
    game.perform(Event("phase_start", None, {"phase": phase}), lambda e: None)


def _play(game: Game[Any], choices: list[Any], failures: list[str]) -> None:
    for i, c in enumerate(choices, 1):
        dec = game.pending
        if dec is None:
            failures.append(f"choice {i} ({c!r}): the game is over")
            return
        if isinstance(c, dict) and "until" in c:
            kind = str(c["until"])
            rnd = c.get("round")
            for _ in range(int(c.get("limit", 2000))):
                d = game.pending
                if d is None or (d.kind == kind and (rnd is None or game.state.round == rnd)):
                    break
                game.apply(("done",) if ("done",) in d.options else d.options[0])
            else:
                failures.append(f"choice {i}: no {kind} decision came")
                return
            continue
        try:
            game.apply(as_choice(c))
        except MnrulesError as exc:
            failures.append(f"choice {i} ({c!r}) at {dec.player} {dec.kind}: {exc}")
            return


def sub(expected: Any, actual: Any, path: str, failures: list[str]) -> None:
    """Partial match: every key the scenario names must match; others are not looked at."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, v in expected.items():
            sub(v, actual.get(k, 0 if isinstance(v, int) else None), f"{path}.{k}", failures)
        return
    if isinstance(expected, list) and isinstance(actual, (list, tuple)):
        if [as_choice(x) for x in expected] != [as_choice(x) for x in actual]:
            failures.append(f"{path}: expected {expected!r}, got {list(actual)!r}")
        return
    if expected != actual:
        failures.append(f"{path}: expected {expected!r}, got {actual!r}")


def check(game: Game[Any], expect: dict[str, Any], events: list[Event]) -> list[str]:
    state = game.state
    failures: list[str] = []
    for key, want in expect.items():
        found = game.rules.hook.mn_expect(game=game, key=key, want=want)
        if found is not None:
            failures.extend(found)
        elif key == "report":
            sub(want, game.report(), "report", failures)
        elif key == "winners":
            sub(list(want), state.winners, "winners", failures)
        elif key in ("victory", "round"):
            sub(want, getattr(state, key), key, failures)
        elif key == "pending":
            dec = game.pending
            now: dict[str, str] | None = {"player": dec.player, "kind": dec.kind} \
                if dec else None
            if want is None:
                if now is not None:
                    failures.append(f"pending: expected none, got {now}")
            else:
                sub(want, now or {}, "pending", failures)
        elif key == "events":
            for i, ev in enumerate(want, 1):
                if not any(_event_matches(ev, e) for e in events):
                    kinds = sorted({e.kind for e in events})
                    failures.append(f"events[{i}]: no event matching {ev!r} (events seen: "
                                    f"{', '.join(kinds)})")
        elif key == "no_events":
            for ev in want:
                if any(_event_matches(ev, e) for e in events):
                    failures.append(f"no_events: an event matching {ev!r} happened")
    return failures


def _event_matches(want: dict[str, Any], ev: Event) -> bool:
    if want.get("kind") not in (None, ev.kind):
        return False
    if "player" in want and want["player"] != ev.player:
        return False
    for k, v in want.items():
        if k in ("kind", "player"):
            continue
        got = ev.data.get(k)
        if isinstance(v, dict) and isinstance(got, dict):
            if any(got.get(kk) != vv for kk, vv in v.items()):
                return False
        elif as_choice(v) != as_choice(got) if isinstance(v, list) else v != got:
            return False
    return True


def run(file: str | Path, only: str | None = None) -> Iterator[Outcome]:
    """Run a scenario under each edition it names (or only under ``only``)."""
    src, data = load(file)
    name = str(data.get("scenario", Path(file).stem))
    for edition in editions(data):
        if only is not None and edition != only:
            continue
        out = Outcome(str(file), name, edition)
        try:
            variant = data.get("variant")
            if variant and not Path(str(variant)).is_absolute():
                variant = str(Path(file).parent / str(variant))
            rules = load_ruleset(edition, variant=variant)
        except MnrulesError as exc:
            out.failures.append(f"error: {exc}")
            yield out
            continue
        check_keys(rules, src, data)
        try:
            game = new_game(rules, data.get("players") or max(rules.seating, default=1),
                            seed=int(data.get("seed", 1)))
            events: list[Event] = []
            game.listeners.append(events.append)
            set_position(game, data.get("position") or {})
            for label, outcomes in (data.get("forced") or {}).items():
                game.force(str(label), list(outcomes))
            _play(game, list(data.get("choices") or []), out.failures)
            _ = game.pending  # settle: what follows the last choice happens before checking
            expect = dict(data.get("expect") or {})
            expect.update((data.get("expect_by_edition") or {}).get(edition, {}))
            out.failures.extend(check(game, expect, events))
        except MnrulesError as exc:
            out.failures.append(f"error: {exc}")
        yield out
