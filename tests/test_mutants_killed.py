"""Rules that the mutation survivors of issue 19 (part 1) broke without any test noticing.

Each test is written as a rule of the game (or of the kernel's promise about effects);
its docstring names the mutant it kills.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from conftest import pending, play
from mare_nostrum import position as pos
from mare_nostrum.battle import side_for, situation_distributions
from mnrules import Game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import MULTIPLY, Modifier
from mnrules.hooks.hookspecs import hookimpl
from test_movement import empty_board
from test_trade import SHORT, STOCK, offer, trade_game
from test_victory import FOUR, build_phase, finish_phase, turn

ROME_FOUR = {"rome": FOUR["rome"], "greece": FOUR["greece"]}


# -- the kernel: effects apply in their declared order ---------------------------------------
class Doubling:
    """A card: "double your dice total" (a multiplication)."""

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        if quantity == "battle.total" and ctx["side"] == "carthage":
            return [Modifier("test:double", lambda v: v * 2, layer=MULTIPLY, rank=1)]
        return None


class PlusThree:
    """A card: "+3 to your dice total" (an addition), returned as one bare effect."""

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        if quantity == "battle.total" and ctx["side"] == "carthage":
            return Modifier("test:plus three", lambda v: v + 3, rank=2)
        return None


PLAIN = {"area": "CYRENAICA", "kind": "land", "attacker": "carthage", "defender": "egypt"}


def carthage_bonus(rules: Ruleset) -> int:
    game = empty_board(rules)
    pos.add_units(game, "carthage", "CYRENAICA", "legion", 2)
    pos.add_units(game, "egypt", "CYRENAICA", "legion", 1)
    return side_for(game, PLAIN, "carthage").bonus


def test_cards_compose_the_same_whichever_was_acquired_first(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """Kills: deleting ``out.sort(...)`` in ``effects.ordered`` (pluggy's call order would
    decide) and deleting ``out.append(r)`` (a hook's single, bare effect dropped).

    "+3" and "double" compose as additions before multiplications: (0 + 3) * 2 = 6,
    whichever card's plugin was registered first; and one card alone still applies."""
    results = []
    for first, second in ((Doubling(), PlusThree()), (PlusThree(), Doubling())):
        rules = fresh_rules()
        rules.pm.register(first, name="test:first")
        rules.pm.register(second, name="test:second")
        results.append(carthage_bonus(rules))
    assert results == [6, 6]
    alone = fresh_rules()
    alone.pm.register(PlusThree(), name="test:alone")
    assert carthage_bonus(alone) == 3  # a single card's modifier applies


# -- victory ---------------------------------------------------------------------------------
def test_three_titles_win_only_at_the_end_of_the_claims_phase(rules: Ruleset) -> None:
    """Kills: ``phase == "claims"`` → ``phase != "claims"`` in ``victory.mn_phase_end``.

    Rome holds all three titles through the Trade phase: that is no win until Phase 5."""
    game = empty_board(rules)
    game.state.titles = {"trade": "rome", "culture": "rome", "military": "rome"}
    pos.start_phase(game, "trade", round=2)
    finish_phase(game)  # the whole Trade phase
    assert game.state.phase != "trade"
    assert not game.over


def test_only_built_capitals_and_legendary_cities_count_for_conquest(rules: Ruleset) -> None:
    """Kills: ``if b and slots[i].kind in kinds`` → ``or`` in ``victory.great_cities``.

    Rome's markers stand on four provinces with capital or legendary slots, none built,
    and CYRENAICA holds his caravan, market, city and temple: he controls no great city,
    so the end of Move & Fight is no conquest victory."""
    game = empty_board(rules)
    for prov in ("ASIA", "SICILIA", "JUDAEA", "CYRENAICA"):
        pos.set_marker(game, prov, "rome")  # plus LATIUM, his printed capital
    for spec in ("caravan", "market", "city", "temple"):
        pos.build(game, "CYRENAICA", spec)
    pos.start_phase(game, "military")
    finish_phase(game)
    assert game.state.phase != "military"
    assert not game.over


def test_able_every_player_able_to_buy_his_fifth_shares_the_win(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """Kills, under ``build_victory: able``: deleting the shared fifth-tile victory at the
    end of the build phase; judging who can buy a fifth tile with ``+ 2`` (Carthage, with
    three tiles, would count) or with ``>`` (nobody would count, so Rome would not share).

    FR 6.1: Rome and Greece own four tiles and 10 coins each as the phase starts; neither
    leads culture. Greece builds his fifth, Rome builds nothing: both win, Carthage (three
    tiles, who could only buy his fourth) does not."""
    rules = fresh_rules(build_victory="able")
    game = build_phase(rules, "egypt",
                       {**ROME_FOUR, "carthage": ["spartacus", "penthesilea"]},
                       {"rome": 10, "greece": 10, "carthage": 10})
    turn(game, "greece", "pharos")
    assert not game.over  # another could win too: the phase goes on
    turn(game, "rome")    # Rome buys nothing
    finish_phase(game)
    assert game.over
    assert (set(game.state.winners), game.state.victory) == ({"rome", "greece"}, "fifth")


def test_able_a_fifth_built_by_one_who_was_not_able_at_the_start_still_wins(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """Kills, under ``build_victory: able``: deleting ``or p in fifth`` (the win of someone
    who built though nobody was able at the start of the phase).

    Rome owns three tiles: as the phase starts he cannot buy a fifth. In one turn he buys
    his fourth (9) and his fifth (10): he wins at the end of the phase."""
    rules = fresh_rules(build_victory="able")
    game = empty_board(rules)
    pos.give_tiles(game, "rome", "antigone", "circe")
    pos.set_display(game, ["colossus", "hercules"])
    pos.give(game, "rome", {"coin": 19})
    game.state.titles["culture"] = "egypt"
    pos.start_phase(game, "build")
    turn(game, "rome", "hercules", "colossus")
    finish_phase(game)
    assert game.over
    assert (game.state.winners, game.state.victory) == (["rome"], "fifth")


# -- trade -----------------------------------------------------------------------------------
def test_exclude_a_player_holding_exactly_the_token_value_takes_part(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """Kills: ``s <= held`` → ``s < held`` in ``Trade._sizes`` (trade_short_player:
    exclude). Kirsten holds 4 resources; the token is played at 4: she offers all four."""
    game = trade_game(fresh_rules(trade_short_player="exclude"), stock=SHORT)
    play(game, ("4/3", 4))
    assert offer(game) == {p: 4 for p in SHORT}


def test_antigone_holder_with_one_resource_is_asked_how_many(rules: Ruleset) -> None:
    """Kills: the size question skipped when only two numbers are possible
    (``len(sizes) > 1`` weakened). Rome holds Antigone and one resource: he chooses in
    secret to offer 0 or 1, and offers the one he chose to."""
    game = trade_game(rules, stock={**STOCK, "rome": {"metal": 1}})
    pos.give_tiles(game, "rome", "antigone")
    play(game, ("2/1", 2))
    assert pending(game) == ("rome", "trade.size")
    assert game.legal() == (0, 1)
    play(game, 1)
    assert offer(game) == {"carthage": 2, "rome": 1, "greece": 2, "egypt": 2}


def test_antigone_holder_who_offers_nothing_takes_nothing(rules: Ruleset) -> None:
    """Kills: ``if choice > 0`` → ``>= 0`` in ``Trade.choose`` (choosing 0 still made a
    participant). Grady, the trade leader, holds Antigone and offers nothing: he takes
    no part, so Dave (next in seat) makes the first pick and Grady never picks."""
    game = trade_game(rules)
    pos.give_tiles(game, "carthage", "antigone")
    play(game, ("2/1", 2))
    assert pending(game) == ("carthage", "trade.size")
    play(game, 0)
    assert "carthage" not in offer(game)
    first = game.pending
    assert first is not None and first.kind == "trade.pick"
    assert first.player != "carthage"
    while (dec := game.pending) is not None and dec.kind == "trade.pick":
        assert dec.player != "carthage"
        assert all(t != "carthage" for t, _ in dec.options)
        play(game, dec.options[0])
    assert game.state.screens["carthage"] == STOCK["carthage"]


# -- battle ----------------------------------------------------------------------------------
def expected_losses(dist: dict[tuple[int, int], Fraction], side: int) -> Fraction:
    return sum((p * k[side] for k, p in dist.items()), Fraction(0))


def test_default_sea_die_is_a_blank_and_one_to_five(rules: Ruleset) -> None:
    """Kills: any change to the default faces of ``sea_die``.

    Two triremes against two, no hero helping at sea: each side's two dice (blank, I-V)
    total 10 once in 36 and 5 to 9 twenty times in 36, so each side exactly scores
    two hits with 1/36, one with 20/36."""
    situation = {"name": "fleets", "attacker": "carthage", "defender": "egypt",
                 "sea": "MARE AEGYPTIUM", "attacker_triremes": [2], "defender_triremes": [2]}
    dist = situation_distributions(rules, situation)[(2, 2, 0)]
    one = {0: Fraction(15, 36), 1: Fraction(20, 36), 2: Fraction(1, 36)}
    assert dist == {(a, d): one[a] * one[d] for a in one for d in one}


def test_edition_comparison_places_the_marker_and_the_fortress(rules: Ruleset) -> None:
    """Kills, in ``battle.situation_distributions``: deleting the marker placement, and
    swapping the fortress cases (the fortress standing where the situation says none).

    One Carthaginian legion attacks one Egyptian legion in CYRENAICA. Without a fortress
    each hits on a V (1/6); with one, Egypt's +5 always hits and Carthage's hit is
    cancelled. Nebuchadnezzar's +5 helps Babylon only on his own marker."""
    plain = {"name": "plain", "attacker": "carthage", "defender": "egypt",
             "province": "CYRENAICA", "attacker_legions": [1], "defender_legions": [1]}
    dist = situation_distributions(rules, plain)
    v = Fraction(1, 6)
    assert dist[(1, 1, 0)] == {(0, 0): (1 - v) ** 2, (1, 0): v * (1 - v),
                               (0, 1): (1 - v) * v, (1, 1): v * v}
    assert dist[(1, 1, 1)] == {(1, 0): Fraction(1)}
    marker = {"name": "marker", "attacker": "rome", "defender": "babylon",
              "province": "SYRIA", "tiles": {"babylon": ["nebuchadnezzar"]},
              "attacker_legions": [1], "defender_legions": [1], "fortress": [0]}
    own = situation_distributions(rules, marker)[(1, 1, 0)]
    other = situation_distributions(rules, {**marker, "marker": "rome"})[(1, 1, 0)]
    # On his marker, Babylon's one die + 5 always hits: Rome surely loses his legion.
    assert expected_losses(own, 0) == 1
    assert expected_losses(other, 0) < 1
