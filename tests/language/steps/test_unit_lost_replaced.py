"""'instead of losing a unit': the battle performs ``unit_lost`` (card word ``unit.lost``)
once per unit a side loses, so a card may replace a loss (``cancel it``: the unit stays,
the hit is spent) or react to it; ``the unit is {unit}`` reads which kind was lost. Rome
(3 legions, and a fortress that shields a hit) attacks Egypt (2 legions, 3 against the
fortress) in Cyrenaica; Rome's dice are blanks and Rome takes two hits."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnrules.tools.scenario import run

SCENARIO = """scenario: a card of Rome's and his battle losses
edition: en
variant: variant.yaml
position:
  round: 2
  titles: {{military: rome}}
  control: {{CYRENAICA: egypt}}
  units:
    CYRENAICA: {{rome: {{legion: 3{fortress}}}, egypt: {{legion: {egypt}}}}}
  tiles: {{rome: [hero]}}
  phase: military
forced:
  land die: {dice}
choices:
  - rome
  - [done]
{losses}
expect:
  units: {{CYRENAICA: {{rome: {left}}}}}
  resources: {{rome: {coins}}}
"""


def _play(tmp_path: Path, script: str, left: str, coins: str = "{}", fortress: bool = False,
          losses: tuple[str, ...] = ()) -> list[list[str]]:
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "hero.yaml").write_text(
        "id: hero\nkind: hero\nbonuses: {}\nnames: {en: Hero}\neffects: |\n  " + script + "\n",
        encoding="utf-8")
    (tmp_path / "variant.yaml").write_text("extends: en\ncards:\n  add: [./cards]\n",
                                           encoding="utf-8")
    f = tmp_path / "s.yaml"
    # a fortress shields one hit: Egypt has a third legion then
    dice = "[0, 0, 0, 5, 5, 5]" if fortress else "[0, 0, 0, 5, 5]"
    f.write_text(SCENARIO.format(fortress=", fortress: 1" if fortress else "", left=left,
                                 dice=dice, egypt=3 if fortress else 2,
                                 coins=coins,
                                 losses="\n".join(f"  - {x}" for x in losses)),
                 encoding="utf-8")
    return [o.failures for o in run(f)]


def test_a_legion_lost_may_be_kept_once_per_round(tmp_path: Path) -> None:
    assert _play(tmp_path, "once per round replace unit.lost when the unit is legion: "
                 "cancel it", "{legion: 2}") == [[]]


def test_without_the_limit_every_legion_is_kept(tmp_path: Path) -> None:
    assert _play(tmp_path, "replace unit.lost when the unit is legion: cancel it",
                 "{legion: 3}") == [[]]


def test_the_unit_is_reads_the_kind_lost(tmp_path: Path) -> None:
    """Rome loses his fortress first (his choice), then a legion: only the legion is
    kept."""
    assert _play(tmp_path, "replace unit.lost when the unit is legion: cancel it",
                 "{legion: 3}", fortress=True, losses=("fortress",)) == [[]]


@pytest.mark.parametrize("kind", ["legion", "fortress"])
def test_a_trigger_runs_once_per_unit_lost(tmp_path: Path, kind: str) -> None:
    left = "{legion: 1, fortress: 1}" if kind == "legion" else "{legion: 2}"
    losses = ("legion", "legion") if kind == "legion" else ("fortress",)
    assert _play(tmp_path, "after unit.lost: take 1 coin", left, "{coin: 2}",
                 fortress=True, losses=losses) == [[]]
