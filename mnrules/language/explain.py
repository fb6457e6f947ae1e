"""A card's text from its parsed script, in any language a pack gives texts for, through
the same vocabulary the compiler used: a modder reads what the engine understood (not a
stored text), and an edition's overridden card reads as the rule it plays.

English is the vocabulary's own: a quantity or an event as its declaration in the rules'
contract means it, the other words by their documentation, in the sentences of
:data:`ENGLISH`. Another language's texts are data, a pack's ``words.yaml``
(:mod:`mnrules.language.texts`): the same sentences and a text for every word, with the
pack's names for goods, empires, tracks and cards.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .actions import is_change, read_action
from .comparisons import natural
from .syntax import Action, Cond, Op, Phrase, Rule, Value
from .words import Vocabulary, Word, singular

ENGLISH: dict[str, str] = {
    # what a rule's limit puts before it
    "limit.round": "Once per round, ",
    "limit.phase": "Once per phase, ",
    "limit.turn": "Once per turn, ",
    "limit.game": "Once per game, ",
    # the four kinds of rule; {when} is empty or the 'if' part below
    "modify": "{limit}when the rules work out {quantity}{when}: {ops}.",
    "modify.yours": "for you {quantity}",
    "modify.by": "for {who} {quantity}",     # 'modify QUANTITY by WHO'
    "after": "{limit}after {event}{when}: {actions}.",
    "before": "{limit}before {event}{when}: {actions}.",
    "replace": "{limit}when, instead of the usual, {event}{when}: {actions}.",
    "offer": "{limit}you may build {item} for {payments}{times}{when}.",
    "offer.times": ", once for {count}",
    "when": ", if {cond}",
    "whose": "you are {whose}",
    "by": "{who} does it",
    # conditions
    "and": "{a} and {b}",
    "or": "{a} or {b}",
    "either": "either {cond}",
    "not": "it is not so that {cond}",
    "at_least": "counting {count}, there are at least {n}",
    "at_most": "counting {count}, there are at most {n}",
    "more": "counting {a}, there are more than counting {b}",
    "fewer": "counting {a}, there are fewer than counting {b}",
    # what a modifier does, joined by 'ops.join'
    "add": "add {value}",
    "subtract": "subtract {value}",
    "set": "make it {value}",
    "double": "double it",
    "floor": "make it at least {value}",
    "ceiling": "make it at most {value}",
    "choose": "choose any number from {low} to {high}",
    "allow": "allow {n}: {allowance}",
    "include": "include {what}",
    "ops.join": "; ",
    # values
    "per": "{n} for {count}",
    "per.divisor": "{n} for every {divisor}, counting {count}",
    "action.per": "{action}, for {count}",
    "action.per.divisor": "{action}, for every {divisor}, counting {count}",
    "amount": "{n} {resource}",
    "amount.per": "{n} {resource} for {count}",
    "amount.per.divisor": "{n} {resource} for every {divisor}, counting {count}",
    # what a trigger does, joined by 'actions.join'
    "may": "you may {action}",
    "may.who": "{who} may {action}",
    "may.pay": "you may pay {amount} to {action}",
    "may.who.pay": "{who} may pay {amount} to {action}",
    "must.who": "{who}: {action}",
    "if_done": "if you do, {action}",
    # 'you choose: A or B': the actions offered, joined by 'choice.join'
    "choice": "you choose one: {options}",
    "choice.who": "{who} chooses one: {options}",
    "choice.pay": "pay {amount} to {action}",
    "choice.join": ", or ",
    "actions.join": "; then ",
    # payments of an offer
    "pay": "{n} {resource}",
    "free": "nothing",
    "payments.join": " or ",
    "price.join": " and ",
    # a card
    "unknown": "<unknown {kind} '{text}'>",
    "no power": "No power.",
    "bonuses": "Leadership bonuses: {bonuses}.",
    "bonus": "+{n} {track}",
    "bonuses.join": ", ",
}
"""The sentences of the effect language in English; another language's ``words.yaml``
gives each of them (``frames:``), with the same ``{fields}``."""

FRAME_FIELDS: dict[str, frozenset[str]] = {
    key: frozenset(re.findall(r"\{(\w+)\}", text)) for key, text in ENGLISH.items()}
"""The fields each sentence may use (a translation may leave some out, never add one)."""

SLOT = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Texts:
    """What a card's text is written with in one language: the sentences (``frames``),
    a text for each word by kind and pattern (``words``; empty in English, which reads
    the vocabulary's own), who each event's player is (``whose``), the names the
    placeholders take (``names``: by kind, goods, empires, tracks, units...; ``cards``:
    by card id), and the words the language contracts (``contractions``)."""

    lang: str = "en"
    frames: Mapping[str, str] = field(default_factory=lambda: dict(ENGLISH))
    words: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    whose: Mapping[str, str] = field(default_factory=dict)
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    cards: Mapping[str, str] = field(default_factory=dict)
    contractions: tuple[tuple[str, str], ...] = ()
    #   words a language joins where they meet (French 'que un' → 'qu'un'), applied to
    #   each finished sentence, whole words only

    def contract(self, text: str) -> str:
        for written, joined in self.contractions:
            text = re.sub(r"(?<!\w)" + re.escape(written) + r"(?!\w)", joined, text)
            cap = written[:1].upper() + written[1:]
            text = re.sub(r"(?<!\w)" + re.escape(cap) + r"(?!\w)",
                          joined[:1].upper() + joined[1:], text)
        return text

    def frame(self, key: str, **fields: Any) -> str:
        text = self.frames.get(key) or ENGLISH[key]
        return SLOT_FIELD.sub(lambda m: str(fields.get(m.group(1), m.group(0))), text)

    def name(self, slot: str, value: Any, fallback: str = "") -> str:
        """A placeholder's value as a player reads it: a number as written, an id by the
        name of its kind ({good}: the goods' names, {card}: the card's name, ...; a kind
        of the pack's names, as '{name:phases}' asks, else as ``fallback`` would)."""
        if slot == "n" or not isinstance(value, str):
            return str(value)
        if fallback and value in self.names.get(slot, {}):
            return self.names[slot][value]
        if fallback:
            return self.name(fallback, value)
        if slot == "card":
            return self.cards.get(value, value)
        # the kinds of the pack's names a placeholder's ids are named in, in either game
        kinds = {"good": ("goods", "resources"), "resource": ("goods", "resources"),
                 "unit": ("units",), "track": ("tracks",)}.get(slot, (slot, f"{slot}s"))
        for k in kinds:                        # a set's own names ({building}: buildings)
            if value in self.names.get(k, {}):
                return self.names[k][value]
        for names in self.names.values():      # {name}: any word; the first kind naming it
            if value in names:
                return names[value]
        return value


SLOT_FIELD = re.compile(r"\{(\w+)\}")


class Explainer:
    """Writes rules as sentences of one language (``texts``) from one vocabulary."""

    def __init__(self, vocab: Vocabulary, texts: Texts | None = None) -> None:
        self.vocab = vocab
        self.texts = texts or Texts()

    # -- words -----------------------------------------------------------------------------
    def word_text(self, word: Word, args: list[Any]) -> str:
        """A matched word as a phrase: its text in the language (a mapping picks the form
        for its first named placeholder's value, else for its number: "1" or "_"), its
        placeholders by their names."""
        t = self.texts
        given = t.words.get(word.kind, {}).get(word.pattern)
        slots = [m.group(1) for m in SLOT.finditer(word.pattern)]
        values = dict(zip(slots, args, strict=False))
        if isinstance(given, Mapping):
            named = next((values[s] for s in slots if s != "n" and s in values),
                         values.get("n"))
            given = given.get(str(named), given.get("_"))
        text = given if isinstance(given, str) else word.doc
        for slot, value in zip(slots, args, strict=False):
            # '{name:phases}': a translation says which of the pack's names a word takes
            found = re.search(r"\{" + slot + r"(?::(\w+))?\}", text)
            if found is not None:
                shown = t.name(found.group(1), value, slot) if found.group(1) \
                    else t.name(slot, value)
                text = text[:found.start()] + shown + text[found.end():]
        return text

    def phrase(self, kind: str, phrase: Phrase) -> str:
        found = self.vocab.match(kind, phrase.words)
        if found is None:
            return self.texts.frame("unknown", kind=kind, text=phrase.text)
        return self.word_text(*found)

    def named(self, kind: str, name: str) -> tuple[Word | None, str]:
        """The quantity or event a rule names, and its phrase: the language's text for
        it, else (English) the gist of its declared meaning."""
        w = self.vocab.named(kind, name)
        if w is None:
            return None, self.texts.frame("unknown", kind=kind, text=name)
        given = self.texts.words.get(kind, {}).get(w.pattern)
        return w, gist(given if isinstance(given, str) else w.doc)

    # -- parts of a rule -------------------------------------------------------------------
    def cond(self, c: Cond) -> str:
        t = self.texts
        c = natural(self.vocab, c)   # "you control at least 5 provinces"
        if c.kind == "test":
            assert c.phrase is not None
            return self.phrase("condition", c.phrase)
        if c.kind == "not":
            return t.frame("not", cond=self.cond(c.parts[0]))
        if c.kind in ("and", "or"):
            return t.frame(c.kind, a=self.cond(c.parts[0]), b=self.cond(c.parts[1]))
        return self.compare(c)

    def compare(self, c: Cond) -> str:
        """A comparison of counts: 'at least N COUNT', 'more COUNT than COUNT'."""
        # read with getattr: the comparisons came with the grammar's growth (issue 13)
        phrases = [p for p in (c.phrase, getattr(c, "other", None)) if isinstance(p, Phrase)]
        counts = [self.phrase("count", p) for p in phrases]
        key = c.kind if c.kind in ENGLISH else "unknown"
        return self.texts.frame(key, count=counts[0] if counts else "", n=getattr(c, "n", ""),
                                a=counts[0] if counts else "",
                                b=counts[1] if len(counts) > 1 else "",
                                kind="condition", text=" ".join(p.text for p in phrases))

    def value(self, v: Value) -> str:
        t = self.texts
        if v.kind == "number":
            return str(v.n)
        assert v.phrase is not None
        divisor = getattr(v, "divisor", 1)     # 'N per M COUNT' (grown with issue 13)
        counted = getattr(v, "per", None)
        if v.kind == "per":
            count = self.phrase("count", v.phrase)
            if divisor and divisor != 1:
                return t.frame("per.divisor", n=v.n, divisor=divisor, count=count)
            return t.frame("per", n=v.n, count=count)
        if v.kind in ("amount", "amount_per"):
            resource = self.resource(v.phrase)
            if isinstance(counted, Phrase):
                count = self.phrase("count", counted)
                if divisor and divisor != 1:
                    return t.frame("amount.per.divisor", n=v.n, resource=resource,
                                   divisor=divisor, count=count)
                return t.frame("amount.per", n=v.n, resource=resource, count=count)
            return t.frame("amount", n=v.n, resource=resource)
        return self.phrase("count", v.phrase)

    def resource(self, phrase: Phrase) -> str:
        # the game's resource words, named singular or plural ('2 coins' is coin's)
        names = frozenset(w.pattern for w in self.vocab.words("resource"))
        key = singular(phrase.text, names) or phrase.text
        return self.texts.name("resource", key)

    def op(self, op: Op) -> str:
        t = self.texts
        if op.kind in ("add", "subtract", "set", "floor", "ceiling"):
            assert op.value is not None
            return t.frame(op.kind, value=self.value(op.value))
        if op.kind == "double":
            return t.frame("double")
        if op.kind == "choose":
            return t.frame("choose", low=op.low, high=op.high)
        assert op.phrase is not None
        if op.kind == "allow":
            return t.frame("allow", n=op.low, allowance=self.phrase("allowance", op.phrase))
        return t.frame("include", what=self.phrase("include", op.phrase))

    def action(self, kind: str, a: Any) -> str:
        """A trigger's or replacement's action as its parts read
        (:func:`.actions.read_action`): [if you do] [WHO] [may] [pay N R to] ACTION."""
        t = self.texts
        if kind != "action":
            what = self.phrase(kind, a.phrase)
            return t.frame("may", action=what) if a.optional else what
        choices = getattr(a, "choices", ())    # 'you choose: A or B'
        if choices:
            head = a.phrase.words
            who = Phrase(head[:-1], a.phrase.pos) if head[:-1] != ("you",) else None
            options = t.frame("choice.join").join(self.alternative(p) for p in choices)
            if who is None:
                return t.frame("choice", options=options)
            return t.frame("choice.who", who=self.phrase("subject", who), options=options)
        parts = read_action(self.vocab, a)
        what = self.word_text(*parts.action_word) if parts.action_word is not None else \
            t.frame("unknown", kind=kind, text=parts.action.text)
        who = parts.subject
        subject = self.phrase("subject", who) if who is not None and \
            who.words != ("you",) else ""
        amount = self.amount(parts.pay) if parts.pay is not None else ""
        if a.optional:
            key = "may" + (".who" if subject else "") + (".pay" if amount else "")
            text = t.frame(key, who=subject, action=what, amount=amount)
        else:
            text = t.frame("must.who", who=subject, action=what) if subject else what
        per = getattr(a, "per", None)          # 'take 1 coin per temple you control'
        if per is not None:
            count = self.phrase("count", per)
            divisor = getattr(a, "divisor", 1)
            text = t.frame("action.per.divisor", action=text, divisor=divisor, count=count) \
                if divisor != 1 else t.frame("action.per", action=text, count=count)
        return t.frame("if_done", action=text) if parts.if_done else text

    def alternative(self, phrase: Phrase) -> str:
        """One action a choice offers ('[WHO] [pay N R to] ACTION'), as the player
        reads it in the card's text and among his options."""
        t = self.texts
        parts = read_action(self.vocab, Action(True, phrase))
        what = self.word_text(*parts.action_word) if parts.action_word is not None else \
            t.frame("unknown", kind="action", text=parts.action.text)
        if parts.pay is not None:
            what = t.frame("choice.pay", amount=self.amount(parts.pay), action=what)
        if parts.subject is not None and parts.subject.words != ("you",):
            what = t.frame("must.who", who=self.phrase("subject", parts.subject), action=what)
        return t.contract(what)

    def option(self, phrase: Phrase) -> str:
        """An action of a choice as an option of the question: capitalised."""
        text = self.alternative(phrase)
        return text[:1].upper() + text[1:]

    def amount(self, phrase: Phrase) -> str:
        """'N RESOURCE' (what a 'pay N R to' costs) with the resource's name."""
        words = phrase.words
        if len(words) >= 2 and isinstance(words[0], int):
            rest = Phrase(tuple(words[1:]), phrase.pos)
            return self.texts.frame("amount", n=words[0], resource=self.resource(rest))
        return phrase.text

    # -- a rule ----------------------------------------------------------------------------
    def rule(self, rule: Rule) -> str:
        t = self.texts
        limit = t.frame(f"limit.{rule.limit}") if rule.limit and \
            f"limit.{rule.limit}" in ENGLISH else ""
        cond = self.cond(rule.cond) if rule.cond else ""
        if rule.kind == "modify":
            q, what = self.named("quantity", rule.name)
            by = getattr(rule, "by", None)     # 'modify QUANTITY by WHO': whose value
            if isinstance(by, Phrase):
                what = t.frame("modify.by", who=self.phrase("subject", by), quantity=what)
            elif q is not None and q.subject:
                what = t.frame("modify.yours", quantity=what)
            ops = t.frame("ops.join").join(self.op(o) for o in rule.ops)
            when = t.frame("when", cond=cond) if cond else ""
            text = t.frame("modify", limit=limit, quantity=what, when=when, ops=ops)
        elif rule.kind in ("after", "before", "replace"):
            acts = t.frame("actions.join").join(
                self.action("change" if rule.kind == "replace" and is_change(self.vocab, a)
                            else "action", a)
                for a in rule.actions)
            e, what = self.named("event", rule.name)
            tests = []
            by = getattr(rule, "by", None)     # 'after EVENT by WHO'
            if isinstance(by, Phrase):
                tests.append(t.frame("by", who=self.phrase("subject", by)))
            elif e is not None and e.whose:
                tests.append(t.frame("whose", whose=t.whose.get(e.pattern, e.whose)))
            if cond:
                either = tests and rule.cond is not None and rule.cond.kind == "or"
                tests.append(t.frame("either", cond=cond) if either else cond)
            joined = tests[0] if len(tests) == 1 else \
                t.frame("and", a=tests[0], b=tests[1]) if tests else ""
            when = t.frame("when", cond=joined) if joined else ""
            text = t.frame(rule.kind, limit=limit, event=what, when=when, actions=acts)
        else:
            assert rule.item is not None
            pays = t.frame("payments.join").join(
                t.frame("price.join").join(
                    t.frame("pay", n=part.n, resource=self.resource(part.phrase))
                    for part in p.parts) if p.parts else t.frame("free")
                for p in rule.payments)
            times = t.frame("offer.times", count=self.phrase("count", rule.multiplier)) \
                if rule.multiplier else ""
            when = t.frame("when", cond=cond) if cond else ""
            text = t.frame("offer", limit=limit, item=self.phrase("item", rule.item),
                           payments=pays, times=times, when=when)
        return t.contract(text[:1].upper() + text[1:])

    def bonuses(self, bonuses: Mapping[str, int]) -> str:
        t = self.texts
        listed = t.frame("bonuses.join").join(t.frame("bonus", n=n, track=t.name("track", k))
                                              for k, n in bonuses.items())
        return t.frame("bonuses", bonuses=listed)


def gist(meaning: str) -> str:
    """A declared meaning sentence as a phrase within a sentence: its first clause
    (up to a colon or semicolon), without its capital and full stop."""
    text = " ".join(meaning.split())
    depth = 0
    for i, ch in enumerate(text):       # the first ': ' or '; ' outside parentheses
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth <= 0 and ch in ":;" and text[i + 1:i + 2] in (" ", ""):
            text = text[:i]
            break
    text = text.rstrip(". ")
    return text[:1].lower() + text[1:]


def explain(vocab: Vocabulary, rules: list[Rule], texts: Texts | None = None) -> list[str]:
    """Each rule as a sentence, in the language of ``texts`` (English without)."""
    writer = Explainer(vocab, texts)
    return [writer.rule(r) for r in rules]


def card_lines(card: Any, vocab: Vocabulary, texts: Texts) -> list[str]:
    """A card as ``cards explain`` shows it: its name, each rule of its script as a
    sentence, and its bonuses, in the language of ``texts``."""
    from .syntax import parse_script

    writer = Explainer(vocab, texts)
    lines = [f"{card.name(texts.lang)}:"]
    if not card.effects:
        lines.append(f"  {texts.frame('no power')}")
    else:
        lines += [f"  - {writer.rule(r)}"
                  for r in parse_script(card.effects, card.file, *card.effects_at)]
    if card.bonuses:
        lines.append(f"  {writer.bonuses(card.bonuses)}")
    return lines
