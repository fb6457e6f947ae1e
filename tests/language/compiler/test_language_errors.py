"""The effect language: errors a modder can act on, a closed vocabulary, and a new
hero written only from the guide."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT
from mnrules import load_ruleset, new_game
from mnrules.content.card_files import read_card
from mnrules.content.ruleset import Ruleset, vocabulary
from mnrules.errors import PackError
from mnrules.language.compiler import compile_card
from mnrules.language.explain import explain
from mnrules.language.syntax import ScriptError, parse_script


def _card(tmp_path: Path, script: str, name: str = "testhero") -> Path:
    body = "\n".join("  " + line for line in script.splitlines())
    f = tmp_path / f"{name}.yaml"
    f.write_text(f"id: {name}\nkind: hero\nbonuses: {{}}\nnames: {{en: Test}}\n"
                 f"effects: |\n{body}\n", encoding="utf-8")
    return f


def _compile(rules: Ruleset, file: Path) -> None:
    card = read_card(file)
    assert card.effects is not None
    parsed = parse_script(card.effects, str(file), *card.effects_at)
    compile_card(card, vocabulary(rules), parsed, file.read_text().splitlines())


def _error(rules: Ruleset, tmp_path: Path, script: str) -> ScriptError:
    with pytest.raises(ScriptError) as err:
        _compile(rules, _card(tmp_path, script))
    return err.value


def test_syntax_error_has_file_line_column_caret_and_words(rules: Ruleset,
                                                           tmp_path: Path) -> None:
    err = _error(rules, tmp_path, "modify battle.total when land battle and: add 1")
    text = str(err)
    p = err.problems[0]
    assert (p.line, p.column) == (6, 43)          # line 6 of the file, under the ':'
    assert "testhero.yaml:6:43:" in text
    assert "expected '(' or a word" in text
    src, caret = text.splitlines()[1:3]
    assert caret.index("^") == src.index(":", src.index("and")) + 0


def test_unknown_event_suggests_the_nearest(rules: Ruleset, tmp_path: Path) -> None:
    err = _error(rules, tmp_path, "after pilage: double the gains")
    assert "unknown event 'pilage'; did you mean 'pillage'?" in str(err)
    assert err.problems[0].column == 9


def test_unknown_condition_suggests_the_nearest(rules: Ruleset, tmp_path: Path) -> None:
    err = _error(rules, tmp_path, "modify battle.total when land battel: add 5")
    assert "unknown condition 'land battel'; did you mean 'land battle'?" in str(err)


def test_unknown_quantity_and_resource(rules: Ruleset, tmp_path: Path) -> None:
    err = _error(rules, tmp_path, "modify battle.totl: add 1\nmodify income: add 1 goldd")
    text = str(err)
    assert "unknown quantity 'battle.totl'; did you mean 'battle.total'?" in text
    assert "unknown resource 'goldd'; did you mean 'gold'?" in text
    assert len(err.problems) == 2                       # all errors in one pass


@pytest.mark.parametrize(("script", "column", "message"), [
    ("after colect: take 1 good of your choice", 9,
     "unknown event 'colect'; did you mean 'collect'?"),
    ("modify battle.totl when land battle: add 1", 10,
     "unknown quantity 'battle.totl'; did you mean 'battle.total'?"),
    ("after production_don: take 1 good of your choice", 9,
     "unknown event 'production_don'; did you mean 'production'?"),   # via its name
    ("after collected: take 1 good of your choice", 9,
     "unknown event 'collected': the rules' name of the event 'collect'; did you mean "
     "'collect'?"),
    ("after trade_giveback: take 1 good of your choice", 9,
     "unknown event 'trade_giveback': 'trade' only emits it: nothing performs it, so no "
     "card can react to it; known: battle, battle.roll, battle.start, buy, "),
    ("after trade_pick: take 1 good of your choice", 9,
     "unknown event 'trade_pick': the rules' name of the event 'trade.pick'; did you mean "
     "'trade.pick'?"),
    ("modify battle.allowed: set 1", 10, "unknown quantity 'battle.allowed': 'military' "
     "declares it with no card word, so card scripts may not modify it; known: "
     "battle.dice, "),
])
def test_cards_check_names_the_nearest_declared_word(tmp_path: Path, script: str,
                                                     column: int, message: str,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """A card naming an event or quantity the contract does not give a word is refused by
    ``mnrules cards check`` with file:line:col, a caret and the nearest declared word."""
    from mnrules.frontends.cli import main

    f = _card(tmp_path, script)
    assert main(["cards", "check", "--edition", "en", str(f)]) == 1
    err = capsys.readouterr().err
    head, src, caret = err.splitlines()[:3]
    assert head.startswith(f"{f}:6:{column}: {message}")
    assert src.strip() == script and caret.index("^") == src.index(script) + column - 3


@pytest.mark.parametrize(("script", "at", "message"), [
    ("modify cost when land battle: subtract 1", "land", "the condition 'land battle' means "
     "something only for battle, battle.dice, battle.hits, battle.roll, battle.shield, "
     "battle.start, battle.total or unit.lost, whose context it reads; not for the "
     "quantity 'cost'"),
    ("after collect when the item is legion: take 1 good of your choice", "the item",
     "the condition 'the item is {name}' means something only for buy or cost, whose "
     "context it reads; not for the event 'collect'"),
    ("once per round offer legion for free when you attack", "you attack",
     "the condition 'you attack' means something only for battle, battle.dice, battle.hits, "
     "battle.roll, battle.shield, battle.start, battle.total or unit.lost, whose context it "
     "reads; not for an offer"),
    ("modify battle.dice: add 1 per die", "die", "the count 'die' means something only for "
     "battle.hits, battle.shield or battle.total"),
    ("replace buy: double the gains", "double", "the replacement 'double the gains' means "
     "something only for pillage"),
])
def test_a_word_reading_a_context_serves_only_the_names_it_is_keyed_to(
        rules: Ruleset, tmp_path: Path, script: str, at: str, message: str) -> None:
    err = _error(rules, tmp_path, script)
    column = script.index(at) + 3                  # the script is indented by two
    assert [(p.line, p.column) for p in err.problems] == [(6, column)], str(err)
    assert message in err.problems[0].message


@pytest.mark.parametrize("script", [
    "after battle.start when you defend: take 1 coin",
    "after battle when land battle and you were attacked: take 1 coin",
])
def test_a_defenders_test_on_his_own_battle_is_refused_with_the_by_to_write(
        rules: Ruleset, tmp_path: Path, script: str) -> None:
    """With no 'by', a battle rule reacts only to the holder's own battles, those he
    attacks in: 'you defend' there could never be true, and the card would do nothing."""
    err = _error(rules, tmp_path, script)
    assert "is never true here" in err.problems[0].message
    assert "by an opponent when you" in err.problems[0].message


@pytest.mark.parametrize("script", [
    "after battle.start by an opponent when you defend: take 1 coin",
    "after battle.start by anyone when you defend: take 1 coin",
    "after battle.start when not you defend: take 1 coin",
    "modify battle.dice when you defend: add 1",
])
def test_a_defenders_test_where_it_can_be_true_is_taken(rules: Ruleset, tmp_path: Path,
                                                         script: str) -> None:
    _compile(rules, _card(tmp_path, script))


def test_every_syntax_error_of_a_file_in_one_pass(rules: Ruleset, tmp_path: Path) -> None:
    err = _error(rules, tmp_path, "modify cost: add\nafter pillage double\noffer legion for")
    assert [p.line for p in err.problems] == [6, 7, 8]


def test_operation_must_fit_the_quantity(rules: Ruleset, tmp_path: Path) -> None:
    err = _error(rules, tmp_path, "modify payment: add 1")
    assert "'add' does not apply to this quantity; use allow" in str(err)


def test_unknown_card_key_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    f = tmp_path / "x.yaml"
    f.write_text("id: x\nkind: hero\nbonusses: {trade: 1}\n")
    with pytest.raises(PackError, match=r"x.yaml:3:1: unknown card key 'bonusses'; "
                                        r"did you mean 'bonuses'\?"):
        read_card(f)


@pytest.mark.parametrize("script", [
    "modify battle.total: add __import__",
    "after production: import os",
    "modify battle.total when eval: add 1",
    "modify __class__: add 1",
    "after production: open the file",
    "modify battle.total: add 1 per __subclasses__",
])
def test_scripts_cannot_name_python(rules: Ruleset, tmp_path: Path, script: str) -> None:
    """Only vocabulary words exist: no attribute access, import, eval or files."""
    with pytest.raises(ScriptError):
        _compile(rules, _card(tmp_path, script))


def test_no_card_name_appears_in_python_outside_the_tests(rules: Ruleset) -> None:
    """No card special case in code: no identifier or string literal names a card
    (prose in docstrings and rule descriptions may mention them)."""
    import ast
    import io
    import tokenize

    names = set()
    for card in rules.cards.values():
        names.add(card.id.lower())
        names.update(n.lower() for n in card.names.values())
    found = []
    for folder in ("mnrules", "plugins"):
        for f in (ROOT / folder).rglob("*.py"):
            text = f.read_text(encoding="utf-8")
            for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                value = None
                if tok.type == tokenize.NAME:
                    value = tok.string
                elif tok.type == tokenize.STRING:
                    try:
                        lit = ast.literal_eval(tok.string)
                    except (ValueError, SyntaxError):
                        continue
                    value = lit if isinstance(lit, str) else None
                if value is not None and value.lower() in names:
                    found.append(f"{f.relative_to(ROOT)}:{tok.start[0]}: {value!r}")
    assert not found, "card names in Python:\n" + "\n".join(found)


def test_every_tile_has_a_script_or_is_powerless(rules: Ruleset) -> None:
    powerless = {c.id for c in rules.cards.values() if not c.effects}
    assert len(rules.cards) == 23
    assert powerless == {"hercules"}
    assert set(rules.effects) == set(rules.cards) - powerless


def test_explain_is_generated_from_the_vocabulary(rules: Ruleset) -> None:
    caesar = rules.cards["caesar"]
    assert caesar.effects is not None
    lines = explain(vocabulary(rules), parse_script(caesar.effects))
    assert lines == ["When the rules work out for you what a side adds to its dice total "
                     "before the total is divided into hits, if it is a land battle and you "
                     "are the active player of the battle: add 1 for each of your legions' "
                     "dice (one per legion, not an extra die)."]
    hamilcar = rules.cards["hamilcar"]
    assert hamilcar.effects is not None
    assert explain(vocabulary(rules), parse_script(hamilcar.effects)) == [
        "When, instead of the usual, a player destroys a building he conquered and takes "
        "its gains, if you are the conqueror: each gain counts twice; a choice of two gains "
        "gives both."]   # the event as the contract declares it, and who its player is


def test_a_hero_written_from_the_guide_works_without_python(tmp_path: Path) -> None:
    """'+1 to each defending legion's die in a province holding your fortress'."""
    from mare_nostrum import position as pos
    from mnrules.core.engine import Game

    folder = tmp_path / "mycards"
    folder.mkdir()
    _card(folder, "modify battle.total when land battle and you defend and your fortress "
                  "is here: add 1 per legion die", name="bastion")
    from mnrules.content.games import cards_dir
    rules = load_ruleset("en", card_dirs=[cards_dir("mare_nostrum"), folder])

    def battle(with_card: bool, fortress: bool) -> dict[str, int]:
        game: Game = new_game(rules, 5, seed=1)
        pos.clear(game)
        pos.set_marker(game, "CYRENAICA", "egypt")
        pos.add_units(game, "egypt", "CYRENAICA", "legion", 2)
        if fortress:
            pos.add_units(game, "egypt", "CYRENAICA", "fortress")
        pos.add_units(game, "rome", "CYRENAICA", "legion", 1)
        if with_card:
            game.state.tiles["egypt"].append("bastion")
        pos.start_phase(game, "military", frame_done=None)
        game.state.stack[-1].pop("frame_done")
        game.force("land die", [0, 4, 4])       # rome rolls 0; egypt rolls 4 and 4
        hits: dict[str, int] = {}
        game.listeners.append(lambda e: hits.update(e.data["hits"])
                              if e.kind == "battle" else None)
        while not hits:
            d = game.pending
            assert d is not None
            if d.kind == "military.next":
                game.apply("rome")
            elif ("done",) in d.options:
                game.apply(("done",))
            else:
                game.apply(d.options[0])
        return hits

    # egypt's dice total: 4 + 4 = 8 → 1 hit; +5 with the fortress → 2 hits;
    # with the new hero and a fortress: 8 + 2 + 5 = 15 → 3 hits.
    assert battle(with_card=False, fortress=True)["egypt"] == 2
    assert battle(with_card=True, fortress=True)["egypt"] == 3
    assert battle(with_card=True, fortress=False)["egypt"] == 1   # no fortress: no bonus
