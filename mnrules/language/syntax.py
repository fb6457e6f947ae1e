"""Parsing scripts into rules, with errors a modder can act on.

A script holds one rule per line; an indented line continues the rule above. Each
rule is parsed on its own, so one bad rule does not hide the errors of the others.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import stat
import sys
import tempfile
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import lark
from lark import (
    Lark,
    Token,
    Tree,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)
from lark.visitors import Transformer_NonRecursive, v_args

from ..content.resources import data_dir
from ..errors import MnrulesError

MAX_SCRIPT_CHARS = 20_000
MAX_RULES = 100
SHOWN_CHARS = 100   # an error shows at most this much of its source line
MAX_DIGITS = 18     # longer numbers are refused while parsing (each word has its own range)


@dataclass(frozen=True)
class Pos:
    line: int     # 1-based, in the file
    column: int   # 1-based, in the file


@dataclass(frozen=True)
class Phrase:
    words: tuple[str | int, ...]
    pos: Pos
    places: tuple[Pos, ...] = ()    # where each word is (empty: all at ``pos``)

    def at(self, i: int) -> Pos:
        return self.places[i] if 0 <= i < len(self.places) else self.pos

    @property
    def text(self) -> str:
        return " ".join(str(w) for w in self.words)


@dataclass(frozen=True)
class Cond:
    kind: str                       # "test", "not", "and", "or", "at_least", "at_most",
    #                                 "more", "fewer"
    phrase: Phrase | None = None    # the test, or the count compared
    parts: tuple[Cond, ...] = ()
    n: int = 0                      # at_least, at_most: the number
    other: Phrase | None = None     # more, fewer: the count compared with
    pos: Pos | None = None          # at_least, at_most: where the number is


@dataclass(frozen=True)
class Value:
    kind: str                       # "number", "per", "amount", "amount_per", "count"
    n: int = 0
    phrase: Phrase | None = None    # per, count: the count; amount(_per): the resource
    pos: Pos | None = None          # where the number is
    divisor: int = 1                # 'N per M COUNT': N for each whole M of the count
    per: Phrase | None = None       # amount_per: the count
    divisor_pos: Pos | None = None


@dataclass(frozen=True)
class Op:
    kind: str                       # "add", "subtract", "set", "double", "floor" (at
    #                                 least), "ceiling" (at most), "allow", ...
    value: Value | None = None
    phrase: Phrase | None = None
    low: int = 0
    high: int = 0
    pos: Pos | None = None          # where the operation starts
    low_pos: Pos | None = None      # allow, choose: where the (first) number is
    high_pos: Pos | None = None     # choose: where the second number is


@dataclass(frozen=True)
class Price:
    """One amount of a payment: ``n`` of a resource."""

    n: int
    phrase: Phrase
    pos: Pos | None = None          # where the number is


@dataclass(frozen=True)
class Payment:
    """One way to pay an offer: the amounts paid together (none: free)."""

    parts: tuple[Price, ...]


@dataclass(frozen=True)
class Action:
    optional: bool
    phrase: Phrase
    subject: Phrase | None = None   # "WHO may ...": who is asked (the compiler reads it)
    choices: tuple[Phrase, ...] = ()
    #   "you choose: A or B": the actions offered (``phrase`` is then "you choose")
    per: Phrase | None = None       # "take 1 coin per temple you control": the count
    divisor: int = 1                # "... per 2 temples ...": for each whole 2
    divisor_pos: Pos | None = None


@dataclass(frozen=True)
class Rule:
    kind: str                       # "modify", "replace", "after", "before", "offer"
    pos: Pos
    text: str
    limit: str | None = None        # "round", "turn", "phase", "game"
    name: str = ""
    name_pos: Pos | None = None
    cond: Cond | None = None
    ops: tuple[Op, ...] = ()
    actions: tuple[Action, ...] = ()
    item: Phrase | None = None
    multiplier: Phrase | None = None
    payments: tuple[Payment, ...] = field(default_factory=tuple)
    by: Phrase | None = None        # after/before/replace EVENT by WHO


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    column: int
    source: str
    message: str

    def __str__(self) -> str:
        src, col = self.source, self.column
        if len(src) > SHOWN_CHARS:      # a long line: the part around the column
            start = max(0, min(col - 1 - SHOWN_CHARS // 2, len(src) - SHOWN_CHARS))
            src = ("…" if start else "") + src[start:start + SHOWN_CHARS] + \
                ("…" if start + SHOWN_CHARS < len(src) else "")
            col = col - start + (1 if start else 0)
        caret = " " * (col - 1) + "^"
        return f"{self.file}:{self.line}:{self.column}: {self.message}\n    {src}\n" \
               f"    {caret}"


class ScriptError(MnrulesError):
    """Every problem found in one script (or card file), each with its place and a caret."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


