"""The words of the effect language (plugins/mare_nostrum/words.py) as the cards use
them: the numbers a script may write, the most a card may make of a quantity, what the
Statue of Zeus' peace leaves behind, and when Perseus "can win by building" (mutation
testing, issue 19)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, pending, play
from mare_nostrum import position as pos
from mare_nostrum.battle import side_for
from mare_nostrum.control import slot_controller
from mare_nostrum.words import QUANTITY_NUMBERS
from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.language.syntax import ScriptError
from test_build import face_up_game, game_at, turn
from test_card_scripts import fight_two_battles, with_cards
from test_cards import land, make_peace, turn_moves, zeus
from test_movement import empty_board


@pytest.mark.parametrize(("script", "message"), [
    ("modify track: add 21", "21 is out of range for the quantity 'track': from 0 to 20"),
    ("modify battle.hits: add 21", "from 0 to 20 allowed"),
    ("modify payment: allow 10 coin in goods sets",
     "10 is out of range for the allowance 'coin in goods sets': from 0 to 9 allowed"),
    ("modify payment: allow 10 repeated good type", "from 0 to 9 allowed"),
])
def test_a_script_may_not_write_numbers_beyond_the_words_range(
        tmp_path: Path, script: str, message: str) -> None:
    """A track moves by at most 20 for a card, a payment set allows at most 9 of
    anything (no set is larger): a bigger number is refused, with its place."""
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, ("hero", script))
    assert message in str(err.value)
    assert "hero.yaml:6:" in str(err.value)


@pytest.mark.parametrize("script", ["modify track: add 20", "modify battle.hits: add 20",
                                    "modify payment: allow 9 coin in goods sets",
                                    "modify payment: allow 9 good in coin sets"])
def test_the_largest_number_of_each_range_is_allowed(tmp_path: Path, script: str) -> None:
    assert with_cards(tmp_path, ("hero", script)).cards["hero"]


def test_no_card_makes_a_side_score_more_than_99_extra_hits(tmp_path: Path) -> None:
    """However a card's changes combine, a battle's extra hits stop at 99 (the words'
    ceiling, so that no script makes the engine count without end): 20 per legion with
    six legions would be 120."""
    rules = with_cards(tmp_path, ("ares", "modify battle.hits when you attack: "
                                          "add 20 per legion you have here"))
    game = empty_board(rules)
    pos.give_tiles(game, "carthage", "ares")
    pos.add_units(game, "carthage", "CYRENAICA", "legion", 6)
    pos.add_units(game, "egypt", "CYRENAICA", "legion", 1)
    battle = land("CYRENAICA", "carthage", "egypt")
    assert side_for(game, battle, "carthage").extra_hits == 99
    pos.add_units(game, "carthage", "LIBYA", "legion", 1)
    few = land("LIBYA", "carthage", "egypt")
    pos.add_units(game, "egypt", "LIBYA", "legion", 1)
    assert side_for(game, few, "carthage").extra_hits == 20


def test_zeus_peace_ends_what_the_partners_legions_occupied(rules: Ruleset) -> None:
    """EX-HW-7: Egypt's two legions in ITALIA occupy Rome's market there. Rome makes peace
    with Egypt: the legions go to their capital, and with them the occupation ends: the
    market is Rome's again (4.3.2: when the occupying legions leave, the marker holder regains
    control at once)."""
    game = zeus(rules)
    market = pos.build(game, "ITALIA", "market")
    game.state.occupied["ITALIA"][market] = "egypt"
    assert slot_controller(game.state, "ITALIA", market) == "egypt"
    make_peace(game, "egypt")
    assert game.state.count("ITALIA", "egypt", "legion") == 0
    assert slot_controller(game.state, "ITALIA", market) == "rome"
    assert game.state.occupied["ITALIA"][market] is None


def perseus_game(fresh_rules: Any, tiles: tuple[str, ...], coins: int) -> Any:
    game = face_up_game(fresh_rules, greece={"coin": coins})
    pos.give_tiles(game, "greece", "perseus", *tiles)
    pos.start_phase(game, "build", round=2)
    return game


def test_perseus_claims_the_first_turn_only_for_a_winning_purchase(fresh_rules: Any) -> None:
    """NL 10 Perseus: he may claim the first build turn when he can win by building.
    With three tiles and 10 coins Greece could buy his fourth, not his fifth: the culture
    leader names the builders as usual, Greece is not asked."""
    game = perseus_game(fresh_rules, ("hamilcar",), 10)
    dec = game.pending
    assert dec is not None and dec.kind == "build.next"
    assert set(dec.options) == {"rome", "greece", "egypt", "carthage"}


def test_perseus_may_claim_it_with_his_fifth_in_reach(fresh_rules: Any) -> None:
    game = perseus_game(fresh_rules, ("hamilcar", "ramesses"), 10)
    assert pending(game) == ("greece", "build.claim_first")
    play(game, "no")
    assert pending(game)[1] == "build.next"


def collect_with(tmp_path: Path, script: str, screens: dict[str, dict[str, int]]) -> Any:
    """Round 2's Collect phase on an empty board (nobody produces anything), Rome
    holding a modder's hero with ``script``; the screens as given before it."""
    game = new_game(with_cards(tmp_path, ("hero", script)), 5, seed=1)
    pos.clear(game)
    game.state.round = 2
    for p, res in screens.items():
        pos.give(game, p, res)
    pos.give_tiles(game, "rome", "hero")
    pos.start_phase(game, "production")
    assert game.pending is not None  # the phase has run
    return game


