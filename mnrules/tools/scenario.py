"""Scenario files: a position, forced chance, a sequence of choices, and expectations
on the resulting state and on the events that happened (docs/scenarios.md).

A scenario names the editions (and variant, and player counts) it runs under; each run
reports every failed expectation as expected against actual. A run that cannot go on
(an illegal choice, a decision that never comes, a crash of the rules or of the runner)
is a failure of that run, saying where the game stood; only a file that cannot be read
as a scenario raises (:class:`ScenarioError`, naming file, line, column and key).

The kernel's keys are read here; a game adds its own ``position`` and ``expect`` keys
through its definition's ``scenario`` (:class:`mnrules.core.definition.ScenarioSupport`):
its keys, their checks, how a position is set and an expectation checked; a game that
declares none may set and expect each field its state declares.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..content.ruleset import Ruleset, load_ruleset
from ..content.yamlsource import Sourced, did_you_mean, load_yaml
from ..core.definition import GameDefinition
from ..core.effects import Event
from ..core.engine import Game, as_choice
from ..core.start import new_game
from ..core.state import MAX_INT, MAX_ROUND
from ..errors import IllegalChoice, InvalidChoice, MnrulesError, StateError

KEYS = ("scenario", "edition", "variant", "players", "seed", "position", "forced",
        "choices", "expect", "expect_by_edition", "expect_by_players", "notes")
POSITION_KEYS = ("round", "phase", "frame", "vars")
EXPECT_KEYS = ("winners", "victory", "pending", "events", "no_events", "events_in_order",
               "round", "phase", "vars", "report")
"""The kernel's keys of ``position`` and ``expect``; a game adds its own
(:func:`scenario_keys`) and checks their values."""
ADDED = ("events", "no_events", "events_in_order")
"""The lists of an ``expect`` that ``expect_by_edition``/``expect_by_players`` add to
(every other value they name replaces the shared one; mappings merge key by key)."""
PENDING_KEYS = ("player", "kind", "options")
EVENT_KEYS = ("kind", "player", "data", "count")
"""The keys of an event pattern that are not the event's data (``data:`` holds data keys
of those names)."""
STEPS = {"until": ("round", "limit"), "refused": ("rule",), "expect": ("at",),
         "by_edition": (), "by_players": ()}
"""The kinds of step a ``choices`` item may be besides a plain choice, with the keys each
may add."""
END = "end"
"""``until: end``: play on to the game's end."""
MAX_COUNT = 1_000
"""The most of one thing a scenario may place or expect (the box holds far fewer)."""
SHOWN_OPTIONS = 12
"""Options listed when a scenario stops early."""


class ScenarioError(MnrulesError):
    """A scenario file that cannot be run as written."""


@dataclass
class Outcome:
    file: str
    name: str
    edition: str
    failures: list[str] = field(default_factory=list)
    players: str = ""
    """The player count or seating of this run, when the file names several."""

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def label(self) -> str:
        """``en`` or ``en, 3 players``: which run of the file this is."""
        return f"{self.edition}, {self.players}" if self.players else self.edition


