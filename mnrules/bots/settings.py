"""What the games' bots share of their settings: a bot's name carries them
(``heuristic:PROFILE+KEY=N[+KEY=N...]``, so a game stays a pure function of its inputs
and a report names the bot as written), and a **temperature** makes a bot vary its play
with its seed.

A bot at temperature ``T > 0`` chooses among its best-ranked options by a softmax over
their scores normalised by their spread: option ``o`` is drawn with weight
``exp((s(o) - best) / (T * spread))``, ``spread`` the best score less the worst of the
options drawn among (the best :data:`AMONG`). So ``T`` means the same whatever a
decision's scale: at ``T = 0.1`` an option as far below the best as the worst weighs
``e**-10`` of it, at ``T = 1`` ``e**-1``. ``T = 0`` is the bot's own choice, untouched.
The draw comes from the generator the bot is given (its seed and the game's choice
count, never a generator kept between decisions), so a saved game goes on exactly as
it would have.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import TypeVar

from ..errors import MnrulesError

AMONG = 4
"""The best-ranked options a temperature draws among (the search bot's breadth)."""

C = TypeVar("C")
T = TypeVar("T")


def softmax_pick(options: Sequence[C], scores: Mapping[C, float],
                 temperature: float, rng: random.Random) -> C | None:
    """An option drawn among the best-scored :data:`AMONG` of ``options`` (those without
    a score left out) by a softmax over their scores normalised by their spread, at
    ``temperature``; None when there is nothing to draw (a temperature of 0, fewer than
    two scored options): the caller keeps its own choice."""
    if temperature <= 0:
        return None
    order = {o: i for i, o in enumerate(options)}
    scored = sorted((o for o in options if o in scores),
                    key=lambda o: (-scores[o], order[o]))[:AMONG]
    if len(scored) < 2:
        return None
    top = scores[scored[0]]
    spread = top - scores[scored[-1]]
    if not math.isfinite(spread):
        return None
    if spread <= 0:
        return scored[rng.randrange(len(scored))]
    weights = [math.exp((scores[o] - top) / (temperature * spread)) for o in scored]
    x = rng.random() * sum(weights)
    for o, w in zip(scored, weights, strict=True):
        x -= w
        if x < 0:
            return o
    return scored[0]


def one_setting(item: str, where: str, keys: Sequence[str], seen: Mapping[str, float],
                noun: str, key_word: str, example: str, number: str) -> dict[str, float]:
    """One ``KEY=NUMBER`` of a bot's name (a number of at least 0, a key of ``keys`` not
    in ``seen``), or a one-line error: ``noun`` names such a key ("setting", "weight"),
    ``example`` a whole name and ``number`` a value to write."""
    from ..content.yamlsource import did_you_mean

    key, eq, text = (part.strip() for part in item.partition("="))
    if not eq or not key or not text:
        raise MnrulesError(f"{where}: {item!r} is not a setting; write {key_word}=NUMBER "
                           f"after a '+', e.g. {example}")
    if key not in keys:
        known = f"; the {noun}s: {', '.join(keys)}"
        raise MnrulesError(f"{where}: unknown {noun} {key!r}"
                           f"{did_you_mean(key, list(keys), known)}")
    if key in seen:
        raise MnrulesError(f"{where}: {key} is set twice")
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise MnrulesError(f"{where}: {key}={text}: give a number of at least 0, e.g. "
                           f"{key}={number}")
    return {key: value}


def parse_settings(bot: str, name: str, profiles: Mapping[str, T], default: T) -> T:
    """The settings a bot's name carries after ``bot:``: a profile of ``profiles`` (none:
    ``default``), then ``+KEY=NUMBER`` for any number field of its dataclass (each at
    least 0, none set twice), or a one-line error naming what is wrong."""
    from ..content.yamlsource import did_you_mean

    where = f"--bots: {bot}:{name}"
    base, *items = name.split("+")
    base = base.strip()
    if base and "=" in base:     # ``heuristic:temperature=0.2``: the default profile, set
        base, items = "", [base, *items]
    if base and base not in profiles:
        known = f"; known: {', '.join(profiles)}"
        raise MnrulesError(f"{where}: unknown profile {base!r}"
                           f"{did_you_mean(base, list(profiles), known)}")
    found = profiles[base] if base else default
    if not items:
        return found
    keys = tuple(f.name for f in fields(found) if f.type in ("float", float))  # type: ignore[arg-type]
    changes: dict[str, float] = {}
    for item in items:
        changes.update(one_setting(item, where, keys, changes, "setting", "KEY",
                                   f"{bot}:+temperature=0.2", "0.2"))
    return replace(found, name=name, **changes)  # type: ignore[type-var]
