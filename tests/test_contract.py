"""The rules' contract: every quantity folded, event performed or emitted and decision
kind asked is declared once, by its owner; an undeclared or misspelt name is refused
with the nearest declared one; docs/rules.md says what the plugins declare."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnrules import Game, new_game
from mnrules.content.ruleset import Ruleset, load_ruleset, vocabulary
from mnrules.core.effects import Event, Modifier
from mnrules.hooks.bus import check_routes
from mnrules.hooks.contract import (
    KERNEL,
    Contract,
    ContractError,
    Declaration,
    EventKind,
    Quantity,
    UndeclaredName,
    contract_words,
)
from mnrules.hooks.hookspecs import hookimpl
from mnrules.tools.rules_doc import render_rules_doc

ROOT = Path(__file__).resolve().parent.parent
KERNEL_SOURCES = sorted(p for p in (ROOT / "mnrules").rglob("*.py") if "plugins" not in p.parts)
# Each game is checked against its own contract: its plugins' sources and the kernel's.
GAMES = {"mare_nostrum": "en", "antike2": "antike2"}
# the scan does see each game's names (a regex that finds nothing proves nothing)
AT_LEAST = {"mare_nostrum": (15, 20, 20), "antike2": (5, 5, 10)}
SOURCES = [*sorted((ROOT / "plugins").rglob("*.py")), *KERNEL_SOURCES]


def game_sources(game: str) -> list[Path]:
    return [*sorted((ROOT / "plugins" / game).rglob("*.py")), *KERNEL_SOURCES]
# The names the source spells out: game.fold("..."), Event("...") (performed or emitted),
# Decision(player, "...").
FOLD = re.compile(r"\.fold\(\s*\"([^\"]+)\"")
EVENT = re.compile(r"\bEvent\(\s*\"([^\"]+)\"")
DECISION = re.compile(r"\bDecision\(\s*[^,()]+(?:\([^()]*\))?(?:\[[^\]]*\])?,\s*\"([^\"]+)\"")


def contract_of(rules: Ruleset) -> Contract:
    contract = rules.pm.contract
    assert contract is not None
    return contract


def used_names(game: str = "mare_nostrum") -> dict[str, set[str]]:
    found: dict[str, set[str]] = {"fold": set(), "event": set(), "decision": set()}
    for path in game_sources(game):
        if path.name in ("contract.py", "rules_doc.py"):
            continue
        text = path.read_text(encoding="utf-8")
        found["fold"] |= set(FOLD.findall(text))
        found["event"] |= set(EVENT.findall(text))
        found["decision"] |= set(DECISION.findall(text))
    return found


# -- the declarations ---------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_name_the_source_uses_is_declared(game: str) -> None:
    contract = contract_of(load_ruleset(GAMES[game]))
    used = used_names(game)
    folds, events, decisions = AT_LEAST[game]
    assert (len(used["fold"]) >= folds and len(used["event"]) >= events
            and len(used["decision"]) >= decisions)
    assert used["fold"] - set(contract.quantities) == set()
    assert used["event"] - set(contract.events) == set()
    assert used["decision"] - set(contract.decisions) == set()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_declared_name_is_used(game: str) -> None:
    """No stale declaration: each name is folded, made into an event or asked somewhere."""
    contract = contract_of(load_ruleset(GAMES[game]))
    used = used_names(game)
    assert set(contract.quantities) - used["fold"] == set()
    assert set(contract.events) - used["event"] == set()
    assert set(contract.decisions) - used["decision"] == set()


def test_owners_are_the_declaring_plugins(rules: Ruleset) -> None:
    for impl in rules.hook.mn_contract.get_hookimpls():
        for d in impl.function():
            assert d.owner == impl.plugin_name, (impl.plugin_name, d)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_emitted_only_events_are_not_performed(game: str) -> None:
    """An event declared as only emitted never goes through game.perform in the source."""
    contract = contract_of(load_ruleset(GAMES[game]))
    performed = set()
    for path in game_sources(game):
        performed |= set(re.findall(r"perform\(\s*Event\(\s*\"([^\"]+)\"",
                                    path.read_text(encoding="utf-8")))
    emitted_only = {n for n, e in contract.events.items() if not e.performed}
    assert performed & emitted_only == set()
    assert performed <= set(contract.events)


def test_a_name_declared_twice_is_refused_naming_both_owners() -> None:
    twice = [Quantity("cost", "build", "The cost.", "int"),
             Quantity("cost", "my_variant", "Also the cost.", "int")]
    with pytest.raises(ContractError, match=r"'cost' is declared twice: by 'build' and by "
                                            r"'my_variant'"):
        Contract(twice)
    with pytest.raises(ContractError, match="'phase_start' is declared twice: by 'flow'"):
        Contract([*KERNEL, EventKind("phase_start", "mine", "A phase begins.", True)])


def test_a_plugin_redeclaring_a_name_is_refused(fresh_rules: Callable[..., Ruleset]) -> None:
    rules = fresh_rules()

    class Mine:
        @hookimpl
        def mn_contract(self) -> list[Declaration]:
            return [Quantity("storage.coins", "mine", "Coins kept.", "int")]

    rules.pm.register(Mine(), name="mine")
    with pytest.raises(ContractError, match=r"'storage\.coins' is declared twice: by 'build' "
                                            r"and by 'mine'"):
        _ = rules.pm.contract


def test_an_emitted_only_event_cannot_have_a_card_word() -> None:
    with pytest.raises(ContractError, match="would never fire"):
        Contract([EventKind("collected", "production", "Collected.", False, word="collect")])


# -- undeclared names are refused ---------------------------------------------------------
def test_an_undeclared_fold_is_refused_with_the_hint(game5: Game) -> None:
    with pytest.raises(UndeclaredName) as info:
        game5.fold("battle.dise", 2, side="rome")
    message = str(info.value)
    assert "game.fold" in message and "'battle.dise'" in message
    assert "did you mean 'battle.dice'?" in message and "mn_contract" in message
    assert info.value.hint == "battle.dice"
    assert game5.fold("battle.allowed", True, area="LATIUM", attacker="rome",
                      defender="greece") is True  # a declared one goes through


def test_an_undeclared_perform_is_refused_with_the_hint(game5: Game) -> None:
    done: list[Event] = []
    with pytest.raises(UndeclaredName, match=r"game.perform: no plugin declares the event "
                                             r"'biult'; did you mean 'built'\?.*mn_contract"):
        game5.perform(Event("biult", "rome"), done.append)
    assert done == []  # refused before it happens


def test_performing_an_emitted_only_event_is_refused(game5: Game) -> None:
    with pytest.raises(ContractError, match="'trade_giveback' is declared by 'trade' as "
                                            "only emitted"):
        game5.perform(Event("trade_giveback", "rome", {"to": "greece"}),
                      lambda e: None)


def test_an_undeclared_emit_is_refused_with_the_hint(rules: Ruleset) -> None:
    rules.pm.check_emit("trade_pick")  # declared: nothing to say
    with pytest.raises(UndeclaredName, match=r"game.emit: no plugin declares the event "
                                             r"'trade_pik'; did you mean 'trade_pick'\?"):
        rules.pm.check_emit("trade_pik")


def test_game_emit_refuses_an_undeclared_event(game5: Game) -> None:
    if "check_emit" not in inspect.getsource(Game.emit):
        pytest.skip("Game.emit does not call rules.pm.check_emit(event.kind) yet")
    with pytest.raises(UndeclaredName, match="did you mean 'game_over'"):
        game5.emit(Event("game_ovr"))


def test_a_whole_game_uses_only_declared_names(rules: Ruleset) -> None:
    """Every name a played game folds, performs or emits passes the check (on a bus
    whose contract would refuse anything else)."""
    from mnrules.bots.random_bot import RandomBot
    game = new_game(rules, 5, seed=4, round_cap=6)
    seen: set[str] = set()
    game.listeners.append(lambda e: seen.add(e.kind))
    bot = RandomBot(4)
    while game.pending is not None:
        game.apply(bot.choose(game))
    assert seen <= set(contract_of(rules).events)
    assert {"phase_start", "built", "collected"} <= seen


# -- the plugins' routes ------------------------------------------------------------------
class Typo:
    MODIFIES = frozenset({"battle.totl"})

    @hookimpl
    def mn_modifiers(self, game: Game, quantity: str, ctx: dict[str, Any]) -> Any:
        return [Modifier("typo", lambda v: v + 1)]


def test_a_modifies_typo_is_refused(fresh_rules: Callable[..., Ruleset]) -> None:
    rules = fresh_rules()
    rules.pm.register(Typo(), name="typo")
    with pytest.raises(ContractError, match=r"plugin 'typo': MODIFIES names 'battle.totl', "
                                            r"which no plugin declares as a quantity; did "
                                            r"you mean 'battle.total'\?"):
        check_routes(rules.pm, Contract.of(rules.pm))
    with pytest.raises(ContractError, match=r"battle\.totl"):
        new_game(rules, 5, seed=1).fold("battle.total", 0)  # the bus refuses to route


def test_routes_must_name_performed_events_as_sets(rules: Ruleset) -> None:
    contract = contract_of(rules)

    class Listens:
        TRIGGERED_BY = frozenset({"trade_giveback"})
        REPLACES = "built"

    bus = type(rules.pm)("mnrules")
    bus.register(Listens(), name="listens")
    with pytest.raises(ContractError) as info:
        check_routes(bus, contract)
    message = str(info.value)
    assert "TRIGGERED_BY names 'trade_giveback', an event 'trade' only emits" in message
    assert "REPLACES must be a set of names, not 'built'" in message


def test_the_bundled_routes_are_declared(rules: Ruleset) -> None:
    check_routes(rules.pm, contract_of(rules))  # every plugin's and every card's
    assert rules.pm.check_contract() is rules.pm.contract


# -- what the contract gives the card vocabulary and the docs ------------------------------
def test_the_vocabularys_quantities_and_events_are_the_contracts(rules: Ruleset) -> None:
    """Every quantity and event word is a declared quantity's or performed event's
    ``word``, meaning its declared name, documented by its meaning sentence; no other."""
    vocab = vocabulary(rules)
    contract = contract_of(rules)
    for kind, table in (("quantity", contract.quantities), ("event", contract.events)):
        got = {w.pattern: (w.meaning, w.doc) for w in vocab.words(kind)}
        want = {d.word: (d.name, d.meaning) for d in table.values()
                if d.word and (not isinstance(d, EventKind) or d.performed)}
        assert got == want, kind
    assert {w.pattern for w in contract_words(contract)} == \
        {w.pattern for kind in ("quantity", "event") for w in vocab.words(kind)}
    for q in vocab.words("quantity"):
        declared = contract.quantities[q.meaning]
        assert (q.subject, q.vtype) == (declared.subject, declared.value), q.pattern
    for e in vocab.words("event"):
        assert e.whose == contract.events[e.meaning].player, e.pattern


def test_the_words_plugin_keeps_no_table_of_quantities_or_events(rules: Ruleset) -> None:
    """What a quantity word needs beyond the contract is keyed to its declared name."""
    from mare_nostrum import words
    assert not hasattr(words, "QUANTITIES") and not hasattr(words, "EVENTS")
    contract = contract_of(rules)
    assert set(words.QUANTITY_NUMBERS) | set(words.LIST_HOLDS) <= set(contract.quantities)
    vocab = {w.meaning: w for w in vocabulary(rules).words("quantity")}
    for name, (numbers, ceiling) in words.QUANTITY_NUMBERS.items():
        assert (vocab[name].numbers, vocab[name].ceiling) == (numbers, ceiling), name
    for name, holds in words.LIST_HOLDS.items():
        assert vocab[name].holds == holds, name
    # every number a script may give a quantity has a declared range
    for w in vocab.values():
        if w.vtype in ("int", "sizes") or w.holds == "resources":
            assert w.meaning in words.QUANTITY_NUMBERS, w.pattern


class Mine:
    """A plugin declaring a quantity and an event whose words differ from their names."""

    @hookimpl
    def mn_contract(self) -> list[Declaration]:
        return [Quantity("mine.luck", "mine", "A player's luck.", "int",
                         (("player", "whose luck it is"),), subject="player", word="luck"),
                EventKind("mine_feast", "mine", "A feast is held.", True, word="feast")]

    @hookimpl
    def mn_vocabulary(self) -> list[Any]:
        from mnrules.language.words import Terms
        return [Terms("mine.luck", (0, 5), 9)]


def _card_file(tmp_path: Path, script: str) -> Path:
    f = tmp_path / "lucky.yaml"
    f.write_text("id: lucky\nkind: hero\nnames: {en: Lucky}\neffects: |\n  "
                 + script.replace("\n", "\n  ") + "\n", encoding="utf-8")
    return f


def test_a_declared_word_is_all_a_card_needs(fresh_rules: Callable[..., Ruleset],
                                             tmp_path: Path) -> None:
    """A card names a quantity or an event by the word its declaration gives; the card
    answers for the declared name."""
    from mnrules.content.card_files import read_card
    from mnrules.language.compiler import compile_card
    from mnrules.language.syntax import ScriptError, parse_script

    rules = fresh_rules()
    rules.pm.register(Mine(), name="mine")
    vocab = vocabulary(rules)
    luck = next(w for w in vocab.words("quantity") if w.pattern == "luck")
    assert (luck.meaning, luck.doc, luck.numbers, luck.ceiling) == \
        ("mine.luck", "A player's luck.", (0, 5), 9)

    def compiled(script: str) -> Any:
        f = _card_file(tmp_path, script)
        card = read_card(f)
        assert card.effects is not None
        return compile_card(card, vocab, parse_script(card.effects, str(f), *card.effects_at),
                            f.read_text().splitlines())

    effects = compiled("modify luck: add 5, double\nafter feast: take 1 good of your choice")
    modifies, reacts = effects.MODIFIES, effects.TRIGGERED_BY   # the declared names
    assert modifies == {"mine.luck"} and reacts == {"mine_feast"}
    with pytest.raises(ScriptError, match="6 is out of range for the quantity 'luck': "
                                          "from 0 to 5"):
        compiled("modify luck: add 6")
    with pytest.raises(ScriptError, match=r"unknown quantity 'mine\.luck': the rules' name "
                                          r"of the quantity 'luck'; did you mean 'luck'"):
        compiled("modify mine.luck: add 1")
    rules.cards["lucky"] = effects.card
    rules.pm.register(effects, name="card:lucky")
    game = new_game(rules, 3, seed=1)
    player = game.state.players[0]
    game.state.tiles[player].append("lucky")
    assert game.fold("mine.luck", 1, player=player) == 9       # (1 + 5) * 2, the ceiling
    assert game.fold("mine.luck", 1, player=game.state.players[1]) == 1


def test_a_word_keyed_to_an_undeclared_or_emitted_name_is_refused_at_assembly(
        fresh_rules: Callable[..., Ruleset]) -> None:
    from mnrules.content.ruleset import compile_cards
    from mnrules.language.words import Terms, Word

    class Bad:
        @hookimpl
        def mn_contract(self) -> list[Declaration]:
            return [Quantity("bad.total", "bad", "Another total.", "int",
                             word="battle.total")]

        @hookimpl
        def mn_vocabulary(self) -> list[Any]:
            return [Terms("battle.totl", (0, 1)),
                    Terms("collected"),
                    Terms("battle.allowed"),
                    Word("condition", "it rains", lambda e: True, "it rains",
                         on=frozenset({"trade_giveback", "batle"})),
                    Word("event", "harvest", "harvest", "a harvest")]

    rules = fresh_rules()
    rules.pm.register(Bad(), name="bad")
    with pytest.raises(ContractError) as info:
        compile_cards(rules)        # what load_ruleset runs before any card is registered
    message = str(info.value)
    for part in ["the quantity word 'battle.total' is given twice: to 'battle.total' and "
                 "to 'bad.total'",
                 "plugin 'bad': mn_vocabulary's Terms names 'battle.totl', which no plugin "
                 "declares as a quantity or event; did you mean 'battle.total'?",
                 "Terms names the event 'collected': Terms are for quantities",
                 "names the quantity 'battle.allowed', which has no card word",
                 "the condition 'it rains' names the event 'trade_giveback', which 'trade' only "
                 "emits: nothing performs it, so it would never apply",
                 "the condition 'it rains' names 'batle', which no plugin declares as a "
                 "quantity or event; did you mean 'battle'?",
                 "mn_vocabulary gives the event word 'harvest'; a card's event words come "
                 "from the contract: declare it with EventKind(..., word='harvest')"]:
        assert part in message, part


def test_a_word_reads_the_events_its_pack_plays(fresh_rules: Callable[..., Ruleset]) -> None:
    """A word's event that no plugin of the pack declares, and near no declared name,
    belongs to a plugin the pack leaves out (Antike II without war has no 'conquest'):
    the word keeps the events the pack plays, and a word left with none is left out."""
    from mnrules.content.ruleset import compile_cards, vocabulary
    from mnrules.language.words import Word

    class Optional:
        @hookimpl
        def mn_vocabulary(self) -> list[Any]:
            return [Word("condition", "it hails", lambda e: True, "it hails",
                         on=frozenset({"battle", "volcanic_eruption"})),
                    Word("condition", "lava flows", lambda e: True, "lava flows",
                         on=frozenset({"volcanic_eruption"}))]

    rules = fresh_rules()
    rules.pm.register(Optional(), name="optional")
    compile_cards(rules)
    vocab = vocabulary(rules)
    hail = vocab.match("condition", ("it", "hails"))
    assert hail is not None and hail[0].on == frozenset({"battle"})
    assert vocab.match("condition", ("lava", "flows")) is None


def test_rules_doc_is_up_to_date(rules: Ruleset) -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert text == render_rules_doc(rules), \
        "docs/rules.md is stale: run `mnrules rules --markdown > docs/rules.md`"


def test_rules_doc_has_every_phase_and_name(rules: Ruleset) -> None:
    text = render_rules_doc(rules)
    contract = contract_of(rules)
    for phase in rules.phases:
        assert f"(`{phase}`)" in text
    for name in [*contract.quantities, *contract.events, *contract.decisions,
                 *rules.declared, *rules.steps]:
        assert f"`{name}`" in text, name


def test_the_rules_command_prints_the_rules_page(rules: Ruleset,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from mnrules.frontends.cli import main
    assert main(["rules", "--edition", "en", "--markdown"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert main(["rules", "--edition", "fr"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert "`" not in text and not any(ln.startswith("#") for ln in lines)
    title = next(i for i, ln in enumerate(lines) if ln.startswith("Phase 1: "))
    assert lines[title].endswith(" (production)") and set(lines[title + 1]) == {"-"}
    assert len(lines[title + 1]) == len(lines[title])     # underlined, as a heading
    assert main(["rules", "--edition", "zz"]) == 2
    assert "unknown edition 'zz'" in capsys.readouterr().err
