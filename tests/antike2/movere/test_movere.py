"""Movere, step 1 (book 002, "MOVEKE / маневры", 1. Передвижение и сражение): moving
legions and galleys, and the battles either side may ask for. The tests follow the
book's movement example (yellow's legion and galley in CARTHAGO) and the moves of its
PELLA example; the helpers here serve the conquest tests too."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from antike2.movere import reach, ways
from antike2.state import Game
from mnrules import load_ruleset, new_game
from mnrules.content.packs import read
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check
from mnrules.errors import IllegalChoice
from mnrules.tools.scenario import set_position

WAR = ("movere", "conquest")


@cache
def war_rules(pack: str = "antike2") -> Ruleset:
    """The pack's rule set, with the war plugins whether or not the pack lists them."""
    plugins = [str(p) for p in read(pack).data["plugins"]]
    missing = [p for p in WAR if p not in plugins]
    return load_ruleset(pack, {"plugins": plugins + missing} if missing else None)


def at_movere(position: dict[str, Any], nation: str, players: int = 6) -> Game:
    """A game at ``nation``'s Movere: the position set (on an emptied board), its marker
    moved to the Movere space (free from off the rondel)."""
    game: Game = new_game(war_rules(), players=players, seed=1)  # type: ignore[assignment]
    set_position(game, {**position, "phase": "turn", "frame": {"nation": nation}})
    while game.pending is not None and game.pending.kind != "a2.rondel":
        play(game, ("done",))
    play(game, "movere")
    return game


def play(game: Game, *choices: Any) -> None:
    """Apply choices in order, checking every invariant after each."""
    for c in choices:
        game.apply(c)
        problems = check(game)
        assert not problems, problems


def options(game: Game) -> set[Any]:
    dec = game.pending
    assert dec is not None
    return set(dec.options)


def asked(game: Game) -> tuple[str, str]:
    dec = game.pending
    assert dec is not None
    return dec.player, dec.kind


def units(game: Game, nation: str, area: str) -> dict[str, int]:
    return dict(game.state.units.get(nation, {}).get(area, {}))


# -- the book's movement example: yellow in CARTHAGO -----------------------------------------

CARTHAGO = {"cities": {"CARTHAGO": "yellow", "ROMA": "yellow", "CARALES": "red"},
            "units": {"yellow": {"CARTHAGO": {"legion": 1, "galley": 1}},
                      "red": {"CARALES": {"galley": 1}}},
            "personages": {"yellow": ["king", "king", "king"], "red": ["king", "king", "king"]}}


def test_legions_cross_red_borders_galleys_blue_both_combined() -> None:
    """«Красные границы могут пересекать только Легионы, а синие только Галеры.
    Комбинированные ... и Легионы и Галеры»: yellow's legion and galley in CARTHAGO may
    stay or go to the neighbouring regions their borders allow."""
    game = at_movere(CARTHAGO, "yellow")
    board = game.rules.board
    assert asked(game) == ("yellow", "a2.move")
    legion = {o[1][-1] for o in options(game) if o[0] == "legion"}
    galley = {o[1][-1] for o in options(game) if o[0] == "galley"}
    assert legion == set(board.neighbours("CARTHAGO", "legion"))
    assert galley == set(board.neighbours("CARTHAGO", "galley"))
    for to in legion:
        assert board.border("CARTHAGO", to) in ("red", "combined")
    for to in galley:
        assert board.border("CARTHAGO", to) in ("blue", "combined")
    assert "CARALES" in galley and "CARALES" not in legion
    assert ("done",) in options(game)


def test_strata_lets_a_legion_move_a_second_time() -> None:
    """«Обладая Ноу-Хау STRATA, Легион может двигаться второй раз таким же образом»."""
    game = at_movere({**CARTHAGO, "know_how": {"yellow": ["strata"]}}, "yellow")
    assert reach(game, "yellow", "legion") == 2
    assert reach(game, "yellow", "galley") == 1
    legion_ways = {o[1] for o in options(game) if o[0] == "legion"}
    assert legion_ways == set(ways(game, "CARTHAGO", "legion", 2))
    two = {w for w in legion_ways if len(w) == 3}
    assert two, "a second border"
    for w in two:
        assert game.rules.board.border(w[1], w[2]) in ("red", "combined")
    assert all(len(o[1]) == 2 for o in options(game) if o[0] == "galley")


