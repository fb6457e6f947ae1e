"""Speed work changes how fast a game is played, never which game: the guard set of
seeded games (every pack, 3 to 5 players, the random, heuristic and search bots) gives
the whole choice history and final state recorded before any optimisation
(``tests/speed_digests.json``). A change meant to alter the games (a rule, a bot)
re-records them: ``python benchmarks/games.py --record``, said in its commit."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _games() -> ModuleType:
    spec = importlib.util.spec_from_file_location("speed_games", ROOT / "benchmarks" /
                                                  "games.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["speed_games"] = module   # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


games = _games()
RECORDED = json.loads((ROOT / "tests" / "speed_digests.json").read_text(encoding="utf-8"))


def test_every_guard_game_is_recorded() -> None:
    assert sorted(RECORDED) == sorted(s.name for s in games.GUARD)


@pytest.mark.parametrize("spec", games.GUARD, ids=lambda s: s.name)
def test_a_seeded_game_plays_as_recorded(spec: Any) -> None:
    decisions, history, final = games.play(spec)
    assert {"decisions": decisions, "history": history, "state": final} == \
        RECORDED[spec.name], ("this game no longer plays as recorded; if a rule or a bot "
                              "was meant to change it, re-record: python benchmarks/games.py "
                              "--record")


def test_a_game_played_after_others_is_the_game_played_first() -> None:
    first = games.GUARD[0]
    for other in games.GUARD[-3:]:
        games.play(other)
    decisions, history, final = games.play(first)
    assert RECORDED[first.name] == {"decisions": decisions, "history": history,
                                    "state": final}
