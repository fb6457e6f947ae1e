"""Saves, logs, scenarios, the bots' state and the Python API under hostile input and
faults: a loaded game plays on exactly as the uninterrupted one, whatever the bots; a
broken or hostile file gets a clean error naming the file and the place; nothing else
ever escapes.

The hostile generators (:func:`hostile_saves`, :func:`hostile_logs`,
:func:`hostile_scenarios`) are plain functions so that a bigger count can be run by
hand: ``python -c "from tests.test_hostile_saves import *; hostile_saves(5000, 1)"``.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import ROOT, TESTS
from limits import assert_clean_error, mnrules, python
from mare_nostrum.state import State
from mnrules import load_ruleset, new_game
from mnrules.bots import Bot, make_bot
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset
from mnrules.core.engine import Game
from mnrules.core.start import load_game
from mnrules.errors import IllegalChoice, InvalidChoice, MnrulesError
from mnrules.frontends.cli import main
from mnrules.tools.log import LogError, load, replay, save


# -- 1. the bots keep no state a save would lose --------------------------------------------
def _bots(game: Game, kind: str) -> dict[str, Bot]:
    # as the command line seeds them: from the game's own seed
    return {p: make_bot(kind, game.state.seed * 1009 + i, game.rules)
            for i, p in enumerate(game.state.players)}


def _play(game: Game, bots: dict[str, Bot], until_choice: int | None = None) -> None:
    while (dec := game.pending) is not None:
        if until_choice is not None and game.state.choices >= until_choice:
            return
        game.apply(bots[dec.player].choose(game))


def _resumed(rules: Ruleset, game: Game, kind: str) -> Game:
    """The game saved to JSON, loaded again, with fresh bots, played to its end."""
    again = load_game(rules, json.loads(game.snapshot().to_json()))
    _play(again, _bots(again, kind))
    return again


@pytest.mark.parametrize(("kind", "seed", "players", "cap", "stops"), [
    ("heuristic", 7, 5, 60, (0.4, 0.8)),      # seed 7 diverged when bots kept a generator
    ("search:2", 4, 3, 3, (0.5,)),
])
def test_a_saved_bot_game_goes_on_exactly_as_the_uninterrupted_one(
        rules: Ruleset, kind: str, seed: int, players: int, cap: int,
        stops: tuple[float, ...]) -> None:
    straight = new_game(rules, players, seed=seed, round_cap=cap)
    _play(straight, _bots(straight, kind))
    end = straight.snapshot().to_json()
    total = straight.state.choices
    for at in stops:   # saved in the middle of a round, wherever it falls
        game = new_game(rules, players, seed=seed, round_cap=cap)
        _play(game, _bots(game, kind), until_choice=int(total * at))
        assert _resumed(rules, game, kind).snapshot().to_json() == end, (kind, at)


def test_the_heuristic_bot_keeps_no_cache_between_games(rules: Ruleset) -> None:
    """The same seed gives the same game alone (a fresh process) and after other games
    (another pack, another player count) in this one."""
    def one() -> str:
        game = new_game(rules, 4, seed=6, round_cap=60)
        _play(game, _bots(game, "heuristic"))
        return game.snapshot().to_json()

    first = one()
    # (a 5-player game of seed 0 used to leave a cache that changed this game)
    for pack, players, seed in (("en", 5, 0), ("fr", 4, 2)):
        other = new_game(load_ruleset(pack), players, seed=seed, round_cap=60)
        _play(other, _bots(other, "heuristic"))
    assert one() == first
    alone = python(
        "import hashlib\n"
        "from mnrules import load_ruleset, new_game\n"
        "from mnrules.bots import make_bot\n"
        "g = new_game(load_ruleset('en'), 4, seed=6, round_cap=60)\n"
        "b = {p: make_bot('heuristic', 6 * 1009 + i, g.rules)\n"
        "     for i, p in enumerate(g.state.players)}\n"
        "while (d := g.pending) is not None: g.apply(b[d.player].choose(g))\n"
        "print(hashlib.sha256(g.snapshot().to_json().encode()).hexdigest())\n",
        cwd=ROOT)
    import hashlib
    assert alone.returncode == 0, alone.stderr[-2000:]
    assert alone.stdout.strip() == hashlib.sha256(first.encode()).hexdigest()


# -- 2. saves ---------------------------------------------------------------------------------
def _save_at(tmp_path: Path, rules: Ruleset, kind: str = "build.action") -> tuple[Path, dict]:
    """A save file of a game waiting for a decision of ``kind``, and its parsed JSON."""
    game = new_game(rules, 5, seed=2)
    bot = RandomBot(1)
    while (dec := game.pending) is not None and dec.kind != kind:
        game.apply(bot.choose(game))
    path = tmp_path / "g.save"
    save(game, "en", None, path)
    return path, json.loads(path.read_text())


def _top_with(data: dict, key: str) -> dict:
    return next(f for f in reversed(data["state"]["stack"]) if key in f)


SAVE_CASES: list[tuple[str, Callable[[dict], object], str]] = [
    ("missing pack", lambda d: d.pop("pack"), "pack: missing"),
    ("missing state", lambda d: d.pop("state"), "state: missing"),
    ("pack not text", lambda d: d.update(pack=["en"]), "pack: expected"),
    ("negative units", lambda d: d["state"]["units"]["LATIUM"]["rome"].update(legion=-3),
     "state.units.LATIUM.rome.legion: -3 is out of bounds"),
    ("10^30 coins", lambda d: d["state"]["supply"].update(coin=10**30),
     "state.supply.coin: a number beyond"),
    ("coins from nowhere", lambda d: d["state"]["screens"]["rome"].update(coin=10**6),
     "invariants: coin: supply"),
    ("round -5", lambda d: d["state"].update(round=-5), "state.round: -5 is out of bounds"),
    ("a tile held twice", lambda d: d["state"]["tiles"]["rome"].append(
        d["state"]["tiles"]["greece"][0]), "state.tiles.greece[0]: the tile 'pericles' is "
     "also in tiles.rome"),
    ("a winner not in the game", lambda d: d["state"].update(
        winners=["gaul"], finished=True, victory="fifth"), "state.winners[0]"),
    ("a decision for an absent player", lambda d: _top_with(d, "player").update(
        player="gaul"), "state.stack"),
    ("an unknown step", lambda d: d["state"]["stack"].append({"step": "os.system"}),
     "no plugin provides the step 'os.system'"),
    ("a step that is not text", lambda d: d["state"]["stack"].append({"step": ["x"]}),
     "step: a frame names its step as text"),
    ("a frame key missing", lambda d: _top_with(d, "player").pop("player"),
     "(build.turn): does not play under these rules (KeyError: no key 'player')"),
    ("a wrong generator state", lambda d: d["state"].update(rng=[3, [0] * 624 + [999], None]),
     "state.rng: not a random generator state"),
    ("a generator state of text", lambda d: d["state"].update(rng=[3, "abc", None]),
     "state.rng: not a random generator state"),
    ("a float", lambda d: d["state"].update(choices=1.5), "state.choices: 1.5"),
    ("a screen of jade", lambda d: d["state"]["screens"]["rome"].update(jade=1),
     "state.screens.rome.jade: no resource 'jade'"),
    ("a round cap of text", lambda d: d["state"]["vars"].update(round_cap="x"),
     "state.vars.round_cap"),
]


@pytest.mark.parametrize(("name", "mutate", "message"), SAVE_CASES,
                         ids=[c[0] for c in SAVE_CASES])
def test_a_hostile_save_is_refused_naming_the_file_and_the_key(
        tmp_path: Path, rules: Ruleset, name: str, mutate: Callable[[dict], object],
        message: str) -> None:
    path, data = _save_at(tmp_path, rules)
    mutate(data)
    path.write_text(json.dumps(data))
    with pytest.raises(MnrulesError) as err:
        load(path)
    assert str(err.value).startswith(str(path)), err.value
    assert message in str(err.value), err.value


@pytest.mark.parametrize(("name", "content", "message"), [
    ("deep JSON", b'{"format": "mnrules-save/1", "state": ' + b"[" * 100_000,
     "nests too deep"),
    ("non-UTF-8", b'{"format": "mnrules-save/1", "pack": "\xff\xfe"}', "not UTF-8"),
    ("a 5,000-digit number", b'{"format": "mnrules-save/1", "x": ' + b"9" * 5000 + b"}",
     "not a save file"),
    ("truncated", b'{"format": "mnrules-save/1", "pack": "en", "sta', "not JSON"),
])
def test_a_broken_save_file_is_refused_cleanly(tmp_path: Path, name: str, content: bytes,
                                               message: str) -> None:
    path = tmp_path / "g.save"
    path.write_bytes(content)
    out = mnrules("play", "--load", str(path))
    assert_clean_error(out, str(path), message)


def test_a_save_passes_its_checks_quickly_and_plays_on(tmp_path: Path,
                                                       rules: Ruleset) -> None:
    path, _ = _save_at(tmp_path, rules, "military.legion")
    game, pack, variant = load(path)
    assert (pack, variant) == ("en", None) and game.pending is not None
    assert game.pending.kind == "military.legion"


# -- 3. logs ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def log_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = tmp_path_factory.mktemp("log") / "g.jsonl"
    assert main(["play", "--edition", "en",
                 "--seed", "3", "--rounds", "1", "--log", str(path)]) == 0
    return path.read_text().splitlines()


def _header(lines: list[str], **change: object) -> list[str]:
    head = json.loads(lines[0])
    for k, v in change.items():
        if v is _GONE:
            head.pop(k)
        else:
            head[k] = v
    return [json.dumps(head), *lines[1:]]


_GONE = object()


@pytest.mark.parametrize(("name", "edit", "message"), [
    ("no pack", lambda ls: _header(ls, pack=_GONE), ":1: pack: missing"),
    ("no players", lambda ls: _header(ls, players=_GONE), ":1: players: missing"),
    ("no seed", lambda ls: _header(ls, seed=_GONE), ":1: seed: missing"),
    ("seed 11.7", lambda ls: _header(ls, seed=11.7), ":1: seed: expected a whole number"),
    ("seed true", lambda ls: _header(ls, seed=True), ":1: seed: expected a whole number"),
    ("a huge seed", lambda ls: _header(ls, seed=10**30), ":1: seed: expected a whole"),
    ("round cap of text", lambda ls: _header(ls, round_cap="x"), ":1: round_cap:"),
    ("a record without its kind",
     lambda ls: [ls[0], json.dumps({k: v for k, v in json.loads(ls[1]).items()
                                    if k != "kind"}), *ls[2:]], ":2: kind: missing"),
    ("a choice that is a mapping",
     lambda ls: [ls[0], json.dumps({**json.loads(ls[1]), "choice": {"a": 1}}), *ls[2:]],
     ":2: choice: malformed choice"),
    ("a chance without its value", lambda ls: [*ls, '{"chance": "land die"}'],
     "value: missing"),
    ("neither", lambda ls: [*ls, '{"hello": 1}'], "neither a choice nor a chance record"),
    ("deep JSON", lambda ls: [*ls, "[" * 100_000], "nests too deep"),
    ("a 5,000-digit number", lambda ls: [*ls, '{"chance": "x", "value": ' + "9" * 5000 + "}"],
     "not JSON"),
    ("an unknown pack", lambda ls: _header(ls, pack="klingon"), ":1: unknown edition"),
    ("players not of this board", lambda ls: _header(ls, players=["rome", "gaul"]),
     ":1: players"),
])
def test_a_hostile_log_is_refused_naming_file_line_and_field(
        tmp_path: Path, log_lines: list[str], name: str,
        edit: Callable[[list[str]], list[str]], message: str) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(edit(list(log_lines))) + "\n")
    with pytest.raises(MnrulesError) as err:
        replay(path)
    assert str(err.value).startswith(str(path)), err.value
    assert message in str(err.value), err.value


def test_a_log_that_is_not_utf8_is_refused_at_its_line(tmp_path: Path,
                                                       log_lines: list[str]) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(("\n".join(log_lines[:3]) + "\n").encode() + b'{"x": "\xff"}\n')
    with pytest.raises(LogError, match=r"g\.jsonl:4: not a log \(not UTF-8"):
        replay(path)


def test_chance_records_the_game_never_drew_are_a_divergence(
        tmp_path: Path, log_lines: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(log_lines) + "\n")
    assert replay(path).divergence is None
    extra = '{"chance": "land die", "value": 6}'
    path.write_text("\n".join([*log_lines, extra, extra]) + "\n")
    result = replay(path)
    n = len(log_lines) + 1
    assert result.divergence is not None and result.divergence.startswith(f"line {n}:")
    assert "never drew" in result.divergence
    assert main(["replay", str(path)]) == 1
    assert "diverge: line" in capsys.readouterr().err


# -- 4. scenarios -----------------------------------------------------------------------------
SCENARIO = """\
scenario: a small battle
edition: en
position:
  round: 2
  control: {LATIUM: rome}
  units:
    LATIUM: {rome: {legion: 2}}
  resources: {rome: {coin: 3}}
  phase: military
