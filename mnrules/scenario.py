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
from .errors import InvalidChoice, MnrulesError, StateError
from .ruleset import load_ruleset
from .start import new_game
from .state import MAX_INT, MAX_ROUND
from .yamlsource import Sourced, load_yaml, suggest

KEYS = ("scenario", "edition", "variant", "players", "seed", "position", "forced",
        "choices", "expect", "expect_by_edition", "notes")
POSITION_KEYS = ("clear", "round", "phase", "titles", "control", "buildings", "units",
                 "resources", "tiles", "occupied", "marker_occupied", "frame", "vars")
EXPECT_KEYS = ("control", "units", "resources", "buildings", "tracks", "titles", "winners",
               "victory", "pending", "events", "supply", "tiles", "occupied", "round",
               "no_events")


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
    _Schema(src).scenario(data)
    return src, data


def _fail(src: Sourced, path: tuple[str | int, ...], message: str) -> ScenarioError:
    return ScenarioError(str(src.problem(path, message)))


Path_ = tuple[str | int, ...]


class _Schema:
    """The kind of value each key of a scenario holds (docs/scenarios.md)."""

    def __init__(self, src: Sourced) -> None:
        self.src = src

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
        _check_keys(self.src, p, POSITION_KEYS, ("position",))
        at = ("position",)
        if "clear" in p and not isinstance(p["clear"], bool):
            raise self.fail((*at, "clear"), f"expected true or false, got {_kind(p['clear'])}")
        if "round" in p:
            self.whole(p["round"], (*at, "round"), 1, MAX_ROUND)
        if "phase" in p:
            self.text(p["phase"], (*at, "phase"))
        self.name_map(p.get("titles"), (*at, "titles"))
        self.name_map(p.get("control"), (*at, "control"), allow_null=True)
        for prov, specs in self.mapping(p.get("buildings"), (*at, "buildings")).items():
            self.names(specs, (*at, "buildings", prov))
        for area, owners in self.mapping(p.get("units"), (*at, "units")).items():
            for who, kinds in self.mapping(owners, (*at, "units", area)).items():
                self.counts(kinds, (*at, "units", area, who), 1)
        for who, res in self.mapping(p.get("resources"), (*at, "resources")).items():
            self.counts(res, (*at, "resources", who), 0)
        for who, tiles in self.mapping(p.get("tiles"), (*at, "tiles")).items():
            self.names(tiles, (*at, "tiles", who))
        for prov, slots in self.mapping(p.get("occupied"), (*at, "occupied")).items():
            self.name_map(slots, (*at, "occupied", prov))
        self.name_map(p.get("marker_occupied"), (*at, "marker_occupied"))
        for k in self.mapping(p.get("frame"), (*at, "frame")):
            self.text(k, (*at, "frame", k))
        self.mapping(p.get("vars"), (*at, "vars"))

    def expect(self, value: Any, at: Path_) -> None:
        e = self.mapping(value, at)
        _check_keys(self.src, e, EXPECT_KEYS, at)
        self.name_map(e.get("control"), (*at, "control"), allow_null=True)
        for area, owners in self.mapping(e.get("units"), (*at, "units")).items():
            for who, kinds in self.mapping(owners, (*at, "units", area)).items():
                self.counts(kinds, (*at, "units", area, who), 0, allow_null=True)
        for who, res in self.mapping(e.get("resources"), (*at, "resources")).items():
            self.counts(res, (*at, "resources", who), 0, allow_null=True)
        for prov, specs in self.mapping(e.get("buildings"), (*at, "buildings")).items():
            self.names(specs, (*at, "buildings", prov))
        for who, tracks in self.mapping(e.get("tracks"), (*at, "tracks")).items():
            self.mapping(tracks, (*at, "tracks", who))
        self.name_map(e.get("titles"), (*at, "titles"), allow_null=True)
        self.counts(e.get("supply"), (*at, "supply"), 0)
        for who, tiles in self.mapping(e.get("tiles"), (*at, "tiles")).items():
            self.names(tiles, (*at, "tiles", who))
        for prov, slots in self.mapping(e.get("occupied"), (*at, "occupied")).items():
            self.name_map(slots, (*at, "occupied", prov), allow_null=True)
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


