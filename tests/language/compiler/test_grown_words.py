"""Words a modder reaches for that the language grew (modders/modder3 proves each card in a
position): a cost by the kind of item (`the item is a hero`), an action's number per a
count (`take 1 coin per 2 temples you control`), and actions done at once inside a
replacement (`replace unit.lost when you have 2 coin: pay 2 coin, cancel it`). Here: how
they read, and how a misuse is refused at its place."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import TESTS
from mnrules import load_ruleset
from mnrules.content.ruleset import vocabulary
from mnrules.language.explain import explain
from mnrules.language.syntax import parse_script
from mnrules.language.texts import load_texts
from mnrules.tools.scenario import run
from test_card_scripts import refused_at, with_cards


def test_the_card_text_says_the_count_and_the_payment_in_each_language() -> None:
    rules = load_ruleset("fr")
    vocab = vocabulary(rules)
    per = "after buy: take 1 coin per 2 temples you control"
    en = explain(vocab, parse_script(per))[0]
    assert "take 1 coin from the supply (what is left), for every 2, counting each " \
           "temple you control" in en, en
    fr = explain(vocab, parse_script(per), load_texts(rules, "fr"))[0]
    assert "par tranche de 2, en comptant chaque Temple" in fr, fr
    stoic = "replace unit.lost when you have 2 coin: pay 2 coin, cancel it"
    en = explain(vocab, parse_script(stoic))[0]
    assert "pay 2 coin into the supply; then the event does not happen" in en, en
    hero = explain(vocab, parse_script("modify cost when the item is a hero: subtract 1"))[0]
    assert "if the item priced or bought is hero: subtract 1" in hero, hero


@pytest.mark.parametrize(("script", "line", "column", "message"), [
    ("after buy: take 1 good of your choice per temple you control", 1, 43,
     "'take {n} good of your choice' asks a choice, once"),
    ("after buy: send all units in each other's provinces home per temple you control",
     1, 62, "has no number to multiply"),
    ("after buy: take 1 coin per 0 temples you control", 1, 28, "'per 0 ...' divides"),
    ("after buy: take 1 coin per goods of empty caravan slots under your legions", 1, 28,
     "is not a number"),
    ("after buy: take 1 coin per tmple you control", 1, 28, "unknown count 'tmple"),
    ("replace unit.lost: take 1 good of your choice, cancel it", 1, 20, "cannot ask"),
    ("replace unit.lost: you may pay 2 coin to cancel it", 1, 28, "cannot ask"),
    ("replace unit.lost: pay 2 coin, cancl it", 1, 32, "unknown replacement 'cancl it'"),
    ("modify cost when the item is a heroe: subtract 1", 1, 18, "did you mean 'hero'"),
])
def test_a_misuse_is_refused_with_its_place(tmp_path: Path, script: str, line: int,
                                            column: int, message: str) -> None:
    refused_at(tmp_path, script, line, column, message)


def test_the_kinds_of_item_are_what_their_word_says(tmp_path: Path) -> None:
    """A unit is a legion, trireme or fortress (a marker is not); a building is any
    building kind; a hero counts the starting heroes, a wonder the special wonders; the
    same kinds name what a purchase bought."""
    from mare_nostrum.words import _bought, _item_is
    from mnrules import new_game
    from mnrules.language.compiler import Env

    game = new_game(load_ruleset("en"), 5, seed=1)
    cards = game.rules.cards
    starting = next(c for c in cards if cards[c].kind == "starting hero")
    special = next(c for c in cards if cards[c].kind == "special wonder")

    def kind_of(item: str) -> set[str]:
        env = Env(game, "rome", "x", {"item": item})
        return {k for k in ("unit", "building", "hero", "wonder") if _item_is(env, k)}

    assert kind_of("legion") == kind_of("fortress") == kind_of("trireme") == {"unit"}
    assert kind_of("marker") == set()
    assert kind_of("market") == kind_of("temple") == {"building"}
    assert kind_of(starting) == {"hero"} and kind_of("hercules") == {"hero"}
    assert kind_of(special) == {"wonder"} and kind_of("pharos") == {"wonder"}
    assert _item_is(Env(game, "rome", "x", {"item": "legion"}), "legion")
    # what was bought, as 'you bought a hero' reads it after a purchase
    assert _bought(Env(game, "rome", "x", {"action": ["tile", "hercules"]}), "hero")
    assert not _bought(Env(game, "rome", "x", {"action": ["tile", "hercules"]}), "wonder")
    assert _bought(Env(game, "rome", "x", {"action": ["tile", special]}), "wonder")
    assert not _bought(Env(game, "rome", "x", {"action": ["legion", "LATIUM"]}), "hero")


def test_an_action_per_a_count_is_done_that_many_times(tmp_path: Path) -> None:
    """Rome controls three provinces, Greece one, Carthage none: 'take 1 wine per 2
    provinces you control' gives Rome one wine, 'per province' three times its number;
    each opponent who loses counts his own provinces."""
    from mare_nostrum import position as pos
    from mnrules import new_game

    rules = with_cards(tmp_path, ("midas", "after collect: take 1 wine per 2 provinces you "
                                  "control, take 2 oil per province you control, each "
                                  "opponent loses 1 coin per province you control"))
    game = new_game(rules, 3, seed=1)
    pos.clear(game)
    for area in ("LATIUM", "GALLIA", "ITALIA"):
        pos.set_marker(game, area, "rome")
    pos.set_marker(game, "ACHAEA", "greece")
    pos.give(game, "greece", {"coin": 3})
    pos.give(game, "carthage", {"coin": 3})
    pos.give_tiles(game, "rome", "midas")
    game.state.round = 2
    pos.start_phase(game, "production")
    while game.pending is not None and game.state.phase == "production":
        game.apply(game.legal()[0])
    screens = game.state.screens
    assert screens["rome"].get("wine") == 1 and screens["rome"].get("oil") == 6
    assert screens["greece"].get("coin") == 2 and screens["carthage"].get("coin") == 3


def test_a_price_of_several_resources_is_paid_together_and_read_so() -> None:
    """'offer legion for 1 coin and 1 grain' (modders/modder3/cards/quartermaster.yaml): one
    payment of two resources, not a choice between them ('or' is the choice)."""
    rules = load_ruleset("fr")
    vocab = vocabulary(rules)
    script = "offer legion for 1 coin and 1 grain or 2 wood"
    rule = parse_script(script)[0]
    assert [[(p.n, p.phrase.text) for p in pay.parts] for pay in rule.payments] == \
        [[(1, "coin"), (1, "grain")], [(2, "wood")]]
    en = explain(vocab, parse_script(script))[0]
    assert "for 1 coin and 1 grain or 2 wood" in en, en
    fr = explain(vocab, parse_script(script), load_texts(rules, "fr"))[0]
    assert "1 Impôt et 1 Céréale ou 2 Bois" in fr, fr


def test_each_amount_of_a_price_is_held_to_its_range(tmp_path: Path) -> None:
    script = "offer legion for 1 coin and 99 grain"
    refused_at(tmp_path, script, 1, 29, "out of range for the payment for 'legion'")


@pytest.mark.parametrize("event", ["collect", "production", "phase.start", "battle.start",
                                   "battle.roll", "battle"])
@pytest.mark.parametrize("kind", ["replace", "before"])
def test_an_event_told_once_done_takes_only_after(tmp_path: Path, event: str,
                                                 kind: str) -> None:
    """A collection is made, a battle fought, a phase begun before the rules tell of it:
    'replace collect by an opponent: cancel it' would read "the event does not happen"
    of income already taken, so it is refused where the event is named."""
    refused_at(tmp_path, f"{kind} {event} by an opponent: cancel it"
               if kind == "replace" else f"{kind} {event}: take 1 coin", 1, len(kind) + 2,
               f"'{event}' is told once it has happened")


def test_an_event_still_to_happen_may_be_replaced_or_preceded(tmp_path: Path) -> None:
    scripts = ("replace move by an opponent: cancel it", "before pillage: take 1 coin",
               "replace unit.lost when the unit is legion: cancel it")
    rules = with_cards(tmp_path, *((f"hero{i}", s) for i, s in enumerate(scripts)))
    assert {f"hero{i}" for i in range(3)} <= set(rules.cards)


def test_a_take_in_the_trade_reads_its_resource(tmp_path: Path) -> None:
    """'the resource is wine' reads what was taken in the trade (modders/modder3's Broker
    reads whose offer it came from): Carthage takes Rome's wine and a coin with it."""
    with_cards(tmp_path, ("vintner", "after trade.pick when the resource is wine: "
                                     "take 1 coin"))
    broker = TESTS / "language" / "modders" / "modder3" / "scenarios" / "broker.yaml"
    text = broker.read_text(encoding="utf-8").replace("[broker]", "[vintner]")
    text = text.replace("variant: ../variant.yaml", f"variant: {tmp_path / 'variant.yaml'}")
    text = text.replace("{coin: 2}}}}", "{coin: 3}}}}")   # at once; Greece's take pays none
    scenario = tmp_path / "vintner.yaml"
    scenario.write_text(text, encoding="utf-8")
    outcomes = list(run(scenario))
    assert outcomes and all(o.ok for o in outcomes), [o.failures for o in outcomes]
    refused_at(tmp_path, "after buy when the resource is wine: take 1 coin", 1, 16,
               "means something only for trade.pick")


