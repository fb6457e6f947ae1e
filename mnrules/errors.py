"""Every error a user can cause derives from MnrulesError, so the command line
can print it cleanly instead of a traceback."""

from __future__ import annotations

import functools
import os
import re
import tempfile
from dataclasses import dataclass
from typing import Any


@functools.cache
def _private_folders() -> re.Pattern[str]:
    roots = {tempfile.gettempdir(), os.path.realpath(tempfile.gettempdir())}
    return re.compile("(?:" + "|".join(re.escape(r.rstrip(os.sep)) for r in sorted(roots))
                      + ")" + re.escape(os.sep) + r"tmp[a-z0-9_]{8}" + re.escape(os.sep))


def without_private_folders(text: str) -> str:
    """``text`` without the folders Python's ``tempfile.TemporaryDirectory`` makes
    (``/tmp/tmpk2j3h4_x/``), leaving the file names in them.

    A server writes what a request sends (a save, a card, a log) into such a folder to
    read it with the kernel's loaders, whose errors then name the folder: that tells a
    remote user about the server's files, and nobody else anything (the folder is gone
    when the request ends). A path the user named himself, even in the temporary
    folder (``mktemp -d`` makes ``/tmp/tmp.XXXXXXXXXX``), is kept."""
    return _private_folders().sub("", text)


class MnrulesError(Exception):
    """Base class of every error that reaches a user. Its text never names a private
    temporary folder (:func:`without_private_folders`)."""

    def __str__(self) -> str:
        return without_private_folders(super().__str__())


@dataclass(frozen=True)
class RuleRef:
    """A rule as the books state it: an id, its wording, and its sections per edition."""

    id: str
    text: str
    sections: str = ""

    def __str__(self) -> str:
        where = f" ({self.sections})" if self.sections else ""
        return f"{self.text}{where} [{self.id}]"


class IllegalChoice(MnrulesError):
    """A well-formed choice the rules forbid now; the game state is left untouched."""

    def __init__(self, choice: object, rule: RuleRef | None, detail: str = "") -> None:
        self.choice = choice
        self.rule = rule
        self.detail = detail
        parts = [f"illegal choice {clipped(choice)}"]
        if detail:
            parts.append(detail)
        if rule is not None:
            parts.append(f"forbidden by: {rule}")
        super().__init__(": ".join(parts))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.choice, self.rule, self.detail)


class InvalidChoice(MnrulesError):
    """A malformed choice: not a string, a whole number or a (nested) tuple or list of
    them (a bool, a float, None, a mapping, ...). Nothing of the game is looked at or
    changed; an :class:`IllegalChoice` is a well-formed choice the rules refuse."""

    def __init__(self, choice: object, detail: str = "") -> None:
        self.choice = choice
        self.detail = detail or (f"a choice is a string, a whole number or a list of them, "
                                 f"not {type(choice).__name__}")
        super().__init__(f"malformed choice {clipped(choice)}: {self.detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.choice, self.detail)


def clipped(value: object, limit: int = 200) -> str:
    """A value's repr, cut to ``limit`` characters (a hostile value may be huge)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # too deep, or an int too long to print
        return f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


class GameOver(MnrulesError):
    """A choice was offered to a game that has ended."""


class StateError(MnrulesError):
    """A state or snapshot file does not describe a valid game.

    ``key`` is where in the state (``units.LATIUM.rome.legion``, ``stack[2]``) and
    ``file`` the file it was read from, when known; both lead the message."""

    def __init__(self, message: str, key: str = "", file: str = "") -> None:
        self.message = message
        self.key = key
        self.file = file
        where = ": ".join(x for x in (file, key) if x)
        super().__init__(f"{where}: {message}" if where else message)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.message, self.key, self.file)

    def within(self, file: str = "", prefix: str = "") -> StateError:
        """The same error, read from ``file`` where the state is under ``prefix``."""
        key = self.key
        if prefix:
            key = prefix if not key else f"{prefix}{key}" if key.startswith("[") \
                else f"{prefix}.{key}"
        return StateError(self.message, key, file or self.file)


class DataFileError(MnrulesError):
    """A game's data file (a board, a map) with problems, each at its place; str() lists
    them all. ``mnrules map check`` reports them and exits 1."""


class PackError(MnrulesError):
    """An edition pack or variant file is malformed."""