# How the grammar is built; the parser cache is keyed by these, the grammar and lark.
_OPTIONS: dict[str, Any] = {"parser": "lalr", "strict": True, "propagate_positions": True,
                            "maybe_placeholders": False}
_CACHE_FORMAT = "1"
_CACHE_MAX_BYTES = 1 << 20


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The effect language's parser.

    strict: any terminal collision or LALR conflict is an error when the grammar is
    built. Building it costs ~150 ms in a new process (lark checks every pair of
    terminals), so the built tables are kept in a private per-user cache (see
    :func:`_cache_dir`), never in the shared temp folder: lark's own ``cache=True``
    unpickles a file there that any local user could plant.
    """
    text = (data_dir("grammar") / "effects.lark").read_text(encoding="utf-8")
    key = hashlib.sha256("\0".join([_CACHE_FORMAT, text, repr(sorted(_OPTIONS.items())),
                                     lark.__version__, sys.version]).encode()).hexdigest()
    folder = _cache_dir()
    file = folder / f"effects-{key[:32]}.parser" if folder is not None else None
    if file is not None:
        cached = _load_cached(file)
        if cached is not None:
            return cached
    built = Lark(text, **_OPTIONS)
    if file is not None:
        _save_cached(built, file)
    return built


def _private(st: os.stat_result) -> bool:
    """Owned by this user and writable by nobody else."""
    return st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _cache_dir() -> Path | None:
    """This user's own cache folder ($XDG_CACHE_HOME/mnrules or ~/.cache/mnrules, made
    0700), or None when there is none that is safe: a folder that is not a real folder,
    belongs to someone else or that others may write to is never used."""
    if not hasattr(os, "geteuid") or os.environ.get("MNRULES_NO_CACHE"):  # or opted out
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    try:
        root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
        if not root.is_absolute():          # no home folder known
            return None
        folder = root / "mnrules"
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
        st = os.lstat(folder)
    except (OSError, RuntimeError):
        return None
    if not stat.S_ISDIR(st.st_mode) or not _private(st):
        return None
    return folder


class _PlainData(pickle.Unpickler):
    """Unpickles lists, dicts, strings and numbers only: a pickle that names any class
    or function (the only way a pickle runs code) is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refused: {module}.{name}")


def _load_cached(file: Path) -> Lark | None:
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode) or not _private(st) \
                    or st.st_size > _CACHE_MAX_BYTES:
                return None
            data = _PlainData(io.BytesIO(f.read(_CACHE_MAX_BYTES))).load()
        loaded: Lark = Lark._load_from_dict(data["data"], data["memo"])  # type: ignore[no-untyped-call]
        return loaded
    except Exception:  # a damaged cache is rebuilt, never fatal
        return None


def _save_cached(built: Lark, file: Path) -> None:
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".tmp-")   # mode 0600
        with os.fdopen(fd, "wb") as f:
            built.save(f)
        os.replace(tmp, file)
        tmp = None
    except Exception:  # a cache that cannot be written is only slower
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _describe(term: str) -> str:
    """A terminal's name in words (not the grammar's token names)."""
    words = {"WORD": "a word", "NUMBER": "a number", "PERIOD": "'round', 'turn', 'phase' or 'game'",
             "COLON": "':'", "COMMA": "','", "LPAR": "'('", "RPAR": "')'", "DOT": "'.'",
             "_FOR": "'for'", "$END": "the end of the rule"}
    if term in words:
        return words[term]
    for t in parser().terminals:
        if t.name == term and t.pattern.type == "str":
            return f"'{t.pattern.value}'"
    return term.lower()


def _expected(names: set[str]) -> str:
    items = sorted({_describe(n) for n in names if not n.startswith("__IGNORE")})
    if not items:
        return "nothing more"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]


# How a modder's English often opens a rule, and the language's way to say it.
_OPENINGS = {
    "at": "'at the start of a phase' is 'after phase.start when the phase is NAME', "
          "'at the end of a phase' 'after phase.end when the phase is NAME'",
    "when": "'when EVENT happens' is 'after EVENT' (or 'before EVENT', 'replace EVENT')",
    "whenever": "'whenever EVENT happens' is 'after EVENT'",
    "each": "'each round' is 'after phase.start when the phase is NAME' (or 'phase.end'); "
            "'each time "
            "EVENT happens' is 'after EVENT'",
    "every": "'every round' is 'after phase.start when the phase is NAME'",
    "if": "a condition follows the event: 'after EVENT when CONDITION: ACTION'",
    "your": "a modifier reads 'modify QUANTITY [when CONDITION]: add N'",
}


