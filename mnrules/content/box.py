"""Checks every game's pack loader makes of its box (the pack's ``components``), so that
both games refuse the same mistakes in the same words: a key the game does not know
(``legionz``), a count that is no whole number or beyond what any box holds."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..errors import PackError
from .yamlsource import did_you_mean

MAX_COUNT = 999
"""Most of any one component a box may hold."""


def known_keys(mapping: Any, known: Iterable[str], key: str, where: Callable[..., str],
               what: str = "component") -> None:
    """Refuse the first key of ``mapping`` not among ``known``, at its place:
    ``where(k)`` gives the file:line:col of the key ``k`` under ``key``."""
    names = list(known)
    for k in mapping:
        if k not in names:
            raise PackError(f"{where(k)}: {key}.{k}: unknown {what}"
                            + did_you_mean(str(k), names, f" (expected {', '.join(names)})"))


def whole_count(value: Any, key: str, at: str, most: int = MAX_COUNT) -> None:
    """Refuse a count that is not a whole number from 0 to ``most`` (``True`` is none)."""
    if type(value) is not int or not 0 <= value <= most:
        raise PackError(f"{at}: {key}: expected a whole number from 0 to {most}, "
                        f"got {value!r:.80}")
