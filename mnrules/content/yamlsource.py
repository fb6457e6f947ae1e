"""Safe YAML loading that remembers where every key and item came from.

Data files (board, edition packs, variants) are written by hand, so every
problem found in them must point at a line a user can open in an editor.
PyYAML's plain ``safe_load`` forgets positions and silently keeps the last of
two duplicate keys; this module composes the node tree with ``SafeLoader``
and builds the plain data itself, keeping a position for every path.
"""

from __future__ import annotations

import difflib
import math
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mnrules.errors import MnrulesError, without_private_folders

KeyPath = tuple[str | int, ...]

# Scalars handed to callers are limited to these, so that a checker only has to
# think about JSON-like values (a bare date would otherwise become a datetime).
_PLAIN_SCALARS = (str, int, float, bool, type(None))


class SourceError(MnrulesError):
    """A data file could not be read or is not well-formed YAML. ``source`` is the text of
    the line at fault, when known: the message then shows it with a caret under the
    column, as a script error does."""

    def __init__(self, file: str, line: int | None, column: int | None, message: str,
                 source: str | None = None) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.source = source
        super().__init__(str(self))

    def __str__(self) -> str:
        head = f"{_where(self.file, self.line, self.column)}: {self.message}"
        if self.source is None or self.column is None:
            return without_private_folders(head)
        return without_private_folders(head + caret_block(self.source, self.column))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.file, self.line, self.column, self.message, self.source)


SHOWN_CHARS = 100
"""A caret block shows at most this much of its source line (the part around the column)."""


