"""Conquest, as the rulebooks continue the Roman story (EX-CONQ-1 to -5, -7).

Most tests start from the state after EX-MOVE-3: two Roman legions alone in
CYRENAICA (Egyptian marker, a papyrus caravan in slot 0, a market in slot 1, a city in
slot 2, no temple), Roman triremes in MARE IONIUM and MARE AFRICUM linking it to ITALIA.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conftest import advance_to, pending, play
from mare_nostrum.position import add_units, build, give, set_marker, start_phase
from mare_nostrum.tracks import levels
from mare_nostrum.victory import great_cities
from mnrules import Game, IllegalChoice
from mnrules.content.ruleset import Ruleset, load_ruleset
from mnrules.core.effects import Event
from test_movement import cyr, empty_board, rome_transports, units

CARAVAN, MARKET, CITY = 0, 1, 2


def after_ex_move_3(rules: Ruleset) -> Game:
    game = cyr(rules)
    game.force("land die", [5, 4, 3, 3])  # the book's dice; Caesar makes Rome's 15
    rome_transports(game)
    play(game, "fortress")
    assert units(game, "CYRENAICA") == {"rome": {"legion": 2}}
    assert pending(game) == ("rome", "conquest.choose")
    return game


def tracks(game: Game, player: str) -> tuple[int, int, int]:
    lv = levels(game)[player]
    return lv["trade"], lv["culture"], lv["military"]


def finish_phase(game: Game) -> None:
    """The rest of the phase with the first option each time ("done", "pass", ...)."""
    phase = game.state.phase
    while game.state.phase == phase and game.pending is not None:
        play(game, game.legal()[0])


def keep_titles(game: Game) -> object:
    """First options, except that a tied title stays with its holder."""
    dec = game.pending
    assert dec is not None
    if dec.kind == "claims.tie" and dec.player in dec.options:
        return dec.player
    return dec.options[0]


def collections(game: Game) -> dict[int, dict[str, dict[str, int]]]:
    """From now on, what each player collects in each round's Phase 1."""
    log: dict[int, dict[str, dict[str, int]]] = {}

    def seen(e: Event) -> None:
        if e.kind == "collected" and e.player is not None:
            log.setdefault(game.state.round, {})[e.player] = dict(e.data["resources"])
    game.listeners.append(seen)
    return log


# -- EX-CONQ-1 --------------------------------------------------------------------------------
def test_ex_conq_1_pillage_the_caravan_for_a_papyrus(rules: Ruleset) -> None:
    game = after_ex_move_3(rules)
    assert game.legal() == (("pass",), ("pillage", CARAVAN), ("pillage", MARKET),
                            ("pillage", CITY), ("occupy", CARAVAN), ("occupy", MARKET),
                            ("occupy", CITY), ("marker",))
    supply = dict(game.state.supply)
    egypt_before = tracks(game, "egypt")
    play(game, ("pillage", CARAVAN))
    assert game.state.screens["rome"] == {"papyrus": 1}
    assert game.state.supply["papyrus"] == supply["papyrus"] - 1
    assert game.state.supply["caravan"] == supply["caravan"] + 1  # back, to be rebuilt
    # Exactly one building is destroyed; the market and the city stay Egyptian.
    assert game.state.built["CYRENAICA"] == [False, True, True, False]
    assert game.state.occupied["CYRENAICA"] == [None, None, None, None]
    assert game.state.control["CYRENAICA"] == "egypt"
    assert tracks(game, "egypt") == (egypt_before[0] - 1, egypt_before[1], egypt_before[2])
    assert pending(game) == ("rome", "military.next")  # one choice only: Rome's turn is over
    # Next Collect: Egypt's city gives 1 coin, its market alone nothing.
    log = collections(game)
    advance_to(game, "trade.token", keep_titles)
    assert log[2]["egypt"] == {"coin": 1}
    assert log[2]["rome"] == {}


