"""Highlighting of effect scripts, generated from the grammar and the vocabulary, so that
it never drifts from what the parser and the compiler accept.

The same token rules (:func:`token_rules`) make a Pygments lexer (:func:`lexer`, used by
``mnrules cards show`` on a colour terminal; Pygments is the ``[highlight]`` extra) and a
TextMate grammar for editors (:func:`textmate`; ``mnrules cards textmate`` writes
``editors/mnrules-effects.tmLanguage.json``, and a test regenerates it and compares):

- the grammar's keywords (its quoted words and the words of its word-only terminals:
  ``modify``, ``when``, ``once``, ``round``...) and punctuation;
- after a rule's head (a grammar rule ``NAME: "KEYWORD" name ...``), the quantity or
  event it names, marked known or not by the vocabulary;
- every phrase of the vocabulary, by kind (a condition, a count, an action...), its
  placeholders as the words or numbers they take, articles and plurals allowed;
- numbers and comments; any other word is plain.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import IO, Any

from ..content.resources import data_dir
from .words import ARTICLES, Vocabulary

EDGE_BEFORE = r"(?<![a-z0-9_'&])"
EDGE_AFTER = r"(?![a-z0-9_'&])"
NAME = r"[a-z_][a-z0-9_'&]*(?:\.[a-z_][a-z0-9_'&]*)*"

# What each kind of vocabulary word is shown as: (Pygments token, TextMate scope part).
KIND_STYLE = {
    "quantity": ("Name.Class", "entity.name.type.quantity"),
    "event": ("Name.Class", "entity.name.type.event"),
    "condition": ("Name.Builtin", "support.function.condition"),
    "count": ("Name.Variable", "variable.other.count"),
    "action": ("Name.Function", "entity.name.function.action"),
    "change": ("Name.Function", "entity.name.function.change"),
    "subject": ("Name.Entity", "variable.language.subject"),
    "occasion": ("Name.Label", "entity.name.label.occasion"),
    "holder": ("Name.Label", "entity.name.label.holder"),
    "allowance": ("Name.Attribute", "entity.other.attribute-name.allowance"),
    "include": ("Name.Constant", "constant.other.include"),
    "item": ("Name.Constant", "constant.other.item"),
    "resource": ("Name.Constant", "constant.other.resource"),
}
OTHER_STYLE = ("Name.Other", "variable.other.word")       # a word the vocabulary lacks
UNKNOWN_TARGET = ("Name.Other", "invalid.illegal.unknown-name")
SCOPE = "source.mnrules-effects"


@dataclass(frozen=True)
class Grammar:
    """What highlighting needs of the grammar: its keywords, its punctuation, and the
    keywords that head a rule naming a quantity or event."""

    keywords: tuple[str, ...]
    punctuation: tuple[str, ...]
    heads: tuple[str, ...]


@lru_cache(maxsize=1)
def grammar() -> Grammar:
    """Read from the grammar's own terminals (as Lark built them) and rules."""
    from .syntax import parser

    keywords: set[str] = set()
    punctuation: set[str] = set()
    for term in parser().terminals:
        value = str(term.pattern.value)
        if term.pattern.type == "str":
            (keywords if value.isalpha() else punctuation).add(value)
        else:   # a terminal of words only, such as PERIOD: (?:round|phase|turn|game)
            found = re.fullmatch(r"\(\?:([a-z|]+)\)", value)
            if found is not None:
                keywords.update(found.group(1).split("|"))
    text = (data_dir("grammar") / "effects.lark").read_text(encoding="utf-8")
    heads = set(re.findall(r'^\w+:\s*"(\w+)"\s+name\b', text, flags=re.M))
    return Grammar(tuple(sorted(keywords, key=lambda k: (-len(k), k))),
                   tuple(sorted(punctuation)), tuple(sorted(heads)))


@dataclass(frozen=True)
class TokenRule:
    """One highlighting rule: a regular expression (Python and Oniguruma alike) and what
    it shows, as a Pygments token name and a TextMate scope; ``groups`` for a rule
    head (keyword, space, name)."""

    regex: str
    token: str
    scope: str
    groups: tuple[tuple[str, str], ...] = ()


def _plural(regex: str) -> str:
    return regex + "(?:e?s|ies)?"


def _one_of(names: Iterable[str]) -> str:
    items = sorted(names, key=lambda n: (-len(n), n))
    return "(?:" + "|".join(_plural(re.escape(n)) for n in items) + ")"


