"""The leadership tracks (FR 3.8, 5; NL/PL/UK 3.1.4, 5; digest §4.3, §10): Trade =
caravans + markets, Culture = cities + capitals + legendary cities + temples, Military
= legions + triremes + fortresses, occupied buildings for the occupier, plus the
bonuses printed on a player's heroes and wonders; and what a variant may change of it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from mare_nostrum import position as pos
from mare_nostrum.tracks import counted, levels
from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.errors import MnrulesError
from test_movement import empty_board

BUILDINGS = ("caravan", "market", "city", "capital", "legendary", "temple")
UNITS = ("legion", "trireme", "fortress")


def test_the_starting_tracks_are_the_books(rules: Ruleset) -> None:
    """§4.3: Rome 7/1/3, Greece 4/4/3, Babylon 5/3/2, Egypt 4/4/2, Carthage 7/1/2 (the
    starting heroes give no bonus)."""
    game = new_game(rules, 5, seed=1)
    assert {p: (lv["trade"], lv["culture"], lv["military"])
            for p, lv in levels(game).items()} == {
        "rome": (7, 1, 3), "greece": (4, 4, 3), "babylon": (5, 3, 2), "egypt": (4, 4, 2),
        "carthage": (7, 1, 2)}


def test_a_heros_printed_bonuses_add_to_his_owners_tracks(rules: Ruleset) -> None:
    """The Queen of Sheba prints +1 culture and +1 military: Greece's tracks rise by one
    each, over what his pieces count; nobody else's move."""
    game = new_game(rules, 5, seed=1)
    before = levels(game)
    pos.give_tiles(game, "greece", "queen_of_sheba")
    after = levels(game)
    assert after["greece"] == {**before["greece"], "culture": before["greece"]["culture"] + 1,
                               "military": before["greece"]["military"] + 1}
    assert counted(game)["greece"] == counted(game)["greece"] | {
        "culture": after["greece"]["culture"] - 1}
    assert {p: lv for p, lv in after.items() if p != "greece"} == \
        {p: lv for p, lv in before.items() if p != "greece"}


def test_an_occupied_building_counts_for_its_occupier(rules: Ruleset) -> None:
    """4.3.2 (EX-CONQ-3): Rome's legion on Egypt's caravan in Cyrenaica moves one trade
    from Egypt to Rome; the legion counts for Rome's military."""
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    i = pos.build(game, "CYRENAICA", "caravan:papyrus")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    before = counted(game)
    game.state.occupied["CYRENAICA"][i] = "rome"
    after = counted(game)
    assert after["rome"]["trade"] == before["rome"]["trade"] + 1
    assert after["egypt"]["trade"] == before["egypt"]["trade"] - 1


def test_the_report_names_a_players_titles_and_levels(rules: Ruleset) -> None:
    """What a player reads of himself: his three levels and the titles he holds (Rome
    starts as military leader, §4.3)."""
    game = new_game(rules, 5, seed=1)
    report = game.report()["rome"]
    assert (report["trade"], report["culture"], report["military"]) == (7, 1, 3)
    assert report["titles"] == ["military"]
    game.state.titles.update(trade="rome", culture="rome", military="greece")
    assert [game.report()[p]["titles"] for p in ("rome", "greece", "egypt")] == [
        ["trade", "culture"], ["military"], []]


EMPIRES = ("rome", "greece", "babylon", "egypt", "carthage")


def counting_nothing_on(tmp_path: Path, track: str, param: str) -> Path:
    """A variant where nothing counts on ``track``, its board's starting levels there
    patched to 0 (the books' figures no longer bind such a game)."""
    kinds = {"track_units": "{military: []}",
             "track_buildings": "{trade: [caravan, market], culture: []}"}[param]
    levels = ", ".join(f"empires.{e}.tracks.{track}: 0" for e in EMPIRES)
    path = tmp_path / "v.yaml"
    path.write_text(f"params:\n  {param}: {kinds}\npatch:\n  board: {{{levels}}}\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize(("track", "param"), [("military", "track_units"),
                                              ("culture", "track_buildings")])
def test_a_variant_may_count_nothing_on_a_track(tmp_path: Path, track: str,
                                                param: str) -> None:
    """A variant where no unit counts for military (or no building for culture): that
    track is what the tiles print (nothing, at the start); Rome's trade counts as
    before; the Queen of Sheba's printed +1 still shows."""
    rules = load_ruleset("en", variant=str(counting_nothing_on(tmp_path, track, param)))
    game = new_game(rules, 5, seed=1)
    assert {p: lv[track] for p, lv in levels(game).items()} == dict.fromkeys(
        game.state.players, 0)
    assert levels(game)["rome"]["trade"] == 7
    pos.give_tiles(game, "rome", "queen_of_sheba")
    assert levels(game)["rome"][track] == 1


@pytest.mark.parametrize(("param", "value"), [
    ("track_buildings", {"trade": [*BUILDINGS, "caravan"], "culture": []}),
    ("track_units", {"military": [*UNITS, "legion"]}),
])
def test_a_track_lists_each_kind_at_most_once(fresh_rules: Callable[..., Ruleset], param: str,
                                             value: object) -> None:
    """There are six kinds of building and three of unit: a longer list repeats one
    and is refused when the variant is read."""
    with pytest.raises(MnrulesError, match=param):
        fresh_rules(**{param: value})