def test_a_galley_entering_carales_may_fight_if_either_side_wants() -> None:
    """«Если Галера перемещается в CARALES, то может состояться сражение по требованию
    желтых или красных»: yellow declares first, then red; when red asks for it, the
    galleys destroy each other 1:1."""
    game = at_movere(CARTHAGO, "yellow")
    play(game, ("galley", ("CARTHAGO", "CARALES")))
    assert asked(game) == ("yellow", "a2.battle")
    play(game, "peace")
    assert asked(game) == ("red", "a2.battle")
    play(game, "fight")
    assert units(game, "yellow", "CARALES") == {}
    assert units(game, "red", "CARALES") == {}
    assert asked(game) == ("yellow", "a2.move")


def test_galleys_may_share_a_region_in_peace() -> None:
    """«Обе стороны могут прийти к согласию, и Галеры могут мирно сосуществовать»."""
    game = at_movere(CARTHAGO, "yellow")
    play(game, ("galley", ("CARTHAGO", "CARALES")), "peace", "peace")
    assert units(game, "yellow", "CARALES") == {"galley": 1}
    assert units(game, "red", "CARALES") == {"galley": 1}


def test_legions_do_not_fight_galleys() -> None:
    """«Легионы могут сражаться только против Легионов, Галеры против Галер»: a legion
    entering a region held only by enemy galleys is asked nothing."""
    pos = {**CARTHAGO, "units": {"yellow": {"HIPPO": {"legion": 1}},
                                 "red": {"CARTHAGO": {"galley": 2}}}}
    game = at_movere(pos, "yellow")
    play(game, ("legion", ("HIPPO", "CARTHAGO")))
    assert asked(game) != ("yellow", "a2.battle")
    assert units(game, "yellow", "CARTHAGO") == {"legion": 1}
    assert units(game, "red", "CARTHAGO") == {"galley": 2}


def test_both_sides_lose_the_same_number_one_to_one() -> None:
    """Three galleys enter a region where the enemy has one galley and one legion: when
    the enemy asks for the battle, each side loses one galley; the legion stays out of
    it («Оба соперника теряют одинаковое количество подразделений одного типа»)."""
    pos = {**CARTHAGO, "units": {"yellow": {"CARTHAGO": {"galley": 3}},
                                 "red": {"CARALES": {"galley": 1, "legion": 1}}}}
    game = at_movere(pos, "yellow")
    play(game, ("galley", ("CARTHAGO", "CARALES")), "peace", "peace")
    play(game, ("galley", ("CARTHAGO", "CARALES")), "peace", "peace")
    play(game, ("galley", ("CARTHAGO", "CARALES")), "peace")
    assert asked(game) == ("red", "a2.battle")
    play(game, "fight")
    assert units(game, "yellow", "CARALES") == {"galley": 2}
    assert units(game, "red", "CARALES") == {"legion": 1}


def test_units_that_did_not_move_may_fight_where_they_stand() -> None:
    """«Военные подразделения, которые не передвигались, могут сражаться в своем регионе
    против такого же типа войск»: the mover starts the battle; both lose 1:1, the side
    with fewer all of its units there."""
    pos = {**CARTHAGO, "units": {"yellow": {"CARALES": {"galley": 3}},
                                 "red": {"CARALES": {"galley": 2, "legion": 1}}}}
    game = at_movere(pos, "yellow")
    assert ("battle", "CARALES", "galley", "red") in options(game)
    assert ("battle", "CARALES", "legion", "red") not in options(game)
    play(game, ("battle", "CARALES", "galley", "red"))
    assert units(game, "yellow", "CARALES") == {"galley": 1}
    assert units(game, "red", "CARALES") == {"legion": 1}
    # the survivor fought: it moves no more this Movere
    assert not any(o[0] == "galley" for o in options(game))


def test_a_unit_moves_once_and_units_that_moved_start_no_battle() -> None:
    pos = {**CARTHAGO, "units": {"yellow": {"CARTHAGO": {"galley": 1}, "HIPPO": {"legion": 1}},
                                 "red": {"CARALES": {"galley": 1}}}}
    game = at_movere(pos, "yellow")
    play(game, ("galley", ("CARTHAGO", "CARALES")), "peace", "peace")
    assert asked(game) == ("yellow", "a2.move")
    assert not any(o[0] == "galley" for o in options(game))
    assert ("battle", "CARALES", "galley", "red") not in options(game)
    with pytest.raises(IllegalChoice, match="movere-battle"):
        game.apply(("battle", "CARALES", "galley", "red"))
    with pytest.raises(IllegalChoice, match="a unit moves once"):
        game.apply(("galley", ("CARALES", "CARTHAGO")))


# -- the moves of the PELLA example --------------------------------------------------------

