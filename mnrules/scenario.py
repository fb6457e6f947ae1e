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
from .errors import InvalidChoice, MnrulesError, StateError
from .ruleset import load_ruleset
from .start import new_game
from .state import MAX_INT, MAX_ROUND
from .yamlsource import Sourced, load_yaml, suggest

KEYS = ("scenario", "edition", "variant", "players", "seed", "position", "forced",
        "choices", "expect", "expect_by_edition", "notes")
POSITION_KEYS = ("round", "phase", "frame", "vars")
EXPECT_KEYS = ("winners", "victory", "pending", "events", "round", "no_events", "report")
"""The kernel's keys of ``position`` and ``expect``; a game adds its own
(``mn_scenario_keys``) and checks their values (``mn_scenario_schema``)."""
MAX_COUNT = 1_000
"""The most of one thing a scenario may place or expect (the box holds far fewer)."""


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
                path: tuple[str | int, ...]) -> None:
    for key in data:
        if key not in allowed:
            hint = suggest(str(key), allowed)
            p = src.position((*path, key))
            at = f":{p[0]}:{p[1]}" if p else ""
            dotted = src.key_string((*path, key))
            raise ScenarioError(f"{src.file}{at}: {dotted}: unknown key"
                                + (f"; did you mean {hint!r}?" if hint else
                                   f"; expected one of {', '.join(allowed)}"))


def load(file: str | Path) -> tuple[Sourced, dict[str, Any]]:
    """A scenario file, every key checked for its kind of value: a problem is a
    :class:`ScenarioError` naming ``file:line:column`` and the key."""
    try:
        src = load_yaml(file)
    except ValueError as exc:  # a number of thousands of digits
        raise ScenarioError(f"{file}: {exc}") from None
    if not isinstance(src.data, dict):
        raise ScenarioError(f"{file}: a scenario must be a mapping of keys")
    data: dict[str, Any] = src.data
    _check_keys(src, data, KEYS, ())
    _Schema(src, _game_hooks(data)).scenario(data)
    return src, data


def _game_hooks(data: dict[str, Any]) -> Any:
    """The hooks of the game the scenario's first edition plays (its keys and their
    kinds), read without assembling the rule set; None when the pack cannot be read
    (running it will say why)."""
    from . import hookspecs, packs
    from .bus import Bus
    from .ruleset import game_module

    editions_ = data.get("edition", "en")
    first = editions_[0] if isinstance(editions_, list) and editions_ else editions_
    if not isinstance(first, str):
        return None
    try:
        game = str(packs.read(first).data.get("game") or "")
        module = game_module(game, "edition")
    except MnrulesError:
        return None
    bus = Bus(hookspecs.PROJECT)
    bus.add_hookspecs(hookspecs)
    bus.register(module, name="game")
    return bus.hook


def _fail(src: Sourced, path: tuple[str | int, ...], message: str) -> ScenarioError:
    return ScenarioError(str(src.problem(path, message)))


Path_ = tuple[str | int, ...]


