"""Every hero and wonder: what its power does when its holder qualifies, and that it
does nothing when he does not (another player holds it, the wrong phase or battle, the
condition unmet, the once-per-round limit used up). Digest §11; EX-HW-1 to -8 and
EX-CONQ-6.

Where each of the 23 tiles is tested (this file adds what the others do not prove):

=================== ===================================================================
tile                where
=================== ===================================================================
Caesar              test_battle (EX-MOVE-3 +1 per legion die attacking, EX-MOVE-4 nothing
                    defending, only Rome's); here: per die under pl/uk with Ramesses'
                    extra die, nothing at sea, nothing for another empire
Cleopatra           test_payment (coin in goods sets / good in coin sets; refused for Rome)
Hammurabi           test_build (free marker, normal placement, once per round); here: no
                    offer for another empire, none in a later turn of the same round
Hannibal            test_payment (EX-HW-1 metal metal wood; refused without him)
Pericles            here: +2 per legion die defending, nothing attacking, at sea, for a
                    fortress alone or for another empire; pl per die, uk at sea too
Antigone            here: offers 0-5 whatever the token, short holdings, not for others
Castor & Pollux     here: copies another's hero (no starting hero, wonder or Perseus),
                    not its bonuses; the original keeps his power and ranks first
Circe               test_production (EX-HW-4 nl/pl/uk); test_build (EX-BUILD-8 tracks);
                    here: a caravan doubled by his market, not a legion occupying a
                    building, the fr reading (own/neutral, no enemy), another holder
Gilgamesh           test_build (1 coin or stone, one fortress per province); here: once
                    per round, not for others
Hamilcar            here: city/capital 2 coins, caravan 2 goods, legendary city 1 coin and
                    1 legendary good, temple/market nothing; normal for others
Hercules            here: no power, +2/+2/+2 on the tracks
Nebuchadnezzar      here: +5 on his marker with units (attacking or defending), nothing
                    elsewhere, at sea or for others; uk +1 hit
Penthesilea         test_build (EX-HW-5: batch, capital, cap of 8, once per round); here:
                    no enemy units, no offer
Perseus             test_build (first build turn), test_victory (EX-VICT-1: wins alone at
                    once under both models); here: cannot be copied
Queen of Sheba      here: converts at once removing the legion; declining keeps the normal
                    timeline; once per round; needs the link and a marker; not for others
Ramesses II         here: +1 land die attacking or defending; none at sea or for others
Spartacus           test_build (EX-BUILD-4: at once, once per round, again next round)
Colossus            test_production (a good of choice after all collected); here: only
                    its holder is asked; no Collect phase in round 1, so nothing
Hanging Gardens     test_build (EX-BUILD-9 with the wonder); here: only different types,
                    not for others
Pharos              test_build (1 coin or wood); here: once per round, not for others
Pyramids            test_build (cost 12), test_victory (prestige at once when timed; later
                    under leader priority); here: 12 whatever one owns, no tile count
Statue of Zeus      here: peace at the start of Move & Fight (no battle, no entering, the
                    partner's legions sent home), not the same partner twice running, per
                    edition (fr all units both ways and units block, uk legions both ways)
Temple of Artemis   test_production (+1 coin, nothing in round 1)
=================== ===================================================================

Leadership bonuses of every tile (the digest's table, on the tracks at once):
``test_bonuses_reach_the_tracks_when_bought``. Every tile in play at once, dealt to
random players in every edition: ``test_random_play_with_every_tile_dealt``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import pending, play
from mare_nostrum import position as pos
from mare_nostrum.battle import Side, side_for
from mare_nostrum.tracks import levels
from mare_nostrum.words import COPY_RANK
from mnrules import Game, load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.invariants import check
from mnrules.language.compiler import ORIGINAL_RANK
from test_conquest import after_ex_move_3
from test_editions import build_phase
from test_full_game import audit
from test_movement import empty_board, record, units

PACKS: dict[str, Ruleset] = {}


def pack(name: str) -> Ruleset:
    """The rule set of an edition pack (built once for this module)."""
    if name not in PACKS:
        PACKS[name] = load_ruleset(name)
    return PACKS[name]


@pytest.fixture(scope="module")
def face_up() -> Ruleset:
    return load_ruleset("en", {"params": {"hw_display": "all_face_up"}})


def own(game: Game, player: str, *tiles: str) -> None:
    """``player`` holds these tiles (taken off the display or the face-down stack)."""
    state = game.state
    for tile in tiles:
        for pile in (state.display, state.display_hidden):
            if tile in pile:
                pile.remove(tile)
        for p in state.players:
            if tile in state.tiles[p]:
                state.tiles[p].remove(tile)
        state.tiles[player].append(tile)


def moves_and_offers(game: Game) -> list[tuple[Any, ...]]:
    """The pending decision's options that are tuples (moves, purchases, offers)."""
    return [c for c in game.legal() if isinstance(c, tuple)]


def drop(game: Game, player: str, tile: str) -> None:
    game.state.tiles[player].remove(tile)


def tracks(game: Game, player: str) -> tuple[int, int, int]:
    lv = levels(game)[player]
    return lv["trade"], lv["culture"], lv["military"]


def land(area: str, attacker: str, defender: str) -> dict[str, Any]:
    return {"area": area, "kind": "land", "attacker": attacker, "defender": defender}


def sea(area: str, attacker: str, defender: str) -> dict[str, Any]:
    return {"area": area, "kind": "sea", "attacker": attacker, "defender": defender}


def sides(game: Game, battle: dict[str, Any]) -> tuple[Side, Side]:
    """Both sides' rolls as the rules and the cards fold them (attacker, defender)."""
    return side_for(game, battle, battle["attacker"]), side_for(game, battle, battle["defender"])


def fight_where_they_stand(game: Game, attacker: str, dice: list[int]) -> dict[str, Any]:
    """``attacker``'s Move & Fight turn: no moves, the one land battle with these dice
    (his, then the defender's); the battle event's data."""
    battles = record(game, "battle")
    game.force("land die", dice)
    pos.start_phase(game, "military", round=2)
    play(game, attacker)
    while not battles:
        dec = game.pending
        assert dec is not None
        if dec.kind in ("military.trireme", "military.naval", "military.legion"):
            play(game, ("done",))
        else:
            assert dec.kind == "battle.loss", dec
            play(game, dec.options[0])
    return battles[0].data


def end_build_phase(game: Game) -> None:
    """Every player ends his build turn at once."""
    while (dec := game.pending) is not None and game.state.phase == "build":
        play(game, ("end",) if dec.kind == "build.action" else dec.options[0])


# ====================================================================================
# Leadership bonuses: every tile, on the tracks as soon as it is bought (UK 3.2, EX-HW-2)
# ====================================================================================
BONUSES = {  # digest §11.2-11.3: (trade, culture, military) printed on each tile
    "antigone": (2, 2, 0), "castor_pollux": (0, 0, 0), "circe": (1, 0, 1),
    "gilgamesh": (0, 0, 0), "hamilcar": (1, 1, 1), "hercules": (2, 2, 2),
    "nebuchadnezzar": (0, 0, 0), "penthesilea": (0, 2, 2), "perseus": (1, 2, 1),
    "ramesses": (0, 0, 0), "queen_of_sheba": (0, 1, 1), "spartacus": (0, 0, 0),
    "colossus": (0, 0, 0), "pharos": (0, 0, 0), "temple_of_artemis": (0, 0, 0),
    "hanging_gardens": (2, 0, 0), "statue_of_zeus": (0, 0, 0), "pyramids": (0, 0, 0),
}


def test_every_tile_but_the_starting_heroes_can_be_bought(face_up: Ruleset) -> None:
    assert sorted(c.id for c in face_up.cards.values() if c.kind != "starting hero") \
        == sorted(BONUSES)
    starting = {c.id: c.bonuses for c in face_up.cards.values() if c.kind == "starting hero"}
    # §11.1: no bonuses
    assert starting == {h: {} for h in ("caesar", "cleopatra", "hammurabi", "hannibal",
                                        "pericles")}


