"""The rules' contract: every name the rule plugins share, declared once by its owner.

The plugins talk to each other through names: the quantities folded by
:meth:`Game.fold <mnrules.core.engine.Game.fold>` (a cost, a dice total), the events done by
:meth:`Game.perform <mnrules.core.engine.Game.perform>` (replacements and triggers may act on
them) or only told by :meth:`Game.emit <mnrules.core.engine.Game.emit>` (observers see them),
and the kinds of the decisions the steps ask. Each plugin declares the names it owns
from its ``mn_contract`` hook (:mod:`mnrules.hooks.hookspecs`); this module gathers them into
one :class:`Contract`, refuses a name declared twice, and is what the bus
(:mod:`mnrules.hooks.bus`) checks a name against the first time it meets it, so a misspelt
name is refused instead of silently matching nothing.

The kernel declares its own names here (:data:`KERNEL`); the game's are the plugins'.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..content.yamlsource import did_you_mean, suggest
from ..errors import MnrulesError

if TYPE_CHECKING:
    import pluggy

    from ..language.words import Terms, Word

Pairs = tuple[tuple[str, str], ...]
"""(key, meaning) pairs: the keys of a fold's context or of an event's data."""

VALUE_TYPES = {
    "int": "a whole number",
    "flag": "true or false",
    "list": "a list, in order",
    "set": "a set of ids",
    "sizes": "a tuple of whole numbers, the sizes allowed",
    "setrules": "a payment's set rules (plugins/payment.py)",
}
"""What a folded value may be; card scripts may modify int, flag, list, sizes, setrules."""


class ContractError(MnrulesError):
    """The rules' contract is broken: a name declared twice, or a plugin answering for a
    name nobody declared."""


class UndeclaredName(ContractError):
    """A quantity was folded, or an event performed or emitted, that no plugin declares."""

    def __init__(self, use: str, what: str, name: str, hint: str | None, kind: str) -> None:
        self.name = name
        self.hint = hint
        super().__init__(f"{use}: no plugin declares the {what} {name!r}"
                         + (f"; did you mean {hint!r}?" if hint else "")
                         + f" Every {what} must be declared once, by the plugin that owns "
                         f"it, from its mn_contract hook (a mnrules.hooks.contract.{kind}).")


@dataclass(frozen=True, slots=True)
class Quantity:
    """A value the rules fold through every active modifier (``game.fold(name, value,
    **context)``)."""

    name: str
    owner: str          # the plugin that folds it
    meaning: str        # one sentence, as a rulebook would put it
    value: str          # what the value is: a key of VALUE_TYPES
    context: Pairs = ()  # the keyword arguments of the fold, with their meaning
    subject: str = ""   # the context key naming whose value it is ("" for nobody's)
    word: str = ""      # the effect language's name for it, if card scripts may modify it


@dataclass(frozen=True, slots=True)
class EventKind:
    """Something that happens: an :class:`~mnrules.core.effects.Event` of kind ``name``."""

    name: str
    owner: str          # the plugin that performs or emits it
    meaning: str
    performed: bool     # True: done through game.perform, so replacements and triggers
    #                     may act on it; False: only emitted, for observers (logs)
    data: Pairs = ()    # the keys of its data, with their meaning
    player: str = ""    # who Event.player is ("" when it is None)
    word: str = ""      # the effect language's name for it, if card scripts may react
    reported: bool = False
    #   True: performed once it has happened (a collection made, a battle over, a phase
    #   begun): triggers react to it, but there is nothing left for a replacement to
    #   change or cancel, so a card's 'replace' and 'before' may not name it
    told: bool = True
    #   False: players are told nothing of it (bookkeeping, or what another event tells)
    message: str = ""
    #   the key of its sentence in a pack's messages.yaml ("" for ``event.<name>``); a
    #   pack without it tells the event by its meaning (:meth:`Presenter.event`)


@dataclass(frozen=True, slots=True)
class DecisionKind:
    """The ``kind`` of a :class:`~mnrules.core.engine.Decision` a step asks."""

    name: str
    owner: str
    meaning: str        # who decides what, among which options
    # The typed form of its choices: a tuple-shaped option whose first item is a key here
    # (None: any tuple-shaped option) reaches the step as that type (a NamedTuple), so a
    # step reads ``choice.origin``, not ``choice[1]``. Options stay plain tuples (equal
    # to their typed form), so listing them costs nothing and a log stays JSON lists.
    choices: tuple[tuple[str | None, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Part:
    """What a plugin is for, and the phase (a step name of the pack's ``phases`` list)
    it belongs to; "" for none (it serves the whole game). A plugin that provides a
    phase's step belongs to that phase without saying so."""

    owner: str
    phase: str
    meaning: str


Declaration = Quantity | EventKind | DecisionKind | Part

KERNEL: tuple[Declaration, ...] = (
    Part("flow", "", "The rounds and their phases: the pack's phases list, run in order "
         "each round, until the game ends."),
    EventKind("phase_start", "flow", "A phase begins; what reacts to it runs before "
              "the phase's own step.", True, (("phase", "the step name of the phase"),),
              word="phase.start", reported=True),
    EventKind("phase_end", "flow", "A phase has ended (its steps are done); what reacts to "
              "it runs before the rules' own end of the phase (its victory checks) and the "
              "next phase.", True, (("phase", "the step name of the phase"),),
              word="phase.end", reported=True, told=False),
    Part("engine", "", "The decision loop, chance and the end of the game."),
    EventKind("game_over", "engine", "The game has ended: no decision is asked any more.",
              False, (("winners", "the winners, in seating order (none at a round cap)"),
                      ("victory", "how they won"))),
    EventKind("chance", "engine", "A random outcome was drawn (a die, a tile); told "
              "only when someone listens.", False,
              (("label", "what was drawn, e.g. 'land die'"), ("value", "the outcome")),
              told=False),
    Part("card steps", "", "The questions a hero's or wonder's script asks its holder."),
    DecisionKind("card.may", "card steps", "A card's holder says whether he uses an "
                 "optional ('you may') effect now: yes or no."),
    DecisionKind("card.choose", "card steps", "A card's holder picks one of the options "
                 "its effect offers (a good, a hero to copy, a player)."),
    DecisionKind("card.who", "card steps", "A card's holder picks the one player its "
                 "'an opponent' names, among those the action can be done for."),
)
"""The kernel's own declarations: Flow's phase_start and phase_end, the engine's
game_over and chance, and the effect language's card decisions."""

_TABLES = {Quantity: "quantities", EventKind: "events", DecisionKind: "decisions",
           Part: "parts"}
_WHAT = {"quantities": "quantity", "events": "event", "decisions": "decision kind"}


class Contract:
    """Every declared name, by kind; built from the plugins' ``mn_contract`` answers and
    :data:`KERNEL`."""

    def __init__(self, declarations: Iterable[Declaration]) -> None:
        self.quantities: dict[str, Quantity] = {}
        self.events: dict[str, EventKind] = {}
        self.decisions: dict[str, DecisionKind] = {}
        self.parts: dict[str, Part] = {}
        for d in declarations:
            table_name = _TABLES.get(type(d))
            if table_name is None:
                raise ContractError(f"mn_contract answered {d!r}: expected a Quantity, "
                                    f"EventKind, DecisionKind or Part")
            table: dict[str, Any] = getattr(self, table_name)
            key = d.owner if isinstance(d, Part) else d.name
            if not (isinstance(key, str) and key and isinstance(d.owner, str) and d.owner):
                raise ContractError(f"{d!r}: a declaration needs a name and an owner")
            old = table.get(key)
            if old is not None:
                if isinstance(d, Part):
                    raise ContractError(f"plugin {key!r} says twice what it is for")
                raise ContractError(f"{_WHAT[table_name]} {key!r} is declared twice: by "
                                    f"{old.owner!r} and by {d.owner!r}; one plugin owns a "
                                    f"name")
            if isinstance(d, Quantity) and d.value not in VALUE_TYPES:
                raise ContractError(f"quantity {d.name!r} ({d.owner}): value {d.value!r} "
                                    f"is not one of {', '.join(VALUE_TYPES)}")
            if isinstance(d, EventKind) and d.word and not d.performed:
                raise ContractError(f"event {d.name!r} ({d.owner}) is only emitted, so a "
                                    f"card reacting to it (word {d.word!r}) would never "
                                    f"fire: perform it, or give it no word")
            table[key] = d

    @classmethod
    def of(cls, pm: pluggy.PluginManager) -> Contract:
        """The contract of the plugins registered on ``pm``, the kernel's included."""
        answers = pm.hook.mn_contract()
        return cls([*KERNEL, *(d for found in reversed(answers) for d in found or ())])

    # -- the checks ----------------------------------------------------------------------
    def quantity(self, name: str, use: str = "game.fold") -> Quantity:
        """The declared quantity ``name``; refused (:class:`UndeclaredName`) if none is."""
        found = self.quantities.get(name)
        if found is None:
            raise UndeclaredName(use, "quantity", name, suggest(name, self.quantities),
                                 "Quantity")
        return found

    def event(self, name: str, use: str = "game.emit", performed: bool = False) -> EventKind:
        """The declared event ``name``; refused if none is, or (``performed``) if it is
        declared as only emitted."""
        found = self.events.get(name)
        if found is None:
            raise UndeclaredName(use, "event", name, suggest(name, self.events), "EventKind")
        if performed and not found.performed:
            raise ContractError(f"{use}: the event {name!r} is declared by {found.owner!r} "
                                f"as only emitted (performed=False): nothing performs it, so "
                                f"no replacement or trigger ever acts on it")
        return found

    def typed_choices(self) -> dict[str, dict[str | None, Any]]:
        """Each decision kind's typed choices (see :class:`DecisionKind`)."""
        return {d.name: dict(d.choices) for d in self.decisions.values() if d.choices}

    def decision(self, name: str, use: str = "Decision") -> DecisionKind:
        """The declared decision kind ``name``; refused if none is."""
        found = self.decisions.get(name)
        if found is None:
            raise UndeclaredName(use, "decision kind", name, suggest(name, self.decisions),
                                 "DecisionKind")
        return found

    def owned_by(self, owner: str) -> list[Declaration]:
        """Everything ``owner`` declares: its part, decisions, quantities, events."""
        out: list[Declaration] = []
        for table in (self.parts, self.decisions, self.quantities, self.events):
            out.extend(d for d in table.values() if d.owner == owner)
        return out

    @property
    def owners(self) -> list[str]:
        seen: dict[str, None] = {}
        for table in (self.parts, self.decisions, self.quantities, self.events):
            for d in table.values():
                seen.setdefault(d.owner, None)
        return list(seen)


def contract_words(contract: Contract) -> list[Word]:
    """The card vocabulary's quantity and event words, as the contract declares them:
    every quantity and performed event with a ``word``, meaning its declared name, with
    its meaning sentence as the word's documentation. (An emitted-only event can have
    no word: a card could never react to it.)"""
    from ..language.words import Word
    words = [Word("quantity", q.word, q.name, q.meaning, q.subject, q.value)
             for q in contract.quantities.values() if q.word]
    words += [Word("event", e.word, e.name, e.meaning, "player" if e.player else "",
                   whose=e.player, reported=e.reported)
              for e in contract.events.values() if e.word and e.performed]
    return words


def unnamed(contract: Contract) -> dict[str, dict[str, str]]:
    """Why each declared quantity or event name that is not a card word cannot be
    written in a script, by kind: for a script that names it anyway."""
    quantities: dict[str, str] = {}
    for q in contract.quantities.values():
        if not q.word:
            quantities[q.name] = (f"{q.owner!r} declares it with no card word, so card "
                                  f"scripts may not modify it")
        elif q.word != q.name:
            quantities[q.name] = f"the rules' name of the quantity {q.word!r}"
    events: dict[str, str] = {}
    for e in contract.events.values():
        if not e.performed:
            events[e.name] = (f"{e.owner!r} only emits it: nothing performs it, so no card "
                              f"can react to it")
        elif not e.word:
            events[e.name] = (f"{e.owner!r} declares it with no card word, so card scripts "
                              f"may not react to it")
        elif e.word != e.name:
            events[e.name] = f"the rules' name of the event {e.word!r}"
    return {"quantity": quantities, "event": events}


def card_words(contract: Contract,
               answers: Iterable[tuple[str, Iterable[Word | Terms]]]) -> list[Word]:
    """The card vocabulary of a rule set: the contract's quantity and event words
    (:func:`contract_words`) with the ``Terms`` the plugins give them, and the plugins'
    other words (``answers``: each plugin's name and its ``mn_vocabulary`` answer).

    Refused (:class:`ContractError`, every problem at once): a plugin's own quantity or
    event word (the contract gives those), ``Terms`` for a name that is no quantity with
    a card word, a word whose ``on`` names an undeclared name, an event only emitted or a
    name with no card word (the word could never apply), and a card word given twice."""
    from dataclasses import replace

    from ..language.words import Terms, Word
    problems: list[str] = []
    words = contract_words(contract)
    for kind in ("quantity", "event"):
        seen: dict[str, Word] = {}
        for w in words:
            if w.kind == kind:
                if w.pattern in seen:
                    problems.append(f"the {kind} word {w.pattern!r} is given twice: to "
                                    f"{seen[w.pattern].meaning!r} and to {w.meaning!r}")
                seen.setdefault(w.pattern, w)
    wordable = {q.name for q in contract.quantities.values() if q.word} | \
        {e.name for e in contract.events.values() if e.word and e.performed}
    everything = [*contract.quantities, *contract.events]

    def keyed(plugin: str, what: str, name: str) -> str | None:
        """Why ``what``, keyed to ``name``, is refused; None if it is not."""
        if name in wordable:
            return None
        if name in contract.events and not contract.events[name].performed:
            return (f"plugin {plugin!r}: {what} names the event {name!r}, which "
                    f"{contract.events[name].owner!r} only emits: nothing performs it, so "
                    f"it would never apply")
        if name in contract.quantities or name in contract.events:
            table = "quantity" if name in contract.quantities else "event"
            return (f"plugin {plugin!r}: {what} names the {table} {name!r}, which has no "
                    f"card word, so no script can name it")
        return (f"plugin {plugin!r}: {what} names {name!r}, which no plugin declares as a "
                f"quantity or event" + did_you_mean(name, everything))

    terms: dict[str, Terms] = {}
    others: list[Word] = []
    for plugin, answer in answers:
        for item in answer:
            if isinstance(item, Terms):
                what = "mn_vocabulary's Terms"
                if item.name in contract.events:
                    problems.append(f"plugin {plugin!r}: {what} names the event "
                                    f"{item.name!r}: Terms are for quantities")
                elif (why := keyed(plugin, what, item.name)) is not None:
                    problems.append(why)
                elif item.name in terms:
                    problems.append(f"plugin {plugin!r}: {what} for {item.name!r} are "
                                    f"given twice")
                elif item.holds and contract.quantities[item.name].value != "list":
                    problems.append(f"plugin {plugin!r}: {what} for {item.name!r} say what "
                                    f"it holds, but it is not a list")
                else:
                    terms[item.name] = item
            elif isinstance(item, Word) and item.kind in ("quantity", "event"):
                table = "Quantity" if item.kind == "quantity" else "EventKind"
                problems.append(f"plugin {plugin!r}: mn_vocabulary gives the {item.kind} "
                                f"word {item.pattern!r}; a card's {item.kind} words come "
                                f"from the contract: declare it with {table}(..., "
                                f"word={item.pattern!r}) in mn_contract")
            elif isinstance(item, Word):
                # a name no plugin of this pack declares, and near none that is, belongs
                # to a plugin the pack leaves out (Antike II without war has no
                # 'conquest'): the word reads the events the pack plays, and a word left
                # reading none is left out; a name near a declared one is a misspelling
                kept = set(item.on)
                for name in sorted(item.on):
                    if name not in everything and not suggest(name, everything):
                        kept.discard(name)
                        continue
                    why = keyed(plugin, f"the {item.kind} {item.pattern!r}", name)
                    if why is not None:
                        problems.append(why)
                if kept or not item.on:
                    others.append(item if kept == item.on else replace(item, on=frozenset(kept)))
            else:
                problems.append(f"plugin {plugin!r}: mn_vocabulary answered {item!r:.80}: "
                                f"expected a Word or Terms")
    if problems:
        raise ContractError("the card vocabulary does not fit the rules' contract:\n  "
                            + "\n  ".join(problems))
    words = [replace(w, numbers=t.numbers, ceiling=t.ceiling, holds=t.holds)
             if w.kind == "quantity" and (t := terms.get(w.meaning)) is not None else w
             for w in words]
    return [*words, *others]