class _Schema:
    """The kind of value each key of a scenario holds (docs/scenarios.md)."""

    def __init__(self, src: Sourced, hooks: Any = None) -> None:
        self.src = src
        self.hooks = hooks          # the game's (its own keys), or None
        self.keys: dict[str, tuple[str, ...]] = (hooks.mn_scenario_keys() or {}) \
            if hooks is not None else {}

    def fail(self, path: Path_, message: str) -> ScenarioError:
        return _fail(self.src, path, message)

    # -- kinds of values -----------------------------------------------------------------
    def mapping(self, value: Any, path: Path_, allow_null: bool = True) -> dict[Any, Any]:
        if value is None and allow_null:
            return {}
        if not isinstance(value, dict):
            raise self.fail(path, f"expected a mapping, got {_kind(value)}")
        return value

    def seq(self, value: Any, path: Path_, allow_null: bool = True) -> list[Any]:
        if value is None and allow_null:
            return []
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list, got {_kind(value)}")
        return value

    def text(self, value: Any, path: Path_, allow_null: bool = False) -> None:
        if value is None and allow_null:
            return
        if not isinstance(value, str):
            raise self.fail(path, f"expected a name, got {_kind(value)}")

    def whole(self, value: Any, path: Path_, low: int = -MAX_INT, high: int = MAX_INT) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected a whole number, got {_kind(value)}")
        if not low <= value <= high:
            raise self.fail(path, f"{value} is out of bounds ({low} to {high:,})")

    def names(self, value: Any, path: Path_) -> None:
        for i, item in enumerate(self.seq(value, path)):
            self.text(item, (*path, i))

    def name_map(self, value: Any, path: Path_, allow_null: bool = False) -> None:
        for k, v in self.mapping(value, path).items():
            self.text(v, (*path, k), allow_null)

    def counts(self, value: Any, path: Path_, low: int, allow_null: bool = False) -> None:
        if value is None and allow_null:
            return
        for k, v in self.mapping(value, path).items():
            self.whole(v, (*path, k), low, MAX_COUNT)

    # -- the file ------------------------------------------------------------------------
    def scenario(self, data: dict[str, Any]) -> None:
        ed = data.get("edition", "en")
        if isinstance(ed, list):
            if not ed:
                raise self.fail(("edition",), "expected at least one edition")
            self.names(ed, ("edition",))
        else:
            self.text(ed, ("edition",))
        self.text(data.get("variant"), ("variant",), allow_null=True)
        players = data.get("players", 5)
        if isinstance(players, list):
            self.names(players, ("players",))
        else:
            self.whole(players, ("players",), 1, 99)
        self.whole(data.get("seed", 1), ("seed",))
        self.position(self.mapping(data.get("position"), ("position",)))
        forced = self.mapping(data.get("forced"), ("forced",))
        for label, outcomes in forced.items():
            for i, v in enumerate(self.seq(outcomes, ("forced", label), allow_null=False)):
                self.choice(v, ("forced", label, i), "a chance outcome")
        for i, c in enumerate(self.seq(data.get("choices"), ("choices",))):
            if isinstance(c, dict):
                _check_keys(self.src, c, ("until", "round", "limit"), ("choices", i))
                self.text(c.get("until"), ("choices", i, "until"))
                if "round" in c:
                    self.whole(c["round"], ("choices", i, "round"), 1, MAX_ROUND)
                if "limit" in c:
                    self.whole(c["limit"], ("choices", i, "limit"), 1, 100_000)
            else:
                self.choice(c, ("choices", i), "a choice")
        self.expect(data.get("expect"), ("expect",))
        by_edition = self.mapping(data.get("expect_by_edition"), ("expect_by_edition",))
        for ed_name, expect in by_edition.items():
            self.expect(expect, ("expect_by_edition", ed_name))

    def choice(self, value: Any, path: Path_, what: str) -> None:
        try:
            as_choice(value)
        except InvalidChoice as exc:
            raise self.fail(path, f"not {what}: {exc.detail}") from None

    def position(self, p: dict[str, Any]) -> None:
        _check_keys(self.src, p, (*POSITION_KEYS, *self.keys.get("position", ())),
                    ("position",))
        at = ("position",)
        if "round" in p:
            self.whole(p["round"], (*at, "round"), 1, MAX_ROUND)
        if "phase" in p:
            self.text(p["phase"], (*at, "phase"))
        for k in self.mapping(p.get("frame"), (*at, "frame")):
            self.text(k, (*at, "frame", k))
        self.mapping(p.get("vars"), (*at, "vars"))
        if self.hooks is not None:
            self.hooks.mn_scenario_schema(schema=self, section="position", data=p, at=at)

    def expect(self, value: Any, at: Path_) -> None:
        e = self.mapping(value, at)
        _check_keys(self.src, e, (*EXPECT_KEYS, *self.keys.get("expect", ())), at)
        if "winners" in e:
            self.names(e["winners"], (*at, "winners"))
        if "victory" in e:
            self.text(e["victory"], (*at, "victory"))
        if "round" in e:
            self.whole(e["round"], (*at, "round"), 1, MAX_ROUND)
        if e.get("pending") is not None:
            pending = self.mapping(e["pending"], (*at, "pending"))
            _check_keys(self.src, pending, ("player", "kind"),
                        (*at, "pending"))
            for k, v in pending.items():
                self.text(v, (*at, "pending", k))
        for key in ("events", "no_events"):
            for i, ev in enumerate(self.seq(e.get(key), (*at, key))):
                self.mapping(ev, (*at, key, i), allow_null=False)
        self.mapping(e.get("report"), (*at, "report"))
        if self.hooks is not None:
            self.hooks.mn_scenario_schema(schema=self, section="expect", data=e, at=at)


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true or false)"
    if isinstance(value, str | int | float):
        return repr(value) if len(repr(value)) <= 40 else f"a {type(value).__name__}"
    return {"list": "a list", "dict": "a mapping"}.get(type(value).__name__,
                                                        type(value).__name__)