@pytest.mark.parametrize("tile", sorted(BONUSES))
def test_bonuses_reach_the_tracks_when_bought(face_up: Ruleset, tile: str) -> None:
    game = new_game(face_up, 5, seed=1)
    for p in game.state.players:
        pos.clear_screen(game, p)
    pos.give(game, "rome", {"coin": 12})
    pos.start_phase(game, "build", round=2)
    play(game, "rome")
    before = {p: tracks(game, p) for p in game.state.players}
    play(game, ("tile", tile))
    assert pending(game) == ("rome", "build.pay")
    play(game, game.legal()[0])
    # (Castor & Pollux find no hero to copy: the others hold only starting heroes; the
    # Pyramids win at once)
    assert game.over or pending(game) == ("rome", "build.action")
    want = tuple(b + n for b, n in zip(before["rome"], BONUSES[tile], strict=True))
    assert tracks(game, "rome") == want
    for p in game.state.players:
        if p != "rome":
            assert tracks(game, p) == before[p]


def test_hercules_is_bonuses_only(face_up: Ruleset) -> None:
    """No power (no script, no decision, no effect): +2/+2/+2 and nothing else."""
    assert face_up.cards["hercules"].bonuses == {"trade": 2, "culture": 2, "military": 2}
    assert face_up.cards["hercules"].effects is None
    assert "hercules" not in face_up.effects
    game = new_game(face_up, 5, seed=1)
    before = tracks(game, "greece")
    own(game, "greece", "hercules")
    assert tracks(game, "greece") == (before[0] + 2, before[1] + 2, before[2] + 2)


def test_queen_of_sheba_bonus_icons() -> None:
    """EX-HW-2 (UK 7 legend): the Queen of Sheba adds culture +1 and military +1."""
    for name in ("en", "fr", "nl", "pl", "uk"):
        assert pack(name).cards["queen_of_sheba"].bonuses == {"culture": 1, "military": 1}


# ====================================================================================
# Caesar under the per-die readings (D31)
# ====================================================================================
def caesar_battle(rules: Ruleset, ramesses: bool) -> Game:
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "rome", "CYRENAICA", "legion", 3)
    pos.add_units(game, "egypt", "CYRENAICA", "legion", 1)
    if ramesses:
        own(game, "rome", "ramesses")
    return game


@pytest.mark.parametrize(("edition", "per_die"), [("en", False), ("nl", False),
                                                  ("fr", False), ("pl", True),
                                                  ("uk", True)])
def test_caesar_and_the_extra_die(edition: str, per_die: bool) -> None:
    """FR/NL: +1 per legion (the Ramesses die gets nothing); PL/UK: +1 on every die."""
    rules = pack(edition)
    battle = land("CYRENAICA", "rome", "egypt")
    rome, _ = sides(caesar_battle(rules, ramesses=False), battle)
    assert (rome.dice, rome.bonus) == (3, 3)
    rome, egypt = sides(caesar_battle(rules, ramesses=True), battle)
    assert rome.dice == 4
    assert rome.bonus == (4 if per_die else 3)
    assert egypt.bonus == 0


@pytest.mark.parametrize("edition", ["en", "pl", "uk"])
def test_caesar_gives_nothing_at_sea_or_to_another_empire(edition: str) -> None:
    game = empty_board(pack(edition))
    pos.add_units(game, "rome", "MARE AEGYPTIUM", "trireme", 2)
    pos.add_units(game, "egypt", "MARE AEGYPTIUM", "trireme", 2)
    rome, _ = sides(game, sea("MARE AEGYPTIUM", "rome", "egypt"))
    assert (rome.dice, rome.bonus) == (2, 0)
    # Carthage attacking holds no Caesar: nothing; Caesar's holder defending: nothing
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "carthage", "CYRENAICA", "legion", 2)
    pos.add_units(game, "rome", "CYRENAICA", "legion", 2)
    carthage, rome = sides(game, land("CYRENAICA", "carthage", "rome"))
    assert (carthage.bonus, rome.bonus) == (0, 0)


# ====================================================================================
# Pericles (D32)
# ====================================================================================
def greek_macedonia(rules: Ruleset, greek: int = 2, fortress: bool = False) -> Game:
    """Greece (Pericles, its starting hero) holds MACEDONIA; three Roman legions there."""
    game = empty_board(rules)
    pos.set_marker(game, "MACEDONIA", "greece")
    if greek:
        pos.add_units(game, "greece", "MACEDONIA", "legion", greek)
    if fortress:
        pos.add_units(game, "greece", "MACEDONIA", "fortress")
    pos.add_units(game, "rome", "MACEDONIA", "legion", 3)
    return game


def test_pericles_plus_two_per_legion_die_when_defending(rules: Ruleset) -> None:
    game = greek_macedonia(rules)
    assert "pericles" in game.state.tiles["greece"]
    rome, greece = sides(game, land("MACEDONIA", "rome", "greece"))
    assert (greece.dice, greece.bonus) == (2, 4)
    assert rome.bonus == 3  # Caesar's, untouched


def test_pericles_nothing_when_attacking(rules: Ruleset) -> None:
    game = greek_macedonia(rules)
    greece, rome = sides(game, land("MACEDONIA", "greece", "rome"))
    assert (greece.dice, greece.bonus) == (2, 0)
    assert rome.bonus == 0  # nor Caesar's: Rome does not attack


def test_pericles_a_fortress_alone_rolls_no_legion_die(rules: Ruleset) -> None:
    game = greek_macedonia(rules, greek=0, fortress=True)
    _, greece = sides(game, land("MACEDONIA", "rome", "greece"))
    assert (greece.dice, greece.bonus) == (0, 5)  # the fortress's +5 only


def test_pericles_another_empire_defending_gets_nothing(rules: Ruleset) -> None:
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "egypt", "CYRENAICA", "legion", 2)
    pos.add_units(game, "rome", "CYRENAICA", "legion", 1)
    _, egypt = sides(game, land("CYRENAICA", "rome", "egypt"))
    assert egypt.bonus == 0
    own(game, "egypt", "pericles")  # the same card in Egypt's hands: now Egypt's
    _, egypt = sides(game, land("CYRENAICA", "rome", "egypt"))
    assert egypt.bonus == 4


@pytest.mark.parametrize(("edition", "at_sea"), [("en", 0), ("fr", 0), ("pl", 0),
                                                 ("uk", 4)])
def test_pericles_at_sea(edition: str, at_sea: int) -> None:
    """UK: "+2 to each of your dice" with no land restriction: triremes too."""
    game = empty_board(pack(edition))
    pos.add_units(game, "rome", "MARE AEGAEUM", "trireme", 1)
    pos.add_units(game, "greece", "MARE AEGAEUM", "trireme", 2)
    _, greece = sides(game, sea("MARE AEGAEUM", "rome", "greece"))
    assert (greece.dice, greece.bonus) == (2, at_sea)


@pytest.mark.parametrize(("edition", "bonus"), [("en", 4), ("nl", 4), ("fr", 4),
                                                ("pl", 6), ("uk", 6)])
def test_pericles_with_the_extra_die(edition: str, bonus: int) -> None:
    """PL/UK "każdej twojej kości" / "кожного свого кубика": the Ramesses die gets +2."""
    game = greek_macedonia(pack(edition))
    own(game, "greece", "ramesses")
    _, greece = sides(game, land("MACEDONIA", "rome", "greece"))
    assert (greece.dice, greece.bonus) == (3, bonus)


