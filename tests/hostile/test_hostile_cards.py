"""Hostile card files and scripts: every bad input gets a MnrulesError naming its file,
line and column (a caret under scripts), never a traceback, a hang or a memory blow-up;
and the script parser is never unpickled from a folder other users may write to.

``hostile_cards(n, seed)`` makes ``n`` mutated card files (huge numbers, wrong types at
every key, unicode oddities, deep nesting, long lines, broken scripts); the suite runs a
few hundred of them, and a bigger count can be run by hand::

    python -c "import sys; sys.path[:0] = ['tests', 'tests/hostile']; \\
               import test_hostile_cards as t; t.run_hostile(20000, seed=7)"
"""

from __future__ import annotations

import os
import pickle
import random
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ROOT
from limits import Outcome, assert_clean_error, mnrules, python, watchdog
from mnrules import load_ruleset, new_game
from mnrules.content.card_files import read_card
from mnrules.content.games import cards_dir
from mnrules.content.resources import data_dir
from mnrules.content.ruleset import Ruleset, vocabulary
from mnrules.errors import MnrulesError, PackError
from mnrules.language.compiler import compile_card
from mnrules.language.syntax import ScriptError, parse_script
from mnrules.language.words import Vocabulary

HEAD = "id: testhero\nkind: hero\nnames: {en: Test}\n"


def _card(folder: Path, body: str, name: str = "c") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    f = folder / f"{name}.yaml"
    f.write_text(body, encoding="utf-8")
    return f


def _script_card(folder: Path, *rules: str) -> Path:
    """A card whose script (from line 5, column 3) holds ``rules``."""
    return _card(folder, HEAD + "effects: |\n" + "".join(f"  {r}\n" for r in rules))


def _compile(file: Path, vocab: Vocabulary) -> None:
    """What `mnrules cards check` does with one file."""
    card = read_card(file)
    if card.effects:
        parsed = parse_script(card.effects, str(file), *card.effects_at)
        compile_card(card, vocab, parsed, file.read_text(encoding="utf-8").splitlines())


def _refused_check(out: Outcome, *needles: str) -> None:
    """`mnrules cards check` reported the file bad: exit 1, no traceback, no hang."""
    assert not out.timed_out, f"hung: {out.stderr[-2000:]}"
    assert not out.traceback, out.stderr[-4000:]
    assert out.returncode == 1, (out.returncode, out.stdout[-2000:], out.stderr[-2000:])
    for needle in needles:
        assert needle in out.stderr, (needle, out.stderr[-2000:])


# -- item 1: the parser cache --------------------------------------------------------------
PLANT = """
import pickle, sys
class Boom:
    def __reduce__(self):
        return (open, (sys.argv[1], "w"))
sys.stdout.buffer.write(pickle.dumps(Boom()))
"""
BUILD = ("from mnrules.language.syntax import parser\n"
         "parser().parse('modify battle.total: add 1')\nprint('parsed')\n")


def _evil_pickle(marker: Path) -> bytes:
    """A pickle that, unpickled, creates ``marker`` (made outside this process, so the
    test's own modules are not involved)."""
    import subprocess
    return subprocess.run([sys.executable, "-c", PLANT, str(marker)], capture_output=True,
                          check=True).stdout


def _lark_cache_file(shared: Path) -> Path:
    """Where lark's ``cache=True`` keeps (and unpickles) a parser built with the options
    this project used: the shared temp folder, a name anyone can compute."""
    import getpass
    import hashlib

    import lark
    grammar = (data_dir("grammar") / "effects.lark").read_text(encoding="utf-8")
    options = {"parser": "lalr", "strict": True, "propagate_positions": True,
               "maybe_placeholders": False, "cache": True}
    s = grammar + "".join(k + str(v) for k, v in options.items()) + lark.__version__ \
        + str(sys.version_info[:2])
    digest = hashlib.sha256(s.encode("utf8")).hexdigest()
    major, minor = sys.version_info[:2]
    return shared / f".lark_cache_{getpass.getuser()}_{digest}_{major}_{minor}.tmp"


def _build_in_child(tmp_path: Path, cache_home: Path) -> Outcome:
    shared = tmp_path / "shared-tmp"
    shared.mkdir(exist_ok=True)
    return python(BUILD, timeout=120, env={"TMPDIR": str(shared),
                                           "XDG_CACHE_HOME": str(cache_home),
                                           "MNRULES_NO_CACHE": ""})


