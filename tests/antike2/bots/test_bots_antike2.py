"""The heuristic bot of Antike II: offered by name through the game's ``mn_bots``, plays
only legal choices, the same game for the same seed, and takes what the book's war
examples offer it (a conquest it can make, a neutral temple three legions can destroy)."""

from __future__ import annotations

from functools import cache

from antike2.bots import make_heuristic
from antike2.bots.evaluate import score, value
from antike2.bots.heuristic import HeuristicBot
from antike2.state import Game
from mnrules import load_ruleset, new_game
from mnrules.bots import bot_kinds, make_bot
from mnrules.content.ruleset import Ruleset
from test_conquest_antike2 import GESOCRIBATE
from test_movere import asked, at_movere, play


@cache
def bot_rules() -> Ruleset:
    return load_ruleset("antike2")


def test_the_heuristic_bot_is_offered_by_name() -> None:
    """The game's package answers ``mn_bots`` with this package's bots."""
    rules = bot_rules()
    assert "heuristic" in bot_kinds(rules)
    assert isinstance(make_bot("heuristic", 3, rules), HeuristicBot)
    assert isinstance(make_heuristic(1, ""), HeuristicBot)


def _play(seed: int, rounds: int) -> Game:
    game: Game = new_game(bot_rules(), players=4, seed=seed)  # type: ignore[assignment]
    bots = {p: HeuristicBot(seed * 10 + i) for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None and game.state.round <= rounds:
        choice = bots[dec.player].choose(game)
        assert choice in dec.options
        play(game, choice)
    return game


def test_the_bot_plays_legal_choices_and_the_same_game_for_a_seed() -> None:
    a = _play(5, 2)
    b = _play(5, 2)
    assert a.history == b.history
    assert a.state.round == 3
    assert all(a.state.rondel[p] for p in a.state.players)


def test_the_bot_conquers_gesocribate() -> None:
    game = at_movere(GESOCRIBATE, "red")
    bot = HeuristicBot(1)
    while asked(game) == ("red", "a2.move"):
        play(game, bot.choose(game))
    assert asked(game) == ("red", "a2.conquest")
    assert bot.choose(game) == ("conquer", "GESOCRIBATE")


def test_the_bot_destroys_a_neutral_temple_for_a_general() -> None:
    pos = {"cities": {"LUGDUNUM": "red", "NARBO": "red"}, "neutral": ["LUTETIA"],
           "units": {"red": {"LUGDUNUM": {"legion": 3}}},
           "personages": {"red": ["king", "king", "king"]}}
    game = at_movere(pos, "red")
    bot = HeuristicBot(2)
    while game.pending is not None and game.pending.player == "red" \
            and game.pending.kind in ("a2.move", "a2.conquest", "a2.losses"):
        play(game, bot.choose(game))
    assert game.state.destroyed["red"] == 1
    assert "general" in game.state.personages["red"]


def test_the_evaluation_counts_a_general_due_and_weighs_the_best_rival() -> None:
    game = at_movere(GESOCRIBATE, "red")
    before = score(game, "red")
    game.state.destroyed["red"] = 1          # a temple destroyed: a general is due
    assert score(game, "red") >= before + 100
    rival = value(game, "red")
    game.state.personages["yellow"].append("king")
    assert value(game, "red") < rival


def test_a_run_of_trades_begins_with_one_whose_takes_are_spent() -> None:
    """Black, 6 nations, seed 1000005, round 32: 18 gold, no iron, 4 marble, moved to
    Templum. Three trades of 3 gold for 2 would end with a marble the third took spent on
    the temple; the first alone took 2 iron the turn never spends. Made first, it was the
    turn's only trade and stood idle (``mnrules bots check``): it waits, the temple is
    paid as it was."""
    from mnrules.tools.blunders import check_game

    rules = load_ruleset("antike2")
    report = check_game(rules, 6, 1000005, ["heuristic"], cap=32)
    idle = [f for f in report.findings if f.kind == "idle trade"]
    assert (report.games, idle) == (1, [])


def test_the_takes_of_a_run_of_trades_follow_one_plan() -> None:
    """Blue, 6 nations, seed 1000012, round 33: 11 gold, no iron, moved to Militia. The
    units it raises want iron alone; a take of the kind held least alternated iron and
    marble, so the second trade's plan began with a marble the turn never spends, and
    the first trade's iron stood idle. Each take is now the kind the plan spends: every
    trade takes iron, and the turn spends all of it."""
    from mnrules.tools.blunders import check_game

    rules = load_ruleset("antike2")
    report = check_game(rules, 6, 1000012, ["heuristic"], cap=33)
    idle = [f for f in report.findings if f.kind == "idle trade"]
    assert (report.games, idle) == (1, [])


def test_a_trade_is_made_for_what_its_run_gains_beyond_one_trade() -> None:
    """Green, 6 nations, seed 1000172, round 37: 15 gold, no iron, moved to Militia, its
    first unit free. One trade of 2 gold for 1 iron keeps the iron (idle); two would
    raise a second unit with it, worth no more than the first trade's iron held. Made
    for the run of two, the first trade was then the only one (the next decision weighs
    a second trade against a turn that holds the iron) and its iron stood idle: no
    trade is made, the free unit is raised as it was."""
    from mnrules.tools.blunders import check_game

    rules = load_ruleset("antike2")
    report = check_game(rules, 6, 1000172, ["heuristic"], cap=37)
    idle = [f for f in report.findings if f.kind == "idle trade"]
    assert (report.games, idle) == (1, [])


def test_a_take_follows_the_plan_that_spends_it() -> None:
    """Blue, 6 nations, seed 1000013, round 49: 15 gold, 12 iron, 11 marble, moved to
    Militia. One trade of 2 gold for 1 iron raises a seventh unit with a coin; 1 marble
    held instead is valued the same (gold beyond 12 is worth little), so the take, the
    first plan of the tie, was marble, and it stood idle. The trade was made for the
    plan that spends: its take now follows that plan."""
    from mnrules.tools.blunders import check_game

    rules = load_ruleset("antike2")
    report = check_game(rules, 6, 1000013, ["heuristic"], cap=50)
    idle = [f for f in report.findings if f.kind == "idle trade"]
    assert (report.games, idle) == (1, [])
