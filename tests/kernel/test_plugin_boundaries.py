"""Plugin boundaries: each rule has one home, owned by one plugin; a plugin asks another
through the bus or the owner's public functions, never its private ones; no plugin
writes another's ``state.vars`` keys; a variant replacing a plugin replaces its rule
whole (the battle step's rolls included); bots ask the documented rules API."""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import ROOT
from mare_nostrum import api, conquest, geometry
from mare_nostrum import position as pos
from mare_nostrum.battle import total_distribution
from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset
from mnrules.errors import PackError
from test_editions import fight
from test_movement import empty_board

GAME = ROOT / "plugins" / "mare_nostrum"
PACKAGE = "mare_nostrum"
RULE_PLUGINS = ("setup", "production", "trade", "build", "payment", "military", "battle",
                "conquest", "claims", "victory", "control", "tracks", "words")
FACES = (0, 1, 2, 3, 4, 5)


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every ``from X import names`` in a file, made absolute."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative to the file's package
                parts = [*PACKAGE.split("."), *path.relative_to(GAME).parts[:-1]]
                parts = parts[:len(parts) - node.level + 1]
                module = ".".join([*parts, module] if module else parts)
            out.append((module, [a.name for a in node.names]))
    return out


# -- imports ------------------------------------------------------------------------------
def test_no_module_of_the_game_imports_another_ones_private_names() -> None:
    found = [(path.name, module, name) for path in sorted(GAME.rglob("*.py"))
             for module, names in _imports(path) if module.startswith(PACKAGE)
             for name in names if name.startswith("_")]
    assert found == []


def test_the_battle_step_asks_the_battle_plugin_through_the_bus() -> None:
    """military.py never imports battle.py: it asks ``mn_battle_roll``."""
    modules = {module for module, _ in _imports(GAME / "military.py")}
    assert f"{PACKAGE}.battle" not in modules
    assert "mn_battle_roll" in (GAME / "military.py").read_text(encoding="utf-8")


def test_bots_ask_only_the_rules_api() -> None:
    """Of the game, the bots import the rules API, the state's data types and each
    other; no rule plugin."""
    allowed = {f"{PACKAGE}.api", f"{PACKAGE}.state", f"{PACKAGE}", f"{PACKAGE}.bots"}
    for path in sorted((GAME / "bots").glob("*.py")):
        for module, names in _imports(path):
            if not module.startswith(PACKAGE) or module.startswith(f"{PACKAGE}.bots"):
                continue
            assert module in allowed, (path.name, module)
            if module == PACKAGE:
                assert names == ["api"], (path.name, names)


def test_every_function_of_the_rules_api_is_documented() -> None:
    """Read from the source, where a compiled core (which keeps no docstrings) reads it
    too: every public function the module defines has its docstring."""
    tree = ast.parse((GAME / "api.py").read_text(encoding="utf-8"))
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)
                 and not node.name.startswith("_")]
    assert len(functions) >= 25
    assert all(callable(getattr(api, f.name, None)) for f in functions)
    assert [f.name for f in functions if not (ast.get_docstring(f) or "").strip()] == []


# -- one home per rule --------------------------------------------------------------------
SUPPLY_WRITE = re.compile(r"\bsupply\[[^\]]+\]\s*[-+]?=")


def test_only_the_supply_module_moves_things_in_and_out_of_the_supply() -> None:
    """Taking, giving back and drawing are supply.py's; setup fills the box and a
    scenario's position edits it, nothing else writes the supply."""
    writers = sorted(path.name for path in GAME.glob("*.py")
                     if SUPPLY_WRITE.search(path.read_text(encoding="utf-8")))
    assert writers == ["position.py", "setup.py", "supply.py"]
    setup = (GAME / "setup.py").read_text(encoding="utf-8")
    assert all("def fill_box" in block for block in setup.split("\n\n\n")
               if SUPPLY_WRITE.search(block))


def test_the_trireme_chains_are_computed_in_one_place() -> None:
    users = sorted(path.name for path in GAME.rglob("*.py")
                   if "provinces_on_sea(sea) for sea in" in path.read_text(encoding="utf-8")
                   or re.search(r"def \w*(shores|connected)\w*\(",
                                path.read_text(encoding="utf-8")))
    assert users == ["geometry.py"]


# -- state.vars keys: one writer each -----------------------------------------------------
VARS_WRITE = re.compile(r"vars(?:\[\s*\"([^\"]+)\"\s*\]\s*=[^=]|\.setdefault\(\s*\"([^\"]+)\""
                        r"|\.pop\(\s*\"([^\"]+)\")")
