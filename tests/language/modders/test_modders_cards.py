"""A modder's heroes and wonders (modder/cards), written as pure scripts from the
guide: each is proved in a position by its scenario (modder/scenarios/ID.yaml),
and the same scenario played without the card fails, so the power is what makes it
pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mnrules.tools.scenario import run

HERE = Path(__file__).resolve().parent
FOLDERS = {"modder": 20, "modder2": 12, "modder3": 16, "place": 6}
"""Each modder's folder (modder: the first; modder2: a second, who wrote from
the docs alone; modder3: cards that needed words the language lacked: a cost by
the kind of item, a purchase by its item, a building in the battle's province, a unit's
move, a pillage in one's province, an action's number per a count, an action inside a
replacement, a price of two resources together, a take in the trade, a battle read by
a unit lost, where a purchase goes, a good of one's choice given back, a tribute from
each opponent, a comparison written the English way at a phase's end; place: cards written only with
the words of place, issue 35's item 4) and how many cards each holds."""
CASES = [(folder, p.stem) for folder in FOLDERS
         for p in sorted((HERE / folder / "cards").glob("*.yaml"))]


def scenario(folder: str, cid: str) -> Path:
    return HERE / folder / "scenarios" / f"{cid}.yaml"


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_modders_cards_have_their_scenarios_and_no_python(folder: str) -> None:
    cards = sorted(p.stem for p in (HERE / folder / "cards").glob("*.yaml"))
    assert len(cards) >= FOLDERS[folder]
    assert sorted(p.stem for p in (HERE / folder / "scenarios").glob("*.yaml")) == cards
    variant = yaml.safe_load((HERE / folder / "variant.yaml").read_text(encoding="utf-8"))
    assert "plugins" not in variant           # pure scripts: no plugin beside them
    assert not list((HERE / folder).rglob("*.py"))


@pytest.mark.parametrize(("folder", "cid"), CASES)
def test_the_power_plays_as_its_card_says(folder: str, cid: str) -> None:
    outcomes = list(run(scenario(folder, cid)))
    assert outcomes and all(o.ok for o in outcomes), [o.failures for o in outcomes]


def _without(folder: str, cid: str, data: dict[str, Any]) -> dict[str, Any]:
    tiles = data["position"]["tiles"]
    data["position"]["tiles"] = {p: [t for t in ts if t != cid] for p, ts in tiles.items()}
    data["variant"] = str(HERE / folder / "variant.yaml")
    return data


@pytest.mark.parametrize(("folder", "cid"), CASES)
def test_without_the_card_the_scenario_fails(folder: str, cid: str, tmp_path: Path) -> None:
    data = yaml.safe_load(scenario(folder, cid).read_text(encoding="utf-8"))
    assert any(cid in ts for ts in data["position"]["tiles"].values())
    f = tmp_path / f"{cid}.yaml"
    f.write_text(yaml.safe_dump(_without(folder, cid, data)), encoding="utf-8")
    assert not all(o.ok for o in run(f))