def slot_regex(slot: str, vocab: Vocabulary | None) -> str:
    """What a placeholder takes: a number, the ids of its set (and their plurals), or
    any word ({name}, or a set the vocabulary does not list)."""
    if slot == "n":
        return r"[0-9]+"
    if vocab is not None:
        s = vocab.sets
        known = {"good": s.goods, "unit": s.units, "card": s.cards, "track": s.tracks,
                 "player": s.players}.get(slot)
        named = getattr(s, "named", {})
        if known is None and slot in named:
            known = named[slot]
        if known:                      # scripts are written in lower case
            return _one_of({k.lower() for k in known})
    return r"[a-z_][a-z0-9_'&]*"


def phrase_regex(pattern: str, vocab: Vocabulary | None = None,
                 keywords: Iterable[str] = ()) -> str:
    """A vocabulary pattern as a regular expression: its words (plurals allowed), its
    placeholders as what they take, articles allowed before any word. A phrase that
    opens with a placeholder never opens on one of ``keywords`` (the grammar's)."""
    parts = []
    for tok in pattern.split():
        if tok in ARTICLES:
            continue
        if tok.startswith("{") and tok.endswith("}"):
            parts.append(slot_regex(tok[1:-1], vocab))
        else:
            parts.append(_plural(re.escape(tok)))
    if not parts:
        return r"(?!)"
    sep = r"\s+(?:(?:a|an|the)\s+)*"
    guard = ""
    first = next(t for t in pattern.split() if t not in ARTICLES)
    words = sorted(keywords)
    if first.startswith("{") and words:
        guard = "(?!(?:" + "|".join(re.escape(k) for k in words) + ")" + EDGE_AFTER + ")"
    return EDGE_BEFORE + r"(?:(?:a|an|the)\s+)*" + guard + sep.join(parts) + EDGE_AFTER


def token_rules(vocab: Vocabulary | None = None) -> list[TokenRule]:
    """The highlighting rules, in the order they are tried."""
    g = grammar()
    rules = [TokenRule(r"#[^\n]*", "Comment.Single", "comment.line.number-sign")]
    heads = "|".join(g.heads)
    names = sorted({w.pattern for k in ("quantity", "event") for w in
                    (vocab.words(k) if vocab is not None else ())}, key=lambda n: (-len(n), n))
    if names:
        known = "(?:" + "|".join(re.escape(n) for n in names) + ")"
        rules.append(TokenRule(
            rf"{EDGE_BEFORE}({heads})(\s+)({known}){EDGE_AFTER}(?!\.)", "", "",
            (("Keyword", "keyword.control.rule"), ("Whitespace", ""),
             (KIND_STYLE["quantity"][0], "entity.name.type.target"))))
    rules.append(TokenRule(
        rf"{EDGE_BEFORE}({heads})(\s+)({NAME})", "", "",
        (("Keyword", "keyword.control.rule"), ("Whitespace", ""),
         UNKNOWN_TARGET if vocab is not None else ("Name.Class",
                                                   "entity.name.type.target"))))
    if vocab is not None:
        phrases: list[tuple[str, str]] = []
        for kind in KIND_STYLE:
            if kind in ("quantity", "event"):
                continue
            phrases += [(w.pattern, kind) for w in vocab.words(kind)]
        # the longest first, so 'you attack' is never cut to 'you'
        for pattern, kind in sorted(dict.fromkeys(phrases),
                                    key=lambda p: (-len(p[0].split()), -len(p[0]), p)):
            token, scope = KIND_STYLE[kind]
            rules.append(TokenRule(phrase_regex(pattern, vocab, g.keywords), token,
                                   scope))
    rules.append(TokenRule(EDGE_BEFORE + "(?:" + "|".join(re.escape(k) for k in g.keywords)
                           + ")" + EDGE_AFTER, "Keyword", "keyword.other"))
    rules.append(TokenRule(r"[0-9]+", "Number.Integer", "constant.numeric.integer"))
    rules.append(TokenRule("|".join(re.escape(p) for p in g.punctuation), "Punctuation",
                           "punctuation.separator"))
    rules.append(TokenRule(r"[a-z_][a-z0-9_'&]*", *OTHER_STYLE))
    return rules