def test_a_script_names_any_good_of_the_box(tmp_path: Path) -> None:
    """{resource} is every good the pack's box holds, and coin: "take 1 wine" gives Rome
    a wine from the supply after his collect."""
    game = collect_with(tmp_path, "after collect: take 1 wine", {})
    assert game.state.screens["rome"] == {"wine": 1}


@pytest.mark.parametrize(("coins", "wine"), [(3, 1), (4, 1), (2, 0)])
def test_you_have_n_resources_means_at_least_n(tmp_path: Path, coins: int, wine: int) -> None:
    game = collect_with(tmp_path, "after collect when you have 3 coin: take 1 wine",
                        {"rome": {"coin": coins}})
    assert game.state.screens["rome"].get("wine", 0) == wine


def test_outside_a_battle_there_is_no_attacker_to_take_from(tmp_path: Path) -> None:
    """"Take 1 coin from the attacker" after an opponent's collect: there is no battle,
    so no attacker, and nobody loses a coin (the collector is no attacker)."""
    game = collect_with(tmp_path, "after collect by an opponent: take 1 coin from the attacker",
                        {"greece": {"coin": 2}, "egypt": {"coin": 2}})
    assert game.state.screens["rome"] == {}
    assert game.state.screens["greece"] == game.state.screens["egypt"] == {"coin": 2}


def test_take_from_each_opponent_takes_what_each_has(tmp_path: Path) -> None:
    """"Take 1 coin from each opponent": each other player's coin moves to Rome's screen
    (what he has: Egypt, with none, gives nothing)."""
    game = collect_with(tmp_path, "after collect: take 1 coin from each opponent",
                        {"greece": {"coin": 2}, "carthage": {"coin": 1}})
    assert game.state.screens["rome"] == {"coin": 2}
    assert game.state.screens["greece"] == {"coin": 1}
    assert game.state.screens["carthage"] == {}
    assert game.state.screens["egypt"] == {}


@pytest.mark.parametrize(("wine", "coin"), [(0, 0), (1, 1)])
def test_a_resource_you_have_counts_what_is_behind_your_screen(
        tmp_path: Path, wine: int, coin: int) -> None:
    game = collect_with(tmp_path, "after collect when at least 1 wine you have: take 1 coin",
                        {"rome": {"wine": wine}} if wine else {})
    assert game.state.screens["rome"].get("coin", 0) == coin