@pytest.mark.parametrize(("pericles", "carthage_lost"), [(True, 1), (False, 0)])
def test_pericles_in_a_battle(rules: Ruleset, pericles: bool, carthage_lost: int) -> None:
    """Greece rolls III: 3 + 2 = 5, one hit; without Pericles 3, none."""
    game = empty_board(rules)
    pos.set_marker(game, "MACEDONIA", "greece")
    pos.add_units(game, "greece", "MACEDONIA", "legion", 1)
    pos.add_units(game, "carthage", "MACEDONIA", "legion", 1)
    if not pericles:
        drop(game, "greece", "pericles")
    data = fight_where_they_stand(game, "carthage", [0, 3])
    assert data["rolls"] == {"carthage": [0], "greece": [3]}
    assert data["hits"] == {"carthage": 0, "greece": carthage_lost}
    assert units(game, "MACEDONIA").get("carthage", {}).get("legion", 0) == 1 - carthage_lost


# ====================================================================================
# Nebuchadnezzar (D33)
# ====================================================================================
def babylon_syria(rules: Ruleset, legions: int = 1, fortress: bool = False) -> Game:
    """Babylon holds Nebuchadnezzar and SYRIA (its marker); two Carthaginian legions."""
    game = empty_board(rules)
    own(game, "babylon", "nebuchadnezzar")
    pos.set_marker(game, "SYRIA", "babylon")
    if legions:
        pos.add_units(game, "babylon", "SYRIA", "legion", legions)
    if fortress:
        pos.add_units(game, "babylon", "SYRIA", "fortress")
    pos.add_units(game, "carthage", "SYRIA", "legion", 2)
    return game


def test_nebuchadnezzar_plus_five_on_his_marker(rules: Ruleset) -> None:
    game = babylon_syria(rules)
    carthage, babylon = sides(game, land("SYRIA", "carthage", "babylon"))
    assert (babylon.dice, babylon.bonus, babylon.extra_hits) == (1, 5, 0)
    assert carthage.bonus == 0
    # attacking there on his own turn: the marker is his all the same
    babylon, carthage = sides(game, land("SYRIA", "babylon", "carthage"))
    assert babylon.bonus == 5 and carthage.bonus == 0


def test_nebuchadnezzar_adds_to_a_fortress(rules: Ruleset) -> None:
    game = babylon_syria(rules, legions=0, fortress=True)
    _, babylon = sides(game, land("SYRIA", "carthage", "babylon"))
    assert (babylon.dice, babylon.bonus, babylon.shield) == (0, 10, 1)


@pytest.mark.parametrize("marker", ["carthage", None], ids=["enemy marker", "neutral"])
def test_nebuchadnezzar_nothing_off_his_marker(rules: Ruleset, marker: str | None) -> None:
    game = babylon_syria(rules)
    pos.set_marker(game, "SYRIA", marker)
    for battle in (land("SYRIA", "carthage", "babylon"), land("SYRIA", "babylon", "carthage")):
        assert side_for(game, battle, "babylon").bonus == 0


def test_nebuchadnezzar_nothing_at_sea_or_for_another_empire(rules: Ruleset) -> None:
    game = babylon_syria(rules)
    pos.add_units(game, "babylon", "MARE CYPRIUM", "trireme")
    pos.add_units(game, "carthage", "MARE CYPRIUM", "trireme")
    _, babylon = sides(game, sea("MARE CYPRIUM", "carthage", "babylon"))
    assert babylon.bonus == 0
    # Carthage holds the card now; the battle is on Babylon's marker: nobody gets +5
    own(game, "carthage", "nebuchadnezzar")
    carthage, babylon = sides(game, land("SYRIA", "carthage", "babylon"))
    assert (carthage.bonus, babylon.bonus) == (0, 0)


def test_nebuchadnezzar_is_one_hit_in_the_ukrainian_text() -> None:
    game = babylon_syria(pack("uk"))
    _, babylon = sides(game, land("SYRIA", "carthage", "babylon"))
    assert (babylon.bonus, babylon.extra_hits) == (0, 1)
    pos.set_marker(game, "SYRIA", "carthage")
    _, babylon = sides(game, land("SYRIA", "carthage", "babylon"))
    assert (babylon.bonus, babylon.extra_hits) == (0, 0)


@pytest.mark.parametrize(("holder", "carthage_lost"), [("babylon", 1), ("egypt", 0)])
def test_nebuchadnezzar_in_a_battle(rules: Ruleset, holder: str, carthage_lost: int) -> None:
    """Babylon rolls a blank: 0 + 5 = one hit; without the card, none."""
    game = babylon_syria(rules)
    own(game, holder, "nebuchadnezzar")
    data = fight_where_they_stand(game, "carthage", [0, 0, 0])
    assert data["hits"] == {"carthage": 0, "babylon": carthage_lost}


# ====================================================================================
# Ramesses II (D34)
# ====================================================================================
def carthage_in_cyrenaica(rules: Ruleset) -> Game:
    game = empty_board(rules)
    own(game, "carthage", "ramesses")
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "carthage", "CYRENAICA", "legion", 2)
    pos.add_units(game, "egypt", "CYRENAICA", "legion", 1)
    return game


def test_ramesses_one_more_land_die_attacking_or_defending(rules: Ruleset) -> None:
    game = carthage_in_cyrenaica(rules)
    carthage, egypt = sides(game, land("CYRENAICA", "carthage", "egypt"))
    assert (carthage.dice, egypt.dice) == (3, 1)
    egypt, carthage = sides(game, land("CYRENAICA", "egypt", "carthage"))
    assert (carthage.dice, egypt.dice) == (3, 1)
    assert carthage.bonus == 0  # a die, not a bonus


def test_ramesses_a_fortress_alone_rolls_his_die(rules: Ruleset) -> None:
    """He fights with one unit there (a fortress): the extra die is his only die."""
    game = empty_board(rules)
    own(game, "carthage", "ramesses")
    pos.set_marker(game, "LIBYA", "carthage")
    pos.add_units(game, "carthage", "LIBYA", "fortress")
    pos.add_units(game, "egypt", "LIBYA", "legion", 2)
    _, carthage = sides(game, land("LIBYA", "egypt", "carthage"))
    assert carthage.dice == 1


def test_ramesses_nothing_at_sea_or_for_another_empire(rules: Ruleset) -> None:
    game = carthage_in_cyrenaica(rules)
    pos.add_units(game, "carthage", "MARE AFRICUM", "trireme", 2)
    pos.add_units(game, "egypt", "MARE AFRICUM", "trireme", 1)
    carthage, egypt = sides(game, sea("MARE AFRICUM", "carthage", "egypt"))
    assert (carthage.dice, egypt.dice) == (2, 1)
    own(game, "egypt", "ramesses")
    carthage, egypt = sides(game, land("CYRENAICA", "carthage", "egypt"))
    assert (carthage.dice, egypt.dice) == (2, 2)


def test_ramesses_in_a_battle(rules: Ruleset) -> None:
    game = carthage_in_cyrenaica(rules)
    data = fight_where_they_stand(game, "carthage", [5, 5, 5, 0])
    assert data["rolls"] == {"carthage": [5, 5, 5], "egypt": [0]}
    assert data["hits"] == {"carthage": 3, "egypt": 0}
    assert units(game, "CYRENAICA") == {"carthage": {"legion": 2}}


# ====================================================================================
# Hamilcar (EX-HW-6)
# ====================================================================================
# province, marker, building spec: what a Greek legion alone there pillages
BUILDINGS = {
    "caravan": ("CYRENAICA", "egypt", "caravan:papyrus"),
    "city": ("CYRENAICA", "egypt", "city"),
    "capital": ("AEGYPTUS", "egypt", "capital"),
    "legendary": ("ASIA", "egypt", "legendary"),
    "temple": ("CYRENAICA", "egypt", "temple"),
    "market": ("CYRENAICA", "egypt", "market"),
}


