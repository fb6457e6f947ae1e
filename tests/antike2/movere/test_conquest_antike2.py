"""Movere, step 2 (book 002, "2. Завоевание"): conquering cities and neutral temples, as
the book's examples do it — GESOCRIBATE (defence 2, taken by 2 legions: the attacker
wins ties), PELLA (a temple destroyed, a general), and the note on Regnum."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from antike2.conquest import defence, defence_parts
from antike2.state import UNITS, Game
from antike2.supply import cities_of, units_out
from mnrules import new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.core.invariants import check
from mnrules.errors import IllegalChoice
from test_movere import PELLA, asked, at_movere, options, play, units, war_rules

GESOCRIBATE = {"cities": {"GESOCRIBATE": "yellow", "ROMA": "yellow", "LUTETIA": "red",
                          "LUGDUNUM": "red"},
               "neutral": [],
               "units": {"red": {"LUTETIA": {"legion": 2}},
                         "yellow": {"GESOCRIBATE": {"galley": 1}}},
               "personages": {"yellow": ["king", "king", "citizen"],
                              "red": ["king", "king", "king"]}}


def conquer_pella(extra: dict[str, Any] | None = None) -> Game:
    game = at_movere({**PELLA, **(extra or {})}, "red")
    play(game, ("legion", ("DYRRHACHION", "PELLA")), ("legion", ("DYRRHACHION", "PELLA")),
         ("galley", ("DYRRHACHION", "SPARTA", "ATHENAE")), "fight",
         ("galley", ("SPARTA", "ATHENAE", "PELLA")))
    return game


def test_gesocribate_defence_two_taken_by_two_legions() -> None:
    """«Сила обороны GESOCRIBATE 2 (1 за город + 1 за Галеру). Город завоеван, потому что
    у красного 2 Легиона в регионе, а при равной силе побеждает нападающий. Жетон города
    заменяется и оба Легиона и Галера уходят в резерв»."""
    game = at_movere(GESOCRIBATE, "red")
    play(game, ("legion", ("LUTETIA", "GESOCRIBATE")),
         ("legion", ("LUTETIA", "GESOCRIBATE")))
    assert defence(game, "GESOCRIBATE") == 2
    assert defence_parts(game, "GESOCRIBATE") == [("a city", 1), ("1 defending unit", 1)]
    assert asked(game) == ("red", "a2.conquest")
    assert options(game) == {("done",), ("conquer", "GESOCRIBATE")}
    play(game, ("conquer", "GESOCRIBATE"))
    assert game.state.cities["GESOCRIBATE"] == {"owner": "red", "resource": "iron",
                                                "temple": False}
    assert units(game, "red", "GESOCRIBATE") == {}
    assert units(game, "yellow", "GESOCRIBATE") == {}
    assert game.state.destroyed["red"] == 0


def test_gesocribate_with_one_more_defender_cannot_be_taken() -> None:
    """«Если бы у желтого в этом регионе было еще одно подразделение, то сила обороны
    была бы 3 и завоевание не было бы возможным»."""
    pos = {**GESOCRIBATE, "units": {"red": {"LUTETIA": {"legion": 2}, "NARBO": {"legion": 1}},
                                    "yellow": {"GESOCRIBATE": {"galley": 2}}}}
    game = at_movere(pos, "red")
    play(game, ("legion", ("LUTETIA", "GESOCRIBATE")),
         ("legion", ("LUTETIA", "GESOCRIBATE")), ("done",))
    assert defence(game, "GESOCRIBATE") == 3
    assert game.state.cities["GESOCRIBATE"]["owner"] == "yellow"
    assert asked(game) != ("red", "a2.conquest")


def test_the_refusal_counts_the_defence() -> None:
    pos = {**GESOCRIBATE, "units": {"red": {"GESOCRIBATE": {"legion": 2},
                                            "LUGDUNUM": {"legion": 1}},
                                    "yellow": {"GESOCRIBATE": {"galley": 2}},
                                    "green": {"EMERITA": {"legion": 1}}},
           "cities": {**GESOCRIBATE["cities"], "EMERITA": "green", "NUMANTIA": "green"}}
    game = at_movere(pos, "red")
    play(game, ("legion", ("LUGDUNUM", "LUTETIA")), ("done",))
    # red could conquer nothing: the step does not ask; refusals are read from the rule
    from antike2.conquest import refusal

    rule, why = refusal(game, "red", "GESOCRIBATE") or (None, "")
    assert rule is not None and rule.id == "conquest" and "Завоевание" in rule.sections
    assert why == ("Gesocribate's defence is 3 (1 for a city + 2 for 2 defending units) "
                   "and Red has 2 units there")


def test_pella_temple_destroyed_and_a_general() -> None:
    """«Сила защиты PELLA равна 3 (город с Храмом). Поэтому все 3 воинские части будут
    уничтожены. Храм разрушен ... Маркер города заменен цветом нового владельца с тем же
    типом ресурсов. Так как Красный разрушил Храм, то он получает ... GENERAL»."""
    game = conquer_pella()
    assert defence(game, "PELLA") == 3
    temples = sum(1 for c in game.state.cities.values() if c["temple"])
    play(game, ("conquer", "PELLA"))
    assert game.state.cities["PELLA"] == {"owner": "red", "resource": "marble",
                                          "temple": False}
    assert units(game, "red", "PELLA") == {}
    assert game.state.destroyed["red"] == 1
    assert sum(1 for c in game.state.cities.values() if c["temple"]) == temples - 1
    # the personages are taken at the end of the turn: red's general
    assert game.state.personages["red"].count("general") == 1


def test_the_regnum_note_defence_would_be_four() -> None:
    """«Если бы желтый владел Ноу-Хау REGNUM, то завоевание PELLA не было бы возможным;
    оборонительная сила была бы 4»."""
    game = conquer_pella({"know_how": {"red": ["navigatio"], "yellow": ["regnum"]}})
    assert defence(game, "PELLA") == 4
    assert defence_parts(game, "PELLA")[-1] == ("its know-how", 1)
    assert game.state.cities["PELLA"]["owner"] == "yellow"
    assert asked(game) != ("red", "a2.conquest")


def test_res_publica_adds_two() -> None:
    game = conquer_pella({"know_how": {"red": ["navigatio"],
                                       "yellow": ["regnum", "res_publica"]}})
    assert defence(game, "PELLA") == 5


def test_a_nation_with_two_personages_or_fewer_defends_at_one_more() -> None:
    """«+1, если обороняющаяся нация обладает 2 или менее древними персонажами»."""
    game = conquer_pella({"personages": {"yellow": ["king", "king"]}})
    assert defence(game, "PELLA") == 4
    assert ("Yellow holds 2 personages", 1) in defence_parts(game, "PELLA")


def test_a_nations_last_city_cannot_be_conquered() -> None:
    """«Последний оставшийся у нации город не может быть завоеван»."""
    pos = {**GESOCRIBATE, "cities": {"GESOCRIBATE": "yellow", "LUTETIA": "red"}}
    game = at_movere({**pos, "units": {"red": {"LUTETIA": {"legion": 2},
                                               "GESOCRIBATE": {"legion": 2}},
                                       "yellow": {"GESOCRIBATE": {"galley": 1}}}}, "red")
    from antike2.conquest import conquerable, refusal

    assert conquerable(game, "red") == []
    rule, why = refusal(game, "red", "GESOCRIBATE") or (None, "")
    assert rule is not None and rule.id == "last-city"
    assert why == "Gesocribate is Yellow's last city"


def test_a_neutral_temple_defends_at_three() -> None:
    """«Сила обороны нейтральных храмов - 3»: three units destroy it, a general's count."""
    pos = {"cities": {"LUGDUNUM": "red", "BURDIGALA": "red"}, "neutral": ["LUTETIA"],
           "units": {"red": {"LUGDUNUM": {"legion": 3}}},
           "personages": {"red": ["king", "king", "king"]}}
    game = at_movere(pos, "red")
    for _ in range(3):
        play(game, ("legion", ("LUGDUNUM", "LUTETIA")))
    assert defence(game, "LUTETIA") == 3
    play(game, ("conquer", "LUTETIA"))
    assert "LUTETIA" not in game.state.neutral
    assert "LUTETIA" not in game.state.cities
    assert game.state.destroyed["red"] == 1
    assert units(game, "red", "LUTETIA") == {}


