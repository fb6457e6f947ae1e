"""A scenario's `tiles`: each player's list is given on top of what he holds (the
empire's starting hero), and an empty list means he holds none (issue 35: `tiles:
{rome: []}` silently kept Caesar)."""

from __future__ import annotations

from pathlib import Path

from mnrules.tools.scenario import run

SCENARIO = """\
scenario: tiles held
edition: en
players: 3
position:
  round: 2
  tiles: {TILES}
  phase: trade
expect:
  tiles: {EXPECT}
"""


def failures(tmp_path: Path, tiles: str, expect: str) -> list[list[str]]:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("{TILES}", tiles).replace("{EXPECT}", expect),
                    encoding="utf-8")
    return [o.failures for o in run(path)]


def test_an_empty_list_means_no_tile_not_even_the_starting_hero(tmp_path: Path) -> None:
    assert failures(tmp_path, "{rome: []}", "{rome: []}") == [[]]


def test_a_list_is_given_beside_the_starting_hero(tmp_path: Path) -> None:
    assert failures(tmp_path, "{rome: [hamilcar]}", "{rome: [caesar, hamilcar]}") == [[]]
    assert failures(tmp_path, "{rome: []}", "{rome: [caesar]}") != [[]]