# -- Pygments ------------------------------------------------------------------------------
def lexer(vocab: Vocabulary | None = None) -> Any:
    """A Pygments lexer for scripts under ``vocab`` (the grammar's words alone without);
    raises ImportError when Pygments is not installed."""
    from pygments import token as tokens
    from pygments.lexer import RegexLexer, bygroups

    def tok(name: str) -> Any:
        out: Any = tokens.Token
        for part in name.split("."):
            out = getattr(out, part)
        return out

    root: list[tuple[str, Any]] = []
    for r in token_rules(vocab):
        if r.groups:
            root.append((r.regex, bygroups(*(tok(t) for t, _ in r.groups))))
        else:
            root.append((r.regex, tok(r.token)))
    root += [(r"\s+", tokens.Whitespace), (r".", tokens.Error)]

    made = type("EffectsLexer", (RegexLexer,), {
        "__doc__": "mnrules effect scripts (cards' ``effects:``).",
        "name": "mnrules effects", "aliases": ["mnrules-effects"],
        "filenames": ["*.mneffects"], "tokens": {"root": root}})
    return made()


def colour_wanted(stream: IO[str]) -> bool:
    """Colour for a terminal that shows it: a tty, NO_COLOR unset, TERM not 'dumb'."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def highlight(script: str, rules: Any = None,
              vocabulary: Callable[[Any], Vocabulary] | None = None) -> str:
    """``script`` with terminal colours, its words as ``rules``' vocabulary knows them;
    the script as it is when Pygments is not installed."""
    try:
        from pygments import highlight as render
        from pygments.formatters import TerminalFormatter
    except ImportError:
        return script
    vocab = None
    if rules is not None:
        if vocabulary is None:
            from ..content.ruleset import vocabulary as vocabulary_of
            vocabulary = vocabulary_of
        vocab = vocabulary(rules)
    out: str = render(script, lexer(vocab), TerminalFormatter())
    return out if script.endswith("\n") else out.rstrip("\n")


# -- TextMate ------------------------------------------------------------------------------
def textmate(vocab: Vocabulary | None = None, source: str = "") -> dict[str, Any]:
    """The TextMate grammar (VS Code, Sublime Text, and any editor reading them) of
    scripts under ``vocab``: the same rules as the lexer."""
    patterns: list[dict[str, Any]] = []
    for r in token_rules(vocab):
        if r.groups:
            patterns.append({"match": r.regex, "captures": {
                str(i): {"name": f"{scope}.mnrules-effects"}
                for i, (_, scope) in enumerate(r.groups, 1) if scope}})
        else:
            patterns.append({"match": r.regex, "name": f"{r.scope}.mnrules-effects"})
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/"
                   "tmlanguage.json",
        "name": "mnrules effects",
        "scopeName": SCOPE,
        "fileTypes": ["mneffects"],
        "comment": "Generated by `mnrules cards textmate` from grammar/effects.lark and "
                   f"the vocabulary{' of ' + source if source else ''}; do not edit "
                   "(tests/test_highlight.py regenerates it and compares).",
        "patterns": patterns,
    }


def textmate_in_yaml(key: str = "effects") -> dict[str, Any]:
    """A TextMate injection grammar: the scripts of card and pack files (the block under a
    ``key:`` such as ``effects: |``) highlighted as scripts inside YAML."""
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/"
                   "tmlanguage.json",
        "name": "mnrules effects in YAML",
        "scopeName": f"{SCOPE}.in-yaml",
        "injectionSelector": "L:source.yaml",
        "comment": "Generated by `mnrules cards textmate --in-yaml`; do not edit.",
        "patterns": [{
            "begin": rf"^(\s*)({re.escape(key)})(:)\s*([|>][-+0-9]*)\s*$",
            "beginCaptures": {"2": {"name": "entity.name.tag.yaml"},
                              "3": {"name": "punctuation.separator.key-value.yaml"},
                              "4": {"name": "keyword.control.flow.block-scalar.yaml"}},
            # the block ends at the first line not indented deeper than its key
            "end": r"^(?!\1\s|\s*$)",
            "contentName": f"meta.embedded.block.mnrules-effects {SCOPE}",
            "patterns": [{"include": SCOPE}],
        }],
    }


def textmate_json(vocab: Vocabulary | None = None, source: str = "",
                  in_yaml: bool = False) -> str:
    data = textmate_in_yaml() if in_yaml else textmate(vocab, source)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