def test_two_legions_cannot_take_a_neutral_temple() -> None:
    pos = {"cities": {"LUGDUNUM": "red"}, "neutral": ["LUTETIA"],
           "units": {"red": {"LUGDUNUM": {"legion": 2}, "LUTETIA": {"legion": 2}}}}
    game = at_movere(pos, "red")
    play(game, ("done",))
    assert game.state.neutral == ["LUTETIA"]
    assert units(game, "red", "LUTETIA") == {"legion": 2}


def test_the_conqueror_chooses_the_kind_of_his_losses() -> None:
    """«Он может выбрать, какой тип войск удалить (Легион или Галеру), если имеет их
    больше, чем необходимо в этом регионе»."""
    pos = {**GESOCRIBATE, "units": {"red": {"GESOCRIBATE": {"legion": 2, "galley": 2}},
                                    "yellow": {"GESOCRIBATE": {"galley": 1}}}}
    game = at_movere(pos, "red")
    play(game, ("done",), ("conquer", "GESOCRIBATE"))
    assert asked(game) == ("red", "a2.losses")
    assert options(game) == {("lose", 0, 2), ("lose", 1, 1), ("lose", 2, 0)}
    with pytest.raises(IllegalChoice, match="conquest-losses"):
        game.apply(("lose", 3, 0))
    play(game, ("lose", 0, 2))
    assert units(game, "red", "GESOCRIBATE") == {"legion": 2}