def _check_keys(src: Sourced, data: dict[str, Any], allowed: tuple[str, ...],
                path: tuple[str | int, ...]) -> None:
    for key in data:
        if key not in allowed:
            p = src.position((*path, key))
            at = f":{p[0]}:{p[1]}" if p else ""
            dotted = src.key_string((*path, key))
            raise ScenarioError(f"{src.file}{at}: {dotted}: unknown key"
                                + did_you_mean(str(key), allowed,
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
    _Schema(src, _game_definition(data)).scenario(data)
    return src, data


def _game_definition(data: dict[str, Any]) -> GameDefinition | None:
    """The definition of the game the scenario's first edition plays (its keys and their
    kinds), read without assembling the rule set; None when the pack cannot be read
    (running it will say why)."""
    from ..content import packs
    from ..content.ruleset import game_definition, game_module

    editions_ = data.get("edition") or packs.default_pack()
    first = editions_[0] if isinstance(editions_, list) and editions_ else editions_
    if not isinstance(first, str):
        return None
    try:
        game = str(packs.read(first).data.get("game") or "")
        return game_definition(game_module(game, "edition"), game, "edition")
    except MnrulesError:
        return None


def scenario_keys(game: GameDefinition) -> dict[str, tuple[str, ...]]:
    """The game's own keys of a scenario's ``position`` and ``expect``: those it
    declares, or the fields its state declares beyond the kernel's."""
    if game.scenario.keys is not None:
        return {k: tuple(v) for k, v in game.scenario.keys.items()}
    own = game.state.game_fields()
    return {"position": own, "expect": own}


def _fail(src: Sourced, path: tuple[str | int, ...], message: str) -> ScenarioError:
    return ScenarioError(str(src.problem(path, message)))


Path_ = tuple[str | int, ...]
YAML_BOOLS = ("yes", "no", "on", "off", "y", "n")


def yaml_hint(word: str, value: bool) -> str:
    """What to write when YAML read a word as true or false."""
    return (f"YAML reads {word} as {str(value).lower()}: to mean the word, quote it: "
            f"'{word}'")


class _Schema:
    """The kind of value each key of a scenario holds (docs/scenarios.md)."""

    def __init__(self, src: Sourced, game: GameDefinition | None = None) -> None:
        self.src = src
        self.game = game            # its own keys, or None
        self.keys: dict[str, tuple[str, ...]] = dict(scenario_keys(game)) \
            if game is not None else {}
        self._lines: list[str] | None = None

    def fail(self, path: Path_, message: str) -> ScenarioError:
        return _fail(self.src, path, message)

    def word(self, path: Path_) -> str | None:
        """The word written in the file for the value at ``path`` (a YAML ``yes`` that
        became true), if it can be found."""
        pos = self.src.positions.get(tuple(path))
        if pos is None:
            return None
        if self._lines is None:
            try:
                self._lines = Path(self.src.file).read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._lines = []
        line, column = pos
        if not 0 < line <= len(self._lines):
            return None
        text = self._lines[line - 1][column - 1:]
        if path and isinstance(path[-1], str):   # a mapping's key: its value follows
            text = text.partition(":")[2]
        found = re.match(r"\s*([A-Za-z]+)", text)
        return found.group(1) if found else None

    def bool_hint(self, value: Any, path: Path_) -> str:
        if not isinstance(value, bool):
            return ""
        word = self.word(path)
        if word is None or word.lower() not in YAML_BOOLS:
            return ""
        return f"; {yaml_hint(word, value)}"

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
            raise self.fail(path, f"expected a name, got {_kind(value)}"
                            + self.bool_hint(value, path))

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

    def choice(self, value: Any, path: Path_, what: str) -> None:
        try:
            as_choice(value)
        except InvalidChoice as exc:
            hint = self.bool_hint(value, path)
            for i, item in enumerate(value if isinstance(value, list) else ()):
                hint = hint or self.bool_hint(item, (*path, i))
            raise self.fail(path, f"not {what}: {exc.detail}{hint}") from None

    # -- the file ------------------------------------------------------------------------
    def scenario(self, data: dict[str, Any]) -> None:
        ed = data.get("edition")
        if ed is None:   # an empty list is refused, not defaulted
            ed = _default_pack()
        if isinstance(ed, list):
            if not ed:
                raise self.fail(("edition",), "expected at least one edition")
            self.names(ed, ("edition",))
        else:
            self.text(ed, ("edition",))
        self.text(data.get("variant"), ("variant",), allow_null=True)
        self.players(data.get("players", 5))
        self.whole(data.get("seed", 1), ("seed",))
        self.position(self.mapping(data.get("position"), ("position",)))
        forced = self.mapping(data.get("forced"), ("forced",))
        for label, outcomes in forced.items():
            for i, v in enumerate(self.seq(outcomes, ("forced", label), allow_null=False)):
                self.choice(v, ("forced", label, i), "a chance outcome")
        self.steps(data.get("choices"), ("choices",))
        self.expect(data.get("expect"), ("expect",))
        by_edition = self.mapping(data.get("expect_by_edition"), ("expect_by_edition",))
        for ed_name, expect in by_edition.items():
            self.text(ed_name, ("expect_by_edition",))
            self.expect(expect, ("expect_by_edition", ed_name))
        by_players = self.mapping(data.get("expect_by_players"), ("expect_by_players",))
        for count, expect in by_players.items():
            self.whole(count, ("expect_by_players", count), 1, 99)
            self.expect(expect, ("expect_by_players", count))

    def players(self, players: Any) -> None:
        at: Path_ = ("players",)
        if not isinstance(players, list):
            self.whole(players, at, 1, 99)
            return
        if not players:
            raise self.fail(at, "expected a player count, a list of players or a list of "
                                "player counts (and lists of players)")
        if all(isinstance(p, str) for p in players):
            return                                  # one seating, by name
        for i, item in enumerate(players):          # one run per item
            if isinstance(item, list):
                self.names(item, (*at, i))
            else:
                self.whole(item, (*at, i), 1, 99)

    def steps(self, value: Any, at: Path_) -> None:
        for i, c in enumerate(self.seq(value, at)):
            if isinstance(c, dict):
                self.step(c, (*at, i))
            else:
                self.choice(c, (*at, i), "a choice")

    def step(self, c: dict[str, Any], at: Path_) -> None:
        kinds = [k for k in STEPS if k in c]
        if len(kinds) != 1:
            extra = sorted({x for k in STEPS for x in STEPS[k]})
            _check_keys(self.src, c, (*STEPS, *extra), at)
            raise self.fail(at, "expected one of " + ", ".join(f"{k}:" for k in STEPS)
                            + (f" (not {' and '.join(kinds)} together)" if kinds else ""))
        kind = kinds[0]
        _check_keys(self.src, c, (kind, *STEPS[kind]), at)
        if kind == "until":
            self.text(c["until"], (*at, "until"))
            if "round" in c:
                self.whole(c["round"], (*at, "round"), 1, MAX_ROUND)
            if "limit" in c:
                self.whole(c["limit"], (*at, "limit"), 1, 100_000)
        elif kind == "refused":
            self.choice(c["refused"], (*at, "refused"), "a choice")
            if "rule" in c and not isinstance(c["rule"], str):
                raise self.fail((*at, "rule"), f"expected a rule's id or words, got "
                                f"{_kind(c['rule'])}; quote it: rule: \"{c['rule']}\"")
        elif kind == "expect":
            self.expect(c["expect"], (*at, "expect"), settled="at" not in c)
            if "at" in c:
                self.at(c["at"], (*at, "at"))
        else:
            for key, steps in self.mapping(c[kind], (*at, kind)).items():
                if kind == "by_edition":
                    self.text(key, (*at, kind))
                else:
                    self.whole(key, (*at, kind, key), 1, 99)
                self.steps(steps, (*at, kind, key))

    def at(self, value: Any, at: Path_) -> None:
        where = self.mapping(value, at, allow_null=False)
        _check_keys(self.src, where, ("phase_end", "event", "round"), at)
        if ("phase_end" in where) == ("event" in where):
            raise self.fail(at, "expected phase_end: PHASE or event: {kind: ...} (one)")
        if "phase_end" in where:
            self.text(where["phase_end"], (*at, "phase_end"))
        else:
            self.event(where["event"], (*at, "event"), counted=False)
        if "round" in where:
            self.whole(where["round"], (*at, "round"), 1, MAX_ROUND)

    def event(self, value: Any, at: Path_, counted: bool = True) -> None:
        ev = self.mapping(value, at, allow_null=False)
        for key in ("kind", "player"):
            if key in ev:
                self.text(ev[key], (*at, key), allow_null=key == "player")
        if "data" in ev:
            self.mapping(ev["data"], (*at, "data"), allow_null=False)
        if "count" in ev:
            if not counted:
                raise self.fail((*at, "count"), "count: only in events")
            self.whole(ev["count"], (*at, "count"), 0, MAX_COUNT)

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
        if self.game is not None:
            self._game_values("position", p, at)

    def expect(self, value: Any, at: Path_, settled: bool = True) -> None:
        e = self.mapping(value, at)
        allowed = (*EXPECT_KEYS, *self.keys.get("expect", ()))
        if not settled:
            allowed = tuple(k for k in allowed if k != "pending")
        _check_keys(self.src, e, allowed, at)
        if "winners" in e:
            self.names(e["winners"], (*at, "winners"))
        if "victory" in e:
            self.text(e["victory"], (*at, "victory"), allow_null=True)
        if "round" in e:
            self.whole(e["round"], (*at, "round"), 1, MAX_ROUND)
        if "phase" in e:
            self.text(e["phase"], (*at, "phase"))
        if e.get("pending") is not None:
            pending = self.mapping(e["pending"], (*at, "pending"))
            _check_keys(self.src, pending, PENDING_KEYS, (*at, "pending"))
            for k, v in pending.items():
                if k == "options":
                    for i, o in enumerate(self.seq(v, (*at, "pending", k), False)):
                        self.choice(o, (*at, "pending", k, i), "an option")
                else:
                    self.text(v, (*at, "pending", k))
        for key in ADDED:
            for i, ev in enumerate(self.seq(e.get(key), (*at, key))):
                self.event(ev, (*at, key, i), counted=key == "events")
        self.mapping(e.get("report"), (*at, "report"))
        self.mapping(e.get("vars"), (*at, "vars"))
        if self.game is not None:
            self._game_values("expect", e, at)

    def _game_values(self, section: str, data: dict[str, Any], at: Path_) -> None:
        """The game's keys of ``section``: checked by the game, or, for a game that
        declares none, each state field against its declared shape."""
        assert self.game is not None
        support = self.game.scenario
        if support.keys is not None:
            support.schema(schema=self, section=section, data=data, at=at)
            return
        state = self.game.state
        for key in state.game_fields():
            if key in data and data[key] is not None:
                try:
                    state.check_field(key, data[key])
                except StateError as exc:
                    raise self.fail((*at, key), str(exc)) from None


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true or false)"
    if isinstance(value, str | int | float):
        return repr(value) if len(repr(value)) <= 40 else f"a {type(value).__name__}"
    return {"list": "a list", "dict": "a mapping"}.get(type(value).__name__,
                                                        type(value).__name__)


def _default_pack() -> str:
    from ..content.packs import default_pack

    return default_pack()


def editions(data: dict[str, Any]) -> list[str]:
    ed = data.get("edition")
    if ed is None:
        ed = _default_pack()
    return [str(e) for e in ed] if isinstance(ed, list) else [str(ed)]


def seatings(data: dict[str, Any]) -> list[int | list[str] | None]:
    """The runs a file's ``players`` asks for: a count or a list of players each (None:
    the most the game seats)."""
    players = data.get("players")
    if players is None:
        return [None]
    if not isinstance(players, list):
        return [int(players)]
    if all(isinstance(p, str) for p in players):
        return [[str(p) for p in players]]
    return [[str(p) for p in item] if isinstance(item, list) else int(item)
            for item in players]


def expectations(data: dict[str, Any], edition: str, players: int) -> dict[str, Any]:
    """The file's ``expect`` with ``expect_by_edition`` (for ``edition``) and
    ``expect_by_players`` (for this many players) added: the lists of :data:`ADDED`
    grow, mappings merge key by key, any other value named replaces the shared one."""
    out = copy.deepcopy(data.get("expect") or {})
    for extra in ((data.get("expect_by_edition") or {}).get(edition),
                  (data.get("expect_by_players") or {}).get(players)):
        if extra:
            _add(out, copy.deepcopy(extra), top=True)
    return out


def _add(base: dict[str, Any], extra: dict[str, Any], top: bool = False) -> None:
    for key, value in extra.items():
        old = base.get(key)
        if top and key in ADDED and isinstance(old, list) and isinstance(value, list):
            base[key] = old + value
        elif isinstance(old, dict) and isinstance(value, dict) and value:
            _add(old, value)
        else:
            base[key] = value


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
    :func:`load`): the game's part first (its ``set_position``: its board, screens...,
    or else each declared state field the position names),
    then the round, the plugins' vars and the phase to start in. An edit the game
    refuses names its key (and line, given the ``src`` it was read from). The values are
    copied: the game may change what it is given, never the scenario."""
    p = copy.deepcopy(p)
    state = game.state
    at = _At(src)
    if "round" in p:
        state.round = int(p["round"])
    support = game.rules.definition.scenario
    if support.keys is not None:
        support.set_position(game=game, position=p, at=at)
    else:
        for key in type(state).game_fields():
            if key in p:
                with at(key):
                    type(state).check_field(key, p[key])
                    setattr(state, key, p[key])
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


# -- showing values as a scenario writes them ------------------------------------------------
def show(value: Any) -> str:
    """A value as YAML's flow style writes it (``[move, ITALIA, GALLIA]``), to be copied
    into a scenario file."""
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{show(k)}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, str):
        plain = value and not re.search(r"[,\[\]{}#&*!|>'\"%@`]|^[-?:]|:\s|^\s|\s$", value) \
            and value.lower() not in (*YAML_BOOLS, "true", "false", "null", "~") \
            and not re.fullmatch(r"[-+]?[\d.]+([eE][-+]?\d+)?", value)
        return value if plain else repr(value)
    return repr(value)


def pending_text(game: Game[Any]) -> str:
    """Where the game stands: the pending decision and its options, or its end."""
    try:
        dec = game.pending
    except Exception as exc:  # the rules themselves fail to say
        return f"no decision can be worked out ({type(exc).__name__}: {exc})"
    if dec is None:
        st = game.state
        return (f"the game is over (winners {show(st.winners)}, "
                f"{st.victory or 'no victory'})")
    options = [show(o) for o in dec.options]
    more = len(options) - SHOWN_OPTIONS
    listed = ", ".join(options[:SHOWN_OPTIONS]) + (f" and {more} more" if more > 0 else "")
    return (f"pending: {dec.player} {dec.kind} (round {game.state.round}), "
            f"options: {listed or 'none'}")


# -- checking ---------------------------------------------------------------------------------
def _tupled(value: Any) -> Any:
    """Lists as tuples, all the way down, so that YAML lists compare with options."""
    if isinstance(value, list | tuple):
        return tuple(_tupled(v) for v in value)
    return value


def _mismatch(path: str, expected: Any, actual: Any) -> str:
    text = f"{path}: expected {show(expected)}, got {show(actual)}"
    if isinstance(expected, bool) and isinstance(actual, str):
        text += f" ({yaml_hint(actual, expected)})" if actual.lower() in YAML_BOOLS else \
            " (YAML reads yes/no/on/off as true/false: quote the word)"
    return text


def sub(expected: Any, actual: Any, path: str, failures: list[str]) -> None:
    """Partial match: every key the scenario names must match; others are not looked at."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, v in expected.items():
            sub(v, actual.get(k, 0 if isinstance(v, int) and not isinstance(v, bool)
                              else None), f"{path}.{k}", failures)
        return
    if isinstance(expected, list) and isinstance(actual, list | tuple):
        if _tupled(expected) != _tupled(actual):
            failures.append(_mismatch(path, expected, list(actual)))
        return
    if expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        failures.append(_mismatch(path, expected, actual))


