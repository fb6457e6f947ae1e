"""Hostile data files: YAML bombs, edition packs and variants, plugin paths and boards.

Every bad file must give a clean error naming the file, the line (and column) and the key,
never a traceback, a hang or unbounded memory. Bombs run in a child process under a
memory cap and a timeout (``tests/limits.py``).

:func:`hostile_packs` is a plain function so that a bigger count can be run by hand:
``PYTHONPATH=tests:tests/kernel/ruleset python -c "from test_hostile_packs import *;
print(hostile_packs(5000, 1))"`` (the number of cases run, and the failures).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import ROOT
from limits import assert_clean_error, mnrules, peak_memory, python
from mare_nostrum.board import load_board
from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.content import yamlsource
from mnrules.content.packs import MAX_EXTENDS
from mnrules.content.yamlsource import (
    MAX_DEPTH,
    MAX_REPEATED_CHARS,
    MAX_VALUES,
    SourceError,
    load_yaml,
    name_problem,
)
from mnrules.errors import MnrulesError, PackError
from mnrules.frontends.cli import main

BOARD = ROOT / "editions" / "mare_nostrum" / "en" / "board.yaml"
GOODS = list(load_yaml(ROOT / "editions" / "mare_nostrum" / "en" / "pack.yaml")
             .data["components"]["goods"])
POSITION = re.compile(r"\.(ya?ml|py):\d+(:\d+)?: ")


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def refused(variant: Path, *needles: str, line: int | None = None) -> str:
    """load_ruleset refuses the variant with a message naming it (and ``line``)."""
    with pytest.raises(MnrulesError) as err:
        load_ruleset("en", variant=variant)
    message = str(err.value)
    for needle in needles:
        assert needle in message, (needle, message)
    if line is not None:
        assert f"{variant}:{line}:" in message, message
    assert POSITION.search(message), message
    return message


# =====================================================================================
# 1. YAML: alias bombs, merge bombs, deep nesting, non-finite and huge numbers
# =====================================================================================
def bomb(levels: int = 9, width: int = 10, key: str = "") -> str:
    """The "billion laughs": each level an anchored list of ``width`` aliases of the last
    (about 450 bytes expand to 10**9 values)."""
    lines = [f"{key}a0: &a0 [" + ", ".join(["x"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"{key}a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def merge_bomb(levels: int = 9) -> str:
    """The same through merge keys: each mapping merges the last one ten times."""
    lines = ["m0: &m0 {" + ", ".join(f"k{j}: lol" for j in range(10)) + "}"]
    for i in range(1, levels):
        lines.append(f"m{i}: &m{i} {{<<: [" + ", ".join([f"*m{i - 1}"] * 10)
                     + f"], own{i}: [" + ", ".join([f"*m{i - 1}"] * 10) + "]}")
    return "\n".join(lines) + "\n"


def test_the_billion_laughs_is_refused_at_once_with_its_line() -> None:
    text = bomb()
    assert len(text) < 520
    assert len(yaml.safe_load(text)["a8"]) == 10  # PyYAML shares the lists: cheap
    peak, raised = peak_memory(lambda: load_yaml("bomb.yaml", text))
    assert peak < 4 << 20, f"{peak >> 20} MiB held: the aliases were expanded"
    assert isinstance(raised, SourceError), raised
    message = str(raised)
    # the smallest mapping entry that already holds too much: a4 (111,111 values)
    assert message.startswith("bomb.yaml:5:5: a4: holds more than 100000 values"), message


def test_a_merge_key_bomb_is_refused_too() -> None:
    text = merge_bomb()
    peak, raised = peak_memory(lambda: load_yaml("m.yaml", text))
    assert peak < 4 << 20, f"{peak >> 20} MiB held: the merges were expanded"
    assert isinstance(raised, SourceError), raised
    assert re.match(r"m\.yaml:\d+:\d+: m\d[\w.]*: holds more than", str(raised)), raised


@pytest.mark.parametrize("game", ["en", "antike2"])
def test_one_long_string_aliased_for_every_name_is_refused(tmp_path: Path, game: str) -> None:
    """A value cap bounds how many values aliases bring, not how long they are: one
    200 KB string named as every empire (nation) made a one-round ``play`` print
    megabytes (219 MB over a game). The aliases' repeated text is bounded."""
    from mnrules import load_ruleset

    kind = "empires" if game == "en" else "nations"
    ids = list(load_ruleset(game).data["names"][kind])
    lines = [f"extends: {game}", "names:", f"  {kind}:",
             f"    {ids[0]}: &n {'x' * 200_000}", *(f"    {i}: *n" for i in ids[1:])]
    path = write(tmp_path, "long.yaml", "\n".join(lines) + "\n")
    chosen = ["--game", "antike2"] if game == "antike2" else []
    out = mnrules("play", *chosen, "--variant", str(path), "--rounds", "1", timeout=60)
    assert_clean_error(out, f"names.{kind}.{ids[1]}: the aliases of this file repeat more "
                            f"than {MAX_REPEATED_CHARS} characters")
    assert len(out.stdout) + len(out.stderr) < 2000


def test_a_name_too_long_to_show_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "long.yaml", f"extends: en\nnames:\n  empires:\n"
                                        f"    rome: {'x' * 5000}\n")
    out = mnrules("play", "--edition", "en", "--variant", str(path), "--rounds", "1", timeout=60)
    assert_clean_error(out, "long.yaml:4:5: names.empires.rome: a name of 5000 characters")


