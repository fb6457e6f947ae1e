"""Battles (EX-MOVE-3, EX-MOVE-4) and the two fortress texts, proved equivalent.

EX-MOVE-3: after the Roman transport of EX-MOVE-1, Caesar's three legions roll V, IV
and III: 12, +1 per legion die = 15, three hits, one cancelled by the Egyptian fortress:
two. Egypt's legion rolls III, +5 for the fortress = 8: one hit. Egypt loses its legion
and its fortress, Rome one legion.

Caesar is Rome's starting hero; his card script ("modify battle.total when land battle
and you attack: add 1 per legion die") applies in every game. The calculator tests use
Carthage as the attacker, whose hero does nothing in battle.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from conftest import pending, play
from mare_nostrum.battle import (
    Side,
    distribution,
    hits,
    side_for,
    total_distribution,
)
from mare_nostrum.position import add_units, clear, set_marker, start_phase
from mare_nostrum.tracks import levels
from mnrules import Game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Modifier
from mnrules.core.invariants import check
from mnrules.hooks.hookspecs import hookimpl
from test_movement import cyr, empty_board, record, rome_transports, units

FACES = (0, 1, 2, 3, 4, 5)
BATTLE = {"area": "CYRENAICA", "kind": "land", "attacker": "rome", "defender": "egypt"}
PLAIN = {**BATTLE, "attacker": "carthage"}  # no hero of the attacker changes the dice


def military(game: Game) -> dict[str, int]:
    return {p: lv["military"] for p, lv in levels(game).items()}


class CaesarForTests:
    """Caesar as the digest words him (§11.1), written as a plugin: when Rome is the
    active player, +1 per legion die in land battles. It stands in for the card script
    to show that the script means what the book means."""

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        if quantity != "battle.total":
            return None
        battle = ctx["battle"]
        if (battle["kind"] == "land" and ctx["side"] == "rome" == battle["attacker"]
                and "caesar" in game.state.tiles["rome"]):
            dice = int(ctx["units"])
            return [Modifier("test:caesar", lambda v: v + dice, rank=1)]
        return None


# -- EX-MOVE-3 --------------------------------------------------------------------------------
@pytest.mark.parametrize("caesar", ["card script", "test plugin"])
@pytest.mark.parametrize("model", ["plus_five", "plus_hit"])
def test_ex_move_3_caesar_against_legion_and_fortress(
        fresh_rules: Callable[..., Ruleset], model: str, caesar: str) -> None:
    rules = fresh_rules(fortress_model=model)
    if caesar == "test plugin":
        rules.pm.unregister(name="card:caesar")
        rules.pm.register(CaesarForTests(), name="test:caesar")
    # The sides as the rules fold them (Caesar applies: Rome is the attacker).
    at_start = fortress_game(rules, 3, 1, fortress=True, attacker="rome")
    rome, egypt = side_for(at_start, BATTLE, "rome"), side_for(at_start, BATTLE, "egypt")
    assert (rome.dice, rome.bonus, rome.extra_hits, rome.shield) == (3, 3, 0, 0)
    if model == "plus_five":
        assert (egypt.dice, egypt.bonus, egypt.extra_hits, egypt.shield) == (1, 5, 0, 1)
    else:  # UK 4.2: the fortress is one hit more for its owner, one less for the enemy
        assert (egypt.dice, egypt.bonus, egypt.extra_hits, egypt.shield) == (1, 0, 1, 1)
    assert 5 + 4 + 3 + rome.bonus == 15
    at_start.state.tiles["rome"].remove("caesar")  # the +3 is the card's, nothing else
    assert side_for(at_start, BATTLE, "rome").bonus == 0
    assert hits(12, rome, egypt, 5) == 2  # 15 // 5 = 3, less the one the fortress cancels
    assert hits(3, egypt, rome, 5) == 1   # 3 + 5 = 8, 8 // 5 = 1
    game = cyr(rules)
    before = military(game)
    battles = record(game, "battle")
    game.force("land die", [5, 4, 3, 3])  # Rome's three dice, then Egypt's one
    rome_transports(game)
    # Two hits on Egypt's two units: Egypt loses both, in the order it chooses.
    assert pending(game) == ("egypt", "battle.loss")
    assert game.legal() == ("legion", "fortress")
    play(game, "fortress")  # the legion goes too: there is no choice left to make
    [battle] = battles
    assert battle.data["rolls"] == {"rome": [5, 4, 3], "egypt": [3]}
    assert battle.data["hits"] == {"rome": 2, "egypt": 1}
    assert units(game, "CYRENAICA") == {"rome": {"legion": 2}}
    assert game.state.control["CYRENAICA"] == "egypt"  # the marker stays
    after = military(game)
    assert (after["rome"] - before["rome"], after["egypt"] - before["egypt"]) == (-1, -2)
    assert game.state.pieces["egypt"]["fortress"] == 5 and game.state.pieces["rome"]["legion"] == 6
    # At the end of his turn Rome is the conqueror of Cyrenaica (EX-CONQ-1...4).
    assert pending(game) == ("rome", "conquest.choose")


def test_ex_move_3_one_hit_the_owner_chooses_legion_or_fortress(rules: Ruleset) -> None:
    """UK 4.2: with one effective hit, Egypt chooses which of its two units it loses.
    Rome rolls III II II: 7 + 3 = 10, two hits, one cancelled."""
    game = cyr(rules)
    game.force("land die", [3, 2, 2, 3])
    battles = record(game, "battle")
    rome_transports(game)
    assert battles == [] and pending(game) == ("egypt", "battle.loss")
    assert game.legal() == ("legion", "fortress")
    play(game, "legion")
    assert battles[0].data["hits"] == {"rome": 1, "egypt": 1}
    assert units(game, "CYRENAICA") == {"egypt": {"fortress": 1}, "rome": {"legion": 2}}
    # Both sides keep units: Cyrenaica is at war and nobody conquers it.
    assert pending(game) == ("rome", "military.next")


def test_losses_never_exceed_the_units_present(rules: Ruleset) -> None:
    game = empty_board(rules)
    set_marker(game, "CYRENAICA", "egypt")
    add_units(game, "rome", "LIBYA", "legion", 5)
    add_units(game, "egypt", "CYRENAICA", "legion", 1)
    start_phase(game, "military")
    battles = record(game, "battle")
    game.force("land die", [5, 5, 5, 5, 5, 0])
    play(game, "rome", *[("move", "LIBYA", "CYRENAICA")] * 5)
    assert battles[0].data["hits"] == {"rome": 6, "egypt": 0}  # 25 + 5 for Caesar
    assert units(game, "CYRENAICA") == {"rome": {"legion": 5}}
    assert game.state.pieces["egypt"]["legion"] == 8


def test_ex_move_4_caesar_does_not_help_the_defender(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """A later player attacks the two surviving Roman legions; Rome is not the active
    player, so its dice get nothing from Caesar."""
    game = cyr(fresh_rules())
    game.force("land die", [5, 4, 3, 3])
    rome_transports(game)
    play(game, "fortress", ("pass",))
    add_units(game, "carthage", "LIBYA", "legion", 3)
    battles = record(game, "battle")
    # Carthage rolls three blanks; Rome IV and a blank: 4, not 4 + 2 = 6.
    game.force("land die", [0, 0, 0, 4, 0])
    play(game, "carthage", *[("move", "LIBYA", "CYRENAICA")] * 3)
    assert [(e.player, e.data["defender"], e.data["rolls"], e.data["hits"]) for e in battles] \
        == [("carthage", "rome", {"carthage": [0, 0, 0], "rome": [4, 0]},
             {"carthage": 0, "rome": 0})]
    assert side_for(game, {**BATTLE, "attacker": "carthage", "defender": "rome"},
                    "rome").bonus == 0


def test_a_naval_battle_ignores_fortresses(rules: Ruleset) -> None:
    game = empty_board(rules)
    add_units(game, "rome", "MARE AEGYPTIUM", "trireme", 1)
    add_units(game, "egypt", "MARE AEGYPTIUM", "trireme", 1)
    add_units(game, "egypt", "AEGYPTUS", "fortress", 1)  # on the coast: no help at sea
    start_phase(game, "military")
    battles = record(game, "battle")
    game.force("sea die", [0, 0])
    play(game, "rome", ("done",), ("battle", "MARE AEGYPTIUM", "egypt"))
    assert battles[0].data["hits"] == {"rome": 0, "egypt": 0}
    sea = {**BATTLE, "area": "MARE AEGYPTIUM", "kind": "sea"}
    assert side_for(game, sea, "egypt") == Side("egypt", 1)


# -- the fortress texts: +5 and a cancelled hit (FR/NL/PL) = +1 hit and one enemy hit less (UK)
class OtherBonuses:
    """Bonuses of other kinds on both sides (like Caesar's +1 per die for the attacker,
    and Nebuchadnezzar's +5 for the defender), to show the models agree with them too."""

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        if quantity != "battle.total":
            return None
        if ctx["side"] == ctx["battle"]["attacker"]:
            dice = int(ctx["dice"])
            return [Modifier("test:per die", lambda v: v + dice, rank=1)]
        return [Modifier("test:plus five", lambda v: v + 5, rank=1)]


def fortress_game(rules: Ruleset, attackers: int, defenders: int, fortress: bool,
                  attacker: str = "carthage") -> Game:
    game = empty_board(rules)
    set_marker(game, "CYRENAICA", "egypt")
    add_units(game, attacker, "CYRENAICA", "legion", attackers)
    if defenders:
        add_units(game, "egypt", "CYRENAICA", "legion", defenders)
    if fortress:
        add_units(game, "egypt", "CYRENAICA", "fortress", 1)
    return game


def rolls(dice: int, faces: tuple[int, ...]) -> list[int]:
    """Every dice total, once per outcome (so each total as often as it can be rolled)."""
    return [sum(r) for r in itertools.product(faces, repeat=dice)]


@pytest.mark.parametrize("bonuses", [False, True], ids=["plain", "other bonuses"])
@pytest.mark.parametrize("faces", [FACES, (1, 2, 3, 4, 5, 6)], ids=["blank-V", "I-VI"])
def test_fortress_models_agree_on_every_outcome(fresh_rules: Callable[..., Ruleset],
                                                bonuses: bool, faces: tuple[int, ...]) -> None:
    sets = {}
    for model in ("plus_five", "plus_hit"):
        rules = fresh_rules(fortress_model=model, land_die=list(faces))
        if bonuses:
            rules.pm.register(OtherBonuses(), name="test:bonuses")
        sets[model] = rules
    for attackers, defenders in itertools.product(range(1, 5), range(0, 4)):
        sides = {}
        for model, rules in sets.items():
            game = fortress_game(rules, attackers, defenders, fortress=True)
            sides[model] = (side_for(game, PLAIN, "carthage"), side_for(game, PLAIN, "egypt"))
        (a5, d5), (ah, dh) = sides["plus_five"], sides["plus_hit"]
        assert (a5.dice, d5.dice) == (ah.dice, dh.dice) == (attackers, defenders)
        assert d5.bonus - dh.bonus == 5 and dh.extra_hits - d5.extra_hits == 1
        # Every single outcome of the dice: the same hits under both texts.
        for total in set(rolls(attackers, faces)):
            assert hits(total, a5, d5, 5) == hits(total, ah, dh, 5), (attackers, total)
        for total in set(rolls(defenders, faces)):
            assert hits(total, d5, a5, 5) == hits(total, dh, ah, 5), (defenders, total)
        # ... and so the same exact distribution of losses.
        n_d = defenders + 1
        assert distribution(a5, d5, attackers, n_d, faces) == \
            distribution(ah, dh, attackers, n_d, faces)


def brute_force(a: Side, d: Side, units_a: int, units_d: int,
                faces: tuple[int, ...]) -> dict[tuple[int, int], Fraction]:
    """Losses by enumerating every roll of every die (independent of the calculator)."""
    out: Counter[tuple[int, int]] = Counter()
    for ra in itertools.product(faces, repeat=a.dice):
        for rd in itertools.product(faces, repeat=d.dice):
            out[(min(hits(sum(rd), d, a, 5), units_a),
                 min(hits(sum(ra), a, d, 5), units_d))] += 1
    n = len(faces) ** (a.dice + d.dice)
    return {k: Fraction(v, n) for k, v in out.items()}


def test_the_calculator_is_exact(rules: Ruleset) -> None:
    assert total_distribution(2, FACES)[5] == Fraction(6, 36)  # 0+5 1+4 2+3 3+2 4+1 5+0
    assert sum(total_distribution(3, FACES).values()) == 1
    game = fortress_game(rules, 3, 1, fortress=True)
    a, d = side_for(game, PLAIN, "carthage"), side_for(game, PLAIN, "egypt")
    assert (a.bonus, d.bonus, d.shield) == (0, 5, 1)
    exact = distribution(a, d, 3, 2, FACES)
    assert exact == brute_force(a, d, 3, 2, FACES)
    assert sum(exact.values()) == 1
    # Egypt (die + 5) always hits once, twice on a V; Carthage needs 10 on three dice
    # for one hit through the fortress, 15 for two.
    assert exact[(2, 0)] == Fraction(1, 6) * sum(
        q for t, q in total_distribution(3, FACES).items() if t < 10)
    assert sum(q for (lost_a, _), q in exact.items() if lost_a == 0) == 0


def test_the_calculator_agrees_with_seeded_battles(rules: Ruleset) -> None:
    """3000 battles through the engine (its own seeded dice): every outcome's frequency
    within four standard deviations of the exact probability."""
    trials = 3000
    game = fortress_game(rules, 3, 1, fortress=True)
    a, d = side_for(game, PLAIN, "carthage"), side_for(game, PLAIN, "egypt")
    exact = distribution(a, d, 3, 2, FACES)
    seen: Counter[tuple[int, int]] = Counter()
    for _ in range(trials):
        clear(game)
        set_marker(game, "CYRENAICA", "egypt")
        add_units(game, "carthage", "CYRENAICA", "legion", 3)
        add_units(game, "egypt", "CYRENAICA", "legion", 1)
        add_units(game, "egypt", "CYRENAICA", "fortress", 1)
        start_phase(game, "military")
        game.apply("carthage")
        game.apply(("done",))  # no legion moves: the battle is fought where they stand
        while pending(game)[1] == "battle.loss":
            game.apply(game.legal()[0])
        here = units(game, "CYRENAICA")
        seen[(3 - here.get("carthage", {}).get("legion", 0),
              2 - sum(here.get("egypt", {}).values()))] += 1
    assert not check(game)
    assert set(seen) <= set(exact)
    for outcome, p in exact.items():
        freq = seen[outcome] / trials
        sigma = math.sqrt(float(p) * (1 - float(p)) / trials)
        assert abs(freq - float(p)) <= 4 * sigma + 1e-9, (outcome, freq, float(p))


@pytest.mark.parametrize(("dice", "bonus", "extra", "shield"),
                         [(1, 0, 0, 0), (2, 0, 0, 0), (3, 5, 0, 1), (2, 0, 1, 0), (4, 2, 1, 2)])
def test_the_bots_cached_hit_odds_are_the_exact_odds_as_floats(dice: int, bonus: int,
                                                               extra: int,
                                                               shield: int) -> None:
    """The distribution the bots read (cached floats) is the exact one, value by value:
    the same hits, each with its probability, summing to one."""
    from mare_nostrum.battle import Side, _hits, hits_distribution

    faces = (0, 1, 2, 3, 4, 5)
    exact = hits_distribution(Side("a", dice, bonus, extra), Side("b", 0, 0, 0, shield),
                              faces)
    cached = dict(_hits(dice, bonus, extra, shield, faces, 5))
    assert cached == {h: float(p) for h, p in exact.items()}
    assert math.isclose(sum(cached.values()), 1.0)


def test_a_fortress_adds_five_whatever_the_dice_total_per_hit(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """FR 4.2: a fortress adds 5 to its owner's dice total (and cancels one hit). A
    variant that scores a hit per 4 (hit_divisor: 4) keeps the +5: Egypt's legion rolls
    III, +5 for the fortress = 8, two hits at 4 a hit (with +4 it would be 7: one)."""
    rules = fresh_rules("fr", hit_divisor=4, fortress_model="plus_five")
    game = fortress_game(rules, 3, 1, fortress=True, attacker="rome")
    rome, egypt = side_for(game, BATTLE, "rome"), side_for(game, BATTLE, "egypt")
    assert (egypt.bonus, egypt.shield) == (5, 1)
    assert hits(3, egypt, rome, 4) == 2