def pillage(rules: Ruleset, building: str, holder: str | None,
            card: str = "hamilcar") -> tuple[Game, dict[str, int]]:
    """Greece pillages ``building``; ``holder`` holds ``card`` (Hamilcar). What Greece
    gained (a choice of two gains is left pending)."""
    game = empty_board(rules)
    for p in game.state.players:
        pos.clear_screen(game, p)
    if holder is not None:
        own(game, holder, card)
    prov, marker, spec = BUILDINGS[building]
    if game.state.control[prov] != marker:
        pos.set_marker(game, prov, marker)
    slot = pos.build(game, prov, spec)
    pos.add_units(game, "greece", prov, "legion")
    game.force("legendary draw", ["wine"])
    pos.start_phase(game, "military", round=2)
    play(game, "greece", ("done",))
    assert pending(game) == ("greece", "conquest.choose")
    play(game, ("pillage", slot))
    assert not game.state.built[prov][slot]
    return game, dict(game.state.screens["greece"])


@pytest.mark.parametrize(("building", "doubled"), [
    ("caravan", {"papyrus": 2}),
    ("city", {"coin": 2}),
    ("capital", {"coin": 2}),
    ("legendary", {"coin": 1, "legendary:wine": 1}),
    ("temple", {}),
    ("market", {}),
])
def test_hamilcar_doubles_the_pillage(rules: Ruleset, building: str,
                                      doubled: dict[str, int]) -> None:
    game, got = pillage(rules, building, "greece")
    assert got == doubled
    assert pending(game)[1] != "conquest.gain"  # both gains of a legendary city: no choice


@pytest.mark.parametrize(("building", "turned"), [
    ("caravan", {"coin": 1}),
    ("city", {"coin": 1}),
    ("legendary", {"coin": 1}),     # a choice of two gains: one coin, no choice left
    ("temple", {}),
])
def test_a_card_turns_the_pillages_gains_into_coins(tmp_path: Path, building: str,
                                                    turned: dict[str, int]) -> None:
    """A modder's Alchemist: ``replace pillage: turn the gains into coin``. What would
    have been papyrus, a coin, or a coin or a legendary wine is one coin each."""
    from test_card_scripts import with_cards

    rules = with_cards(tmp_path, ("alchemist", "replace pillage: turn the gains into coin"))
    game, got = pillage(rules, building, "greece", "alchemist")
    assert got == turned
    assert pending(game)[1] != "conquest.gain"


@pytest.mark.parametrize("holder", [None, "egypt"], ids=["nobody", "the victim"])
@pytest.mark.parametrize(("building", "normal"), [
    ("caravan", {"papyrus": 1}),
    ("city", {"coin": 1}),
    ("capital", {"coin": 1}),
    ("temple", {}),
])
def test_pillage_without_hamilcar(rules: Ruleset, building: str, normal: dict[str, int],
                                  holder: str | None) -> None:
    _, got = pillage(rules, building, holder)
    assert got == normal


def test_legendary_city_without_hamilcar_is_a_choice(rules: Ruleset) -> None:
    game, got = pillage(rules, "legendary", "rome")
    assert got == {}
    assert pending(game) == ("greece", "conquest.gain")
    assert set(game.legal()) == {"coin", "legendary"}
    play(game, "coin")
    assert game.state.screens["greece"] == {"coin": 1}


# ====================================================================================
# Queen of Sheba (4.3.3, EX-CONQ-6)
# ====================================================================================
def sheba(rules: Ruleset, holder: str = "greece") -> Game:
    """Greece (LIBYA, four legions) may occupy the Egyptian markers of CYRENAICA and
    GARAMANTIA, both beside LIBYA; ``holder`` holds the Queen of Sheba."""
    game = empty_board(rules)
    own(game, holder, "queen_of_sheba")
    pos.set_marker(game, "LIBYA", "greece")
    for prov in ("CYRENAICA", "GARAMANTIA"):
        pos.set_marker(game, prov, "egypt")
    pos.build(game, "CYRENAICA", "city")
    pos.add_units(game, "greece", "LIBYA", "legion", 4)
    pos.start_phase(game, "military", round=2)
    play(game, "greece", ("move", "LIBYA", "CYRENAICA"), ("move", "LIBYA", "CYRENAICA"),
         ("move", "LIBYA", "GARAMANTIA"), ("done",))
    assert pending(game) == ("greece", "conquest.choose")
    assert game.state.stack[-1]["province"] == "CYRENAICA"
    return game


def test_sheba_converts_at_once_removing_the_legion(rules: Ruleset) -> None:
    game = sheba(rules)
    state = game.state
    markers = (state.pieces["greece"]["marker"], state.pieces["egypt"]["marker"])
    culture = tracks(game, "greece")[1]
    play(game, ("marker",))
    assert pending(game) == ("greece", "card.may")
    play(game, "yes")
    assert state.control["CYRENAICA"] == "greece"
    assert "CYRENAICA" not in state.marker_occupier
    assert "CYRENAICA" not in state.vars.get("conquest", {})
    assert units(game, "CYRENAICA") == {"greece": {"legion": 1}}  # one of two removed
    assert state.pieces["greece"]["legion"] == 4 + 1
    assert (state.pieces["greece"]["marker"], state.pieces["egypt"]["marker"]) == (
        markers[0] - 1, markers[1] + 1)
    assert tracks(game, "greece")[1] == culture + 1  # the city is Greek at once
    assert pending(game) == ("greece", "conquest.choose")  # on to GARAMANTIA


def test_ex_conq_6_sheba_after_ex_move_3(rules: Ruleset) -> None:
    """EX-CONQ-6: Rome owns the Queen; after EX-MOVE-3 it occupies CYRENAICA's marker
    with one legion and converts at once: one legion left, military -1, the caravan,
    market (trade +2) and city (culture +1) Roman; Rome collects them next round."""
    game = after_ex_move_3(rules)
    own(game, "rome", "queen_of_sheba")
    rome, egypt = tracks(game, "rome"), tracks(game, "egypt")
    play(game, ("marker",), "yes")
    assert game.state.control["CYRENAICA"] == "rome"
    assert units(game, "CYRENAICA") == {"rome": {"legion": 1}}
    assert tracks(game, "rome") == (rome[0] + 2, rome[1] + 1, rome[2] - 1)
    assert tracks(game, "egypt") == (egypt[0] - 2, egypt[1] - 1, egypt[2])
    for p in game.state.players:
        pos.clear_screen(game, p)
    pos.start_phase(game, "production", round=3)
    assert pending(game)[1] == "trade.token"
    assert game.state.screens["rome"] == {"papyrus": 2, "coin": 1}


def test_sheba_once_per_round(rules: Ruleset) -> None:
    game = sheba(rules)
    play(game, ("marker",), "yes")
    play(game, ("marker",))  # GARAMANTIA: occupied only, as the rules have it
    assert game.state.marker_occupier["GARAMANTIA"] == "greece"
    assert game.state.control["GARAMANTIA"] == "egypt"
    assert pending(game)[1] == "military.next"
    # the next round the power is there again
    pos.add_units(game, "greece", "LIBYA", "legion")
    pos.set_marker(game, "NUBIA", "egypt")
    pos.start_phase(game, "military", round=3)
    # (at the start of his turn GARAMANTIA converts, by the normal timeline)
    play(game, "greece")
    assert game.state.control["GARAMANTIA"] == "greece"
    play(game, ("move", "LIBYA", "CYRENAICA"), ("move", "CYRENAICA", "NUBIA"), ("done",))
    assert pending(game) == ("greece", "conquest.choose")
    play(game, ("marker",))
    assert pending(game) == ("greece", "card.may")
    play(game, "yes")
    assert game.state.control["NUBIA"] == "greece"


def test_sheba_declined_keeps_the_normal_timeline(rules: Ruleset) -> None:
    game = sheba(rules)
    play(game, ("marker",), "no")
    state = game.state
    assert state.control["CYRENAICA"] == "egypt"
    assert state.marker_occupier["CYRENAICA"] == "greece"
    assert units(game, "CYRENAICA") == {"greece": {"legion": 2}}
    play(game, ("pass",))  # GARAMANTIA
    # converted at the start of his next Move & Fight turn (NL 4.3.3), legion kept
    pos.start_phase(game, "military", round=3)
    play(game, "greece")
    assert state.control["CYRENAICA"] == "greece"
    assert units(game, "CYRENAICA") == {"greece": {"legion": 2}}


