"""'an opponent' as the one who acts is one player, the one the card's holder picks
among those it can act for ("an opponent gives you 1 coin" takes one coin, not one of
every opponent); 'you choose' offers an action while one of its actors can do it; and
'you may pay 1 coin, take 1 good' — which would give the good unpaid — is refused with
what to write (issue 35's bugs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnrules.language.compiler import ScriptError
from mnrules.tools.scenario import run
from test_card_scripts import card, with_cards


def scenario(tmp_path: Path, script: str, coins: dict[str, int], choices: str,
             expect: str) -> list[list[str]]:
    """Rome holds Taxman ('at the end of the military phase: SCRIPT'); the board is
    empty, so the military phase asks nothing and ends at once; the screens hold
    ``coins``."""
    card(tmp_path / "cards", "taxman",
         f"after phase.end when the phase is military: {script}")
    (tmp_path / "variant.yaml").write_text("extends: en\ncards:\n  add: [./cards]\n",
                                           encoding="utf-8")
    screens = ", ".join(f"{p}: {{coin: {n}}}" for p, n in coins.items())
    f = tmp_path / "taxman.yaml"
    f.write_text(f"""scenario: Taxman
edition: en
variant: variant.yaml
players: 3
position:
  round: 2
  resources: {{{screens}}}
  tiles: {{rome: [taxman]}}
  phase: military
choices:
{choices}expect:
{expect}""", encoding="utf-8")
    return [o.failures for o in run(f)]


def test_an_opponent_gives_one_coin_the_holder_picks_who(tmp_path: Path) -> None:
    assert scenario(tmp_path, "an opponent gives you 1 coin",
                    {"rome": 0, "greece": 2, "carthage": 2},
                    "  - {until: card.who}\n"
                    "  - {expect: {pending: {player: rome, kind: card.who}}}\n  - carthage\n",
                    "  resources: {rome: {coin: 1}, greece: {coin: 2}, carthage: {coin: 1}}\n"
                    ) == [[]]


def test_only_an_opponent_who_can_give_is_offered_and_one_alone_is_not_asked(
        tmp_path: Path) -> None:
    """Greece has no coin: Carthage gives, and Rome is asked nothing."""
    assert scenario(tmp_path, "an opponent gives you 1 coin",
                    {"rome": 0, "greece": 0, "carthage": 2},
                    "  - rome\n  - greece\n  - carthage\n",
                    "  resources: {rome: {coin: 1}, greece: {coin: 0}, carthage: {coin: 1}}\n"
                    "  no_events:\n    - {kind: card.who}\n") == [[]]


def test_you_choose_offers_an_action_one_of_whose_actors_can_do_it(tmp_path: Path) -> None:
    """Greece has no coin, Carthage has: 'each opponent loses 1 coin' is still offered
    (Carthage loses one, Greece nothing)."""
    assert scenario(tmp_path, "you choose: each opponent loses 1 coin or take 1 coin",
                    {"rome": 0, "greece": 0, "carthage": 2},
                    "  - {until: card.choose}\n  - each opponent loses 1 coin\n",
                    "  resources: {rome: {coin: 0}, greece: {coin: 0}, "
                    "carthage: {coin: 1}}\n") == [[]]


def test_a_may_pay_followed_by_a_bare_action_is_refused_with_what_to_write(
        tmp_path: Path) -> None:
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, ("broker", "after collect: you may pay 1 coin, take 1 good "
                                        "of your choice"))
    said = str(err.value)
    assert "whether he pays or not" in said
    assert "you may pay 1 coin to take 1 good of your choice" in said


def test_a_may_pay_to_still_means_pay_to(tmp_path: Path) -> None:
    with_cards(tmp_path, ("broker", "after collect: you may pay 1 coin to take 1 good "
                                    "of your choice"))


def test_an_opponent_cannot_be_picked_inside_a_replacement(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="cannot ask"):
        with_cards(tmp_path, ("limes", "replace conquest by an opponent: an opponent "
                                       "loses 1 coin, cancel it"))