def test_once_per_round_extra_hits_help_in_one_battle_only(tmp_path: Path) -> None:
    """A hero's "once per round" extra hit is used up by the first battle whose dice are
    rolled with it: Rome (every die a blank) scores one hit against Egypt, none against
    Carthage."""
    rules = with_cards(tmp_path, ("achilles", "once per round modify battle.hits when "
                                              "land battle: add 1"))
    first, second = fight_two_battles(rules, preview=False)
    assert (first["rome"], second["rome"]) == (1, 0)


def test_once_per_round_discount_is_used_up_by_the_item_bought(tmp_path: Path) -> None:
    """A hero's "once per round" discount on legions: Rome's first legion costs 2, the
    second the full 3 (buying a legion, wherever it goes, uses the discount up)."""
    rules = with_cards(tmp_path, ("quartermaster", "once per round modify cost when the "
                                                   "item is legion: subtract 1"))
    game = game_at(rules, screens={"rome": {"coin": 9}})
    pos.give_tiles(game, "rome", "quartermaster")
    turn(game, "rome")
    paid = []
    for _ in range(2):
        play(game, ("legion", "LATIUM"))
        dec = game.pending
        assert dec is not None and dec.kind == "build.pay"
        paid.append(len(dec.options[0]))
        play(game, dec.options[0])
    assert paid == [2, 3]


def test_zeus_peace_does_not_bind_a_third_player(rules: Ruleset) -> None:
    """EX-HW-7: the peace binds only Rome and Egypt. Carthage's legion in GARAMANTIA may
    still enter NUBIA (Rome's) and CYRENAICA (Egypt's)."""
    game = zeus(rules)
    pos.add_units(game, "carthage", "GARAMANTIA", "legion")
    make_peace(game, "egypt")
    moves = turn_moves(game, "carthage")
    assert {("GARAMANTIA", "NUBIA"), ("GARAMANTIA", "CYRENAICA")} <= moves


def test_the_player_of_an_event_is_nobody_where_no_event_is_under_way(tmp_path: Path) -> None:
    """'the player' is the player an event is about (who bought, collected, pillaged):
    a Collect's income is counted with no event under way, so a card changing the income
    'by the player' changes nobody's, and is no error."""
    from mare_nostrum.production import income

    plain = new_game(with_cards(tmp_path / "plain", ("hero", "modify income: add 1 coin")), 3,
                     seed=1)
    rules = with_cards(tmp_path / "player", ("hero", "modify income by the player: add 1 coin"))
    game = new_game(rules, 3, seed=1)
    for g in (plain, game):
        pos.give_tiles(g, "rome", "hero")
    def coins(g: Any) -> int:
        return sum(n for good, n in income(g, "rome") if good == "coin")

    before = coins(new_game(rules, 3, seed=1))
    assert coins(plain) == before + 1   # the card works...
    assert coins(game) == before        # ...'by the player' changes nobody's income



GUIDE = ROOT / "docs" / "effect-language.md"


def _guide_ranges() -> list[tuple[str, int]]:
    """(card line with N, the largest N) for each `modify` row of the modders' guide's
    table of numbers ("| `modify track: add N` | 0 to 20 | 99 |")."""
    rows = []
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        bound = re.match(r"\|[^|]*\| 0 to (\d+) \|", line)
        for script in re.findall(r"`(modify [^`]*)`", line) if bound else ():
            script = script.replace("choose A to B", "choose 0 to N").replace(
                "allow N ...", "allow N coin in goods sets")
            if " N" in script:  # not the rules' own names in brackets
                rows.append((script, int(bound.group(1))))
    return rows


def test_the_guide_lists_the_numbers_of_every_quantity_a_card_may_change() -> None:
    scripts = " ".join(s for s, _ in _guide_ranges())
    named = {"move.range": "legion.range", "move.sea_crossing": "sea.crossing",
             "move.trireme_range": "trireme.range"}
    for quantity in QUANTITY_NUMBERS:
        assert f"modify {named.get(quantity, quantity)}:" in scripts, quantity