def _hint(token: str, before: list[str], expected: set[str]) -> str:
    """A way to say what a modder wrote: a rule opened as English opens a sentence, or
    a count compared with a number the other way round ('more than 2 legions')."""
    if not before and "AFTER" in expected and token in _OPENINGS:
        return "; " + _OPENINGS[token]
    if token == "than" and before and before[-1] in ("more", "fewer", "less"):
        return ("; a count is compared with a number as 'at least 3 COUNT' (more than 2) "
                "or 'at most 1 COUNT' (fewer than 2), COUNT a count word ('... you have', "
                "'... you control'): 'more COUNT than COUNT' compares two counts")
    return ""


class _ToAst(Transformer_NonRecursive[Token, Any]):  # deep nesting: no deep recursion
    def __init__(self, line0: int, col0: int, base: int) -> None:
        super().__init__()
        self.line0 = line0
        self.col0 = col0      # the file's column of the rule's first character
        self.base = base      # the file's column of the script's first column

    def _pos(self, meta_or_tok: Any) -> Pos:
        line = getattr(meta_or_tok, "line", 1)
        col = getattr(meta_or_tok, "column", 1)
        return Pos(self.line0 + line - 1, (self.col0 if line == 1 else self.base) - 1 + col)

    def phrase(self, items: list[Token]) -> Phrase:
        words = tuple(int(t) if t.type == "NUMBER" else str(t) for t in items)
        places = tuple(self._pos(t) for t in items)
        return Phrase(words, places[0], places)

    item = phrase   # an offer's item and count read as any phrase

    def name(self, items: list[Token]) -> tuple[str, Pos]:
        return ".".join(str(t) for t in items), self._pos(items[0])

    def limit(self, items: list[Token]) -> tuple[str, str]:
        return ("limit", str(items[0]))

    def condition(self, items: list[Any]) -> tuple[str, Cond]:
        return ("cond", items[0])

    def test(self, items: list[Any]) -> Cond:
        return Cond("test", phrase=items[0])

    def negate(self, items: list[Any]) -> Cond:
        return Cond("not", parts=(items[0],))

    def both(self, items: list[Any]) -> Cond:
        return Cond("and", parts=(items[0], items[1]))

    def either(self, items: list[Any]) -> Cond:
        return Cond("or", parts=(items[0], items[1]))

    def at_least(self, items: list[Any]) -> Cond:
        return Cond("at_least", phrase=items[1], n=int(items[0]), pos=self._pos(items[0]))

    def at_most(self, items: list[Any]) -> Cond:
        return Cond("at_most", phrase=items[1], n=int(items[0]), pos=self._pos(items[0]))

    def more(self, items: list[Any]) -> Cond:
        return Cond("more", phrase=items[0], other=items[1])

    def fewer(self, items: list[Any]) -> Cond:
        return Cond("fewer", phrase=items[0], other=items[1])

    def divisor(self, items: list[Token]) -> tuple[str, int, Pos]:
        return ("divisor", int(items[0]), self._pos(items[0]))

    def by(self, items: list[Any]) -> tuple[str, Phrase]:
        return ("by", items[0])

    def number(self, items: list[Token]) -> Value:
        return Value("number", int(items[0]), pos=self._pos(items[0]))

    def per(self, items: list[Any]) -> Value:
        div = items[1] if isinstance(items[1], tuple) else ("divisor", 1, None)
        return Value("per", int(items[0]), items[-1], self._pos(items[0]), div[1],
                     divisor_pos=div[2])

    def amount(self, items: list[Any]) -> Value:
        return Value("amount", int(items[0]), items[1], self._pos(items[0]))

    def amount_per(self, items: list[Any]) -> Value:
        div = items[2] if isinstance(items[2], tuple) else ("divisor", 1, None)
        return Value("amount_per", int(items[0]), items[1], self._pos(items[0]), div[1],
                     items[-1], div[2])

    def count(self, items: list[Any]) -> Value:
        return Value("count", 1, items[0])

    @v_args(meta=True)
    def add(self, meta: Any, items: list[Any]) -> Op:
        return Op("add", value=items[0], pos=self._pos(meta))

    @v_args(meta=True)
    def subtract(self, meta: Any, items: list[Any]) -> Op:
        return Op("subtract", value=items[0], pos=self._pos(meta))

    @v_args(meta=True)
    def set(self, meta: Any, items: list[Any]) -> Op:
        return Op("set", value=items[0], pos=self._pos(meta))

    @v_args(meta=True)
    def double(self, meta: Any, items: list[Any]) -> Op:
        return Op("double", pos=self._pos(meta))

    @v_args(meta=True)
    def floor(self, meta: Any, items: list[Any]) -> Op:
        return Op("floor", value=items[0], pos=self._pos(meta))

    @v_args(meta=True)
    def ceiling(self, meta: Any, items: list[Any]) -> Op:
        return Op("ceiling", value=items[0], pos=self._pos(meta))

    @v_args(meta=True)
    def allow(self, meta: Any, items: list[Any]) -> Op:
        return Op("allow", phrase=items[1], low=int(items[0]), pos=self._pos(meta),
                  low_pos=self._pos(items[0]))

    @v_args(meta=True)
    def include(self, meta: Any, items: list[Any]) -> Op:
        return Op("include", phrase=items[0], pos=self._pos(meta))

    @v_args(meta=True)
    def choose(self, meta: Any, items: list[Token]) -> Op:
        return Op("choose", low=int(items[0]), high=int(items[1]), pos=self._pos(meta),
                  low_pos=self._pos(items[0]), high_pos=self._pos(items[1]))

    def price(self, items: list[Any]) -> Price:
        return Price(int(items[0]), items[1], self._pos(items[0]))

    def pay(self, items: list[Price]) -> Payment:
        return Payment(tuple(items))

    def free(self, items: list[Any]) -> Payment:
        return Payment(())

    def times(self, items: list[Any]) -> tuple[str, Phrase, int, Pos | None]:
        div = items[0] if isinstance(items[0], tuple) else ("divisor", 1, None)
        return ("times", items[-1], div[1], div[2])

    def may(self, items: list[Any]) -> Action:
        return _per(Action(True, items[1], items[0]), items[2:])

    def choice(self, items: list[Any]) -> Action:
        return Action(False, items[0], choices=tuple(items[1:]))

    def must(self, items: list[Any]) -> Action:
        return _per(Action(False, items[0]), items[1:])

    def multiplier(self, items: list[Any]) -> tuple[str, Phrase]:
        return ("multiplier", items[0])


