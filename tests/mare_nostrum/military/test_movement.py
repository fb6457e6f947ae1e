"""Phase 4 movement, as the rulebooks' own examples tell it (EX-MOVE-1, -2, -5, -6).

The shared scenario CYR (docs/rulebook-examples.md): at the start of Rome's Phase-4
turn Rome has 2 legions in ITALIA, 1 in CRETE and 2 triremes in MARE IONIUM; Egypt has
a trireme in MARE AFRICUM and, in CYRENAICA (Egyptian marker, a papyrus caravan, a
market and a city), a legion and a fortress. Nothing else is on the board. Rome's
starting hero, Caesar, is in play as his card script says (+1 per legion die when Rome
is the active player in a land battle).

The scenario helpers here are shared with the other phase-4/5/victory test files.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import pending, play
from mare_nostrum.position import add_units, build, clear, set_marker, start_phase
from mnrules import Game, IllegalChoice, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event

CAPITALS = {"rome": "LATIUM", "greece": "ACHAEA", "babylon": "BABYLONIA",
            "egypt": "AEGYPTUS", "carthage": "AFRICA"}


# -- scenario helpers (shared) ---------------------------------------------------------------
def empty_board(rules: Ruleset, players: int = 5, seed: int = 1) -> Game:
    """A game with nothing on the board but the printed capital markers."""
    game = new_game(rules, players, seed=seed)
    clear(game)
    for player in game.state.players:
        set_marker(game, CAPITALS[player], player)
    return game


def cyr(rules: Ruleset, seed: int = 1) -> Game:
    """Scenario CYR at the start of Phase 4 (the military leader, Rome, names who acts)."""
    game = empty_board(rules, 5, seed)
    set_marker(game, "ITALIA", "rome")
    set_marker(game, "CYRENAICA", "egypt")
    for spec in ("caravan:papyrus", "market", "city"):
        build(game, "CYRENAICA", spec)
    add_units(game, "rome", "ITALIA", "legion", 2)
    add_units(game, "rome", "CRETE", "legion", 1)
    add_units(game, "rome", "MARE IONIUM", "trireme", 2)
    add_units(game, "egypt", "MARE AFRICUM", "trireme", 1)
    add_units(game, "egypt", "CYRENAICA", "legion", 1)
    add_units(game, "egypt", "CYRENAICA", "fortress", 1)
    start_phase(game, "military")
    return game


def record(game: Game, kind: str) -> list[Event]:
    """Every event of ``kind`` from now on."""
    seen: list[Event] = []
    game.listeners.append(lambda e: seen.append(e) if e.kind == kind else None)
    return seen


def rome_transports(game: Game, naval: Any = ("done",)) -> None:
    """EX-MOVE-1 steps 1-4: trireme to MARE AFRICUM, no naval battle, three legions over.
    The last move starts the mandatory battle in Cyrenaica: force its dice first."""
    play(game, "rome", ("move", "MARE IONIUM", "MARE AFRICUM"), ("done",), naval)
    if naval != ("done",):
        return
    play(game, ("move", "ITALIA", "CYRENAICA"), ("move", "ITALIA", "CYRENAICA"),
         ("move", "CRETE", "CYRENAICA"))


def moves(game: Game) -> set[tuple[str, str]]:
    """The moves on offer now, as (from, to) pairs."""
    return {(c[1], c[2]) for c in game.legal() if c[0] == "move"}


def units(game: Game, area: str) -> dict[str, dict[str, int]]:
    return game.state.units.get(area, {})


# -- EX-MOVE-1 --------------------------------------------------------------------------------
def test_ex_move_1_transport_over_ionium_and_africum(rules: Ruleset) -> None:
    game = cyr(rules)
    play(game, "rome")
    assert pending(game) == ("rome", "military.trireme")
    # Step 1: a trireme to Mare Africum, beside Crete and Cyrenaica; no more moves.
    play(game, ("move", "MARE IONIUM", "MARE AFRICUM"), ("done",))
    # Trireme moves are over; a naval battle is optional and Rome declines it.
    assert pending(game) == ("rome", "military.naval")
    assert game.legal() == (("done",), ("battle", "MARE AFRICUM", "egypt"))
    play(game, ("done",))
    assert pending(game) == ("rome", "military.legion")
    legal = set(game.legal())
    assert ("move", "ITALIA", "CYRENAICA") in legal
    assert ("move", "CRETE", "CYRENAICA") in legal
    play(game, ("move", "ITALIA", "CYRENAICA"), ("move", "ITALIA", "CYRENAICA"))
    assert units(game, "CYRENAICA") == {"egypt": {"legion": 1, "fortress": 1},
                                        "rome": {"legion": 2}}
    # The last legion move leaves nothing to move: the land battle in Cyrenaica is
    # mandatory and, being the only one, starts at once.
    battles = record(game, "battle")
    game.force("land die", [0, 0, 0, 0])
    play(game, ("move", "CRETE", "CYRENAICA"))
    assert units(game, "MARE IONIUM") == {"rome": {"trireme": 1}}
    # The Egyptian trireme is still in Mare Africum beside Rome's: the chain held.
    assert units(game, "MARE AFRICUM") == {"egypt": {"trireme": 1}, "rome": {"trireme": 1}}
    assert "ITALIA" not in game.state.units and "CRETE" not in game.state.units
    assert [(e.player, e.data["area"], e.data["defender"], e.data["units"])
            for e in battles] == [("rome", "CYRENAICA", "egypt", {"rome": 3, "egypt": 2})]


def test_ex_move_1_italia_to_cyrenaica_needs_the_africum_trireme(rules: Ruleset) -> None:
    game = cyr(rules)
    play(game, "rome", ("done",))  # no trireme moves; no naval battle is possible
    assert pending(game) == ("rome", "military.legion")
    legal = set(game.legal())
    assert ("move", "ITALIA", "CYRENAICA") not in legal
    assert ("move", "CRETE", "CYRENAICA") not in legal
    # The Ionium chain reaches the provinces on Mare Ionium, and Italia's land neighbour.
    assert {to for src, to in moves(game) if src == "ITALIA"} == {
        "LATIUM", "MACEDONIA", "ACHAEA", "SICILIA"}
    # Crete is an island without a Roman trireme beside it: its legion cannot move.
    assert not any(src == "CRETE" for src, _ in moves(game))
    with pytest.raises(IllegalChoice) as err:
        game.apply(("move", "ITALIA", "CYRENAICA"))
    assert err.value.rule is not None and err.value.rule.id == "legion-move"


def test_trireme_moves_once_to_an_adjacent_sea(rules: Ruleset) -> None:
    game = cyr(rules)
    play(game, "rome", ("move", "MARE IONIUM", "MARE AFRICUM"))
    # The trireme that arrived in Mare Africum may not move on; its partner may.
    assert not any(src == "MARE AFRICUM" for src, _ in moves(game))
    assert ("MARE IONIUM", "MARE AEGAEUM") in moves(game)
    # Mare Ionium does not border Mare Aegyptium.
    with pytest.raises(IllegalChoice) as err:
        game.apply(("move", "MARE IONIUM", "MARE AEGYPTIUM"))
    assert err.value.rule is not None and err.value.rule.id == "trireme-move"
    with pytest.raises(IllegalChoice):
        game.apply(("move", "MARE AFRICUM", "MARE AEGYPTIUM"))
    play(game, ("move", "MARE IONIUM", "MARE AEGAEUM"))
    # Both triremes have moved: the trireme moves are over, and the naval battle in
    # Mare Africum is on offer.
    assert pending(game) == ("rome", "military.naval")


def test_a_legion_moves_once(rules: Ruleset) -> None:
    game = cyr(rules)
    play(game, "rome", ("done",), ("move", "ITALIA", "LATIUM"))
    # One legion left Italia for Latium: it may not go on; the other may still move.
    assert not any(src == "LATIUM" for src, _ in moves(game))
    assert ("ITALIA", "LATIUM") in moves(game)
    assert pending(game) == ("rome", "military.legion")
    play(game, ("move", "ITALIA", "LATIUM"))
    # Crete's legion has no way off the island: nothing is left to move, nothing to
    # fight, and Rome's turn is over.
    assert pending(game) == ("rome", "military.next")
    assert units(game, "LATIUM") == {"rome": {"legion": 2}}


def test_legions_move_only_after_triremes_and_naval_battles(rules: Ruleset) -> None:
    game = cyr(rules)
    play(game, "rome")
    with pytest.raises(IllegalChoice) as err:
        game.apply(("move", "ITALIA", "LATIUM"))
    assert err.value.rule is not None and err.value.rule.id == "move-fight-order"
    play(game, ("move", "MARE IONIUM", "MARE AFRICUM"), ("done",))
    assert pending(game) == ("rome", "military.naval")
    with pytest.raises(IllegalChoice) as err:
        game.apply(("move", "ITALIA", "CYRENAICA"))
    assert err.value.rule is not None and err.value.rule.id == "move-fight-order"
    # Trireme moves are over once the naval stage is reached.
    with pytest.raises(IllegalChoice):
        game.apply(("move", "MARE IONIUM", "MARE AEGAEUM"))


# -- EX-MOVE-5: the naval battle comes first, and the chain is what survives it -----------------
@pytest.mark.parametrize(("egypt_die", "rome_keeps_trireme"), [(4, True), (5, False)])
def test_ex_move_5_connection_after_the_naval_battle(rules: Ruleset, egypt_die: int,
                                                     rome_keeps_trireme: bool) -> None:
    game = cyr(rules)
    game.force("sea die", [0, egypt_die])  # Rome's die first (the attacker), then Egypt's
    rome_transports(game, naval=("battle", "MARE AFRICUM", "egypt"))
    if rome_keeps_trireme:
        assert units(game, "MARE AFRICUM") == {"egypt": {"trireme": 1}, "rome": {"trireme": 1}}
        # One naval battle per sea: Mare Africum is not offered again this turn.
        assert pending(game) == ("rome", "military.legion")
        legal = set(game.legal())
        assert ("move", "ITALIA", "CYRENAICA") in legal
        assert ("move", "CRETE", "CYRENAICA") in legal
    else:
        assert units(game, "MARE AFRICUM") == {"egypt": {"trireme": 1}}
        assert game.state.pieces["rome"]["trireme"] == 4
        assert pending(game) == ("rome", "military.legion")
        legal = set(game.legal())
        assert ("move", "ITALIA", "CYRENAICA") not in legal
        assert ("move", "CRETE", "CYRENAICA") not in legal
        with pytest.raises(IllegalChoice) as err:
            game.apply(("move", "CRETE", "CYRENAICA"))
        assert err.value.rule is not None and err.value.rule.id == "legion-move"


# -- EX-MOVE-2: Cilicia at war, Babylon's three options --------------------------------------
def cilicia(rules: Ruleset) -> Game:
    game = empty_board(rules)
    set_marker(game, "CILICIA", "babylon")
    set_marker(game, "JUDAEA", "egypt")
    add_units(game, "babylon", "CILICIA", "legion", 2)
    add_units(game, "babylon", "CILICIA", "fortress")
    add_units(game, "egypt", "CILICIA", "legion", 2)
    add_units(game, "egypt", "JUDAEA", "fortress")
    game.state.titles["military"] = "babylon"
    start_phase(game, "military")
    return game


def fought(game: Game, moves: list[tuple[str, str, str]]) -> list[tuple[str, str, dict[str, int]]]:
    """Babylon's turn with these legion moves: the battles it had to fight, each with the
    units the two sides brought to it."""
    battles = record(game, "battle")
    play(game, "babylon", *moves)
    if pending(game) == ("babylon", "military.legion"):
        play(game, ("done",))
    while pending(game) in (("babylon", "military.land"), ("babylon", "battle.loss"),
                            ("egypt", "battle.loss")):
        play(game, game.legal()[0])
    return [(e.data["area"], e.data["defender"], e.data["units"]) for e in battles]


def test_ex_move_2a_legions_leave_the_fortress_alone(rules: Ruleset) -> None:
    game = cilicia(rules)
    game.force("land die", [0, 0])
    battles = fought(game, [("move", "CILICIA", "JUDAEA"), ("move", "CILICIA", "JUDAEA")])
    # Judaea: 2 legions against the fortress; Cilicia, where only Babylon's fortress
    # stays with the two Egyptian legions: no battle on Babylon's turn.
    assert battles == [("JUDAEA", "egypt", {"babylon": 2, "egypt": 1})]
    assert units(game, "CILICIA") == {"babylon": {"fortress": 1}, "egypt": {"legion": 2}}


def test_ex_move_2b_one_legion_goes_to_asia(rules: Ruleset) -> None:
    game = cilicia(rules)
    game.force("land die", [0, 0, 0])
    battles = fought(game, [("move", "CILICIA", "ASIA")])
    assert battles == [("CILICIA", "egypt", {"babylon": 2, "egypt": 2})]  # legion + fortress
    assert units(game, "ASIA") == {"babylon": {"legion": 1}}


def test_ex_move_2c_no_move_still_a_battle(rules: Ruleset) -> None:
    game = cilicia(rules)
    game.force("land die", [0, 0, 0, 0])
    battles = fought(game, [])
    assert battles == [("CILICIA", "egypt", {"babylon": 3, "egypt": 2})]


def test_a_fortress_alone_starts_no_battle_on_its_owners_turn(rules: Ruleset) -> None:
    game = cilicia(rules)
    # Babylon: 2 zeros, nothing; the Egyptian fortress in Judaea: +5, one hit.
    game.force("land die", [0, 0])
    battles = fought(game, [("move", "CILICIA", "JUDAEA"), ("move", "CILICIA", "JUDAEA")])
    assert units(game, "JUDAEA") == {"babylon": {"legion": 1}, "egypt": {"fortress": 1}}
    # Egypt's turn: its legions share Cilicia with Babylon's lone fortress, so Egypt
    # must fight there; its own lone fortress in Judaea starts nothing.
    assert pending(game) == ("babylon", "military.next")
    assert [(b[0], b[1]) for b in battles] == [("JUDAEA", "egypt")]
    egypt_battles = record(game, "battle")
    game.force("land die", [0, 0])  # Egypt: nothing; Babylon's lone fortress: one hit
    play(game, "egypt", ("done",))
    assert [(e.player, e.data["area"], e.data["defender"], e.data["units"])
            for e in egypt_battles] == [("egypt", "CILICIA", "babylon",
                                         {"egypt": 2, "babylon": 1})]
    assert units(game, "CILICIA") == {"babylon": {"fortress": 1}, "egypt": {"legion": 1}}
    assert units(game, "JUDAEA") == {"babylon": {"legion": 1}, "egypt": {"fortress": 1}}


def test_battles_come_only_after_all_legion_moves(rules: Ruleset) -> None:
    game = cilicia(rules)
    play(game, "babylon", ("move", "CILICIA", "ASIA"))
    assert pending(game) == ("babylon", "military.legion")
    with pytest.raises(IllegalChoice) as err:
        game.apply(("battle", "CILICIA", "egypt"))
    assert err.value.rule is not None and err.value.rule.id == "move-fight-order"


# -- EX-MOVE-6: two opponents in one province, one battle ------------------------------------
def test_ex_move_6_one_opponent_one_battle_per_province(rules: Ruleset) -> None:
    game = empty_board(rules)
    set_marker(game, "CILICIA", "babylon")
    add_units(game, "babylon", "CILICIA", "legion", 2)
    add_units(game, "egypt", "CILICIA", "legion", 2)
    add_units(game, "rome", "ASIA", "legion", 2)
    start_phase(game, "military")
    play(game, "rome", ("move", "ASIA", "CILICIA"), ("move", "ASIA", "CILICIA"))
    assert pending(game) == ("rome", "military.land")
    assert game.legal() == (("battle", "CILICIA", "babylon"), ("battle", "CILICIA", "egypt"))
    battles = record(game, "battle")
    game.force("land die", [0, 0, 0, 0])
    play(game, ("battle", "CILICIA", "egypt"))
    assert [(e.data["area"], e.data["defender"]) for e in battles] == [("CILICIA", "egypt")]
    # Babylon was not involved, and no second battle is fought in Cilicia this turn.
    assert pending(game) == ("rome", "military.next")
    assert units(game, "CILICIA") == {"babylon": {"legion": 2}, "egypt": {"legion": 2},
                                      "rome": {"legion": 2}}
    # Cilicia stays at war: three players' units, nobody conquers it.
    assert "CILICIA" not in game.state.vars.get("conquest", {})


def test_later_players_may_attack_the_survivors(rules: Ruleset) -> None:
    """EX-MOVE-4: the battle on one turn does not shield the province on the next."""
    game = empty_board(rules)
    set_marker(game, "CILICIA", "babylon")
    add_units(game, "babylon", "CILICIA", "legion", 2)
    add_units(game, "rome", "ASIA", "legion", 2)
    start_phase(game, "military")
    battles = record(game, "battle")
    game.force("land die", [0, 0, 0, 0, 0, 0, 0, 0])
    play(game, "rome", ("move", "ASIA", "CILICIA"), ("move", "ASIA", "CILICIA"))
    # Babylon acts later in the phase: it must fight Rome in Cilicia on its own turn.
    play(game, "babylon", ("done",))
    assert [(e.player, e.data["defender"]) for e in battles] == [("rome", "babylon"),
                                                                 ("babylon", "rome")]
