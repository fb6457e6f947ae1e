"""The vocabulary: every phrase a script may use.

A word is a pattern of tokens ("take {n} good of your choice") with a meaning (a
Python function the plugin supplies) and a line of documentation. Patterns may hold
placeholders: ``{n}`` a number, ``{good}`` a goods id, ``{unit}`` a unit kind,
``{card}`` a card id, ``{track}`` a track, ``{name}`` any single word, and ``{SET}`` an
id of any set the game names (``mn_word_sets``: ``{building}``, ``{province}``...).
Articles ("a", "an", "the") are ignored, so "take a good" and "take good" are the same
phrase; a word matches its plural or third person too ("markets", "fortresses",
"takes"), so "1 coin per 2 markets you control" and "each opponent loses 1 coin" read
as English.

The quantity and event words are not declared here nor by the ``mn_vocabulary`` hook:
they are the rules' contract's (:func:`mnrules.hooks.contract.card_words`), the ``word`` of
each declared quantity and performed event with its meaning sentence, so that a script
can never name a value nobody folds or an event that never fires. What a quantity word
needs beyond its declaration (the range of a script's numbers, a ceiling) is a
:class:`Terms` keyed to the declared name; a word that reads what only some quantities or
events carry names them (``Word.on``), by their declared names too.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..content.yamlsource import did_you_mean, listed, suggest
from ..errors import MnrulesError

KINDS = {
    "condition": "a test after 'when' (true or false)",
    "count": "a number read from the game ('per' phrases and values)",
    "action": "something a trigger ('after', 'before') does",
    "subject": "who: 'after EVENT by WHO', 'WHO may ACTION', 'WHO ACTION' (the players)",
    "occasion": "what uses up a 'once per ...' modifier of a quantity (keyed to its name)",
    "holder": "who else holds a card's power, and the rank of his effects (a copy)",
    "change": "what a replacement ('replace') does to its event",
    "allowance": "what 'allow' loosens (payment sets)",
    "include": "what 'include' adds to a list",
    "item": "what an 'offer' builds",
    "event": "an event 'after' and 'replace' react to",
    "quantity": "a value 'modify' folds",
    "resource": "a resource a payment or amount names",
}
ARTICLES = frozenset({"a", "an", "the"})
DEFAULT_NUMBERS = (0, 99)
PLACEHOLDERS = ("n", "good", "unit", "card", "track", "name", "player")


@dataclass(frozen=True)
class Word:
    kind: str
    pattern: str
    meaning: Any           # a function, an Interactive, or (events) the engine's event kind
    doc: str
    subject: str = ""      # quantities/events: the ctx key naming whose value it is
    vtype: str = "int"     # quantities: int, list, sizes, setrules or flag; counts: int
    #                        (a number) or list (resources, as income is)
    numbers: tuple[int, int] = DEFAULT_NUMBERS
    #   the range of the numbers a script gives it: its {n}; for a quantity, the N of
    #   'add/subtract/set N', 'N per ...', 'N coin' and 'choose A to B'; for an
    #   allowance, the N of 'allow N'; for an item, the N of each 'for N coin' payment
    ceiling: int | None = None
    #   quantities: a card's change never takes the value above this (or above the
    #   value before the change, if that was higher already)
    holds: str = ""        # list quantities: "resources" or "players"
    on: frozenset[str] = frozenset()
    #   the declared names (quantities, performed events) whose context or data this word
    #   reads, so a rule of any other may not use it (a battle condition in a cost); empty
    #   for a word that means something anywhere
    whose: str = ""        # events: who Event.player is (the contract's "the buyer")
    reported: bool = False  # events: told once done, so only 'after' may name it
    refuses: Any = None
    never_own: frozenset[str] = frozenset()
    idle: Any = None
    #   'holder' words: a function of the game, true while the word names nobody for any
    #   card (no copy made yet), so that a fold may skip a card nobody at the table
    #   holds; None: the word is asked for every card at every fold
    #   conditions: the declared events of which this test is never true for the holder's
    #   own event (a rule with no 'by'): 'you defend' of his own battle, whose player is
    #   its attacker; refused at load time with the 'by' to write
    #   a function of the vocabulary's Sets and the placeholders' values giving why a
    #   script may not write them (a trireme put in a province, a '{name}' that names no
    #   phase), or None: refused at load time, rather than never true or doing nothing

    @property
    def tokens(self) -> tuple[str, ...]:
        return tuple(t for t in self.pattern.split() if t not in ARTICLES)


@dataclass(frozen=True)
class Terms:
    """What the effect language needs of a declared quantity beyond its declaration in
    the contract: the range of the numbers a script gives it, the most a card's change
    may make of it, what a list holds. Keyed to the quantity's declared name (not its
    word); a plugin's ``mn_vocabulary`` answers it, and one naming no quantity with a
    card word is refused when the rule set is assembled."""

    name: str
    numbers: tuple[int, int] = DEFAULT_NUMBERS
    ceiling: int | None = None
    holds: str = ""


@dataclass(frozen=True)
class Sets:
    """The names placeholders may take, from the pack and the cards."""

    goods: frozenset[str]
    units: frozenset[str]
    cards: frozenset[str]
    tracks: frozenset[str]
    players: frozenset[str]
    named: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #   every set the game names (mn_word_sets), for {SET} placeholders


class WordError(MnrulesError):
    """A plugin's word that cannot be one (an unknown kind, a placeholder naming no
    set): what to fix, with the nearest kind or set."""


def plural(word: str) -> str:
    """The English plural (or third person) of a pattern's word: market → markets,
    fortress → fortresses, take → takes, city → cities, hero → heroes."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if len(word) > 1 and word.endswith("o") and word[-2] not in "aeiou":
        return word + "es"
    if len(word) > 1 and word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def singular(token: str, known: frozenset[str]) -> str | None:
    """The id of ``known`` that ``token`` names, itself or as a plural."""
    if token in known:
        return token
    for stem in (token[:-2] if token.endswith("es") else "",
                 token[:-3] + "y" if token.endswith("ies") else "",
                 token[:-1] if token.endswith("s") else ""):
        if stem and stem in known and plural(stem) == token:
            return stem
    return None