def test_pillage_takes_only_what_the_supply_has(rules: Ruleset) -> None:
    game = after_ex_move_3(rules)
    give(game, "greece", {"papyrus": game.state.supply["papyrus"]})
    play(game, ("pillage", CARAVAN))
    assert game.state.screens["rome"] == {}
    assert game.state.built["CYRENAICA"][CARAVAN] is False


# -- EX-CONQ-2 and -3 -------------------------------------------------------------------------
@pytest.mark.parametrize(("occupy", "rome_gets", "egypt_gets", "trade_shift"), [
    ([CARAVAN, MARKET], {"papyrus": 2}, {"coin": 1}, 2),            # the book's example
    ([CARAVAN], {"papyrus": 1}, {"coin": 1}, 1),                    # Egypt's market: no use
    ([MARKET], {}, {"papyrus": 1, "coin": 1}, 1),                   # a market alone: nothing
], ids=["caravan+market", "caravan", "market"])
def test_ex_conq_2_occupy_buildings(rules: Ruleset, occupy: list[int],
                                    rome_gets: dict[str, int], egypt_gets: dict[str, int],
                                    trade_shift: int) -> None:
    game = after_ex_move_3(rules)
    rome_before, egypt_before = tracks(game, "rome"), tracks(game, "egypt")
    play(game, ("occupy", occupy[0]))
    if len(occupy) == 2:
        # One legion per building: the second legion may occupy one more, then none is free.
        assert game.legal() == (("done",), ("occupy", MARKET), ("occupy", CITY))
        play(game, ("occupy", occupy[1]))
    else:
        play(game, ("done",))
    occupied = [("rome" if i in occupy else None) for i in range(4)]
    assert game.state.occupied["CYRENAICA"] == occupied
    # EX-CONQ-3: the tracks move at once (+2 / -2 in the book's example).
    assert tracks(game, "rome") == (rome_before[0] + trade_shift, *rome_before[1:])
    assert tracks(game, "egypt") == (egypt_before[0] - trade_shift, *egypt_before[1:])
    log = collections(game)
    advance_to(game, "trade.token", keep_titles)
    assert log[2]["rome"] == rome_gets
    assert log[2]["egypt"] == egypt_gets


def test_occupiers_leaving_give_the_buildings_back_at_once(rules: Ruleset) -> None:
    game = after_ex_move_3(rules)
    play(game, ("occupy", CARAVAN), ("occupy", MARKET))
    finish_phase(game)
    start_phase(game, "military", round=2)
    play(game, "rome", ("done",), ("done",), ("move", "CYRENAICA", "LIBYA"))
    # One legion left: Rome chooses which occupation it keeps (the caravan), and gives
    # up the market, which is Egypt's again.
    assert game.pending is not None and game.pending.kind == "conquest.release"
    assert set(game.legal()) == {("occupy", CARAVAN), ("occupy", MARKET)}
    play(game, ("occupy", MARKET))
    assert game.state.occupied["CYRENAICA"] == ["rome", None, None, None]
    assert tracks(game, "rome")[0] == 1 and tracks(game, "egypt")[0] == 1
    play(game, ("move", "CYRENAICA", "LIBYA"))
    assert game.state.occupied["CYRENAICA"] == [None] * 4
    assert tracks(game, "rome")[0] == 0 and tracks(game, "egypt")[0] == 2


# -- conqueror status -------------------------------------------------------------------------
def carthage_attacks(game: Game, carthage_dice: list[int], rome_dice: list[int]) -> None:
    """Later in the same phase Carthage moves three legions from Libya into Cyrenaica."""
    add_units(game, "carthage", "LIBYA", "legion", 3)
    game.force("land die", [*carthage_dice, *rome_dice])
    play(game, "carthage", *[("move", "LIBYA", "CYRENAICA")] * 3)
    while pending(game)[1] == "battle.loss":
        play(game, game.legal()[0])