def _per(action: Action, rest: list[Any]) -> Action:
    """``action`` with its 'per [M] COUNT', if the script gave one."""
    if not rest:
        return action
    _, phrase, divisor, pos = rest[0]
    return replace(action, per=phrase, divisor=divisor, divisor_pos=pos)


def _rule_from_tree(tree: Tree[Any], pos: Pos, text: str) -> Rule:
    parts = tree.children
    limit = None
    if parts and isinstance(parts[0], tuple) and parts[0][0] == "limit":
        limit = parts[0][1]
        parts = parts[1:]
    clause = parts[0]
    kind = str(clause.data)
    items = clause.children
    fields: dict[str, Any] = {"kind": kind, "pos": pos, "text": text, "limit": limit}
    ops, actions, payments = [], [], []
    for it in items:
        if isinstance(it, tuple) and len(it) == 2 and isinstance(it[1], Pos):
            fields["name"], fields["name_pos"] = it
        elif isinstance(it, tuple) and it[0] == "cond":
            fields["cond"] = it[1]
        elif isinstance(it, tuple) and it[0] == "multiplier":
            fields["multiplier"] = it[1]
        elif isinstance(it, tuple) and it[0] == "by":
            fields["by"] = it[1]
        elif isinstance(it, Op):
            ops.append(it)
        elif isinstance(it, Action):
            actions.append(it)
        elif isinstance(it, Payment):
            payments.append(it)
        elif isinstance(it, Phrase):
            fields["item"] = it
    return Rule(ops=tuple(ops), actions=tuple(actions), payments=tuple(payments), **fields)


def split_rules(script: str) -> list[tuple[int, int, str]]:
    """(line offset, column offset, text) of each rule: indented lines continue a rule."""
    out: list[tuple[int, int, str]] = []
    for i, raw in enumerate(script.splitlines()):
        stripped = raw.split("#", 1)[0].rstrip()
        if not stripped.strip():
            continue
        indent = len(raw) - len(raw.lstrip())
        if indent > 0 and out:
            line, col, text = out[-1]
            out[-1] = (line, col, text + "\n" + " " * indent + stripped.strip())
        else:
            out.append((i, indent, stripped.strip()))
    return out


