"""The vocabulary: every phrase a script may use, declared by the rule plugins.

A word is a pattern of tokens ("take {n} good of your choice") with a meaning (a
Python function the plugin supplies) and a line of documentation. Patterns may hold
placeholders: ``{n}`` a number, ``{good}`` a goods id, ``{unit}`` a unit kind,
``{card}`` a card id, ``{track}`` a track, ``{name}`` any single word. Articles
("a", "an", "the") are ignored, so "take a good" and "take good" are the same phrase.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

KINDS = {
    "condition": "a test after 'when' (true or false)",
    "count": "a number read from the game ('per' phrases and values)",
    "action": "something a trigger ('after') does",
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

    @property
    def tokens(self) -> tuple[str, ...]:
        return tuple(t for t in self.pattern.split() if t not in ARTICLES)


@dataclass(frozen=True)
class Sets:
    """The names placeholders may take, from the pack and the cards."""

    goods: frozenset[str]
    units: frozenset[str]
    cards: frozenset[str]
    tracks: frozenset[str]
    players: frozenset[str]


class Vocabulary:
    def __init__(self, words: Iterable[Word], sets: Sets) -> None:
        self.sets = sets
        self.by_kind: dict[str, list[Word]] = {k: [] for k in KINDS}
        for w in words:
            if w.kind not in self.by_kind:
                raise ValueError(f"unknown word kind {w.kind!r} for {w.pattern!r}")
            self.by_kind[w.kind].append(w)

    def words(self, kind: str) -> list[Word]:
        return self.by_kind.get(kind, [])

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
                if p != t:
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
            if slot == "unit":
                unit = t if t in s.units else t.rstrip("s")
                if unit not in s.units:
                    return None
                args.append(unit)
                continue
            allowed = {"good": s.goods, "card": s.cards, "track": s.tracks,
                       "player": s.players}.get(slot)
            if allowed is not None and t not in allowed:
                return None
            args.append(t)
        return args

    def slots(self, word: Word, words: tuple[str | int, ...]) -> list[tuple[str, int]]:
        """(placeholder, index in ``words``) of each placeholder the tokens fill."""
        index = [i for i, w in enumerate(words) if w not in ARTICLES]
        return [(p[1:-1], index[j]) for j, p in enumerate(word.tokens)
                if p.startswith("{") and p.endswith("}") and j < len(index)]

    def nearest(self, kind: str, words: tuple[str | int, ...]) -> str | None:
        """The known phrase of ``kind`` closest to what was written, for 'did you mean'."""
        text = " ".join(str(w) for w in words if w not in ARTICLES)
        shown = {" ".join(w.tokens): w.pattern for w in self.by_kind.get(kind, ())}
        best = difflib.get_close_matches(text, list(shown), n=1, cutoff=0.5)
        return shown[best[0]] if best else None

    def known(self, kind: str) -> list[str]:
        return sorted(w.pattern for w in self.by_kind.get(kind, ()))