def test_a_parser_planted_in_the_shared_temp_folder_is_never_unpickled(tmp_path: Path
                                                                      ) -> None:
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    marker = tmp_path / "owned"
    evil = _evil_pickle(marker)
    # lark reads a first line, then unpickles: the payload runs if the file is opened
    _lark_cache_file(shared).write_bytes(b"planted\n" + evil)
    out = _build_in_child(tmp_path, tmp_path / "cache")
    assert "parsed" in out.stdout, out.stderr[-3000:]
    assert not marker.exists(), "a pickle from the shared temp folder was loaded"
    assert [f.name for f in shared.iterdir() if "lark" in f.name] == \
        [_lark_cache_file(shared).name], "the parser was written to the shared folder"


def test_the_private_parser_cache_is_used_only_when_it_is_private(tmp_path: Path) -> None:
    home = tmp_path / "cache"
    out = _build_in_child(tmp_path, home)          # builds and fills the cache
    assert "parsed" in out.stdout, out.stderr[-3000:]
    folder = home / "mnrules"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    cached = list(folder.glob("*.parser"))
    assert len(cached) == 1 and stat.S_IMODE(cached[0].stat().st_mode) == 0o600
    marker = tmp_path / "owned"
    evil = _evil_pickle(marker)
    for mode in (0o666, 0o600):       # others may write it; or a pickle that names code
        cached[0].write_bytes(evil)
        cached[0].chmod(mode)
        out = _build_in_child(tmp_path, home)
        assert "parsed" in out.stdout, out.stderr[-3000:]
        assert not marker.exists(), f"a planted cache (mode {mode:o}) was unpickled"
    folder.chmod(0o777)                                 # a folder others may write to
    cached = list(folder.glob("*.parser"))
    cached[0].write_bytes(evil)
    out = _build_in_child(tmp_path, home)
    assert "parsed" in out.stdout and not marker.exists()


def test_pickle_is_not_what_the_cache_holds() -> None:
    """The private cache holds plain data only: a pickle that names any class or
    function is refused by the loader, so even a planted file there runs nothing."""
    from mnrules.language import syntax
    with pytest.raises(pickle.UnpicklingError):
        import io
        syntax._PlainData(io.BytesIO(pickle.dumps(os.getcwd))).load()


# -- item 2: every number a script gives has a range -----------------------------------------
@pytest.mark.parametrize(("rule", "column", "message"), [
    ("modify battle.total: add 100", 28, "100 is out of range for the quantity "
     "'battle.total': from 0 to 99 allowed"),
    ("modify battle.dice: add 11", 27, "'battle.dice': from 0 to 10"),
    ("modify battle.total: add 500 per legion die", 28, "'battle.total': from 0 to 99"),
    ("modify income: add 21 coin", 22, "'income': from 0 to 20"),
    ("modify offer_size: choose 0 to 21", 34, "'offer_size': from 0 to 20"),
    ("modify offer_size: choose 5 to 2", 34, "the second number must not be below"),
    ("modify payment: allow 10 coin in goods sets", 25,
     "for the allowance 'coin in goods sets': from 0 to 9"),
    ("offer legion for 21 coin", 20, "21 is out of range for the payment for 'legion': "
     "from 0 to 20"),
    ("after production: take 6 good of your choice", 26,
     "for the action 'take {n} good of your choice': from 1 to 5 allowed"),
    ("modify battle.total: add " + "9" * 4301, 28, "is too long (4301 digits, at most 18)"),
    ("modify cost: subtract 00000000000000000000000001", 25, "is too long"),
])
def test_every_number_has_a_declared_range(rules: Ruleset, tmp_path: Path, rule: str,
                                           column: int, message: str) -> None:
    with pytest.raises(ScriptError) as err:
        _compile(_script_card(tmp_path, rule), vocabulary(rules))
    p = err.value.problems[0]
    assert (p.line, p.column) == (5, column), str(err.value)
    assert message in p.message
    caret = str(p).splitlines()[2]
    assert len(caret) <= 110 and caret.endswith("^")       # a long line is cut around it