@pytest.mark.parametrize("argv", [
    ("editions", "show", "en", "--variant", "{bomb}"),
    ("play", "--variant", "{bomb}", "--rounds", "1"),
    ("map", "check", "{bomb}"),
])
def test_a_bomb_through_the_command_line_is_a_clean_error(tmp_path: Path,
                                                          argv: tuple[str, ...]) -> None:
    path = write(tmp_path, "bomb.yaml", bomb())
    out = mnrules(*(a.format(bomb=path) for a in argv), timeout=60)
    assert_clean_error(out, f"{path}:5:5: a4: holds more than {MAX_VALUES} values")


def test_a_bomb_in_a_card_folder_is_a_clean_error(tmp_path: Path) -> None:
    path = write(tmp_path / "cards", "evil.yaml", bomb(key=""))
    out = mnrules("cards", "check", "--edition", "en", str(path.parent), timeout=60)
    assert not out.timed_out and not out.traceback, out.stderr[-2000:]
    assert out.returncode in (1, 2)
    assert f"{path}:5:5: a4: holds more than {MAX_VALUES} values" in out.stderr + out.stdout


def test_a_bomb_through_the_python_api_is_a_clean_error(tmp_path: Path) -> None:
    path = write(tmp_path, "bomb.yaml", "extends: en\nreadings:\n" + bomb(key="  "))
    out = python("from mnrules import load_ruleset\n"
                 "from mnrules.errors import MnrulesError\n"
                 "try:\n"
                 f"    load_ruleset('en', variant={str(path)!r})\n"
                 "except MnrulesError as e:\n"
                 "    print('refused:', e)\n", timeout=60)
    assert not out.timed_out and not out.traceback, out.stderr[-2000:]
    assert out.stdout.startswith(f"refused: {path}:"), out.stdout


def test_aliases_that_repeat_data_still_work_with_positions() -> None:
    src = load_yaml("x.yaml", "base: &b {x: 1, y: [2, 3]}\nc:\n  <<: *b\n  y: 4\n"
                              "d: [*b, *b]\n")
    assert src.data == {"base": {"x": 1, "y": [2, 3]}, "c": {"x": 1, "y": 4},
                        "d": [{"x": 1, "y": [2, 3]}, {"x": 1, "y": [2, 3]}]}
    assert src.data["d"][0] is not src.data["d"][1]  # plain trees, nothing shared
    assert src.position(("c", "y")) == (4, 3)
    assert src.position(("d", 1)) == (1, 7)
    # merge keys resolve as PyYAML resolves them: an earlier mapping wins
    text = "a: &a {k: 1}\nb: &b {k: 2, j: 3}\nc: {<<: [*a, *b]}\n"
    assert load_yaml("x.yaml", text).data == yaml.safe_load(text)


@pytest.mark.parametrize(("text", "message"), [
    ("a: " + "[" * 60 + "]" * 60, f"nests more than {MAX_DEPTH} deep"),
    ("- " * 60 + "x", f"nests more than {MAX_DEPTH} deep"),
    ("a: " + "[" * 5000 + "]" * 5000,
     f"a[0][0][0][0][0][0][0][0][0]...][0][0][0][0][0][0][0][0][0]: nests more than {MAX_DEPTH}"),
    ("a:\n  b: [1, {c: " + "[" * 3000 + "]" * 3000 + "}]",
     "x.yaml:2:58: a.b[1].c[0][0][0][0][0][0][0..."),
    ("a: &x [1, *x]", "recursive alias"),
    ("a: &x {<<: *x}", "recursive alias"),
    ("<<: 3", "a merge key (<<) takes a mapping"),
    ("a: .nan", "a number must be finite"),
    ("a: -.inf", "a number must be finite"),
    ("a: 1.0e+400", "a number must be finite"),
    ("a: " + "9" * 5000, "Exceeds the limit (4300 digits)"),
    ("a: !!set {x}", "unsupported YAML tag"),
])
def test_hostile_yaml_is_refused_with_a_position(text: str, message: str) -> None:
    with pytest.raises(SourceError) as err:
        load_yaml("x.yaml", text)
    assert message in str(err.value)
    assert re.match(r"x\.yaml:\d+:\d+: ", str(err.value)), str(err.value)