def test_status_lost_when_another_player_keeps_units_after_a_battle(rules: Ruleset) -> None:
    game = after_ex_move_3(rules)
    play(game, ("occupy", CARAVAN), ("occupy", MARKET))
    assert tracks(game, "egypt")[0] == 0
    carthage_attacks(game, [0, 0, 0], [0, 0])  # nobody scores: both keep their units
    assert units(game, "CYRENAICA") == {"rome": {"legion": 2}, "carthage": {"legion": 3}}
    # At war: Rome's legions occupy nothing any more, the buildings are Egypt's again.
    assert game.state.occupied["CYRENAICA"] == [None] * 4
    assert "CYRENAICA" not in game.state.vars.get("conquest", {})
    assert tracks(game, "egypt")[0] == 2 and tracks(game, "rome")[0] == 0
    assert pending(game) == ("rome", "military.next")  # and Carthage conquers nothing


def test_status_kept_by_the_sole_survivor(rules: Ruleset) -> None:
    game = after_ex_move_3(rules)
    play(game, ("occupy", CARAVAN), ("occupy", MARKET))
    add_units(game, "carthage", "LIBYA", "legion", 2)
    game.force("land die", [0, 0, 5, 5])  # Carthage nothing; Rome two hits (no Caesar now)
    play(game, "carthage", ("move", "LIBYA", "CYRENAICA"), ("move", "LIBYA", "CYRENAICA"))
    assert units(game, "CYRENAICA") == {"rome": {"legion": 2}}
    assert game.state.occupied["CYRENAICA"] == ["rome", "rome", None, None]
    assert game.state.vars["conquest"]["CYRENAICA"]["player"] == "rome"
    assert tracks(game, "rome")[0] == 2 and tracks(game, "egypt")[0] == 0


# -- EX-CONQ-4: occupy the marker, convert it a round later ----------------------------------
def rome_turn(game: Game, trireme_moves: list[tuple[str, str, str]]) -> list[str | None]:
    """Rome's Phase-4 turn: these trireme moves, no battle, no legion move, no conquest
    choice. Returns Cyrenaica's marker holder at Rome's first decision."""
    assert pending(game) == ("rome", "military.next")
    play(game, "rome")
    seen = [game.state.control["CYRENAICA"]]
    todo = list(trireme_moves)
    while pending(game)[0] == "rome" and pending(game)[1] != "military.next":
        kind = pending(game)[1]
        if kind == "military.trireme" and todo:
            play(game, todo.pop(0))
        elif kind == "conquest.choose":
            play(game, ("pass",))
        else:
            play(game, ("done",))
    assert not todo
    return seen


def marker_occupied(rules: Ruleset, restore: bool = False) -> Game:
    """Round R (here 2): Rome occupies the Egyptian marker; the rest of the phase passes.
    Then Round R+1's Move & Fight begins (its first phases change nothing here)."""
    game = after_ex_move_3(rules)
    game.state.round = 2
    before = tracks(game, "rome"), tracks(game, "egypt")
    play(game, ("marker",))
    assert game.state.marker_occupier == {"CYRENAICA": "rome"}
    assert game.state.control["CYRENAICA"] == "egypt"
    assert (tracks(game, "rome"), tracks(game, "egypt")) == before  # nothing moves yet
    finish_phase(game)
    assert game.state.control["CYRENAICA"] == "egypt"  # not in the round it was occupied
    if restore:  # Rome's Africum trireme has gone west before round R+1
        game.state.remove_units("MARE AFRICUM", "rome", "trireme")
        game.state.add_units("MARE SARDUM", "rome", "trireme")
    start_phase(game, "military", round=3)
    return game


CUT = [("move", "MARE AFRICUM", "MARE SARDUM")]        # the link is broken during the turn
RESTORE = [("move", "MARE SARDUM", "MARE AFRICUM")]    # ... or made again during the turn