def set_position(game: Game, p: dict[str, Any], src: Sourced | None = None) -> None:
    """Set up the position a scenario's ``position`` key describes (checked by
    :func:`load`); an edit the board or the box refuses names its key (and line, given
    the ``src`` it was read from)."""
    state = game.state
    at = _At(src)
    with at("clear"):
        if p.get("clear", True):
            pos.clear(game)
    if "round" in p:
        state.round = int(p["round"])
    for prov, who in (p.get("control") or {}).items():
        with at("control", prov):
            pos.set_marker(game, str(prov), None if who is None else str(who))
    for prov, specs in (p.get("buildings") or {}).items():
        for i, spec in enumerate(specs or ()):
            with at("buildings", prov, i):
                pos.build(game, str(prov), str(spec))
    for area, owners in (p.get("units") or {}).items():
        for who, kinds in (owners or {}).items():
            for kind, n in (kinds or {}).items():
                with at("units", area, who, kind):
                    pos.add_units(game, str(who), str(area), str(kind), n)
    for who, res in (p.get("resources") or {}).items():
        with at("resources", who):
            pos.give(game, str(who), {str(k): v for k, v in (res or {}).items()})
    for who, tiles in (p.get("tiles") or {}).items():
        with at("tiles", who):
            pos.give_tiles(game, str(who), *[str(t) for t in tiles or ()])
    for track, who in (p.get("titles") or {}).items():
        with at("titles", track):
            if str(who) not in state.players:
                raise StateError(f"{who!r} does not play")
            state.titles[str(track)] = str(who)
    for prov, slots in (p.get("occupied") or {}).items():
        for spec, who in (slots or {}).items():
            with at("occupied", prov, spec):
                if str(who) not in state.players:
                    raise StateError(f"{who!r} does not play")
                i = pos.slot_index(game, str(prov), str(spec), free=False)
                state.occupied[str(prov)][i] = str(who)
    for prov, who in (p.get("marker_occupied") or {}).items():
        with at("marker_occupied", prov):
            if str(prov) not in state.control:
                raise StateError(f"{prov!r} is not a province in play")
            if str(who) not in state.players:
                raise StateError(f"{who!r} does not play")
            state.marker_occupier[str(prov)] = str(who)
            state.vars.setdefault("conquest", {})[str(prov)] = {
                "player": str(who), "round": state.round - 1,
                "marker_round": state.round - 1}
    for key, value in (p.get("vars") or {}).items():
        state.vars[str(key)] = value
    if "phase" in p:
        with at("phase"):
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


def _tupled(value: Any) -> Any:
    """Lists as tuples, all the way down, so that YAML lists compare with options."""
    if isinstance(value, list | tuple):
        return tuple(_tupled(v) for v in value)
    return value


def _sub(expected: Any, actual: Any, path: str, failures: list[str]) -> None:
    """Partial match: every key the scenario names must match; others are not looked at."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, v in expected.items():
            _sub(v, actual.get(k, 0 if isinstance(v, int) else None), f"{path}.{k}", failures)
        return
    if isinstance(expected, list) and isinstance(actual, (list, tuple)):
        if _tupled(expected) != _tupled(actual):
            failures.append(f"{path}: expected {expected!r}, got {list(actual)!r}")
        return
    if expected != actual:
        failures.append(f"{path}: expected {expected!r}, got {actual!r}")


def check(game: Game, expect: dict[str, Any], events: list[Event]) -> list[str]:
    state = game.state
    failures: list[str] = []
    for key, want in expect.items():
        if want is None and key not in ("pending", "victory", "round"):
            want = [] if key in ("events", "no_events", "winners") else {}
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
                if who not in state.screens:
                    failures.append(f"resources.{who}: {who!r} does not play")
                    continue
                screen = state.screens[who]
                if res == {} or res is None:
                    if screen:
                        failures.append(f"resources.{who}: expected none, got {screen}")
                    continue
                _sub(res, screen, f"resources.{who}", failures)
        elif key == "buildings":
            for prov, specs in want.items():
                if prov not in state.built:
                    failures.append(f"buildings.{prov}: not a province in play")
                    continue
                slots = game.rules.board.provinces[prov].slots
                built = sorted(slots[i].spec for i, b in enumerate(state.built[prov]) if b)
                if sorted(specs) != built:
                    failures.append(f"buildings.{prov}: expected {sorted(specs)}, got {built}")
        elif key == "occupied":
            for prov, slots in want.items():
                if prov not in state.occupied:
                    failures.append(f"occupied.{prov}: not a province in play")
                    continue
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
            game = new_game(rules, data.get("players", 5), seed=data.get("seed", 1))
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
