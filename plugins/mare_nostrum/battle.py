"""Battles (FR 4.2; NL/PL/UK 4.2): one simultaneous roll per side, a die per unit of
the battle's kind, hits = dice total ÷ 5 rounded down; each side chooses which of its
units the hits destroy. A fortress rolls no die but helps its owner (as each edition
states it: +5 to the total and one hit cancelled, or +1 hit and one enemy hit less).

Everything a hero or wonder changes is folded through modifiers before the roll, so
the exact outcome distribution can be computed (:func:`distribution`) for designers
and for tests that prove two rule texts equivalent.

The battle step (the military plugin's) asks this plugin through the bus, never by
importing it: it rolls a battle (``mn_battle_roll``) and tells a battle's odds
(``mn_battle_odds``, for bots, through :mod:`.api`); both hooks are declared in
:mod:`.hookspecs`. So a variant that replaces this plugin by an edited copy changes
every battle played and every odds a bot reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from mare_nostrum.state import Game
from mnrules.core.engine import Param
from mnrules.hooks.contract import Declaration, Part
from mnrules.hooks.hookspecs import hookimpl

DIVISOR_PARAM = "hit_divisor"
FORTRESS_BONUS = 5
"""What a fortress adds to its owner's dice total under ``plus_five`` (FR/NL/PL 4.2)."""

# What this plugin answers on the bus (see mnrules.hooks.bus).
MODIFIES = frozenset({"battle.total", "battle.hits", "battle.shield"})


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("land_die", [0, 1, 2, 3, 4, 5],
              "faces of a land battle die. No book lists them; the examples show III, IV "
              "and V. Default: a blank and I to V; replace it if your dice differ",
              minimum=0, maximum=99, length=(1, 20)),
        Param("sea_die", [0, 1, 2, 3, 4, 5], "faces of a sea battle die (see land_die)",
              minimum=0, maximum=99, length=(1, 20)),
        Param(DIVISOR_PARAM, 5, "dice total per hit", minimum=1, maximum=99),
        Param("fortress_model", "plus_five",
              "how a fortress helps its owner in a land battle (D30; both texts give the "
              "same hits on every roll)",
              (Param.Option("plus_five", "+5 to his dice total, and one hit against him "
                            "cancelled", "FR/NL/PL 4.2"),
               Param.Option("plus_hit", "+1 hit scored, and one enemy hit less", "UK 4.2"))),
    ]


class Side:
    """What one side brings to a roll, after every modifier has been folded.

    (A plain class equal and hashed by value, as the kernel's ``Event`` is, not a frozen
    dataclass: two are made at every battle, and the compiled core builds a plain class
    natively. Read it, never change it.)"""

    player: str
    dice: int
    bonus: int              # added to the dice total
    extra_hits: int         # added to the hits scored
    shield: int             # hits against this side that are cancelled

    def __init__(self, player: str, dice: int, bonus: int = 0, extra_hits: int = 0,
                 shield: int = 0) -> None:
        self.player = player
        self.dice = dice
        self.bonus = bonus
        self.extra_hits = extra_hits
        self.shield = shield

    def _values(self) -> tuple[str, int, int, int, int]:
        return (self.player, self.dice, self.bonus, self.extra_hits, self.shield)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Side:
            return NotImplemented
        assert isinstance(other, Side)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return (f"Side(player={self.player!r}, dice={self.dice!r}, bonus={self.bonus!r}, "
                f"extra_hits={self.extra_hits!r}, shield={self.shield!r})")


def side_for(game: Game, battle: dict[str, Any], player: str) -> Side:
    """Fold the rules and every active effect into one side's roll."""
    units = game.state.count(battle["area"], player,
                             "legion" if battle["kind"] == "land" else "trireme")
    # (each fold given its context as keywords: no dict merged into a new one per fold)
    dice: int = game.fold("battle.dice", units, battle=battle, side=player, units=units)
    bonus: int = game.fold("battle.total", 0, battle=battle, side=player, units=units,
                           dice=dice)
    extra: int = game.fold("battle.hits", 0, battle=battle, side=player, units=units,
                           dice=dice)
    shield: int = game.fold("battle.shield", 0, battle=battle, side=player, units=units,
                            dice=dice)
    return Side(player, dice, bonus, extra, shield)