OWNERS = {
    "round_cap": "mnrules/core/start.py",             # the kernel: the round cap of a game
    "forced": "mnrules/core/engine.py",               # the kernel: forced chance (scenarios)
    "used": "mnrules/language/compiler.py",      # the kernel: a card's use per period
    "copies": "plugins/mare_nostrum/words.py",   # the card words: copied heroes
    "peace": "plugins/mare_nostrum/words.py",    # the card words: the Statue of Zeus
    "trade.tokens": "plugins/mare_nostrum/trade.py",
    "trade.tokens_for": "plugins/mare_nostrum/trade.py",
    "conquest": "plugins/mare_nostrum/conquest.py",
    "build.bases": "plugins/mare_nostrum/build.py",
    "victory.build": "plugins/mare_nostrum/victory.py",
    "victory.able": "plugins/mare_nostrum/victory.py",
}


def test_each_vars_key_is_written_by_its_owner_only() -> None:
    files = {p.resolve() for p in [*ROOT.joinpath("mnrules").rglob("*.py"),
                                   *ROOT.joinpath("plugins").rglob("*.py")]}
    writers: dict[str, set[str]] = {}
    for path in sorted(files):
        for found in VARS_WRITE.finditer(path.read_text(encoding="utf-8")):
            key = next(k for k in found.groups() if k)
            writers.setdefault(key, set()).add(str(path.relative_to(ROOT)))
    assert writers == {key: {owner} for key, owner in OWNERS.items()}


# -- the battle plugin replaced by an edited copy -----------------------------------------
ROUND_DOWN = "    return max(0, (total + side.bonus) // divisor + side.extra_hits " \
             "- against.shield)\n"
ROUND_UP = "    return max(0, -(-(total + side.bonus) // divisor) + side.extra_hits " \
           "- against.shield)\n"


