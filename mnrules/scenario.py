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

from . import position as pos
from .effects import Event
from .engine import Game, as_choice
from .errors import MnrulesError
from .ruleset import load_ruleset
from .start import new_game
from .yamlsource import Sourced, load_yaml, suggest

KEYS = ("scenario", "edition", "variant", "players", "seed", "position", "forced",
        "choices", "expect", "expect_by_edition", "notes")
POSITION_KEYS = ("clear", "round", "phase", "titles", "control", "buildings", "units",
                 "resources", "tiles", "occupied", "marker_occupied", "frame", "vars")
EXPECT_KEYS = ("control", "units", "resources", "buildings", "tracks", "titles", "winners",
               "victory", "pending", "events", "supply", "tiles", "occupied", "round",
               "no_events")


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
    _check_keys(src, data.get("position") or {}, POSITION_KEYS, ("position",))
    _check_keys(src, data.get("expect") or {}, EXPECT_KEYS, ("expect",))
    return src, data


def editions(data: dict[str, Any]) -> list[str]:
    ed = data.get("edition", "en")
    return [str(e) for e in ed] if isinstance(ed, list) else [str(ed)]


def set_position(game: Game, p: dict[str, Any]) -> None:
    state = game.state
    if p.get("clear", True):
        pos.clear(game)
    if "round" in p:
        state.round = int(p["round"])
    for prov, who in (p.get("control") or {}).items():
        pos.set_marker(game, str(prov), who)
    for prov, specs in (p.get("buildings") or {}).items():
        for spec in specs:
            pos.build(game, str(prov), str(spec))
    for area, owners in (p.get("units") or {}).items():
        for who, kinds in owners.items():
            for kind, n in kinds.items():
                pos.add_units(game, str(who), str(area), str(kind), int(n))
    for who, res in (p.get("resources") or {}).items():
        pos.give(game, str(who), {str(k): int(v) for k, v in res.items()})
    for who, tiles in (p.get("tiles") or {}).items():
        pos.give_tiles(game, str(who), *[str(t) for t in tiles])
    for track, who in (p.get("titles") or {}).items():
        state.titles[str(track)] = str(who)
    for prov, slots in (p.get("occupied") or {}).items():
        for spec, who in slots.items():
            i = pos.slot_index(game, str(prov), str(spec), free=False)
            state.occupied[str(prov)][i] = str(who)
    for prov, who in (p.get("marker_occupied") or {}).items():
        state.marker_occupier[str(prov)] = str(who)
        state.vars.setdefault("conquest", {})[str(prov)] = {
            "player": str(who), "round": state.round - 1, "marker_round": state.round - 1}
    for key, value in (p.get("vars") or {}).items():
        state.vars[str(key)] = value
    if "phase" in p:
        pos.start_phase(game, str(p["phase"]), **(p.get("frame") or {}))


def _play(game: Game, choices: list[Any], failures: list[str]) -> None:
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


def _sub(expected: Any, actual: Any, path: str, failures: list[str]) -> None:
    """Partial match: every key the scenario names must match; others are not looked at."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, v in expected.items():
            _sub(v, actual.get(k, 0 if isinstance(v, int) else None), f"{path}.{k}", failures)
        return
    if isinstance(expected, list) and isinstance(actual, (list, tuple)):
        if [as_choice(x) for x in expected] != [as_choice(x) for x in actual]:
            failures.append(f"{path}: expected {expected!r}, got {list(actual)!r}")
        return
    if expected != actual:
        failures.append(f"{path}: expected {expected!r}, got {actual!r}")


def check(game: Game, expect: dict[str, Any], events: list[Event]) -> list[str]:
    state = game.state
    failures: list[str] = []
    for key, want in expect.items():
        if key == "control":
            _sub(want, state.control, "control", failures)
        elif key == "units":
            actual = {a: {p: dict(k) for p, k in who.items()} for a, who in state.units.items()}
            for area, owners in want.items():
                for who, kinds in (owners or {}).items():
                    got = actual.get(area, {}).get(who, {})
                    _sub(kinds or {}, got, f"units.{area}.{who}", failures)
                    if not kinds and got:
                        failures.append(f"units.{area}.{who}: expected none, got {got}")
        elif key == "resources":
            for who, res in want.items():
                screen = state.screens[who]
                if res == {} or res is None:
                    if screen:
                        failures.append(f"resources.{who}: expected none, got {screen}")
                    continue
                _sub(res, screen, f"resources.{who}", failures)
        elif key == "buildings":
            for prov, specs in want.items():
                slots = game.rules.board.provinces[prov].slots
                built = sorted(slots[i].spec for i, b in enumerate(state.built[prov]) if b)
                if sorted(specs) != built:
                    failures.append(f"buildings.{prov}: expected {sorted(specs)}, got {built}")
        elif key == "occupied":
            for prov, slots in want.items():
                occ: dict[str, str] = {game.rules.board.provinces[prov].slots[i].spec: who
                                       for i, who in enumerate(state.occupied[prov]) if who}
                _sub(slots, occ, f"occupied.{prov}", failures)
        elif key == "tracks":
            _sub(want, game.report(), "tracks", failures)
        elif key in ("titles", "supply"):
            _sub(want, getattr(state, key), key, failures)
        elif key == "tiles":
            _sub(want, state.tiles, "tiles", failures)
        elif key == "winners":
            _sub(list(want), state.winners, "winners", failures)
        elif key in ("victory", "round"):
            _sub(want, getattr(state, key), key, failures)
        elif key == "pending":
            dec = game.pending
            now: dict[str, str] | None = {"player": dec.player, "kind": dec.kind} \
                if dec else None
            if want is None:
                if now is not None:
                    failures.append(f"pending: expected none, got {now}")
            else:
                _sub(want, now or {}, "pending", failures)
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
    _, data = load(file)
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
            game = new_game(rules, data.get("players", 5), seed=int(data.get("seed", 1)))
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
