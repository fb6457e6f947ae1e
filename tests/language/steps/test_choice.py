"""'you choose: ACTION or ACTION [or ACTION]' in play (docs/effect-language.md, "A
choice between actions"): the actor is asked through card.choose among the actions he
can do, each worded as the card's text words it in his language; nothing is asked when
he can do none; a log of it replays and an undo across it plays again. Midas reacts to
his holder's Collect (round 2) on a cleared board, so nothing but the card acts."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from conftest import TESTS
from mare_nostrum import position as pos
from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.core.engine import Game
from mnrules.core.start import load_game
from mnrules.errors import IllegalChoice
from mnrules.language.present import presenter
from mnrules.tools.log import Recorder, replay
from test_actions import asked, collect, screens
from test_card_scripts import refused_at, with_cards

CHOICE = "after collect: you choose: take 2 coin or take 1 good of your choice"


def test_the_holder_picks_one_action_and_only_that_one_is_done(tmp_path: Path) -> None:
    game = collect(tmp_path, CHOICE, coins=0)
    d = game.pending
    assert d is not None and (d.player, d.kind) == ("rome", "card.choose")
    assert d.options == ("take 2 coin", "take 1 good of your choice")
    before = screens(game)["rome"]
    game.apply("take 2 coin")
    assert screens(game)["rome"] == {**before, "coin": before.get("coin", 0) + 2}
    assert asked(game) is None


def test_the_other_branch_asks_its_own_question(tmp_path: Path) -> None:
    game = collect(tmp_path, CHOICE, coins=0)
    before = screens(game)["rome"]
    game.apply("take 1 good of your choice")
    d = game.pending
    assert d is not None and (d.player, d.kind) == ("rome", "card.choose")
    assert "wine" in d.options and "take 2 coin" not in d.options
    game.apply("wine")
    assert screens(game)["rome"] == {**before, "wine": before.get("wine", 0) + 1}


def test_an_action_not_offered_is_refused_naming_the_card(tmp_path: Path) -> None:
    game = collect(tmp_path, CHOICE)
    with pytest.raises(IllegalChoice, match="Midas"):
        game.apply("take 3 coin")
    assert asked(game) is not None         # still asked, nothing changed


def _collect(tmp_path: Path, script: str, coins: int, legions: int) -> Game:
    """As :func:`collect`, Rome with ``coins`` coins, 1 gold and ``legions`` legions in
    his box (the others on the board)."""
    rules = with_cards(tmp_path, ("midas", script))
    game = new_game(rules, 3, seed=1)
    pos.clear(game)
    pos.give(game, "rome", {"coin": coins, "gold": 1} if coins else {"gold": 1})
    pos.give_tiles(game, "rome", "midas")
    game.state.pieces["rome"]["legion"] = legions
    game.state.round = 2
    pos.start_phase(game, "production")
    return game


def test_only_the_actions_he_can_do_are_offered(tmp_path: Path) -> None:
    """No legion in his box: 'place 1 legion in your capital' changes nothing; no coin:
    'pay 1 coin to ...' cannot be paid; what is left is offered."""
    script = ("after collect: you choose: place 1 legion in your capital\n"
              "  or pay 1 coin to take 2 wine or lose 1 gold")
    game = _collect(tmp_path, script, coins=0, legions=0)
    d = game.pending
    assert d is not None and d.options == ("lose 1 gold",), d.options
    game2 = _collect(tmp_path / "b", script, coins=1, legions=3)
    d2 = game2.pending
    assert d2 is not None and d2.options == ("place 1 legion in your capital",
                                             "pay 1 coin to take 2 wine", "lose 1 gold")
    game2.apply("pay 1 coin to take 2 wine")
    assert screens(game2)["rome"] == {"gold": 1, "wine": 2}


def test_when_he_can_do_none_nothing_is_asked(tmp_path: Path) -> None:
    script = "after collect: you choose: lose 1 gems or pay 3 coin to take 1 wine"
    game = collect(tmp_path, script, coins=2)
    assert asked(game) is None


def test_each_opponent_chooses_for_himself(tmp_path: Path) -> None:
    script = "after collect: each opponent chooses: lose 1 coin or lose 1 gold"
    game = collect(tmp_path, script, coins=2)
    seen = []
    while (d := game.pending) is not None and d.kind == "card.choose":
        seen.append(d.player)
        assert d.options[0] == "lose 1 coin"
        game.apply("lose 1 coin")
    assert seen == ["greece", "carthage"]
    assert screens(game)["greece"].get("coin", 0) == 1


def test_the_question_and_options_read_in_the_players_language(tmp_path: Path) -> None:
    game = collect(tmp_path, CHOICE, coins=0)
    d = game.pending
    assert d is not None
    en = presenter(game.rules, "en")
    fr = presenter(game.rules, "fr")
    assert en.options(game, d) == ["Take 2 coin from the supply (what is left)",
                                   "Take 1 good of your choice from the supply"]
    assert fr.options(game, d) == ["Prenez 2 Impôt dans la réserve (ce qu'il en reste)",
                                   "Prenez 1 ressource de votre choix dans la réserve"]
    assert "Midas" in en.prompt(game, d) and "take 2 coin" not in en.prompt(game, d)


def test_the_cards_text_says_the_choice(tmp_path: Path) -> None:
    from mnrules.content.ruleset import vocabulary
    from mnrules.language.explain import explain
    from mnrules.language.syntax import parse_script
    from mnrules.language.texts import load_texts

    rules = load_ruleset("fr")
    script = "after collect: the attacker chooses: pay 2 coin to take 1 wine or take 1 coin"
    vocab = vocabulary(rules)
    en = explain(vocab, parse_script(script))[0]
    assert "the active player of the battle chooses one: pay 2 coin to take 1 wine" in en
    fr = explain(vocab, parse_script(CHOICE), load_texts(rules, "fr"))[0]
    assert "vous choisissez : prenez 2 Impôt" in fr and ", ou prenez 1 ressource" in fr
    assert "choose" not in fr and " or " not in fr


@pytest.mark.parametrize(("script", "line", "column", "message"), [
    ("after collect: you choose: take 2 coin", 1, 28, "two actions or more"),
    ("after collect: you choose: take 2 coin or", 1, 40, "ends too soon; expected a word"),
    ("after collect: you choose: take 2 coin or\n  take 2 coin", 2, 3, "offered twice"),
    ("after collect: take 2 coin or take 1 wine", 1, 28, "'you choose: ACTION or ACTION'"),
    ("after collect: you pick: take 2 coin or take 1 wine", 1, 16, "is not a choice"),
    ("after collect: you choose: take 2 coin or tak 1 wine", 1, 43, "unknown action 'tak"),
    ("before buy: you choose: take 2 coin or take 1 wine", 1, 13, "cannot ask"),
    ("replace buy: you choose: cancel it or cancel it", 1, 14, "cannot ask"),
    ("after collect: you choose: take 2 coin or if you do take 1 wine", 1, 43,
     "'if you do' follows a 'may'"),
])
def test_a_malformed_choice_is_refused_with_its_place(tmp_path: Path, script: str, line: int,
                                                       column: int, message: str) -> None:
    refused_at(tmp_path, script, line, column, message)


def test_an_undo_across_the_choice_plays_the_other_action(tmp_path: Path) -> None:
    game = collect(tmp_path, CHOICE, coins=0)
    before = game.snapshot()
    game.apply("take 2 coin")
    coins = screens(game)["rome"].get("coin", 0)
    again = load_game(game.rules, before.to_dict())       # what the undo does
    d = again.pending
    assert d is not None and d.options == ("take 2 coin", "take 1 good of your choice")
    again.apply("take 1 good of your choice")
    again.apply("wine")
    assert screens(again)["rome"].get("coin", 0) == coins - 2
    assert screens(again)["rome"]["wine"] == 1


def test_a_log_with_choices_replays_exactly(tmp_path: Path) -> None:
    """Random bots for four rounds, Rome holding Fortuna (modders/modder2): its choices are
    logged as the actions' words and the log replays to the same state."""
    variant = TESTS / "language" / "modders" / "modder2" / "variant.yaml"
    rules = load_ruleset("en", variant=variant)
    game = new_game(rules, 3, seed=7)
    pos.give_tiles(game, "rome", "fortuna")
    out = io.StringIO()
    rec = Recorder(out)
    rec.header(game, "en", str(variant), start=True)
    rec.attach(game)
    bots = {p: RandomBot(i) for i, p in enumerate(game.state.players)}
    picked = []
    while (d := game.pending) is not None and game.state.round < 5:
        choice = bots[d.player].choose(game)
        if d.kind == "card.choose" and "take 2 coin" in d.options:
            picked.append(choice)
        game.apply(choice)
    assert picked, "Fortuna was never asked"
    log = tmp_path / "g.jsonl"
    log.write_text(out.getvalue(), encoding="utf-8")
    logged = [json.loads(x) for x in out.getvalue().splitlines()[1:]]
    assert any(r.get("choice") in ("take 2 coin", "take 1 good of your choice")
               for r in logged)
    again = replay(log, rules)
    assert again.divergence is None
    assert again.game.state.to_dict() == game.state.to_dict()


