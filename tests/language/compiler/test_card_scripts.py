"""The effect language's bugs of issue 13, each played or checked as a modder meets it:
a limited modifier that applied in every battle, an income that crashed the game, an
empty script that passed, 'after collect' that never fired, plurals ('fortresses')
that did not match, a misspelt word kind or hook that was a traceback or ignored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mare_nostrum import api
from mare_nostrum import position as pos
from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.errors import MnrulesError, PackError
from mnrules.frontends.cli import main
from mnrules.language.syntax import ScriptError


def card(folder: Path, cid: str, script: str, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    body = "\n".join("  " + line for line in script.splitlines())
    f = folder / f"{cid}.yaml"
    f.write_text(f"id: {cid}\nkind: hero\nbonuses: {{}}\nnames: {{en: {cid.title()}}}\n"
                 f"effects: |\n{body}\n{extra}", encoding="utf-8")
    return f


def with_cards(tmp_path: Path, *cards: tuple[str, str], plugin: str | None = None,
               variant: str = "") -> Ruleset:
    """The English rules with these cards (and a plugin file) beside a variant."""
    for cid, script in cards:
        card(tmp_path / "cards", cid, script)
    plugins = ""
    if plugin is not None:
        (tmp_path / "words.py").write_text(plugin, encoding="utf-8")
        plugins = "plugins: {add: [./words.py]}\n"
    v = tmp_path / "variant.yaml"
    (tmp_path / "cards").mkdir(exist_ok=True)
    v.write_text(f"extends: en\ncards:\n  add: [./cards]\n{variant}{plugins}", encoding="utf-8")
    return load_ruleset("en", variant=str(v))


def guide_example(section: str) -> str:
    """The first script block under the modders' guide's heading ``### section``, as
    printed (docs/effect-language.md)."""
    guide = (Path(__file__).parents[3] / "docs" / "effect-language.md").read_text("utf-8")
    part = guide.split(f"### {section}\n", 1)[1]
    return part.split("```\n", 2)[1].split("```", 1)[0].strip()


def refused_at(tmp_path: Path, script: str, line: int, column: int, message: str) -> None:
    """A card whose script is ``script`` is refused with ``message`` at the script's
    ``line`` and ``column`` (the file's own: the script starts on line 6, indented 2),
    shown with a caret."""
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, ("midas", script))
    problems = [p for p in err.value.problems if message in p.message]
    assert problems, str(err.value)
    p = problems[0]
    assert p.file.endswith("midas.yaml")
    shown = str(p)
    assert shown.splitlines()[-1].strip() == "^"
    assert (p.line - 5, p.column - 2) == (line, column), shown


def fight_two_battles(rules: Ruleset, preview: bool) -> list[dict[str, int]]:
    """Rome, holding the test hero, attacks Egypt in Cyrenaica and Carthage in Libya in
    one turn; every die a blank."""
    game = new_game(rules, 5, seed=1)
    pos.clear(game)
    game.state.titles["military"] = "rome"
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.set_marker(game, "LIBYA", "carthage")
    for area, enemy in (("CYRENAICA", "egypt"), ("LIBYA", "carthage")):
        pos.add_units(game, "rome", area, "legion")
        pos.add_units(game, enemy, area, "legion")
    pos.give_tiles(game, "rome", "achilles")
    if preview:   # a bot weighs both battles first: that uses nothing up
        api.battle_odds(game, "CYRENAICA", "rome", "egypt")
        api.battle_odds(game, "LIBYA", "rome", "carthage")
    pos.start_phase(game, "military")
    game.force("land die", [0] * 8)
    hits: list[dict[str, int]] = []
    game.listeners.append(lambda e: hits.append(e.data["hits"]) if e.kind == "battle"
                          else None)
    game.apply("rome")
    game.apply(("done",))
    game.apply(("battle", "CYRENAICA", "egypt"))
    while len(hits) < 2:
        d = game.pending
        assert d is not None and d.player == "rome", d
        game.apply(d.options[0])
    return hits


@pytest.mark.parametrize("preview", [False, True])
def test_once_per_round_on_modify_applies_in_one_battle_of_the_round(
        tmp_path: Path, preview: bool) -> None:
    """The bug: 'once per round modify battle.total ...: add 6' gave +6 in both battles."""
    rules = with_cards(tmp_path, ("achilles", "once per round modify battle.total when "
                                              "land battle: add 6"))
    first, second = fight_two_battles(rules, preview)
    assert first["rome"] == 1          # 0 + 6: one hit
    assert second["rome"] == 0         # used up in the first battle


def test_a_limit_on_a_quantity_nothing_uses_up_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, ("miser", "once per round modify storage.coins: add 2"))
    assert "'once per round' cannot limit 'storage.coins': the rules name no event that " \
        "uses a change of it up" in str(err.value)


@pytest.mark.parametrize("script", ["modify income: add 1",
                                    "modify income: add 1 per die",
                                    "modify income: add 1 per province you control"])
def test_a_bare_number_of_income_is_refused_before_play(
        tmp_path: Path, script: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The bug: these passed 'cards check' and then crashed the game with a traceback."""
    f = card(tmp_path, "greedy", script)
    assert main(["cards", "check", "--edition", "en", str(f)]) == 1
    assert "'income' is a list of resources" in capsys.readouterr().err


def test_income_per_a_count_with_a_divisor_plays(tmp_path: Path) -> None:
    rules = with_cards(tmp_path, ("croesus", "modify income: add 1 coin per 2 markets you "
                                             "control"))
    game = new_game(rules, 5, seed=1)
    pos.clear(game)
    for p in ("GALLIA", "DALMATIA", "ITALIA"):
        pos.set_marker(game, p, "rome")
        pos.build(game, p, "market")
    pos.give_tiles(game, "rome", "croesus")
    assert api.income(game, "rome") == {"coin": 1}   # three markets: one whole pair


def test_an_empty_script_in_a_card_variant_is_refused(tmp_path: Path) -> None:
    """The bug: an empty script passed silently (here through a named variant)."""
    card(tmp_path / "cards", "hollow", "modify storage.coins: add 1",
         "variants:\n  empty:\n    note: nothing\n    effects: |\n      # nothing yet\n")
    with pytest.raises(ScriptError) as err:
        with_cards(tmp_path, variant="  variant: {hollow: empty}\n")
    assert "the script is empty" in str(err.value)


def test_after_collect_fires(tmp_path: Path) -> None:
    """The bug: 'after collect: ...' never fired."""
    rules = with_cards(tmp_path, ("gleaner", "after collect: take 1 good of your choice"))
    game = new_game(rules, 5, seed=1)
    pos.clear(game)
    pos.give_tiles(game, "greece", "gleaner")
    game.state.round = 2                  # the first round collects nothing
    pos.start_phase(game, "production")
    d = game.pending
    assert d is not None and (d.player, d.kind) == ("greece", "card.choose")


def test_plurals_match_their_word(tmp_path: Path) -> None:
    """The bug: 'fortresses' did not match (plural by rstrip('s'))."""
    rules = with_cards(tmp_path, ("mason", "once per round offer fortresses for 1 coin\n"
                                           "modify battle.shield when at least 2 fortresses "
                                           "you have: add 1"))
    game = new_game(rules, 5, seed=1)
    pos.clear(game)
    pos.give_tiles(game, "rome", "mason")
    assert [o.item for o in api.card_offers(game, "rome")] == ["fortress"]
    side: Any = {"battle": {"area": "LATIUM", "kind": "land", "attacker": "greece",
                            "defender": "rome"}, "side": "rome", "units": 1}
    assert game.fold("battle.shield", 0, dice=1, **side) == 0
    pos.add_units(game, "rome", "GALLIA", "fortress")    # not in the battle: the card's
    pos.add_units(game, "rome", "ITALIA", "fortress")    # shield, not the fortress's
    assert game.fold("battle.shield", 0, dice=1, **side) == 1


WORDS = '''
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.words import Word


@hookimpl
def mn_vocabulary():
    return [Word("{kind}", "the moon is full", lambda e: True, "a full moon")]
'''


def test_a_misspelt_word_kind_says_what_to_fix(tmp_path: Path) -> None:
    """The bug: a raw ValueError."""
    with pytest.raises(MnrulesError) as err:
        with_cards(tmp_path, plugin=WORDS.replace("{kind}", "conditon"))
    assert "the word 'the moon is full' has the kind 'conditon', which is no kind of " \
        "word; did you mean 'condition'?" in str(err.value)


@pytest.mark.parametrize("source, message", [
    (WORDS.replace("{kind}", "condition").replace("mn_vocabulary", "mn_vocabluary"),
     "mn_vocabluary is no hook; did you mean 'mn_vocabulary'?"),
    (WORDS.replace("{kind}", "condition").replace("@hookimpl\n", ""),
     "mn_vocabulary is not marked @hookimpl"),
])
def test_a_misspelt_or_unmarked_hook_is_refused(tmp_path: Path, source: str,
                                                message: str) -> None:
    """The bug: silently never called."""
    with pytest.raises(PackError) as err:
        with_cards(tmp_path, plugin=source)
    assert message in str(err.value)
    assert "'./words.py'" in str(err.value) or "words.py" in str(err.value)


def test_a_limited_modify_is_used_even_by_a_side_wiped_out(tmp_path: Path) -> None:
    """The limit is used as the dice fall, not when the battle is over: Rome's legion in
    Cyrenaica dies, yet 'you have units here' held when the +6 was added."""
    rules = with_cards(tmp_path, ("achilles", "once per round modify battle.total when "
                                              "land battle and you have units here: add 6"))
    game = new_game(rules, 5, seed=1)
    pos.clear(game)
    game.state.titles["military"] = "rome"
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.set_marker(game, "LIBYA", "carthage")
    pos.add_units(game, "rome", "CYRENAICA", "legion")
    pos.add_units(game, "egypt", "CYRENAICA", "legion", 2)
    pos.add_units(game, "rome", "LIBYA", "legion")
    pos.add_units(game, "carthage", "LIBYA", "legion")
    pos.give_tiles(game, "rome", "achilles")
    pos.start_phase(game, "military")
    game.force("land die", [0, 5, 5, 0, 0])
    hits: list[dict[str, int]] = []
    game.listeners.append(lambda e: hits.append(e.data["hits"]) if e.kind == "battle"
                          else None)
    for choice in ("rome", ("done",), ("battle", "CYRENAICA", "egypt")):
        game.apply(choice)
    while len(hits) < 2:
        d = game.pending
        assert d is not None, hits
        game.apply(d.options[0])
    assert hits[0] == {"rome": 1, "egypt": 2}     # 0 + 6; Rome's legion is lost
    assert hits[1]["rome"] == 0                   # Libya: used up in Cyrenaica
