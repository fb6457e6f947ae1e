"""From parsed rules to hook registrations on the bus.

Each card with effects becomes one plugin object implementing only the hooks its
rules need: ``modify`` → ``mn_modifiers``, ``replace`` and ``before`` →
``mn_replacements``, ``after`` → ``mn_triggers``, ``offer`` → ``mn_build_offers``. Every
effect acts only for the card's holders (its owner, and players who copied it), and only
while they hold it; "once per round/phase/turn/game" limits are kept in the game state.
A limited ``modify`` is used up by its quantity's *occasion* (the event the game names
for it: a battle for a battle's dice), so that a preview (a bot weighing a battle) never
uses it and a second battle of the round does not get it again.

Evaluation never runs Python written by a modder: scripts only name vocabulary words,
whose meanings the rule plugins supply, and a rule has no loops, so it always ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from ..content.card_files import CardData
from ..content.yamlsource import listed
from ..core.effects import ADD, LIMIT, MULTIPLY, SET, Event, Modifier, Replacement, Trigger
from ..core.engine import Game
from ..hooks.bus import python_wrapper
from ..hooks.hookspecs import hookimpl
from .actions import is_change, read_action
from .comparisons import compares, natural
from .silence import KEY as SILENCE_KEY
from .silence import silenced
from .syntax import Action, Cond, Op, Phrase, Problem, Rule, ScriptError, Value
from .words import Vocabulary, Word, singular

if TYPE_CHECKING:
    from _typeshed import IdentityFunction

try:  # the compiled core's marks (docs/speed.md), read by mypyc alone
    from mypy_extensions import mypyc_attr
except ImportError:  # a pure-Python install without mypy: the mark does nothing
    def mypyc_attr(*attrs: str, **kwattrs: object) -> IdentityFunction:
        return lambda x: x

ORIGINAL_RANK = 1
"""A card's owner's rank: his effects apply before any other holder's (a game's
'holder' words rank the others, a copy after its original)."""


class Env:
    """What a word's meaning sees: the game, the card's holder, the context or event.

    (A plain class with its own ``__init__``, equal by value as the dataclass it was:
    one is made at every card rule a fold or listing looks at, and the compiled core,
    docs/speed.md, builds only such a class natively.)"""

    game: Game[Any]
    holder: str
    card: str
    ctx: dict[str, Any]
    event: Event | None
    actor: str             # who acts ("each opponent loses 1 coin"): the holder unless said

    def __init__(self, game: Game[Any], holder: str, card: str, ctx: dict[str, Any],
                 event: Event | None = None, actor: str = "") -> None:
        self.game = game
        self.holder = holder
        self.card = card
        self.ctx = ctx
        self.event = event
        self.actor = actor or holder

    def _values(self) -> tuple[Any, ...]:
        return (self.game, self.holder, self.card, self.ctx, self.event, self.actor)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Env)
        return self._values() == other._values()

    def __repr__(self) -> str:
        return (f"Env(game={self.game!r}, holder={self.holder!r}, card={self.card!r}, "
                f"ctx={self.ctx!r}, event={self.event!r}, actor={self.actor!r})")

    def acting(self, actor: str) -> Env:
        """The same place, another player acting (his 'you' and 'your')."""
        return Env(self.game, self.holder, self.card, self.ctx, self.event, actor)


@dataclass(frozen=True)
class Interactive:
    """An action that asks its holder to choose (through the one decision loop)."""

    options: Callable[..., tuple[Any, ...]]
    apply: Callable[..., None]
    prompt: str = "choose"
    repeats: bool = False
    #   True: its first argument, a number, is how many times it is asked ('take 2 goods
    #   of your choice': one good, then another, each from what is left)


@dataclass(frozen=True)
class Scaled:
    """An action's meaning with its number (the ``index``-th argument) multiplied by a
    count, for each whole ``divisor`` of it ('take 1 coin per 2 temples you control')."""

    meaning: Callable[..., Any]
    index: int
    count: Callable[[Env], int]
    divisor: int = 1

    def scaled(self, env: Env, args: Sequence[Any]) -> list[Any]:
        """``args`` with the number multiplied as the count says now."""
        out = list(args)
        out[self.index] = int(args[self.index]) * (self.count(env) // self.divisor)
        return out

    def __call__(self, env: Env, *args: Any) -> Any:
        return self.meaning(env, *self.scaled(env, args))


class Offer:
    """What an ``offer`` rule gives its holder: an item the game's item word names (and
    where it may go, as that word says), for one of the payments, ``count`` times; the
    game's own step lists and takes it (``mn_build_offers``).

    (A plain class equal by value, as ``Event`` is, not a frozen dataclass: one is made
    at every listing of its holder's purchases, and the compiled core builds a plain
    class natively. Read it, never change it.)"""

    source: str
    holder: str
    item: str                                  # the item word's answer
    where: str                                 # the item word's answer
    payments: tuple[tuple[str, ...], ...]      # alternatives; () inside means free
    count: int
    limit: str | None                          # a key in state.vars["used"]
    period: str | None

    def __init__(self, source: str, holder: str, item: str, where: str,
                 payments: tuple[tuple[str, ...], ...], count: int = 1,
                 limit: str | None = None, period: str | None = None) -> None:
        self.source = source
        self.holder = holder
        self.item = item
        self.where = where
        self.payments = payments
        self.count = count
        self.limit = limit
        self.period = period

    def _values(self) -> tuple[Any, ...]:
        return (self.source, self.holder, self.item, self.where, self.payments,
                self.count, self.limit, self.period)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Offer:
            return NotImplemented
        assert isinstance(other, Offer)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return (f"Offer(source={self.source!r}, holder={self.holder!r}, item={self.item!r}, "
                f"where={self.where!r}, payments={self.payments!r}, count={self.count!r}, "
                f"limit={self.limit!r}, period={self.period!r})")


BuildOffer = Offer
"""The name the game's build step imports (kept until it imports Offer)."""


