"""The map's geometry for one player, as the books define it (FR 3.5, 4.1.2; NL/PL/UK
3.1.1, 4.1.2; digest §3): a province reaches the provinces adjacent to it and those
*connected* with it, that is linked by a continuous chain of seas each holding at least
one of the player's triremes (enemy triremes in those seas do not break it); only
provinces in play are reachable. Cards that lengthen a march (steps of reach, seas
crossed without triremes) and a trireme's move (seas within range) are measured here
too, through the Move & Fight turn that offers them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import pending, play
from mare_nostrum import position as pos
from mare_nostrum.geometry import Reach, connected, reachable
from mnrules import Game, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Modifier
from mnrules.hooks.hookspecs import hookimpl
from test_movement import empty_board, moves

SEAS = ("MARE AEGAEUM", "MARE AEGYPTIUM", "MARE AFRICUM", "MARE CYPRIUM",
        "MARE HADRIATICUM", "MARE IONIUM", "MARE SARDUM", "MARE TYRRHENUM", "PONTUS EUXINUS")


def chained_shores(board: Any, fleet: set[str], province: str) -> set[str]:
    """The definition (digest §3): seas S1..Sk, each with one of his triremes, S1 beside
    the province, each next to the one before; every province on their shores."""
    start = [s for s in board.provinces[province].seas if s in fleet]
    seen = set(start)
    while start:
        sea = start.pop()
        for nxt in board.seas[sea].neighbours:
            if nxt in fleet and nxt not in seen:
                seen.add(nxt)
                start.append(nxt)
    return {p for sea in seen for p in board.provinces_on_sea(sea)} - {province}


def fleet_game(rules: Ruleset, fleet: dict[str, str], players: int = 5) -> Game:
    """An empty board with one trireme of each (sea -> owner) of ``fleet``."""
    game = empty_board(rules, players)
    for sea, who in fleet.items():
        pos.add_units(game, who, sea, "trireme")
    return game


# -- adjacency and chains ---------------------------------------------------------------------
def test_without_triremes_a_province_reaches_only_its_land_neighbours(rules: Ruleset) -> None:
    """Latium borders Gallia and Italia; its shores lead nowhere without triremes."""
    game = empty_board(rules)
    assert reachable(game, "rome", "LATIUM") == {"GALLIA", "ITALIA"}
    assert connected(game, "rome", "LATIUM") == set()


def test_a_chain_of_two_seas_connects_every_shore_of_both(rules: Ruleset) -> None:
    """Roman triremes in Mare Tyrrhenum and the adjacent Mare Sardum: from Latium every
    province on either sea is connected (Africa and Numidia too, two seas away), none on
    a sea beyond the chain (Mare Ionium's Achaea)."""
    game = fleet_game(rules, {"MARE TYRRHENUM": "rome", "MARE SARDUM": "rome"})
    assert connected(game, "rome", "LATIUM") == {"GALLIA", "ITALIA", "SICILIA", "AFRICA",
                                                  "NUMIDIA"}
    assert "ACHAEA" not in reachable(game, "rome", "LATIUM")
    # the chain runs both ways: Numidia reaches Latium over the same two seas
    assert "LATIUM" in reachable(game, "rome", "NUMIDIA")


def test_only_the_players_own_triremes_make_a_chain(rules: Ruleset) -> None:
    """Carthaginian triremes in Mare Tyrrhenum carry no Roman legion; a Roman trireme
    beside an enemy one still does (4.1.2 example: Mare Africum)."""
    game = fleet_game(rules, {"MARE TYRRHENUM": "carthage"})
    assert connected(game, "rome", "LATIUM") == set()
    assert connected(game, "carthage", "LATIUM") == {"GALLIA", "ITALIA", "SICILIA"}
    pos.add_units(game, "rome", "MARE TYRRHENUM", "trireme")
    assert connected(game, "rome", "LATIUM") == {"GALLIA", "ITALIA", "SICILIA"}


def test_a_gap_between_fleets_breaks_the_chain(rules: Ruleset) -> None:
    """Mare Tyrrhenum and Mare Africum are not adjacent: a Roman trireme in each makes
    two chains. Latium reaches Sicilia (on both) but not Crete or Cyrenaica (Africum
    only); Cyrenaica reaches Africum's shores and not Latium."""
    game = fleet_game(rules, {"MARE TYRRHENUM": "rome", "MARE AFRICUM": "rome"})
    assert connected(game, "rome", "LATIUM") == {"GALLIA", "ITALIA", "SICILIA"}
    assert connected(game, "rome", "CYRENAICA") == {"AFRICA", "CRETE", "LIBYA", "SICILIA"}
    # a province on both chains reaches the shores of both
    assert connected(game, "rome", "SICILIA") == {"GALLIA", "ITALIA", "LATIUM", "AFRICA",
                                                   "CRETE", "CYRENAICA", "LIBYA"}


def test_a_long_chain_links_its_far_ends(rules: Ruleset) -> None:
    """Four seas in a row (Hadriaticum, Ionium, Africum, Aegyptium): Latium is connected
    with Aegyptus at the far end, and with nothing on Mare Aegaeum beside the chain."""
    game = fleet_game(rules, dict.fromkeys(("MARE HADRIATICUM", "MARE IONIUM", "MARE AFRICUM",
                                            "MARE AEGYPTIUM"), "rome"))
    far = connected(game, "rome", "LATIUM")
    assert {"AEGYPTUS", "JUDAEA", "CYRENAICA", "ACHAEA", "DALMATIA"} <= far
    assert {"THRACIA", "ASIA"}.isdisjoint(far)


def test_provinces_out_of_play_are_connected_but_never_reached(rules: Ruleset) -> None:
    """With three players Cyrenaica, Aegyptus, Crete and Judaea are out of play: Roman
    triremes in Mare Aegaeum and Mare Aegyptium connect Achaea with them all, but Achaea
    reaches only the Aegean shores in play (setup 1: provinces out of play take no part
    in the game)."""
    game = fleet_game(rules, {"MARE AEGAEUM": "rome", "MARE AEGYPTIUM": "rome"}, players=3)
    assert "CYRENAICA" not in game.state.built
    assert connected(game, "rome", "ACHAEA") >= {"CYRENAICA", "AEGYPTUS", "CRETE", "JUDAEA"}
    assert reachable(game, "rome", "ACHAEA") == {"MACEDONIA", "THRACIA", "ASIA"}


def test_a_province_never_reaches_itself(rules: Ruleset) -> None:
    game = fleet_game(rules, {"MARE TYRRHENUM": "rome"})
    assert "LATIUM" not in reachable(game, "rome", "LATIUM")
    assert "LATIUM" not in connected(game, "rome", "LATIUM")


@pytest.fixture(scope="module")
def boards(rules: Ruleset) -> dict[int, Game]:
    """Empty boards with three, four and five players (the provinces in play differ)."""
    return {n: new_game(rules, n, seed=1) for n in (3, 4, 5)}


@settings(max_examples=60, deadline=None)
@given(fleet=st.sets(st.sampled_from(SEAS)), players=st.sampled_from((3, 4, 5)),
       data=st.data())
def test_reach_is_the_books_definition(boards: dict[int, Game], fleet: set[str],
                                       players: int, data: st.DataObject) -> None:
    """For any fleet and province: reachable = (land neighbours ∪ the shores of the chain
    of seas holding his triremes that touches it) ∩ provinces in play, minus itself;
    connected = those shores, in play or not. Asked of many provinces with one Reach
    (its remembered answers) and of each afresh."""
    game = boards[players]
    board = game.rules.board
    reach = Reach(game, "rome", fleet)
    live = set(game.state.built)
    for province in data.draw(st.lists(st.sampled_from(sorted(live)), min_size=1,
                                       max_size=6)):
        chain = chained_shores(board, fleet, province)
        want = ((set(board.provinces[province].neighbours) | chain) & live) - {province}
        assert reach(province) == want
        assert reach.connected(province) == chain
        assert Reach(game, "rome", fleet)(province) == want


# -- cards that stretch a move ----------------------------------------------------------------
class Stretch:
    """A card for Rome: its legions march ``steps`` steps and cross ``seas`` seas without
    triremes; its triremes sail ``sail`` seas."""

    MODIFIES = frozenset({"move.range", "move.sea_crossing", "move.trireme_range"})

    def __init__(self, steps: int = 1, seas: int = 0, sail: int = 1) -> None:
        self.by = {"move.range": steps - 1, "move.sea_crossing": seas,
                   "move.trireme_range": sail - 1}

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        add = self.by.get(quantity, 0)
        if ctx.get("player") == "rome" and add:
            return Modifier("test:stretch", lambda v: v + add)
        return None


def legion_from(rules: Ruleset, start: str, fleet: tuple[str, ...] = ()) -> set[str]:
    """Where Rome's one legion in ``start`` may go on its Move & Fight turn."""
    game = empty_board(rules)
    pos.add_units(game, "rome", start, "legion")
    for sea in fleet:
        pos.add_units(game, "rome", sea, "trireme")
    pos.start_phase(game, "military")
    play(game, "rome")
    while pending(game)[1] != "military.legion":
        play(game, ("done",))
    return {to for frm, to in moves(game) if frm == start}


def stretched(fresh_rules: Callable[..., Ruleset], **card: int) -> Ruleset:
    rules = fresh_rules()
    rules.pm.register(Stretch(**card), name="test:stretch")
    return rules


def test_crossing_one_sea_reaches_the_shores_of_the_seas_beside_the_province(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """"Cross one sea without triremes": from Latium, every province on Mare Hadriaticum
    and Mare Tyrrhenum (its two seas), besides its neighbours; nothing a second sea away
    (Mare Ionium's Achaea, Mare Sardum's Numidia)."""
    got = legion_from(stretched(fresh_rules, seas=1), "LATIUM")
    assert got == {"GALLIA", "ITALIA", "DALMATIA", "MACEDONIA", "SICILIA"}


def test_crossing_two_seas_reaches_one_sea_farther(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """Two seas: also the shores of the seas next to Latium's (Ionium: Achaea; Sardum:
    Africa, Numidia), but not three seas away (Mare Africum's Crete and Cyrenaica)."""
    got = legion_from(stretched(fresh_rules, seas=2), "LATIUM")
    assert got == {"GALLIA", "ITALIA", "DALMATIA", "MACEDONIA", "SICILIA", "ACHAEA",
                   "AFRICA", "NUMIDIA"}


def test_marching_two_steps_goes_two_provinces_and_no_sea_farther(
        fresh_rules: Callable[..., Ruleset], rules: Ruleset) -> None:
    """Two steps and no triremes: from Latium, its neighbours and theirs, by land only
    (no province across Latium's seas)."""
    plain = legion_from(rules, "LATIUM")
    assert plain == {"GALLIA", "ITALIA"}
    two = legion_from(stretched(fresh_rules, steps=2), "LATIUM")
    board = rules.board
    assert two == ({n for p in plain for n in board.provinces[p].neighbours} | plain) \
        - {"LATIUM"}


def test_a_longer_march_also_takes_the_chain_at_each_step(
        fresh_rules: Callable[..., Ruleset]) -> None:
    """Two steps with a trireme in Mare Sardum: from Africa, over the chain to Sicilia,
    then on from Sicilia's neighbours; each step is a step of reach."""
    rules = stretched(fresh_rules, steps=2)
    got = legion_from(rules, "AFRICA", ("MARE SARDUM",))
    game = empty_board(rules)
    pos.add_units(game, "rome", "MARE SARDUM", "trireme")
    one = reachable(game, "rome", "AFRICA")
    assert got == (one | {x for p in one for x in reachable(game, "rome", p)}) - {"AFRICA"}
    assert got > one


def test_a_trireme_sailing_two_seas_reaches_every_sea_two_moves_away(
        fresh_rules: Callable[..., Ruleset], rules: Ruleset) -> None:
    """A trireme in Mare Tyrrhenum moves to an adjacent sea (4.1.1); sailing two, it also
    reaches the seas next to those, and no farther (not Mare Aegyptium)."""
    def trireme_moves(r: Ruleset) -> set[str]:
        game = empty_board(r)
        pos.add_units(game, "rome", "MARE TYRRHENUM", "trireme")
        pos.start_phase(game, "military")
        play(game, "rome")
        assert pending(game)[1] == "military.trireme"
        return {to for frm, to in moves(game) if frm == "MARE TYRRHENUM"}

    assert trireme_moves(rules) == {"MARE IONIUM", "MARE SARDUM"}
    assert trireme_moves(stretched(fresh_rules, sail=2)) == {
        "MARE IONIUM", "MARE SARDUM", "MARE AEGAEUM", "MARE AFRICUM", "MARE HADRIATICUM"}
