"""Battles (FR 4.2; NL/PL/UK 4.2): one simultaneous roll per side, a die per unit of
the battle's kind, hits = dice total ÷ 5 rounded down; each side chooses which of its
units the hits destroy. A fortress rolls no die but helps its owner (as each edition
states it: +5 to the total and one hit cancelled, or +1 hit and one enemy hit less).

Everything a hero or wonder changes is folded through modifiers before the roll, so
the exact outcome distribution can be computed (:func:`distribution`) for designers
and for tests that prove two rule texts equivalent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mnrules.engine import Game, Param
from mnrules.hookspecs import hookimpl

DIVISOR_PARAM = "hit_divisor"


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("land_die", [0, 1, 2, 3, 4, 5],
              "faces of a land battle die. No book lists them; the examples show III, IV "
              "and V. Default: a blank and I to V; replace it if your dice differ"),
        Param("sea_die", [0, 1, 2, 3, 4, 5], "faces of a sea battle die (see land_die)"),
        Param(DIVISOR_PARAM, 5, "dice total per hit"),
        Param("fortress_model", "plus_five",
              "how a fortress helps its owner: plus_five (+5 to his total and one hit "
              "against him cancelled: FR/NL/PL 4.2) or plus_hit (+1 hit scored and one "
              "enemy hit less: UK 4.2)", ("plus_five", "plus_hit")),
    ]


@dataclass(frozen=True)
class Side:
    """What one side brings to a roll, after every modifier has been folded."""

    player: str
    dice: int
    bonus: int = 0          # added to the dice total
    extra_hits: int = 0     # added to the hits scored
    shield: int = 0         # hits against this side that are cancelled


def side_for(game: Game, battle: dict[str, Any], player: str) -> Side:
    """Fold the rules and every active effect into one side's roll."""
    state = game.state
    area = battle["area"]
    kind = battle["kind"]
    unit = "legion" if kind == "land" else "trireme"
    units = state.count(area, player, unit)
    ctx = {"battle": battle, "side": player, "units": units}
    dice: int = game.fold("battle.dice", units, **ctx)
    bonus: int = game.fold("battle.total", 0, dice=dice, **ctx)
    extra: int = game.fold("battle.hits", 0, dice=dice, **ctx)
    shield: int = game.fold("battle.shield", 0, dice=dice, **ctx)
    return Side(player, dice, bonus, extra, shield)


def hits(total: int, side: Side, against: Side, divisor: int) -> int:
    return max(0, (total + side.bonus) // divisor + side.extra_hits - against.shield)


def roll(game: Game, side: Side, faces: Sequence[int], kind: str) -> list[int]:
    return [game.chance(f"{kind} die", faces) for _ in range(side.dice)]


@hookimpl
def mn_modifiers(game: Game, quantity: str, ctx: dict[str, Any]) -> list[Any] | None:
    """The fortress, as the pack's edition words it."""
    if quantity not in ("battle.total", "battle.hits", "battle.shield"):
        return None
    battle = ctx["battle"]
    if battle["kind"] != "land":
        return None
    if not game.state.count(battle["area"], ctx["side"], "fortress"):
        return None
    from mnrules.effects import Modifier

    model = game.param("fortress_model")
    if quantity == "battle.shield":
        return [Modifier("rules:fortress", lambda v: v + 1)]
    if quantity == "battle.total" and model == "plus_five":
        return [Modifier("rules:fortress", lambda v: v + game.param(DIVISOR_PARAM))]
    if quantity == "battle.hits" and model == "plus_hit":
        return [Modifier("rules:fortress", lambda v: v + 1)]
    return None


# -- the exact calculator ------------------------------------------------------------------
def total_distribution(dice: int, faces: Sequence[int]) -> dict[int, Fraction]:
    """The exact distribution of the sum of ``dice`` fair dice with ``faces``."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    p = Fraction(1, len(faces))
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for s, q in dist.items():
            for f in faces:
                nxt[s + f] = nxt.get(s + f, Fraction(0)) + q * p
        dist = nxt
    return dist


def hits_distribution(side: Side, against: Side, faces: Sequence[int],
                      divisor: int = 5) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for total, q in total_distribution(side.dice, faces).items():
        h = hits(total, side, against, divisor)
        out[h] = out.get(h, Fraction(0)) + q
    return out


def distribution(a: Side, b: Side, units_a: int, units_b: int, faces: Sequence[int],
                 divisor: int = 5) -> dict[tuple[int, int], Fraction]:
    """Exact probabilities of (units a loses, units b loses); losses cap at units present."""
    ha = hits_distribution(a, b, faces, divisor)
    hb = hits_distribution(b, a, faces, divisor)
    out: dict[tuple[int, int], Fraction] = {}
    for x, p in ha.items():
        for y, q in hb.items():
            key = (min(y, units_a), min(x, units_b))
            out[key] = out.get(key, Fraction(0)) + p * q
    return out