PELLA = {"cities": {"PELLA": "yellow temple", "ROMA": "yellow", "DYRRHACHION": "red",
                    "LUGDUNUM": "red"},
         "units": {"red": {"DYRRHACHION": {"legion": 2, "galley": 1},
                           "SPARTA": {"galley": 1}},
                   "yellow": {"ATHENAE": {"galley": 1}}},
         "know_how": {"red": ["navigatio"]},
         "personages": {"yellow": ["king", "king", "citizen"], "red": ["king", "king",
                                                                      "king"]}}


def test_the_pella_moves() -> None:
    """«Галера из DYRRHACHION движется через SPARTA в ATHENAE и разрушает желтую
    Галеру. Теперь Галера из Спарты может беспрепятственно переместиться в PELLA»."""
    game = at_movere(PELLA, "red")
    play(game, ("legion", ("DYRRHACHION", "PELLA")), ("legion", ("DYRRHACHION", "PELLA")))
    play(game, ("galley", ("DYRRHACHION", "SPARTA", "ATHENAE")))
    assert asked(game) == ("red", "a2.battle")
    play(game, "fight")
    assert units(game, "yellow", "ATHENAE") == {}
    assert units(game, "red", "ATHENAE") == {}
    play(game, ("galley", ("SPARTA", "ATHENAE", "PELLA")))
    assert units(game, "red", "PELLA") == {"legion": 2, "galley": 1}
    # every unit has moved: the Movere goes on to conquest by itself
    assert asked(game) == ("red", "a2.conquest")


def test_a_galley_passing_an_enemy_galley_may_be_stopped_by_a_battle() -> None:
    """«если бы другая Галера переместилась первой, то Галера соперника в ATHENAE могла
    бы потребовать бой»: passing ATHENAE, the Sparta galley is asked about; yellow asks
    for the battle, and the galley ends there, destroyed with yellow's."""
    game = at_movere(PELLA, "red")
    play(game, ("galley", ("SPARTA", "ATHENAE", "PELLA")))
    assert asked(game) == ("red", "a2.battle")
    play(game, "peace")
    assert asked(game) == ("yellow", "a2.battle")
    play(game, "fight")
    assert units(game, "red", "PELLA") == {}
    assert units(game, "red", "ATHENAE") == {}
    assert units(game, "yellow", "ATHENAE") == {}


def test_with_no_battle_the_unit_goes_on() -> None:
    game = at_movere(PELLA, "red")
    play(game, ("galley", ("SPARTA", "ATHENAE", "PELLA")), "peace", "peace")
    assert units(game, "red", "PELLA") == {"galley": 1}
    assert units(game, "yellow", "ATHENAE") == {"galley": 1}


def test_a_unit_that_wins_a_battle_on_its_way_stops_there() -> None:
    """The reading chosen: units that fought stand in the region they fought in."""
    pos = {**PELLA, "units": {"red": {"SPARTA": {"galley": 2}},
                              "yellow": {"ATHENAE": {"galley": 1}}}}
    game = at_movere(pos, "red")
    play(game, ("galley", ("SPARTA", "ATHENAE")), "peace", "peace")
    play(game, ("galley", ("SPARTA", "ATHENAE", "PELLA")), "fight")
    assert units(game, "red", "ATHENAE") == {"galley": 1}
    assert units(game, "red", "PELLA") == {}
    assert units(game, "yellow", "ATHENAE") == {}


# -- refusals name the rule ---------------------------------------------------------------


def test_refusals_cite_the_book() -> None:
    game = at_movere(PELLA, "red")
    with pytest.raises(IllegalChoice, match=r"movere-move.*|share a red border") as no:
        game.apply(("galley", ("DYRRHACHION", "PELLA")))
    assert "red border" in str(no.value) and "Movere 1" in str(no.value)
    with pytest.raises(IllegalChoice, match="cross 1 border") as far:
        game.apply(("legion", ("DYRRHACHION", "PELLA", "ATHENAE")))
    assert "movere-move" in str(far.value)
    with pytest.raises(IllegalChoice, match="no legion in Sparta"):
        game.apply(("legion", ("SPARTA", "ATHENAE")))
    with pytest.raises(IllegalChoice, match="no region or sea"):
        game.apply(("legion", ("DYRRHACHION", "ATLANTIS")))
    with pytest.raises(IllegalChoice, match="is not a move"):
        game.apply(("fly", "DYRRHACHION"))


def test_units_stand_where_they_can() -> None:
    """The invariant the fuzzer checks: legions on land, galleys at sea or on a coast."""
    game = at_movere(PELLA, "red")
    assert check(game) == []
    game.state.add_units("red", "MARE_IONIUM", "legion")
    inland = next(r for r in game.rules.board.regions if not game.rules.board.coastal(r))
    game.state.add_units("red", inland, "galley")
    assert check(game) == ["red has legions at sea, in MARE_IONIUM",
                           f"red has galleys inland, in {inland}"]