def test_a_unit_lost_reads_the_battle_it_is_lost_in(tmp_path: Path) -> None:
    """'after unit.lost by an opponent when you fight' (modders/modder3's Avenger): a unit
    lost reads its battle as the battle's own events do; Greece's legion lost to Rome
    in a battle Egypt does not fight pays Egypt nothing."""
    with_cards(tmp_path, ("avenger", "after unit.lost by an opponent when you fight: "
                                     "take 1 coin"))
    scenario = tmp_path / "elsewhere.yaml"
    scenario.write_text(f"""scenario: a battle Egypt does not fight
edition: en
variant: {tmp_path / 'variant.yaml'}
position:
  round: 2
  titles: {{military: rome}}
  control: {{ACHAEA: greece}}
  units: {{ACHAEA: {{rome: {{legion: 2}}, greece: {{legion: 1}}}}}}
  resources: {{egypt: {{coin: 0}}}}
  tiles: {{egypt: [avenger]}}
  phase: military
forced:
  land die: [5, 0, 0]
choices: [rome, [done]]
expect:
  resources: {{egypt: {{coin: 0}}}}
  units: {{ACHAEA: {{rome: {{legion: 2}}}}}}
""", encoding="utf-8")
    outcomes = list(run(scenario))
    assert outcomes and all(o.ok for o in outcomes), [o.failures for o in outcomes]