def _game_expect(game: Game[Any], key: str, want: Any) -> list[str] | None:
    """The failures of one of the game's expectation keys (its ``expect``, or a declared
    state field compared whole), None when ``key`` is not the game's."""
    support = game.rules.definition.scenario
    if support.keys is not None:
        return support.expect(game=game, key=key, want=want)
    if key not in type(game.state).game_fields():
        return None
    failures: list[str] = []
    sub(want, getattr(game.state, key), key, failures)
    return failures


def check(game: Game[Any], expect: dict[str, Any], events: list[Event],
          settled: bool = True) -> list[str]:
    """The failures of ``expect`` against the game and the ``events`` seen; ``settled``
    is False for a checkpoint taken while the game moves (no ``pending`` then)."""
    state = game.state
    failures: list[str] = []
    for key, want in expect.items():
        if want is None and key not in ("pending", "victory", "round", "phase"):
            want = [] if key in (*ADDED, "winners") else {}
        found = _game_expect(game, key, want)
        if found is not None:
            failures.extend(found)
        elif key == "report":
            sub(want, game.report(), "report", failures)
        elif key == "winners":
            sub(list(want), state.winners, "winners", failures)
        elif key in ("victory", "round", "phase"):
            sub(want, getattr(state, key), key, failures)
        elif key == "vars":
            sub(want, state.vars, "vars", failures)
        elif key == "pending" and settled:
            _check_pending(game, want, failures)
        elif key == "events":
            for i, ev in enumerate(want, 1):
                n = sum(1 for e in events if _event_matches(ev, e))
                if "count" in ev and n != ev["count"]:
                    failures.append(f"events[{i}]: expected {ev['count']} event(s) matching "
                                    f"{show(_pattern(ev))}, got {n}")
                elif "count" not in ev and not n:
                    failures.append(f"events[{i}]: no event matching {show(ev)}"
                                    + _nearest(ev, events))
        elif key == "no_events":
            for ev in want:
                hits = [e for e in events if _event_matches(ev, e)]
                if hits:
                    failures.append(f"no_events: an event matching {show(ev)} happened: "
                                    f"{_event_text(hits[0])}")
        elif key == "events_in_order":
            _check_order(want, events, failures)
    return failures


