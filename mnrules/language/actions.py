"""How a trigger's action reads: ``[if you do] [WHO] [may] [pay N R to] ACTION``.

The grammar gives an action as a phrase (and, for 'WHO may ...', the phrase before
'may'); its parts are the vocabulary's words, found here once for the compiler and for
the card text (:mod:`.explain`), so both read a script the same way: 'if you do' runs it
only if the 'may' before it was answered yes; a leading subject word ('each opponent
loses 1 coin') says who acts; 'pay N R to' makes a 'may' cost something, through the
game's 'you have N R' condition and 'pay N R' action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .syntax import Action, Phrase
from .words import Vocabulary, Word

Found = tuple[Word, list[Any]]
IF_DONE = ("if", "you", "do")


@dataclass(frozen=True)
class ActionParts:
    """The parts of one action, each a phrase and (if the vocabulary has it) its word."""

    if_done: bool
    subject: Phrase | None          # who acts (None: the card's holder)
    pay: Phrase | None              # 'pay N R to': the amount 'N R'
    action: Phrase                  # what is done
    test_word: Found | None = None  # the game's 'you have N R'
    pay_word: Found | None = None   # the game's 'pay N R'
    action_word: Found | None = None


def _sub(p: Phrase, start: int, stop: int | None = None) -> Phrase:
    words = p.words[start:stop]
    places = p.places[start:stop] if p.places else ()
    return Phrase(words, places[0] if places else p.pos, places)


def read_action(vocab: Vocabulary, act: Action) -> ActionParts:
    """The parts of ``act``; a part the vocabulary does not know has no word (the
    compiler reports it, the card text shows it as written)."""
    phrase = act.phrase
    if_done = phrase.words[:3] == IF_DONE
    if if_done:
        phrase = _sub(phrase, 3)
    subject = act.subject
    pay = None
    words = phrase.words
    if act.optional and words[:1] == ("pay",) and "to" in words:
        cut = words.index("to")
        pay = _sub(phrase, 1, cut)
        phrase = _sub(phrase, cut + 1)
    if subject is None and phrase.words and vocab.match("action", phrase.words) is None:
        # 'each opponent loses 1 coin': a subject word, then the action
        for cut in range(len(phrase.words) - 1, 0, -1):
            if vocab.match("subject", phrase.words[:cut]) is not None \
                    and vocab.match("action", phrase.words[cut:]) is not None:
                subject, phrase = _sub(phrase, 0, cut), _sub(phrase, cut)
                break
    return ActionParts(
        if_done, subject, pay, phrase,
        vocab.match("condition", ("you", "have", *pay.words)) if pay is not None else None,
        vocab.match("action", ("pay", *pay.words)) if pay is not None else None,
        vocab.match("action", phrase.words) if phrase.words else None)


def is_change(vocab: Vocabulary, act: Action) -> bool:
    """Whether a replacement's action is one of the game's change words ('cancel it'),
    which rewrite the event, rather than an action done at once ('pay 2 coin')."""
    return vocab.match("change", act.phrase.words) is not None