A2_VARIANT = """extends: antike2
cards:
  add: [./know_how]
params:
  know_how:
    mercatura:    {first: 4,  later: 2, after: ""}
    commercium:   {first: 8,  later: 4, after: mercatura}
    metallum:     {first: 6,  later: 3, after: ""}
    moneta:       {first: 14, later: 7, after: metallum}
    regnum:       {first: 12, later: 6, after: ""}
    res_publica:  {first: 16, later: 8, after: regnum}
    strata:       {first: 6,  later: 3, after: ""}
    navigatio:    {first: 8,  later: 4, after: ""}
    aedificium:   {first: 6,  later: 3, after: ""}
"""
A2_CARD = """id: aedificium
kind: know-how
phase: turn
names: {en: Aedificium}
effects: |
  after temple: you choose: take 1 marble or take 2 coin
"""
A2_SCENARIO = """scenario: Aedificium, after a temple
edition: antike2
variant: variant.yaml
players: 4
position:
  cities: {{ROMA: yellow temple, NEAPOLIS: yellow}}
  stock: {{yellow: {{marble: 5}}}}
  know_how: {{yellow: [aedificium]}}
  phase: turn
  frame: {{nation: yellow}}
choices:
  - templum
  - [temple, NEAPOLIS]
  - {{expect: {{pending: {{player: yellow, kind: card.choose}}}}}}
  - {pick}
expect:
  stock: {{yellow: {stock}}}
"""


