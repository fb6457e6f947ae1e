"""What earns a personage is its card's script (issue 12: personages as scripts in the
effect language): every nation is subject to every personage card, the numbers are the
script's, and a pack that patches a script changes the rule with no Python."""

from __future__ import annotations

from pathlib import Path

from a2_helpers import RULES, at_turn
from antike2.personages import OCCASION, due, earned, every
from mnrules import load_ruleset
from mnrules.language.compiler import holders
from test_personages_victory import cities, end_turn

PACK = Path("editions/antike2/antike2/pack.yaml").resolve()


def test_every_personage_is_earned_by_its_script_at_the_end_of_the_turn() -> None:
    game = at_turn({}, "yellow")
    kinds = [c for c, card in RULES.cards.items() if card.kind == "personage"]
    assert sorted(kinds) == sorted(RULES.components["personages"])
    for kind in kinds:
        assert RULES.effects[kind].reacts.get(OCCASION), kind
    assert (every(game, "king"), every(game, "citizen"),
            every(game, "navigator")) == (5, 3, 7)


def test_every_nation_is_subject_to_the_personage_cards_once() -> None:
    """Yellow holds a king: he is the card's holder; the others are subject to it too,
    and nobody twice (his script would give him a king twice over)."""
    game = at_turn({"personages": {"yellow": ["king"]}}, "yellow")
    who = [p for p, _ in holders(game, "king", game.rules.effects["king"].others)]
    assert sorted(who) == sorted(game.state.players)
    assert [p for p, _ in holders(game, "regnum", game.rules.effects["regnum"].others)] \
        == []                                      # a know-how acts for its learner only


def test_only_the_nation_whose_turn_ends_counts() -> None:
    game = at_turn({"cities": {**cities("yellow", 5), **cities("green", 5, start=5)}},
                   "yellow")
    end_turn(game)
    assert game.state.personages["yellow"] == ["king"]
    assert game.state.personages.get("green", []) == []    # at the end of his own turn


def test_a_patched_script_changes_the_rule(tmp_path: Path) -> None:
    """A variant overriding the king's script: a king per 4 cities."""
    variant = tmp_path / "four.yaml"
    variant.write_text(
        f"extends: {PACK}\ncards:\n  override:\n    king:\n      effects: |\n"
        "        after turn.personages: take a king with every 4 cities you own\n",
        encoding="utf-8")
    rules = load_ruleset(variant)
    game = at_turn({"cities": cities("yellow", 8)}, "yellow", rules=rules)
    assert earned(game, "yellow", "king") == 2 and due(game, "yellow") == {"king": 2}
    end_turn(game)
    assert game.state.personages["yellow"] == ["king", "king"]