def _check_pending(game: Game[Any], want: Any, failures: list[str]) -> None:
    dec = game.pending
    if want is None:
        if dec is not None:
            failures.append(f"pending: expected none (the game over), got {pending_text(game)}")
        return
    if dec is None:
        failures.append(f"pending: expected {show(want)}, but {pending_text(game)}")
        return
    before = len(failures)
    sub({k: v for k, v in want.items() if k != "options"},
        {"player": dec.player, "kind": dec.kind}, "pending", failures)
    if "options" in want:
        wanted = [_tupled(o) for o in want["options"]]
        have = list(dec.options)
        missing = [o for o in wanted if o not in have]
        extra = [o for o in have if o not in wanted]
        if missing or extra or len(wanted) != len(have):
            parts = ([f"missing {show(missing)}"] if missing else []) + \
                ([f"not expected {show(extra)}"] if extra else [])
            failures.append(f"pending.options: expected exactly {len(wanted)} option(s), "
                            f"got {len(have)}: " + ("; ".join(parts) or "repeated options"))
    if len(failures) > before:
        failures.append(f"  ({pending_text(game)})")


def _pattern(want: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in want.items() if k != "count"}


def _matches(want: Any, got: Any) -> bool:
    """Partial match of event data: a mapping's named keys, a list exactly."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(
            _matches(v, got[k]) if k in got else v is None for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list | tuple) and _tupled(want) == _tupled(got)
    if isinstance(want, bool) or isinstance(got, bool):
        return want is got
    return bool(want == got)


def _event_matches(want: dict[str, Any], ev: Event) -> bool:
    """An event pattern: ``kind`` and ``player`` are the event's, ``data`` (and every
    other key but ``count``) its data's."""
    if "kind" in want and want["kind"] != ev.kind:
        return False
    if "player" in want and want["player"] != ev.player:
        return False
    data = {k: v for k, v in want.items() if k not in EVENT_KEYS}
    data.update(want.get("data") or {})
    return _matches(data, ev.data)