@pytest.fixture(scope="module")
def rounding_up(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    """A variant whose battle plugin is a copy of battle.py rounding hits up."""
    folder = tmp_path_factory.mktemp("variant")
    text = (GAME / "battle.py").read_text(encoding="utf-8")
    assert text.count(ROUND_DOWN) == 1
    (folder / "my_battle.py").write_text(text.replace(ROUND_DOWN, ROUND_UP), encoding="utf-8")
    variant = folder / "v.yaml"
    variant.write_text("extends: en\nplugins: {replace: {battle: my_battle.py}}\n",
                       encoding="utf-8")
    rules = load_ruleset("en", variant=variant)
    assert "battle" not in rules.data["plugins"]
    return rules


def test_a_replaced_battle_plugin_rolls_every_battle(rules: Ruleset,
                                                     rounding_up: Ruleset) -> None:
    """Carthage's III IV blank (7) against a legion: one hit rounded down (the book),
    two rounded up (the copy); Egypt's V (5) is one hit either way."""
    dice = [3, 4, 0, 5]
    assert fight(rules, dice, legions=(3, 1))["hits"] == {"carthage": 1, "egypt": 1}
    assert fight(rounding_up, dice, legions=(3, 1))["hits"] == {"carthage": 2, "egypt": 1}


def test_a_replaced_battle_plugin_changes_a_seeded_battle(rules: Ruleset,
                                                          rounding_up: Ruleset) -> None:
    """The same seeded battle draws the same dice under both; its hits are the copy's."""
    out = {}
    for name, ruleset in (("book", rules), ("up", rounding_up)):
        for seed in range(1, 40):
            game = empty_board(ruleset, seed=seed)
            pos.set_marker(game, "CYRENAICA", "egypt")
            pos.add_units(game, "carthage", "CYRENAICA", "legion", 3)
            pos.add_units(game, "egypt", "CYRENAICA", "legion", 2)
            battle = {"area": "CYRENAICA", "kind": "land", "attacker": "carthage",
                      "defender": "egypt"}
            rolled = ruleset.hook.mn_battle_roll(game=game, battle=battle)
            out[name, seed] = rolled
    differ = 0
    for seed in range(1, 40):
        book, up = out["book", seed], out["up", seed]
        assert book["rolls"] == up["rolls"]
        for player, dice in book["rolls"].items():
            assert book["hits"][player] == sum(dice) // 5
            assert up["hits"][player] == -(-sum(dice) // 5)
            differ += book["hits"][player] != up["hits"][player]
    assert differ > 20


def _hits(dice: int, rounding: str) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for total, p in total_distribution(dice, FACES).items():
        h = total // 5 if rounding == "down" else -(-total // 5)
        out[h] = out.get(h, Fraction(0)) + p
    return out


def test_bots_read_the_replaced_plugins_exact_odds(rules: Ruleset,
                                                   rounding_up: Ruleset) -> None:
    """The odds a bot asks the rules API for are the replacing plugin's, exactly."""
    for ruleset, rounding in ((rules, "down"), (rounding_up, "up")):
        game = empty_board(ruleset)
        pos.set_marker(game, "CYRENAICA", "egypt")
        pos.add_units(game, "carthage", "CYRENAICA", "legion", 3)
        pos.add_units(game, "egypt", "CYRENAICA", "legion", 2)
        battle = {"area": "CYRENAICA", "kind": "land", "attacker": "carthage",
                  "defender": "egypt"}
        odds = ruleset.hook.mn_battle_odds(game=game, battle=battle,
                                           units={"carthage": 3, "egypt": 2})
        for player, dice in (("carthage", 3), ("egypt", 2)):
            want = _hits(dice, rounding)
            assert dict(odds["hits"][player]) == pytest.approx(
                {h: float(p) for h, p in want.items()})
        losses = api.battle_odds(game, "CYRENAICA", "carthage", "egypt")
        assert losses == odds["losses"]
        att, dfd = _hits(3, rounding), _hits(2, rounding)
        want_losses: dict[tuple[int, int], Fraction] = {}
        for x, p in att.items():
            for y, q in dfd.items():
                key = (min(y, 3), min(x, 2))
                want_losses[key] = want_losses.get(key, Fraction(0)) + p * q
        assert {(a, b): p for a, b, p in losses} == pytest.approx(
            {k: float(p) for k, p in want_losses.items()})
        expected = api.expected_hits(game, "CYRENAICA", "carthage", "egypt")
        assert expected == pytest.approx((float(sum(h * p for h, p in att.items())),
                                          float(sum(h * p for h, p in dfd.items()))))
    # rounding up: more hits, both sides
    assert float(sum(h * p for h, p in _hits(3, "up").items())) > \
        float(sum(h * p for h, p in _hits(3, "down").items()))


def test_a_pack_without_a_battle_plugin_is_refused(tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: en\nplugins: {remove: [battle]}\n", encoding="utf-8")
    with pytest.raises(PackError, match=r"v\.yaml:2.*plugins: the military plugin's "
                                        r"battles are rolled by a plugin answering "
                                        r"mn_battle_roll"):
        load_ruleset("en", variant=variant)


# -- the rules API answers as the rules do ------------------------------------------------
def test_the_api_answers_as_the_rules_do(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=3, round_cap=8)
    bot = RandomBot(3)
    checked = 0
    while (dec := game.pending) is not None:
        if dec.kind == "build.action":
            me = dec.player
            assert set(api.legal_builds(game, me)) == set(dec.options) - {("end",)}
            everyone = api.incomes(game)
            assert everyone == {p: api.income(game, p) for p in game.state.players}
            reach = api.reach(game, me)
            for prov in game.state.built:
                assert reach(prov) == geometry.reachable(game, me, prov)
                assert reach.connected(prov) == geometry.connected(game, me, prov)
            checked += 1
        game.apply(bot.choose(game))
    assert checked > 10


def test_the_queen_of_sheba_conversion_is_the_conquest_plugins(rules: Ruleset) -> None:
    """A conversion at once replaces the marker as a conversion does, removing the
    occupying legion, only when the province is linked to another of the occupier's."""
    game = empty_board(rules)
    pos.set_marker(game, "CYRENAICA", "egypt")
    pos.add_units(game, "rome", "CYRENAICA", "legion", 2)
    game.state.marker_occupier["CYRENAICA"] = "rome"
    assert not conquest.can_convert_now(game, "rome", "CYRENAICA")  # not linked
    conquest.convert_at_once(game, "rome", "CYRENAICA")
    assert game.state.control["CYRENAICA"] == "egypt"
    pos.set_marker(game, "GARAMANTIA", "rome")                       # a neighbour
    assert conquest.can_convert_now(game, "rome", "CYRENAICA")
    markers = game.state.pieces["rome"]["marker"], game.state.pieces["egypt"]["marker"]
    conquest.convert_at_once(game, "rome", "CYRENAICA")
    state = game.state
    assert state.control["CYRENAICA"] == "rome" and "CYRENAICA" not in state.marker_occupier
    assert state.count("CYRENAICA", "rome", "legion") == 1
    assert (state.pieces["rome"]["marker"], state.pieces["egypt"]["marker"]) == \
        (markers[0] - 1, markers[1] + 1)


def test_tests_import_the_rules_as_the_installed_package_names_them() -> None:
    """A test imports a game as its installed package names it (``mare_nostrum...``),
    never through the checkout's ``plugins`` folder (an install has no top-level
    ``plugins``) nor 0.1's deprecated ``mnrules.plugins`` (the deprecation test's own)."""
    here = Path(__file__).resolve().parent
    bare = []
    for path in sorted(here.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) and \
                node.level == 0 else [a.name for a in node.names] \
                if isinstance(node, ast.Import) else []
            bare += [f"{path.relative_to(here)}: {n}" for n in names
                     if n.split(".")[0] == "plugins" or (n.startswith("mnrules.plugins")
                                                         and path.name != "test_legacy.py")]
    assert bare == []