def test_fifty_thousand_brackets_are_refused_not_a_crash() -> None:
    # libyaml composes recursively in C: 100 KB of brackets overflowed the C stack and
    # killed the process (a segfault, no message). Run apart, so a crash reads as one.
    probe = ("import sys\n"
             "from mnrules.content.yamlsource import SourceError, load_yaml\n"
             "for text in ('a: ' + '[' * 50_000 + ']' * 50_000, 'a: ' + '[' * 50_000,\n"
             "             '- ' * 50_000 + 'x', 'a: [' + '[1, ' * 50_000):\n"
             "    try:\n"
             "        load_yaml('x.yaml', text)\n"
             "    except SourceError as exc:\n"
             "        print(str(exc).splitlines()[0])\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])
    lines = done.stdout.splitlines()
    assert len(lines) == 4 and all(f"nests more than {MAX_DEPTH} deep" in line
                                   for line in lines), lines


class _BoundedLoader(yaml.SafeLoader):
    """A parser that bounds nesting itself, as newer libyaml builds do (at 1,000 levels,
    reading brackets ahead of the events): here at 40, below MAX_DEPTH, so that only the
    fallback can name the key."""

    def fetch_flow_collection_start(self, token_class: Any) -> None:
        if self.flow_level >= 40:
            raise yaml.scanner.ScannerError(
                "while increasing flow level", self.get_mark(),
                "exceeded maximum nesting depth", self.get_mark())
        super().fetch_flow_collection_start(token_class)  # type: ignore[misc]


@pytest.mark.parametrize("text", [
    "a:\n  b: [1, {c: " + "[" * 3000 + "]" * 3000 + "}]",    # walked before composing
    "a:\n  b: [1, {c: " + "[" * 100 + "]" * 100 + "}]",      # too few marks to walk
])
def test_a_parser_that_bounds_nesting_still_names_the_key(
        text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # CI's PyYAML stopped at its own bound, so the message named no key (stop 49).
    monkeypatch.setattr(yamlsource, "_FastLoader", _BoundedLoader)
    with pytest.raises(SourceError) as err:
        load_yaml("x.yaml", text)
    assert str(err.value).startswith(
        "x.yaml:2:58: a.b[1].c[0][0][0][0][0][0][0")
    assert f"nests more than {MAX_DEPTH} deep" in str(err.value)


def test_a_huge_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: [" + b"1, " * 600_000 + b"]\n")
    with pytest.raises(SourceError, match="too large"):
        load_yaml(path)


# =====================================================================================
# 2. Packs and variants: every parameter and component within its declared range
# =====================================================================================
ALL_COSTS = ("{marker: 3, city: 3, capital: 3, legendary: 3, caravan: 3, legion: 3, "
             "trireme: 3, fortress: 3, temple: 6, market: 6")
BAD_VARIANTS: list[tuple[str, str, int, list[str]]] = [
    ("hit divisor 0", "params: {hit_divisor: 0}", 2,
     ["params.hit_divisor", "from 1 to 99", "got 0", "dice total per hit"]),
    ("no die faces", "params: {land_die: []}", 2,
     ["params.land_die", "1 to 20 items", "faces of a land battle die"]),
    ("a negative die face", "params:\n  sea_die: [1, 2, -3]\n", 3,
     ["params.sea_die[2]", "from 0 to 99", "got -3"]),
    ("no trade tokens", "components: {trade_tokens: []}", 2,
     ["components.trade_tokens", "1 to 9 tokens"]),
    ("a bad trade token", "components:\n  trade_tokens: ['5/0', five]\n", 3,
     ["components.trade_tokens[1]", "'five'"]),
    ("no costs", "params: {costs: {}}", 2, ["params.costs", "missing 'marker'"]),
    ("a negative cost", f"params:\n  costs: {ALL_COSTS}, pyramids: -5}}\n", 3,
     ["params.costs.pyramids", "from 0 to 99", "got -5"]),
    ("a misspelt cost", f"params:\n  costs: {ALL_COSTS}, legon: 4}}\n".replace(
        "legion: 3, ", ""), 3, ["params.costs", "missing 'legion'"]),
    ("starting hero removed", "cards:\n  remove: [pyramids, caesar]\n", 3,
     ["cards.remove", "'caesar' is the starting hero of rome"]),
    ("negative coins", "components: {coins: -5}", 2,
     ["components.coins", "from 0 to 999", "got -5"]),
    ("negative pieces", "components:\n  pieces: {legion: -1, trireme: 5, fortress: 5, "
     "marker: 7}\n", 3, ["components.pieces.legion", "got -1"]),
    ("pieces that are no mapping", "components:\n  pieces: [8]\n", 3,
     ["components.pieces", "expected a mapping of legion, trireme, fortress, marker"]),
    ("a misspelt building", "components:\n  buildings: {caravn: 3}\n", 3,
     ["components.buildings.caravn", "did you mean 'caravan'?"]),
    ("negative storage", "params: {storage_coins: -5}", 2,
     ["params.storage_coins", "from 0 to 99", "coins kept at the end of a build turn"]),
    ("an unknown resource", "params:\n  legendary_temple_bonus: [coin, gems, gold, glod]\n", 3,
     ["params.legendary_temple_bonus[3]", "'glod' is no resource", "did you mean 'gold'?"]),
    ("a wrong city kind", "params: {conquest_kinds: [capital, castle]}", 2,
     ["params.conquest_kinds[1]", "expected one of ['city', 'capital', 'legendary']"]),
    ("a track that does not exist", "params:\n  track_units: {military: [legion], "
     "naval: [trireme]}\n", 3, ["params.track_units.naval", "unknown key"]),
    ("a number for a switch", "params: {first_round_collects: 1}", 2,
     ["params.first_round_collects", "expected true or false"]),
    ("a huge number", "params: {max_tiles: 99999999999999999999}", 2,
     ["params.max_tiles", "from 2 to 20"]),
    ("a good named like a coin", "components:\n  goods: {coin: 3}\n", 3,
     ["components.goods.coin", "already names"]),
    ("a lookalike good", "components:\n  goods: {ceramics: 3, сeramics: 3}\n", 3,
     ["components.goods", "mixes scripts"]),
    ("a good with a zero-width space", "components:\n  goods: {\"ge\\u200bms\": 3}\n", 3,
     ["components.goods", "invisible"]),
    ("goods that are no mapping", "components:\n  goods: []\n", 3,
     ["components.goods", "1 to 40 goods"]),
    ("a name that is no text", "names:\n  trade: [1]\n", 3, ["names.trade"]),
    ("a battle on no province", "battles:\n  - {name: x, attacker: rome, defender: egypt, "
     "province: ATLANTIS}\n", 3, ["battles[0].province", "no province 'ATLANTIS'"]),
    ("a battle of a million legions", "battles:\n  - {name: x, attacker: rome, defender: "
     "egypt, province: CYRENAICA, attacker_legions: [1000000]}\n", 3,
     ["battles[0].attacker_legions", "1 to 8"]),
    ("a battle that is no mapping", "battles: [3]\n", 2, ["battles[0]"]),
]


@pytest.mark.parametrize(("name", "text", "line", "needles"), BAD_VARIANTS,
                         ids=[b[0] for b in BAD_VARIANTS])
def test_a_bad_variant_is_refused_with_file_line_key_and_range(
        tmp_path: Path, name: str, text: str, line: int, needles: list[str]) -> None:
    refused(write(tmp_path, "v.yaml", "extends: en\n" + text), *needles, line=line)


CARD_OVERRIDES = [
    ("bonuses: [1]", "cards.override.caesar.bonuses"),
    ("kind: dragon", "cards.override.caesar.kind"),
    ("cost: -5", "cards.override.caesar.cost"),
]


@pytest.mark.parametrize(("change", "key"), CARD_OVERRIDES)
def test_a_bad_card_override_is_refused(tmp_path: Path, change: str, key: str) -> None:
    """Checked by the card reader (card_files); here through a variant."""
    refused(write(tmp_path, "v.yaml", f"extends: en\ncards:\n  override:\n    caesar: "
                                      f"{{{change}}}\n"), key, line=4)


def test_good_variants_still_load_and_play(tmp_path: Path) -> None:
    variant = write(tmp_path, "v.yaml", "extends: fr\nparams:\n  hit_divisor: 4\n"
                    "  land_die: [1, 2, 3, 4, 5, 6]\n  costs: " + ALL_COSTS + ", pyramids: 0}\n"
                    "  income: {city: [coin], capital: [coin], legendary: [coin|wine, gold]}\n"
                    "components:\n  coins: 0\n  pieces: {legion: 9}\n"
                    .replace("coins: 0", "coins: 60").replace("{legion: 9}",
                                                             "{legion: 9, trireme: 5, "
                                                             "fortress: 5, marker: 7}"))
    rules = load_ruleset("en", variant=variant)
    assert rules.params["costs"]["pyramids"] == 0 and rules.components["coins"] == 60
    _play(rules, 300)


def test_a_long_extends_chain_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    for i in range(1000):
        write(tmp_path, f"v{i}.yaml", f"extends: v{i + 1}.yaml\n" if i < 999 else
              "extends: en\n")
    message = refused(tmp_path / "v0.yaml", f"a chain of more than {MAX_EXTENDS} packs")
    assert f"v{MAX_EXTENDS - 1}.yaml:1:1: extends" in message, message
    # a chain within the bound loads
    write(tmp_path, f"v{1000 - MAX_EXTENDS + 2}.yaml", "extends: en\nparams: {hit_divisor: 3}\n")
    rules = load_ruleset("en", variant=tmp_path / f"v{1000 - MAX_EXTENDS + 1}.yaml")
    assert rules.params["hit_divisor"] == 3


def test_every_declared_parameter_has_a_range_or_a_shape() -> None:
    rules = load_ruleset("en")
    for name, p in rules.declared.items():
        if isinstance(p.default, bool) or (p.choices and isinstance(p.default, str)):
            continue
        if isinstance(p.default, int):
            assert p.minimum is not None and p.maximum is not None, name
        elif isinstance(p.default, list | dict):
            assert p.length is not None or (isinstance(p.default, dict) and all(
                not isinstance(v, list) for v in p.default.values())), name
            if _numbers(p.default):
                assert p.minimum is not None and p.maximum is not None, name
            else:
                assert p.choices or p.resources, name


def _numbers(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_numbers(v) for v in value.values())
    if isinstance(value, list):
        return any(_numbers(v) for v in value)
    return isinstance(value, int) and not isinstance(value, bool)


# =====================================================================================
# 3. Plugin paths: only the bundled plugins and .py files in the pack's folder
# =====================================================================================
@pytest.mark.parametrize(("entry", "needles"), [
    ("../../etc/passwd", ["no rule plugin named '../../etc/passwd'"]),
    ("../outside.py", ["must be in the pack's folder", "'..'"]),
    ("/etc/hosts.py", ["must be in the pack's folder"]),
    ("nosuchpkg.mod", ["no rule plugin named 'nosuchpkg.mod'"]),
    ("this.x", ["no rule plugin named 'this.x'"]),
    ("os", ["no rule plugin named 'os'"]),
    ("battel", ["no rule plugin named 'battel'", "did you mean 'battle'?"]),
    ("folder.py", ["no plugin file 'folder.py'"]),
    ("battle", ["'battle' is listed twice"]),
    ("''", ["expected the name of a rule plugin"]),
    ("[1]", ["expected the name of a rule plugin"]),
])
def test_a_plugin_entry_names_no_arbitrary_module(tmp_path: Path, entry: str,
                                                  needles: list[str]) -> None:
    (tmp_path / "mine" / "folder.py").mkdir(parents=True)
    write(tmp_path, "outside.py", "raise SystemExit('imported!')\n")
    variant = write(tmp_path / "mine", "v.yaml", f"extends: en\nplugins:\n  add: [{entry}]\n")
    refused(variant, *needles, line=2)


def test_this_is_never_imported(tmp_path: Path) -> None:
    variant = write(tmp_path, "v.yaml", "extends: en\nplugins:\n  add: [this.x]\n")
    out = python("import sys\nfrom mnrules import load_ruleset\n"
                 "try:\n"
                 f"    load_ruleset('en', variant={str(variant)!r})\n"
                 "except Exception as e:\n"
                 "    print(type(e).__name__)\n"
                 "print('this' in sys.modules)\n", timeout=60)
    assert out.stdout.split() == ["PackError", "False"], out.stdout + out.stderr


def test_a_plugin_file_with_a_syntax_error_names_its_line(tmp_path: Path) -> None:
    """Its line and column (the bracket that cannot open a parameter: column 10)."""
    plugin = write(tmp_path, "broken.py", '"""A broken plugin."""\n\ndef oops(:\n    pass\n')
    variant = write(tmp_path, "v.yaml", "extends: en\nplugins:\n  add: [broken.py]\n")
    message = refused(variant, f"{plugin}:3:10: plugin file", f"{variant}:2:")
    assert "SyntaxError" not in message or "invalid syntax" in message


def test_a_plugin_file_that_fails_as_it_loads_names_its_line(tmp_path: Path) -> None:
    write(tmp_path, "fails.py", "import json\n\nVALUE = json.loads('{')\n")
    variant = write(tmp_path, "v.yaml", "extends: en\nplugins:\n  add: [fails.py]\n")
    refused(variant, "fails.py:3: plugin file: JSONDecodeError")


def test_a_copy_of_a_bundled_plugin_edited_loads(tmp_path: Path) -> None:
    """battle.py declares a @dataclass: its module must be in sys.modules as it runs."""
    text = (ROOT / "plugins" / "mare_nostrum" / "battle.py").read_text(encoding="utf-8")
    write(tmp_path, "my_battle.py", text.replace('"dice total per hit"',
                                                 '"dice total per hit (mine)"'))
    variant = write(tmp_path, "v.yaml", "extends: en\nplugins:\n  replace:\n"
                                        "    battle: my_battle.py\n")
    rules = load_ruleset("en", variant=variant)
    assert rules.declared["hit_divisor"].doc == "dice total per hit (mine)"
    again = load_ruleset("en", variant=variant)  # twice: one module per path, no clash
    assert again.declared["hit_divisor"].doc == "dice total per hit (mine)"
    _play(rules, 200)


def test_a_plugin_with_a_broken_declaration_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "p.py", "from mnrules.core.engine import Param\n"
                            "from mnrules.hooks.hookspecs import hookimpl\n\n"
                            "@hookimpl\ndef mn_params():\n"
                            "    return [Param('lucky', -1, 'a lucky number', minimum=0, "
                            "maximum=9)]\n")
    variant = write(tmp_path, "v.yaml", "extends: en\nplugins:\n  add: [p.py]\n")
    with pytest.raises(PackError, match="its default -1 does not fit its own declaration"):
        load_ruleset("en", variant=variant)


# =====================================================================================
# 4. Boards: what `map check` checks, and every board a variant plays on gets it
# =====================================================================================
def board_text(old: str, new: str, count: int = 1) -> str:
    text = BOARD.read_text(encoding="utf-8")
    assert text.count(old) >= count, old
    return text.replace(old, new, count)


BAD_BOARDS: list[tuple[str, str, str, list[str]]] = [
    ("no players", "players:\n  3: [rome, greece, carthage]\n  4: [rome, greece, egypt, "
     "carthage]\n  5: [rome, greece, babylon, egypt, carthage]\n", "players: {}\n",
     ["players", "no player count"]),
    ("a count that is not the list", "  3: [rome, greece, carthage]",
     "  3: [rome, greece]", ["players.3", "3 players, but 2 empires listed"]),
    ("NaN coordinates", "at: [80, 95]", "at: [.nan, 95]", ["a number must be finite"]),
    ("infinite coordinates", "at: [80, 95]", "at: [1.0e+999, 95]",
     ["a number must be finite"]),
    ("a Cyrillic letter", "  GALLIA:\n", "  GALLIА:\n", ["provinces.GALLIА", "mixes scripts",
                                                         "U+0410"]),
    ("a zero-width space", "  GALLIA:\n", "  \"GAL\\u200bLIA\":\n",
     ["invisible", "ZERO WIDTH SPACE"]),
    ("a decomposed name", "capital:ROMA", "capital:RÓMA".replace("Ó", "O\u0301"),
     ["not in composed form (NFC)"]),
    ("an empty name", "  GALLIA:\n", "  \"\":\n", ["a name cannot be empty"]),
    ("names that differ in case", "  GERMANIA:\n", "  Gallia:\n",
     ["'Gallia' looks like 'GALLIA'"]),
    ("a starting hero with a space", "starting_hero: caesar", "starting_hero: 'caesar '",
     ["starts or ends with a space"]),
]


@pytest.mark.parametrize(("name", "old", "new", "needles"), BAD_BOARDS,
                         ids=[b[0] for b in BAD_BOARDS])
def test_map_check_refuses_a_bad_board_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, old: str, new: str,
        needles: list[str]) -> None:
    path = write(tmp_path, "board.yaml", board_text(old, new))
    assert main(["map", "check", str(path)]) in (1, 2)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: ", err), err
    for needle in needles:
        assert needle in err, (needle, err)
    # the same board under a variant is refused by load_ruleset, in the same words
    write(tmp_path, "pack.yaml", "extends: en\nboard: board.yaml\n")
    with pytest.raises(MnrulesError) as exc:
        load_ruleset("en", variant=tmp_path / "pack.yaml")
    for needle in needles:
        assert needle in str(exc.value), (needle, str(exc.value))


