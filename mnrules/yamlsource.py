"""Safe YAML loading that remembers where every key and item came from.

Data files (board, edition packs, variants) are written by hand, so every
problem found in them must point at a line a user can open in an editor.
PyYAML's plain ``safe_load`` forgets positions and silently keeps the last of
two duplicate keys; this module composes the node tree with ``SafeLoader``
and builds the plain data itself, keeping a position for every path.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mnrules.errors import MnrulesError

KeyPath = tuple[str | int, ...]

# Scalars handed to callers are limited to these, so that a checker only has to
# think about JSON-like values (a bare date would otherwise become a datetime).
_PLAIN_SCALARS = (str, int, float, bool, type(None))


class SourceError(MnrulesError):
    """A data file could not be read or is not well-formed YAML."""

    def __init__(self, file: str, line: int | None, column: int | None, message: str) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{_where(self.file, self.line, self.column)}: {self.message}"


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


def load_yaml(path: str | Path, text: str | None = None) -> Sourced:
    """Parse a YAML file (or text said to come from path) with SafeLoader.

    Raises SourceError for unreadable files, syntax errors, unsupported tags
    and duplicate mapping keys.
    """
    file = str(path)
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise SourceError(file, None, None, f"not UTF-8 text: {exc.reason}") from None
        except OSError as exc:
            raise SourceError(file, None, None, f"cannot read: {exc.strerror or exc}") from None
    # libyaml's parser when PyYAML has it (about 10x faster); the same safe node tree.
    loader = _FastLoader(text)
    try:
        try:
            root = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            raise _source_error(file, exc) from None
        except yaml.YAMLError as exc:
            raise SourceError(file, None, None, _one_line(str(exc))) from None
        builder = _Builder(file, loader)
        data = builder.build(root, ()) if root is not None else None
        return Sourced(data, file, builder.positions)
    finally:
        loader.dispose()


_FastLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _source_error(file: str, exc: yaml.MarkedYAMLError) -> SourceError:
    mark = exc.problem_mark or exc.context_mark
    parts = [p for p in (exc.context, exc.problem) if p]
    message = _one_line("; ".join(parts)) or "invalid YAML"
    if mark is None:
        return SourceError(file, None, None, message)
    return SourceError(file, mark.line + 1, mark.column + 1, message)


def _mark_error(file: str, node: yaml.Node, message: str) -> SourceError:
    mark = node.start_mark
    return SourceError(file, mark.line + 1, mark.column + 1, message)


class _Builder:
    """Turns a composed node tree into plain data, recording positions."""

    def __init__(self, file: str, loader: yaml.SafeLoader) -> None:
        self.file = file
        self.loader = loader
        self.positions: dict[KeyPath, tuple[int, int]] = {}
        # Aliases may point back at an enclosing node; plain data cannot hold
        # a cycle, so it is refused instead of recursing forever.
        self._active: set[int] = set()

    def _mark(self, path: KeyPath, node: yaml.Node, *, replace: bool = False) -> None:
        mark = node.start_mark
        if replace or path not in self.positions:
            self.positions[path] = (mark.line + 1, mark.column + 1)

    def build(self, node: yaml.Node, path: KeyPath) -> Any:
        self._mark(path, node)
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node)
        if id(node) in self._active:
            raise _mark_error(self.file, node, "recursive alias: data must be a tree")
        if node.tag not in ("tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"):
            # SafeLoader would refuse to construct it; we refuse to ignore it
            raise _mark_error(self.file, node, f"unsupported YAML tag {node.tag!r}")
        self._active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path)
        finally:
            self._active.discard(id(node))
        raise _mark_error(self.file, node, "unsupported YAML node")

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        try:
            value = self.loader.construct_object(node, deep=True)
        except yaml.MarkedYAMLError as exc:
            raise _source_error(self.file, exc) from None
        if not isinstance(value, _PLAIN_SCALARS):
            # Dates, binary blobs and the like are kept as the text the user wrote.
            return str(node.value)
        return value

    def _mapping(self, node: yaml.MappingNode, path: KeyPath) -> dict[Any, Any]:
        own_keys: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self._key(key_node)
            if key in own_keys:
                first = own_keys[key].start_mark.line + 1
                raise _mark_error(
                    self.file, key_node, f"duplicate key {key!r} (first given on line {first})"
                )
            own_keys[key] = key_node
        try:
            # Resolves "<<" merge keys in place; explicit keys win over merged ones.
            self.loader.flatten_mapping(node)
        except yaml.MarkedYAMLError as exc:
            raise _source_error(self.file, exc) from None
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            child = (*path, key)
            # A key written in this mapping outranks one merged in with "<<".
            self._mark(child, key_node, replace=True)
            result[key] = self.build(value_node, child)
        return result

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
