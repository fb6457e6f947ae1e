"""Scripts compiled into the game's hooks, each card read as a modder writes it
(docs/effect-language.md) and played: a modifier folds a value the rules compute, in
layers (set, add, double) whatever the order the cards were bought in, up to its
quantity's ceiling; 'per' counts whole groups; a comparison reads two counts; an offer is
a new way to build; a limited modifier is used up by its quantity's occasion; a 'before'
rule acts as its event begins; a mistake is refused at load with its line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mare_nostrum import api
from mare_nostrum import position as pos
from mnrules import new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from mnrules.core.engine import Game
from mnrules.errors import MnrulesError
from mnrules.language.syntax import ScriptError
from test_card_scripts import fight_two_battles, with_cards


def game_with(rules: Ruleset, **tiles: str) -> Game:
    game = new_game(rules, 5, seed=1)
    pos.clear(game)
    for player, cards in tiles.items():
        pos.give_tiles(game, player, *cards.split())
    return game


def land_battle(side: str, units: int = 1, area: str = "LATIUM") -> dict[str, Any]:
    """The context of one side's roll in Greece's attack on Rome's province."""
    return {"battle": {"area": area, "kind": "land", "attacker": "greece",
                       "defender": "rome"}, "side": side, "units": units, "dice": units}


# -- operations ----------------------------------------------------------------------------
def test_double_doubles_the_dice_total(tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("ajax", "modify battle.total when land battle: double"))
    game = game_with(rules, rome="ajax")
    assert game.fold("battle.total", 7, **land_battle("rome")) == 14
    assert game.fold("battle.total", 7, **land_battle("greece")) == 7   # not his


def test_add_then_double_whichever_card_came_first(tmp_path: Path) -> None:
    """'+2' and 'double' give (7 + 2) x 2 whoever bought which first (Order of effects)."""
    rules = with_cards(tmp_path, ("ajax", "modify battle.total when land battle: double"),
                       ("nestor", "modify battle.total when land battle: add 2"),
                       ("zeno", "modify battle.total when land battle: set 3"))
    assert game_with(rules, rome="ajax nestor").fold("battle.total", 7,
                                                     **land_battle("rome")) == 18
    assert game_with(rules, rome="nestor ajax").fold("battle.total", 7,
                                                     **land_battle("rome")) == 18
    # set comes first: 3, then + 2, then x 2
    assert game_with(rules, rome="ajax zeno nestor").fold("battle.total", 7,
                                                          **land_battle("rome")) == 10


def test_subtract_takes_away(tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("niobe", "modify battle.total when land battle: subtract 2"))
    assert game_with(rules, rome="niobe").fold("battle.total", 7, **land_battle("rome")) == 5


def test_at_least_and_at_most_bound_what_the_others_made_of_it(tmp_path: Path) -> None:
    """Limits come last: Niobe's '-2' and Ajax's 'double' first, then 'at least 4' and
    'at most 12' (issue 35, item 3: relative changes)."""
    rules = with_cards(tmp_path,
                       ("niobe", "modify battle.total when land battle: subtract 2"),
                       ("ajax", "modify battle.total when land battle: double"),
                       ("atlas", "modify battle.total when land battle: at least 4\n"
                                 "modify battle.total when land battle: at most 12"))
    game = game_with(rules, rome="atlas niobe")
    assert game.fold("battle.total", 3, **land_battle("rome")) == 4    # 3 - 2, raised
    assert game.fold("battle.total", 9, **land_battle("rome")) == 7
    game = game_with(rules, rome="atlas ajax")
    assert game.fold("battle.total", 9, **land_battle("rome")) == 12   # 18, cut
    assert game.fold("battle.total", 9, **land_battle("greece")) == 9  # not his


def test_an_offer_size_moves_by_an_amount_within_its_numbers(tmp_path: Path) -> None:
    """'add 1' to a choice of sizes moves each size the rules allow: a token of 2 lets
    Rome offer 3; 'subtract 3' of a token of 2 leaves 0 (never below)."""
    from mare_nostrum.api import offer_sizes
    rules = with_cards(tmp_path, ("hermes", "modify offer_size: add 1"),
                       ("dolos", "modify offer_size: subtract 3"))
    assert offer_sizes(game_with(rules, rome="hermes"), "rome", 2) == (3,)
    assert offer_sizes(game_with(rules, rome="dolos"), "rome", 2) == (0,)
    assert offer_sizes(game_with(rules, rome="hermes"), "greece", 2) == (2,)


