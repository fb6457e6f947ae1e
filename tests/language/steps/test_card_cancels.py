"""Cards on cards (issue 35, item 2): ``cancel CARD until the end of the phase`` (or
``of the round``) sets another card's powers aside for every holder, and ``WHO loses
card powers until the end of the phase`` those of every card a player holds — words
of the language, in every game; the card that says it keeps its own powers, the
printed bonuses stay, and the state holds it (saves, undo, replays)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnrules import load_game, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.core.engine import Game
from test_card_scripts import guide_example, with_cards

BLESSING = "modify storage.coins: add 3"
AT_BUILD = "after phase.start when the phase is build: "


def _give(game: Game, card: str, holder: str) -> None:
    for pile in (game.state.display, game.state.display_hidden):
        if card in pile:
            pile.remove(card)
    game.state.tiles[holder].append(card)


def _at_build(tmp_path: Path, cards: dict[str, tuple[str, str]]) -> Game:
    """A 3-player game (seed 2), each card ``id: (script, holder)`` held, played with
    random bots to round 1's build phase (its start's reactions done)."""
    game = new_game(with_cards(tmp_path, *((c, script) for c, (script, _) in cards.items())),
                    3, seed=2)
    for card, (_, holder) in cards.items():
        _give(game, card, holder)
    bot = RandomBot(5)
    while game.state.phase != "build":
        game.apply(bot.choose(game))
    return game


def _kept(game: Game, rounds: int, phases: tuple[str, ...],
          holder: str = "rome") -> list[tuple[int, str, int]]:
    """(round, phase, coins ``holder`` keeps) at the first decision of each of
    ``phases`` in rounds 1 to ``rounds``."""
    bot = RandomBot(5)
    seen: dict[tuple[int, str], int] = {}
    while game.pending is not None and game.state.round <= rounds:
        at = (game.state.round, game.state.phase)
        if at[1] in phases and at not in seen:
            seen[at] = game.fold("storage.coins", 2, player=holder)
        game.apply(bot.choose(game))
    return [(r, p, n) for (r, p), n in seen.items()]


@pytest.mark.parametrize(("until", "military"), [("phase", 5), ("round", 2)])
def test_a_card_cancels_another_for_the_phase_or_the_round(tmp_path: Path, until: str,
                                                           military: int) -> None:
    """Greece's Curse cancels Rome's Blessing as each build phase begins: Rome keeps the
    rule's 2 coins in the build phase; in the military phase his 5 again when it was
    until the end of the phase, still 2 when until the end of the round."""
    rules = with_cards(tmp_path, ("blessing", BLESSING),
                       ("curse", AT_BUILD + f"cancel blessing until the end of the {until}"))
    game = new_game(rules, 3, seed=2)
    _give(game, "blessing", "rome")
    _give(game, "curse", "greece")
    assert _kept(game, 2, ("trade", "build", "military")) == [
        (1, "trade", 5), (1, "build", 2), (1, "military", military),
        (2, "trade", 5), (2, "build", 2), (2, "military", military)]


def test_without_the_curse_the_blessing_always_answers(tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("blessing", BLESSING))
    game = new_game(rules, 3, seed=2)
    _give(game, "blessing", "rome")
    assert {n for _, _, n in _kept(game, 2, ("trade", "build", "military"))} == {5}


def test_each_opponent_loses_card_powers_but_the_sayer_keeps_his(tmp_path: Path) -> None:
    """Greece's Eclipse: each opponent loses card powers during the build phase. Rome's
    Blessing is silent then; Greece's own Blessing II and Eclipse's own +1 still answer
    (the words silence the others, and never the card that says them)."""
    game = _at_build(tmp_path, {
        "blessing": (BLESSING, "rome"),
        "blessing_two": ("modify storage.coins: add 2", "greece"),
        "eclipse": (AT_BUILD + "each opponent loses card powers until the end of the "
                    "phase\nmodify storage.coins: add 1", "greece")})
    assert game.fold("storage.coins", 2, player="rome") == 2
    assert game.fold("storage.coins", 2, player="greece") == 5


def test_you_lose_card_powers_spares_the_card_that_says_it(tmp_path: Path) -> None:
    game = _at_build(tmp_path, {
        "blessing": (BLESSING, "rome"),
        "vow": (AT_BUILD + "lose card powers until the end of the phase\n"
                "modify storage.coins: add 1", "rome")})
    assert game.fold("storage.coins", 2, player="rome") == 3     # Vow's 1, not Blessing's 3


def test_the_cancel_is_in_the_save(tmp_path: Path) -> None:
    game = _at_build(tmp_path, {
        "blessing": (BLESSING, "rome"),
        "curse": (AT_BUILD + "cancel blessing until the end of the phase", "greece")})
    saved = json.loads(game.snapshot().to_json())
    assert saved["vars"]["card_silenced"] == [
        {"card": "blessing", "holder": "", "round": 1, "phase": "build", "by": "curse"}]
    loaded = load_game(game.rules, saved)
    assert loaded.fold("storage.coins", 2, player="rome") == 2


def test_the_guides_curse_compiles(tmp_path: Path) -> None:
    """docs/effect-language.md, "Cards on cards": the example card as printed."""
    script = guide_example("Cards on cards")
    assert "the defender loses card powers" in script
    assert "curse" in with_cards(tmp_path, ("curse", script)).cards
