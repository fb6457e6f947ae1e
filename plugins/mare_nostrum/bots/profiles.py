"""Strategy profiles: what a heuristic bot aims at, as weights on its evaluation.

A designer asks "is the game balanced?" under several styles of play, so a bot's
style is one of its inputs (``heuristic:conqueror``) and, like its seed, part of what
makes a game a pure function of its inputs. Each weight multiplies one part of the
position evaluation (:mod:`.evaluate`) and of the purchase and attack values the
heuristic bot derives from it:

* ``tiles``: heroes and wonders (the fifth tile and the Pyramids' victories);
* ``cities``: capitals and legendary cities held or occupied (the conquest victory);
* ``titles``: track levels and titles (the leadership victory);
* ``economy``: next round's income, provinces and control markers;
* ``army``: units on the board and what a legion bought for an attack is worth;
* ``aggression``: how readily it attacks (the attack threshold is divided by it, the
  worth of taking a province multiplied);
* ``denial``: how much more it values hitting an empire near a victory (its worth of
  attacking that empire's provinces is multiplied by ``1 + denial`` times his danger);
* ``block``: its sense of threat (:mod:`.threat`): how much it counts what its moves
  take from an empire near a victory — a title he needs, the last face-up tile he could
  buy, his provinces — and what the title that breaks a tie among fifth tiles is worth.
  0 is the bot before it had one (``naive``, kept as a yardstick for ratings).
* ``plan``: whether it trades for the picks still to come (a hero, wonder or special
  wonder a few coins or types of goods short is worth assembling by its offers and
  picks) and keeps out of its offers what an empire near a build victory lacks; 0 is
  the bot before it did (``greedy``: it traded for what its screen buys at once).
* ``first_tile``: what the first hero or wonder it buys is worth beyond the evaluation's
  step to two (a bot that counts its first tile at the step alone spends its early
  rounds on provinces and markers, and an empire whose income is made for tiles falls
  behind in the bots' tables); 0 for the default bot, which counts it at the step
  alone (``opener`` counts it 2 more: fewer cells out of band, but a weaker bot).
* ``trade_read``: how much of what a trade may bring a goods payer (new types toward his
  set of goods, :func:`.threat.trade_types`) its sense of threat counts toward his fifth
  tile; 0 reads a goods payer by his income's types alone (``planner``, the default bot
  before issue 14's fourth step; the other styles read as it did), 1 for the default.
* ``reach_read``: how far its sense of threat discounts an empire one great city short
  of a conquest when no great city more is within his reach (no free capital or
  legendary slot where nobody else rules, no other's great city his legions may enter
  next Move & Fight): 1 reads him as no nearer than two short, 0 as one round from
  winning whatever he can reach (``reader``, the default bot before issue 14's fifth
  step; the other styles read as it did), 1 for the default.

* ``temperature``: not a weight but how far the bot's choices vary with its seed: 0
  (every profile's) plays its best-scored option; above 0 it draws among its best
  options by a softmax over their scores normalised by their spread
  (:func:`mnrules.bots.settings.softmax_pick`), so openings and lines differ from seed
  to seed (``heuristic:balanced+temperature=0.1``; docs/simulation.md says which
  setting balance runs use).

``balanced`` is the default heuristic bot; the others lean toward one victory path
each without ignoring the rest (a builder still fights off an invader).

A designer writes his own settings into the bot's name: ``heuristic:PROFILE+WEIGHT=N``
(``heuristic:balanced+first_tile=3``, ``heuristic:trader+denial=0.5+army=1.2``; with no
profile before the first ``+``, the balanced one). ``+`` and ``=`` keep the name one
item of a comma-separated ``--bots`` list, and the name as written is the bot's name in
every report, rating and log, so a game stays a function of its inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from mnrules.errors import MnrulesError


@dataclass(frozen=True)
class Profile:
    name: str
    tiles: float = 1.0
    cities: float = 1.0
    titles: float = 1.0
    economy: float = 1.0
    army: float = 1.0
    aggression: float = 1.0
    denial: float = 0.0
    block: float = 1.0
    plan: float = 1.0
    first_tile: float = 0.0
    trade_read: float = 0.0
    reach_read: float = 0.0
    temperature: float = 0.0
    summary: str = ""


PROFILES: dict[str, Profile] = {p.name: p for p in (
    Profile("balanced", denial=1.0, trade_read=1.0, reach_read=1.0,
            summary="every victory path by its distance; hits an empire one step "
                    "from a victory"),
    Profile("builder", tiles=1.5, cities=0.7, titles=1.1, army=0.7, aggression=0.5,
            denial=0.5,
            summary="heroes and wonders first: the fifth tile and the Pyramids"),
    Profile("trader", tiles=0.9, titles=1.6, economy=1.6, army=0.9, aggression=0.7,
            denial=0.5,
            summary="income, markets and the three titles (leadership)"),
    Profile("conqueror", tiles=0.7, cities=1.8, titles=0.9, army=1.6, aggression=2.5,
            denial=1.5,
            summary="legions and the enemy's capitals and legendary cities (conquest)"),
    Profile("opener", denial=1.0, first_tile=2.0,
            summary="the planner counting its first bought hero or wonder 2 points "
                    "above the evaluation's step: evens the 4-player table, but loses "
                    "to the balanced bot in a mixed field (issue 14's third step)"),
    Profile("reader", denial=1.0, trade_read=1.0,
            summary="the balanced bot reading an empire a great city short as near a "
                    "conquest whatever he can reach (a yardstick: the default bot "
                    "before issue 14's fifth step)"),
    Profile("planner", denial=1.0,
            summary="the balanced bot reading a goods payer by his income's types alone "
                    "(a yardstick: the default bot before its threat read what a trade "
                    "brings him, issue 14's fourth step)"),
    Profile("greedy", denial=1.0, plan=0.0,
            summary="the balanced bot trading for what it holds only (a yardstick: the "
                    "default bot before it planned its trade)"),
    Profile("naive", denial=1.0, block=0.0, plan=0.0,
            summary="the balanced bot without its sense of threat (a yardstick: the "
                    "default bot before it blocked the leader)"),
)}
DEFAULT = PROFILES["balanced"]


WEIGHTS = tuple(f.name for f in fields(Profile) if f.type in ("float", float))
"""The weights a bot's name may set (every one a number of at least 0: each scales a
worth, and a negative one would make the bot seek what it is meant to value)."""


def profile(name: str) -> Profile:
    """A profile by name (``""`` is the default), with the settings its name carries
    (``balanced+first_tile=3``), or a clear error naming what is wrong."""
    base, *settings = name.split("+")
    base = base.strip()
    if base and "=" in base:  # ``heuristic:first_tile=3``: the balanced bot, set
        base, settings = "", [base, *settings]
    found = _named(base, name) if base else DEFAULT
    if not settings:
        return found
    changes: dict[str, Any] = {}  # weights by field name (replace() checks each)
    for item in settings:
        changes.update(_setting(item, name, changes))
    return replace(found, name=name, **changes)


def _named(base: str, whole: str) -> Profile:
    found = PROFILES.get(base)
    if found is None:
        from mnrules.content.yamlsource import did_you_mean

        known = f"; known: {', '.join(PROFILES)}"
        raise MnrulesError(f"--bots: heuristic:{whole}: unknown strategy profile {base!r}"
                           f"{did_you_mean(base, list(PROFILES), known)}")
    return found


def _setting(item: str, whole: str, seen: dict[str, float]) -> dict[str, float]:
    """One ``WEIGHT=N`` of a bot's name, checked."""
    from mnrules.bots.settings import one_setting

    return one_setting(item, f"--bots: heuristic:{whole}", WEIGHTS, seen, "weight", "WEIGHT",
                       "heuristic:balanced+first_tile=3", "1.5")
