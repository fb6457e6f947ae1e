"""Reliability: fuzzed games keep every invariant, fuzzed scripts only ever give the
documented error, games are deterministic across processes, and hostile input gets a
clean error."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnrules import load_ruleset, new_game
from mnrules.content.card_files import read_card
from mnrules.content.ruleset import Ruleset, vocabulary
from mnrules.content.yamlsource import SourceError, load_yaml
from mnrules.core.engine import Game, InvariantError
from mnrules.core.invariants import check
from mnrules.core.start import load_game
from mnrules.errors import MnrulesError, StateError
from mnrules.frontends.cli import main
from mnrules.language.compiler import compile_card
from mnrules.language.syntax import ScriptError, parse_script
from mnrules.tools.fuzz import fuzz, shrink, write_log
from mnrules.tools.log import replay

EDITIONS = ["en", "nl", "fr", "pl", "uk"]
RULES = {e: load_ruleset(e) for e in EDITIONS}


# -- random games --------------------------------------------------------------------------
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), edition=st.sampled_from(EDITIONS),
       players=st.sampled_from([3, 4, 5]))
def test_fuzzed_games_keep_every_invariant(seed: int, edition: str, players: int) -> None:
    game = new_game(RULES[edition], players, seed=seed, round_cap=5)
    game.checker = check            # raises InvariantError on the first broken invariant
    rng = random.Random(seed)
    while (dec := game.pending) is not None:
        game.apply(dec.options[rng.randrange(len(dec.options))])
    assert game.state.round == 6 or game.state.finished


def test_fuzz_reports_shrinks_and_logs_a_failure(tmp_path: Path) -> None:
    """A planted bug (an invariant that breaks once a legion stands in the sea's
    neighbour province of its owner's second round) is found, shrunk and replayable."""
    def buggy(game: Game) -> list[str]:
        st_ = game.state
        return ["planted: a trireme was built"] if any(
            "trireme" in u for here in st_.units.values() for u in here.values()) else []

    games, _, failures = fuzz(4, seed=3, editions=["en"], players=[5],
                                      round_cap=3, checker=buggy, shrink_budget=5,
                                      rules_for=lambda e: RULES[e])
    assert games == 4 and failures
    f = failures[0]
    assert "planted" in f.error and f.seed
    assert len(f.shrunk) <= len(f.indices)
    assert sum(1 for i in f.shrunk if i) <= sum(1 for i in f.indices if i)
    again = shrink(RULES["en"], f, 3, budget=0.1, checker=buggy)
    assert again  # still a reproduction
    log = tmp_path / "fail.jsonl"
    write_log(f, str(log), 3)
    result = replay(log)
    assert result.divergence is None and result.choices >= 1


def test_fuzz_command_runs_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--games", "3", "--editions", "uk", "--round-cap", "2",
                 "--quiet"]) == 0
    assert "0 failure(s)" in capsys.readouterr().out


def test_the_invariant_checker_stops_a_broken_game(rules: Ruleset) -> None:
    game = new_game(rules, 5, seed=1)
    game.checker = check
    game.state.supply["coin"] += 1      # a coin from nowhere
    with pytest.raises(InvariantError, match=r"coin: supply .* != box 44"):
        game.apply(game.legal()[0])


# -- determinism ---------------------------------------------------------------------------
SCRIPT = """
import hashlib, sys
from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
g = new_game(load_ruleset(sys.argv[1]), 5, seed=11, round_cap=6); b = RandomBot(3)
while g.pending is not None: g.apply(b.choose(g))
print(hashlib.sha256(g.snapshot().to_json().encode()).hexdigest())
"""


@pytest.mark.parametrize("edition", ["en", "fr"])
def test_same_pack_seed_and_choices_give_the_same_state_across_processes(edition: str
                                                                         ) -> None:
    digests = set()
    for hashseed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        out = subprocess.run([sys.executable, "-c", SCRIPT, edition], capture_output=True,
                             text=True, env=env, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


# -- fuzzed scripts ------------------------------------------------------------------------
SCRIPTS = [c.effects for c in RULES["en"].cards.values() if c.effects] + \
    [c.effects for c in RULES["uk"].cards.values() if c.effects]
TOKENS = ["modify", "after", "replace", "offer", "when", "and", "or", "not", ":", ",", "(",
          ")", "add", "per", "for", "free", "once", "round", "you", "may", "1", "99",
          "battle.total", "land", "__import__", "os.system", "eval", "{", "}", "'", '"',
          "\n", "\n    ", "#", "é", "\x00", "🙂", ".", "legion", "die", "choose", "to"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SCRIPTS))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "tokens"]))
        i = draw(st.integers(0, len(text)))
        if op == "insert":
            text = text[:i] + draw(st.sampled_from(TOKENS)) + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 12)):]
        elif op == "replace":
            text = text[:i] + draw(st.text(max_size=6)) + text[i + 3:]
        else:
            words = text.split(" ")
            j = draw(st.integers(0, len(words) - 1))
            words[j] = draw(st.sampled_from(TOKENS))
            text = " ".join(words)
    return text


def _compile(script: str) -> None:
    card = read_card(next(Path(c.file) for c in RULES["en"].cards.values()
                          if c.id == "caesar"))
    parsed = parse_script(script, "fuzzed.yaml", 1, 1)
    compile_card(card, vocabulary(RULES["en"]), parsed, script.splitlines())


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_fuzzed_scripts_only_give_the_documented_error(script: str) -> None:
    try:
        _compile(script)
    except ScriptError as err:
        assert err.problems
        for p in err.problems:
            assert p.line >= 1 and p.column >= 1 and p.message
            assert "^" in str(p)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_only_gives_the_documented_error(script: str) -> None:
    try:
        _compile(script)
    except ScriptError as err:
        assert all(p.line >= 1 and p.column >= 1 for p in err.problems)