def test_two_goods_of_ones_choice_are_asked_one_after_the_other(tmp_path: Path) -> None:
    """'take 2 goods of your choice': a good, then another among what is left; 'lose 2
    goods of your choice' gives back two of what he holds, asked the same way."""
    with_cards(tmp_path, ("patron", "after buy when the item is a wonder: take 2 goods of "
                                    "your choice, lose 2 goods of your choice"))
    scenario = tmp_path / "patron.yaml"
    scenario.write_text(f"""scenario: Greece buys a wonder, takes two goods, gives two back
edition: en
variant: {tmp_path / 'variant.yaml'}
position:
  round: 2
  titles: {{military: greece, culture: greece, trade: greece}}
  resources: {{greece: {{coin: 8, stone: 1}}}}
  tiles: {{greece: [patron]}}
  display: [colossus, circe]
  phase: build
choices:
  - greece
  - [tile, colossus]             # his third tile: 8 coins
  - [coin, coin, coin, coin, coin, coin, coin, coin]
  - {{expect: {{pending: {{player: greece, kind: card.choose}}}}}}
  - wine
  - {{expect: {{resources: {{greece: {{stone: 1, wine: 1}}}}}}}}
  - oil
  - {{expect: {{pending: {{player: greece, kind: card.choose, options: [oil, stone, wine]}}}}}}
  - stone
  - wine
expect:
  resources: {{greece: {{oil: 1}}}}
""", encoding="utf-8")
    outcomes = list(run(scenario))
    assert outcomes and all(o.ok for o in outcomes), [o.failures for o in outcomes]
    refused_at(tmp_path, "after buy: take 6 goods of your choice", 1, 17,
               "6 is out of range")
