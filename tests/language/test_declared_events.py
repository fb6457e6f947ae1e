"""An event no text of the game's names is told by its declaration: its message in the
pack's language if the pack has one, else its declared meaning; never as nothing,
unless declared untold (``told=False``: bookkeeping, or what another event tells)."""

from __future__ import annotations

from pathlib import Path

from mnrules import Ruleset, load_ruleset, new_game
from mnrules.api import Event
from mnrules.language.present import presenter

OMEN = '''\
from mnrules.api import EventKind, Part, hookimpl


@hookimpl
def mn_contract():
    return [Part("omen", "", "Omens over the sea."),
            EventKind("omen", "omen", "An omen is seen over the sea.", False,
                      player="the player who sees it"),
            EventKind("omen_tally", "omen", "The omens are counted.", False, told=False)]
'''


def omen_rules(tmp_path: Path, pack: str = "en") -> Ruleset:
    (tmp_path / "omen.py").write_text(OMEN, encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text(f"extends: {pack}\nid: omens\nplugins:\n  add: [./omen.py]\n",
                       encoding="utf-8")
    return load_ruleset(variant=str(variant))


def test_a_plugins_event_without_texts_is_told_by_its_meaning(tmp_path: Path) -> None:
    rules = omen_rules(tmp_path)
    game = new_game(rules, 3, seed=1)
    say = presenter(rules)
    assert say.event(game, Event("omen", "rome", {}), None) == \
        "Rome: An omen is seen over the sea."
    assert say.event(game, Event("omen", None, {}), None) == "An omen is seen over the sea."


def test_an_event_declared_untold_is_told_nothing(tmp_path: Path) -> None:
    rules = omen_rules(tmp_path)
    game = new_game(rules, 3, seed=1)
    assert presenter(rules).event(game, Event("omen_tally", None, {}), None) == ""


def test_the_games_own_untold_events_stay_untold() -> None:
    """A battle's start, its roll and each unit lost are told by the battle's sentence,
    not one by one."""
    rules = load_ruleset("en")
    game = new_game(rules, 3, seed=1)
    say = presenter(rules)
    for kind in ("battle_start", "battle_roll", "unit_lost", "phase_end", "chance"):
        assert say.event(game, Event(kind, "rome", {}), None) == "", kind