def script_id(name: str) -> str:
    """How a script writes the id ``name`` of a set: its words are lowercase, one token
    each, so the board's province 'MARE AFRICUM' is written 'mare_africum'."""
    return name.lower().replace(" ", "_")


def in_set(token: str, known: frozenset[str]) -> str | None:
    """The id of ``known`` that ``token`` names: itself, its plural, or as a script
    writes it (:func:`script_id`)."""
    found = singular(token, known)
    if found is not None:
        return found
    written = {script_id(k): k for k in known}
    found = singular(token, frozenset(written))
    return written[found] if found is not None else None


def one_of(set_name: str, what: str) -> Any:
    """A ``Word.refuses`` for a ``{name}`` that must be an id of the game's set
    ``set_name`` (its phases, its items): a misspelt one is refused with the nearest,
    rather than never being true. A set the game does not name refuses nothing."""
    def refuses(sets: Sets, *args: Any) -> str | None:
        known = sets.named.get(set_name)
        name = next((a for a in args if isinstance(a, str)), None)
        if not known or name is None or in_set(name, known) is not None:
            return None
        return (f"{name!r} is no {what}" + did_you_mean(name, sorted(known))
                + f" (the {plural(what)}: {listed(sorted(known))})")
    return refuses


def _others(env: Any) -> list[str]:
    return [p for p in env.game.state.players if p != env.holder]


class OneOf:
    """A subject that names one player of several (``an opponent``): as an action's
    actor, the card's holder picks which (``card.who``) among those it can act for; as
    the player of an event (``after buy by an opponent``), any one of them."""

    one = True

    def __init__(self, among: Callable[[Any], list[str]]) -> None:
        self.among = among

    def __call__(self, env: Any) -> list[str]:
        return self.among(env)


GENERIC: tuple[Word, ...] = (
    Word("subject", "you", lambda e: [e.holder], "you, the card's holder"),
    Word("subject", "each opponent", _others, "each other player, in seating order"),
    Word("subject", "every opponent", _others, "each other player, in seating order"),
    Word("subject", "an opponent", OneOf(_others), "another player"),
    Word("subject", "each player", lambda e: list(e.game.state.players),
         "every player, you included, in seating order"),
    Word("subject", "anyone", lambda e: list(e.game.state.players), "any player (you too)"),
)
"""The words every game has (who: you, your opponents, everyone): the kernel knows
players and seats, nothing of a game. A game's own word of the same pattern wins."""


