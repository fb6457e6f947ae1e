"""A card may give itself up (issue 35, item 2): ``discard this card`` (it leaves the
game) and ``give this card back to the display`` (anyone may buy it again), so a card
may ask an upkeep: ``you choose: pay 2 coin or discard this card``. A payment is made
whole or not at all, so the choice offers it only to one who can pay. Midas reacts to
his holder's Collect (round 2) on a cleared board, so nothing but the card acts."""

from __future__ import annotations

from pathlib import Path

from mnrules.core.effects import Event
from mnrules.language.present import presenter
from test_actions import asked, collect, screens

UPKEEP = "after collect: you choose: pay 2 coin or discard this card"


def _told(events: list[Event], game: object) -> list[str]:
    say = presenter(game.rules)  # type: ignore[attr-defined]
    return [say.event(game, e, None) for e in events if e.kind == "tile_discarded"]


def test_a_holder_who_can_pay_the_upkeep_chooses_to_keep_the_card(tmp_path: Path) -> None:
    game = collect(tmp_path, UPKEEP, coins=3)
    assert asked(game) == ("rome", "card.choose", "rome: Midas: pay 2 coin or discard this card?")
    game.apply("pay 2 coin")
    assert screens(game)["rome"] == {"coin": 1}
    assert "midas" in game.state.tiles["rome"]


def test_a_holder_who_cannot_pay_may_only_give_the_card_up(tmp_path: Path) -> None:
    """With one coin the payment of two is not offered (it would be made whole or not
    at all): the card leaves the game, and the coin stays."""
    game = collect(tmp_path, UPKEEP, coins=1)
    d = game.pending
    assert d is not None and d.options == ("discard this card",)
    events: list[Event] = []
    game.listeners.append(events.append)
    game.apply("discard this card")
    assert "midas" not in game.state.tiles["rome"]
    assert "midas" not in game.state.display and "midas" not in game.state.display_hidden
    assert screens(game)["rome"] == {"coin": 1}
    assert _told(events, game) == ["Rome gives up Midas: it leaves the game."]


def test_a_card_given_back_is_on_the_display_again(tmp_path: Path) -> None:
    game = collect(tmp_path, "after collect: give this card back to the display")
    assert "midas" not in game.state.tiles["rome"]
    assert game.state.display[-1] == "midas"


def test_a_payment_he_cannot_make_is_not_made(tmp_path: Path) -> None:
    game = collect(tmp_path, "after collect: pay 2 coin", coins=1)
    assert screens(game)["rome"] == {"coin": 1}


def test_a_loss_of_what_he_never_had_takes_nothing(tmp_path: Path) -> None:
    """'lose 1 gems' from a screen that never held a gem: nothing goes back."""
    game = collect(tmp_path, "after collect: lose 1 gems", coins=1)
    assert "gems" not in game.state.screens["rome"] or game.state.screens["rome"]["gems"] == 0
    assert screens(game)["rome"] == {"coin": 1}
