"""The round and the turn (book 002, «Ход игры»): «Игроки ходят последовательно по часовой
стрелке» from the start player, one turn each; a turn is 1. a rondel space and its
action, 2. founding, 3. personages, then whether the nation has won, each step played
by the plugin the pack names (a pack without one skips that step)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from a2_helpers import RULES, at_turn
from antike2.state import Game
from antike2.turn import this_turn
from mnrules import load_ruleset, new_game
from mnrules.content.packs import read
from mnrules.core.effects import Event
from mnrules.tools.simulate import round_cap
from test_personages_victory import end_turn
from test_victory_antike2 import bare_pack


def seen(game: Game) -> list[tuple[str, str]]:
    """The turns' beginnings and ends from now on, as (kind, nation)."""
    out: list[tuple[str, str]] = []

    def note(e: Event) -> None:
        if e.kind in ("turn_start", "turn_end", "personage_count", "rondel"):
            out.append((e.kind, str(e.player)))
    game.listeners.append(note)
    return out


def idle_turn(game: Game) -> None:
    """The nation to play chooses Templum with no marble (nothing asked) and ends its
    turn."""
    end_turn(game)


def test_a_round_is_one_turn_of_each_nation_from_the_start_player() -> None:
    """A new game's first round: the start player, then each nation clockwise, once;
    each turn begins, counts its personages and ends before the next begins."""
    game: Game = new_game(RULES, 4, seed=3)
    players = list(game.state.players)
    events = seen(game)
    assert game.pending is not None and game.pending.player == players[0]
    for _ in players:
        idle_turn(game)
    starts = [n for k, n in events if k == "turn_start"]
    assert starts == [*players, players[0]]             # and round 2's first
    ends = [n for k, n in events if k == "turn_end"]
    assert ends == players
    for nation in players:
        i = events.index(("personage_count", nation))
        assert events[i + 1] == ("turn_end", nation)
    assert game.state.round == 2
    assert game.pending is not None and game.pending.player == players[0]


def test_a_round_may_start_at_a_nations_turn() -> None:
    """A position may start a round at one nation's turn (``frame: {nation: ...}``): the
    nations after it in order of play follow, and the round ends with the last."""
    game = at_turn({}, "blue")
    players = list(game.state.players)
    events = seen(game)
    assert game.pending is not None and game.pending.player == "blue"
    for _ in players[players.index("blue"):]:
        idle_turn(game)
    assert [n for k, n in events if k == "turn_end"] == players[players.index("blue"):]
    assert game.state.round == 2


def test_the_turn_under_way_knows_its_nation_and_what_it_had_destroyed() -> None:
    """What a rule reads of the turn under way (Mercatura's "not in the turn it is
    learnt", the temple that wins one short): its nation, its round and the temples the
    nation had destroyed when the turn began; the next turn its own."""
    game = at_turn({"destroyed": {"blue": 2, "black": 1}}, "blue")
    assert game.pending is not None and game.pending.player == "blue"
    turn = this_turn(game)
    assert turn == {"nation": "blue", "round": game.state.round, "destroyed": 2,
                    "learnt": []}
    players = game.state.players
    following = players[(players.index("blue") + 1) % len(players)]
    end_turn(game)
    assert this_turn(game)["nation"] == following
    assert this_turn(game)["destroyed"] == game.state.destroyed[following]


def _without(plugin: str) -> Any:
    plugins = [str(p) for p in read("antike2").data["plugins"]]
    return load_ruleset("antike2", {"plugins": [p for p in plugins if p != plugin]})


def test_a_pack_without_founding_plays_the_other_steps() -> None:
    """A turn's steps are those the pack's plugins play: without the founding plugin a
    turn is the rondel, the personages and the victory, and the round goes on."""
    rules = _without("founding")
    game: Game = new_game(rules, 3, seed=1)
    players = list(game.state.players)
    events = seen(game)
    for _ in players:
        idle_turn(game)
    assert [n for k, n in events if k == "turn_end"] == players
    assert game.state.round == 2


def test_a_pack_that_says_nothing_of_bot_games_stops_them_at_sixty_rounds(
        tmp_path: Path) -> None:
    """The kernel's drivers stop a bot game undecided after ``round_cap`` rounds; a pack
    of the game that leaves it out gets the turn plugin's 60 (the shipped pack says 3000:
    Antike II's random games are long)."""
    assert round_cap(load_ruleset(bare_pack(tmp_path))) == 60
    assert round_cap(RULES) == 3000
