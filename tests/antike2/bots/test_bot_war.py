"""The heuristic bot at war, when peace has nothing left to give (seed 1000006, 6
nations: by round 60 the box held no navigator, general or scholar and no temple, and
no bot went to war for the kings and citizens left, to the round cap). It weighs a
conquest net of the units it costs, marches on a city two Moveres away, plays a
Movere out past a rival's answer to a battle, and counts a win once."""

from __future__ import annotations

from a2_helpers import asked, at_turn, until
from antike2.bots import evaluate as ev
from antike2.bots.heuristic import HeuristicBot
from antike2.state import Game
from test_movere import at_movere, play

# red: 6 personages of the 7 a six-nation game needs, 4 cities: a fifth brings a king
RED_ONE_SHORT = ["citizen", "citizen", "general", "general", "navigator", "scholar"]
RED_CITIES = {"LUTETIA": "red", "LUGDUNUM": "red", "NARBO": "red", "BURDIGALA": "red"}


def _conquer_with(bot: HeuristicBot, game: Game, nation: str) -> list[object]:
    """The bot's moves done, what it conquers."""
    while asked(game) == (nation, "a2.move"):
        play(game, bot.choose(game))
    taken = []
    while asked(game) in ((nation, "a2.conquest"), (nation, "a2.losses")):
        choice = bot.choose(game)
        if asked(game) == (nation, "a2.conquest"):
            taken.append(choice)
        play(game, choice)
    return taken


def test_a_conquest_that_pays_for_its_losses_is_made_against_any_rival() -> None:
    """Two red legions in Yellow's Massilia (defence 2: a city, and Yellow holds only 2
    personages): the city and its progress toward a king are worth more than the two
    legions it costs, though Blue, not Yellow, leads. (Valued as a promise of half the
    city on top of the legions, the conquest never paid against a rival not leading.)"""
    pos = {"cities": {"MASSILIA": "yellow", "ROMA": "yellow", "NEAPOLIS": "yellow",
                      "LUTETIA": "red", "LUGDUNUM": "red", "ATHENAE": "blue"},
           "neutral": [], "units": {"red": {"MASSILIA": {"legion": 2}}},
           "personages": {"yellow": ["king", "citizen"], "red": ["king", "king", "king"],
                          "blue": ["king", "king", "king", "citizen", "scholar"]}}
    game = at_movere(pos, "red")
    assert _conquer_with(HeuristicBot(1), game, "red") == [("conquer", "MASSILIA")]
    assert game.state.cities["MASSILIA"]["owner"] == "red"


def test_a_conquest_that_wins_is_a_goal_worth_the_win_and_counted_once() -> None:
    """Red, one personage short, stands in three of Yellow's cities: any of them brings
    the king that wins. Each is a goal whose bonus is the win; the three together are
    worth one win, and less than the win itself, so red conquers."""
    pos = {"cities": {**RED_CITIES, "MASSILIA": "yellow", "ROMA": "yellow",
                      "NEAPOLIS": "yellow", "TARENTUM": "yellow"},
           "neutral": [],
           "units": {"red": {"MASSILIA": {"legion": 1}, "ROMA": {"legion": 1},
                             "NEAPOLIS": {"legion": 1}}},
           "personages": {"yellow": ["king", "citizen", "scholar"], "red": RED_ONE_SHORT}}
    game = at_movere(pos, "red")
    goals = ev.Targets(game, "red", ev.weights(game))
    for city in ("MASSILIA", "ROMA", "NEAPOLIS"):
        goal = goals.get(city)
        assert goal is not None and goal.bonus > ev.WIN
    units = ev.placement(game, "red", ev.weights(game)) - 3 * ev.UNIT
    assert ev.WIN / 2 < units < ev.WIN
    assert ("conquer", "MASSILIA") in _conquer_with(HeuristicBot(2), game, "red")
    for _ in range(20):   # the rest of red's turn: its personages, then victory
        if game.pending is None:
            break
        play(game, ("done",) if ("done",) in game.pending.options else game.pending.options[0])
    assert game.state.winners == ["red"]


def test_an_army_two_moveres_from_a_city_worth_taking_is_worth_more() -> None:
    """A red legion in Burdigala, two borders (two Moveres without Strata) from Yellow's
    Massilia, which would win red the game, is worth more than one in Gesocribate, a
    border further: it is the first step of a march no single Movere makes."""
    pos = {"cities": {**RED_CITIES, "MASSILIA": "yellow", "ROMA": "yellow"},
           "neutral": [], "units": {"red": {"NARBO": {"legion": 1}}},
           "personages": {"yellow": ["king", "citizen", "scholar"], "red": RED_ONE_SHORT}}
    game = at_movere(pos, "red")
    board = game.rules.board
    assert "MASSILIA" not in board.reach("BURDIGALA", "legion", 1)
    assert "MASSILIA" in board.reach("BURDIGALA", "legion", 2)
    assert "MASSILIA" not in board.reach("GESOCRIBATE", "legion", 2)

    def standing(area: str) -> float:
        game.state.units["red"] = {area: {"legion": 1}}
        return ev.placement(game, "red", ev.weights(game))

    assert standing("BURDIGALA") > standing("GESOCRIBATE") + 100


def test_a_movere_is_weighed_past_a_rival_s_answer_to_a_battle() -> None:
    """Red's legion in Narbo is one border from Yellow's Massilia, where a blue legion
    stands too: moving in asks Blue whether it fights. The Movere is weighed with Blue's
    answer given (as the bot would give it) and red's conquest after it, which wins:
    red goes to Movere. (Stopped at Blue's question, the Movere was weighed by its
    first battle and another action taken.)"""
    pos = {"cities": {**RED_CITIES, "MASSILIA": "yellow", "ROMA": "yellow",
                      "ATHENAE": "blue", "SPARTA": "blue"},
           "neutral": [],
           "units": {"red": {"NARBO": {"legion": 1}},
                     "blue": {"MASSILIA": {"legion": 1}}},
           "personages": {"yellow": ["king", "citizen", "scholar"], "red": RED_ONE_SHORT,
                          "blue": ["king"]}}
    game = at_turn(pos, "red", players=6)
    until(game, "a2.rondel", "red")
    bot = HeuristicBot(3)
    assert bot.choose(game) in {o for o in game.pending.options  # type: ignore[union-attr]
                                if str(o).startswith("movere")}
