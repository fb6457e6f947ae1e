"""The ancient personages and winning (book 002, «ЦЕЛЬ ИГРЫ»): what earns each kind, taken
at the end of the turn from a limited box and never lost; the target by the number of
nations; one short of it, a destroyed temple wins; the variant Nine scholars."""

from __future__ import annotations

from typing import Any

import pytest

from a2_helpers import RULES, VARIANTS, at_turn, play, until
from antike2.personages import due, earned
from antike2.position import city_spec
from antike2.state import Game
from antike2.victory import target
from mnrules import load_ruleset

SITES = [r for r, site in RULES.board.regions.items() if site.city != "universal"
         and not site.neutral_temple]


def cities(nation: str, n: int, temples: int = 0, start: int = 0) -> dict[str, str]:
    return {r: nation + (" temple" if i < temples else "")
            for i, r in enumerate(SITES[start:start + n])}


def found(game: Game, specs: dict[str, str]) -> None:
    game.state.cities.update({r: city_spec(game, r, spec) for r, spec in specs.items()})


def end_turn(game: Game) -> None:
    """Play the nation's turn through a space that asks nothing of it (Templum with no
    marble), to its end."""
    nation = game.pending.player if game.pending else ""
    play(game, "templum")
    while game.pending is not None and game.pending.player == nation:
        dec = game.pending
        game.apply(("done",) if ("done",) in dec.options else dec.options[0])


def test_a_king_for_every_five_cities_taken_at_the_end_of_the_turn() -> None:
    game = at_turn({"cities": cities("yellow", 10)}, "yellow")
    assert due(game, "yellow") == {"king": 2}
    assert game.state.personages["yellow"] == []      # not before the end of the turn
    end_turn(game)
    assert game.state.personages["yellow"] == ["king", "king"]


def test_a_king_lost_city_and_won_back_gives_no_new_king() -> None:
    """«Нация с 10 городами и 2 Королями теряет 1 город ... второй Король всё равно
    остаётся. Когда же она снова завоевывает 10ый город, больше Короля она не получает.
    Третьего Короля она получит, когда овладеет 15 городами.»"""
    game = at_turn({"cities": cities("yellow", 9), "personages": {"yellow": ["king", "king"]}},
                   "yellow")
    assert due(game, "yellow") == {}                   # 9 cities: the second king stays
    found(game, cities("yellow", 1, start=9))
    assert due(game, "yellow") == {}                   # the 10th again: no new king
    found(game, cities("yellow", 5, start=10))
    assert due(game, "yellow") == {"king": 1}          # the 15th: the third


@pytest.mark.parametrize(("position", "kind", "n"), [
    ({"destroyed": {"yellow": 2}}, "general", 2),
    ({"cities": cities("yellow", 6, temples=6)}, "citizen", 2),
    ({"cities": cities("yellow", 5, temples=5)}, "citizen", 1),
    ({"firsts": {"strata": "yellow", "regnum": "yellow", "moneta": "green"},
      "know_how": {"yellow": ["strata", "regnum"], "green": ["metallum", "moneta"]}},
     "scholar", 2),
])
def test_what_earns_generals_citizens_scholars(position: dict[str, Any], kind: str,
                                              n: int) -> None:
    game = at_turn(position, "yellow")
    assert earned(game, "yellow", kind) == n
    end_turn(game)
    assert game.state.personages["yellow"].count(kind) == n


def test_a_navigator_for_seven_seas_a_galley_symbol_sea_counting_twice() -> None:
    """«при оптимальном расположении достаточно 4х Галер чтобы освоить 7 морей»."""
    board = RULES.board
    doubled = [s for s in board.seas if board.seas[s].galley_symbol]
    single = [s for s in board.seas if not board.seas[s].galley_symbol]
    assert len(doubled) >= 3
    seas = {s: {"galley": 1} for s in doubled[:3] + single[:1]}
    game = at_turn({"units": {"yellow": seas}}, "yellow")
    assert earned(game, "yellow", "navigator") == 1
    game.state.units["yellow"].pop(single[0])
    assert earned(game, "yellow", "navigator") == 0


