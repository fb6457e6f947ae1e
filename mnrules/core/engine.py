"""The decision loop: whose decision is pending, what the legal choices are, and
what happens when one is applied. It knows no game: the game's rule
plugins provide the steps, the pack provides the data.

A game is a stack of *frames* (plain dicts with a ``"step"`` key). The frame on
top is advanced by its :class:`Step`: it does automatic work and either asks a
:class:`Decision`, pushes child frames (:data:`CONTINUE`) or finishes
(:data:`DONE`). Bots, humans, replays and tests all call :meth:`Game.apply`.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..errors import (
    GameOver,
    IllegalChoice,
    InvalidChoice,
    MnrulesError,
    PackError,
    RuleRef,
    StateError,
    clipped,
)
from ..hooks.params import Param as Param
from .effects import Event, Modifier, Replacement, Trigger, ordered
from .state import State

if TYPE_CHECKING:
    from _typeshed import IdentityFunction
    from typing_extensions import TypeVar as DefaultedTypeVar

    from ..content.ruleset import Ruleset

    S = DefaultedTypeVar("S", bound=State, default=State)
# At run time a plain TypeVar (typing's takes no default before 3.13); set this way, not in
# an ``else:``, which the compiled core (docs/speed.md) would take for unreachable code.
globals()["S"] = TypeVar("S", bound=State)
"""The state type of a game: the kernel's :class:`State` or the subclass a game declares."""

try:  # the compiled core's marks, read by mypyc alone
    from mypy_extensions import mypyc_attr
except ImportError:  # a pure-Python install without mypy: the mark does nothing
    def mypyc_attr(*attrs: str, **kwattrs: object) -> IdentityFunction:
        return lambda x: x

Choice = Hashable
"""A legal choice: a str, int or (nested) tuple of them; JSON lists are read as tuples."""

Frame = dict[str, Any]
T = TypeVar("T")

DONE = "done"
CONTINUE = "continue"
PAUSE = "pause"  # the driver asked to stop here (Game.max_rounds); resumes where it was

MAX_DEPTH = 500
"""Frames the stack may hold: a real game needs a dozen; a step that keeps pushing is a bug."""
MAX_STEPS = 1_000_000
"""Steps advanced between two decisions before the engine gives up (a step that never
asks nor finishes); a real game takes a few hundred."""


class Decision:
    """A pending decision: who decides, what kind, and the finite list of legal options.

    Read it, never change it. (A plain class with its own ``__init__``, not a frozen
    dataclass: one is made at every decision, and the compiled core, docs/speed.md,
    builds only such a class natively — a dataclass keeps its generated Python
    ``__init__`` there, a frozen one an ``object.__setattr__`` per field.)"""

    player: str
    kind: str
    prompt: str
    options: tuple[Choice, ...]
    hidden: bool  # simultaneous/secret (trade offers): others must not see it
    labels: tuple[str, ...]

    def __init__(self, player: str, kind: str, prompt: str, options: tuple[Choice, ...],
                 hidden: bool = False, labels: tuple[str, ...] = ()) -> None:
        self.player = player
        self.kind = kind
        self.prompt = prompt
        self.options = options
        self.hidden = hidden
        self.labels = labels

    def _values(self) -> tuple[Any, ...]:
        return (self.player, self.kind, self.prompt, self.options, self.hidden, self.labels)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return self._values() == other._values()

    def __repr__(self) -> str:
        return (f"Decision(player={self.player!r}, kind={self.kind!r}, "
                f"prompt={self.prompt!r}, options={self.options!r}, "
                f"hidden={self.hidden!r}, labels={self.labels!r})")


@mypyc_attr(allow_interpreted_subclasses=True)   # every game's steps subclass it
class Step(Generic[S]):
    """A kind of frame. Subclasses implement :meth:`advance` and, if they ask, :meth:`choose`.

    ``advance`` must be idempotent while it waits: called again before a choice, it
    returns the same decision (a loaded snapshot calls it afresh).
    """

    def advance(self, game: Game[S], frame: Frame) -> Decision | str:
        raise NotImplementedError

    def choose(self, game: Game[S], frame: Frame, choice: Any) -> None:
        raise NotImplementedError

    def why_illegal(self, game: Game[S], frame: Frame, choice: Any
                    ) -> tuple[RuleRef | None, str]:
        """The rule a refused (well-formed) choice breaks, with a detail: every step that
        asks should name its rule (a :class:`RuleRef` with the books' sections); the
        default says only that the choice is not offered."""
        return None, "not among the legal choices"