def parse_script(script: str, file: str = "<script>", line0: int = 1,
                 col0: int = 1) -> list[Rule]:
    """Every rule of ``script``; raises ScriptError listing every syntax error found.

    ``line0``/``col0`` say where the script starts in ``file`` (for embedded scripts).
    """
    lines = script.splitlines()
    if len(script) > MAX_SCRIPT_CHARS:
        raise ScriptError([Problem(file, line0, col0, lines[0][:80] if lines else "",
                                   f"a script may hold at most {MAX_SCRIPT_CHARS} "
                                   f"characters")])
    rules: list[Rule] = []
    problems: list[Problem] = []
    chunks = split_rules(script)
    if len(chunks) > MAX_RULES:
        raise ScriptError([Problem(file, line0, col0, "", f"a script may hold at most "
                                   f"{MAX_RULES} rules")])
    for offset, indent, text in chunks:
        start_line = line0 + offset
        start_col = col0 + indent
        try:
            tree = parser().parse(text)
        except UnexpectedInput as exc:
            problems.append(_syntax_problem(exc, text, file, start_line, start_col, col0))
            continue
        too_long = _long_numbers(tree, text, file, start_line, start_col, col0)
        if too_long:
            problems.extend(too_long)
            continue
        ast = _ToAst(start_line, start_col, col0).transform(tree)
        rules.append(_rule_from_tree(ast, Pos(start_line, start_col), text))
    if problems:
        raise ScriptError(problems)
    if not rules:   # only blank lines and comments: a card that silently does nothing
        raise ScriptError([Problem(file, line0, col0, lines[0] if lines else "",
                                   "the script is empty: write at least one rule, or "
                                   "leave the effects key out for a card with no power")])
    return rules


def _long_numbers(tree: Tree[Any], text: str, file: str, line0: int, col0: int,
                  base: int) -> list[Problem]:
    """Numbers too long to be any word's number, refused before they are converted (a
    number of thousands of digits costs time, and Python refuses to convert one)."""
    out = []
    numbers = [c for sub in tree.iter_subtrees() for c in sub.children    # not recursive
               if isinstance(c, Token) and c.type == "NUMBER"]
    for tok in numbers:
        digits = str(tok)
        if len(digits) <= MAX_DIGITS:
            continue
        line = tok.line or 1
        rule_lines = text.splitlines()
        src = rule_lines[line - 1] if 0 < line <= len(rule_lines) else text
        indent = (col0 if line == 1 else base) - 1
        shown = digits[:12] + ("…" if len(digits) > 12 else "")
        out.append(Problem(file, line0 + line - 1, indent + (tok.column or 1), " " * indent + src,
                           f"the number {shown} is too long ({len(digits)} digits, at most "
                           f"{MAX_DIGITS}); every number in a script has a small range "
                           f"(see 'Numbers' in docs/effect-language.md)"))
    return out


def _syntax_problem(exc: UnexpectedInput, text: str, file: str, line0: int, col0: int,
                    base: int) -> Problem:
    rule_lines = text.splitlines()
    line = getattr(exc, "line", 1) or 1
    col = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedEOF) or line < 1:
        line = len(rule_lines)
        col = len(rule_lines[-1]) + 1
    src = rule_lines[line - 1] if 0 < line <= len(rule_lines) else text
    if isinstance(exc, UnexpectedCharacters):
        char = text.splitlines()[line - 1][col - 1]
        msg = f"unexpected character {char!r}"
        allowed = set(exc.allowed or ())
        if allowed:
            msg += f"; expected {_expected(allowed)}"
        if char.isupper():
            msg += ("; a script is written in lowercase, an id too, with '_' for a space "
                    "(the id 'OLD TOWN' is written 'old_town')")
    elif isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = _expected(set(exc.expected))
        msg = "the rule ends too soon; expected " + expected if tok.type == "$END" else \
            f"unexpected {str(tok)!r}; expected {expected}"
        if str(tok) == "or" and "COLON" in exc.expected:
            msg += "; a choice between actions reads 'you choose: ACTION or ACTION'"
        msg += _hint(str(tok), src[:max(0, col - 1)].split(), set(exc.expected))
    elif isinstance(exc, UnexpectedEOF):
        msg = f"the rule ends too soon; expected {_expected(set(exc.expected))}"
    else:
        msg = str(exc)
    abs_line = line0 + line - 1
    indent = (col0 if line == 1 else base) - 1
    # show the file's own line, so the caret sits under the file's column
    shown_src = " " * indent + src
    return Problem(file, abs_line, indent + col, shown_src, msg)
