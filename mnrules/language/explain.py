"""Plain English from a parsed script, through the same vocabulary the compiler used,
so a modder reads what the engine understood (not a stored text): a quantity or an
event as its declaration in the rules' contract means it, the other words by their
documentation."""

from __future__ import annotations

from .syntax import Cond, Op, Phrase, Rule, Value
from .words import Vocabulary

LIMITS = {"round": "Once per round, ", "phase": "Once per phase, ", "turn": "Once per turn, "}


def _doc(vocab: Vocabulary, kind: str, phrase: Phrase) -> str:
    found = vocab.match(kind, phrase.words)
    if found is None:
        return f"<unknown {kind} '{phrase.text}'>"
    word, args = found
    doc = word.doc
    slots = [t for t in word.tokens if t.startswith("{")]
    for slot, a in zip(slots, args, strict=False):
        doc = doc.replace(slot, str(a), 1)
    return doc


def cond_text(vocab: Vocabulary, c: Cond) -> str:
    if c.kind == "test":
        assert c.phrase is not None
        return _doc(vocab, "condition", c.phrase)
    if c.kind == "not":
        return f"it is not so that {cond_text(vocab, c.parts[0])}"
    joiner = " and " if c.kind == "and" else " or "
    return joiner.join(cond_text(vocab, p) for p in c.parts)


def value_text(vocab: Vocabulary, v: Value) -> str:
    if v.kind == "number":
        return str(v.n)
    assert v.phrase is not None
    if v.kind == "per":
        return f"{v.n} for {_doc(vocab, 'count', v.phrase)}"
    if v.kind == "amount":
        return f"{v.n} {v.phrase.text}"
    return _doc(vocab, "count", v.phrase)


def op_text(vocab: Vocabulary, op: Op) -> str:
    if op.kind in ("add", "subtract", "set"):
        assert op.value is not None
        verb = {"add": "add", "subtract": "subtract", "set": "make it"}[op.kind]
        return f"{verb} {value_text(vocab, op.value)}"
    if op.kind == "double":
        return "double it"
    if op.kind == "choose":
        return f"choose any number from {op.low} to {op.high}"
    assert op.phrase is not None
    if op.kind == "allow":
        return f"allow {op.low}: {_doc(vocab, 'allowance', op.phrase)}"
    return f"include {_doc(vocab, 'include', op.phrase)}"


def gist(meaning: str) -> str:
    """A declared meaning sentence as a phrase within a sentence: its first clause
    (up to a colon or semicolon), without its capital and full stop."""
    text = " ".join(meaning.split())
    for mark in (": ", "; "):
        text = text.split(mark, 1)[0]
    text = text.rstrip(".")
    return text[:1].lower() + text[1:]


def rule_text(vocab: Vocabulary, rule: Rule) -> str:
    lead = LIMITS.get(rule.limit or "", "")
    cond = cond_text(vocab, rule.cond) if rule.cond else ""
    if rule.kind == "modify":
        q = vocab.named("quantity", rule.name)
        what = f"<unknown quantity '{rule.name}'>" if q is None else \
            ("for you " if q.subject else "") + gist(q.doc)
        ops = "; ".join(op_text(vocab, o) for o in rule.ops)
        when = f", if {cond}" if cond else ""
        text = f"{lead}when the rules work out {what}{when}: {ops}."
    elif rule.kind in ("after", "replace"):
        kind = "action" if rule.kind == "after" else "change"
        acts = []
        for a in rule.actions:
            doc = _doc(vocab, kind, a.phrase)
            acts.append(f"you may {doc}" if a.optional else doc)
        e = vocab.named("event", rule.name)
        what = f"<unknown event '{rule.name}'>" if e is None else gist(e.doc)
        tests = [f"you are {e.whose}"] if e is not None and e.whose else []
        if cond:
            tests.append(f"either {cond}" if tests and rule.cond and rule.cond.kind == "or"
                         else cond)
        when = f", if {' and '.join(tests)}" if tests else ""
        head = "after" if rule.kind == "after" else "when, instead of the usual,"
        text = f"{lead}{head} {what}{when}: {'; then '.join(acts)}."
    else:
        assert rule.item is not None
        pays = " or ".join("nothing" if p.phrase is None else f"{p.n} {p.phrase.text}"
                           for p in rule.payments)
        times = f", once for {_doc(vocab, 'count', rule.multiplier)}" if rule.multiplier \
            else ""
        when = f", if {cond}" if cond else ""
        text = f"{lead}you may build {_doc(vocab, 'item', rule.item)} for {pays}{times}" \
               f"{when}."
    return text[0].upper() + text[1:]


def explain(vocab: Vocabulary, rules: list[Rule]) -> list[str]:
    return [rule_text(vocab, r) for r in rules]