def test_the_numbers_at_the_ends_of_each_range_are_accepted(rules: Ruleset,
                                                            tmp_path: Path) -> None:
    _compile(_script_card(tmp_path, "modify battle.total: add 99, subtract 0",
                          "modify offer_size: choose 0 to 20",
                          "modify payment: allow 9 repeated good type",
                          "offer legion for 20 coin or 0 coin",
                          "after production: take 1 good of your choice"), vocabulary(rules))


def test_a_two_billion_coin_offer_is_refused_at_load_not_built(tmp_path: Path) -> None:
    """It used to build a 2-billion-item tuple (~16 GB) while loading."""
    _script_card(tmp_path / "c", "offer legion for 2000000000 coins")
    out = mnrules("cards", "list", "--edition", "en", "--cards", str(tmp_path / "c"), timeout=60)
    assert_clean_error(out, "c.yaml:5:20:", "2000000000 is out of range", "from 0 to 20")


def test_fifty_million_offer_sizes_are_refused_at_load(tmp_path: Path) -> None:
    """'choose 0 to 50000000' made three rounds take 30 s and 1.9 GB."""
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: en\ncards:\n  override:\n    antigone:\n"
                       "      effects: |\n        modify offer_size: choose 0 to 50000000\n")
    out = mnrules("play", "--edition", "en",
                  "--variant", str(variant), "--players", "3", "--bots", "random",
                  "--seed", "1", "--rounds", "3", timeout=60)
    assert_clean_error(out, "v.yaml:6:40:", "'offer_size': from 0 to 20")


def test_doubling_again_and_again_stays_within_the_ceiling(tmp_path: Path) -> None:
    """A card's change never takes the dice above 30 (nor above what they were)."""
    _script_card(tmp_path / "c", "modify battle.dice: " + ", ".join(["double"] * 60),
                 "modify battle.dice: add 10, add 10, add 10, add 10")
    rules = load_ruleset("en", card_dirs=[cards_dir("mare_nostrum"), tmp_path / "c"])
    game = new_game(rules, 3, seed=1)
    player = game.state.players[0]
    game.state.tiles[player].append("testhero")
    battle = {"kind": "land", "area": "x", "attacker": player, "defender": "y"}
    assert game.fold("battle.dice", 5, side=player, battle=battle, units=5) == 30
    assert game.fold("battle.dice", 40, side=player, battle=battle, units=40) == 40
    other = game.state.players[1]
    assert game.fold("battle.dice", 5, side=other, battle=battle, units=5) == 5


def test_a_huge_script_line_in_a_card_is_refused_cleanly(tmp_path: Path) -> None:
    _script_card(tmp_path / "c", "modify battle.total: add 1 per " + "die " * 4000)
    out = mnrules("cards", "check", "--edition", "en", str(tmp_path / "c"), timeout=60)
    _refused_check(out, "c.yaml:5:")


def test_the_guide_states_every_declared_range() -> None:
    from mare_nostrum import words
    guide = (ROOT / "docs" / "effect-language.md").read_text(encoding="utf-8")
    rows = [ln for ln in guide.splitlines() if ln.startswith("| `")]
    for name, ((low, high), ceiling) in words.QUANTITY_NUMBERS.items():
        row = next((r for r in rows if f"`modify {name}" in r and " to " in r.split("|")[2]),
                   None)
        assert row is not None, f"docs/effect-language.md: no row for {name}"
        assert f"| {low} to {high} |" in row, row
        assert row.rstrip().endswith(f"| {ceiling} |" if ceiling else "| |"), row
    for phrase, (low, high) in (("allow N", words.ALLOW_NUMBERS),
                                ("for N coin", words.PAY_NUMBERS)):
        assert any(phrase in r and f"| {low} to {high} |" in r for r in rows), phrase
    low, high = words.TAKE_NUMBERS
    assert any("take N good" in r and f"| {low} to {high} (" in r for r in rows)