@pytest.mark.parametrize(("old", "new", "needles"), [
    ("starting_hero: caesar", "starting_hero: ceasar",
     ["empires.rome.starting_hero: no card 'ceasar'", "did you mean 'caesar'?"]),
    ("legions: {LATIUM: 1, GALLIA: 1}", "legions: {LATIUM: 5, GALLIA: 5}",
     ["empires.rome.legions: rome starts with 10 legion(s) but the box gives each "
      "empire 8"]),
])
def test_a_board_that_does_not_fit_the_cards_or_the_box(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str,
        needles: list[str]) -> None:
    """These pass the board's own checks and failed later, in the game."""
    path = write(tmp_path, "board.yaml", board_text(old, new))
    code = main(["map", "check", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("mnrules: error: "), err
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: ", err), err
    for needle in needles:
        assert needle in err, (needle, err)
    write(tmp_path, "pack.yaml", "extends: en\nboard: board.yaml\n")
    with pytest.raises(MnrulesError) as exc:
        load_ruleset("en", variant=tmp_path / "pack.yaml")
    assert "the board does not fit this rule set" in str(exc.value)
    for needle in needles:
        assert needle in str(exc.value), (needle, str(exc.value))


def test_a_variant_board_gets_the_setup_checks_of_map_check(tmp_path: Path) -> None:
    """The starting pieces must produce the starting resources (plugins/setup.py)."""
    write(tmp_path, "board.yaml", board_text("GALLIA: [caravan:grain, caravan:sheep]",
                                             "GALLIA: [caravan:grain]"))
    variant = write(tmp_path, "pack.yaml", "extends: en\nboard: board.yaml\n")
    message = refused(variant, "empires.rome: the starting pieces produce 8 resources, not 9")
    assert f"{tmp_path / 'board.yaml'}:" in message
    assert "`patch:` of the board" in message   # the way to depart on purpose


def test_the_bundled_board_and_names_pass() -> None:
    assert load_board(BOARD, GOODS).players
    for name in ("GALLIA", "MARE TYRRHENUM", "Рим", "Ἀθῆναι", "東京とうきょう", "caravan:grain"):
        assert name_problem(name) is None, name
    rules = load_ruleset("en")
    assert rules.board.source is not None


# =====================================================================================
# 5. A generator of hostile packs, variants and boards
# =====================================================================================
HOSTILE_VALUES = [
    "~", "true", "0", "-1", "-5", "1.5", "99999999999999999999", "9" * 5000, ".nan", ".inf",
    "''", "x", "'\\u200b'", "\"\\u200bx\"", "А", "Cafe\u0301", "\"\\0\"", "'🙂🙂🙂'", "[]", "{}",
    "[[[[[[[[]]]]]]]]", "[1, two, ~]", "{a: 1}", "{1: 2}", "[" + ", ".join(["7"] * 500) + "]",
    "!!binary aGk=", "2001-01-01", "'../../etc/passwd'", "/etc/passwd", "'%s%n'",
    "&a [x, *a]", "{<<: 3}", "\"" + "x" * 3000 + "\"", "'a|b'", "'coin|'", "-0", "0x10",
    "[-1]", "[0]", "[100]", "{city: -1}", "{city: [banana]}", "'5/0'", "[\"5/\"]",
]
TOP_KEYS = ["format", "id", "name", "language", "engine", "extends", "board", "plugins",
            "phases", "components", "params", "cards", "names", "readings", "notes",
            "battles", "bogus", "paramz"]
ENGINE_SPECS = ["''", "'>='", "'>=a.b'", "'>=0.1,<'", "'~=1'", "'>=" + "9" * 5000 + "'",
                "'<0'", "'>=0.1, <=99'"]
EXTENDS = ["en", "fr", "frr", "''", "self.yaml", "a.yaml", "/", ".", "'../../etc/passwd'",
           "/etc/hostname", "chain0.yaml", "'x\\0.yaml'", "[en]"]
PLUGIN_NAMES = ["battle", "battel", "os", "os.path", "this", "this.x", "sys", "''",
                "../../etc/passwd", "x.py", "ok.py", "syntax.py", "raises.py", "dir.py",
                "/etc/passwd.py", "'p\\0.py'", "mnrules.plugins.battle", "words", "1", "[]"]
CARD_IDS = ["caesar", "pericles", "pyramids", "circe", "nebuchadnezzar", "ceasar", "''", "1"]
CARD_CHANGES = ["bonuses: [1]", "bonuses: {military: 99}", "bonuses: {militray: 1}",
                "kind: dragon", "kind: wonder", "cost: -5", "cost: 0", "cost: 99999",
                "effects: 'modify battle.total: add 1'", "effects: 'modify battle.totl: add 1'",
                "effects: 3", "names: hello", "copyable: maybe", "phase: dawn", "id: other",
                "text: " + "x" * 200]
BOARD_NAMES = ["GALLIA", "LATIUM", "MARE TYRRHENUM", "rome", "caesar", "ROMA", "ACHAEA"]
BOARD_SWAPS = ["GALLIА", "GAL\u200bLIA", "Gallia", "", " GALLIA", "GALLIA\u00a0", "G\u0301ALLIA",
               "ceasar", "ROMA2", "ＧＡＬＬＩＡ", "\u202eGALLIA"]


def _params() -> dict[str, Any]:
    rules = load_ruleset("en")
    return {name: p.default for name, p in rules.declared.items()}


PARAMS = _params()


def _flow(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _mutate(rng: random.Random, value: Any) -> str:
    """A hostile version of a parameter's or component's value, as YAML flow text."""
    how = rng.randrange(6)
    if how == 0 or not isinstance(value, list | dict) or not value:
        return rng.choice(HOSTILE_VALUES)
    if isinstance(value, list):
        items = [_flow(v) for v in value]
        if how == 1:
            items[rng.randrange(len(items))] = rng.choice(HOSTILE_VALUES)
        elif how == 2:
            items = items[: rng.randrange(len(items))]
        elif how == 3:
            items = items * rng.choice([2, 30])
        else:
            items.append(rng.choice(HOSTILE_VALUES))
        return "[" + ", ".join(items) + "]"
    entries = {str(k): _flow(v) for k, v in value.items()}
    key = rng.choice(list(entries))
    if how == 1:
        inner = value[key]
        entries[key] = _mutate(rng, inner) if rng.random() < 0.5 else \
            rng.choice(HOSTILE_VALUES)
    elif how == 2:
        del entries[key]
    elif how == 3:
        entries[rng.choice(["bogus", key + "s", "А" + key, "1"])] = rng.choice(HOSTILE_VALUES)
    else:
        entries = {k: entries[k] for k in rng.sample(list(entries), len(entries))}
    return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {v}"
                           for k, v in entries.items()) + "}"


COMPONENTS = {"coins": 44, "goods": dict.fromkeys(GOODS, 5), "legendary_goods": "one_of_each",
              "buildings": {"caravan": 37, "market": 25, "city": 8, "capital": 5,
                            "legendary": 3, "temple": 14},
              "pieces": {"legion": 8, "trireme": 5, "fortress": 5, "marker": 7},
              "trade_tokens": ["5/0", "2/1", "4/3"]}


def _board(rng: random.Random) -> str:
    """The bundled board with one hostile change."""
    text = BOARD.read_text(encoding="utf-8")
    how = rng.randrange(4)
    if how == 0:  # a name swapped for a lookalike or a typo, everywhere or once
        old = rng.choice(BOARD_NAMES)
        new = json.dumps(rng.choice(BOARD_SWAPS), ensure_ascii=False)[1:-1]
        return text.replace(old, new, rng.choice([1, 99]))
    lines = text.splitlines()
    candidates = [i for i, line in enumerate(lines) if ": " in line and not
                  line.lstrip().startswith("#")]
    i = rng.choice(candidates)
    key, _, _ = lines[i].partition(": ")
    if how == 1:  # a value replaced
        lines[i] = f"{key}: {rng.choice(HOSTILE_VALUES)}"
    elif how == 2:  # a line dropped
        del lines[i]
    else:  # a number changed
        lines[i] = re.sub(r"\b\d+\b", lambda _: str(rng.choice([0, -1, 99, 10**6])), lines[i])
    return "\n".join(lines) + "\n"


def _files(rng: random.Random) -> tuple[dict[str, str], str]:
    """A hostile case: the files to write and what was done."""
    files = {"ok.py": '"""An empty plugin."""\n',
             "syntax.py": "def f(:\n",
             "raises.py": "raise RuntimeError('no')\n",
             "a.yaml": "extends: self.yaml\n",
             "chain0.yaml": "extends: chain1.yaml\n"}
    for i in range(1, 40):
        files[f"chain{i}.yaml"] = f"extends: chain{i + 1}.yaml\n" if i < 39 else "extends: en\n"
    lines = ["extends: en"]
    family = rng.randrange(9)
    if family == 0:  # a parameter
        name = rng.choice(list(PARAMS))
        lines.append(f"params:\n  {name}: {_mutate(rng, PARAMS[name])}")
        what = f"params.{name}"
    elif family == 1:  # a component
        key = rng.choice(list(COMPONENTS))
        lines.append(f"components:\n  {key}: {_mutate(rng, COMPONENTS[key])}")
        what = f"components.{key}"
    elif family == 2:  # a top-level key with a wrong value
        key = rng.choice(TOP_KEYS)
        value = rng.choice(ENGINE_SPECS if key == "engine" else EXTENDS if key == "extends"
                           else HOSTILE_VALUES)
        lines = [f"{key}: {value}"] if key == "extends" else [*lines, f"{key}: {value}"]
        what = key
    elif family == 3:  # plugins
        names = [rng.choice(PLUGIN_NAMES) for _ in range(rng.randint(1, 3))]
        section = rng.choice(["add", "remove", "replace", "list"])
        if section == "list":
            lines.append(f"plugins: [{', '.join(names)}]")
        elif section == "replace":
            lines.append(f"plugins:\n  replace: {{{rng.choice(PLUGIN_NAMES)}: {names[0]}}}")
        else:
            lines.append(f"plugins:\n  {section}: [{', '.join(names)}]")
        what = f"plugins.{section}: {names}"
    elif family == 4:  # cards
        section = rng.choice(["remove", "override", "add"])
        card = rng.choice(CARD_IDS)
        if section == "override":
            lines.append(f"cards:\n  override:\n    {card}: {{{rng.choice(CARD_CHANGES)}}}")
        elif section == "remove":
            lines.append(f"cards:\n  remove: [{card}, {rng.choice(CARD_IDS)}]")
        else:
            lines.append(f"cards:\n  add: [{rng.choice([*EXTENDS, '.', 'dir.py'])}]")
        what = f"cards.{section} {card}"
    elif family == 5:  # the board
        files["board.yaml"] = _board(rng)
        lines.append("board: board.yaml")
        what = "board"
    elif family == 6:  # bombs and other YAML
        kind = rng.randrange(5)
        if kind == 0:
            lines.append("notes:\n" + "\n".join("  - " + line for line in
                                                bomb(rng.randint(5, 9)).splitlines()))
        elif kind == 1:
            lines.append(merge_bomb(rng.randint(5, 8)))
        elif kind == 2:
            depth = rng.choice([40, 50, 200, 2000])
            lines.append("notes: " + "[" * depth + "]" * depth)
        elif kind == 3:
            lines.append("params:\n  hit_divisor: 4\n  hit_divisor: 5")
        else:
            lines.append(rng.choice(["\tparams: {}", "params: {a: b", "- x", "...\n---\nx: 1",
                                     "params: !!python/object/apply:os.system [ls]"]))
        what = f"yaml {kind}"
    elif family == 7:  # odd unicode in keys and values
        key = rng.choice(["params", "names", "readings", "components"])
        odd = json.dumps(rng.choice(BOARD_SWAPS), ensure_ascii=False)
        lines.append(f"{key}:\n  {odd}: {rng.choice([odd, '1', '[]'])}")
        what = f"unicode {key}"
    else:  # battles
        battle = {"name": "x", "attacker": "rome", "defender": "egypt",
                  "province": "CYRENAICA", "attacker_legions": [1, 2],
                  "defender_legions": [1], "fortress": [0, 1], "tiles": {"rome": ["caesar"]}}
        "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in battle.items()) + "}"
        key = rng.choice([*battle, "bogus"])
        entries = {k: _flow(v) for k, v in battle.items()}
        entries[key] = _mutate(rng, battle.get(key, 0))
        lines.append("battles:\n  - {" + ", ".join(f"{k}: {v}" for k, v in entries.items())
                     + "}")
        what = f"battles.{key}"
    files["v.yaml"] = "\n".join(lines) + "\n"
    if "chain0" not in files["v.yaml"]:
        files = {k: v for k, v in files.items() if not k.startswith("chain")}
    return files, what


def _play(rules: Any, choices: int) -> None:
    players = max(rules.board.players)
    game = new_game(rules, players, seed=1, round_cap=30)
    bot = RandomBot(1)
    for _ in range(choices):
        if game.pending is None:
            break
        game.apply(bot.choose(game))


def hostile_packs(n: int, seed: int, budget: float | None = None) -> tuple[int, list[str]]:
    """Run ``n`` hostile variants (the same ones for the same seed): each must load, and
    then play, or be refused with a MnrulesError naming a file and a line. Returns how
    many cases ran (fewer than ``n`` if ``budget`` seconds ran out) and the failures
    (empty when all is well)."""
    rng = random.Random(seed)
    failures: list[str] = []
    start = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="hostile_packs_"))
    ran = 0
    try:
        for i in range(n):
            if budget is not None and time.perf_counter() - start > budget:
                break
            ran += 1
            case = folder / str(i)
            (case / "dir.py").mkdir(parents=True)
            files, what = _files(rng)
            for name, text in files.items():
                write(case, name, text)
            write(case, "self.yaml", "extends: self.yaml\n")
            variant = case / "v.yaml"
            try:
                rules = load_ruleset("en", variant=variant)
            except MnrulesError as exc:
                if not POSITION.search(str(exc)):
                    failures.append(f"case {i} ({what}): no position: {exc}")
                continue
            except Exception as exc:  # what this generator is looking for
                failures.append(f"case {i} ({what}): {type(exc).__name__}: {exc}\n"
                                f"{files['v.yaml'][:500]}")
                continue
            try:
                _play(rules, 60)
            except Exception as exc:
                failures.append(f"case {i} ({what}): loaded, then in play "
                                f"{type(exc).__name__}: {exc}\n{files['v.yaml'][:500]}")
            shutil.rmtree(case, ignore_errors=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return ran, failures


def test_hostile_packs_give_success_or_a_located_error() -> None:
    ran, failures = hostile_packs(120, seed=1)
    assert not failures, "\n\n".join(failures[:5])
    assert ran == 120


# PYTHONPATH=tests python tests/kernel/ruleset/test_hostile_packs.py N SEED
if __name__ == "__main__":
    ran, found = hostile_packs(int(sys.argv[1]), int(sys.argv[2]))
    print(f"{ran} cases", "\n\n".join(found) or "no failures")
