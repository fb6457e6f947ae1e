"""The box (components and their hard limits; NL "Spelonderdelen"): every coin, good,
legendary token, building and piece is somewhere exactly once, and nothing is negative.
The invariant check (plugins/mare_nostrum/box.py, run after every choice in tests and
with ``--check``) names what went wrong, in a sentence (mutation testing, issue 19)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import play
from mare_nostrum import position as pos
from mnrules import Game, load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check
from test_pack_units import cyclops, write
from test_trade import offer, trade_game


def empty(rules: Ruleset) -> Game:
    """Nothing on the board, nothing behind any screen: the whole box in the supply or in
    the empires' boxes (44 coins, 9 wine, 25 markets; 8 legions, 7 markers each)."""
    game = new_game(rules, 5, seed=1)
    pos.clear(game)
    for p in game.state.players:
        pos.clear_screen(game, p)
    return game


def coin_from_nowhere(game: Game) -> None:
    game.state.gain("rome", "coin")


def wine_lost(game: Game) -> None:
    game.state.supply["wine"] -= 1


def debt_of_wine(game: Game) -> None:
    """Rome owes a wine: -1 behind his screen, the supply one up (the total is right)."""
    game.state.screens["rome"]["wine"] = -1
    game.state.supply["wine"] += 1


def supply_overdrawn(game: Game) -> None:
    game.state.supply["wine"] = -1
    game.state.screens["rome"]["wine"] = 10


def legendary_lost(game: Game) -> None:
    game.state.legendary_pile.remove("gold")


def legendary_twice(game: Game) -> None:
    game.state.legendary_discard.append("gold")


def legendary_on_a_screen_and_in_the_pile(game: Game) -> None:
    game.state.gain("rome", "legendary:gold")


def market_from_nowhere(game: Game) -> None:
    game.state.built["ITALIA"][2] = True  # ITALIA's market, not taken from the supply


def legion_from_nowhere(game: Game) -> None:
    game.state.add_units("ITALIA", "rome", "legion")


def legions_overdrawn(game: Game) -> None:
    """Nine legions on the board, -1 in Rome's box: the sum is 8, but a box never holds
    fewer than none."""
    game.state.pieces["rome"]["legion"] = -1
    game.state.add_units("ITALIA", "rome", "legion", 9)


def wine_box_lost(game: Game) -> None:
    del game.state.supply["wine"]


def markets_lost(game: Game) -> None:
    del game.state.supply["market"]


def marker_from_nowhere(game: Game) -> None:
    game.state.control["ITALIA"] = "rome"


@pytest.mark.parametrize(("corrupt", "problem"), [
    (coin_from_nowhere, "coin: supply 44 + held 1 != box 44"),
    (wine_lost, "wine: supply 8 + held 0 != box 9"),
    (debt_of_wine, "-1 wine held somewhere"),
    (supply_overdrawn, "supply of wine is -1"),
    (legendary_lost, "legendary gold: 0 tokens, not 1"),
    (legendary_twice, "legendary gold: 2 tokens, not 1"),
    (legendary_on_a_screen_and_in_the_pile, "legendary gold: 2 tokens, not 1"),
    (wine_box_lost, "wine: supply 0 + held 0 != box 9"),
    (market_from_nowhere, "market: supply 25 + built 1 != box 25"),
    (markets_lost, "market: supply 0 + built 0 != box 25"),
    (legion_from_nowhere, "rome legion: box 8 + board 1 != 8"),
    (legions_overdrawn, "rome legion: box -1 + board 9 != 8"),
    (marker_from_nowhere, "rome marker: box 7 + board 1 != 7"),
])
def test_the_check_names_what_left_or_entered_the_box(
        rules: Ruleset, corrupt: Callable[[Game], None], problem: str) -> None:
    game = empty(rules)
    assert check(game) == []
    corrupt(game)
    assert check(game) == [problem]


def test_a_legendary_token_is_anywhere_once(rules: Ruleset) -> None:
    """A legendary gold behind a screen (taken from the pile), or discarded, is where it
    should be: nothing to report."""
    game = empty(rules)
    game.state.legendary_pile.remove("gold")
    game.state.gain("rome", "legendary:gold")
    game.state.legendary_pile.remove("wine")
    game.state.legendary_discard.append("wine")
    assert check(game) == []


def test_a_printed_capital_marker_is_no_piece_of_the_box(rules: Ruleset) -> None:
    """The capitals' markers are printed on the board: Rome holding LATIUM takes none of
    his seven markers."""
    game = empty(rules)
    game.state.control["LATIUM"] = "rome"
    assert check(game) == []


def test_offers_on_the_table_are_still_in_the_box(rules: Ruleset) -> None:
    """During the trade, what is offered or taken is off the screens, in transit: the
    box is whole at every choice (play() checks after each one)."""
    game = trade_game(rules)
    play(game, ("2/1", 2))
    offer(game)
    assert check(game) == []
    dec = game.pending
    assert dec is not None and dec.kind == "trade.pick"
    play(game, dec.options[0])
    assert check(game) == []


def stand(game: Game, area: str) -> Any:
    game.state.pieces["rome"]["cyclops"] -= 1
    game.state.add_units(area, "rome", "cyclops")
    return check(game)


def test_a_creature_stands_only_where_its_pack_lets_it() -> None:
    """The Cyclops pack: a cyclops stands on land in play; one at sea is reported."""
    assert stand(new_game(cyclops(), 5, seed=1), "GALLIA") == []
    assert "rome's cyclops stands in MARE TYRRHENUM, where it may not" in \
        stand(new_game(cyclops(), 5, seed=1), "MARE TYRRHENUM")


def test_a_creature_held_to_listed_provinces_stands_in_them(tmp_path: Path) -> None:
    """A pack's creature that enters only SICILIA: there it stands; in LATIUM it may not."""
    rules = load_ruleset("en", variant=str(write(
        tmp_path, "cyclops: {count: 1, enters: [SICILIA], role: token}")))
    assert stand(new_game(rules, 5, seed=1), "SICILIA") == []
    assert "rome's cyclops stands in LATIUM, where it may not" in \
        stand(new_game(rules, 5, seed=1), "LATIUM")