def holders(game: Game[Any], card: str,
            others: tuple[Word, ...] = ()) -> list[tuple[str, int]]:
    """Who the card acts for, with the rank of his effects: its owners first, then
    whoever the game's 'holder' words say holds its power too (a copy)."""
    held = game.state.card_holders(card)
    out = [(p, ORIGINAL_RANK) for p in held] if held else []   # (most cards: nobody)
    for w in others:
        out += w.meaning(game, card)
    return out


def period_stamp(game: Game[Any], period: str) -> str:
    state = game.state
    if period == "game":
        return "game"
    if period == "round":
        return str(state.round)
    if period == "phase":
        return f"{state.round}:{state.phase}"
    turn = state.stack[-1].get("player", "") if state.stack else ""
    return f"{state.round}:{state.phase}:{turn}"


def limit_open(game: Game[Any], key: str, period: str) -> bool:
    used: dict[str, str] = game.state.vars.get("used", {})
    return used.get(key) != period_stamp(game, period)


def use_limit(game: Game[Any], key: str, period: str) -> None:
    game.state.vars.setdefault("used", {})[key] = period_stamp(game, period)


CHOICE = Word("action", "you choose", None, "a choice between actions: the actor picks "
              "one of those he can do")
"""The word of a 'you choose: A or B' action (its alternatives are what it does)."""


@dataclass
class CompiledAction:
    """One action of a trigger: who does it (``subject``; None: the holder), whether he
    is asked first (``optional``), what he pays if he says yes (``pay``: the game's
    'you have N R' test and 'pay N R' action), and whether it runs only if the 'may'
    before it was answered yes (``if_done``)."""

    optional: bool
    word: Word
    args: list[Any]
    subject: tuple[Word, list[Any]] | None = None
    pay: tuple[tuple[Word, list[Any]], tuple[Word, list[Any]]] | None = None
    if_done: bool = False
    then: tuple[int, ...] = ()    # a 'may': the 'if you do' actions that follow it
    alternatives: tuple[CompiledAction, ...] = ()
    #   'you choose: A or B': the actions offered (``word`` is then :data:`CHOICE`)
    text: str = ""                # an alternative: its words, the option a player picks

    @property
    def asks(self) -> bool:
        """Whether doing it asks its actor to choose (a choice, or an Interactive word)."""
        return bool(self.alternatives) or isinstance(self.word.meaning, Interactive)

    @property
    def picks_actor(self) -> bool:
        """Whether its subject names one player of several (``an opponent``), whom the
        holder picks before it is done (``card.who``)."""
        return self.subject is not None and bool(getattr(self.subject[0].meaning, "one",
                                                         False))

    @property
    def step(self) -> str:
        """The frame that does it for one actor: a 'may', a choice, or a plain action."""
        return "card.may" if self.optional else "card.choose" if self.asks else "card.do"

    def __iter__(self) -> Iterator[Any]:
        """(optional, word, args), as a plugin reading a card's words unpacks it."""
        return iter((self.optional, self.word, self.args))

    def actors(self, env: Env) -> list[str]:
        if self.subject is None:
            return [env.holder]
        w, args = self.subject
        return list(w.meaning(env, *args))

    def affordable(self, env: Env) -> bool:
        if self.pay is None:
            return True
        (test, targs), _ = self.pay
        return bool(test.meaning(env, *targs))


@dataclass
class CompiledRule:
    rule: Rule
    index: int
    cond: Callable[[Env], bool]
    ops: list[tuple[int, Callable[[Env], Callable[[Any], Any]]]] = field(default_factory=list)
    actions: list[CompiledAction] = field(default_factory=list)
    word: Word | None = None      # the quantity or event word
    offer: Callable[[Env], Offer] | None = None
    by: tuple[Word, list[Any]] | None = None     # 'by WHO': whose fold or event it acts on
    occasion: Word | None = None  # a limited modify: the event that uses it up

    def acts_on(self, env: Env, player: Any) -> bool:
        """Whether the fold's or the event's player is one this rule acts on: the holder
        unless 'by WHO' says otherwise."""
        if self.by is None:
            return bool(player == env.holder)
        w, args = self.by
        return player in w.meaning(env, *args)


def _declared(r: CompiledRule) -> str:
    """The declared name (the rules' contract) of the quantity a rule modifies or the
    event it reacts to: its word's meaning, which may differ from the word written."""
    assert r.word is not None
    name: str = r.word.meaning if isinstance(r.word.meaning, str) else r.rule.name
    return name


def _hook(name: str, method: Callable[..., Any], *names: str) -> Callable[..., Any]:
    """``method`` as the implementation of the hook ``name`` (its parameters ``names``)."""
    marked: Callable[..., Any] = hookimpl(python_wrapper(method, names, name))
    return marked