def test_a_choice_of_sizes_moves_by_a_number_not_a_count(tmp_path: Path) -> None:
    with pytest.raises(MnrulesError, match="takes a number"):
        with_cards(tmp_path, ("hermes", "modify offer_size: add legions you have"))


def test_a_compiled_action_unpacks_as_a_plugin_reads_it(tmp_path: Path) -> None:
    """(optional, word, args): what a plugin reading a card's words unpacks."""
    rules = with_cards(tmp_path, ("midas", "after collect: you may take 2 wine"))
    action = rules.effects["midas"].rules[0].actions[0]
    optional, word, args = action
    assert (optional, word.pattern, args) == (True, "take {n} {resource}", [2, "wine"])


def test_doubling_never_takes_the_value_above_its_ceiling(tmp_path: Path) -> None:
    """A battle's dice: at most 30 however the cards combine (the guide's table)."""
    rules = with_cards(tmp_path, ("ajax", "modify battle.dice when land battle: double\n"
                                          "modify battle.dice when land battle: double"))
    game = game_with(rules, rome="ajax")
    assert game.fold("battle.dice", 5, **land_battle("rome")) == 20
    assert game.fold("battle.dice", 9, **land_battle("rome")) == 30
    assert game.fold("battle.dice", 40, **land_battle("rome")) == 40   # was above already


@pytest.mark.parametrize(("legions", "bonus"), [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2)])
def test_per_counts_whole_groups(tmp_path: Path, legions: int, bonus: int) -> None:
    """'add 1 per 2 legion die': one for each whole two of his legions' dice."""
    rules = with_cards(tmp_path, ("nestor", "modify battle.total when land battle: add 1 per 2 "
                                            "legion die"))
    game = game_with(rules, rome="nestor")
    assert game.fold("battle.total", 7, **land_battle("rome", legions)) == 7 + bonus


def test_per_without_a_divisor_counts_each(tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("caesar2", "modify battle.total when land battle: add 1 per "
                                             "legion die"))
    game = game_with(rules, rome="caesar2")
    assert game.fold("battle.total", 7, **land_battle("rome", 3)) == 10


def test_a_count_as_a_value(tmp_path: Path) -> None:
    """'add legions you have here': as many as his legions in the battle's province."""
    rules = with_cards(tmp_path, ("leonidas", "modify battle.total when land battle: add "
                                              "legions you have here"))
    game = game_with(rules, rome="leonidas")
    pos.add_units(game, "rome", "LATIUM", "legion", 3)
    assert game.fold("battle.total", 7, **land_battle("rome", 3)) == 10


# -- conditions --------------------------------------------------------------------------------
@pytest.mark.parametrize(("rome", "greece", "more", "fewer"), [
    (2, 1, 1, 0), (1, 1, 0, 0), (1, 2, 0, 1)])
def test_more_and_fewer_compare_two_counts(tmp_path: Path, rome: int, greece: int,
                                           more: int, fewer: int) -> None:
    rules = with_cards(tmp_path, ("aphrodite", "modify battle.total when more legions you have "
                                               "here than legions the enemy has here: add 5"),
                       ("eris", "modify battle.shield when fewer legions you have here than "
                                "legions the enemy has here: add 1"))
    game = game_with(rules, rome="aphrodite eris")
    pos.add_units(game, "rome", "LATIUM", "legion", rome)
    pos.add_units(game, "greece", "LATIUM", "legion", greece)
    assert game.fold("battle.total", 7, **land_battle("rome", rome)) == 7 + 5 * more
    assert game.fold("battle.shield", 0, **land_battle("rome", rome)) == fewer


@pytest.mark.parametrize(("fortresses", "least", "most"), [(1, 0, 1), (2, 1, 1), (3, 1, 0)])
def test_at_least_and_at_most_compare_a_count_with_a_number(
        tmp_path: Path, fortresses: int, least: int, most: int) -> None:
    rules = with_cards(tmp_path, ("hector", "modify battle.shield when at least 2 fortresses "
                                            "you have: add 1"),
                       ("paris", "modify battle.hits when at most 2 fortresses you have: "
                                 "add 1"))
    game = game_with(rules, rome="hector paris")
    for area in ("GALLIA", "ITALIA", "DALMATIA")[:fortresses]:
        pos.add_units(game, "rome", area, "fortress")
    assert game.fold("battle.shield", 0, **land_battle("rome")) == least
    assert game.fold("battle.hits", 0, **land_battle("rome")) == most