# -- item 3: card files ---------------------------------------------------------------------
@pytest.mark.parametrize(("body", "where", "message"), [
    (HEAD + "names2: x\n", "c.yaml:4:1:", "unknown card key 'names2'"),
    ("id: x\nkind: hero\nnames: [a, b]\n", "c.yaml:3:1:", "names: expected a mapping"),
    ("id: x\nkind: hero\ntext: hello\n", "c.yaml:3:1:", "text: expected a mapping"),
    ("id: x\nkind: hero\ncost: " + "9" * 5000 + "\n", "c.yaml:3:7:", "5000 digits"),
    ("id: x\nkind: hero\nbonuses: {trade: " + "9" * 5000 + "}\n", "c.yaml:3:", "5000 digits"),
    ("id: x\nkind: hero\ncost: 0x" + "f" * 5000 + "\n", "c.yaml:3:1:",
     "cost: expected a whole number from 0 to 99, got a whole number a number of about"),
    ("id: [1,2]\nkind: hero\n", "c.yaml:1:1:", "id: expected a name"),
    ("id: 7\nkind: hero\n", "c.yaml:1:1:", "id: expected a name"),
    ("id: x\nkind: hero\ncopyable: maybe\n", "c.yaml:3:1:", "copyable: expected true or false"),
    ("id: x\nkind: hero\nbonuses: {trade: true}\n", "c.yaml:3:11:", "bonuses.trade: expected "
     "a whole number from 0 to 9, got true/false"),
    ("id: x\nkind: hero\nbonuses: {trade: 10}\n", "c.yaml:3:11:", "from 0 to 9"),
    ("id: x\nkind: hero\nbonuses: [trade]\n", "c.yaml:3:1:", "bonuses: expected a mapping"),
    ("id: x\nkind: [hero]\n", "c.yaml:2:1:", "kind: expected one of"),
    ("id: x\nkind: hero\nphase: {a: 1}\n", "c.yaml:3:1:", "phase: expected the name"),
    ("id: x\nkind: hero\nnames: {en: [a]}\n", "c.yaml:3:9:", "names.en: expected text"),
    ("id: x\nkind: hero\ncost: -1\n", "c.yaml:3:1:", "cost: expected a whole number"),
    ("id: x\nkind: hero\ncost: 1.5\n", "c.yaml:3:1:", "cost"),
    ("id: x\nkind: hero\neffects: [1]\n", "c.yaml:3:1:", "effects: expected a script"),
    ("id: x\nkind: hero\neffects:\n", "c.yaml:3:1:", "effects: the script is empty"),
    ("id: x\nkind: hero\neffects: |\n  # nothing\n", "c.yaml:3:1:", "the script is empty"),
    ("- 1\n", "c.yaml:1:1:", "a card must be a mapping"),
    ("kind: hero\n", "c.yaml:1:1:", "missing card key 'id'"),
])
def test_a_bad_card_file_is_refused_with_its_place_and_key(tmp_path: Path, body: str,
                                                           where: str, message: str) -> None:
    with pytest.raises(MnrulesError) as err:
        read_card(_card(tmp_path, body))
    text = str(err.value)
    assert where in text and message in text, text
    assert "Traceback" not in text


def test_a_card_file_that_is_not_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    f = tmp_path / "c.yaml"
    f.write_bytes(b"id: x\nkind: hero\nnames: {en: \xff}\n")
    with pytest.raises(PackError, match=r"c\.yaml:3:13: not UTF-8"):
        read_card(f)


def test_a_named_pipe_among_the_cards_is_refused_not_waited_on(tmp_path: Path) -> None:
    folder = tmp_path / "cards"
    folder.mkdir()
    os.mkfifo(folder / "card.yaml")
    out = mnrules("cards", "check", "--edition", "en", str(folder), timeout=30)
    _refused_check(out, "card.yaml: a card must be a regular file, and this is a named pipe")
    out = mnrules("cards", "list", "--edition", "en", "--cards", str(folder), timeout=30)
    assert_clean_error(out, "card.yaml", "named pipe")


@pytest.mark.parametrize(("rule", "column", "message"), [
    ("modify income: add 1", 22, "'income' is a list of resources: add an amount"),
    ("modify income: add 1 per legion die", 22, "not a bare number"),
    ("modify income: add die", 22, "the count 'die' is a number, not resources"),
    ("modify income: include you", 18, "'include' does not apply to this quantity; use add"),
    ("modify build.first: add 1 coin", 23, "'add' does not apply to this quantity; use "
     "include"),
    ("modify battle.total: add 1 per goods of empty caravan slots under your legions", 34,
     "is not a number: it cannot follow 'per'"),
    ("offer legion per goods of empty caravan slots under your legions for 1 coin", 20,
     "is not a number: it cannot follow 'per'"),
])
def test_cards_check_refuses_what_the_game_cannot_run(tmp_path: Path, rule: str, column: int,
                                                      message: str) -> None:
    """These passed `cards check` and then crashed the game with a traceback."""
    _script_card(tmp_path / "c", rule)
    out = mnrules("cards", "check", "--edition", "en", str(tmp_path / "c"), timeout=60)
    _refused_check(out, f"c.yaml:5:{column}: ", message)