def test_pliny_the_elder_for_all_eight_know_how() -> None:
    every = [c for c, card in RULES.cards.items() if card.kind == "know-how"]
    assert len(every) == 8
    game = at_turn({"know_how": {"yellow": every}, "firsts": dict.fromkeys(every, "green")},
                   "yellow")
    assert due(game, "yellow") == {"pliny": 1}


def test_the_box_limits_personages_and_they_are_never_lost() -> None:
    """37 personages: 10 kings. Green holds 9; yellow, with 10 cities, takes the last one."""
    game = at_turn({"cities": cities("yellow", 10),
                    "personages": {"green": ["king"] * 9}}, "yellow")
    assert due(game, "yellow") == {"king": 1}
    end_turn(game)
    assert game.state.personages["yellow"] == ["king"]
    game.state.cities.clear()
    assert game.state.personages["yellow"] == ["king"]
    assert sum(RULES.components["personages"].values()) == 37


@pytest.mark.parametrize(("players", "wanted"), [(3, 10), (4, 9), (5, 8), (6, 7)])
def test_the_target_by_the_number_of_nations(players: int, wanted: int) -> None:
    assert target(at_turn({}, RULES.seating[players][0], players)) == wanted


def test_the_target_reached_at_the_end_of_the_turn_wins() -> None:
    game = at_turn({"cities": cities("yellow", 5),
                    "personages": {"yellow": ["scholar"] * 4 + ["citizen"] * 4}}, "yellow")
    end_turn(game)
    assert game.outcome is not None
    assert game.outcome.winners == ("yellow",) and game.outcome.victory == "personages"


def destroy_ancona_in(position: dict[str, object]) -> Game:
    """Yellow's three legions destroy the neutral temple of ANCONA (defence 3) in
    ``position`` and his turn plays to its end."""
    game = at_turn({**position, "neutral": ["ANCONA"],
                    "units": {"yellow": {"ANCONA": {"legion": 3}}}}, "yellow")
    play(game, "movere")
    until(game, "a2.conquest", "yellow")
    play(game, ("conquer", "ANCONA"))
    while game.pending is not None and game.pending.player == "yellow":
        game.apply(("done",) if ("done",) in game.pending.options else
                   game.pending.options[0])
    return game


def destroy_ancona(generals_taken: int) -> Game:
    """Yellow, one personage short, destroys the neutral temple of ANCONA; green holds
    ``generals_taken`` of the 7 generals."""
    return destroy_ancona_in({"personages": {"yellow": ["scholar"] * 8,
                                             "green": ["general"] * generals_taken},
                              "destroyed": {"green": generals_taken}})


def test_one_short_a_destroyed_temple_wins_even_with_no_general_left() -> None:
    """«Если нация не хватает выиграть всего лишь 1 персонажа, она может выиграть,
    разрушая храм даже если персонажей больше нет в банке.»"""
    game = destroy_ancona(generals_taken=7)
    assert game.state.personages["yellow"] == ["scholar"] * 8   # no general to take
    assert game.outcome is not None
    assert game.outcome.winners == ("yellow",) and game.outcome.victory == "temple"


def test_one_short_a_destroyed_temple_with_a_general_left_wins_by_the_target() -> None:
    game = destroy_ancona(generals_taken=6)
    assert game.state.personages["yellow"].count("general") == 1
    assert game.outcome is not None and game.outcome.victory == "personages"


def test_one_short_without_destroying_a_temple_does_not_win() -> None:
    game = at_turn({"personages": {"yellow": ["scholar"] * 8}}, "yellow")
    end_turn(game)
    assert game.outcome is None


def test_nine_scholars_variant_pliny_wins() -> None:
    """«Девятый ученый Плиний Старший ... является победой.»"""
    rules = load_ruleset("antike2", variant=f"{VARIANTS}/nine_scholars.yaml")
    every = [c for c, card in rules.cards.items() if card.kind == "know-how"]
    game = at_turn({"know_how": {"yellow": every}, "firsts": dict.fromkeys(every, "green")},
                   "yellow", rules=rules)
    end_turn(game)
    assert game.outcome is not None and game.outcome.victory == "pliny"