def hits(total: int, side: Side, against: Side, divisor: int) -> int:
    return max(0, (total + side.bonus) // divisor + side.extra_hits - against.shield)


def roll(game: Game, side: Side, faces: Sequence[int], kind: str) -> list[int]:
    return game.chances(f"{kind} die", faces, side.dice)


def _dice(game: Game, battle: dict[str, Any]) -> tuple[Sequence[int], int]:
    """The faces of the battle's dice and the dice total per hit."""
    return (game.param("land_die" if battle["kind"] == "land" else "sea_die"),
            game.param(DIVISOR_PARAM))


@hookimpl
def mn_battle_roll(game: Game, battle: dict[str, Any]) -> dict[str, Any]:
    """Both sides roll at once (the attacker's dice drawn first), every rule and card
    folded into each side (:func:`side_for`); each side's hits from its total."""
    faces, divisor = _dice(game, battle)
    a = side_for(game, battle, battle["attacker"])
    d = side_for(game, battle, battle["defender"])
    sides: dict[str, Side] = {a.player: a, d.player: d}
    rolls = {p: roll(game, s, faces, battle["kind"]) for p, s in sides.items()}
    scored = {a.player: hits(sum(rolls[a.player]), a, d, divisor),
              d.player: hits(sum(rolls[d.player]), d, a, divisor)}
    return {"rolls": rolls, "hits": scored}


@hookimpl
def mn_battle_odds(game: Game, battle: dict[str, Any],
                   units: dict[str, int]) -> dict[str, Any]:
    """The battle's odds as the board stands, every rule and card folded in (floats,
    from the exact calculator, cached): each side's hits and both sides' losses."""
    faces, divisor = _dice(game, battle)
    att, dfd = battle["attacker"], battle["defender"]
    a = side_for(game, battle, att)
    d = side_for(game, battle, dfd)
    return {"hits": {att: _hits(a.dice, a.bonus, a.extra_hits, d.shield, tuple(faces),
                                divisor),
                     dfd: _hits(d.dice, d.bonus, d.extra_hits, a.shield, tuple(faces),
                                divisor)},
            "losses": _odds(Side("", a.dice, a.bonus, a.extra_hits, a.shield),
                            Side("", d.dice, d.bonus, d.extra_hits, d.shield),
                            units[att], units[dfd], tuple(faces), divisor)}


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
    from mnrules.core.effects import Modifier

    model = game.param("fortress_model")
    if quantity == "battle.shield":
        return [Modifier("rules:fortress", lambda v: v + 1)]
    if quantity == "battle.total" and model == "plus_five":
        # +5 as the books print it (FR/NL/PL 4.2), whatever the dice total per hit
        return [Modifier("rules:fortress", lambda v: v + FORTRESS_BONUS)]
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


def total_ways(dice: int, faces: Sequence[int]) -> dict[int, int]:
    """In how many of the ``len(faces) ** dice`` equally likely rolls each sum comes up
    (:func:`total_distribution` in whole numbers: no fraction to reduce at each step)."""
    ways: dict[int, int] = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for s, n in ways.items():
            for f in faces:
                nxt[s + f] = nxt.get(s + f, 0) + n
        ways = nxt
    return ways


@lru_cache(maxsize=8192)
def _hits(dice: int, bonus: int, extra: int, shield_against: int, faces: tuple[int, ...],
          divisor: int) -> tuple[tuple[int, float], ...]:
    """One side's hits distribution, as floats (cached: bots ask it again and again):
    :func:`hits_distribution`'s exact fractions, each counted in whole rolls and divided
    once (the same correctly rounded float)."""
    side = Side("", dice, bonus, extra, 0)
    against = Side("", 0, 0, 0, shield_against)
    rolls = len(faces) ** dice
    per: dict[int, int] = {}
    for total, n in total_ways(dice, faces).items():
        h = hits(total, side, against, divisor)
        per[h] = per.get(h, 0) + n
    return tuple((h, n / rolls) for h, n in sorted(per.items()))


@lru_cache(maxsize=16384)
def _odds(a: Side, b: Side, units_a: int, units_b: int, faces: tuple[int, ...],
          divisor: int) -> tuple[tuple[int, int, float], ...]:
    """Probabilities of (a's losses, b's losses), combined exactly as
    :func:`distribution` does, from the per-side hit distributions (only the final
    products are floats)."""
    ha = _hits(a.dice, a.bonus, a.extra_hits, b.shield, faces, divisor)
    hb = _hits(b.dice, b.bonus, b.extra_hits, a.shield, faces, divisor)
    out: dict[tuple[int, int], float] = {}
    for x, p in ha:
        for y, q in hb:
            key = (min(y, units_a), min(x, units_b))
            out[key] = out.get(key, 0.0) + p * q
    return tuple((la, lb, p) for (la, lb), p in sorted(out.items()))


# -- comparing rule sets --------------------------------------------------------------------
def situation_distributions(rules: Any, situation: dict[str, Any]
                            ) -> dict[tuple[int, int, int], dict[tuple[int, int], Fraction]]:
    """Exact outcomes of a pack's comparison battle (its ``battles`` list) under ``rules``,
    for every force size it names: (attacker units, defender units, fortress) → dist.
    A battle naming a ``sea`` is fought there by triremes (``attacker_triremes``,
    ``defender_triremes``), with no fortress; otherwise by legions in its ``province``."""
    from mare_nostrum import position
    from mnrules.core.start import new_game

    out: dict[tuple[int, int, int], dict[tuple[int, int], Fraction]] = {}
    att, dfd = situation["attacker"], situation["defender"]
    sea = "sea" in situation
    area = situation["sea"] if sea else situation["province"]
    unit, word = ("trireme", "triremes") if sea else ("legion", "legions")
    for a in situation.get(f"attacker_{word}", [1, 2, 3]):
        for d in situation.get(f"defender_{word}", [1, 2]):
            for f in [0] if sea else situation.get("fortress", [0, 1]):
                game = new_game(rules, 5, seed=0)
                position.clear(game)
                for player, tiles in (situation.get("tiles") or {}).items():
                    game.state.tiles[player] = [t for t in tiles if t in rules.cards]
                if not sea:
                    position.set_marker(game, area, situation.get("marker", dfd))
                position.add_units(game, att, area, unit, a)
                position.add_units(game, dfd, area, unit, d)
                if f:
                    position.add_units(game, dfd, area, "fortress")
                battle = {"area": area, "kind": "sea" if sea else "land",
                          "attacker": att, "defender": dfd}
                sa, sd = side_for(game, battle, att), side_for(game, battle, dfd)
                out[(a, d, f)] = distribution(sa, sd, a, d + f,
                                              game.param("sea_die" if sea else "land_die"),
                                              game.param(DIVISOR_PARAM))
    return out


def _expected(dist: dict[tuple[int, int], Fraction], side: int) -> Fraction:
    return sum((p * k[side] for k, p in dist.items()), Fraction(0))


@hookimpl
def mn_compare(a: Any, b: Any) -> list[str]:
    """How the comparison battles (land and sea) change between two rule sets, exactly:
    the first pack's ``battles`` and any the second adds under another name."""
    lines = []
    situations = list(a.data.get("battles") or [])
    names = {s.get("name") for s in situations}
    situations += [s for s in b.data.get("battles") or [] if s.get("name") not in names]
    for situation in situations:
        da = situation_distributions(a, situation)
        db = situation_distributions(b, situation)
        worst = Fraction(0)
        where = None
        for key in da:
            keys = set(da[key]) | set(db[key])
            diff = max(abs(da[key].get(k, Fraction(0)) - db[key].get(k, Fraction(0)))
                       for k in keys)
            if diff > worst:
                worst, where = diff, key
        kind = "sea battle" if "sea" in situation else "battle"
        unit = "triremes" if "sea" in situation else "legions"
        if where is None:
            lines.append(f"{kind} '{situation['name']}': identical outcomes for every force "
                         f"size ({len(da)} battles)")
        else:
            att, dfd = situation["attacker"], situation["defender"]
            lines.append(f"{kind} '{situation['name']}': outcomes differ; largest change at "
                         f"{where[0]} vs {where[1]} {unit}{' + fortress' if where[2] else ''}"
                         f": max |Δp| {float(worst):.3f}, expected losses: {att} "
                         f"{float(_expected(da[where], 0)):.3f} → "
                         f"{float(_expected(db[where], 0)):.3f}, {dfd} "
                         f"{float(_expected(da[where], 1)):.3f} → "
                         f"{float(_expected(db[where], 1)):.3f}")
    return lines


@hookimpl
def mn_contract() -> list[Declaration]:
    """What this plugin is for. The four figures of a side's roll are folded by
    :func:`side_for`, which this plugin's ``mn_battle_roll`` calls for the military
    plugin's battle step: they are declared by that plugin, so that a variant may
    replace these rules and keep them."""
    return [Part("battle", "military", "How a battle is rolled: the fortress's part in "
                 "each side's dice, total, hits and shield; and the exact odds editions "
                 "are compared by.")]