def test_a_folder_of_cards_that_does_not_exist_is_refused() -> None:
    from mnrules.content.card_files import load_cards
    with pytest.raises(PackError, match="no such folder of cards"):
        load_cards([Path("/nonexistent/cards")])


def test_a_pack_override_is_checked_like_a_card_file(tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: en\ncards:\n  override:\n    caesar:\n"
                       "      names: hello\n")
    with pytest.raises(PackError, match=r"v\.yaml:5:7: cards\.override\.caesar\.names: "
                                        r"expected a mapping"):
        load_ruleset("en", variant=variant)


# -- item 4: a generator of hostile card files -------------------------------------------------
HUGE = ["9" * 5000, "-" + "9" * 4400, "0x" + "f" * 3000, "1e99999", ".inf", ".nan",
        "99999999999999999999", "-1", "0", "2147483648"]
ODD_TEXT = ["\u202e\u0645\u0631\u062d\u0628\u0627", "e\u0301", "\u200b", "\ufeffid", "🙂" * 50,
            "\t", "\u2028", "\x85", "\x1b[31m", "１２", "x" * 30000, "'", '"', "\\",
            "${HOME}", "{{x}}", "%s%n", "é" * 3]
WRONG = ["[]", "{}", "[1, 2]", "{a: 1}", "null", "true", "no", "~", "''", "!!binary aGk=",
         "2001-01-01", "&a x", "*a", "[[[[[[[[[[]]]]]]]]]]", "- x"]
SCRIPT_BITS = ["modify", "after", "replace", "offer", "when", "and", "or", "not", ":", ",",
               "(", ")", "add", "per", "for", "free", "once per round", "choose", "to", "allow",
               "include you", "double", "battle.total", "income", "offer_size", "payment",
               "legion", "coin", "die", "9" * 30, "9" * 4400, "0", "100", "21", "\n", "\n    ",
               "#", "é", "🙂", "\u2028", "\t", "a" * 2000]
KEYS = ["id", "kind", "phase", "bonuses", "names", "text", "effects", "cost", "copyable"]


def _bundled() -> list[str]:
    return [f.read_text(encoding="utf-8") for f in sorted((ROOT / "cards").rglob("*.yaml"))]


def _set_key(text: str, key: str, value: str) -> str:
    """``text`` with ``key``'s value (a whole top-level entry) replaced or added."""
    lines = text.splitlines()
    out, skipping, done = [], False, False
    for line in lines:
        if skipping and (line.startswith((" ", "\t")) or not line.strip()):
            continue
        skipping = False
        if line.startswith(f"{key}:"):
            out.append(f"{key}: {value}")
            skipping, done = True, True
            continue
        out.append(line)
    if not done:
        out.append(f"{key}: {value}")
    return "\n".join(out) + "\n"


def _script_of(text: str) -> list[str]:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("effects:"):
            return [ln.strip() for ln in lines[i + 1:] if ln.startswith("  ")]
    return []


def _mutated_script(rng: random.Random, rules: list[str]) -> str:
    script = "\n".join(rules) or "modify battle.total: add 1"
    for _ in range(rng.randint(1, 4)):
        how = rng.randrange(5)
        i = rng.randint(0, len(script))
        if how == 0:
            script = script[:i] + " " + rng.choice(SCRIPT_BITS) + " " + script[i:]
        elif how == 1:
            script = script[:i] + script[i + rng.randint(1, 12):]
        elif how == 2:
            words = script.split(" ")
            words[rng.randrange(len(words))] = rng.choice(SCRIPT_BITS)
            script = " ".join(words)
        elif how == 3:
            depth = rng.choice([10, 40, 500])
            script = (f"modify battle.total when {'not (' * depth}land battle{')' * depth}: "
                      f"add {rng.choice(['1', '99', '100', '9' * 25])}")
        elif len(script) < 40_000:   # repeated lines, past the cap once, not without bound
            script = "\n".join([script] * rng.choice([2, 50, 101]))
    return script