def test_not_and_or_combine_conditions(tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("janus", "modify battle.total when not (you attack or "
                                           "you defend): add 1\n"
                                           "modify battle.hits when you defend and land battle: "
                                           "add 1"))
    game = game_with(rules, rome="janus")
    assert game.fold("battle.total", 7, **land_battle("rome")) == 7
    assert game.fold("battle.hits", 0, **land_battle("rome")) == 1
    game2 = game_with(rules, carthage="janus")
    assert game2.fold("battle.hits", 0, **land_battle("carthage")) == 0


# -- offers ----------------------------------------------------------------------------------
def test_an_offer_is_a_new_way_to_build(tmp_path: Path) -> None:
    """Gilgamesh's kind of power: a fortress for 1 coin or 1 stone, once (no 'per')."""
    rules = with_cards(tmp_path, ("mason", "offer fortress for 1 coin or 1 stone"))
    game = game_with(rules, rome="mason")
    [offer] = api.card_offers(game, "rome")
    assert (offer.item, offer.payments, offer.count) == ("fortress", (("coin",), ("stone",)),
                                                         1)
    assert (offer.limit, offer.period) == (None, None)
    assert api.card_offers(game, "greece") == []


def test_a_limited_offer_names_its_period(tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("mason", "once per round offer fortress for 2 coins or free"))
    game = game_with(rules, rome="mason")
    [offer] = api.card_offers(game, "rome")
    assert offer.payments == (("coin", "coin"), ())
    assert (offer.limit, offer.period) == ("mason#0/rome", "round")


# -- limits, before, and what is refused ----------------------------------------------------------
def test_a_limited_modifier_is_used_up_by_its_first_battle(tmp_path: Path) -> None:
    """'once per round modify battle.total when land battle: add 6': Rome, every die a
    blank, scores one hit in his first battle of the round and none in the second."""
    rules = with_cards(tmp_path, ("achilles", "once per round modify battle.total when "
                                              "land battle: add 6"))
    first, second = fight_two_battles(rules, preview=False)
    assert (first["rome"], second["rome"]) == (1, 0)


def test_an_unlimited_modifier_applies_in_every_battle(tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("achilles", "modify battle.total when land battle: add 6"))
    first, second = fight_two_battles(rules, preview=False)
    assert (first["rome"], second["rome"]) == (1, 1)


@pytest.mark.parametrize(("script", "line", "message"), [
    ("after collect: take 1 coin\nbefore pillage: you may take 1 coin", 2,
     "a 'before' rule acts at once, while the event is under way: it cannot ask"),
    ("modify battle.total: add 1\nmodify battle.totl: add 1", 2,
     "unknown quantity 'battle.totl'; did you mean 'battle.total'?"),
    ("modify battle.total: add 1 per 2 goods of empty caravan slots under your legions", 1,
     "is not a number"),
    ("modify income: double", 1, "'double' does not apply to this quantity"),
    ("modify battle.total when more coins you have than legion: add 1", 1,
     "unknown count 'legion'"),
    ("modify offer_size: choose 4 to 2", 1, "'choose 4 to 2' chooses from nothing"),
])
def test_a_mistake_is_refused_at_load_with_its_line(tmp_path: Path, script: str, line: int,
                                                     message: str) -> None:
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, ("hero", script))
    text = str(err.value)
    assert message in text, text
    assert f"hero.yaml:{5 + line}:" in text, text


# -- replacements and 'before' ---------------------------------------------------------------
def test_once_per_round_a_title_taken_from_him_is_cancelled_once(tmp_path: Path) -> None:
    """'once per round replace title by an opponent: cancel it': the first title an
    opponent would take in a round does not change hands, the second does; next round
    the shield is back."""
    rules = with_cards(tmp_path, ("aegis", "once per round replace title by an opponent: "
                                           "cancel it"))
    game = game_with(rules, rome="aegis")
    game.state.round = 2
    done: list[Event] = []
    take = Event("title", "greece", {"track": "culture"})
    assert game.perform(take, done.append) is None and done == []
    assert game.perform(take, done.append) is not None and len(done) == 1
    game.state.round = 3
    assert game.perform(take, done.append) is None and len(done) == 1
    # his own titles are not the card's business
    assert game.perform(Event("title", "rome", {"track": "trade"}), done.append) is not None