class Vocabulary:
    """The words of a rule set, by kind, and the names placeholders may take.

    ``unnamed`` says, by kind ("quantity", "event"), why a declared name that is not a
    word cannot be one (an event only emitted, a quantity with no card word, a rules'
    name whose word differs), so that a script naming it is told so."""

    def __init__(self, words: Iterable[Word], sets: Sets,
                 unnamed: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self.sets = sets
        self.by_kind: dict[str, list[Word]] = {k: [] for k in KINDS}
        for w in [*words, *GENERIC]:
            if w.kind not in self.by_kind:
                raise WordError(f"the word {w.pattern!r} has the kind {w.kind!r}, which is "
                                f"no kind of word" + did_you_mean(w.kind, list(KINDS))
                                + f" (the kinds: {', '.join(KINDS)})")
            for p in w.tokens:
                slot = p[1:-1] if p.startswith("{") and p.endswith("}") else None
                if slot is not None and slot not in PLACEHOLDERS and slot not in sets.named:
                    raise WordError(f"the {w.kind} {w.pattern!r} has the placeholder "
                                    f"{p}, which names no set of ids"
                                    + did_you_mean(slot, [*PLACEHOLDERS, *sets.named])
                                    + f" (placeholders: {{n}}, {{name}}, and the sets the "
                                    f"game names: "
                                    f"{', '.join('{' + n + '}' for n in sorted(sets.named))})")
            self.by_kind[w.kind].append(w)
        self.unnamed = {kind: dict(notes) for kind, notes in (unnamed or {}).items()}

    def words(self, kind: str) -> list[Word]:
        return self.by_kind.get(kind, [])

    def named(self, kind: str, name: str) -> Word | None:
        """The quantity or event word ``name`` (a rule's name, written as one token)."""
        return next((w for w in self.by_kind.get(kind, ()) if w.pattern == name), None)

    def nearest_name(self, kind: str, name: str) -> str | None:
        """The quantity or event word closest to ``name``, for 'did you mean': to the
        words themselves, or to the declared names behind them ('collected' → 'collect')."""
        choices: dict[str, str] = {}
        for w in self.by_kind.get(kind, ()):
            choices.setdefault(w.pattern, w.pattern)
            if isinstance(w.meaning, str):
                choices.setdefault(w.meaning, w.pattern)
        best = suggest(name, choices)
        return choices[best] if best is not None else None

    def word_for(self, name: str) -> str:
        """The word scripts use for the declared quantity or event ``name`` (itself if
        none)."""
        for kind in ("quantity", "event"):
            for w in self.by_kind.get(kind, ()):
                if w.meaning == name:
                    return w.pattern
        return name

    def match(self, kind: str, words: tuple[str | int, ...]) -> tuple[Word, list[Any]] | None:
        """The word of ``kind`` these tokens say, with its placeholder values."""
        toks = tuple(w for w in words if w not in ARTICLES)
        for word in self.by_kind.get(kind, ()):
            args = self._fit(word.tokens, toks)
            if args is not None:
                return word, args
        return None

    def _fit(self, pattern: tuple[str, ...], toks: tuple[str | int, ...]) -> list[Any] | None:
        if len(pattern) != len(toks):
            return None
        args: list[Any] = []
        s = self.sets
        for p, t in zip(pattern, toks, strict=True):
            if not (p.startswith("{") and p.endswith("}")):
                if p != t and (not isinstance(t, str) or plural(p) != t):
                    return None
                continue
            slot = p[1:-1]
            if slot == "n":
                if not isinstance(t, int):
                    return None
                args.append(t)
                continue
            if not isinstance(t, str):
                return None
            if slot == "name":
                args.append(t)
                continue
            allowed = {"good": s.goods, "unit": s.units, "card": s.cards, "track": s.tracks,
                       "player": s.players}.get(slot)
            if allowed is None:
                allowed = s.named.get(slot, frozenset())
            found = in_set(t, allowed)
            if found is None:
                return None
            args.append(found)
        return args

    def slots(self, word: Word, words: tuple[str | int, ...]) -> list[tuple[str, int]]:
        """(placeholder, index in ``words``) of each placeholder the tokens fill."""
        index = [i for i, w in enumerate(words) if w not in ARTICLES]
        return [(p[1:-1], index[j]) for j, p in enumerate(word.tokens)
                if p.startswith("{") and p.endswith("}") and j < len(index)]

    def example_resource(self) -> str:
        """A resource of this game to show in a message's example ("pay 2 coin"): its
        first 'resource' word, else its first good, else the word "resource"."""
        named = next((w.pattern for w in self.by_kind.get("resource", ())
                      if "{" not in w.pattern), None)
        return named or min(self.sets.goods, default="resource")

    def nearest(self, kind: str, words: tuple[str | int, ...]) -> str | None:
        """The known phrase of ``kind`` closest to what was written, for 'did you mean'."""
        text = " ".join(str(w) for w in words if w not in ARTICLES)
        shown = {" ".join(w.tokens): w.pattern for w in self.by_kind.get(kind, ())}
        best = difflib.get_close_matches(text, list(shown), n=1, cutoff=0.5)
        return shown[best[0]] if best else None

    def known(self, kind: str) -> list[str]:
        return sorted(w.pattern for w in self.by_kind.get(kind, ()))