def test_sheba_declined_is_not_used_up(rules: Ruleset) -> None:
    """Declining on CYRENAICA leaves the power for GARAMANTIA, the same turn."""
    game = sheba(rules)
    play(game, ("marker",), "no", ("marker",))
    assert pending(game) == ("greece", "card.may")
    play(game, "yes")
    assert game.state.control["GARAMANTIA"] == "greece"


def test_sheba_not_for_another_player(rules: Ruleset) -> None:
    game = sheba(rules, holder="egypt")
    play(game, ("marker",))
    assert pending(game) == ("greece", "conquest.choose")  # no question: on to GARAMANTIA
    assert game.state.control["CYRENAICA"] == "egypt"


def test_sheba_needs_a_marker_in_the_box(rules: Ruleset) -> None:
    game = sheba(rules)
    for prov in ("DALMATIA", "DACIA", "THRACIA", "MACEDONIA", "GERMANIA", "GALLIA"):
        pos.set_marker(game, prov, "greece")
    assert game.state.pieces["greece"]["marker"] == 0
    play(game, ("marker",))
    assert pending(game) == ("greece", "conquest.choose")  # nothing to convert with
    assert game.state.marker_occupier["CYRENAICA"] == "greece"


def test_sheba_needs_the_link_even_where_the_marker_needs_none() -> None:
    """FR 4.3.3: occupying needs no link, converting does; Sheba converts only linked."""
    game = empty_board(pack("fr"))
    own(game, "greece", "queen_of_sheba")
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "greece", "CYRENAICA", "legion", 2)
    pos.start_phase(game, "military", round=2)
    play(game, "greece", ("done",), ("marker",))
    assert game.state.marker_occupier["CYRENAICA"] == "greece"
    assert game.state.control["CYRENAICA"] == "egypt"
    assert pending(game)[1] == "military.next"  # no question asked


# ====================================================================================
# Castor & Pollux (EX-HW-3)
# ====================================================================================
def castor(rules: Ruleset, coins: int = 10) -> Game:
    """Carthage may buy Castor & Pollux; Rome holds Spartacus and Penthesilea, Greece
    Perseus and Ramesses, Egypt the Colossus (a wonder)."""
    game = new_game(rules, 5, seed=1)
    for p in game.state.players:
        pos.clear_screen(game, p)
    own(game, "rome", "spartacus", "penthesilea")
    own(game, "greece", "perseus", "ramesses")
    own(game, "egypt", "colossus")
    pos.give(game, "carthage", {"coin": coins})
    pos.start_phase(game, "build", round=2)
    play(game, "carthage", ("tile", "castor_pollux"), ("coin",) * 7)
    return game


def test_castor_and_pollux_copy_another_players_hero(face_up: Ruleset) -> None:
    game = castor(face_up)
    assert pending(game) == ("carthage", "card.choose")
    # no starting hero (Caesar...), no wonder (Colossus), not Perseus
    assert set(game.legal()) == {"spartacus", "penthesilea", "ramesses"}
    before = tracks(game, "carthage")
    play(game, "spartacus")
    assert game.state.vars["copies"] == {"carthage": ["spartacus"]}
    assert "spartacus" not in game.state.tiles["carthage"]
    # the power works at once: a legion for one coin, once per round
    cheap = card_offers(game)
    assert {o[1:3] for o in cheap} == {("card:spartacus#0", "legion")}
    play(game, cheap[0], ("coin",))
    assert tracks(game, "carthage") == (before[0], before[1], before[2] + 1)
    assert not card_offers(game)
    # the original keeps his power
    play(game, ("end",))
    pos.give(game, "rome", {"coin": 1})
    play(game, "rome")
    assert ("offer", "card:spartacus#0", "legion", "LATIUM") in game.legal()


def test_castor_and_pollux_copy_no_bonuses(face_up: Ruleset) -> None:
    game = castor(face_up)
    before = tracks(game, "carthage")
    play(game, "penthesilea")  # C2 M2 on the original, none on the copy
    assert tracks(game, "carthage") == before
    assert face_up.cards["castor_pollux"].bonuses == {}


def test_castor_and_pollux_the_original_ranks_first(face_up: Ruleset) -> None:
    """NL Q&A: the original has priority: its effects apply before the copy's."""
    game = castor(face_up)
    play(game, "ramesses")
    pos.clear(game)
    pos.set_marker(game, "LIBYA", "carthage")
    pos.add_units(game, "carthage", "LIBYA", "legion", 2)
    pos.add_units(game, "greece", "LIBYA", "legion", 2)
    battle = land("LIBYA", "greece", "carthage")
    greece, carthage = sides(game, battle)
    assert (greece.dice, carthage.dice) == (3, 3)  # both roll the extra die
    ranks = {}
    for player in ("greece", "carthage"):
        ctx = {"battle": battle, "side": player, "units": 2}
        for found in face_up.hook.mn_modifiers(game=game, quantity="battle.dice", ctx=ctx):
            for mod in found or []:
                if mod.source == "card:ramesses":
                    ranks[player] = mod.rank
    assert ranks == {"greece": ORIGINAL_RANK, "carthage": COPY_RANK}
    assert ORIGINAL_RANK < COPY_RANK


def test_castor_and_pollux_with_no_hero_to_copy(face_up: Ruleset) -> None:
    """Only starting heroes, wonders and Perseus elsewhere: bought, no power (Q22)."""
    game = new_game(face_up, 5, seed=1)
    own(game, "greece", "perseus")
    own(game, "egypt", "pharos")
    pos.clear_screen(game, "carthage")
    pos.give(game, "carthage", {"coin": 7})
    pos.start_phase(game, "build", round=2)
    play(game, "carthage", ("tile", "castor_pollux"), ("coin",) * 7)
    assert pending(game) == ("carthage", "build.action")
    assert "castor_pollux" in game.state.tiles["carthage"]
    assert not game.state.vars.get("copies")


def test_castor_and_pollux_copy_only_on_their_own_purchase(face_up: Ruleset) -> None:
    """Held already, they copy nothing when another tile is bought."""
    game = new_game(face_up, 5, seed=1)
    own(game, "rome", "spartacus")
    own(game, "carthage", "castor_pollux")
    pos.clear_screen(game, "carthage")
    pos.give(game, "carthage", {"coin": 8})
    pos.start_phase(game, "build", round=2)
    play(game, "carthage", ("tile", "hercules"), ("coin",) * 8)
    assert pending(game) == ("carthage", "build.action")
    assert not game.state.vars.get("copies")


# ====================================================================================
# Antigone (EX-HW-8)
# ====================================================================================
STOCK = {"carthage": {"sheep": 2, "spices": 2, "gladiators": 2},
         "rome": {"metal": 2, "wine": 2, "grain": 2},
         "greece": {"stone": 2, "wood": 2, "oil": 2},
         "egypt": {"papyrus": 2, "gems": 2, "gold": 2}}


def trade(rules: Ruleset, holder: str, token: tuple[str, int],
          stock: dict[str, dict[str, int]] | None = None) -> Game:
    game = new_game(rules, 4, seed=1)
    for p in game.state.players:
        pos.clear_screen(game, p)
    for p, res in (stock or STOCK).items():
        pos.give(game, p, res)
    own(game, holder, "antigone")
    pos.start_phase(game, "trade", round=2)
    play(game, token)
    return game


def offered(game: Game) -> dict[str, int]:
    made: dict[str, int] = {}
    while (dec := game.pending) is not None and dec.kind == "trade.offer":
        made[dec.player] = made.get(dec.player, 0) + 1
        play(game, dec.options[0])
    return made