@pytest.mark.parametrize(("pick", "stock"), [("take 1 marble", "{marble: 1}"),
                                             ("take 2 coin", "{coin: 2}")])
def test_antike2_a_know_how_offers_a_choice(tmp_path: Path, pick: str, stock: str) -> None:
    """The same form in the other game: the nation that built a temple picks either."""
    from mnrules.tools.scenario import run

    (tmp_path / "know_how").mkdir()
    (tmp_path / "know_how" / "aedificium.yaml").write_text(A2_CARD, encoding="utf-8")
    (tmp_path / "variant.yaml").write_text(A2_VARIANT, encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text(A2_SCENARIO.format(pick=pick, stock=stock), encoding="utf-8")
    outcomes = list(run(f))
    assert outcomes and all(o.ok for o in outcomes), [o.failures for o in outcomes]


def test_antike2_options_read_in_russian(tmp_path: Path) -> None:
    (tmp_path / "know_how").mkdir()
    (tmp_path / "know_how" / "aedificium.yaml").write_text(A2_CARD, encoding="utf-8")
    (tmp_path / "variant.yaml").write_text(A2_VARIANT, encoding="utf-8")
    from mnrules.tools.scenario import set_position

    rules = load_ruleset("antike2", variant=tmp_path / "variant.yaml")
    game = new_game(rules, 4, seed=1)
    set_position(game, {"cities": {"ROMA": "yellow temple", "NEAPOLIS": "yellow"},
                        "stock": {"yellow": {"marble": 5}},
                        "know_how": {"yellow": ["aedificium"]}, "phase": "turn",
                        "frame": {"nation": "yellow"}})
    game.apply("templum")
    game.apply(["temple", "NEAPOLIS"])
    d = game.pending
    assert d is not None and d.options == ("take 1 marble", "take 2 coin")
    ru = presenter(rules, "ru").options(game, d)
    en = presenter(rules, "en").options(game, d)
    assert en == ["Take 1 marble from the bank (resources never run out)",
                  "Take 2 coins from the bank (what it has left)"]
    assert ru == ["Возьмите 1 × мрамор из банка (ресурсы не кончаются)",
                  "Возьмите из банка монеты: 2 (сколько в нём осталось)"]
    assert presenter(rules, "ru").prompt(game, d).startswith("Желтый, aedificium: выберите")