forced:
  land die: [5, 4]
choices:
  - rome
expect:
  units: {LATIUM: {rome: {legion: 2}}}
"""


@pytest.mark.parametrize(("old", "new", "message"), [
    ("round: 2", "round: abc", ":4:3: position.round: expected a whole number, got 'abc'"),
    ("round: 2", "round: -5", ":4:3: position.round: -5 is out of bounds"),
    ("LATIUM: {rome: {legion: 2}}\n  res", "LATIUM: [1]\n  res",
     ":7:5: position.units.LATIUM: expected a mapping, got a list"),
    ("coin: 3", "coin: many", ":8:22: position.resources.rome.coin: expected a whole number"),
    ("legion: 2}}\n  res", "legion: -40}}\n  res",
     ":7:21: position.units.LATIUM.rome.legion: -40 is out of bounds"),
    ("choices:\n  - rome", "choices: 5", ":12:1: choices: expected a list, got 5"),
    ("- rome", "- {rome: 1}", ":13:6: choices[0].rome: unknown key"),
    ("- rome", "- 1.5", ":13:5: choices[0]: not a choice"),
    ("land die: [5, 4]", "land die: 5", ":11:3: forced.land die: expected a list"),
    ("forced:\n  land die: [5, 4]", "forced: [1]", ":10:1: forced: expected a mapping"),
    ("expect:\n", "expect:\n  pending: {who: rome}\n", ":15:13: expect.pending.who: unknown"),
    ("edition: en", "edition: []", ":2:1: edition: expected at least one"),
    ("scenario:", "scenario:", ""),  # the file as it is loads
])
def test_a_malformed_scenario_names_file_line_and_key(tmp_path: Path, old: str, new: str,
                                                      message: str) -> None:
    from mnrules.tools.scenario import ScenarioError
    from mnrules.tools.scenario import load as load_scenario

    assert old in SCENARIO
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace(old, new, 1))
    if not message:
        load_scenario(path)
        return
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert str(err.value).startswith(f"{path}{message}"), err.value


@pytest.mark.parametrize(("old", "new", "message"), [
    ("LATIUM: {rome", "LATIUM: {gaul", ":7:21: position.units.LATIUM.gaul.legion: 'gaul' "
                                       "does not play"),
    ("LATIUM: {rome", "ATLANTIS: {rome", ":7:23: position.units.ATLANTIS.rome.legion: "
                                         "'ATLANTIS' is not a province in play"),
    ("legion: 2}}\n  res", "legion: 200}}\n  res", "position.units.LATIUM.rome.legion: "
                                                 "rome has fewer than 200 legion"),
    ("legion: 2}}\n  res", "catapult: 2}}\n  res", "position.units.LATIUM.rome.catapult: "
                                                  "no 'catapult'"),
    ("coin: 3", "jade: 3", "position.resources.rome: no resource 'jade'"),
    ("{LATIUM: rome}", "{LATIUM: gaul}", ":5:13: position.control.LATIUM: 'gaul' does not"),
    ("phase: military", "phase: party", "position.phase: the pack has no phase 'party'"),
])
def test_a_scenario_naming_what_is_not_there_fails_at_its_line(
        tmp_path: Path, old: str, new: str, message: str) -> None:
    from mnrules.tools.scenario import run

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace(old, new, 1))
    [out] = list(run(path))
    assert not out.ok and len(out.failures) == 1, out.failures
    assert out.failures[0].startswith(f"error: {path}:") and message in out.failures[0], \
        out.failures


def test_a_malformed_scenario_gets_a_clean_error_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("round: 2", "round: abc"))
    assert_clean_error(mnrules("scenario", "run", str(path)), f"{path}:4:3: position.round")


# -- 5. the Python API ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def every_decision(rules: Ruleset) -> dict[str, State]:
    """A snapshot of every kind of decision, with more than one option, from random games."""
    found: dict[str, State] = {}
    for seed in (0, 1):
        game = new_game(rules, 5, seed=seed, round_cap=40)
        bot = RandomBot(seed)
        while (dec := game.pending) is not None:
            if len(dec.options) > 1 and dec.kind not in found:
                found[dec.kind] = game.snapshot()
            game.apply(bot.choose(game))
    return found


WELL_FORMED = ["nobody", 99, -1, ("nobody",), ("move", "LATIUM", "ATLANTIS"),
               ("tile", "excalibur"), ("marker", "ATLANTIS"), ("battle", "LATIUM", "gaul"),
               (), ((("deep",),),)]


def test_every_illegal_choice_names_its_rule_and_changes_nothing(
        rules: Ruleset, every_decision: dict[str, State]) -> None:
    assert len(every_decision) >= 20, sorted(every_decision)
    for kind, snap in sorted(every_decision.items()):
        game = load_game(rules, snap)
        before = game.state.to_json()
        offered = game.legal()
        for choice in [*WELL_FORMED, *(_near(o) for o in offered[:3])]:
            if choice in offered:
                continue
            with pytest.raises(IllegalChoice) as err:
                game.apply(choice)
            rule = err.value.rule
            assert rule is not None and rule.sections, (kind, choice, str(err.value))
            assert "forbidden by:" in str(err.value)
        assert game.state.to_json() == before, kind


def _near(option: object) -> object:
    """A well-formed choice close to a legal one (its last part changed)."""
    if isinstance(option, tuple) and option:
        last = option[-1]
        return (*option[:-1], last + 100 if isinstance(last, int) else f"{last}x")
    return option + 100 if isinstance(option, int) else f"{option}x"


@pytest.mark.parametrize("choice", [True, False, 1.0, None, {"a": 1}, [True], ("x", 2.5),
                                    {1, 2}, b"yes", [[[[[[[[[["deep"]]]]]]]]]]])
def test_a_malformed_choice_is_refused_before_anything_else(game5: Game,
                                                            choice: object) -> None:
    _ = game5.pending
    before = game5.state.to_json()
    with pytest.raises(InvalidChoice) as err:
        game5.apply(choice)
    assert not isinstance(err.value, IllegalChoice)
    assert "malformed choice" in str(err.value)
    assert game5.state.to_json() == before and game5.history == []


def test_true_is_not_one(rules: Ruleset, every_decision: dict[str, State]) -> None:
    """bool is an int subclass: ``True in (1,)``; a game never stores True for 1."""
    game = load_game(rules, every_decision["trade.size"])
    assert 1 in game.legal()
    with pytest.raises(InvalidChoice):
        game.apply(True)
    game.apply(1)
    assert type(game.history[-1]) is int


# -- 6. hostile generators --------------------------------------------------------------------
# Each takes a real file (a save, a log, a scenario), mutates it ``n`` times (truncation,
# a type swapped at a key, a key removed or renamed, huge, negative and non-whole numbers,
# deep nesting, bytes that are not UTF-8) and reads it as the command line would. Each
# mutant must load (and then play on) or be refused with a MnrulesError that names the
# file; any other exception fails. They return how many mutants were read and refused.
DEEP = "\x00deep\x00"   # stands for a nesting too deep to serialise with json.dumps


def _hostile_value(rng: random.Random) -> object:
    return rng.choice([None, True, False, 0, -1, -(10**6), 10**6, 10**30, 2**63, -(2**64),
                       1.5, -0.0, float("nan"), "", "x", "gaul", "LATIUM", "legion", "coin",
                       "os.system", "é" * 50, [], {}, [1], {"step": "round"}, [[["x"]]],
                       {"": None}, DEEP])


def _paths(data: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out.extend(_paths(v, (*path, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(_paths(v, (*path, i)))
    return out


def _mutate_data(data: object, rng: random.Random) -> object:
    """One structural mutation somewhere in a copy of ``data``."""
    data = copy.deepcopy(data)
    path = rng.choice(_paths(data)[1:] or [()])
    if not path:
        return _hostile_value(rng)
    parent: Any = data
    for part in path[:-1]:
        parent = parent[part]
    key = path[-1]
    op = rng.randrange(6)
    if op == 0 and isinstance(parent, dict):
        del parent[key]
    elif op == 1 and isinstance(parent, dict):
        parent[f"{key}_"] = parent.pop(key)
    elif op == 2:
        value = parent[key]
        parent[key] = value * 10**rng.choice([3, 20]) if type(value) is int else [value]
    elif op == 3:
        value = parent[key]
        parent[key] = -value - 1 if type(value) is int else {str(key): value}
    else:
        parent[key] = _hostile_value(rng)
    return data


def _mutate_bytes(text: bytes, rng: random.Random) -> bytes:
    """One byte-level accident: truncation, a byte that is not UTF-8, a long number."""
    at = rng.randrange(len(text) + 1)
    op = rng.randrange(4)
    if op == 0:
        return text[:at]
    if op == 1:
        return text[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]) + text[at:]
    if op == 2:
        digits = text.find(b":", at)
        return text if digits < 0 else text[:digits + 1] + b"9" * 5000 + text[digits + 1:]
    return text[:at] + b"[" * 50_000 + text[at:]


def _dumps(data: object) -> bytes:
    deep = "[" * 5000 + "]" * 5000
    return json.dumps(data, ensure_ascii=False).replace(json.dumps(DEEP), deep).encode()


def _named(exc: BaseException, path: Path) -> None:
    assert isinstance(exc, MnrulesError), f"{type(exc).__name__}: {exc}"
    assert str(exc).startswith(str(path)), f"no place named: {exc}"


@functools.cache
def _rules(pack: str = "en") -> Ruleset:
    return load_ruleset(pack)


@functools.cache
def _base_save() -> bytes:
    game = new_game(_rules(), 4, seed=5)
    bot = RandomBot(5)
    while game.state.round < 2 or game.pending is None or \
            game.pending.kind != "military.legion":
        game.apply(bot.choose(game))
    return json.dumps({"format": "mnrules-save/1", "engine": "0", "pack": "en",
                       "variant": None, "state": game.snapshot().to_dict()}).encode()


def hostile_saves(n: int, seed: int, budget: float | None = None) -> Counter[str]:
    """``n`` mutated saves (fewer if ``budget`` seconds run out), each loaded and played
    on as ``mnrules play --load`` would."""
    rng = random.Random(seed)
    base = _base_save()
    data = json.loads(base)
    seen: Counter[str] = Counter()
    end = time.monotonic() + budget if budget else None
    with tempfile.TemporaryDirectory(prefix="hostile-") as folder:  # a folder a user names
        path = Path(folder) / "g.save"
        for i in range(n):
            if end is not None and time.monotonic() > end:
                break
            mutant = _mutate_bytes(base, rng) if rng.random() < 0.3 else \
                _dumps(_mutate_data(data, rng))
            path.write_bytes(mutant)
            try:
                # the pack's own loading is tried on one mutant in ten (it is the slow part)
                game, _, _ = load(path, None if i % 10 == 0 else _rules())
            except Exception as exc:
                _named(exc, path)
                seen["refused"] += 1
                continue
            for _ in range(40):   # a save that loads plays on
                dec = game.pending
                if dec is None:
                    break
                game.apply(dec.options[rng.randrange(len(dec.options))])
            seen["loaded"] += 1
    return seen


@functools.cache
def _base_log() -> list[str]:
    with tempfile.TemporaryDirectory(prefix="hostile-") as folder:  # a folder a user names
        path = Path(folder) / "g.jsonl"
        assert main(["play", "--edition", "en",
                     "--seed", "4", "--players", "3", "--rounds", "1", "--log",
                     str(path)]) == 0
        return path.read_text().splitlines()


def hostile_logs(n: int, seed: int, budget: float | None = None) -> Counter[str]:
    """``n`` mutated logs, each replayed as ``mnrules replay`` would."""
    rng = random.Random(seed)
    lines = _base_log()
    seen: Counter[str] = Counter()
    end = time.monotonic() + budget if budget else None
    with tempfile.TemporaryDirectory(prefix="hostile-") as folder:  # a folder a user names
        path = Path(folder) / "g.jsonl"
        for i in range(n):
            if end is not None and time.monotonic() > end:
                break
            mutant = list(lines)
            j = rng.choice([0, 0, *range(len(mutant))])
            op = rng.randrange(5)
            if op == 0:
                mutant[j] = _dumps(_mutate_data(json.loads(mutant[j]), rng)).decode()
            elif op == 1:
                mutant = mutant[:j] + mutant[j + 1:]
            elif op == 2:
                mutant.insert(j, mutant[rng.randrange(len(mutant))])
            text = "\n".join(mutant).encode() + b"\n"
            if op == 3:
                text = _mutate_bytes(text, rng)
            path.write_bytes(text)
            try:
                result = replay(path, None if i % 10 == 0 else _rules(),
                                until_round=rng.choice([None, None, 2]))
            except Exception as exc:
                _named(exc, path)
                seen["refused"] += 1
                continue
            seen["diverged" if result.divergence else "replayed"] += 1
    return seen


SCENARIO_FILES = sorted((TESTS / "mare_nostrum" / "scenarios").glob("*.yaml"))


def hostile_scenarios(n: int, seed: int, budget: float | None = None) -> Counter[str]:
    """``n`` mutated scenario files, each run as ``mnrules scenario run`` would (under
    the first edition each names)."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    end = time.monotonic() + budget if budget else None
    with tempfile.TemporaryDirectory(prefix="hostile-") as folder:  # a folder a user names
        path = Path(folder) / "s.yaml"
        for _ in range(n):
            if end is not None and time.monotonic() > end:
                break
            text = rng.choice(SCENARIO_FILES).read_bytes()
            if rng.random() < 0.3:
                mutant = _mutate_bytes(text, rng)
            else:
                data = _mutate_data(yaml.safe_load(text), rng)
                mutant = yaml.safe_dump(data, allow_unicode=True).replace(
                    yaml.safe_dump(DEEP).split("\n")[0], "[" * 5000 + "]" * 5000).encode()
            path.write_bytes(mutant)
            try:
                from mnrules.tools.scenario import editions, run
                from mnrules.tools.scenario import load as load_scenario

                _, data = load_scenario(path)
                outcomes = list(run(path, only=editions(data)[0]))
            except Exception as exc:
                _named(exc, path)
                seen["refused"] += 1
                continue
            seen["ran" if all(o.ok for o in outcomes) else "failed"] += 1
    return seen


@pytest.mark.parametrize("generator", [hostile_saves, hostile_logs, hostile_scenarios])
def test_hostile_inputs_load_or_are_refused_naming_the_file(
        generator: Callable[..., Counter[str]]) -> None:
    seen = generator(120, seed=1)
    assert seen["refused"] >= 10 and sum(seen.values()) == 120, seen