@mypyc_attr(native_class=False)   # a plugin: pluggy reads the hooks a card has set
class CardEffects:
    """The compiled card: a plugin registered on the bus under ``card:<id>``."""

    def __init__(self, card: CardData, rules: list[CompiledRule],
                 others: tuple[Word, ...] = ()) -> None:
        self.card = card
        self.card_id = card.id        # (read at every holding: one attribute, not two)
        self.rules = rules
        self.others = others          # the game's 'holder' words
        self.source = f"card:{card.id}"
        self.modifies: dict[str, list[CompiledRule]] = {}
        self.reacts: dict[str, list[CompiledRule]] = {}
        self.replaces: dict[str, list[CompiledRule]] = {}
        self.uses: dict[str, list[CompiledRule]] = {}   # occasion event → limited modifies
        self.offers: list[CompiledRule] = []
        for r in rules:
            if r.rule.kind == "modify":
                self.modifies.setdefault(_declared(r), []).append(r)
                if r.occasion is not None:
                    for name in r.occasion.on:
                        self.uses.setdefault(name, []).append(r)
            elif r.rule.kind == "after":
                self.reacts.setdefault(_declared(r), []).append(r)
            elif r.rule.kind in ("replace", "before"):
                self.replaces.setdefault(_declared(r), []).append(r)
            else:
                self.offers.append(r)
        # A quantity whose rules all act for the player its context names (no 'by WHO'):
        # its folds ask only whether that player holds the card (the ctx key).
        self.for_subject: dict[str, str] = {}
        for name, found in self.modifies.items():
            subjects = {r.word.subject if r.word is not None else "" for r in found}
            if len(subjects) == 1 and "" not in subjects and all(r.by is None
                                                                  for r in found):
                self.for_subject[name] = subjects.pop()
        # An event kind whose rules all act on the event's own player (a subject, no 'by
        # WHO'): only that player's holding is asked when it happens.
        self.reacts_for_actor = _for_actor(self.reacts)
        self.replaces_for_actor = _for_actor(self.replaces)
        # What this card answers, so the bus calls it for nothing else.
        self.MODIFIES = frozenset(self.modifies)
        self.TRIGGERED_BY = frozenset(self.reacts) | frozenset(self.uses)
        self.REPLACES = frozenset(self.replaces)
        # Register only the hooks this card uses, so the others cost nothing. Each is a
        # plain-Python function of the hook's parameters calling the method: what pluggy
        # reads, whether or not this module is compiled (docs/speed.md).
        if self.modifies:
            self.mn_modifiers = _hook("mn_modifiers", self._modifiers, "game", "quantity",
                                      "ctx")
        if self.TRIGGERED_BY:
            self.mn_triggers = _hook("mn_triggers", self._triggers, "game", "event")
        if self.replaces:
            self.mn_replacements = _hook("mn_replacements", self._replacements, "game",
                                         "event")
        if self.offers:
            self.mn_build_offers = _hook("mn_build_offers", self._build_offers, "game",
                                         "player")

    def card_holder_key(self, hook: str, name: str) -> str:
        """Whose holding of this card decides whether it answers ``hook`` for ``name`` (a
        quantity or an event kind): the context key naming him in a fold, "*" for the
        event's own player, "" for anyone's (the game skips the call otherwise)."""
        if hook == "mn_modifiers":
            return self.for_subject.get(name, "")
        if hook == "mn_triggers":
            return "*" if name in self.reacts_for_actor and name not in self.uses else ""
        if hook == "mn_replacements":
            return "*" if name in self.replaces_for_actor else ""
        return "*"   # its build offers: only the buyer's holding counts

    def limit_key(self, r: CompiledRule, holder: str) -> str:
        return f"{self.card.id}#{r.index}/{holder}"

    def _open(self, game: Game[Any], r: CompiledRule, holder: str) -> bool:
        """Whether ``r`` may answer for ``holder`` now: its limit not used up, the card
        not silenced for him (``cancel CARD ...``, :mod:`.silence`)."""
        if r.rule.limit is not None and not limit_open(game, self.limit_key(r, holder),
                                                        r.rule.limit):
            return False
        return not (SILENCE_KEY in game.state.vars and
                    silenced(game.state, self.card.id, holder))

    def _modifiers(self, game: Game[Any], quantity: str,
                   ctx: dict[str, Any]) -> list[Modifier] | None:
        rules = self.modifies.get(quantity)
        if rules is None:
            return None
        out: list[Modifier] = []
        key = self.for_subject.get(quantity)
        for holder, rank in holders(game, self.card.id, self.others) if key is None else \
                _holding(self, game, ctx.get(key)):
            for r in rules:
                assert r.word is not None
                subject = r.word.subject
                if subject and r.by is None and ctx.get(subject) != holder:
                    continue   # (the common case, before anything is built)
                env = Env(game, holder, self.card.id, ctx)
                if subject and r.by is not None and not r.acts_on(env, ctx.get(subject)):
                    continue
                if not self._open(game, r, holder) or not r.cond(env):
                    continue
                for layer, make in r.ops:
                    out.append(Modifier(self.source, make(env), layer, rank))
        return out or None

    def _used(self, game: Game[Any], event: Event) -> None:
        """A limited modifier's occasion has happened: each holder for whom it applied
        (in any of the contexts the game names for the event) has used it."""
        for r in self.uses.get(event.kind, ()):
            assert r.occasion is not None and r.word is not None and r.rule.limit
            contexts = r.occasion.meaning(game, event)
            for holder, _ in holders(game, self.card.id, self.others):
                if not self._open(game, r, holder):
                    continue
                for ctx in contexts:
                    env = Env(game, holder, self.card.id, ctx)
                    if r.word.subject and not r.acts_on(env, ctx.get(r.word.subject)):
                        continue
                    if r.cond(env):
                        use_limit(game, self.limit_key(r, holder), r.rule.limit)
                        break

    def _events(self, game: Game[Any], table: dict[str, list[CompiledRule]],
                event: Event) -> list[tuple[CompiledRule, Env, int]]:
        rules = table.get(event.kind)
        if rules is None:
            return []
        out = []
        for_actor = self.reacts_for_actor if table is self.reacts else self.replaces_for_actor
        for holder, rank in _holding(self, game, event.player) if event.kind in for_actor \
                else holders(game, self.card.id, self.others):
            for r in rules:
                assert r.word is not None
                if r.by is None and r.word.subject and event.player != holder:
                    continue   # acts_on's answer, before an Env is made for nothing
                env = Env(game, holder, self.card.id, dict(event.data), event)
                if r.by is not None and not r.acts_on(env, event.player):
                    continue
                if self._open(game, r, holder) and r.cond(env):
                    out.append((r, env, rank))
        return out

    def _triggers(self, game: Game[Any], event: Event) -> list[Trigger] | None:
        if event.kind in self.uses:
            self._used(game, event)
        found = self._events(game, self.reacts, event)
        return [Trigger(self.source, self._reaction(r, env), ADD, rank)
                for r, env, rank in found] or None

    def _reaction(self, r: CompiledRule, env: Env) -> Callable[[Event], None]:
        # (bound, not a closure: mypyc compiles no closure in this plugin's methods)
        return partial(_react, self, r, env)

    def act(self, r: CompiledRule, env: Env) -> None:
        """Run a trigger's actions, in the order written. Once one asks a question, it
        and all after it become frames, so the loop keeps that order around the
        answer; an 'if you do' action waits for its 'may' to be answered yes."""
        game = env.game
        limit = [self.limit_key(r, env.holder), r.rule.limit] if r.rule.limit else None
        # A limited rule that opens with "you may" is used up only if he says yes.
        if limit is not None and not (r.actions and r.actions[0].optional):
            use_limit(game, *limit)
            limit = None
        frames: list[tuple[str, dict[str, Any]]] = []
        for i, a in enumerate(r.actions):
            if a.if_done:
                continue
            if a.picks_actor:
                frames.append(("card.who", {"card": self.card.id, "rule": r.index,
                                            "action": i, "holder": env.holder,
                                            "ctx": env.ctx}))
                continue
            for actor in a.actors(env):
                data = {"card": self.card.id, "rule": r.index, "action": i,
                        "holder": env.holder, "actor": actor, "ctx": env.ctx}
                if a.optional:
                    if limit is not None and i == 0:
                        data["limit"] = limit
                    frames.append(("card.may", data))
                elif a.asks:
                    frames.append(("card.choose", data))
                elif frames:
                    frames.append(("card.do", data))
                else:
                    a.word.meaning(env.acting(actor), *a.args)
        game.push_all(frames)

    def _replacements(self, game: Game[Any], event: Event) -> list[Replacement] | None:
        found = self._events(game, self.replaces, event)
        out = []
        for r, env, rank in found:
            how = _before if r.rule.kind == "before" else _change
            out.append(Replacement(self.source, partial(how, self, r, env), ADD, rank))
        return out or None

    def _build_offers(self, game: Game[Any], player: str) -> list[Offer]:
        out = []
        for holder, _ in _holding(self, game, player):   # only the buyer's holding counts
            for r in self.offers:
                env = Env(game, holder, self.card.id, {"player": player})
                if not self._open(game, r, holder) or not r.cond(env):
                    continue
                assert r.offer is not None
                offer = r.offer(env)
                if offer.count > 0:
                    out.append(offer)
        return out


