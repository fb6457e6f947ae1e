"""Snapshots and saves through plain containers (issue 15): a snapshot is the state as
``asdict`` would copy it, sharing nothing with the game; a save writes the generator as
its twists from the game's seed (a few bytes rather than 625 words) and loads back to
the very same generator; older saves (format /1) still load; a compact generator state
out of bounds is refused naming its key."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from mnrules import load_game, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.content.ruleset import Ruleset
from mnrules.core.engine import Game
from mnrules.core.state import MAX_TWISTS, compact_rng, expand_rng, plain_copy
from mnrules.errors import MnrulesError
from mnrules.tools.log import SAVE_FORMAT, load, save


def _played(rules: Ruleset, choices: int, seed: int = 4) -> Game[Any]:
    game = new_game(rules, 5, seed=seed)
    bot = RandomBot(seed)
    for _ in range(choices):
        game.apply(bot.choose(game))
    return game


def test_a_snapshot_is_what_asdict_gives_and_shares_nothing(rules: Ruleset) -> None:
    game = _played(rules, 300)
    snap = game.snapshot()
    assert snap.to_dict() == asdict(game.state)
    assert snap.to_json() == game.state.copy().to_json()
    snap.units.clear()
    snap.stack[-1]["step"] = "elsewhere"
    assert game.state.units and game.state.stack[-1]["step"] != "elsewhere"


def test_plain_copy_keeps_no_shared_list() -> None:
    shared = [1, 2]
    copied = plain_copy({"a": shared, "b": shared, "t": (1, "x"), "f": True})
    assert copied == {"a": [1, 2], "b": [1, 2], "t": (1, "x"), "f": True}
    copied["a"].append(3)
    assert copied["b"] == [1, 2]


@pytest.mark.parametrize("draws", [0, 1, 623, 624, 625, 5000])
def test_a_generator_is_its_seed_and_its_twists(draws: int) -> None:
    gen = random.Random(77)
    for _ in range(draws):
        gen.getrandbits(32)
    gen.gauss(0, 1)  # a spare Gaussian kept
    kind, words, gauss = gen.getstate()
    whole = [kind, list(words), gauss]
    compact = compact_rng(77, whole)
    assert isinstance(compact, dict) and set(compact) == {"twists", "index", "gauss"}
    assert expand_rng(77, compact) == whole


def test_a_generator_state_from_elsewhere_is_kept_whole() -> None:
    other = random.Random(5).getstate()
    whole = [other[0], list(other[1]), other[2]]
    assert compact_rng(77, whole) == whole


def test_a_save_is_half_the_old_size_and_goes_on_exactly(rules: Ruleset,
                                                          tmp_path: Path) -> None:
    game = _played(rules, 700)
    path = tmp_path / "g.save"
    save(game, "en", None, path)
    data = json.loads(path.read_text())
    assert data["format"] == SAVE_FORMAT and isinstance(data["state"]["rng"], dict)
    old = json.dumps({**data, "format": "mnrules-save/1",
                      "state": game.snapshot().to_dict()}, ensure_ascii=False)
    assert path.stat().st_size * 2 <= len(old.encode())
    loaded, _, _ = load(path, rules)
    assert loaded.rng.getstate() == game.rng.getstate()
    bot = RandomBot(9)
    for g in (game, loaded):
        for _ in range(200):
            if g.pending is None:
                break
            g.apply(bot.choose(g))
    assert loaded.snapshot().to_json() == game.snapshot().to_json()


def test_an_old_save_still_loads(rules: Ruleset, tmp_path: Path) -> None:
    game = _played(rules, 200)
    path = tmp_path / "old.save"
    path.write_text(json.dumps({"format": "mnrules-save/1", "engine": "0.1.0", "pack": "en",
                                "variant": None, "state": game.snapshot().to_dict()}))
    loaded, _, _ = load(path, rules)
    assert loaded.snapshot().to_json() == game.snapshot().to_json()


@pytest.mark.parametrize("bad", [
    {"twists": MAX_TWISTS + 1, "index": 3, "gauss": None},
    {"twists": 1, "index": 625, "gauss": None},
    {"twists": -1, "index": 3, "gauss": None},
    {"twists": 1, "index": 3, "gauss": "x"},
    {"twists": 1, "index": 3},
    {"twists": True, "index": 3, "gauss": None},
])
def test_a_compact_generator_out_of_bounds_is_refused(rules: Ruleset, tmp_path: Path,
                                                      bad: dict[str, object]) -> None:
    path = tmp_path / "g.save"
    save(_played(rules, 50), "en", None, path)
    data = json.loads(path.read_text())
    data["state"]["rng"] = bad
    path.write_text(json.dumps(data))
    with pytest.raises(MnrulesError, match=r"g\.save: state\.rng: not a compact generator"):
        load(path, rules)


def test_a_loaded_snapshot_is_still_checked(rules: Ruleset) -> None:
    data = _played(rules, 50).snapshot().to_dict()
    data["round"] = -1
    with pytest.raises(MnrulesError, match="round"):
        load_game(rules, data)