class InvariantError(MnrulesError):
    """The rules left the game in a state that breaks an invariant (a bug to report)."""

    def __init__(self, game: Game[Any], decision: Decision, choice: Choice,
                 problems: list[str]) -> None:
        self.problems = problems
        self.choice_number = game.state.choices
        super().__init__(f"invariant broken after choice {game.state.choices} "
                         f"({decision.player} {decision.kind} {choice!r}), seed "
                         f"{game.state.seed}: " + "; ".join(problems))


CHOICE_DEPTH = 8
"""How deep a choice's lists may nest (the game's own options: two levels)."""


def as_choice(value: Any) -> Choice:
    """Normalise a choice read from JSON or typed by a human (lists become tuples).

    A choice is a str, an int or a (nested) list or tuple of them; anything else is
    malformed (:class:`InvalidChoice`): a bool or a float would compare equal to an int
    option (``True in (1,)``) and be stored as it came."""
    try:
        return _normal(value, 0)
    except _Malformed as bad:
        detail = str(bad) if bad.args and bad.args[0] is not value else ""
        raise InvalidChoice(value, detail) from None


class _Malformed(Exception):
    pass


def _normal(value: Any, depth: int) -> Choice:
    kind = type(value)
    if kind is str or kind is int:
        return value  # type: ignore[no-any-return]
    if kind is list or kind is tuple:
        if depth >= CHOICE_DEPTH:
            raise _Malformed(f"its lists nest more than {CHOICE_DEPTH} deep")
        if kind is tuple:
            for v in value:
                item = type(v)
                if item is not str and item is not int:
                    break
            else:   # a flat tuple of strs and ints (a bot's option) is normal already:
                return value  # type: ignore[no-any-return]  # (so `in` finds it at once)
        return tuple(_normal(v, depth + 1) for v in value)
    if depth == 0:
        raise _Malformed(value)
    raise _Malformed(f"a choice is a string, a whole number or a list of them; it holds "
                     f"{clipped(value, 60)} ({kind.__name__})")


