"""A trigger's actions in play, as a modder writes them (docs/effect-language.md,
"Actions"): ``[if you do] [WHO] [may] [pay N R to] ACTION``.

'you may' asks the actor yes or no in the card's words; 'pay N R to' makes the yes cost
something, and only a player who can pay is asked; 'if you do' runs only after a yes; a
leading subject ('each opponent loses 1 coin') says who acts; '... of your choice' asks
through the one decision loop, each actor in seating order. Every card here reacts to its
holder's Collect (round 2: the first round collects nothing) on a cleared board, so
nothing but the card acts."""

from __future__ import annotations

from pathlib import Path

import pytest

from mare_nostrum import position as pos
from mnrules import new_game
from mnrules.core.engine import Game
from mnrules.errors import IllegalChoice
from mnrules.language.syntax import ScriptError
from test_card_scripts import with_cards


def collect(tmp_path: Path, script: str, coins: int = 2, holder: str = "rome",
            rnd: int = 2) -> Game:
    """Three players (Rome, Greece, Carthage), each with ``coins`` coins; ``holder``
    holds Midas, whose script is ``script``; the Collect phase of round ``rnd`` starts."""
    rules = with_cards(tmp_path, ("midas", script))
    game = new_game(rules, 3, seed=1)
    pos.clear(game)
    for p in game.state.players:
        if coins:
            pos.give(game, p, {"coin": coins})
    pos.give_tiles(game, holder, "midas")
    game.state.round = rnd
    pos.start_phase(game, "production")
    _ = game.pending                  # the phase runs up to its first question
    return game


def screens(game: Game) -> dict[str, dict[str, int]]:
    return {p: {k: v for k, v in game.state.screens[p].items() if v}
            for p in game.state.players}


def asked(game: Game) -> tuple[str, str, str] | None:
    d = game.pending
    if d is None or not d.kind.startswith("card."):
        return None
    return d.player, d.kind, d.prompt


PAY_TO = "after collect: you may pay 1 coin to take 2 wine, if you do each opponent loses 1 coin"


def test_you_may_pay_to_act_asks_in_the_cards_words(tmp_path: Path) -> None:
    game = collect(tmp_path, PAY_TO)
    assert asked(game) == ("rome", "card.may", "rome: Midas: pay 1 coin to take 2 wine?")
    assert game.pending is not None and game.pending.options == ("yes", "no")


def test_yes_pays_acts_then_runs_what_follows_if_you_do(tmp_path: Path) -> None:
    game = collect(tmp_path, PAY_TO)
    game.apply("yes")
    assert screens(game) == {"rome": {"coin": 1, "wine": 2}, "greece": {"coin": 1},
                             "carthage": {"coin": 1}}
    assert asked(game) is None            # answered once: the phase goes on


def test_no_pays_nothing_and_skips_if_you_do(tmp_path: Path) -> None:
    game = collect(tmp_path, PAY_TO)
    game.apply("no")
    assert screens(game) == {p: {"coin": 2} for p in ("rome", "greece", "carthage")}
    assert asked(game) is None


def test_a_player_who_cannot_pay_is_not_asked(tmp_path: Path) -> None:
    game = collect(tmp_path, PAY_TO, coins=0)
    assert asked(game) is None
    assert screens(game) == {p: {} for p in ("rome", "greece", "carthage")}


def test_a_may_without_a_payment_asks_and_acts(tmp_path: Path) -> None:
    game = collect(tmp_path, "after collect: you may take 2 wine")
    assert asked(game) == ("rome", "card.may", "rome: Midas: take 2 wine?")
    game.apply("yes")
    assert screens(game)["rome"] == {"coin": 2, "wine": 2}
    assert asked(game) is None


def test_a_may_is_answered_yes_or_no_as_the_tile_says(tmp_path: Path) -> None:
    game = collect(tmp_path, "after collect: you may take 2 wine")
    with pytest.raises(IllegalChoice) as err:
        game.apply("maybe")
    message = str(err.value)
    assert "'maybe' is neither 'yes' nor 'no'" in message
    assert "Midas: a 'you may' is answered yes or no, as its tile says" in message
    assert "[card:midas]" in message
    assert asked(game) == ("rome", "card.may", "rome: Midas: take 2 wine?")  # unchanged


def test_each_opponent_loses_a_coin(tmp_path: Path) -> None:
    """A leading subject says who acts: the holder keeps his coins."""
    game = collect(tmp_path, "after collect: each opponent loses 1 coin")
    assert screens(game) == {"rome": {"coin": 2}, "greece": {"coin": 1},
                             "carthage": {"coin": 1}}


