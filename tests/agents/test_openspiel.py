"""OpenSpiel plays the kernel's games through mnrules.openspiel: its own MCTS against our
players, explicit chance that replays the seeded game exactly, views that hide."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

import mnrules.openspiel  # noqa: E402
from mnrules.agents import NativeSeat, Table, replay_outcomes  # noqa: E402
from mnrules.bots import make_bot  # noqa: E402
from mnrules.bots.random_bot import RandomBot  # noqa: E402
from mnrules.core.view import player_view  # noqa: E402

TTT = str(Path(__file__).parent.parent / "kernel" / "tictactoe" / "pack.yaml")


def native_token(state: Any, seat: NativeSeat) -> int:
    """Our bot's option (asked once a decision), given one token at a time."""
    t: Table = state.table
    legal = t.legal()
    token = seat.token(t)
    assert token in legal
    return token


def play(game: Any, agents: dict[int, Any], seed: int) -> Any:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(agents[state.current_player()](state))
    return state


def mcts_bot(game: Any, sims: int, seed: int) -> Any:
    return mcts.MCTSBot(game, 2.0, sims,
                        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                        random_state=np.random.RandomState(seed))


def test_the_type_is_declared_as_the_games_are() -> None:
    game = pyspiel.load_game("mnrules", {"pack": TTT})
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 2
    s = game.new_initial_state()
    assert s.legal_actions() == sorted(s.legal_actions()) and len(s.legal_actions()) == 9
    assert len(s.observation_tensor(0)) == 27
    assert "mark" in s.action_to_string(0, s.legal_actions()[0]).lower() or \
        s.action_to_string(0, s.legal_actions()[0])


def test_openspiel_mcts_never_loses_tictactoe_to_random() -> None:
    game = pyspiel.load_game("mnrules", {"pack": TTT})
    rules = mnrules.openspiel.rules_for(pack=TTT)
    for seed in range(4):
        bot = mcts_bot(game, 200, seed)
        ours = NativeSeat(make_bot("random", seed, rules))
        seats = {0: bot.step, 1: lambda s, b=ours: native_token(s, b)}
        end = play(game, seats, seed)
        assert end.returns()[0] >= end.returns()[1], seed


@pytest.mark.parametrize("params", [
    {"game": "mare_nostrum", "players": 3, "seed": 2, "max_rounds": 1},
    {"game": "antike2", "players": 3, "seed": 2, "max_rounds": 2},
])
def test_openspiel_mcts_plays_a_shortened_real_game_against_the_heuristic(
        params: dict[str, Any]) -> None:
    game = pyspiel.load_game("mnrules", params)
    rules = mnrules.openspiel.rules_for(game=params["game"])
    bot = mcts_bot(game, 3, 1)
    agents: dict[int, Any] = {0: bot.step}
    for seat in range(1, params["players"]):
        ours = NativeSeat(make_bot("heuristic", seat, rules))
        agents[seat] = lambda s, b=ours: native_token(s, b)
    end = play(game, agents, 1)
    assert end.is_terminal() and len(end.returns()) == params["players"]
    assert sum(end.returns()) in (0.0, 1.0) or abs(sum(end.returns()) - 1.0) < 1e-9


@pytest.mark.parametrize("pack,players,cap", [("en", 3, 3), ("antike2", 4, 4)])
def test_a_replay_through_the_adapter_is_the_seeded_game(pack: str, players: int,
                                                         cap: int) -> None:
    rules = mnrules.openspiel.rules_for(pack=pack)
    bot = RandomBot(3)
    native, choices, drawn = replay_outcomes(rules, players, 7, bot.choose, round_cap=cap)
    table = Table(rules, players, 7, round_cap=cap)
    chances = list(drawn)

    def draw() -> None:
        while table.chance is not None:
            table.pick(table.chance[1].index(chances.pop(0)))

    for option in choices:
        draw()
        while True:
            table.legal()
            table.give(table.codec.spell(option)[len(table.prefix)])
            if not table.prefix:
                break
    draw()
    assert table.over and not chances
    assert table.game is not None
    assert table.game.history == native.history
    assert table.game.snapshot().to_dict() == native.snapshot().to_dict()


def test_every_option_is_spelled_and_read_back() -> None:
    rules = mnrules.openspiel.rules_for(pack="en")
    table = Table(rules, 4, 1, round_cap=2)
    codec = table.codec
    bot = RandomBot(1)
    while not table.over:
        if table.chance is not None:
            table.pick(0)
            continue
        dec = table.decision
        assert dec is not None and table.game is not None
        for o in dec.options:
            assert codec.read(codec.spell(o)) == o
        table.choose(bot.choose(table.game))


def test_a_seat_sees_only_its_view() -> None:
    game = pyspiel.load_game("mnrules", {"game": "mare_nostrum", "players": 3, "seed": 4})
    s = game.new_initial_state()
    g = s.table.game
    for seat, player in enumerate(s.table.seats):
        seen = json.loads(s.observation_string(seat))
        want = json.loads(json.dumps(player_view(g, player), sort_keys=True, default=str))
        seen.pop("given", None)
        assert seen == want
    # a hidden decision's choice (a trade offer) shows as "hidden" to the others alone
    while not (s.table.decision is not None and s.table.decision.hidden):
        s.apply_action(s.legal_actions()[0])
    dec = s.table.decision
    while s.table.decision is dec or (s.table.decision is not None and s.table.prefix):
        s.apply_action(s.legal_actions()[0])
    me = s.table.seats.index(dec.player)
    other = (me + 1) % 3
    assert s.information_state_string(other).splitlines()[-1].endswith('"hidden"]')
    assert not s.information_state_string(me).splitlines()[-1].endswith('"hidden"]')