def typed(types: dict[str | None, Any], choice: tuple[Any, ...]) -> Any:
    """A legal tuple-shaped choice as the type its decision kind declares for it (by its
    first item, or for any tuple), equal to the tuple it was; else the tuple itself."""
    kind = types.get(choice[0] if choice and isinstance(choice[0], str) else None,
                     types.get(None))
    if kind is None or len(choice) != len(kind._fields):
        return choice
    if issubclass(kind, tuple):   # a named tuple: what its _make does (the length is
        return tuple.__new__(kind, choice)   # checked above), without a Python call
    return kind._make(choice)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: who won (several share a win), by which victory (the game's
    name for it: "fifth", "prestige"..., or "round cap" when nobody won)."""

    winners: tuple[str, ...]
    victory: str


class Listener:
    """An observer of a game's events that says which it wants (``kinds``; None: all)
    and whether it keeps what it is given (``keeps``). The engine tells it nothing else:
    a chance draw (a die) makes no event when no listener wants ``chance``, and one that
    keeps nothing reads the event itself, as it happens, uncopied (it must not change
    it), where a plain callable gets a deep copy it may keep. Watching a game for a few
    events thus costs what those events cost (``simulate`` wants the round's start)."""

    def __init__(self, fn: Callable[[Event], None], kinds: Iterable[str] | None = None,
                 keeps: bool = True) -> None:
        self.fn = fn
        self.kinds: frozenset[str] | None = None if kinds is None else frozenset(kinds)
        self.keeps = keeps

    def __call__(self, event: Event) -> None:
        self.fn(event)

    def wants(self, kind: str) -> bool:
        return self.kinds is None or kind in self.kinds


class Game(Generic[S]):
    """One game: a state, the rule set it plays under, and the loop that drives it.

    (A plain class rather than a dataclass: the compiled core, docs/speed.md, would look
    the rule set's class up at import, which this module cannot import.)"""

    rules: Ruleset
    state: S
    rng: random.Random
    history: list[Choice]
    listeners: list[Callable[[Event], None]]
    choice_listeners: list[Callable[[Decision, Choice], None]]
    max_rounds: int | None
    # Checked after every choice when set (tests, --check, MNRULES_CHECK=1): a function
    # returning the invariant problems of the game (mnrules.core.invariants.check).
    checker: Callable[[Game[Any]], list[str]] | None
    # When set (mnrules.agents' explicit chance), every chance outcome is its answer to
    # (label, options, the index the generator drew): an index into the options.
    chooser: Callable[[str, Sequence[Any], int], int] | None
    _pending: Decision | None
    # The index of who holds which card (:meth:`_held`), kept with the holdings and seats
    # it was made from: the bus's routes (``Bus.card_route``, shared by every game on the
    # bus) say which card each answer is, this says whose it is here
    _held_seen: tuple[dict[str, list[str]], list[str]] | None
    _held_by: dict[str, frozenset[str]]
    _held_any: frozenset[str]

    def __init__(self, rules: Ruleset, state: S, history: list[Choice] | None = None,
                 listeners: list[Callable[[Event], None]] | None = None,
                 choice_listeners: list[Callable[[Decision, Choice], None]] | None = None,
                 max_rounds: int | None = None,
                 checker: Callable[[Game[Any]], list[str]] | None = None) -> None:
        self.rules = rules
        self.state = state
        self.history = [] if history is None else history
        self.listeners = [] if listeners is None else listeners
        self.choice_listeners = [] if choice_listeners is None else choice_listeners
        self.max_rounds = max_rounds
        self.checker = checker
        self.chooser = None
        self._pending = None
        self._held_seen = None
        self._held_by = {}
        self._held_any = frozenset()
        self.rng = random.Random(self.state.seed)
        if self.state.rng:
            kind, internal, gauss = self.state.rng
            self.rng.setstate((kind, tuple(internal), gauss))

    def __repr__(self) -> str:
        return (f"Game(seed={self.state.seed}, players={self.state.players}, "
                f"round={self.state.round}, choices={self.state.choices})")

    # -- the loop ------------------------------------------------------------------------
    @property
    def pending(self) -> Decision | None:
        """The decision the game waits for, or None once the game has ended."""
        if self._pending is None:
            self._settle()
        return self._pending

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        if self.pending is not None:
            return None
        return Outcome(tuple(self.state.winners), self.state.victory)

    @property
    def over(self) -> bool:
        return self.pending is None

    def legal(self) -> tuple[Choice, ...]:
        dec = self.pending
        return dec.options if dec is not None else ()

    def apply(self, choice: Any) -> None:
        """Apply one choice of the pending decision. A malformed one (not a str, an int
        or a list/tuple of them) raises :class:`InvalidChoice`, one the rules do not
        offer :class:`IllegalChoice` naming the rule; either changes nothing."""
        dec = self.pending
        if dec is None:
            raise GameOver("the game is over: no decision is pending")
        choice = as_choice(choice)
        frame = self.state.stack[-1]
        step = self.rules.steps[frame["step"]]
        if choice not in dec.options:
            rule, detail = step.why_illegal(self, frame, choice)
            raise IllegalChoice(choice, rule, f"{dec.player} ({dec.kind}): {detail}")
        if isinstance(choice, tuple) and dec.kind in self.rules.choice_types:
            choice = typed(self.rules.choice_types[dec.kind], choice)
        self._pending = None
        self.history.append(choice)
        self.state.choices += 1
        for listener in self.choice_listeners:
            listener(dec, choice)
        step.choose(self, frame, choice)
        self._settle()
        if self.checker is not None:
            problems = self.checker(self)
            if problems:
                raise InvariantError(self, dec, choice, problems)

    def _settle(self) -> None:
        state = self.state
        steps = self.rules.steps
        budget = MAX_STEPS
        while self._pending is None and not state.finished:
            stack = state.stack
            if not stack:
                state.finished = True
                break
            frame = stack[-1]
            out = steps[frame["step"]].advance(self, frame)
            if out is DONE:
                if stack and stack[-1] is frame:
                    stack.pop()
                else:  # the step replaced itself by the frames it pushed
                    for i in range(len(stack) - 1, -1, -1):
                        if stack[i] is frame:
                            del stack[i]
                            break
            elif out is CONTINUE:
                pass
            elif out is PAUSE:
                break
            else:
                assert isinstance(out, Decision)
                if not out.options and not state.finished:
                    # no bot, human or replay could answer it: the rules (a pack's
                    # parameters) left a player nothing to do, which is the pack's bug
                    raise PackError(f"{_pack_name(self.rules)}: the rule "
                                    f"{frame['step']!r} asks {out.player} a decision "
                                    f"{out.kind!r} with no option (round {state.round}): "
                                    f"under this pack's rules and parameters that player "
                                    f"has nothing to choose")
                if not state.finished:  # a step that ended the game asks nothing more
                    self._pending = out
                break
            budget -= 1
            if not budget:
                raise StateError(f"no decision after {MAX_STEPS:,} steps (the last one "
                                 f"{frame['step']!r}, round {state.round}): a step that "
                                 f"never asks nor finishes")

    def interrupted(self, frame: Frame) -> bool:
        """Whether what a step just did (an event a card reacted to) leaves ``frame`` not
        to go on now: the game is over, or a card's frame was pushed above it and runs
        first. The step then returns ``CONTINUE`` and resumes later, if ever."""
        stack = self.state.stack
        return self.state.finished or not stack or stack[-1] is not frame

    def push(self, step: str, **data: Any) -> Frame:
        """Put a frame on the stack; it runs before the frame that pushed it resumes."""
        if step not in self.rules.steps:
            raise StateError(f"no plugin provides the step {step!r}")
        stack = self.state.stack
        if len(stack) >= MAX_DEPTH:
            raise StateError(f"the step {step!r} would make the stack {MAX_DEPTH + 1} frames "
                             f"deep (pushed by {stack[-1]['step']!r}, round "
                             f"{self.state.round}): steps that push each other without end")
        frame: Frame = {"step": step, **data}
        stack.append(frame)
        return frame

    def push_all(self, frames: Iterable[tuple[str, dict[str, Any]]]) -> None:
        """Push frames so that they run in the order given."""
        for step, data in reversed(list(frames)):
            self.push(step, **data)

    def end(self, winners: Iterable[str], victory: str) -> None:
        """Declare the game over; no further decision is asked."""
        self.state.winners = sorted(set(winners), key=self.state.players.index)
        self.state.victory = victory
        self.state.finished = True
        self.state.stack.clear()
        self._pending = None
        self.emit(Event("game_over", None, {"winners": self.state.winners, "victory": victory}))

    # -- chance --------------------------------------------------------------------------
    def chance(self, label: str, options: Sequence[T]) -> T:
        """One random outcome among ``options`` (a die face, a draw), from the game's own
        generator, unless a scenario forced the next outcomes of ``label``; with a
        :attr:`chooser`, the chooser's pick (the generator drawn as without one)."""
        forced = self.state.vars.get("forced")
        if forced and forced.get(label):
            value = forced[label].pop(0)
            if value not in options:
                raise StateError(f"forced {label} outcome {value!r} is not one of {options}")
            out = options[options.index(value)]
        elif self.chooser is not None:   # the generator is drawn from all the same
            out = options[self.chooser(label, options, self.rng.randrange(len(options)))]
        else:
            out = options[self.rng.randrange(len(options))]
        if self.listeners and self._hears("chance"):
            self.emit(Event("chance", None, {"label": label, "value": out}))
        return out

    def chances(self, label: str, options: Sequence[T], n: int) -> list[T]:
        """``n`` outcomes of ``label`` drawn one after another, as ``n`` calls of
        :meth:`chance` draw them (the same draws, forced outcomes and events; a battle's
        dice): with nothing forced and no one listening, drawn without the per-draw
        checks."""
        if (self.listeners and self._hears("chance")) or self.chooser is not None \
                or self.state.vars.get("forced"):
            return [self.chance(label, options) for _ in range(n)]
        randrange = self.rng.randrange
        k = len(options)
        return [options[randrange(k)] for _ in range(n)]

    def force(self, label: str, outcomes: Iterable[Any]) -> None:
        """Make the next outcomes of ``label`` these (scenarios and tests)."""
        self.state.vars.setdefault("forced", {}).setdefault(label, []).extend(outcomes)

    # -- rules and effects ---------------------------------------------------------------
    def param(self, name: str) -> Any:
        return self.rules.params[name]

    def fold(self, quantity: str, value: Any, **ctx: Any) -> Any:
        """Fold ``value`` through every active modifier of ``quantity``."""
        bus = self.rules.pm
        if bus.flat:   # the bus's collect, inlined: folds are a tenth of random play
            route = bus.folds.get(quantity)
            if route is None:
                route = bus.card_route("mn_modifiers", quantity)
            cards, fns = route
            results = []
            held = self._held() if cards else None
            for fn, card, key in fns:
                if card and held is not None and \
                        self._unheld(held, card, ctx.get(key) if key else None, key):
                    continue
                r = fn(game=self, quantity=quantity, ctx=ctx)
                if r is not None:
                    results.append(r)
        else:
            results = bus.collect("mn_modifiers", quantity, game=self, quantity=quantity,
                                  ctx=ctx)
        if not results:
            return value
        if len(results) == 1:   # one answer of one modifier (most folds): nothing to order
            one = results[0]
            if not isinstance(one, list):
                return one.fn(value)
            if len(one) == 1:
                return one[0].fn(value)
        mods: list[Modifier] = ordered(results)
        for mod in mods:
            value = mod.fn(value)
        return value

    def _unheld(self, held: dict[str, frozenset[str]], card: str, who: Any,
                key: str) -> bool:
        """Whether the index ``held`` says ``card``'s answer concerns nobody who holds
        it: not the player ``who`` its context or event names (``key`` set; a name only),
        or, for anyone's answer, no player at all."""
        if key:
            if not isinstance(who, str):
                return False
            mine = held.get(who)
            return mine is None or card not in mine
        return card not in self._held_any

    def _held(self) -> dict[str, frozenset[str]] | None:
        """Which cards each player holds (the state's ``holdings``), or None while a
        'holder' word (a copy of a card's power) may name someone for some card: then
        every card is asked. Rebuilt whenever the holdings or the seats differ from the
        copy it was made from, compared whole at each question, so that no write to
        them, wherever made, leaves it stale; the index is no field of the state."""
        for w in self.rules.pm.holder_words:
            idle = w.idle
            if idle is None or not idle(self):
                return None
        state = self.state
        holdings = state.holdings()
        seen = self._held_seen
        if seen is None or seen[0] != holdings or seen[1] != state.players:
            by: dict[str, frozenset[str]] = {}
            for p in state.players:
                by[p] = frozenset(holdings.get(p, ()))
            self._held_by = by
            self._held_any = frozenset().union(*by.values())
            self._held_seen = ({p: list(cs) for p, cs in holdings.items()},
                               list(state.players))
        return self._held_by

    def modified(self, quantity: str) -> bool:
        """Whether a plugin or a card answers folds of ``quantity`` at all: if not, every
        :meth:`fold` of it returns its value as given, and a listing that would fold it
        for each of many items may take the values unfolded. (Asked anew, it follows
        the plugins registered; a card answers whether or not anyone holds it.)"""
        bus = self.rules.pm
        return not bus.flat or bool(bus.route("mn_modifiers", quantity))

    def ask(self, hook: str, player: str) -> list[Any]:
        """The answers of ``hook`` (of ``game`` and ``player``, whose cards answer only
        for their own holder: ``mn_build_offers``) as the bus's call gives them, but for
        the cards the index of who holds what says ``player`` does not hold: those are
        not asked (and so give no empty answer)."""
        bus = self.rules.pm
        route = bus.asked.get(hook) or bus.card_calls(hook)
        if route is None:
            found: list[Any] = bus.call(hook, game=self, player=player)
            return found
        cards, entries = route
        out = []
        held = self._held() if cards else None
        args = {"game": self, "player": player}
        for fn, card, key, names in entries:
            if card and held is not None and self._unheld(held, card, player, key):
                continue
            r = fn(*[args[n] for n in names])
            if r is not None:
                out.append(r)
        return out

    def _answers(self, bus: Any, hook: str, event: Event) -> list[Any]:
        """What ``hook`` answers for ``event``: the bus's collect, inlined as in fold."""
        if not bus.flat:
            found: list[Any] = bus.collect(hook, event.kind, game=self, event=event)
            return found
        table = bus.replaced if hook == "mn_replacements" else bus.triggered
        route = table.get(event.kind)
        cards, entries = route if route is not None else bus.card_route(hook, event.kind)
        out = []
        held = self._held() if cards else None
        for fn, card, key in entries:
            if card and held is not None and self._unheld(held, card, event.player, key):
                continue
            r = fn(game=self, event=event)
            if r is not None:
                out.append(r)
        return out

    def perform(self, event: Event, action: Callable[[Event], None]) -> Event | None:
        """Let replacements rewrite ``event``, do it with ``action``, then fire triggers."""
        bus = self.rules.pm
        repl = self._answers(bus, "mn_replacements", event)
        current: Event | None = event
        if repl:
            reps: list[Replacement] = ordered(repl)
            for rep in reps:
                if current is None:
                    break
                current = rep.fn(current)
        if current is None:
            return None
        action(current)
        self.emit(current)
        trig = self._answers(bus, "mn_triggers", current)
        if trig:
            trigs: list[Trigger] = ordered(trig)
            for t in trigs:
                t.fn(current)
        return current

    def report(self) -> dict[str, dict[str, Any]]:
        """Each player's figures for summaries (tracks, provinces, ...): the plugins'
        ``mn_report`` answers merged, in plugin order."""
        out: dict[str, dict[str, Any]] = {}
        for p in self.state.players:
            merged: dict[str, Any] = {}
            for part in self.rules.hook.mn_report(game=self, player=p):
                merged.update(part)
            out[p] = merged
        return out

    def emit(self, event: Event) -> None:
        """Tell observers (logs, summaries, scenarios) what happened.

        Observers get a record: the event with a deep copy of its data, made now, so
        that what they keep never changes with the game (a plugin may go on mutating
        the lists it emitted). One record is shared by every observer of the event; with
        none (bot play), nothing is copied, and a :class:`Listener` gets only the kinds
        it wants, uncopied when it keeps nothing."""
        bus = self.rules.pm
        if event.kind not in bus.emittable:
            bus.check_emit(event.kind)  # an undeclared event kind is refused
        if not self.listeners:
            return
        record: Event | None = None
        for listener in self.listeners:
            if isinstance(listener, Listener):
                if not listener.wants(event.kind):
                    continue
                if not listener.keeps:
                    listener.fn(event)
                    continue
            if record is None:
                record = Event(event.kind, event.player, _copied(event.data))
            listener(record)

    def _hears(self, kind: str) -> bool:
        """Whether a listener wants events of ``kind``."""
        for listener in self.listeners:
            if not isinstance(listener, Listener) or listener.wants(kind):
                return True
        return False

    # -- snapshots -----------------------------------------------------------------------
    def snapshot(self) -> S:
        """A deep, JSON-able copy of the state at its pending decision, generator included.

        Not checked as a loaded state is: the rules made it (a save checks that it is
        plain data as it writes it; :func:`mnrules.core.start.load_game` checks all)."""
        _ = self.pending  # settle first: a snapshot is always taken at a decision
        kind, internal, gauss = self.rng.getstate()
        self.state.rng = [kind, list(internal), gauss]
        return self.state.clone()


def _pack_name(rules: Ruleset) -> str:
    """The pack and the variant on top of it, by the variant's file name only (the
    folder may be a server's temporary one, not for its users to see)."""
    chain = getattr(rules, "chain", None) or []
    variant = f" with the variant {os.path.basename(chain[0])}" if len(chain) > 1 else ""
    return f"the pack {rules.pack!r}{variant}"


def _copied(value: Any) -> Any:
    """A deep copy of an event's data (plain data fast; anything else by ``deepcopy``)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value
    if kind is dict:
        return {k: _copied(v) for k, v in value.items()}
    if kind is list:
        return [_copied(v) for v in value]
    if kind is tuple:
        return tuple(_copied(v) for v in value)
    import copy

    return copy.deepcopy(value)