@pytest.mark.parametrize("fail", ["remove_marker", "keep"])
@pytest.mark.parametrize(("timing", "case", "start", "after_turn", "after_phase"), [
    # NL/PL: checked at the start of Rome's next turn, before he moves.
    ("start_of_later_turn", "same", "rome", "rome", "rome"),
    ("start_of_later_turn", "cut", "rome", "rome", "rome"),
    ("start_of_later_turn", "restore", "FAIL", "FAIL", "FAIL"),
    # FR (and UK, by its example): at the end of Rome's next turn.
    ("end_of_next_turn", "same", "egypt", "rome", "rome"),
    ("end_of_next_turn", "cut", "egypt", "FAIL", "FAIL"),
    ("end_of_next_turn", "restore", "egypt", "rome", "rome"),
    # after every player's turn in the next round (the UK rule text read alone, an option).
    ("end_of_next_phase", "same", "egypt", "egypt", "rome"),
    ("end_of_next_phase", "cut", "egypt", "egypt", "FAIL"),
    ("end_of_next_phase", "restore", "egypt", "egypt", "rome"),
])
def test_ex_conq_4_and_5_conversion(fresh_rules: Callable[..., Ruleset], fail: str,
                                    timing: str, case: str, start: str, after_turn: str,
                                    after_phase: str) -> None:
    failed = None if fail == "remove_marker" else "egypt"  # EX-CONQ-5: NL/UK vs PL

    def want(x: str) -> str | None:
        return failed if x == "FAIL" else x

    game = marker_occupied(fresh_rules(conversion_timing=timing, conversion_fail=fail),
                           restore=case == "restore")
    egypt_markers = game.state.pieces["egypt"]["marker"]
    rome_markers = game.state.pieces["rome"]["marker"]
    moves = {"same": [], "cut": CUT, "restore": RESTORE}[case]
    assert rome_turn(game, moves) == [want(start)]
    assert game.state.control["CYRENAICA"] == want(after_turn)
    finish_phase(game)
    final = want(after_phase)
    assert game.state.control["CYRENAICA"] == final
    assert units(game, "CYRENAICA") == {"rome": {"legion": 2}}  # the legions stay
    if final == "rome":
        assert game.state.pieces["rome"]["marker"] == rome_markers - 1
        assert game.state.pieces["egypt"]["marker"] == egypt_markers + 1
        assert game.state.marker_occupier == {}
    elif final is None:  # removed, not replaced: nobody controls Cyrenaica
        assert game.state.pieces["egypt"]["marker"] == egypt_markers + 1
        assert game.state.marker_occupier == {}
    else:  # the owner keeps control; the legion still stands on his marker
        assert game.state.pieces["egypt"]["marker"] == egypt_markers
        assert game.state.marker_occupier == {"CYRENAICA": "rome"}


def test_ex_conq_4_played_through_the_next_round(rules: Ruleset) -> None:
    game = after_ex_move_3(rules)
    # Greece leads trade and culture, so that Rome's three titles do not end the game.
    set_marker(game, "MACEDONIA", "greece")
    for spec in ("caravan:metal", "caravan:oil", "market"):
        build(game, "MACEDONIA", spec)
    for spec in ("capital", "city", "temple"):
        build(game, "ACHAEA", spec)
    log = collections(game)
    play(game, ("marker",))
    advance_to(game, "trade.token", keep_titles)
    # Round R+1, Phase 1: Egypt still collects everything in Cyrenaica; Rome nothing.
    assert log[2]["egypt"] == {"papyrus": 2, "coin": 1}
    assert log[2]["rome"] == {}
    rome_before, egypt_before = tracks(game, "rome"), tracks(game, "egypt")
    advance_to(game, "military.next", keep_titles)
    assert game.state.control["CYRENAICA"] == "egypt"
    # Round R+1, Phase 4: at the start of Rome's turn the marker becomes Roman (NL/PL).
    play(game, "rome")
    assert game.state.control["CYRENAICA"] == "rome"
    assert game.state.marker_occupier == {}
    assert tracks(game, "rome")[:2] == (rome_before[0] + 2, rome_before[1] + 1)
    assert tracks(game, "egypt")[:2] == (egypt_before[0] - 2, egypt_before[1] - 1)
    # Round R+2, Phase 1: Rome collects Cyrenaica.
    advance_to(game, "trade.token", keep_titles)
    assert game.state.round == 3
    assert log[3]["rome"] == {"papyrus": 2, "coin": 1}
    assert log[3]["egypt"] == {}


