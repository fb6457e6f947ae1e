"""Setting up (book 002, «Ход игры», «Стартовая стратегия»): each nation's three cities
from the board, 3 marble, 3 iron and 3 gold and no coin, no unit, no know-how, no
personage, its marker off the rondel; the neutral temples where the board puts them; a
start player drawn at random, the nations seated from him clockwise; Bellona to the
last."""

from __future__ import annotations

import pytest

from a2_helpers import RULES
from antike2.state import Game
from mnrules import new_game
from mnrules.frontends.cli import main


def fresh(players: int, seed: int = 1) -> Game:
    game: Game = new_game(RULES, players, seed=seed)
    return game


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_nation_starts_with_its_three_cities_and_nine_resources(players: int) -> None:
    """«Со стартовыми ресурсами 3 железа, 3 мрамора, и 3 золотых»: three cities (one of
    each resource, no temple), 3 of each resource, no coin, no unit, no know-how, no
    personage, no temple destroyed, its marker off the rondel."""
    game = fresh(players)
    state, board = game.state, game.rules.board
    start = board.start(players)
    for nation in state.players:
        mine = {r: c for r, c in state.cities.items() if c["owner"] == nation}
        assert set(mine) == set(start[nation])
        for region, city in mine.items():
            assert city == {"owner": nation, "resource": board.regions[region].city,
                            "temple": False}
        assert sorted(c["resource"] for c in mine.values()) == ["gold", "iron", "marble"]
        assert state.stock[nation] == {"marble": 3, "iron": 3, "gold": 3, "coin": 0}
        assert state.units[nation] == {}
        assert state.know_how[nation] == []
        assert state.personages[nation] == []
        assert state.destroyed[nation] == 0
        assert state.rondel[nation] == ""
    assert len(state.cities) == 3 * players
    assert state.neutral == list(board.neutral_temples())
    assert state.side == board.side


def test_the_start_player_is_drawn_and_the_nations_sit_clockwise_from_him() -> None:
    """«Стартовая нация выбирается случайным образом ... Игроки ходят последовательно по
    часовой стрелке»: the order of play is the board's seating turned to start at the
    drawn nation."""
    seats = [n for n in RULES.board.nations if n in RULES.seating[4]]
    firsts = set()
    for seed in range(12):
        order = fresh(4, seed).state.players
        i = seats.index(order[0])
        assert order == seats[i:] + seats[:i]
        firsts.add(order[0])
    assert len(firsts) > 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_last_nation_in_order_of_play_holds_bellona(seed: int) -> None:
    """«последняя нация в порядке очереди получает карту BELLONA»."""
    state = fresh(5, seed).state
    assert state.bellona == state.players[-1]


def test_the_rules_contract_says_what_the_setup_is(capsys: pytest.CaptureFixture[str]) -> None:
    """``mnrules rules`` describes each plugin's part to the reader: the setup's is the
    start the book gives, with the start stock it declares."""
    assert main(["rules", "--game", "antike2"]) == 0
    out = capsys.readouterr().out
    assert ("setup\n\nThe start: three cities per nation, 3 of each resource, a random "
            "start player, Bellona to the last.") in out
    assert 'start_stock (default {"marble": 3, "iron": 3, "gold": 3, "coin": 0}' in out
