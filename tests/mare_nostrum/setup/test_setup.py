"""Setup for 3, 4 and 5 players (EX-SETUP-1; FR "Mise en place", NL/PL/UK setup steps 1-5),
and whole-game properties: random legal play from any setup keeps every invariant,
and a refused choice changes nothing."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mare_nostrum.tracks import levels
from mnrules import Game, IllegalChoice, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check

EMPIRES = {
    3: ["rome", "greece", "carthage"],
    4: ["rome", "greece", "egypt", "carthage"],
    5: ["rome", "greece", "babylon", "egypt", "carthage"],
}
# EX-SETUP-1: (trade, culture, military), identical in all four books.
TRACKS = {
    "rome": (7, 1, 3),
    "greece": (4, 4, 3),
    "babylon": (5, 3, 2),
    "egypt": (4, 4, 2),
    "carthage": (7, 1, 2),
}
STARTING_PROVINCES = {
    "rome": ["LATIUM", "GALLIA", "ITALIA"],
    "greece": ["ACHAEA", "MACEDONIA", "THRACIA"],
    "babylon": ["BABYLONIA", "SYRIA", "MESOPOTAMIA"],
    "egypt": ["AEGYPTUS", "CYRENAICA", "AETHIOPIA"],
    "carthage": ["AFRICA", "NUMIDIA", "LIBYA"],
}
STARTING_HERO = {"rome": "caesar", "greece": "pericles", "babylon": "hammurabi",
                 "egypt": "cleopatra", "carthage": "hannibal"}
# What the board file's starting pieces produce (its reconstruction of the screens):
# the books fix only the total (9) and the track values above.
STARTING_SCREENS = {
    "rome": {"coin": 1, "metal": 3, "oil": 2, "wine": 1, "grain": 1, "sheep": 1},
    "greece": {"coin": 5, "oil": 2, "metal": 1, "stone": 1},
    "babylon": {"coin": 3, "grain": 2, "ceramics": 2, "wood": 1, "sheep": 1},
    "egypt": {"coin": 5, "papyrus": 2, "grain": 1, "gold": 1},
    "carthage": {"coin": 1, "sheep": 3, "spices": 2, "gold": 1, "gladiators": 1, "oil": 1},
}
HEROES_AND_WONDERS = 17  # 12 heroes + 5 wonders; the Pyramids and starting heroes aside


@pytest.mark.parametrize("n", [3, 4, 5])
def test_empires_in_play(rules: Ruleset, n: int) -> None:
    game = new_game(rules, n, seed=1)
    assert game.state.players == EMPIRES[n]
    absent = {"babylon", "egypt"} - set(EMPIRES[n])
    covered = {p for e in absent for p in STARTING_PROVINCES[e]}
    if n == 5:
        covered_extra: set[str] = set()
    else:  # the Babylonian neutral provinces are on the covered part of the board too
        covered_extra = {"ARABIA", "ARMENIA"}
    if n == 3:  # and, on the reconstructed 3-player outline, Judaea and Crete
        covered_extra |= {"JUDAEA", "CRETE"}
    assert set(rules.board.provinces) - set(game.state.control) == covered | covered_extra
    assert check(game) == []


@pytest.mark.parametrize("n", [3, 4, 5])
def test_starting_provinces_and_pieces(rules: Ruleset, n: int) -> None:
    game = new_game(rules, n, seed=2)
    state = game.state
    owned = {prov: who for prov, who in state.control.items() if who is not None}
    assert owned == {prov: e for e in EMPIRES[n] for prov in STARTING_PROVINCES[e]}
    for empire in EMPIRES[n]:
        capital = STARTING_PROVINCES[empire][0]
        legions = sum(here.get(empire, {}).get("legion", 0) for here in state.units.values())
        fortresses = [a for a, here in state.units.items() if here.get(empire, {}).get("fortress")]
        triremes = sum(here.get(empire, {}).get("trireme", 0) for here in state.units.values())
        # one fortress and (military - 1) legions, the fortress in the capital province
        assert fortresses == [capital]
        assert state.count(capital, empire, "legion") == 1
        assert legions == TRACKS[empire][2] - 1
        assert triremes == 0
        # two markers on the board (the capital's is printed), the rest in the box
        assert state.pieces[empire] == {"legion": 8 - legions, "trireme": 5, "fortress": 4,
                                        "marker": 5}
        assert state.tiles[empire] == [STARTING_HERO[empire]]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_nine_starting_resources(rules: Ruleset, n: int) -> None:
    game = new_game(rules, n, seed=3)
    for empire in EMPIRES[n]:
        assert game.state.held(empire) == 9
        assert game.state.screens[empire] == STARTING_SCREENS[empire]
    # the resources came out of the finite supply
    taken: Counter[str] = Counter()
    for empire in EMPIRES[n]:
        taken.update(STARTING_SCREENS[empire])
    assert game.state.supply["coin"] == 44 - taken["coin"]
    assert game.state.supply["metal"] == 5 - taken["metal"]
    assert game.state.supply["sheep"] == 9 - taken["sheep"]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_starting_tracks(rules: Ruleset, n: int) -> None:
    game = new_game(rules, n, seed=4)
    lv = levels(game)
    for empire in EMPIRES[n]:
        assert (lv[empire]["trade"], lv[empire]["culture"], lv[empire]["military"]) \
            == TRACKS[empire], empire


@pytest.mark.parametrize(("n", "culture"), [(3, "greece"), (4, "egypt"), (5, "egypt")])
def test_starting_titles(rules: Ruleset, n: int, culture: str) -> None:
    """Rome military, Carthage trade; culture is Egypt's, or Greece's at 3 players."""
    game = new_game(rules, n, seed=5)
    assert game.state.titles == {"trade": "carthage", "culture": culture, "military": "rome"}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_display_five_face_up_and_the_pyramids(rules: Ruleset, n: int) -> None:
    game = new_game(rules, n, seed=6)
    state = game.state
    cards = rules.cards
    face_up = [t for t in state.display if t != "pyramids"]
    assert len(face_up) == 5
    assert "pyramids" in state.display
    assert len(state.display_hidden) == HEROES_AND_WONDERS - 5
    assert set(face_up) | set(state.display_hidden) == {
        c.id for c in cards.values() if c.kind in ("hero", "wonder")}
    assert not set(face_up) & set(state.display_hidden)
    # the unused starting heroes (Hammurabi at 3-4, Cleopatra at 3) are nowhere
    everywhere = set(state.display) | set(state.display_hidden) | {
        t for tiles in state.tiles.values() for t in tiles}
    assert everywhere & {"caesar", "pericles", "hammurabi", "cleopatra", "hannibal"} == {
        STARTING_HERO[e] for e in EMPIRES[n]}


def test_display_is_random_but_seeded(rules: Ruleset) -> None:
    displays = {tuple(new_game(rules, 5, seed=s).state.display) for s in range(8)}
    assert len(displays) > 1
    assert new_game(rules, 5, seed=7).state.display == new_game(rules, 5, seed=7).state.display


def test_display_all_face_up(fresh_rules: Any) -> None:
    rules = fresh_rules(hw_display="all_face_up")
    game = new_game(rules, 4, seed=1)
    assert len(game.state.display) == HEROES_AND_WONDERS + 1
    assert "pyramids" in game.state.display
    assert game.state.display_hidden == []


@pytest.mark.parametrize("n", [3, 4, 5])
def test_legendary_pile_and_trade_tokens(rules: Ruleset, n: int) -> None:
    game = new_game(rules, n, seed=8)
    assert sorted(game.state.legendary_pile) == sorted(rules.components["goods"])
    assert game.state.legendary_discard == []
    dec = game.pending
    assert dec is not None
    # Round 1 starts with Trade: the nine resources are round 1's Collect phase.
    assert (dec.player, dec.kind) == ("carthage", "trade.token")
    assert {t for t, _ in dec.options} == {"5/0", "2/1", "4/3"}
    assert game.state.round == 1 and game.state.phase == "trade"


# --- properties -----------------------------------------------------------------


def _assert_sane(game: Game) -> None:
    problems = check(game)
    assert not problems, problems
    state = game.state
    for player, screen in state.screens.items():
        for key, n in screen.items():
            assert n > 0, (player, key, n)
    for key, n in state.supply.items():
        assert n >= 0, (key, n)
    for player, box in state.pieces.items():
        for kind, n in box.items():
            assert n >= 0, (player, kind, n)


def _random_play(rules: Ruleset, players: int, seed: int, rounds: int,
                 refusals: list[Any] | None = None) -> Game:
    game = new_game(rules, players, seed=seed, round_cap=rounds)
    rng = random.Random(seed)
    seen: list[Any] = []
    known: set[Any] = set()
    while (dec := game.pending) is not None:
        if refusals is not None and seen and rng.random() < 0.25:
            # A choice seen earlier in this game that is not legal now must be refused
            # without a trace.
            bad = seen[rng.randrange(len(seen))]
            if bad not in dec.options:
                before = game.state.to_json()
                with pytest.raises(IllegalChoice):
                    game.apply(bad)
                assert game.state.to_json() == before
                assert game.pending == dec
                refusals.append(bad)
        if refusals is not None:
            for option in dec.options:
                if option not in known:
                    known.add(option)
                    seen.append(option)
        game.apply(dec.options[rng.randrange(len(dec.options))])
        _assert_sane(game)
    return game


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 10_000))
def test_random_legal_play_keeps_every_invariant(rules: Ruleset, players: int,
                                                 seed: int) -> None:
    game = _random_play(rules, players, seed, rounds=4)
    assert game.over
    assert game.state.victory in ("round cap", "pyramids", "fifth", "conquest", "leadership")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 10_000))
def test_a_refused_choice_changes_nothing(rules: Ruleset, players: int, seed: int) -> None:
    refused: list[Any] = []
    _random_play(rules, players, seed, rounds=2, refusals=refused)
    assert refused


@settings(max_examples=30, deadline=None)
@given(junk=st.recursive(st.one_of(st.text(max_size=8), st.integers(-3, 30)),
                         lambda inner: st.tuples(inner) | st.tuples(inner, inner)
                         | st.tuples(inner, inner, inner), max_leaves=5))
def test_junk_choices_are_refused_at_every_kind_of_decision(rules: Ruleset, junk: Any) -> None:
    game = new_game(rules, 4, seed=11, round_cap=2)
    rng = random.Random(11)
    kinds: set[str] = set()
    while (dec := game.pending) is not None:
        if dec.kind not in kinds and junk not in dec.options:
            kinds.add(dec.kind)
            before = game.state.to_json()
            with pytest.raises(IllegalChoice):
                game.apply(junk)
            assert game.state.to_json() == before
        game.apply(dec.options[rng.randrange(len(dec.options))])