@pytest.mark.parametrize("token", [("2/1", 2), ("4/3", 3), ("5/0", 0)])
def test_antigone_offers_any_number_from_0_to_5(rules: Ruleset,
                                                 token: tuple[str, int]) -> None:
    game = trade(rules, "rome", token)
    dec = game.pending
    assert dec is not None and (dec.player, dec.kind) == ("rome", "trade.size")
    assert dec.hidden
    assert dec.options == (0, 1, 2, 3, 4, 5)
    play(game, 5)
    value = token[1]
    want = {p: value for p in STOCK if value} | {"rome": 5}
    assert offered(game) == want


def test_antigone_may_offer_nothing(rules: Ruleset) -> None:
    game = trade(rules, "rome", ("4/3", 4))
    play(game, 0)
    assert offered(game) == {"carthage": 4, "greece": 4, "egypt": 4}


@pytest.mark.parametrize(("short", "sizes"), [("offer_all", (0, 1, 2, 3)),
                                              ("exclude", (0, 1, 2, 3))])
def test_antigone_limited_by_holdings(fresh_rules: Callable[..., Ruleset], short: str,
                                      sizes: tuple[int, ...]) -> None:
    stock = {**STOCK, "rome": {"metal": 2, "wine": 1}}
    game = trade(fresh_rules(trade_short_player=short), "rome", ("2/1", 2), stock)
    assert pending(game) == ("rome", "trade.size")
    assert game.legal() == sizes


def test_antigone_not_for_the_others(rules: Ruleset) -> None:
    game = trade(rules, "greece", ("2/1", 1))
    assert pending(game) == ("greece", "trade.size")  # only Greece is asked
    play(game, 1)
    assert offered(game) == dict.fromkeys(STOCK, 1)


# ====================================================================================
# Statue of Zeus (EX-HW-7, D37)
# ====================================================================================
def zeus(rules: Ruleset, holder: str = "rome", last: dict[str, Any] | None = None) -> Game:
    """EX-HW-7: Rome holds the Statue and ITALIA and NUBIA; Egypt holds CYRENAICA. Two
    Egyptian legions stand in ITALIA, a Roman and an Egyptian one in CYRENAICA, an
    Egyptian one in neutral LIBYA and a Roman one in neutral PHAZANIA, beside it. The
    build phase of round 2 is played out (nobody buys anything), so Move & Fight starts
    as in a game."""
    game = empty_board(rules)
    for p in game.state.players:
        pos.clear_screen(game, p)
    own(game, holder, "statue_of_zeus")
    pos.set_marker(game, "ITALIA", "rome")
    pos.set_marker(game, "NUBIA", "rome")
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "egypt", "ITALIA", "legion", 2)
    pos.add_units(game, "rome", "CYRENAICA", "legion", 1)
    pos.add_units(game, "egypt", "CYRENAICA", "legion", 1)
    pos.add_units(game, "egypt", "LIBYA", "legion", 1)
    pos.add_units(game, "rome", "PHAZANIA", "legion", 1)
    if last is not None:
        game.state.vars["peace"] = last
    pos.start_phase(game, "build", round=2)
    end_build_phase(game)
    assert game.state.phase == "military"
    return game


def make_peace(game: Game, partner: str) -> None:
    assert pending(game) == ("rome", "card.may")
    play(game, "yes")
    assert pending(game) == ("rome", "card.choose")
    play(game, partner)
    assert pending(game) == ("rome", "military.next")


def legion_moves(game: Game) -> set[tuple[str, str]]:
    return {(c[1], c[2]) for c in moves_and_offers(game) if c[0] == "move"}


def turn_moves(game: Game, player: str) -> set[tuple[str, str]]:
    """The legion moves ``player`` is offered when named (he then moves nothing)."""
    play(game, player)
    while pending(game)[1] in ("military.trireme", "military.naval"):
        play(game, ("done",))
    assert pending(game) == (player, "military.legion")
    moves = legion_moves(game)
    play(game, ("done",))
    return moves


def test_zeus_asked_at_the_start_of_move_and_fight(rules: Ruleset) -> None:
    game = zeus(rules)
    dec = game.pending
    assert dec is not None and (dec.player, dec.kind) == ("rome", "card.may")
    play(game, "yes")
    assert set(game.legal()) == {"greece", "babylon", "egypt", "carthage"}


def test_zeus_peace_sends_the_partners_legions_home(rules: Ruleset) -> None:
    """NL/PL: only his legions in your provinces go back, to his capital province."""
    game = zeus(rules)
    make_peace(game, "egypt")
    assert units(game, "ITALIA") == {}
    assert units(game, "AEGYPTUS") == {"egypt": {"legion": 2}}
    assert units(game, "CYRENAICA") == {"rome": {"legion": 1}, "egypt": {"legion": 1}}
    assert units(game, "LIBYA") == {"egypt": {"legion": 1}}
    assert check(game) == []


def test_zeus_no_battle_and_no_entering_each_others_provinces(rules: Ruleset) -> None:
    game = zeus(rules)
    make_peace(game, "egypt")
    battles = record(game, "battle")
    moves = turn_moves(game, "rome")
    assert ("CYRENAICA", "AEGYPTUS") not in moves  # Egypt's
    assert {("CYRENAICA", "NUBIA"), ("CYRENAICA", "LIBYA"),  # his own; neutral
            ("PHAZANIA", "LIBYA")} <= moves  # (Egyptian units do not close it)
    assert battles == []  # CYRENAICA: both stay, no battle
    moves = turn_moves(game, "egypt")
    assert ("AEGYPTUS", "NUBIA") not in moves and ("CYRENAICA", "NUBIA") not in moves
    assert {("AEGYPTUS", "CYRENAICA"), ("LIBYA", "PHAZANIA")} <= moves
    assert battles == []


def test_zeus_peace_binds_only_the_two(rules: Ruleset) -> None:
    game = zeus(rules)
    make_peace(game, "egypt")
    pos.add_units(game, "carthage", "LIBYA", "legion", 2)
    battles = record(game, "battle")
    game.force("land die", [0, 0, 0])
    play(game, "carthage", ("done",))
    assert [(e.player, e.data["defender"]) for e in battles] == [("carthage", "egypt")]


def test_zeus_declined_changes_nothing(rules: Ruleset) -> None:
    game = zeus(rules)
    play(game, "no")
    assert pending(game) == ("rome", "military.next")
    assert units(game, "ITALIA") == {"egypt": {"legion": 2}}
    battles = record(game, "battle")
    game.force("land die", [0, 0])
    play(game, "rome", ("done",))
    assert [e.data["area"] for e in battles] == ["CYRENAICA"]
    assert {("CYRENAICA", "NUBIA"), ("ITALIA", "LATIUM")} <= turn_moves(game, "egypt")


def keep_titles(game: Game) -> Any:
    """First options, except that a tied title stays with its holder."""
    dec = game.pending
    assert dec is not None
    if dec.kind == "claims.tie" and dec.player in dec.options:
        return dec.player
    return dec.options[0]


def next_military_phase(game: Game) -> list[str]:
    """Play on (first options) to the next round's Move & Fight; the card decisions met."""
    asked = []
    start = game.state.round
    while (game.state.round, game.state.phase) != (start + 1, "military"):
        dec = game.pending
        assert dec is not None
        if dec.kind.startswith("card."):
            asked.append(f"{dec.player} {game.state.phase}")
        play(game, keep_titles(game))
    return asked


def test_zeus_every_round_never_the_same_partner_twice_running(rules: Ruleset) -> None:
    """Asked only at the start of Move & Fight, only of its holder; Egypt, the partner
    of round 2, is barred in round 3, and offered again in round 4."""
    game = zeus(rules, holder="babylon")
    assert pending(game) == ("babylon", "card.may")
    play(game, "yes", "egypt")
    assert next_military_phase(game) == []
    assert pending(game) == ("babylon", "card.may")
    play(game, "yes")
    assert set(game.legal()) == {"rome", "greece", "carthage"}
    play(game, "rome")
    assert next_military_phase(game) == []
    play(game, "yes")
    assert set(game.legal()) == {"greece", "egypt", "carthage"}  # Rome barred now