@pytest.mark.parametrize(("script", "high"), _guide_ranges())
def test_each_quantity_takes_numbers_up_to_the_guides_bound_and_no_further(
        tmp_path: Path, script: str, high: int) -> None:
    """The modders' guide promises, for each quantity, the largest number a script may
    write (a die 10 more, a track 20, a cost 99 ...): that number is accepted, one more
    is refused with the range."""
    assert with_cards(tmp_path / "high", ("hero", script.replace("N", str(high)))).cards
    with pytest.raises(ScriptError, match=f"from 0 to {high} allowed"):
        with_cards(tmp_path / "over", ("hero", script.replace("N", str(high + 1))))


def test_a_card_places_one_fortress_of_a_player_in_a_province_at_most() -> None:
    """'place 2 fortress here' puts one where Rome has none, none where he has one (a
    player's fortress stands alone in a province); legions have no such limit; the
    item bought reads its building from the slot ('the item is market')."""
    from mare_nostrum.words import _item_is, _place
    from mnrules import new_game
    from mnrules.language.compiler import Env

    game = new_game(load_ruleset("en"), 5, seed=1)
    state = game.state
    env = Env(game, "rome", "x", {})
    assert state.count("LATIUM", "rome", "fortress") == 1
    _place(env, 2, "fortress", "LATIUM")
    assert state.count("LATIUM", "rome", "fortress") == 1
    _place(env, 2, "fortress", "GALLIA")
    assert state.count("GALLIA", "rome", "fortress") == 1
    before, box = state.count("GALLIA", "rome", "legion"), state.pieces["rome"]["legion"]
    _place(env, 2, "legion", "GALLIA")
    assert state.count("GALLIA", "rome", "legion") == before + 2
    assert state.pieces["rome"]["legion"] == box - 2      # taken from his box
    # a trireme stands at sea only: 'place 1 trireme here' of a land battle does nothing
    triremes = state.pieces["rome"]["trireme"]
    _place(env, 1, "trireme", "GALLIA")
    assert state.count("GALLIA", "rome", "trireme") == 0
    assert state.pieces["rome"]["trireme"] == triremes
    market = game.rules.board.provinces["ITALIA"].slots.index(
        next(s for s in game.rules.board.provinces["ITALIA"].slots if s.kind == "market"))
    bought = Env(game, "rome", "x", {"action": ["building", "ITALIA", market]})
    assert _item_is(bought, "market") and _item_is(bought, "building")
    assert not _item_is(bought, "temple")
    assert _item_is(Env(game, "rome", "x", {"action": ["legion", "ITALIA"]}), "legion")


def test_perseus_reads_a_last_hero_in_reach_without_the_pyramids(fresh_rules: Any) -> None:
    """With four tiles held (Pericles, Perseus and two) and the Pyramids (a special
    wonder, which always wins) out of the display, it is the fifth ordinary tile in
    reach that makes 'you can win by building' true; with no coin, it is false."""
    from mnrules.content.ruleset import vocabulary
    from mnrules.language.compiler import Env

    def can_win(coins: int) -> bool:
        game = perseus_game(fresh_rules, ("hamilcar", "ramesses"), coins)
        for pile in (game.state.display, game.state.display_hidden):
            if "pyramids" in pile:
                pile.remove("pyramids")
        found = vocabulary(game.rules).match(
            "condition", ("you", "can", "win", "by", "building"))
        assert found is not None
        word, args = found
        return bool(word.meaning(Env(game, "greece", "perseus", {}), *args))
    assert can_win(30)
    assert not can_win(0)


def test_a_loss_of_what_a_screen_never_held_takes_nothing(tmp_path: Path) -> None:
    """'lose 1 gems' from a screen that never held a gem: nothing goes back."""
    game = collect_with(tmp_path, "after collect: lose 1 gems", {"rome": {"coin": 1}})
    assert game.state.screens["rome"] == {"coin": 1}