@pytest.mark.parametrize("fail", ["remove_marker", "keep"])
def test_no_marker_left_is_no_failed_link(fresh_rules: Callable[..., Ruleset],
                                          fail: str) -> None:
    """Rome's seven markers are all on the board: he cannot convert yet, and Egypt's
    marker is not removed for it (that is only for a lost link, EX-CONQ-5)."""
    game = after_ex_move_3(fresh_rules(conversion_fail=fail))
    play(game, ("marker",))
    for prov in ("GALLIA", "DALMATIA", "SICILIA", "MACEDONIA", "THRACIA", "DACIA"):
        set_marker(game, prov, "rome")
    assert game.state.pieces["rome"]["marker"] == 0
    finish_phase(game)
    start_phase(game, "military", round=2)
    play(game, "rome")
    assert game.state.control["CYRENAICA"] == "egypt"
    assert game.state.marker_occupier == {"CYRENAICA": "rome"}
    # A marker back in his box (Sicilia given up): the next round converts.
    set_marker(game, "SICILIA", None)
    finish_phase(game)
    start_phase(game, "military", round=3)
    play(game, "rome")
    assert game.state.control["CYRENAICA"] == "rome"


def test_conversion_cancelled_when_the_province_goes_to_war(rules: Ruleset) -> None:
    game = after_ex_move_3(rules)
    play(game, ("marker",))
    carthage_attacks(game, [0, 0, 0], [0, 0])
    assert game.state.marker_occupier == {}
    finish_phase(game)
    start_phase(game, "military", round=2)
    game.force("land die", [0, 0, 0, 0, 0])
    play(game, "rome")
    assert game.state.control["CYRENAICA"] == "egypt"


def test_marker_needs_a_link_to_another_roman_province(
        fresh_rules: Callable[..., Ruleset]) -> None:
    for needs_link, offered in ((True, False), (False, True)):
        game = empty_board(fresh_rules(occupy_marker_needs_link=needs_link))
        set_marker(game, "CYRENAICA", "egypt")
        build(game, "CYRENAICA", "city")
        add_units(game, "rome", "CYRENAICA", "legion", 1)  # no Roman province near
        start_phase(game, "military")
        play(game, "rome", ("done",))
        assert pending(game) == ("rome", "conquest.choose")
        assert (("marker",) in game.legal()) is offered
        if not offered:
            with pytest.raises(IllegalChoice) as err:
                game.apply(("marker",))
            assert err.value.rule is not None and err.value.rule.id == "occupy-marker"


def test_neutral_provinces_are_not_conquered(rules: Ruleset) -> None:
    game = empty_board(rules)
    build(game, "NUBIA", "caravan:gladiators")
    add_units(game, "rome", "NUBIA", "legion", 1)
    start_phase(game, "military")
    play(game, "rome", ("done",))
    assert pending(game) == ("rome", "military.next")


# -- EX-CONQ-7: a capital province ------------------------------------------------------------
def in_alexandria(rules: Ruleset) -> Game:
    game = empty_board(rules)
    build(game, "AEGYPTUS", "capital")
    build(game, "AEGYPTUS", "city")
    add_units(game, "rome", "AEGYPTUS", "legion", 2)
    set_marker(game, "CYRENAICA", "rome")  # a linked Roman province: the marker's excuse
    start_phase(game, "military")
    play(game, "rome", ("done",))
    assert pending(game) == ("rome", "conquest.choose")
    return game


ALEXANDRIA = 3  # AEGYPTUS: caravan, market, city, capital:ALEXANDRIA, temple