def _bare_pay(action: CompiledAction) -> bool:
    """A 'you may pay N R' with nothing of its own to do: the payment is the 'may'."""
    return action.optional and action.pay is None and not action.alternatives \
        and action.word.pattern.split()[0] == "pay"


def _filled_pattern(action: CompiledAction) -> str:
    values = iter(action.args)
    return " ".join(str(next(values, t)) if t.startswith("{") and t.endswith("}") else t
                    for t in action.word.pattern.split())


def _holding(card: CardEffects, game: Game[Any], player: Any) -> list[tuple[str, int]]:
    """:meth:`CardEffects.holding`, which the card's own hooks call here: a method of
    a non-native class costs the compiled core a generic call (its arguments parsed)
    at every fold and listing it answers, a module function a native one."""
    card_id = card.card_id
    state = game.state
    out = [(player, ORIGINAL_RANK)] if player in state.players and \
        card_id in state.cards_held(player) else []
    for w in card.others:
        for p, rank in w.meaning(game, card_id):
            if p == player:
                out.append((p, rank))
    return out


def _for_actor(table: dict[str, list[CompiledRule]]) -> frozenset[str]:
    """The event kinds of ``table`` whose rules all act on the event's own player (a
    subject, no 'by WHO'): only his holding of the card matters when one happens."""
    return frozenset(kind for kind, found in table.items()
                     if all(r.word is not None and r.word.subject and r.by is None
                            for r in found))


def _react(card: CardEffects, r: CompiledRule, env: Env, event: Event) -> None:
    """An 'after' rule's trigger: its actions run."""
    card.act(r, env)


def _before(card: CardEffects, r: CompiledRule, env: Env, ev: Event) -> Event | None:
    """A 'before' rule's replacement: its actions run, the event goes on unchanged."""
    env.event = ev
    card.act(r, env)
    return ev


def _change(card: CardEffects, r: CompiledRule, env: Env, ev: Event) -> Event | None:
    """A 'replace' rule's replacement: each change word rewrites the event in turn (None:
    it does not happen)."""
    if r.rule.limit is not None:
        use_limit(env.game, card.limit_key(r, env.holder), r.rule.limit)
    current: Event | None = ev
    for a in r.actions:
        if current is None:
            break
        env.event = current
        if a.word.kind == "change":
            current = a.word.meaning(env, *a.args)
            continue
        # an action done at once, in the order written ('pay 2 coin, cancel it')
        for actor in a.actors(env):
            a.word.meaning(env.acting(actor), *a.args)
    return current


