"""Phase 5, Claim leadership (EX-LEAD-1 to -3) and the XV+ display."""

from __future__ import annotations

import pytest

from conftest import advance_to, pending, play
from mare_nostrum.claims import xv_plus
from mare_nostrum.position import add_units, build, give, set_marker, start_phase
from mare_nostrum.tracks import levels
from mnrules import Game, IllegalChoice, new_game
from mnrules.content.ruleset import Ruleset
from test_movement import empty_board


def track(game: Game, name: str) -> dict[str, int]:
    return {p: lv[name] for p, lv in levels(game).items()}


def buy(game: Game, *actions: tuple[str, ...]) -> None:
    """Buy each item and pay with the first set on offer."""
    for action in actions:
        play(game, action)
        assert pending(game)[1] == "build.pay"
        play(game, game.legal()[0])


def settle_ties(game: Game) -> None:
    """Every tie is kept by the previous holder if he is tied, else the first tied."""
    while game.pending is not None and pending(game)[1] == "claims.tie":
        holder, options = game.pending.player, game.legal()
        play(game, holder if holder in options else options[0])


# -- EX-LEAD-1 --------------------------------------------------------------------------------
def trade_table(rules: Ruleset) -> Game:
    """Rome 3 caravans + 2 markets, Greece 2 + 2, Babylon 3 + 1, Egypt 2 + 1, Carthage 2 + 1."""
    game = empty_board(rules)
    setup = {
        "rome": {"LATIUM": ["caravan:metal", "caravan:wine", "market"],
                 "ITALIA": ["caravan:metal", "market"]},
        "greece": {"MACEDONIA": ["caravan:metal", "caravan:oil", "market"],
                   "THRACIA": ["market"]},
        "babylon": {"BABYLONIA": ["caravan:grain", "caravan:ceramics", "market"],
                    "MESOPOTAMIA": ["caravan:sheep"]},
        "egypt": {"AETHIOPIA": ["caravan:grain", "caravan:gold", "market"]},
        "carthage": {"NUMIDIA": ["caravan:gold", "caravan:gladiators", "market"]},
    }
    for player, provinces in setup.items():
        for prov, specs in provinces.items():
            if game.state.control[prov] != player:
                set_marker(game, prov, player)
            for spec in specs:
                build(game, prov, spec)
    return game


def test_ex_lead_1_rome_becomes_trade_leader(rules: Ruleset) -> None:
    game = trade_table(rules)
    # Babylon: 3 + 1 = IV (the French book's III is a misprint).
    assert track(game, "trade") == {"rome": 5, "greece": 4, "babylon": 4, "egypt": 3,
                                    "carthage": 3}
    # Carthage, the trade leader, has played the 4/3 token this cycle.
    game.state.vars["trade.tokens"] = ["5/0", "2/1"]
    game.state.vars["trade.tokens_for"] = "carthage"
    start_phase(game, "claims")
    settle_ties(game)  # culture and military are 0 for everybody: their holders keep them
    assert game.state.titles == {"trade": "rome", "culture": "egypt", "military": "rome"}
    # The next Trade phase: Rome, the new leader, takes all three tokens and picks first.
    advance_to(game, "trade.token")
    assert game.state.round == 2
    assert pending(game) == ("rome", "trade.token")
    assert {t for t, _ in game.legal()} == {"5/0", "2/1", "4/3"}


def test_a_leader_who_keeps_the_title_keeps_the_used_tokens_used(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=3)
    game.state.vars["trade.tokens"] = ["5/0", "2/1"]
    game.state.vars["trade.tokens_for"] = "carthage"
    start_phase(game, "claims")
    assert pending(game) == ("carthage", "claims.tie")
    play(game, "carthage")
    settle_ties(game)
    advance_to(game, "trade.token")
    assert pending(game) == ("carthage", "trade.token")
    assert {t for t, _ in game.legal()} == {"5/0", "2/1"}


