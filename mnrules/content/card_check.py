"""Checking a modder's card files before play, under the rule set they will play in.

``mnrules cards check`` and ``mnrules cards explain DIR`` read each file on its own, so
one bad card does not hide the others: its structure (YAML, keys, the game's card
schema), its id (not one the pack's cards or another checked file use already), and
every script it holds, its named variants' included, parsed and compiled against the
rule set's vocabulary (the words of a variant's plugins too). Every error names the file,
line and column and shows the line with a caret.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..errors import MnrulesError
from ..language.compiler import compile_card
from ..language.syntax import Problem, ScriptError, parse_script
from ..language.words import Vocabulary
from .card_files import CardData, read_card
from .yamlsource import caret_block, line_of

SUFFIXES = (".yaml", ".yml")
MAX_FILES = 10_000     # a folder of cards holds dozens; more is a wrong folder


@dataclass(frozen=True)
class Checked:
    """One card file as checked: its card (None if it could not be read) and, if it has
    any, the errors found, each a message with its place and caret."""

    file: Path
    card: CardData | None
    errors: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


def card_files(paths: Iterable[str | Path]) -> list[Path]:
    """The card files named: each file as given, each folder's ``*.yaml`` and ``*.yml``
    below it (sorted; links to folders are not followed, so a loop cannot hang it)."""
    out: list[Path] = []
    for given in paths:
        path = Path(given)
        if not path.exists():
            raise MnrulesError(f"{given}: no such file or folder")
        if not path.is_dir():
            out.append(path)
            continue
        found: list[Path] = []
        for root, dirs, files in os.walk(path):       # followlinks=False
            dirs.sort()
            found += [Path(root) / f for f in sorted(files) if f.endswith(SUFFIXES)]
            if len(found) > MAX_FILES:
                raise MnrulesError(f"{given}: more than {MAX_FILES} card files below this "
                                   f"folder; name the folder of your cards")
        if not found:
            raise MnrulesError(f"{given}: no card files (*.yaml) in this folder")
        out += found
    return list(dict.fromkeys(out))


def _same(a: str | Path, b: str | Path) -> bool:
    """One card file, or a copy of it (a source checkout beside the installed package's
    cards): the same card, no clash. A copy that was edited is another card."""
    try:
        if Path(a).resolve() == Path(b).resolve():
            return True
        return Path(a).read_bytes() == Path(b).read_bytes()
    except (OSError, RuntimeError):
        return str(a) == str(b)


def _at(file: Path, text: str, line: int, column: int, message: str) -> str:
    source = line_of(text, line)
    return f"{file}:{line}:{column}: {message}" + \
        (caret_block(source, column) if source is not None else "")


def _id_place(text: str) -> tuple[int, int]:
    """Where a card file's top-level ``id:`` value is (the first one; YAML refuses two)."""
    for i, line in enumerate(text.split("\n"), 1):
        if line.startswith("id:") or line.startswith("id :"):
            value = line.split(":", 1)[1]
            return i, len(line) - len(value.lstrip()) + 1 if value.strip() else 1
    return 1, 1


def _scripts(card: CardData) -> list[tuple[str, str, tuple[int, int]]]:
    """(label, script, where it starts) of every script a card file holds."""
    out = [("", card.effects, card.effects_at)] if card.effects else []
    out += [(f" (variant {name})", str(v.change["effects"]), v.effects_at)
            for name, v in card.variants.items() if v.change.get("effects")]
    return out


def check_cards(rules: Any, vocab: Vocabulary, files: list[Path]) -> list[Checked]:
    """Each file checked under ``rules`` (its card schema, its pack's cards) with
    ``vocab`` (the rule set's words; the checked cards' ids join the names ``{card}``
    may take)."""
    schema = dict(rules.definition.card_schema)
    read: list[tuple[Path, str, CardData | None, list[str]]] = []
    for file in files:
        try:
            card = read_card(file, schema)
        except MnrulesError as exc:
            read.append((file, "", None, [str(exc)]))
            continue
        text = file.read_text(encoding="utf-8")     # read_card read it: UTF-8, bounded
        read.append((file, text, card, []))
    ids = {c.id for _, _, c, _ in read if c is not None}
    vocab = copy.copy(vocab)                 # the same words, with more card names
    vocab.sets = replace(vocab.sets, cards=vocab.sets.cards | ids)
    seen: dict[str, Path] = {}
    out = []
    for file, text, found, errors in read:
        if found is None:
            out.append(Checked(file, None, tuple(errors)))
            continue
        card = found
        line, column = _id_place(text)
        theirs = rules.cards.get(card.id)
        if theirs is not None and not _same(theirs.file, file):
            errors.append(_at(file, text, line, column, f"card id {card.id!r} is already "
                              f"the pack's card {theirs.name()!r} ({theirs.file}); give "
                              f"this card its own id, or override that one in a pack "
                              f"(cards: {{override: {{{card.id}: ...}}}})"))
        elif card.id in seen:
            errors.append(_at(file, text, line, column, f"card id {card.id!r} is already "
                              f"used by {seen[card.id]}"))
        seen.setdefault(card.id, file)
        lines = text.splitlines()
        for label, script, start in _scripts(card):
            try:
                parsed = parse_script(script, str(file), *start)
                compile_card(card, vocab, parsed, lines)
            except ScriptError as exc:
                errors += [_labelled(p, label) for p in exc.problems]
        out.append(Checked(file, card, tuple(errors)))
    return out


def _labelled(p: Problem, label: str) -> str:
    if not label:
        return str(p)
    return str(Problem(p.file, p.line, p.column, p.source, p.message + label))
