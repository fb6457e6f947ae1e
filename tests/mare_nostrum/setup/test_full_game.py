"""Whole random games: every legal choice keeps the game sound, and a game is a pure
function of its seed and its choices.

Hypothesis plays seeded 3-, 4- and 5-player games with random legal choices up to a
round cap, checking after EVERY choice: the box is conserved and every plugin's own
conditions hold (``invariants.check``), the leadership tracks equal an independent
recount of the board, and no unit or occupation stands where the rules forbid it.
Each game is then replayed, from the start and from a mid-game snapshot, and must end
in the same state, byte for byte.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mare_nostrum.state import State
from mare_nostrum.tracks import levels
from mnrules import Game, load_game, load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check

ROUND_CAP = 40
TRADE = ("caravan", "market")
CULTURE = ("city", "capital", "legendary", "temple")


def recount(game: Game) -> dict[str, dict[str, int]]:
    """The tracks counted afresh from the board (digest §10), not through the plugin."""
    state = game.state
    board = game.rules.board
    out = {p: {"trade": 0, "culture": 0, "military": 0} for p in state.players}
    for prov, built in state.built.items():
        for i, is_built in enumerate(built):
            if not is_built:
                continue
            who = state.occupied[prov][i] or state.control[prov]
            if who is None:
                continue
            kind = board.provinces[prov].slots[i].kind
            if kind in TRADE:
                out[who]["trade"] += 1
            elif kind in CULTURE:
                out[who]["culture"] += 1
    for here in state.units.values():
        for who, pieces in here.items():
            out[who]["military"] += sum(pieces.values())
    for p in state.players:
        for tile in state.tiles[p]:
            for track, n in game.rules.cards[tile].bonuses.items():
                out[p][track] += n
    return out


def forbidden(game: Game) -> list[str]:
    """Units and occupations the rules do not allow (beyond what the plugins check)."""
    state = game.state
    board = game.rules.board
    capitals = {e.capital for e in board.empires.values()}
    problems = []
    for area, here in state.units.items():
        for who, pieces in here.items():
            if area in board.seas:
                if set(pieces) != {"trireme"}:
                    problems.append(f"{who} has {pieces} at sea in {area}")
                continue
            if "trireme" in pieces:
                problems.append(f"{who} has a trireme on land in {area}")
            # A fortress is built only where its owner's marker is, never moves, and
            # a marker changes hands only when its province holds no other player's units.
            if pieces.get("fortress") and state.control.get(area) != who:
                problems.append(f"{who}'s fortress in {area}, marked {state.control.get(area)}")
    for prov, occ in state.occupied.items():
        occupiers = {o for o in occ if o is not None}
        marker = state.marker_occupier.get(prov)
        if marker is not None:
            occupiers.add(marker)
            if prov in capitals:
                problems.append(f"{marker} occupies the printed marker of {prov}")
            if state.control.get(prov) in (None, marker):
                problems.append(f"{marker} occupies a marker in {prov} that is not another's")
        for who in occupiers:
            n = sum(1 for o in occ if o == who) + (marker == who)
            if state.count(prov, who, "legion") < n:
                problems.append(f"{who} occupies {n} things in {prov} with fewer legions")
        # Between one Move & Fight and the next build phase nobody moves: a province
        # whose buildings or marker are occupied holds the occupier's units only.
        if occupiers and state.phase in ("claims", "production", "trade") \
                and state.unit_owners(prov) != sorted(occupiers):
            problems.append(f"{sorted(occupiers)} occupy {prov}, at war with "
                            f"{state.unit_owners(prov)}")
    return problems


def audit(game: Game) -> None:
    problems = check(game)
    assert not problems, (game.state.round, game.state.phase, problems)
    assert levels(game) == recount(game), (game.state.round, game.state.phase)
    wrong = forbidden(game)
    assert not wrong, (game.state.round, game.state.phase, wrong)


def play_random(rules: Ruleset, players: int, seed: int, rnd: random.Random,
                audit_each: bool = True) -> tuple[Game, list[Any], dict[str, Any]]:
    """A whole game of random legal choices; returns it, its choices and a snapshot
    taken half-way (with the number of choices made before it)."""
    game = new_game(rules, players, seed=seed, round_cap=ROUND_CAP)
    audit(game)
    choices: list[Any] = []
    half: dict[str, Any] = {}
    while (dec := game.pending) is not None:
        assert dec.options, dec
        choice = dec.options[rnd.randrange(len(dec.options))]
        game.apply(choice)
        choices.append(choice)
        if audit_each:
            audit(game)
        if not half and game.state.round > ROUND_CAP // 2:
            half = {"at": len(choices), "state": game.snapshot().to_json()}
    return game, choices, half


def replay(rules: Ruleset, players: int, seed: int, choices: list[Any]) -> Game:
    game = new_game(rules, players, seed=seed, round_cap=ROUND_CAP)
    for c in choices:
        game.apply(c)
    return game


OTHER_READINGS = {"conversion_timing": "end_of_next_phase", "conversion_fail": "keep",
                  "fortress_model": "plus_hit", "build_victory": "leader_priority",
                  "occupy_marker_needs_link": False, "trade_short_player": "exclude",
                  "trireme_anchor": "all_adjacent_clean"}
"""Every switch of phases 3-6 set to its other edition's reading."""


@pytest.fixture(scope="module")
def other_rules() -> Ruleset:
    return load_ruleset("en", {"params": OTHER_READINGS})


SETTINGS = settings(max_examples=4, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**31 - 1)


@pytest.mark.parametrize("players", [3, 4, 5])
@SETTINGS
@given(seed=SEEDS, choice_seed=SEEDS)
def test_random_games_stay_sound_and_replay_exactly(rules: Ruleset, players: int, seed: int,
                                                    choice_seed: int) -> None:
    """``seed`` is the game's (its dice and draws), ``choice_seed`` the players'."""
    whole_game(rules, players, seed, choice_seed)


@settings(max_examples=3, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5]), seed=SEEDS, choice_seed=SEEDS)
def test_random_games_under_the_other_readings(other_rules: Ruleset, players: int,
                                               seed: int, choice_seed: int) -> None:
    whole_game(other_rules, players, seed, choice_seed)


def whole_game(rules: Ruleset, players: int, seed: int, choice_seed: int) -> None:
    game, choices, half = play_random(rules, players, seed, random.Random(choice_seed))
    state = game.state
    assert game.over and state.finished
    assert state.victory in ("round cap", "prestige", "fifth", "conquest", "leadership")
    assert set(state.winners) <= set(state.players)
    assert state.round <= ROUND_CAP + 1
    if state.victory != "round cap":
        assert state.winners
    assert game.history == choices
    final = game.snapshot().to_json()  # the state with its random generator
    assert State.from_json(final).to_json() == final
    # The same seed and the same choices: the same game, to the last byte.
    assert replay(rules, players, seed, choices).snapshot().to_json() == final
    # ... and so does a game resumed from a snapshot half-way.
    if half:
        resumed = load_game(rules, half["state"])
        for c in choices[half["at"]:]:
            resumed.apply(c)
        assert resumed.snapshot().to_json() == final


def test_a_different_seed_is_a_different_game(rules: Ruleset) -> None:
    a, _, _ = play_random(rules, 4, 11, random.Random(5), audit_each=False)
    b, _, _ = play_random(rules, 4, 12, random.Random(5), audit_each=False)
    assert a.snapshot().to_json() != b.snapshot().to_json()