def test_conquest_refusals_name_the_rule() -> None:
    game = at_movere({**GESOCRIBATE, "units": {
        "red": {"GESOCRIBATE": {"legion": 2}, "LUTETIA": {"legion": 1},
                "NARBO": {"legion": 1}},
        "yellow": {"GESOCRIBATE": {"galley": 1}}}}, "red")
    play(game, ("done",))
    with pytest.raises(IllegalChoice, match=r"no city nor neutral temple.*\[conquest\]"):
        game.apply(("conquer", "NARBO"))
    with pytest.raises(IllegalChoice, match="the city of Lutetia is Red's own"):
        game.apply(("conquer", "LUTETIA"))
    with pytest.raises(IllegalChoice, match="no region of the board"):
        game.apply(("conquer", "ATLANTIS"))


# -- properties over random games ---------------------------------------------------------


def _random_game(seed: int, players: int, choices: int) -> None:
    rules = war_rules()
    game: Game = new_game(rules, players=players, seed=seed)  # type: ignore[assignment]
    bots = {p: RandomBot(seed * 31 + i) for i, p in enumerate(game.state.players)}
    box = {u: int(rules.components[u]) for u in UNITS}
    for _ in range(choices):
        dec = game.pending
        if dec is None:
            break
        game.apply(bots[dec.player].choose(game))
        state = game.state
        assert not check(game)
        for nation in state.players:
            assert cities_of(state, nation), f"{nation} lost its last city"
            for unit in UNITS:
                assert 0 <= units_out(state, nation, unit) <= box[unit]
            for kinds in state.units.get(nation, {}).values():
                assert all(n > 0 for n in kinds.values())


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), players=st.sampled_from([3, 4, 5, 6]))
def test_random_war_keeps_the_box_and_every_nations_last_city(seed: int, players: int) -> None:
    """Units are never negative nor more than the box's; no nation ever loses its last
    city; every invariant holds after each choice."""
    _random_game(seed, players, 1500)