def _event_text(ev: Event) -> str:
    head = {"kind": ev.kind, **({"player": ev.player} if ev.player is not None else {})}
    clash = set(ev.data) & set(EVENT_KEYS)
    body = {"data": ev.data} if clash else ev.data
    return show({**head, **body})


def _nearest(want: dict[str, Any], events: list[Event]) -> str:
    """What came closest: the events of the kind asked for, else the kinds seen."""
    same = [e for e in events if e.kind == want.get("kind")]
    hint = ""
    if any(isinstance(v, bool) for v in (*want.values(), *(want.get("data") or {}).values())):
        hint = " (YAML reads yes/no/on/off as true/false: quote a word meant as text)"
    if same:
        shown = "; ".join(_event_text(e) for e in same[:3])
        more = f" and {len(same) - 3} more" if len(same) > 3 else ""
        return f"{hint}; the {want.get('kind')} events: {shown}{more}"
    kinds = sorted({e.kind for e in events})
    return f"{hint} (events seen: {', '.join(kinds) or 'none'})"


def _check_order(want: list[dict[str, Any]], events: list[Event], failures: list[str]) -> None:
    i = 0
    for n, ev in enumerate(want, 1):
        while i < len(events) and not _event_matches(ev, events[i]):
            i += 1
        if i == len(events):
            if any(_event_matches(ev, e) for e in events):
                failures.append(f"events_in_order[{n}]: {show(ev)} happened, but not after "
                                f"events_in_order[{n - 1}]")
            else:
                failures.append(f"events_in_order[{n}]: no event matching {show(ev)}"
                                + _nearest(ev, events))
            return
        i += 1


