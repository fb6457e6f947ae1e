"""Militia (book 002, «MILITIA / ополчение»): a unit for 2 iron (coins for iron), in the
region of one of the nation's cities, 1 a city, 3 a city with a temple, galleys only on
the coast, within the box's 12 legions and 13 galleys; Bellona's unit is free."""

from __future__ import annotations

import pytest

from a2_helpers import asked, at_turn, options, play
from mnrules.core.effects import Event
from mnrules.errors import IllegalChoice


def events(game: object) -> list[Event]:
    seen: list[Event] = []
    game.listeners.append(seen.append)  # type: ignore[attr-defined]
    return seen


def test_bellonas_unit_is_raised_even_with_no_iron_at_all() -> None:
    """«...получает дополнительную воинскую часть бесплатно»: the free unit needs no iron;
    after it, with nothing to pay with, the action is over."""
    game = at_turn({"cities": {"ROMA": "yellow temple"}, "bellona": "yellow",
                    "order": ["yellow", "green", "blue", "black"]}, "yellow")
    seen = events(game)
    play(game, "militia")
    assert asked(game) == ("yellow", "a2.militia")
    assert "1 free" in game.pending.prompt  # type: ignore[union-attr]
    assert options(game) == {("done",), ("legion", "ROMA"), ("galley", "ROMA")}
    play(game, ("legion", "ROMA"))
    assert asked(game) != ("yellow", "a2.militia")
    assert game.state.units["yellow"]["ROMA"]["legion"] == 1
    assert [(e.kind, e.data.get("free"), e.data.get("raised")) for e in seen
            if e.kind in ("raise", "militia")] == [("raise", True, None),
                                                   ("militia", None, 1)]
    assert game.state.bellona == "black"


def test_without_bellona_every_unit_is_paid_and_none_is_free() -> None:
    game = at_turn({"cities": {"ROMA": "yellow temple"}, "bellona": "green",
                    "stock": {"yellow": {"iron": 1}}}, "yellow")
    play(game, "militia")
    assert asked(game) != ("yellow", "a2.militia")  # 1 iron buys nothing
    assert game.state.stock["yellow"]["iron"] == 1


def test_a_city_without_a_temple_takes_one_new_unit_even_a_free_one() -> None:
    """«Указанные пределы применяются только к новым воинским частям»: units already
    there do not count; Bellona's unit counts against the city's one."""
    game = at_turn({"cities": {"LUGDUNUM": "yellow"}, "bellona": "yellow",
                    "units": {"yellow": {"LUGDUNUM": {"legion": 3}}},
                    "stock": {"yellow": {"iron": 6}}}, "yellow")
    play(game, "militia")
    assert options(game) == {("done",), ("legion", "LUGDUNUM")}
    play(game, ("legion", "LUGDUNUM"))
    assert game.state.units["yellow"]["LUGDUNUM"]["legion"] == 4
    assert game.state.stock["yellow"]["iron"] == 6
    assert asked(game) != ("yellow", "a2.militia")


def test_done_ends_the_militia_with_iron_left() -> None:
    game = at_turn({"cities": {"ROMA": "yellow temple"}, "bellona": "green",
                    "stock": {"yellow": {"iron": 6}}}, "yellow")
    seen = events(game)
    play(game, "militia", ("galley", "ROMA"), ("done",))
    assert asked(game) != ("yellow", "a2.militia")
    assert game.state.stock["yellow"]["iron"] == 4
    assert [e.data["raised"] for e in seen if e.kind == "militia"] == [1]


def test_the_box_holds_thirteen_galleys_a_nation() -> None:
    game = at_turn({"cities": {"ROMA": "yellow temple"}, "bellona": "green",
                    "units": {"yellow": {"NEAPOLIS": {"galley": 13}}},
                    "stock": {"yellow": {"iron": 6}}}, "yellow")
    play(game, "militia")
    assert options(game) == {("done",), ("legion", "ROMA")}
    with pytest.raises(IllegalChoice, match="yellow cannot raise \\('galley', 'ROMA'\\) now"):
        game.apply(("galley", "ROMA"))


def test_no_unit_in_another_nations_city() -> None:
    game = at_turn({"cities": {"ROMA": "yellow", "NEAPOLIS": "green temple"},
                    "bellona": "green", "stock": {"yellow": {"iron": 6}}}, "yellow")
    play(game, "militia")
    assert {o[1] for o in options(game) if o[0] != "done"} == {"ROMA"}


def test_the_boxs_last_legion_and_last_galley_may_be_raised() -> None:
    """The box holds 12 legions and 13 galleys a nation: with 11 and 12 out, one of each
    is still there to raise."""
    game = at_turn({"cities": {"ROMA": "yellow temple"}, "bellona": "green",
                    "units": {"yellow": {"LUGDUNUM": {"legion": 11},
                                         "NEAPOLIS": {"galley": 12}}},
                    "stock": {"yellow": {"iron": 6}}}, "yellow")
    play(game, "militia")
    assert options(game) == {("done",), ("legion", "ROMA"), ("galley", "ROMA")}
    play(game, ("legion", "ROMA"))
    assert options(game) == {("done",), ("galley", "ROMA")}


def test_a_unit_raised_is_pointed_at_on_the_map_by_its_city() -> None:
    game = at_turn({"cities": {"ROMA": "yellow", "NEAPOLIS": "yellow"},
                    "rondel": {"yellow": "ferrum"},
                    "stock": {"yellow": {"iron": 4}}}, "yellow")
    game.apply("militia")
    dec = game.pending
    assert dec is not None and dec.kind == "a2.militia"
    raised = [o for o in dec.options if o[0] != "done"]
    assert raised
    for option in raised:
        assert game.rules.definition.presentation.option_places(
            game=game, decision=dec, option=option) == [option[1]]