def test_an_unlimited_replacement_cancels_every_time(tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("aegis", "replace title by an opponent: cancel it"))
    game = game_with(rules, rome="aegis")
    done: list[Event] = []
    take = Event("title", "greece", {"track": "culture"})
    for _ in range(3):
        assert game.perform(take, done.append) is None
    assert done == []


def test_a_before_rule_acts_as_its_event_begins(tmp_path: Path) -> None:
    """Vesta: 'before pillage by an opponent: the player loses 2 coin' — the pillager
    pays before his gains are taken, and the pillage goes on."""
    rules = with_cards(tmp_path, ("vesta", "before pillage by an opponent: the player loses "
                                           "2 coin"))
    game = game_with(rules, rome="vesta")
    pos.give(game, "greece", {"coin": 3})
    pos.give(game, "rome", {"coin": 3})
    seen: list[int] = []
    pillage = Event("pillage", "greece", {"province": "LATIUM", "gains": []})
    done = game.perform(pillage, lambda e: seen.append(game.state.screens["greece"]["coin"]))
    assert done is not None and seen == [1]          # paid before the pillage itself
    game.perform(Event("pillage", "rome", {"province": "ACHAEA", "gains": []}),
                 lambda e: None)
    assert game.state.screens["rome"]["coin"] == 3     # his own pillage: nothing


# -- lists, sizes, resources -------------------------------------------------------------------
def test_include_adds_the_holder_to_the_tied_players_who_win(tmp_path: Path) -> None:
    """Solon: 'modify title.ties when the track is culture: include you'."""
    rules = with_cards(tmp_path, ("solon", "modify title.ties when the track is culture: "
                                           "include you"))
    game = game_with(rules, rome="solon")
    assert game.fold("title.ties", [], track="culture") == ["rome"]
    assert game.fold("title.ties", [], track="trade") == []


def test_choose_lets_the_holder_offer_any_number_in_a_range(tmp_path: Path) -> None:
    """Antigone's kind of power: after the token, offer from 0 to 5 resources."""
    rules = with_cards(tmp_path, ("antigone2", "modify offer_size: choose 0 to 5"))
    game = game_with(rules, rome="antigone2")
    assert game.fold("offer_size", (2,), player="rome", token=2) == (0, 1, 2, 3, 4, 5)
    assert game.fold("offer_size", (2,), player="greece", token=2) == (2,)


def test_income_grows_by_an_amount_per_whole_group(tmp_path: Path) -> None:
    """Croesus: 'modify income: add 1 coin per 2 markets you control' — three markets
    are one whole pair: one coin more."""
    rules = with_cards(tmp_path, ("croesus", "modify income: add 1 coin per 2 markets you "
                                             "control"))
    game = game_with(rules, rome="croesus")
    assert api.income(game, "rome") == {}
    for p in ("GALLIA", "DALMATIA", "ITALIA"):
        pos.set_marker(game, p, "rome")
        pos.build(game, p, "market")
    assert api.income(game, "rome") == {"coin": 1}


def test_a_word_read_only_in_battle_is_refused_in_a_cost(tmp_path: Path) -> None:
    """The guide: 'modify cost when land battle: ...' is refused at load time, naming
    where the condition applies, rather than never being true."""
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, ("hero", "modify cost when land battle: subtract 1"))
    assert "the condition 'land battle' means something only for " in str(err.value)
    assert "not for the quantity 'cost'" in str(err.value)


FAVOURS = '''
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.words import Word


@hookimpl
def mn_vocabulary():
    return [Word("condition", "you have {n} favours", lambda env, n: True, "favours owed")]
'''


def test_a_price_with_a_test_but_no_pay_action_is_refused(tmp_path: Path) -> None:
    """A modder's 'you have N favours' test is no 'pay N favours' action: 'you may pay
    1 favours to take 2 wine' cannot pay, and says so."""
    with pytest.raises(ScriptError, match="cannot pay '1 favours'"):
        with_cards(tmp_path, ("midas", "after collect: you may pay 1 favours to take 2 wine"),
                   plugin=FAVOURS)
