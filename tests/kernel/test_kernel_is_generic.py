"""The kernel knows no game: a tiny third game (tic-tac-toe, a pack and one plugin file
beside it, no kernel edit) plays, saves and loads, replays, runs a scenario, fuzzes and
simulates through the same tools as Mare Nostrum; and no kernel file names a game's
pieces, places or cards."""

from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from mnrules import load_game, load_ruleset, new_game
from mnrules.frontends.cli import main
from mnrules.tools.log import replay
from mnrules.tools.scenario import run

HERE = Path(__file__).parent
PACK = str(HERE / "tictactoe" / "pack.yaml")
ROOT = HERE.parent.parent


def test_tictactoe_plays_to_an_end_through_the_one_loop() -> None:
    game = new_game(load_ruleset(PACK), 2, seed=1)
    assert game.pending is not None and game.pending.kind == "place"
    while (dec := game.pending) is not None:
        game.apply(dec.options[0])          # x takes 0, 2, 4, 6: the anti-diagonal... first
    assert game.state.winners == ["x"] and game.state.victory == "line"


def test_a_saved_game_goes_on_identically(tmp_path: Path) -> None:
    rules = load_ruleset(PACK)
    whole = new_game(rules, 2, seed=5)
    half = new_game(rules, 2, seed=5)
    for _ in range(3):
        choice = half.pending.options[-1]   # type: ignore[union-attr]
        half.apply(choice)
        whole.apply(choice)
    resumed = load_game(rules, half.snapshot().to_json())
    assert type(resumed.state).__name__ == "State" and resumed.state.cells == half.state.cells
    for g in (whole, resumed):
        while (dec := g.pending) is not None:
            g.apply(dec.options[-1])
    assert resumed.state.to_json() == whole.snapshot().to_json()


def test_a_bad_save_is_refused_with_the_key() -> None:
    rules = load_ruleset(PACK)
    data = new_game(rules, 2, seed=5).snapshot().to_dict()
    data["cells"] = [1, 2]
    from mnrules.errors import StateError

    with pytest.raises(StateError, match=r"cells\[0\]: expected str"):
        load_game(rules, json.dumps(data))


def test_play_save_load_and_replay_from_the_command_line(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    save, log = tmp_path / "g.save", tmp_path / "g.jsonl"
    assert main(["play", "--edition", PACK, "--players", "2", "--seed", "4", "--rounds", "2",
                 "--save", str(save), "--log", str(log)]) == 0
    assert main(["play", "--load", str(save), "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "Tic-tac-toe; 2 players (Crosses, Noughts)" in out and "Game over" in out
    # the summary says players as the pack names them, never by id
    assert "the winner is Crosses" in out or "the winner is Noughts" in out \
        or "nobody won" in out
    assert "\n  x " not in out and "\n  o " not in out
    result = replay(log)
    assert result.game.over


def test_a_scenario_of_the_third_game() -> None:
    outcomes = list(run(HERE / "tictactoe" / "x_wins_the_diagonal.yaml"))
    assert [o.failures for o in outcomes] == [[]]


def test_fuzz_and_simulate_the_third_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--games", "20", "--editions", PACK, "--players", "2"]) == 0
    assert main(["simulate", "--edition", PACK, "--players", "2", "--games", "12",
                 "--jobs", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    # the players by the pack's names (never the ids x and o), with their figures
    assert re.search(r"\bCrosses\b.*\d", out) and re.search(r"\bNoughts\b.*\d", out)


# -- the kernel names no game ----------------------------------------------------------------
GAME_WORDS = re.compile(
    r"\b(legions?|triremes?|fortress(es)?|provinces?|empires?|caravans?|markets?|temples?|"
    r"legendary|pyramids?|rome|greece|carthage|egypt|babylon|caesar|hercules|"
    r"mare_nostrum|rondel|personages?|know_how)\b", re.IGNORECASE)
KERNEL = [p for p in (ROOT / "mnrules").rglob("*.py") if "plugins" not in p.parts]


def _code_words(path: Path) -> list[tuple[int, str]]:
    """Every name and string of a module, outside comments and docstrings."""
    found: list[tuple[int, str]] = []
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline))
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.STRING:
            before = next((t for t in reversed(tokens[:i])
                           if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                                             tokenize.DEDENT, tokenize.COMMENT)), None)
            if before is None or (before.string in (":",) and tokens[i + 1].type in (
                    tokenize.NEWLINE, tokenize.NL)):
                continue                     # a docstring
        if tok.type in (tokenize.NAME, tokenize.STRING):
            for m in GAME_WORDS.finditer(tok.string.replace("_", " ") if tok.type ==
                                         tokenize.NAME else tok.string):
                found.append((tok.start[0], m.group(0)))
    return found


@pytest.mark.parametrize("path", KERNEL, ids=[str(p.relative_to(ROOT)) for p in KERNEL])
def test_the_kernel_names_no_game(path: Path) -> None:
    assert _code_words(path) == []


def test_the_word_scan_notices_a_game_word(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text('"""A docstring may say legion."""\n# so may a comment: province\n'
                       'KIND = "legion"\n', encoding="utf-8")
    assert _code_words(planted) == [(3, "legion")]


def test_a_misspelt_hook_in_a_game_is_refused_with_the_nearest(tmp_path: Path) -> None:
    """pluggy's check_pending: ``mn_reports`` for ``mn_report`` would never be called."""
    from mnrules.errors import PackError

    for name in ("pack.yaml", "tictactoe.py"):
        (tmp_path / name).write_text((HERE / "tictactoe" / name).read_text(encoding="utf-8"),
                                     encoding="utf-8")
    game = tmp_path / "tictactoe.py"
    game.write_text(game.read_text(encoding="utf-8").replace("def mn_report(",
                                                             "def mn_reports("),
                    encoding="utf-8")
    with pytest.raises(PackError, match=r"mn_reports is no hook; did you mean 'mn_report'"):
        load_ruleset(str(tmp_path / "pack.yaml"))