# -- running -------------------------------------------------------------------------------------
@dataclass
class _Checkpoint:
    label: str
    expect: dict[str, Any]
    phase_end: str | None
    event: dict[str, Any] | None
    round: int | None

    def what(self) -> str:
        if self.phase_end is not None:
            return f"the end of the {self.phase_end} phase" + \
                (f" in round {self.round}" if self.round else "")
        return f"an event matching {show(self.event)}" + \
            (f" in round {self.round}" if self.round else "")


class _Run:
    """One run of a scenario: its choices played, its checkpoints checked."""

    def __init__(self, game: Game[Any], edition: str, players: int,
                 failures: list[str]) -> None:
        self.game = game
        self.edition = edition
        self.players = players
        self.failures = failures
        self.events: list[Event] = []
        self.armed: list[_Checkpoint] = []
        self.phase: str | None = game.state.phase or None
        self.phase_round = game.state.round

    # -- what happens --------------------------------------------------------------------
    def on_event(self, event: Event) -> None:
        ending = event.kind in ("phase_start", "game_over")
        if ending and self.armed:
            for cp in list(self.armed):
                if cp.phase_end is not None and cp.phase_end == self.phase and \
                        cp.round in (None, self.phase_round):
                    self._fire(cp)
        self.events.append(event)
        if event.kind == "phase_start":
            self.phase = str(event.data.get("phase"))
            self.phase_round = self.game.state.round
        for cp in list(self.armed):
            if cp.event is not None and _event_matches(cp.event, event) and \
                    cp.round in (None, self.game.state.round):
                self._fire(cp)

    def _fire(self, cp: _Checkpoint) -> None:
        self.armed.remove(cp)
        try:
            found = check(self.game, cp.expect, self.events, settled=False)
        except Exception as exc:  # a crash while checking is the scenario's failure
            found = [f"crash while checking: {type(exc).__name__}: {exc}"]
        self.failures.extend(f"{cp.label} (at {cp.what()}): {f}" for f in found)

    def finish(self) -> None:
        for cp in self.armed:
            self.failures.append(f"{cp.label}: {cp.what()} never came "
                                 f"({pending_text(self.game)})")
        self.armed.clear()

    # -- the choices ---------------------------------------------------------------------
    def play(self, steps: list[Any], prefix: str = "") -> bool:
        """Play the steps; False once the run cannot go on (the reason is a failure)."""
        for i, c in enumerate(steps, 1):
            label = f"{prefix}{i}"
            if not self.step(c, label):
                return False
        return True

    def stop(self, message: str) -> bool:
        self.failures.append(f"{message}; {pending_text(self.game)}")
        return False

    def step(self, c: Any, label: str) -> bool:
        game = self.game
        if isinstance(c, dict):
            if "by_edition" in c:
                return self.play(list((c["by_edition"] or {}).get(self.edition) or []),
                                 f"{label}.{self.edition}.")
            if "by_players" in c:
                return self.play(list((c["by_players"] or {}).get(self.players) or []),
                                 f"{label}.{self.players}p.")
            if "expect" in c:
                return self.checkpoint(c, label)
            if "until" in c:
                return self.until(c, label)
            if "refused" in c:
                return self.refused(c, label)
        dec = game.pending
        if dec is None:
            return self.stop(f"choice {label} ({show(c)}): the game is over")
        try:
            game.apply(as_choice(c))
        except MnrulesError as exc:
            return self.stop(f"choice {label} ({show(c)}) at {dec.player} {dec.kind}: {exc}")
        return True

    def checkpoint(self, c: dict[str, Any], label: str) -> bool:
        expect = c["expect"] or {}
        if "at" in c:
            at = c["at"]
            self.armed.append(_Checkpoint(f"checkpoint {label}", expect, at.get("phase_end"),
                                          at.get("event"), at.get("round")))
            return True
        _ = self.game.pending
        found = check(self.game, expect, self.events)
        self.failures.extend(f"checkpoint {label}: {f}" for f in found)
        return True

    def until(self, c: dict[str, Any], label: str) -> bool:
        game = self.game
        kind, rnd = str(c["until"]), c.get("round")
        what = "the game's end" if kind == END else f"a {kind} decision" + \
            (f" in round {rnd}" if rnd is not None else "")
        limit = int(c.get("limit", 2000))
        for _ in range(limit + 1):
            d = game.pending
            if d is None:
                if kind == END:
                    return True
                return self.stop(f"choice {label} (until {kind}): the game ended before "
                                 f"{what}")
            if kind != END and d.kind == kind and (rnd is None or game.state.round == rnd):
                return True
            if rnd is not None and game.state.round > rnd:
                return self.stop(f"choice {label}: round {rnd} went by without {what}")
            game.apply(("done",) if ("done",) in d.options else d.options[0])
        return self.stop(f"choice {label}: no {what} within {limit} choices")

    def refused(self, c: dict[str, Any], label: str) -> bool:
        game = self.game
        choice, rule = c["refused"], c.get("rule")
        dec = game.pending
        if dec is None:
            return self.stop(f"choice {label} (refused {show(choice)}): the game is over")
        try:
            game.apply(as_choice(choice))
        except (IllegalChoice, InvalidChoice) as exc:
            if rule is not None and not _by_rule(str(rule), exc):
                self.failures.append(f"choice {label}: {show(choice)} was refused, but not "
                                     f"by {rule!r}: {exc}")
            return True
        return self.stop(f"choice {label}: expected {show(choice)} to be refused at "
                         f"{dec.player} {dec.kind}, but the rules took it")