def hostile_cards(n: int, seed: int) -> Iterator[tuple[str, bytes]]:
    """``n`` hostile card files, as (what was done, the file's bytes), the same for the
    same seed: bundled cards with a key given a huge number, a wrong type, odd unicode,
    deep nesting or a long line, their scripts mutated, or the YAML itself broken."""
    rng = random.Random(seed)
    bundled = _bundled()
    for i in range(n):
        base = rng.choice(bundled)
        key = rng.choice(KEYS)
        how = rng.randrange(9)
        if how == 0:
            value = rng.choice(HUGE)
            what, text = f"{key}: huge number", _set_key(base, key, value)
        elif how == 1:
            value = rng.choice(WRONG)
            what, text = f"{key}: wrong type {value[:20]!r}", _set_key(base, key, value)
        elif how == 2:
            odd = rng.choice(ODD_TEXT)
            value = rng.choice([odd, f'"{odd}"', f"{{en: {odd}}}", f"{{{odd}: x}}"])
            what, text = f"{key}: odd text", _set_key(base, key, value)
        elif how == 3:
            depth = rng.choice([50, 500, 5000])
            value = rng.choice(["[" * depth + "]" * depth, "{a: " * depth + "1" + "}" * depth])
            what, text = f"{key}: nested {depth} deep", _set_key(base, key, value)
        elif how == 4:
            sub = rng.choice(["bonuses", "names", "text"])
            value = "{" + rng.choice(["trade", "en", "culture", "xx", "1"]) + ": " + \
                rng.choice(HUGE + WRONG[:8] + ["1", "x"]) + "}"
            what, text = f"{sub}: inner value", _set_key(base, sub, value)
        elif how in (5, 6):
            script = _mutated_script(rng, _script_of(base))
            body = "\n".join("  " + ln for ln in script.split("\n"))
            what, text = "script mutated", _set_key(base, "effects", "|\n" + body)
        elif how == 7:
            j = rng.randint(0, len(base))
            junk = rng.choice([":", "- ", "\n  - x", "&a ", "*b", "!!python/object:os.system",
                               "? ", "---\n", "\t", "%YAML 1.1\n", "\x00", "|\n", "'", "{"])
            what, text = f"YAML broken ({junk[:10]!r})", base[:j] + junk + base[j:]
        else:
            what, text = "a key removed", "\n".join(
                ln for ln in base.splitlines() if not ln.startswith(f"{key}:")) + "\n"
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.05:                          # not UTF-8 somewhere
            k = rng.randint(0, len(data))
            data, what = data[:k] + b"\xff\xfe" + data[k:], what + ", bad bytes"
        yield f"#{i} {what}", data


POSITION = re.compile(r"\.yaml:\d+(:\d+)?: ")


def _try(file: Path, vocab: Vocabulary) -> str | None:
    """None if the card loads, else its error's text; anything but a MnrulesError with a
    position propagates (a bug)."""
    try:
        _compile(file, vocab)
    except MnrulesError as exc:
        text = str(exc)
        assert POSITION.search(text), f"no position in: {text[:500]}"
        if isinstance(exc, ScriptError):
            assert all(p.line >= 1 and p.column >= 1 and "^" in str(p) for p in exc.problems)
        return text
    return None


def run_hostile(n: int, seed: int, folder: Path | None = None) -> tuple[int, int]:
    """Feed ``n`` hostile cards through `cards check`'s path; (accepted, refused)."""
    import tempfile
    vocab = vocabulary(load_ruleset("en"))
    where = folder or Path(tempfile.mkdtemp())
    ok = refused = 0
    for what, data in hostile_cards(n, seed):
        f = where / "hostile.yaml"
        f.write_bytes(data)
        try:
            with watchdog(60, what):
                result = _try(f, vocab)
        except Exception as exc:   # the report is the point
            raise AssertionError(f"{what}: {type(exc).__name__}: {exc}\n--- file ---\n"
                                 f"{data[:3000]!r}") from exc
        if result is None:
            ok += 1
        else:
            refused += 1
    return ok, refused


def test_hostile_card_files_only_give_a_positioned_error(tmp_path: Path) -> None:
    ok, refused = run_hostile(400, seed=1, folder=tmp_path)
    assert refused > 200 and ok > 0       # both ways are exercised


def test_the_generator_is_reproducible() -> None:
    assert list(hostile_cards(20, 5)) == list(hostile_cards(20, 5))
    assert list(hostile_cards(20, 5)) != list(hostile_cards(20, 6))