def test_zeus_a_declined_round_bars_nobody(rules: Ruleset) -> None:
    game = zeus(rules, last={"by": "rome", "with": "egypt", "round": 0})
    play(game, "yes")
    assert "egypt" in game.legal()


def test_zeus_peace_lasts_the_round(rules: Ruleset) -> None:
    game = zeus(rules)
    make_peace(game, "egypt")
    pos.start_phase(game, "military", round=3)
    battles = record(game, "battle")
    game.force("land die", [0, 0])
    play(game, "no", "rome", ("done",))         # round 3: Rome declines a new peace
    assert [e.data["area"] for e in battles] == ["CYRENAICA"]


def test_zeus_french_all_units_both_ways_and_units_block() -> None:
    """FR: all the ally's units go home "et réciproquement"; neither may enter a
    province holding the other's marker or units."""
    game = zeus(pack("fr"))
    make_peace(game, "egypt")
    assert units(game, "ITALIA") == {}
    assert units(game, "AEGYPTUS") == {"egypt": {"legion": 2}}
    assert units(game, "CYRENAICA") == {"egypt": {"legion": 1}}
    assert units(game, "LATIUM") == {"rome": {"legion": 1}}
    moves = turn_moves(game, "rome")
    assert ("PHAZANIA", "LIBYA") not in moves  # an Egyptian legion there
    assert {("PHAZANIA", "GARAMANTIA"), ("LATIUM", "ITALIA")} <= moves
    moves = turn_moves(game, "egypt")
    assert ("LIBYA", "PHAZANIA") not in moves  # a Roman legion there
    assert ("AEGYPTUS", "NUBIA") not in moves  # a Roman marker there
    assert {("LIBYA", "AFRICA"), ("AEGYPTUS", "CYRENAICA")} <= moves


def test_zeus_ukrainian_legions_both_ways() -> None:
    """UK: his legions go home "and yours in his provinces return to your capital";
    only the other's provinces are closed."""
    game = zeus(pack("uk"))
    make_peace(game, "egypt")
    assert units(game, "ITALIA") == {}
    assert units(game, "AEGYPTUS") == {"egypt": {"legion": 2}}
    assert units(game, "CYRENAICA") == {"egypt": {"legion": 1}}
    assert units(game, "LATIUM") == {"rome": {"legion": 1}}
    moves = turn_moves(game, "rome")
    assert ("PHAZANIA", "LIBYA") in moves
    moves = turn_moves(game, "egypt")
    assert ("AEGYPTUS", "NUBIA") not in moves
    assert ("LIBYA", "PHAZANIA") in moves


# ====================================================================================
# Hanging Gardens, Circe, Colossus, the Pyramids: what the other files leave out
# ====================================================================================
def storage_turn(rules: Ruleset, holder: str, screens: dict[str, dict[str, int]]) -> Game:
    game = new_game(rules, 5, seed=1)
    for p in game.state.players:
        pos.clear_screen(game, p)
    for p, res in screens.items():
        pos.give(game, p, res)
    own(game, holder, "hanging_gardens")
    pos.start_phase(game, "build", round=2)
    return game


def test_hanging_gardens_goods_of_different_types_only(rules: Ruleset) -> None:
    game = storage_turn(rules, "rome", {"rome": {"grain": 2, "legendary:grain": 1,
                                                 "wood": 1, "coin": 3}})
    play(game, "rome", ("end",))
    assert pending(game) == ("rome", "build.keep")
    # never two grains (a legendary grain is grain too)
    assert set(game.legal()) == {("grain", "wood"), ("legendary:grain", "wood")}
    play(game, ("legendary:grain", "wood"))
    assert game.state.screens["rome"] == {"coin": 2, "legendary:grain": 1, "wood": 1}


def test_hanging_gardens_not_for_the_others(rules: Ruleset) -> None:
    game = storage_turn(rules, "egypt", {"rome": {"grain": 1, "wood": 1, "coin": 3}})
    play(game, "rome", ("end",))
    assert pending(game)[1] == "build.next"
    assert game.state.screens["rome"] == {"coin": 2}


def circe_in(rules: Ruleset, marker: str | None, enemy: bool = False) -> dict[str, int]:
    """A Roman legion on CYRENAICA's empty papyrus slot (``marker`` holds the province);
    what Rome collects."""
    game = empty_board(rules, 4)
    for p in game.state.players:
        pos.clear_screen(game, p)
    own(game, "rome", "circe")
    pos.set_marker(game, "CYRENAICA", marker)
    pos.build(game, "CYRENAICA", "city")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    if enemy:
        pos.add_units(game, "carthage", "CYRENAICA", "legion")
    pos.start_phase(game, "production", round=2)
    assert pending(game)[1] == "trade.token"
    return dict(game.state.screens["rome"])


@pytest.mark.parametrize(("edition", "marker", "enemy", "papyrus"), [
    ("en", "egypt", False, 1), ("en", "rome", True, 1),
    ("fr", "egypt", False, 0), ("fr", "rome", False, 1), ("fr", None, False, 1),
    ("fr", "rome", True, 0), ("fr", None, True, 0),
])
def test_circe_where(edition: str, marker: str | None, enemy: bool, papyrus: int) -> None:
    """FR 1: "sur vos Provinces ou des Provinces neutres" without enemy units; NL/PL/UK
    anywhere."""
    got = circe_in(pack(edition), marker, enemy)
    assert got.get("papyrus", 0) == papyrus


@pytest.mark.parametrize(("legions", "occupy_market", "papyrus"), [
    (1, True, 0),   # the only legion stands on the market it occupies, not on the slot
    (2, True, 2),   # the other one acts as a caravan, doubled by the market he controls
    (2, False, 1),  # two legions, one empty slot: one papyrus; Egypt's market doubles none
])
def test_circe_legions_act_as_caravans(rules: Ruleset, legions: int, occupy_market: bool,
                                       papyrus: int) -> None:
    """EX-HW-4: "It would be 2 only if Rome also controlled the market"."""
    game = empty_board(rules, 4)
    for p in game.state.players:
        pos.clear_screen(game, p)
    own(game, "rome", "circe")
    pos.set_marker(game, "CYRENAICA", "egypt")
    market = pos.build(game, "CYRENAICA", "market")
    pos.add_units(game, "rome", "CYRENAICA", "legion", legions)
    if occupy_market:
        game.state.occupied["CYRENAICA"][market] = "rome"
    pos.start_phase(game, "production", round=2)
    assert pending(game)[1] == "trade.token"
    assert game.state.screens["rome"].get("papyrus", 0) == papyrus
    assert game.state.screens["egypt"] == {}


def test_circe_in_his_own_province_with_his_market() -> None:
    for edition in ("en", "fr"):
        assert circe_in_own(pack(edition)) == {"papyrus": 2}


def circe_in_own(rules: Ruleset) -> dict[str, int]:
    game = empty_board(rules, 4)
    for p in game.state.players:
        pos.clear_screen(game, p)
    own(game, "rome", "circe")
    pos.set_marker(game, "CYRENAICA", "rome")
    pos.build(game, "CYRENAICA", "market")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    pos.start_phase(game, "production", round=2)
    assert pending(game)[1] == "trade.token"
    return dict(game.state.screens["rome"])


def test_circe_not_for_another_player(rules: Ruleset) -> None:
    game = empty_board(rules, 4)
    for p in game.state.players:
        pos.clear_screen(game, p)
    own(game, "carthage", "circe")
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.build(game, "CYRENAICA", "city")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    pos.start_phase(game, "production", round=2)
    assert pending(game)[1] == "trade.token"
    assert game.state.screens == {"rome": {}, "greece": {}, "egypt": {"coin": 1},
                                  "carthage": {}}


def test_colossus_nothing_in_round_one(rules: Ruleset) -> None:
    """Round 1 has no Collect phase, so nobody has collected and nothing is taken."""
    game = new_game(rules, 5, seed=1)
    own(game, "rome", "colossus")
    pos.start_phase(game, "production", round=1)
    assert pending(game)[1] == "trade.token"