def editions(data: dict[str, Any]) -> list[str]:
    ed = data.get("edition", "en")
    return [str(e) for e in ed] if isinstance(ed, list) else [str(ed)]


class _At:
    """Names the scenario's key when a position edit is refused: the edit's error (an
    unknown name, more than the box holds) becomes a ScenarioError at its line."""

    def __init__(self, src: Sourced | None) -> None:
        self.src = src
        self.path: Path_ = ()

    def __call__(self, *path: str | int) -> _At:
        self.path = ("position", *path)
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: object) -> None:
        if exc is None or not isinstance(exc, StateError | KeyError | IndexError
                                         | TypeError | ValueError):
            return
        why = f"no {exc}" if isinstance(exc, KeyError) else str(exc)
        if self.src is None:
            raise ScenarioError(f"{'.'.join(str(x) for x in self.path)}: {why}") from None
        raise _fail(self.src, self.path, why) from None


def set_position(game: Game[Any], p: dict[str, Any], src: Sourced | None = None) -> None:
    """Set up the position a scenario's ``position`` key describes (checked by
    :func:`load`): the game's part first (``mn_set_position``: its board, screens...),
    then the round, the plugins' vars and the phase to start in. An edit the game
    refuses names its key (and line, given the ``src`` it was read from)."""
    state = game.state
    at = _At(src)
    if "round" in p:
        state.round = int(p["round"])
    game.rules.hook.mn_set_position(game=game, position=p, at=at)
    for key, value in (p.get("vars") or {}).items():
        state.vars[str(key)] = value
    if "phase" in p:
        with at("phase"):
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


def _tupled(value: Any) -> Any:
    """Lists as tuples, all the way down, so that YAML lists compare with options."""
    if isinstance(value, list | tuple):
        return tuple(_tupled(v) for v in value)
    return value


def sub(expected: Any, actual: Any, path: str, failures: list[str]) -> None:
    """Partial match: every key the scenario names must match; others are not looked at."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, v in expected.items():
            sub(v, actual.get(k, 0 if isinstance(v, int) else None), f"{path}.{k}", failures)
        return
    if isinstance(expected, list) and isinstance(actual, (list, tuple)):
        if _tupled(expected) != _tupled(actual):
            failures.append(f"{path}: expected {expected!r}, got {list(actual)!r}")
        return
    if expected != actual:
        failures.append(f"{path}: expected {expected!r}, got {actual!r}")


def check(game: Game[Any], expect: dict[str, Any], events: list[Event]) -> list[str]:
    state = game.state
    failures: list[str] = []
    for key, want in expect.items():
        if want is None and key not in ("pending", "victory", "round"):
            want = [] if key in ("events", "no_events", "winners") else {}
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
        elif _tupled(v) != _tupled(got) if isinstance(v, list) else v != got:
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
            game = new_game(rules, data.get("players") or max(rules.seating, default=1),
                            seed=data.get("seed", 1))
            events: list[Event] = []
            game.listeners.append(events.append)
            set_position(game, data.get("position") or {}, src)
            for label, outcomes in (data.get("forced") or {}).items():
                game.force(str(label), list(outcomes))
            _play(game, list(data.get("choices") or []), out.failures)
            _ = game.pending  # settle: what follows the last choice happens before checking
            expect = dict(data.get("expect") or {})
            expect.update((data.get("expect_by_edition") or {}).get(edition) or {})
            out.failures.extend(check(game, expect, events))
        except MnrulesError as exc:
            out.failures.append(f"error: {exc}")
        yield out