def test_each_opponent_chooses_a_good_in_seating_order(tmp_path: Path) -> None:
    """A generous hero: after his Collect, each other player takes a good of his own
    choice, Greece first, then Carthage, each asked once."""
    game = collect(tmp_path, "after collect: each opponent takes 1 good of your choice")
    d = game.pending
    assert d is not None and (d.player, d.kind) == ("greece", "card.choose")
    assert d.prompt == "greece: Midas: take a good of your choice"
    assert "wine" in d.options and "coin" not in d.options
    with pytest.raises(IllegalChoice) as err:
        game.apply("unicorns")
    assert "Midas: the choice is one of what its effect offers now, as its tile says" \
        in str(err.value)
    game.apply("wine")
    d = game.pending
    assert d is not None and (d.player, d.kind) == ("carthage", "card.choose")
    game.apply("grain")
    assert asked(game) is None
    assert screens(game) == {"rome": {"coin": 2}, "greece": {"coin": 2, "wine": 1},
                             "carthage": {"coin": 2, "grain": 1}}


def test_the_attacker_places_a_legion_reads_its_subject(tmp_path: Path) -> None:
    """'the attacker places 1 legion here': a subject of two words (an article and a
    name) before an action of four."""
    rules = with_cards(tmp_path, ("ares", "after battle.start by an opponent when you defend: "
                                          "the attacker places 1 legion here"))
    effects = rules.effects["ares"].rules[0].actions[0]
    assert effects.subject is not None and effects.subject[0].pattern == "the attacker"
    assert effects.word.pattern == "place {n} {unit} here" and effects.args == [1, "legion"]


def test_a_may_before_a_choice_asks_first_then_offers_the_choice(tmp_path: Path) -> None:
    game = collect(tmp_path, "after collect: you may pay 1 coin to take 1 good of your "
                             "choice")
    assert asked(game) == ("rome", "card.may",
                           "rome: Midas: pay 1 coin to take 1 good of your choice?")
    game.apply("yes")
    d = game.pending
    assert d is not None and (d.player, d.kind) == ("rome", "card.choose")
    game.apply("gold")
    assert screens(game)["rome"] == {"coin": 1, "gold": 1}


def test_once_per_game_a_may_is_used_only_by_a_yes(tmp_path: Path) -> None:
    """Declined in round 2, Midas asks again in round 3; taken there, never again."""
    game = collect(tmp_path, "once per game after collect: you may take 2 wine")
    assert asked(game) is not None
    game.apply("no")
    for rnd, answer in ((3, "yes"), (4, None), (5, None)):
        game.state.round = rnd
        pos.start_phase(game, "production")
        if answer is None:
            assert asked(game) is None, rnd
        else:
            assert asked(game) == ("rome", "card.may", "rome: Midas: take 2 wine?")
            game.apply(answer)
    assert screens(game)["rome"] == {"coin": 2, "wine": 2}


@pytest.mark.parametrize(("script", "message"), [
    ("after collect: you may pay 1 coins to tak 2 wine", "unknown action 'tak 2 wine'"),
    ("after collect: you may pay 1 unicorn to take 2 wine", "cannot pay '1 unicorn'"),
    ("after collect: if you do take 1 coin", "'if you do' follows a 'may' action"),
    ("after collect: each opponant loses 1 coin", "unknown action 'each opponant loses 1 "
                                                  "coin'"),
])
def test_a_misread_action_is_refused_at_load(tmp_path: Path, script: str,
                                             message: str) -> None:
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, ("midas", script))
    assert message in str(err.value)


TAX = '''
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.words import Word
from mare_nostrum.supply import take


@hookimpl
def mn_vocabulary():
    return [Word("action", "each player pays {n} wine", lambda env, n: take(env.game,
                 env.holder, "wine", n * len(env.game.state.players)), "a wine tax")]
'''


def test_a_games_action_beginning_with_a_subject_word_is_read_whole(tmp_path: Path) -> None:
    """A modder's word 'each player pays N wine' (the holder gets N wine a player) is one
    action: not 'each player' doing the game's 'pay N wine'."""
    rules = with_cards(tmp_path, ("midas", "after collect: each player pays 1 wine"),
                       plugin=TAX)
    game = new_game(rules, 3, seed=1)
    pos.clear(game)
    for p in game.state.players:
        pos.give(game, p, {"wine": 2})
    pos.give_tiles(game, "rome", "midas")
    game.state.round = 2
    pos.start_phase(game, "production")
    _ = game.pending
    assert screens(game) == {"rome": {"wine": 5}, "greece": {"wine": 2},
                             "carthage": {"wine": 2}}