# -- compiling ---------------------------------------------------------------------------
class _Compiler:
    def __init__(self, vocab: Vocabulary, card: CardData, lines: list[str]) -> None:
        self.vocab = vocab
        self.card = card
        self.lines = lines
        self.problems: list[Problem] = []
        self.target: Word | None = None   # the quantity or event of the rule compiled
        self.placed = True                 # whether words must fit it (Word.on)
        self.own = False                   # an event rule with no 'by': the holder's own
        self.negated = False               # inside a 'not'
        self.rule_kind = ""                # after, before, replace or modify

    def problem(self, pos: Any, message: str) -> None:
        src = self.lines[pos.line - 1] if 0 < pos.line <= len(self.lines) else ""
        self.problems.append(Problem(self.card.file, pos.line, pos.column, src, message))

    def word(self, kind: str, phrase: Phrase, what: str) -> tuple[Word, list[Any]] | None:
        found = self.vocab.match(kind, phrase.words)
        if found is None:
            hint = self.vocab.nearest(kind, phrase.words)
            self.problem(phrase.pos, f"unknown {what} '{phrase.text}'"
                         + (f"; did you mean '{hint}'?" if hint else
                            f"; known: {listed(self.vocab.known(kind))}"))
            return None
        w = found[0]
        if w.on and self.placed and (self.target is None or self.target.meaning not in w.on):
            self.problem(phrase.pos, self.misplaced(w, what))
        elif w.never_own and self.own and not self.negated and self.target is not None \
                and self.target.meaning in w.never_own:
            self.problem(phrase.pos, f"the {what} '{w.pattern}' is never true here: with "
                         f"no 'by', a rule on '{self.target.pattern}' reacts only when you "
                         f"are {self.target.whose or 'its player'}; write "
                         f"'{self.rule_kind} {self.target.pattern} by an opponent when "
                         f"{phrase.text}'")
        for slot, i in self.vocab.slots(w, phrase.words):
            n = phrase.words[i]
            if slot == "n" and isinstance(n, int):
                self.in_range(n, phrase.at(i), w.numbers, f"{what} '{w.pattern}'")
        why = w.refuses(self.vocab.sets, *found[1]) if w.refuses is not None else None
        if why:
            self.problem(phrase.pos, f"the {what} '{phrase.text}' cannot be: {why}")
        return found

    def misplaced(self, w: Word, what: str) -> str:
        """Why ``w``, which reads what only the quantities and events of its ``on``
        carry, cannot serve the rule being compiled."""
        words = sorted({self.vocab.word_for(name) for name in w.on})
        listed = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
        target = "an offer" if self.target is None else \
            f"the {self.target.kind} '{self.target.pattern}'"
        return (f"the {what} '{w.pattern}' means something only for {listed}, whose "
                f"context it reads; not for {target}")

    def in_range(self, n: int, pos: Any, numbers: tuple[int, int], what: str) -> bool:
        """``n`` is within the range the word declares; else a problem naming both."""
        low, high = numbers
        if low <= n <= high:
            return True
        self.problem(pos, f"{n} is out of range for the {what}: "
                     + (f"from {low} to {high}" if low < high else f"only {low}")
                     + " allowed")
        return False

    MAX_DEPTH = 32  # conditions nest at most this deep, so evaluation stays shallow

    def cond(self, c: Cond | None, depth: int = 0) -> Callable[[Env], bool]:
        if c is None:
            return lambda env: True
        if depth > self.MAX_DEPTH:
            first = c
            while first.phrase is None and first.parts:
                first = first.parts[0]
            where = first.phrase.pos if first.phrase else None
            if where is not None:
                self.problem(where, f"this condition nests more than {self.MAX_DEPTH} deep")
            return lambda env: False
        c = natural(self.vocab, c)   # "you control at least 5 provinces"
        if c.kind == "test":
            assert c.phrase is not None
            if compares(c.phrase.words):   # a comparison, but of no count known
                self.problem(c.phrase.pos, f"unknown condition '{c.phrase.text}': a count "
                             f"is compared with a number as 'at least N COUNT' or 'at most "
                             f"N COUNT'; the counts: "
                             f"{', '.join(self.vocab.known('count'))}")
                return lambda env: False
            found = self.word("condition", c.phrase, "condition")
            if found is None:
                return lambda env: False
            w, args = found
            return lambda env: bool(w.meaning(env, *args))
        if c.kind in ("at_least", "at_most", "more", "fewer"):
            return self.compare(c)
        negated = self.negated
        self.negated = negated != (c.kind == "not")
        parts = [self.cond(p, depth + 1) for p in c.parts]
        self.negated = negated
        if c.kind == "not":
            return lambda env: not parts[0](env)
        if c.kind == "and":
            return lambda env: parts[0](env) and parts[1](env)
        return lambda env: parts[0](env) or parts[1](env)

    def number(self, phrase: Phrase) -> Callable[[Env], int] | None:
        """A count that is a number (not resources), for 'per' and comparisons."""
        found = self.word("count", phrase, "count")
        if found is None:
            return None
        w, args = found
        if w.vtype != "int":
            self.problem(phrase.pos, f"the count '{w.pattern}' is not a number: it cannot "
                         f"be compared or follow 'per'")
            return None
        return lambda env: int(w.meaning(env, *args))

    def compare(self, c: Cond) -> Callable[[Env], bool]:
        """'at least N COUNT', 'at most N COUNT', 'more COUNT than COUNT', 'fewer ...'."""
        assert c.phrase is not None
        a = self.number(c.phrase)
        if c.kind in ("at_least", "at_most"):
            self.in_range(c.n, c.pos or c.phrase.pos, (0, 999), "comparison")
            n = c.n
            if a is None:
                return lambda env: False
            first = a
            if c.kind == "at_least":
                return lambda env: first(env) >= n
            return lambda env: first(env) <= n
        assert c.other is not None
        b = self.number(c.other)
        if a is None or b is None:
            return lambda env: False
        x, y = a, b
        if c.kind == "more":
            return lambda env: x(env) > y(env)
        return lambda env: x(env) < y(env)

    def value(self, v: Value, q: Word, fallback: Any) -> Callable[[Env], Any]:
        """A value for quantity ``q``: a number, 'N per COUNT', 'N RESOURCE' or a count."""
        what = f"quantity '{q.pattern}'"
        if v.kind != "count":
            self.in_range(v.n, v.pos or fallback, q.numbers, what)
        if v.divisor < 1:
            self.problem(v.divisor_pos or v.pos or fallback, "'per 0 ...' divides by "
                         "nothing: the number after 'per' is at least 1")
        div = max(1, v.divisor)
        if v.kind == "amount_per":
            assert v.phrase is not None and v.per is not None
            key = self.resource(v.phrase)
            times = self.number(v.per)
            n = v.n
            if times is None:
                return lambda env: [] if q.vtype == "list" else 0
            count = times
            if q.vtype == "list":
                return lambda env: [(key, k)] if (k := n * (count(env) // div)) else []
            return lambda env: n * (count(env) // div)
        if q.vtype == "list" and v.kind in ("number", "per"):
            self.problem(v.pos or fallback, f"'{q.pattern}' is a list of resources: add an "
                         f"amount of a resource ('{v.n} {self.vocab.example_resource()}') or "
                         f"a count of goods, "
                         f"not a bare number")
            return lambda env: []
        if v.kind == "number":
            n = v.n
            return lambda env: n
        assert v.phrase is not None
        if v.kind == "amount":
            key = self.resource(v.phrase)
            n = v.n
            if q.vtype == "list":
                return lambda env: [(key, n)]
            return lambda env: n
        found = self.word("count", v.phrase, "count")
        if found is None:
            return lambda env: 0
        w, args = found
        wanted = "list" if q.vtype == "list" and v.kind == "count" else "int"
        if w.vtype != wanted:
            self.problem(v.phrase.pos, f"the count '{w.pattern}' "
                         + ("is not a number: it cannot follow 'per' or change "
                            f"'{q.pattern}'" if wanted == "int" else
                            f"is a number, not resources: '{q.pattern}' needs resources"))
            return lambda env: [] if q.vtype == "list" else 0
        n = v.n
        if v.kind == "per":
            return lambda env: n * (int(w.meaning(env, *args)) // div)
        return lambda env: w.meaning(env, *args)

    def resource(self, phrase: Phrase) -> str:
        """The resource a payment or an amount names: a 'resource' word of the game's
        (its goods, its money), singular or plural."""
        text = phrase.text
        names = frozenset(w.pattern for w in self.vocab.words("resource"))
        found = singular(text, names)
        if found is not None:
            return found
        hint = self.vocab.nearest("resource", phrase.words)
        self.problem(phrase.pos, f"unknown resource '{text}'"
                     + (f"; did you mean '{hint}'?" if hint else ""))
        return text

    def op(self, op: Op, q: Word, pos: Any) -> tuple[int, Callable[[Env], Callable[[Any], Any]]]:
        qtype = q.vtype
        allowed = {"int": {"add", "subtract", "set", "double", "floor", "ceiling"},
                   "list": {"include"} if q.holds == "players" else {"add"},
                   "sizes": {"choose", "add", "subtract"}, "setrules": {"allow"},
                   "flag": {"set"}}[qtype]
        if op.kind not in allowed:
            self.problem(op.pos or pos, f"'{op.kind}' does not apply to this quantity; use "
                         f"{' or '.join(sorted(allowed))}")
            return ADD, lambda env: (lambda v: v)
        if qtype == "sizes" and op.kind in ("add", "subtract"):
            return ADD, self.shift_sizes(op, q, pos)
        if op.kind in ("floor", "ceiling"):
            assert op.value is not None
            bound = self.value(op.value, q, op.pos or pos)
            pick = max if op.kind == "floor" else min

            def limit(env: Env) -> Callable[[Any], Any]:
                x = bound(env)  # evaluated once, when the effect applies
                return lambda v: pick(v, x)
            return LIMIT, limit
        if op.kind in ("add", "subtract", "set"):
            assert op.value is not None
            val = self.value(op.value, q, op.pos or pos)
            folds: dict[str, Callable[[Any, Any], Any]] = {
                "add": lambda v, x: v + x, "subtract": lambda v, x: v - x,
                "set": lambda v, x: x}
            fold = _capped(folds[op.kind], q.ceiling)

            def make(env: Env) -> Callable[[Any], Any]:
                x = val(env)  # evaluated once, when the effect applies
                return lambda v: fold(v, x)
            return (SET if op.kind == "set" else ADD), make
        if op.kind == "double":
            twice = _capped(lambda v, x: v * 2, q.ceiling)
            return MULTIPLY, lambda env: (lambda v: twice(v, None))
        if op.kind == "choose":
            low, high = op.low, op.high
            what = f"quantity '{q.pattern}'"
            fits = [self.in_range(low, op.low_pos or pos, q.numbers, what),
                    self.in_range(high, op.high_pos or pos, q.numbers, what)]
            if all(fits) and low > high:
                self.problem(op.high_pos or pos, f"'choose {low} to {high}' chooses from "
                             f"nothing: the second number must not be below the first")
            sizes = tuple(range(low, high + 1)) if all(fits) else ()
            return SET, lambda env: (lambda v: sizes)
        assert op.phrase is not None
        kind = "allowance" if op.kind == "allow" else "include"
        found = self.word(kind, op.phrase, kind)
        if found is None:
            return ADD, lambda env: (lambda v: v)
        w, args = found
        if kind == "allowance":
            n = op.low
            self.in_range(n, op.low_pos or pos, w.numbers, f"allowance '{w.pattern}'")
            return ADD, lambda env: (lambda v: w.meaning(env, v, n, *args))
        return ADD, lambda env: (lambda v: [*v, w.meaning(env, *args)])

    def shift_sizes(self, op: Op, q: Word, pos: Any) -> Callable[[Env], Callable[[Any], Any]]:
        """'add N' / 'subtract N' of a choice of sizes (an offer's): every size the
        rules allow moves by N, kept within the quantity's numbers (so 'subtract 1'
        of 1 to 3 offers 0 to 2)."""
        assert op.value is not None
        if op.value.kind != "number":
            self.problem(op.pos or pos, f"'{op.kind}' of a choice of sizes takes a number "
                         f"('{op.kind} 1'), not a count")
            return lambda env: (lambda v: v)
        n = op.value.n if op.kind == "add" else -op.value.n
        self.in_range(op.value.n, op.pos or pos, q.numbers, f"quantity '{q.pattern}'")
        low, high = q.numbers

        def make(env: Env) -> Callable[[Any], Any]:
            return lambda v: tuple(sorted({min(max(int(s) + n, low), high) for s in v}))
        return make

    def rule(self, rule: Rule, index: int) -> CompiledRule | None:
        kind = {"modify": "quantity", "after": "event", "replace": "event",
                "before": "event"}.get(rule.kind)
        self.target = self.vocab.named(kind, rule.name) if kind else None
        self.placed = kind is None or self.target is not None  # else nothing to fit
        self.own = kind == "event" and rule.by is None
        self.rule_kind = rule.kind
        out = CompiledRule(rule, index, self.cond(rule.cond))
        if rule.by is not None:
            out.by = self.subject(rule.by)
            if self.target is not None and not self.target.subject:
                self.problem(rule.by.pos, f"'by ...' picks whose {self.target.kind} it is, "
                             f"but '{self.target.pattern}' is nobody's in particular")
        if rule.kind == "modify":
            found = self.named("quantity", rule)
            if found is None:
                return None
            out.word = found
            for op in rule.ops:
                out.ops.append(self.op(op, found, rule.name_pos or rule.pos))
            if rule.limit is not None:
                out.occasion = self.occasion(rule, found)
        elif rule.kind in ("after", "replace", "before"):
            found = self.named("event", rule)
            if found is None:
                return None
            if found.reported and rule.kind != "after":
                # (its action has run when it is performed: a cancel would say "does not
                # happen" of what did, a change would change nothing)
                told = found.doc.rstrip(".")
                self.problem(rule.name_pos or rule.pos, f"'{found.pattern}' is told once it "
                             f"has happened ({told[:1].lower()}{told[1:]}): there is nothing "
                             f"left for '{rule.kind}' to change; react to it with 'after "
                             f"{found.pattern}'")
                return None
            out.word = found
            for act in rule.actions:
                if rule.kind == "replace" and act.choices:
                    self.problem(act.phrase.pos, "a replacement changes its event at once: "
                                 "it cannot ask ('you choose: ...'); ask in an 'after' rule")
                    continue
                if rule.kind == "replace" and act.optional:
                    r = self.vocab.example_resource()
                    self.problem(act.phrase.pos, "a 'replace' rule acts at once, while the "
                                 "event is under way: it cannot ask ('may', a choice); a "
                                 f"condition decides ('when you have 2 {r}: pay 2 {r}, "
                                 "cancel it')")
                    continue
                if rule.kind == "replace" and (
                        is_change(self.vocab, act)
                        or read_action(self.vocab, act).action_word is None):
                    w = self.word("change", act.phrase, "replacement")
                    if w is not None:
                        out.actions.append(CompiledAction(act.optional, w[0], w[1]))
                    continue
                compiled = self.action(act, rule.kind)
                if compiled is None:
                    continue
                if compiled.if_done:
                    may = next((i for i in range(len(out.actions) - 1, -1, -1)
                                if out.actions[i].optional), None)
                    if may is None:
                        self.problem(act.phrase.pos, "'if you do' follows a 'may' action "
                                     f"(… may pay 1 {self.vocab.example_resource()} to …, "
                                     "if you do …)")
                        continue
                    out.actions[may].then += (len(out.actions),)
                elif out.actions and _bare_pay(out.actions[-1]):
                    paid = out.actions[-1]
                    what = _filled_pattern(paid)
                    self.problem(act.phrase.pos, f"'you may {what}, {act.phrase.text}' would "
                                 f"do '{act.phrase.text}' whether he pays or not: write "
                                 f"'you may {what} to {act.phrase.text}' (or 'you may "
                                 f"{what}, if you do {act.phrase.text}'); if it is meant "
                                 f"either way, write it as a rule of its own")
                    continue
                out.actions.append(compiled)
        else:
            out.offer = self.offer(rule, index)
        return out

    def occasion(self, rule: Rule, q: Word) -> Word | None:
        """The event that uses up a limited modifier of ``q``, as the game names it (an
        'occasion' word keyed to the quantity's declared name); else a problem: a
        limit nothing uses up would be a limit in name only."""
        found = self.vocab.named("occasion", str(q.meaning))
        if found is None:
            named = sorted(w.pattern for w in self.vocab.words("occasion"))
            shown = ", ".join(self.vocab.word_for(n) for n in named)
            self.problem(rule.pos, f"'once per {rule.limit}' cannot limit "
                         f"'{q.pattern}': the rules name no event that uses a change of it "
                         f"up; a limited modify serves "
                         + (shown or "no quantity in this game"))
        return found

    def subject(self, phrase: Phrase) -> tuple[Word, list[Any]] | None:
        return self.word("subject", phrase, "player (who)")

    def choice(self, act: Action, rule_kind: str) -> CompiledAction | None:
        """'you choose: A or B [or C]' ('WHO chooses: ...'): each alternative an action
        as a 'may' reads it, without its 'may' ('[WHO] [pay N R to] ACTION')."""
        head = act.phrase.words
        ok = len(head) >= 2 and head[-1] in ("choose", "chooses") and \
            (head[:-1] == ("you",) or head[-1] == "chooses")
        subject = None
        if not ok:
            self.problem(act.phrase.pos, f"'{act.phrase.text}:' is not a choice: a choice "
                         f"reads 'you choose: ACTION or ACTION' (or 'WHO chooses: ...')")
        elif head[:-1] != ("you",):
            subject = self.subject(Phrase(head[:-1], act.phrase.pos, act.phrase.places[:-1]))
            if subject is None:
                return None
        if len(act.choices) < 2:
            r = self.vocab.example_resource()
            self.problem(act.choices[0].pos, "a choice offers two actions or more, joined "
                         f"by 'or' (you choose: take 2 {r} or ...)")
        if rule_kind == "before":
            self.problem(act.phrase.pos, f"a '{rule_kind}' rule acts at once, while the "
                         f"event is under way: it cannot ask ('may', a choice); ask in an "
                         f"'after' rule")
        alternatives: list[CompiledAction] = []
        for phrase in act.choices:
            if phrase.words[:1] == ("or",):
                self.problem(phrase.pos, "'or' with no action before it")
                continue
            if phrase.text in (a.text for a in alternatives):
                self.problem(phrase.pos, f"'{phrase.text}' is offered twice")
                continue
            alt = self.action(Action(True, phrase), "after", alternative=True)
            if alt is not None:
                alternatives.append(alt)
        if not ok or len(alternatives) != len(act.choices):
            return None
        return CompiledAction(False, CHOICE, [], subject, alternatives=tuple(alternatives))

    def action(self, act: Action, rule_kind: str,
               alternative: bool = False) -> CompiledAction | None:
        """'[if you do] [WHO] [may] [pay N R to] ACTION' (see :mod:`.actions`); an
        ``alternative`` of a choice is read as a 'may' is, and is not optional."""
        if act.choices:
            return self.choice(act, rule_kind)
        parts = read_action(self.vocab, act)
        if alternative and parts.if_done:
            self.problem(act.phrase.pos, "'if you do' follows a 'may', never an action "
                         "of a choice")
            return None
        if not parts.action.words:
            self.problem(act.phrase.pos, "'if you do' needs an action after it")
            return None
        subject = self.subject(parts.subject) if parts.subject is not None else None
        if parts.subject is not None and subject is None:
            return None
        pay = None
        if parts.pay is not None:
            if parts.test_word is None or parts.pay_word is None:
                self.problem(parts.pay.pos, f"cannot pay '{parts.pay.text}': the game has no "
                             f"'you have {parts.pay.text}' condition and 'pay "
                             f"{parts.pay.text}' action (write an amount of a resource, as "
                             f"'1 {self.vocab.example_resource()}')")
                return None
            pay = (parts.test_word, parts.pay_word)
        w = self.word("action", parts.action, "action")
        if w is not None and act.per is not None:
            w = self.scaled(w, act)
        if w is None:
            return None
        if alternative:
            return CompiledAction(False, w[0], w[1], subject, pay, text=act.phrase.text)
        asks = act.optional or isinstance(w[0].meaning, Interactive) or \
            (subject is not None and bool(getattr(subject[0].meaning, "one", False)))
        if rule_kind in ("before", "replace") and asks:
            self.problem(act.phrase.pos, f"a '{rule_kind}' rule acts at once, while the "
                         f"event is under way: it cannot ask ('may', a choice); ask in an "
                         f"'after' rule of an earlier event")
        return CompiledAction(act.optional, w[0], w[1], subject, pay, parts.if_done)

    def scaled(self, found: tuple[Word, list[Any]],
               act: Action) -> tuple[Word, list[Any]] | None:
        """'ACTION per [M] COUNT': the action's number, for each (whole M of the) count,
        counted as it is done (its 'you' the actor)."""
        word, args = found
        assert act.per is not None
        slots = re.findall(r"\{(\w+)\}", word.pattern)
        if "n" not in slots or isinstance(word.meaning, Interactive):
            why = "asks a choice, once" if isinstance(word.meaning, Interactive) else \
                "has no number to multiply"
            self.problem(act.per.pos, f"'per' multiplies an action's number ('ACTION N "
                         f"... per COUNT'): '{word.pattern}' {why}")
            return None
        if act.divisor < 1:
            self.problem(act.divisor_pos or act.per.pos, "'per 0 ...' divides by nothing: "
                         "the number after 'per' is at least 1")
            return None
        times = self.number(act.per)
        if times is None:
            return None
        return replace(word, meaning=Scaled(word.meaning, slots.index("n"), times,
                                            act.divisor)), args

    def named(self, kind: str, rule: Rule) -> Word | None:
        """The quantity or event word a rule names; else a problem naming the nearest
        word (and why, if it is a declared name that no card may name)."""
        found = self.vocab.named(kind, rule.name)
        if found is not None:
            return found
        why = self.vocab.unnamed.get(kind, {}).get(rule.name)
        hint = self.vocab.nearest_name(kind, rule.name)
        if why and self.vocab.word_for(rule.name) == rule.name:
            hint = None   # a declared name no card may use: the words it may, not a lookalike
        self.problem(rule.name_pos or rule.pos, f"unknown {kind} '{rule.name}'"
                     + (f": {why}" if why else "")
                     + (f"; did you mean '{hint}'?" if hint else
                        f"; known: {listed(self.vocab.known(kind))}"))
        return None

    def offer(self, rule: Rule, index: int) -> Callable[[Env], Offer] | None:
        assert rule.item is not None
        found = self.word("item", rule.item, "item")
        if found is None:
            return None
        item_word, item_args = found
        mult = None
        if rule.multiplier is not None:
            mult = self.word("count", rule.multiplier, "count")
            if mult is not None and mult[0].vtype != "int":
                self.problem(rule.multiplier.pos, f"the count '{mult[0].pattern}' is not a "
                             f"number: it cannot follow 'per'")
                mult = None
        most = item_word.numbers[1]
        for p in rule.payments:
            for part in p.parts:
                self.in_range(part.n, part.pos or rule.pos, item_word.numbers,
                              f"payment for '{rule.item.text}'")
            total = sum(part.n for part in p.parts)
            if len(p.parts) > 1 and total > most:
                self.problem(p.parts[0].pos or rule.pos, f"a payment of {total} resources "
                             f"for '{rule.item.text}': at most {most} allowed in all")
        # a payment is the resources it takes, each as often as its amount says (the
        # amounts of "1 coin and 1 grain" together); () is free
        payments = tuple(tuple(r for part in p.parts
                               for r in (self.resource(part.phrase),)
                               * min(part.n, item_word.numbers[1]))
                         for p in rule.payments)
        card = self.card.id

        def make(env: Env) -> Offer:
            item, where = item_word.meaning(env, *item_args)
            count = 1
            if mult is not None:
                count = int(mult[0].meaning(env, *mult[1]))
            return Offer(f"card:{card}#{index}", env.holder, item, where, payments,
                              count, f"{card}#{index}/{env.holder}" if rule.limit else None,
                              rule.limit)
        return make


def _capped(fold: Callable[[Any, Any], Any],
            ceiling: int | None) -> Callable[[Any, Any], Any]:
    """``fold``, kept from taking a number above ``ceiling`` (or above the value it
    started from, if that was higher already)."""
    if ceiling is None:
        return fold

    def capped(v: Any, x: Any) -> Any:
        out = fold(v, x)
        if isinstance(out, int) and not isinstance(out, bool) and isinstance(v, int):
            return min(out, max(v, ceiling))
        return out
    return capped


def compile_card(card: CardData, vocab: Vocabulary, rules: list[Rule],
                 lines: list[str]) -> CardEffects:
    comp = _Compiler(vocab, card, lines)
    compiled = [c for i, r in enumerate(rules) if (c := comp.rule(r, i)) is not None]
    if comp.problems:
        raise ScriptError(comp.problems)
    return CardEffects(card, compiled, tuple(vocab.words("holder")))
