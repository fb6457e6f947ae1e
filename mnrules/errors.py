"""Every error a user can cause derives from MnrulesError, so the command line
can print it cleanly instead of a traceback."""

from __future__ import annotations

from dataclasses import dataclass


class MnrulesError(Exception):
    """Base class of every error that reaches a user."""


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
    """A choice the rules forbid; the game state is left untouched."""

    def __init__(self, choice: object, rule: RuleRef | None, detail: str = "") -> None:
        self.choice = choice
        self.rule = rule
        self.detail = detail
        parts = [f"illegal choice {choice!r}"]
        if detail:
            parts.append(detail)
        if rule is not None:
            parts.append(f"forbidden by: {rule}")
        super().__init__(": ".join(parts))


class GameOver(MnrulesError):
    """A choice was offered to a game that has ended."""


class StateError(MnrulesError):
    """A state or snapshot file does not describe a valid game."""


class PackError(MnrulesError):
    """An edition pack or variant file is malformed."""