def _by_rule(rule: str, exc: MnrulesError) -> bool:
    """Whether the refusal names ``rule``: its id, or words of its text or sections."""
    ref = getattr(exc, "rule", None)
    if ref is not None and rule.casefold() == str(ref.id).casefold():
        return True
    return rule.casefold() in str(exc).casefold()


def run(file: str | Path, only: str | None = None) -> Iterator[Outcome]:
    """Run a scenario under each edition it names (or only under ``only``) and with each
    player count (or seating) it names. Whatever goes wrong while it runs is a failure
    of that run; only a file that is not a scenario raises :class:`ScenarioError`."""
    src, data = load(file)
    name = str(data.get("scenario", Path(file).stem))
    runs = seatings(data)
    rulesets: dict[str, Ruleset] = {}
    for edition in editions(data):
        if only is not None and edition != only:
            continue
        for seating in runs:
            label = "" if len(runs) == 1 else (
                f"{seating} players" if isinstance(seating, int) else ", ".join(seating or ()))
            out = Outcome(str(file), name, edition, players=label)
            game: Game[Any] | None = None
            try:
                if edition not in rulesets:
                    variant = data.get("variant")
                    if variant and not Path(str(variant)).is_absolute():
                        variant = str(Path(file).parent / str(variant))
                    rulesets[edition] = load_ruleset(edition, variant=variant)
                rules = rulesets[edition]
                game = new_game(rules, seating or max(rules.seating, default=1),
                                seed=data.get("seed", 1))
                _run(game, src, copy.deepcopy(data), edition, out.failures)
            except MnrulesError as exc:
                out.failures.append(f"error: {exc}")
            except Exception as exc:  # a crash of the rules or the runner: this run fails
                out.failures.append(f"crash: {crash_text(exc)}"
                                    + (f"; {pending_text(game)}" if game is not None else ""))
            yield out


def _run(game: Game[Any], src: Sourced, data: dict[str, Any], edition: str,
         failures: list[str]) -> None:
    players = len(game.state.players)
    runner = _Run(game, edition, players, failures)
    game.listeners.append(runner.on_event)
    set_position(game, data.get("position") or {}, src)
    runner.phase, runner.phase_round = game.state.phase or None, game.state.round
    for label, outcomes in (data.get("forced") or {}).items():
        game.force(str(label), list(outcomes))
    if not runner.play(list(data.get("choices") or [])):
        runner.armed.clear()
        failures.append("(the expectations were not checked: the choices stopped early)")
        return
    _ = game.pending  # settle: what follows the last choice happens before checking
    failures.extend(check(game, expectations(data, edition, players), runner.events))
    runner.finish()


def crash_text(exc: BaseException) -> str:
    """An unexpected exception, briefly, with the innermost place it was raised."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" ({Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"
