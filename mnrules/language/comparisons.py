"""Comparisons as a modder writes them in English: "you control at least 5 provinces",
"your military level is at least 4", "you have more than 3 legions here" — read as the
language's own form, "at least 5 provinces you control" (docs/effect-language.md).

The grammar reads "at least N COUNT" only with the count after the number; a condition
written the other way round reaches the compiler as one unknown phrase. Before calling
it unknown, the compiler and the card texts ask :func:`natural` whether its words,
reordered, are a comparison of a count the vocabulary knows: the same words, so a
sentence the vocabulary cannot read is still refused, naming what was written.
"""

from __future__ import annotations

from .syntax import Cond, Phrase
from .words import Vocabulary

# the words before the number, and the comparison with N they make ("more than N" is
# "at least N + 1")
_SAYS = {("at", "least"): ("at_least", 0), ("at", "most"): ("at_most", 0),
         ("more", "than"): ("at_least", 1), ("fewer", "than"): ("at_most", -1),
         ("less", "than"): ("at_most", -1)}
_VERBS = ("is", "are")
MAX_WORDS = 24
"""The longest phrase read as a comparison (a count has at most a dozen words; each
reading tries every place of the subject, so the search grows as the cube)."""


def natural(vocab: Vocabulary, c: Cond) -> Cond:
    """``c`` as a comparison if it is a test the vocabulary does not know whose words
    compare a count the other way round; else ``c`` itself."""
    phrase = c.phrase
    if c.kind != "test" or phrase is None or vocab.match("condition", phrase.words):
        return c
    words = phrase.words
    if len(words) > MAX_WORDS:
        return c    # no count is this long: a hostile phrase is not searched
    for i in range(len(words) - 2):
        said = _SAYS.get((str(words[i]), str(words[i + 1])))
        number = words[i + 2]
        if said is None or not isinstance(number, int):
            continue
        kind, shift = said
        if number + shift < 0:
            continue    # "fewer than 0": never true, left for the compiler to refuse
        before = list(range(i))
        after = list(range(i + 3, len(words)))
        for order in _orders(words, before, after):
            found = vocab.match("count", tuple(words[j] for j in order))
            if found is not None and found[0].vtype == "int":
                count = Phrase(tuple(words[j] for j in order), phrase.at(order[0]),
                               tuple(phrase.at(j) for j in order))
                return Cond(kind, phrase=count, n=number + shift, pos=phrase.at(i + 2))
    return c


def compares(words: tuple[str | int, ...]) -> bool:
    """Whether ``words`` compare something with a number ("... at least 3 ...")."""
    return any((str(words[i]), str(words[i + 1])) in _SAYS and isinstance(words[i + 2], int)
               for i in range(len(words) - 2))


def _orders(words: tuple[str | int, ...], before: list[int],
            after: list[int]) -> list[list[int]]:
    """The ways the words around the comparison may say a count, most likely first:
    "COUNT is at least N" (the count before it), and "SUBJECT VERB at least N THINGS
    [WHERE]" (the count "THINGS SUBJECT VERB [WHERE]": "legions you have here")."""
    out = []
    if before and not after and words[before[-1]] in _VERBS:
        out.append(before[:-1])
    if before and after:
        out += [after[:k] + before + after[k:] for k in range(len(after), 0, -1)]
    return [o for o in out if o]
