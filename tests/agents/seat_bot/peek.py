"""A bot from elsewhere: it records what it was given and takes the first option."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mnrules.hooks.hookspecs import hookimpl


class Peek:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.seen: list[tuple[dict[str, Any], list[Any]]] = []

    def choose(self, view: dict[str, Any], options: list[Any]) -> Any:
        self.seen.append((view, options))
        return options[0]


@hookimpl
def mn_bots() -> dict[str, Callable[[int, str], Any]]:
    return {"peek": lambda seed, arg: Peek(seed)}