# -- EX-LEAD-2 --------------------------------------------------------------------------------
def test_ex_lead_2_xv_plus(rules: Ruleset) -> None:
    game = empty_board(rules)
    for prov in ("ITALIA", "GALLIA", "DALMATIA", "SICILIA"):
        set_marker(game, prov, "rome")
    for prov in ("LATIUM", "ITALIA", "GALLIA", "DALMATIA", "SICILIA"):
        add_units(game, "rome", prov, "fortress")
    for sea in ("MARE TYRRHENUM", "MARE IONIUM", "MARE HADRIATICUM", "MARE SARDUM",
                "MARE AFRICUM"):
        add_units(game, "rome", sea, "trireme")
    add_units(game, "rome", "LATIUM", "legion", 4)
    assert track(game, "military")["rome"] == 14
    assert xv_plus(14) == "XIV"
    game.state.titles["culture"] = "rome"
    start_phase(game, "build")
    give(game, "rome", {"coin": 15})
    play(game, "rome")
    buy(game, *[("legion", "LATIUM")] * 4)  # 3 coins each
    assert game.state.screens["rome"] == {"coin": 3}
    assert track(game, "military")["rome"] == 18
    assert xv_plus(18) == "XV+III"  # the marker flipped to XV+, on III: 15 + 3
    # Eight legions are all Rome has: a ninth is refused, coins or not.
    assert game.state.pieces["rome"]["legion"] == 0
    with pytest.raises(IllegalChoice) as err:
        game.apply(("legion", "LATIUM"))
    assert err.value.rule is not None and err.value.rule.id == "component-limit"


@pytest.mark.parametrize(("level", "shown"), [
    (0, "0"), (1, "I"), (4, "IV"), (9, "IX"), (14, "XIV"), (15, "XV"), (16, "XV+I"),
    (18, "XV+III"), (24, "XV+IX"), (30, "XV+XV"), (33, "XV+XVIII"),
])
def test_xv_plus_display(level: int, shown: str) -> None:
    assert xv_plus(level) == shown


# -- EX-LEAD-3 --------------------------------------------------------------------------------
def test_ex_lead_3_the_starting_ties(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=2)
    assert levels(game)["rome"] == {"trade": 7, "culture": 1, "military": 3}
    assert track(game, "trade") == {"rome": 7, "greece": 4, "babylon": 5, "egypt": 4,
                                    "carthage": 7}
    start_phase(game, "claims")
    # Trade 7 = 7: Carthage, the holder, chooses; Babylon (5) is not eligible.
    assert pending(game) == ("carthage", "claims.tie")
    assert game.legal() == ("rome", "carthage")
    play(game, "rome")
    # Culture 4 = 4: Egypt chooses, and may keep it.
    assert pending(game) == ("egypt", "claims.tie")
    assert game.legal() == ("greece", "egypt")
    play(game, "egypt")
    # Military 3 = 3: Rome chooses.
    assert pending(game) == ("rome", "claims.tie")
    assert game.legal() == ("rome", "greece")
    play(game, "greece")
    assert game.state.titles == {"trade": "rome", "culture": "egypt", "military": "greece"}
    advance_to(game, "trade.token")
    assert pending(game) == ("rome", "trade.token")  # the title changed hands: all tokens
    assert {t for t, _ in game.legal()} == {"5/0", "2/1", "4/3"}


def test_a_holder_outside_the_tie_still_chooses(rules: Ruleset) -> None:
    game = empty_board(rules)
    build(game, "AFRICA", "caravan:sheep")                       # Carthage 1
    build(game, "LATIUM", "caravan:metal")
    build(game, "LATIUM", "market")                              # Rome 2
    build(game, "ACHAEA", "caravan:oil")
    set_marker(game, "MACEDONIA", "greece")
    build(game, "MACEDONIA", "market")                           # Greece 2
    assert game.state.titles["trade"] == "carthage"
    start_phase(game, "claims")
    assert pending(game) == ("carthage", "claims.tie")
    assert game.legal() == ("rome", "greece")
    with pytest.raises(IllegalChoice):
        game.apply("carthage")
    play(game, "greece")
    assert game.state.titles["trade"] == "greece"


def test_titles_change_only_in_phase_5(rules: Ruleset) -> None:
    game = empty_board(rules)
    game.state.titles["culture"] = "egypt"
    start_phase(game, "build")
    give(game, "rome", {"coin": 9})
    play(game, "rome")
    buy(game, ("building", "LATIUM", 0), ("building", "LATIUM", 1))
    assert track(game, "trade")["rome"] == 2 and game.state.titles["trade"] == "carthage"
    play(game, ("end",))
    advance_to(game, "military.next")
    assert game.state.titles["trade"] == "carthage"
    advance_to(game, "claims.tie")  # culture and military: all 0, so all tied
    assert game.state.titles["trade"] == "rome"