def caret_block(source: str, column: int) -> str:
    """Two indented lines: ``source`` (a line of a file) and a caret under ``column``
    (1-based). A tab shows as '→' and other invisible characters as '·', one column each,
    so the caret stays under the character it means; a long line is cut around it."""
    src = "".join("→" if ch == "\t" else "·" if not ch.isprintable() else ch
                  for ch in source.rstrip("\r\n"))
    col = max(1, min(column, len(src) + 1))
    if len(src) > SHOWN_CHARS:
        start = max(0, min(col - 1 - SHOWN_CHARS // 2, len(src) - SHOWN_CHARS))
        cut = src[start:start + SHOWN_CHARS]
        src = ("…" if start else "") + cut + ("…" if start + SHOWN_CHARS < len(src) else "")
        col = col - start + (1 if start else 0)
    return f"\n    {src}\n    {' ' * (col - 1)}^"


def pointed(message: str) -> str:
    """``message``, when it starts with ``FILE:LINE:COLUMN:`` naming a readable text file
    and shows no line yet, with that line of the file and a caret under the column."""
    import re

    found = re.match(r"(.+?):(\d+):(\d+): ", message)
    if found is None or "\n" in message:
        return message
    try:
        with open(found.group(1), "rb") as f:
            head = f.read(MAX_BYTES)
        source = line_of(head.decode("utf-8"), int(found.group(2)))
    except (OSError, ValueError):
        return message
    if source is None:
        return message
    return message + caret_block(source, int(found.group(3)))


def line_of(text: str, line: int) -> str | None:
    """Line ``line`` (1-based) of ``text``, or None past its end; lines end where YAML
    ends them (CR, LF, CRLF, NEL, LS, PS), so a line number PyYAML gives finds its line."""
    import re

    lines = re.split("\r\n|[\r\n\x85\u2028\u2029]", text)
    return lines[line - 1] if 0 < line <= len(lines) else None


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a data file, located by key path and position."""

    file: str
    key: str
    message: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        key = f" {self.key}:" if self.key else ""
        return f"{_where(self.file, self.line, self.column)}:{key} {self.message}"


def _where(file: str, line: int | None, column: int | None) -> str:
    if line is None:
        return file
    if column is None:
        return f"{file}:{line}"
    return f"{file}:{line}:{column}"


@dataclass(frozen=True)
class Sourced:
    """Plain data loaded from a file, plus the position of every key and item."""

    data: Any
    file: str
    positions: Mapping[KeyPath, tuple[int, int]] = field(repr=False)

    def position(self, key_path: Sequence[str | int]) -> tuple[int, int] | None:
        """1-based (line, column) of the key or item at key_path.

        A path that does not exist (a missing key) falls back to its nearest
        existing parent, which is where the user has to add it.
        """
        path = tuple(key_path)
        while True:
            found = self.positions.get(path)
            if found is not None:
                return found
            if not path:
                return None
            path = path[:-1]

    def at(self, key_path: Sequence[str | int]) -> str:
        """``file:line:col`` of the key or item at key_path (its nearest existing parent
        for a missing key), the start of every error about it; the file alone when the
        file holds no position."""
        pos = self.position(key_path)
        return f"{self.file}:{pos[0]}:{pos[1]}" if pos else self.file

    def key_string(self, key_path: Sequence[str | int]) -> str:
        """Dotted form of key_path, e.g. ``provinces.GALLIA.seas[1]``.

        An int is a list index only where the data really is a list there, so
        an int mapping key (``players: {3: ...}``) renders as ``players.3``.
        """
        out = ""
        node: Any = self.data
        for part in key_path:
            if isinstance(node, list) and isinstance(part, int):
                out += f"[{part}]"
                node = node[part] if 0 <= part < len(node) else None
            else:
                out += f".{part}" if out else str(part)
                node = node.get(part) if isinstance(node, dict) else None
        return out

    def problem(self, key_path: Sequence[str | int], message: str) -> Problem:
        """A Problem at key_path, with its position filled in."""
        pos = self.position(key_path)
        line, column = pos if pos is not None else (None, None)
        return Problem(self.file, self.key_string(key_path), message, line, column)


def describe(value: object) -> str:
    """A YAML value as an error message says what was found: its kind, and short text
    quoted (60 characters at most: a hostile file's megabyte is never echoed)."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"true/false ({value})"
    if isinstance(value, int):
        return f"a whole number ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"text {value[:60]!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to word (for "did you mean ...?"), or None."""
    by_fold: dict[str, str] = {}
    for choice in choices:
        by_fold.setdefault(choice.casefold(), choice)
    folded = word.casefold()
    if folded in by_fold:
        return by_fold[folded]
    close = difflib.get_close_matches(folded, list(by_fold), n=1, cutoff=0.6)
    return by_fold[close[0]] if close else None


def did_you_mean(word: str, choices: Iterable[str], otherwise: str = "") -> str:
    """``"; did you mean 'x'?"`` for the choice closest to ``word``, else ``otherwise``
    (say, the list of what is known): the one way every refusal of a misspelt name ends."""
    hint = suggest(word, choices)
    return f"; did you mean {hint!r}?" if hint else otherwise


def listed(names: Iterable[str], most: int = 12) -> str:
    """``names`` joined by commas, the first ``most`` of them and then "… and 7 more"
    when there are more: a list in a refusal never cut without a mark."""
    items = list(names)
    if len(items) <= most:
        return ", ".join(items)
    return ", ".join(items[:most]) + f"… and {len(items) - most} more"


# Bounds on one document, so that a hostile file cannot hang the engine or eat its memory.
# The real files are far below them (the board: 13 KB, about 3,000 values, 5 deep).
MAX_BYTES = 1 << 20
"""Largest data file read (1 MiB): composing YAML costs about 150 bytes of memory per byte."""
MAX_VALUES = 100_000
"""Most values (scalars, lists, mappings) one document may hold once its aliases and
merge keys are expanded: a YAML alias may repeat data, never multiply it."""
MAX_DEPTH = 48
"""Deepest nesting of lists and mappings in one document."""
MAX_REPEATED_CHARS = 64 * 1024
"""Most text (characters of keys and values) the aliases of one document may repeat:
MAX_VALUES bounds how many values an alias brings, not how long they are, and a
200 KB string named five times made one ``play`` print megabytes. The bundled files
use no alias at all."""


def load_yaml(path: str | Path, text: str | None = None) -> Sourced:
    """Parse a YAML file (or text said to come from path) with SafeLoader.

    Raises SourceError for unreadable files, syntax errors, unsupported tags,
    duplicate mapping keys, non-finite numbers, and documents beyond the bounds
    (MAX_BYTES, MAX_VALUES once aliases are expanded, MAX_DEPTH).
    """
    file = str(path)
    if text is None:
        text = _read(Path(path), file)
    elif len(text) > MAX_BYTES:
        raise SourceError(file, None, None, f"too large: more than {MAX_BYTES} characters")
    if sum(map(text.count, _NESTING_MARKS)) > _COMPOSED_UNCHECKED:
        _refuse_deep(file, text)
    # libyaml's parser when PyYAML has it (about 10x faster); the same safe node tree.
    loader = _FastLoader(text)
    try:
        try:
            root = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            if "nesting depth" in str(exc.problem):
                _walk_bounded(file, text)   # a bounded libyaml: name the key it stopped in
            raise _with_source(_structure_error(file, exc, text), text) from None
        except yaml.reader.ReaderError as exc:
            raise _with_source(_reader_error(file, exc, text), text) from None
        except yaml.YAMLError as exc:
            raise SourceError(file, None, None, _one_line(str(exc))) from None
        except RecursionError:
            raise SourceError(file, None, None,
                              f"nests more than {MAX_DEPTH} deep") from None
        if root is None:
            return Sourced(None, file, {})
        builder = _Builder(file, loader)
        if "*" in text:
            # Aliases: measure the distinct nodes first, so that a bomb is refused
            # before anything is expanded (a file without them cannot multiply).
            builder.measure(root)
        try:
            data = builder.build(root, ())
        except _TooBig:
            builder.measure(root)  # raises, naming the part that expands too much
            raise SourceError(file, 1, 1, f"holds more than {MAX_VALUES} values") from None
        return Sourced(data, file, builder.positions)
    except SourceError as exc:     # every error at a place in the text shows that line
        raise _with_source(exc, text) from None
    finally:
        loader.dispose()


def _read(path: Path, file: str) -> str:
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise SourceError(file, None, None, f"cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:  # a name holding a NUL character
        raise SourceError(ascii(file), None, None, f"cannot read: {exc}") from None
    if len(raw) > MAX_BYTES:
        raise SourceError(file, None, None,
                          f"too large: a data file may hold at most {MAX_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        start = raw.rfind(b"\n", 0, exc.start) + 1
        column = len(raw[start:exc.start].decode("utf-8", "replace")) + 1
        end = raw.find(b"\n", exc.start)
        shown = raw[start:end if end >= 0 else len(raw)][:4 * SHOWN_CHARS]
        what = "a binary file, not" if b"\0" in raw[:8192] else "not UTF-8"
        raise SourceError(file, line, column, f"{what} text (byte 0x{raw[exc.start]:02X} "
                          f"cannot be read as UTF-8: {exc.reason})",
                          shown.decode("utf-8", "replace")) from None


_FastLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_NESTING_MARKS = "[{-:?"
"""Every level of nesting opens with one of these (a flow bracket, a block sequence's
dash, a mapping's colon or question mark), so a text holding few of them nests little."""
_COMPOSED_UNCHECKED = 2_000
"""libyaml composes a document recursively in C, with no depth bound: about 50,000
nested brackets (100 KB) overflow the C stack and kill the process before Python's
recursion limit is seen. A text with more nesting marks than this is first walked as
a flat stream of events (no recursion) and refused once it nests past MAX_DEPTH. The
bundled files hold at most about 1,400."""


def _refuse_deep(file: str, text: str) -> None:
    """Raise SourceError, naming the key, at the first collection that nests deeper than
    MAX_DEPTH; leave every other problem (a syntax error) to the composing that follows."""
    try:
        _walk(file, text, _FastLoader)
    except yaml.MarkedYAMLError as exc:
        # A newer libyaml bounds nesting itself (1,000 levels), and its scanner reads the
        # brackets ahead of the events: it stops before the walk sees level MAX_DEPTH.
        # PyYAML's own parser has no such bound, so it finds the key to name.
        if "nesting depth" in str(exc.problem):
            _walk_bounded(file, text)
    except yaml.YAMLError:
        return


def _walk_bounded(file: str, text: str) -> None:
    """Walk ``text`` with PyYAML's own parser, which bounds no depth: raise SourceError
    at the collection past MAX_DEPTH; return on any other problem."""
    try:
        _walk(file, text, yaml.SafeLoader)
    except yaml.YAMLError:
        return


def _walk(file: str, text: str, loader: Any) -> None:
    """Read ``text`` as a flat stream of events with ``loader``; raise SourceError at the
    first collection deeper than MAX_DEPTH, and the parser's own errors as they come."""
    probe = loader(text)
    # one entry per open collection: [its key in its parent, items seen, the pending
    # mapping key (None while a key is awaited), True for a mapping]
    open_: list[list[Any]] = []
    try:
        while probe.check_event():
            event = probe.get_event()
            if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                open_.pop()
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue
            key: str | int = ""
            if open_:
                parent = open_[-1]
                if not parent[3]:
                    key, parent[1] = parent[1], parent[1] + 1
                elif parent[2] is None:    # this node is a key
                    parent[2] = event.value if isinstance(event, yaml.ScalarEvent) else "?"
                    key = "?"
                else:
                    key, parent[2] = parent[2], None
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                open_.append([key, 0, None, isinstance(event, yaml.MappingStartEvent)])
                if len(open_) > MAX_DEPTH:
                    mark = event.start_mark
                    path = tuple(entry[0] for entry in open_[1:])
                    line, column = (None, None) if mark is None else (mark.line + 1,
                                                                      mark.column + 1)
                    raise _with_source(SourceError(
                        file, line, column,
                        f"{_key_string(path)}: nests more than {MAX_DEPTH} deep"), text)
    finally:
        probe.dispose()


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _source_error(file: str, exc: yaml.MarkedYAMLError) -> SourceError:
    mark = exc.problem_mark or exc.context_mark
    parts = [p for p in (exc.context, exc.problem) if p]
    message = _one_line("; ".join(parts)) or "invalid YAML"
    if mark is None:
        return SourceError(file, None, None, message)
    return SourceError(file, mark.line + 1, mark.column + 1, message)


def _with_source(exc: SourceError, text: str) -> SourceError:
    """``exc`` with the text of its line, for the caret (unless it has it already)."""
    if exc.source is not None or exc.line is None or exc.column is None:
        return exc
    source = line_of(text, exc.line)
    if source is None:
        return exc
    return SourceError(exc.file, exc.line, exc.column, exc.message, source)


_OPENERS = {"flow mapping": "{", "flow sequence": "["}


def _structure_error(file: str, exc: yaml.MarkedYAMLError, text: str) -> SourceError:
    """A structure error (bad indentation, an unclosed bracket or quote, a tab) said as
    what to fix, at the place to fix it, with PyYAML's own sentence after it."""
    problem, context = exc.problem or "", exc.context or ""
    at, ctx = exc.problem_mark, exc.context_mark
    yaml_says = f" (YAML: {_one_line('; '.join(p for p in (context, problem) if p))})"
    if at is None:
        return _source_error(file, exc)
    line, column = at.line + 1, at.column + 1
    char = (line_of(text, line) or "")[column - 1:column]
    advice = ""
    opened = next((c for kind, c in _OPENERS.items() if kind in context), None)
    if opened is not None and ctx is not None:
        closer = "}" if opened == "{" else "]"
        gave_up = f"line {line}, column {column}"
        line, column = ctx.line + 1, ctx.column + 1
        advice = (f"this '{opened}' is not closed: no '{closer}' (or ',' between items) "
                  f"was found before {gave_up}")
    elif "quoted scalar" in context and ctx is not None:
        line, column = ctx.line + 1, ctx.column + 1
        advice = "this quote is never closed"
    elif char == "\t":
        advice = "a tab: YAML indents with spaces only"
    elif "mapping values are not allowed" in problem:
        advice = ("a ':' where no key may start: indent this line as the keys above it, "
                  "or quote a value that holds ': '")
    elif "did not find expected key" in problem or "expected <block end>" in problem:
        began = f" (the block that starts on line {ctx.line + 1})" if ctx is not None else ""
        advice = f"this line's indentation fits no key above it{began}"
    elif "could not find expected ':'" in problem:
        if ctx is not None:            # the key's own line, not where the scan gave up
            line, column = ctx.line + 1, ctx.column + 1
        advice = "a key without ':' (a line of a mapping is 'key: value')"
    elif "undefined alias" in problem:
        advice = "this alias ('*name') names no anchor ('&name') defined above it"
    if not advice:
        return _source_error(file, exc)
    return SourceError(file, line, column, advice + yaml_says)


def _reader_error(file: str, exc: yaml.reader.ReaderError, text: str) -> SourceError:
    """A character YAML may not hold (a control character), at its line and column."""
    pos = exc.position if isinstance(exc.position, int) else 0
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    char = exc.character if isinstance(exc.character, str) else chr(exc.character) \
        if isinstance(exc.character, int) else "?"
    return SourceError(file, line, column, f"the character U+{ord(char[:1] or '?'):04X} may "
                       f"not appear in a YAML file (a control character)")


def _mark_error(file: str, node: yaml.Node, message: str) -> SourceError:
    mark = node.start_mark
    return SourceError(file, mark.line + 1, mark.column + 1, message)


_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_MERGE = "tag:yaml.org,2002:merge"


class _TooBig(Exception):
    """build has made MAX_VALUES values and the document is not finished."""


def _key_string(path: KeyPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out if len(out) <= 60 else f"{out[:28]}...{out[-28:]}"


class _Builder:
    """Turns a composed node tree into plain data, recording positions.

    ``build`` expands aliases (an alias is the same node object met again) and merge
    keys as it goes, counting the values it makes: past MAX_VALUES it stops. ``measure``
    walks the distinct nodes once, without expanding, and finds the part of the
    document that expands too much; it runs first when the text has aliases, so a bomb
    costs no expansion at all. Nesting past MAX_DEPTH and recursive aliases are refused
    where they are met.
    """

    def __init__(self, file: str, loader: yaml.SafeLoader) -> None:
        self.file = file
        self.loader = loader
        self.positions: dict[KeyPath, tuple[int, int]] = {}
        # Per distinct node (by id): its mapping pairs with merge keys resolved, its
        # expanded size (capped just above MAX_VALUES) and its height.
        self._pairs: dict[int, list[tuple[yaml.Node, yaml.Node, str | int]]] = {}
        self._size: dict[int, int] = {}
        self._height: dict[int, int] = {}
        # ... and its expanded text in characters (capped too), which building a node
        # a second time (through an alias) repeats
        self._chars: dict[int, int] = {}
        self._built: set[int] = set()
        self._repeated = 0
        self._echo = 0
        self._count = 0
        # Nodes being built or flattened: met again inside themselves, a cycle.
        self._active: set[int] = set()
        self._merging: set[int] = set()

    # --- measuring --------------------------------------------------------------------

    def measure(self, root: yaml.Node) -> None:
        """Resolve merge keys and refuse cycles, bombs and deep nesting."""
        state: dict[int, int] = {}  # 1: being measured, 2: done
        stack: list[tuple[yaml.Node, bool]] = [(root, False)]
        while stack:
            node, children_done = stack.pop()
            key = id(node)
            if children_done:
                self._finish(node)
                state[key] = 2
                continue
            if state.get(key) == 2:
                continue
            if state.get(key) == 1:
                # met again while its own children are being measured: a cycle
                raise _mark_error(self.file, node, "recursive alias: data must be a tree")
            state[key] = 1
            stack.append((node, True))
            for child in reversed(self._children(node)):
                if state.get(id(child)) == 1:
                    raise _mark_error(self.file, child,
                                      "recursive alias: data must be a tree")
                if state.get(id(child)) != 2:
                    stack.append((child, False))
        if self._size[id(root)] > MAX_VALUES:
            node, where = self._descend(root, lambda depth, n: self._size[id(n)] > MAX_VALUES)
            raise _mark_error(self.file, node, f"{where}holds more than {MAX_VALUES} values "
                              "once its aliases are expanded (an alias may repeat data, "
                              "not multiply it)")
        if self._height[id(root)] > MAX_DEPTH:
            node, where = self._descend(
                root, lambda depth, n: depth + self._height[id(n)] > MAX_DEPTH, MAX_DEPTH)
            raise _mark_error(self.file, node, f"{where}nests more than {MAX_DEPTH} deep")

    def _descend(self, root: yaml.Node, wanted: Callable[[int, yaml.Node], bool],
                 limit: int | None = None) -> tuple[yaml.Node, str]:
        """The innermost node on a path from the root whose every step is wanted (no
        deeper than limit), with its key path as a prefix for a message."""
        node, where, depth = root, "", 0
        while limit is None or depth < limit:
            is_list = isinstance(node, yaml.SequenceNode)
            for part, child in self._items(node):
                if wanted(depth + 1, child):
                    node, depth = child, depth + 1
                    where += f"[{part}]" if is_list else (f".{part}" if where else str(part))
                    break
            else:
                break
        if len(where) > 60:
            where = f"{where[:28]}...{where[-28:]}"
        return node, f"{where}: " if where else ""

    def _items(self, node: yaml.Node) -> list[tuple[str | int, yaml.Node]]:
        if isinstance(node, yaml.SequenceNode):
            return list(enumerate(node.value))
        if isinstance(node, yaml.MappingNode):
            return [(k, v) for _, v, k in self._pairs[id(node)]]
        return []

    def _children(self, node: yaml.Node) -> list[yaml.Node]:
        """The nodes that must be measured before node."""
        if isinstance(node, yaml.ScalarNode):
            return []
        if node.tag not in (_SEQ, _MAP):
            # SafeLoader would refuse to construct it; we refuse to ignore it
            raise _mark_error(self.file, node, f"unsupported YAML tag {node.tag!r}")
        if isinstance(node, yaml.SequenceNode):
            return list(node.value)
        if not isinstance(node, yaml.MappingNode):
            raise _mark_error(self.file, node, "unsupported YAML node")
        out: list[yaml.Node] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                out.extend(self._merged(node, value_node))
            else:
                out.extend((key_node, value_node))
        return out

    def _merged(self, node: yaml.Node, value: yaml.Node) -> list[yaml.Node]:
        """The mappings a merge key (``<<``) brings in, in the order they apply."""
        if isinstance(value, yaml.MappingNode):
            return [value]
        if isinstance(value, yaml.SequenceNode):
            for item in value.value:
                if not isinstance(item, yaml.MappingNode):
                    raise _mark_error(self.file, item, "a merge key (<<) takes a mapping "
                                      "or a list of mappings")
            return list(value.value)
        raise _mark_error(self.file, value, "a merge key (<<) takes a mapping or a list "
                          "of mappings")

    def _finish(self, node: yaml.Node) -> None:
        key = id(node)
        if isinstance(node, yaml.ScalarNode):
            self._size[key], self._height[key] = 1, 0
            self._chars[key] = len(str(node.value))
            return
        if isinstance(node, yaml.MappingNode):
            pairs = self._pairs_of(node)
            children = [v for _, v, _ in pairs]
            chars = sum(len(str(k)) for _, _, k in pairs)
        else:
            children = list(node.value)
            chars = 0
        size = 1 + sum(self._size[id(c)] for c in children)
        self._size[key] = min(size, MAX_VALUES + 1)
        self._height[key] = 1 + max((self._height[id(c)] for c in children), default=0)
        chars += sum(self._chars[id(c)] for c in children)
        self._chars[key] = min(chars, MAX_REPEATED_CHARS + 1)

    def _pairs_of(self, node: yaml.MappingNode, depth: int = 0
                  ) -> list[tuple[yaml.Node, yaml.Node, str | int]]:
        """node's pairs with merge keys resolved (once per distinct node)."""
        found = self._pairs.get(id(node))
        if found is not None:
            return found
        if id(node) in self._merging:
            raise _mark_error(self.file, node, "recursive alias: data must be a tree")
        if depth > MAX_DEPTH:
            raise _mark_error(self.file, node, f"merge keys (<<) nest more than {MAX_DEPTH} "
                              "deep")
        self._merging.add(id(node))
        try:
            pairs = self._flatten(node, depth)
        finally:
            self._merging.discard(id(node))
        self._pairs[id(node)] = pairs
        return pairs

    def _flatten(self, node: yaml.MappingNode, depth: int
                 ) -> list[tuple[yaml.Node, yaml.Node, str | int]]:
        """node's pairs with merge keys resolved, each key once, as PyYAML would give
        them: merged keys first, a key written in the mapping outranking a merged one,
        an earlier merged mapping outranking a later one."""
        own: dict[str | int, yaml.Node] = {}
        merged: list[tuple[yaml.Node, yaml.Node, str | int]] = []
        written: list[tuple[yaml.Node, yaml.Node, str | int]] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                sources = self._merged(node, value_node)
                for source in reversed(sources):
                    assert isinstance(source, yaml.MappingNode)
                    merged.extend(self._pairs_of(source, depth + 1))
                continue
            key = self._key(key_node)
            if key in own:
                first = own[key].start_mark.line + 1
                raise _mark_error(
                    self.file, key_node, f"duplicate key {key!r} (first given on line {first})"
                )
            own[key] = key_node
            written.append((key_node, value_node, key))
        if not merged:
            return written
        order: dict[str | int, int] = {}
        last: dict[str | int, tuple[yaml.Node, yaml.Node, str | int]] = {}
        for i, triple in enumerate([*merged, *written]):
            order.setdefault(triple[2], i)
            last[triple[2]] = triple
        return [last[k] for k in sorted(order, key=order.__getitem__)]

    # --- building ---------------------------------------------------------------------

    def _mark(self, path: KeyPath, node: yaml.Node) -> None:
        mark = node.start_mark
        self.positions[path] = (mark.line + 1, mark.column + 1)

    def build(self, node: yaml.Node, path: KeyPath) -> Any:
        """node as plain data; a node built again is an alias's copy, whose text counts
        against MAX_REPEATED_CHARS (measured, as every node, when the text has aliases)."""
        key = id(node)
        if key not in self._built:
            self._built.add(key)
            return self._build(node, path)
        if not self._echo:
            self._repeated += self._chars.get(key, 0)
            if self._repeated > MAX_REPEATED_CHARS:
                raise _mark_error(self.file, node, f"{_key_string(path)}: the aliases of this "
                                  f"file repeat more than {MAX_REPEATED_CHARS} characters of "
                                  f"text (an alias may repeat data, not multiply it)")
        self._echo += 1
        try:
            return self._build(node, path)
        finally:
            self._echo -= 1

    def _build(self, node: yaml.Node, path: KeyPath) -> Any:
        self._count += 1
        if self._count > MAX_VALUES:
            raise _TooBig
        if path not in self.positions:
            self._mark(path, node)
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node)
        if node.tag not in (_SEQ, _MAP):
            # SafeLoader would refuse to construct it; we refuse to ignore it
            raise _mark_error(self.file, node, f"unsupported YAML tag {node.tag!r}")
        if len(path) >= MAX_DEPTH:
            raise _mark_error(self.file, node, f"{_key_string(path)}: nests more than "
                              f"{MAX_DEPTH} deep")
        if id(node) in self._active:
            raise _mark_error(self.file, node, "recursive alias: data must be a tree")
        self._active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
            if not isinstance(node, yaml.MappingNode):
                raise _mark_error(self.file, node, "unsupported YAML node")
            result: dict[Any, Any] = {}
            for key_node, value_node, key in self._pairs_of(node):
                child = (*path, key)
                self._mark(child, key_node)
                result[key] = self.build(value_node, child)
            return result
        finally:
            self._active.discard(id(node))

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        try:
            value = self.loader.construct_object(node, deep=True)
        except yaml.MarkedYAMLError as exc:
            raise _source_error(self.file, exc) from None
        except ValueError as exc:   # e.g. an integer of more than 4,300 digits
            raise _mark_error(self.file, node, _one_line(str(exc)).split(";")[0]) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise _mark_error(self.file, node, f"{node.value!r}: a number must be finite")
        if not isinstance(value, _PLAIN_SCALARS):
            # Dates, binary blobs and the like are kept as the text the user wrote.
            return str(node.value)
        return value

    def _key(self, key_node: yaml.Node) -> str | int:
        if not isinstance(key_node, yaml.ScalarNode):
            raise _mark_error(self.file, key_node, "a mapping key must be a plain value")
        key = self._scalar(key_node)
        if isinstance(key, bool) or not isinstance(key, str | int):
            # Keys like "yes", "1.5" or "~" would silently turn into bool/float/None.
            raise _mark_error(
                self.file,
                key_node,
                f"mapping key {key_node.value!r} must be a name or a whole number",
            )
        return key  # type: ignore[no-any-return]


# --- names a user must be able to tell apart ---------------------------------------------
# Scripts that are written together (Japanese mixes kanji and kana).
_SCRIPTS_TOGETHER = ({"CJK", "HIRAGANA", "KATAKANA"},)


def _script(char: str) -> str | None:
    """The script of a letter (LATIN, CYRILLIC, GREEK...), None for anything else."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return name.split(" ")[0] if name else "UNKNOWN"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be an id that players and files refer to, or None.

    An id must be visible and unambiguous: not empty, no space at either end, no
    control, format (zero-width, bidi) or unassigned characters, no spaces other than a
    plain one, written in one script (a Cyrillic 'А' in a Latin name looks the same and
    is another name), and in Unicode's composed form (NFC).
    """
    if not name.strip():
        return "a name cannot be empty"
    if name != name.strip():
        return f"{name!r} starts or ends with a space"
    for char in name:
        category = unicodedata.category(char)
        if category[0] in "C" or category in ("Zl", "Zp") or (category == "Zs"
                                                               and char != " "):
            return (f"{name!r} holds an invisible or control character "
                    f"(U+{ord(char):04X} {unicodedata.name(char, 'unnamed')})")
    letters = [(char, script) for char in name if (script := _script(char)) is not None]
    scripts = [script for _, script in letters]
    kinds = set(scripts)
    if len(kinds) > 1 and not any(kinds <= group for group in _SCRIPTS_TOGETHER):
        rare = min(sorted(kinds), key=scripts.count)
        char = next(c for c, script in letters if script == rare)
        return (f"{name!a} mixes scripts: {char!r} (U+{ord(char):04X} "
                f"{unicodedata.name(char, '')}) among {', '.join(sorted(kinds - {rare}))} "
                f"letters")
    if not unicodedata.is_normalized("NFC", name):
        return (f"{name!a} is not in composed form (NFC): write it as "
                f"{unicodedata.normalize('NFC', name)!a}")
    return None


def lookalike_key(name: str) -> str:
    """Names with the same key look alike (differ in case or compatibility form only)."""
    return unicodedata.normalize("NFKC", name).casefold()