def test_capital_marker_is_never_occupied(rules: Ruleset) -> None:
    game = in_alexandria(rules)
    assert ("marker",) not in game.legal()
    with pytest.raises(IllegalChoice) as err:
        game.apply(("marker",))
    assert err.value.rule is not None and err.value.rule.id == "occupy-marker"


def test_capital_pillaged_for_a_coin(rules: Ruleset) -> None:
    game = in_alexandria(rules)
    capitals = game.state.supply["capital"]
    play(game, ("pillage", ALEXANDRIA))
    assert game.state.screens["rome"] == {"coin": 1}
    assert game.state.supply["capital"] == capitals + 1
    assert game.state.control["AEGYPTUS"] == "egypt"


def test_occupied_capital_yields_its_coin_to_the_conqueror(rules: Ruleset) -> None:
    game = in_alexandria(rules)
    play(game, ("occupy", ALEXANDRIA), ("done",))
    log = collections(game)
    advance_to(game, "trade.token", keep_titles)
    assert log[2]["rome"] == {"coin": 1}       # ALEXANDRIA, occupied
    assert log[2]["egypt"] == {"coin": 1}      # the Egyptian city beside it


def test_capital_occupied_counts_for_the_conqueror_and_is_never_converted(
        fresh_rules: Callable[..., Ruleset]) -> None:
    for timing in ("start_of_later_turn", "end_of_next_turn", "end_of_next_phase"):
        game = in_alexandria(fresh_rules(conversion_timing=timing))
        play(game, ("occupy", ALEXANDRIA), ("done",))
        assert great_cities(game)["rome"] == 1 and great_cities(game)["egypt"] == 0
        for rnd in (2, 3):
            finish_phase(game)
            start_phase(game, "military", round=rnd)
            rome_turn(game, [])
        finish_phase(game)
        assert game.state.control["AEGYPTUS"] == "egypt"
        assert game.state.occupied["AEGYPTUS"][ALEXANDRIA] == "rome"


def test_owner_may_still_build_in_an_occupied_capital(rules: Ruleset) -> None:
    game = in_alexandria(rules)
    play(game, ("pillage", ALEXANDRIA))
    finish_phase(game)
    set_marker(game, "CYRENAICA", "egypt")
    add_units(game, "rome", "CYRENAICA", "legion", 1)
    start_phase(game, "build", round=2)
    give(game, "egypt", {"coin": 12})
    game.state.titles["culture"] = "egypt"
    play(game, "egypt")
    legal = set(game.legal())
    assert {("legion", "AEGYPTUS"), ("fortress", "AEGYPTUS"), ("trireme", "MARE AEGYPTIUM"),
            ("building", "AEGYPTUS", ALEXANDRIA)} <= legal
    # ... but not in a province of his that enemy legions hold.
    assert ("legion", "CYRENAICA") not in legal
    with pytest.raises(IllegalChoice) as err:
        game.apply(("legion", "CYRENAICA"))
    assert err.value.rule is not None and err.value.rule.id == "at-war"


@pytest.mark.parametrize("edition", ["uk", "fr"])
def test_uk_conversion_at_the_end_of_the_roman_turn_as_its_example(edition: str) -> None:
    """UK 4.3.3, example: « Якщо червоний Легіон залишиться на жовтому Жетоні контролю у
    кінці наступної Фази бойових дій гравця за Рим, то жовтий жетон можна буде замінити
    на червоний ». Rome's legion stood on Egypt's marker in CYRENAICA last round; at the
    end of Rome's Move & Fight turn this round the marker is Roman, before Egypt and the
    others play (as FR 4.3.3 « À la fin de sa Phase Militaire du prochain tour »)."""
    game = marker_occupied(load_ruleset(edition))
    assert rome_turn(game, []) == ["egypt"]  # still Egypt's as Rome's turn begins
    assert game.state.control["CYRENAICA"] == "rome"  # Egypt has not played yet