def test_colossus_not_for_the_others(rules: Ruleset) -> None:
    game = empty_board(rules)
    own(game, "rome", "colossus")
    pos.start_phase(game, "production", round=2)
    assert pending(game)[0] == "rome"  # Rome's choice; Egypt, Greece... are not asked
    play(game, game.legal()[0])
    assert pending(game)[1] == "trade.token"


def test_pyramids_are_no_hero_or_wonder(face_up: Ruleset) -> None:
    """Owning them does not raise the price of the next tile, and only their own
    purchase claims a victory."""
    game = new_game(face_up, 5, seed=1)
    own(game, "rome", "pyramids")
    pos.clear_screen(game, "rome")
    pos.give(game, "rome", {"coin": 7})
    pos.start_phase(game, "build", round=2)
    play(game, "rome", ("tile", "pharos"))
    assert game.legal() == (("coin",) * 7,)  # his 2nd tile: 7
    play(game, ("coin",) * 7, ("end",))
    assert not game.over and pending(game)[1] == "build.next"


def test_pyramids_cost_twelve_after_four_tiles(face_up: Ruleset) -> None:
    game = new_game(face_up, 5, seed=1)
    own(game, "greece", "hamilcar", "ramesses", "hercules")
    pos.clear_screen(game, "greece")
    pos.give(game, "greece", {"coin": 12})
    pos.start_phase(game, "build", round=2)
    play(game, "greece", ("tile", "pyramids"))
    assert game.legal() == (("coin",) * 12,)
    play(game, ("coin",) * 12)
    assert (game.state.winners, game.state.victory) == (["greece"], "prestige")


# ====================================================================================
# Build offers: nobody else's, and once per round (Gilgamesh, Pharos, Hammurabi,
# Penthesilea; Spartacus in test_build)
# ====================================================================================
OFFERS = {"gilgamesh": ("fortress", "stone"), "pharos": ("trireme", "wood"),
          "spartacus": ("legion", "gladiators"), "hammurabi": ("marker", None),
          "penthesilea": ("legion", None)}


def offer_game(rules: Ruleset, tile: str, holder: str) -> Game:
    game = new_game(rules, 5, seed=1)
    for p in game.state.players:
        pos.clear_screen(game, p)
        pos.give(game, p, {"coin": 2})
    own(game, holder, tile)
    pos.add_units(game, "rome", "CYRENAICA", "legion")  # an enemy in an Egyptian province
    pos.add_units(game, "rome", "NUMIDIA", "legion")  # and in a Carthaginian one
    return game


def card_offers(game: Game) -> list[tuple[Any, ...]]:
    return [o for o in moves_and_offers(game) if o[0] == "offer"]


@pytest.mark.parametrize("tile", sorted(OFFERS))
def test_offers_for_the_holder_only_once_per_round(face_up: Ruleset, tile: str) -> None:
    holder = "babylon" if tile == "hammurabi" else "carthage"
    other = "egypt"
    game = offer_game(face_up, tile, holder)
    if tile == "hammurabi":
        game.state.tiles["egypt"].remove("cleopatra")  # Egypt: no power of this kind
    pos.start_phase(game, "build", round=2)
    play(game, other)
    assert card_offers(game) == []  # another player: nothing
    play(game, ("end",))
    play(game, holder)
    found = card_offers(game)
    assert found and {o[2] for o in found} == {OFFERS[tile][0]}
    play(game, found[0])
    if pending(game)[1] == "build.pay":
        play(game, ("coin",))
    assert pending(game) == (holder, "build.action")
    assert card_offers(game) == []  # used up for the round
    play(game, ("end",))
    assert card_offers_next_turn(game, holder) == []


def card_offers_next_turn(game: Game, player: str) -> list[tuple[Any, ...]]:
    """A second build turn in the same round (a position edit): still used up."""
    pos.start_phase(game, "build", round=game.state.round)
    play(game, player)
    return card_offers(game)


def test_penthesilea_no_enemy_units_no_legions(face_up: Ruleset) -> None:
    game = new_game(face_up, 5, seed=1)
    own(game, "egypt", "penthesilea")
    pos.start_phase(game, "build", round=2)
    play(game, "egypt")
    assert card_offers(game) == []


# ====================================================================================
# Every tile in play: random legal games stay sound
# ====================================================================================
def deal_every_tile(game: Game, rnd: random.Random) -> None:
    """Every tile nobody holds goes to a random player; Castor & Pollux' holder copies
    a random hero another player holds (as if he had bought them)."""
    state = game.state
    cards = game.rules.cards
    held = {t for p in state.players for t in state.tiles[p]}
    for tile in sorted(cards):
        if tile not in held:
            own(game, rnd.choice(state.players), tile)
    assert not state.display and not state.display_hidden
    twins = next(p for p in state.players if "castor_pollux" in state.tiles[p])
    heroes = sorted(t for p in state.players if p != twins for t in state.tiles[p]
                    if cards[t].kind == "hero" and cards[t].extra.get("copyable", True))
    if heroes:
        state.vars["copies"] = {twins: [rnd.choice(heroes)]}


ROUNDS = 5


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(edition=st.sampled_from(["en", "fr", "pl", "uk"]), players=st.sampled_from([3, 4, 5]),
       seed=st.integers(0, 2**31 - 1), choice_seed=st.integers(0, 2**31 - 1))
def test_random_play_with_every_tile_dealt(edition: str, players: int, seed: int,
                                            choice_seed: int) -> None:
    rules = pack(edition)
    game = new_game(rules, players, seed=seed, round_cap=ROUNDS)
    rnd = random.Random(choice_seed)
    deal_every_tile(game, rnd)
    audit(game)
    kinds: set[str] = set()
    while (dec := game.pending) is not None:
        kinds.add(dec.kind)
        game.apply(dec.options[rnd.randrange(len(dec.options))])
        # invariants.check, the tracks recounted (bonuses of every tile included) and
        # no unit or occupation where the rules forbid it
        audit(game)
    assert game.state.finished
    if game.state.victory == "round cap":
        assert "card.may" in kinds  # the Statue of Zeus asks every round


def test_circe_the_legion_stands_on_the_caravan_slot_its_player_chooses() -> None:
    """NL 10 Circe: the legion is placed on the goods symbol. Rome holds Circe; one Roman
    legion stands in LATIUM, whose two caravan slots (metal, wine) are empty. Rome
    chooses the wine slot, not the first slot in file order."""
    from test_production import blank, collect, own

    game = blank(pack("nl"))
    own(game, "rome", "circe")
    pos.add_units(game, "rome", "LATIUM", "legion")
    pos.start_phase(game, "production", round=2)
    assert pending(game) == ("rome", "collect.choice")
    assert set(game.legal()) == {"metal", "wine"}
    play(game, "wine")
    assert game.state.screens["rome"] == {"wine": 1}
    # two legions stand on both slots: no choice
    game = blank(pack("nl"))
    own(game, "rome", "circe")
    pos.add_units(game, "rome", "LATIUM", "legion", 2)
    assert collect(game) == {"rome": {"metal": 1, "wine": 1}}


def test_perseus_holder_may_let_the_culture_leader_name_whom_he_likes() -> None:
    """NL 10 Perseus « Je mag de culturele leider negeren » (you may ignore the culture
    leader). Greece holds Perseus and four tiles with 10 coins, and could win by
    building first; he declines. Egypt, the culture leader, names anyone."""
    game = build_phase("nl", "egypt", {"greece": ["perseus", "hamilcar", "ramesses"]},
                       {"greece": 10, "rome": 10})
    assert pending(game) == ("greece", "build.claim_first")
    assert set(game.legal()) == {"yes", "no"}
    play(game, "no")
    dec = game.pending
    assert dec is not None and (dec.player, dec.kind) == ("egypt", "build.next")
    assert set(dec.options) == set(game.state.players)
    play(game, "rome")  # Rome builds first: the order is the culture leader's
    assert pending(game) == ("rome", "build.action")
