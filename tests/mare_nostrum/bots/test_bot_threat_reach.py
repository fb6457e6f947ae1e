"""Issue 14's fifth step: the sense of threat reads an empire one great city short of a
conquest (four capitals or legendary cities, 6.3) as a round from winning only when a
great city more is within his reach; Greece, three of four with none left to take, was
blocked by the whole table all game. The previous default stays as ``heuristic:reader``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mare_nostrum import position as pos
from mare_nostrum.bots import evaluate as ev
from mare_nostrum.bots import threat
from mare_nostrum.bots.profiles import DEFAULT, profile
from mare_nostrum.state import Game
from mnrules import Ruleset, new_game
from mnrules.tools import simulate as sim


def three_great_cities(rules: Ruleset) -> Game:
    """Five players; Greece rules ATHENAE and has built TROIA (ASIA) and IERUSALEM
    (JUDAEA); Rome rules SICILIA, whose SYRACUSAE is unbuilt: no free great-city slot is
    left where nobody else rules, and Greece's legions stand in Greece alone."""
    game = new_game(rules, 5, seed=1)
    for prov in ("ASIA", "JUDAEA"):
        pos.set_marker(game, prov, "greece")
    pos.build(game, "ASIA", "legendary:TROIA")
    pos.build(game, "JUDAEA", "legendary:IERUSALEM")
    pos.set_marker(game, "SICILIA", "rome")
    return game


def test_three_of_four_with_nothing_in_reach_is_not_a_round_from_winning(
        rules: Ruleset) -> None:
    game = three_great_cities(rules)
    t = ev.table(game)
    assert t.great["greece"] == 3 == game.param("conquest_cities") - 1
    assert not threat.within_reach(game, "greece")
    assert threat.danger(game, t, "greece").conquest == 0.5          # the reader
    assert threat.danger(game, t, "greece", reach=1.0).conquest == 0.1
    assert threat.danger(game, t, "greece", reach=0.5).conquest == pytest.approx(0.3)


def test_a_free_legendary_slot_nobody_else_rules_is_within_reach(rules: Ruleset) -> None:
    game = three_great_cities(rules)
    pos.set_marker(game, "SICILIA", None)                 # SYRACUSAE: neutral again
    assert threat.within_reach(game, "greece")
    pos.set_marker(game, "SICILIA", "greece")             # or his own to build
    assert threat.within_reach(game, "greece")
    t = ev.table(game)
    assert threat.danger(game, t, "greece", reach=1.0).conquest == 0.5


def test_anothers_great_city_his_legions_may_enter_is_within_reach(rules: Ruleset) -> None:
    """A Greek legion in JUDAEA may enter AEGYPTUS, Egypt's capital province (ALEXANDRIA);
    one in CILICIA reaches no capital."""
    game = three_great_cities(rules)
    pos.add_units(game, "greece", "CILICIA", "legion")
    assert not threat.within_reach(game, "greece")
    pos.add_units(game, "greece", "JUDAEA", "legion")
    assert threat.within_reach(game, "greece")


def test_the_memo_keeps_the_readings_apart(rules: Ruleset) -> None:
    """The bots at a table share one memo: a reader and a default bot never get each
    other's dangers."""
    from mare_nostrum.bots.common import Memo

    game = three_great_cities(rules)
    memo = Memo()
    for reach in (0.0, 1.0, 0.0):
        assert threat.dangers(game, memo=memo, reach=reach) == \
            threat.dangers(game, reach=reach)
    assert threat.dangers(game, reach=0.0)["greece"].conquest != \
        threat.dangers(game, reach=1.0)["greece"].conquest


OLD_DEFAULT = {  # the default bot's 5-player histories before the fifth step
    0: "e3cb4e2ba1f5ca10f5e1337d59ea729b1d90c923d1bb2179170c0bf301e30883",
    1000007: "e7790f261142c4a74fcb11f42631b6640aa134508a48aa9b6dd5012b7c91838a",
}


def test_the_reader_plays_the_default_before_the_fifth_step() -> None:
    """Seed 1000007 (the 5th game of `simulate --seed 1`) is one where the reading
    applies and changes play (3 of that run's first 40 games); seed 0 one where it never
    does."""
    assert DEFAULT.reach_read == 1.0 and profile("reader").reach_read == 0.0
    for seed, history in OLD_DEFAULT.items():
        job = sim.Job("en", None, 5, seed, ("heuristic:reader",), 60)
        assert sim.play_one(job).history == history
        default = sim.play_one(replace(job, bots=("heuristic",))).history
        assert (default == history) == (seed == 0)