def test_a_huge_script_is_refused_not_hung() -> None:
    with pytest.raises(ScriptError, match="at most"):
        _compile("modify battle.total: add 1\n" * 200)
    _compile("modify battle.total when " + "(" * 3000 + "land battle" + ")" * 3000
             + ": add 1")                     # parentheses alone add no depth
    with pytest.raises(ScriptError, match="nests more than 32 deep"):
        _compile("modify battle.total when " + "not (" * 2000 + "land battle" + ")" * 2000
                 + ": add 1")


# -- hostile files ------------------------------------------------------------------------
def test_yaml_is_loaded_safely(tmp_path: Path) -> None:
    f = tmp_path / "evil.yaml"
    f.write_text("a: !!python/object/apply:os.system ['echo owned']\n")
    with pytest.raises(SourceError, match=r"evil\.yaml:1"):
        load_yaml(f)
    f.write_text("a: &x [*x]\n")
    with pytest.raises(SourceError):
        load_yaml(f)


@pytest.mark.parametrize(("patch", "message"), [
    ({"round": "three"}, "round: expected int"),
    ({"players": ["rome", 7]}, r"players\[1\]: expected str"),
    ({"units": {"LATIUM": {"rome": {"legion": "many"}}}}, "units.LATIUM.rome.legion"),
    ({"screens": []}, "screens: expected a dict"),
    ({"control": {"ATLANTIS": "rome"}}, "'ATLANTIS' is not a province"),
    ({"players": ["rome", "greece", "babylon", "egypt", "gaul"]}, "'gaul' is not an empire"),
    ({"tiles": {"rome": ["excalibur"]}}, "no card 'excalibur'"),
    ({"stack": [{"step": "os.system"}]}, "no plugin provides the step 'os.system'"),
    ({"rng": [1, 2]}, "rng: not a random generator state"),
])
def test_a_hostile_state_file_gets_a_clean_error(rules: Ruleset, patch: dict[str, object],
                                                 message: str) -> None:
    data = new_game(rules, 5, seed=1).snapshot().to_dict()
    data.update(patch)
    with pytest.raises(StateError, match=message):
        load_game(rules, json.loads(json.dumps(data)))


def test_bad_command_line_values_name_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--edition", "en", "--players", "6"]) == 2
    assert "--players: this game plays with 3, 4, 5 players, not 6" in capsys.readouterr().err
    assert main(["play", "--edition", "frr", "--rounds", "1"]) == 2
    assert "unknown edition 'frr'; did you mean 'fr'?" in capsys.readouterr().err
    assert main(["play", "--edition", "en", "--bots", "random,random", "--rounds", "1"]) == 2
    assert "--bots: give one bot kind or one per player (5), not 2" in \
        capsys.readouterr().err
    assert main(["play", "--edition", "en", "--human", "gaul", "--rounds", "1"]) == 2
    assert "--human: 'gaul' is not a player of this game (name a player or his seat: 1 " \
        "Rome, 2 Greece, 3 Babylon, 4 Egypt, 5 Carthage)" in capsys.readouterr().err
    assert main(["play", "--edition", "fr", "--human", "grec", "--rounds", "1"]) == 2
    assert "did you mean 'Grèce'?" in capsys.readouterr().err


@pytest.mark.parametrize("given", ["greece", "Grèce", "GRECE", "2"])
def test_a_human_seat_is_named_by_id_name_or_number(given: str,
                                                    capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A French player types his empire as he reads it, with or without its accent, or
    his seat; each names Greece, who is then asked at the terminal."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--edition", "fr", "--human", given, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "== Grèce, offrez une ressource" in out and "Partie quittée." in out


def test_every_user_error_is_a_clean_message_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad_map = tmp_path / "board.yaml"
    bad_map.write_text("format: mnrules-board/1\nprovinces: {}\nseas: {}\nplayrs: {}\n")
    assert main(["map", "check", str(bad_map)]) == 1
    err = capsys.readouterr().err
    assert "board.yaml" in err and "Traceback" not in err
    bad_state = tmp_path / "s.json"
    bad_state.write_text("{not json")
    assert main(["render", "--edition", "en", str(bad_state), "-o", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mnrules: error:") and "Traceback" not in err
    with pytest.raises(MnrulesError):
        load_ruleset(tmp_path / "nope.yaml")


def test_fuzz_defaults_cover_whole_games_at_every_player_count(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Antike II seats 3 to 6 nations and runs to 3000 rounds: a default fuzz run plays
    each count to the pack's own cap, not 3 to 5 players for 30 rounds (openings)."""
    import mnrules.tools.fuzz as fz

    seen: list[tuple[str, int, int]] = []

    def played(rules: Ruleset, players: int, seed: int, pick: Any, cap: int,
               checker: Any = None) -> tuple[Any, list[int], None]:
        seen.append((rules.game, players, cap))
        return None, [], None

    monkeypatch.setattr(fz, "_play", played)
    assert main(["fuzz", "--game", "antike2", "--games", "8", "--quiet"]) == 0
    assert sorted({n for _, n, _ in seen}) == [3, 4, 5, 6]
    assert {cap for _, _, cap in seen} == {3000}
    seen.clear()
    assert main(["fuzz", "--games", "5", "--quiet"]) == 0
    assert {cap for _, _, cap in seen} == {60}
    assert "8 games" in capsys.readouterr().out
