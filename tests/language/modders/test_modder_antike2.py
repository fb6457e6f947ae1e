"""A second outside modder's Antike II know-how and personage (modder2/antike2),
written from the docs alone: each is proved in a position by its scenario, and the same
scenario played without the card fails, so the power is what makes it pass. (His Mare
Nostrum heroes and wonders are played with the first modder's, test_modders_cards.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mnrules.tools.scenario import run

MODDER = Path(__file__).resolve().parent / "modder2"


ANTIKE = MODDER / "antike2"
A2_CARDS = sorted(p.stem for p in ANTIKE.glob("*/*.yaml") if p.parent.name != "scenarios")


def test_antike2_three_know_how_and_a_personage_each_with_its_scenario() -> None:
    assert len(A2_CARDS) >= 4
    assert sorted(p.stem for p in (ANTIKE / "scenarios").glob("*.yaml")) == A2_CARDS


@pytest.mark.parametrize("cid", A2_CARDS)
def test_antike2_power_plays_as_its_card_says(cid: str) -> None:
    outcomes = list(run(ANTIKE / "scenarios" / f"{cid}.yaml"))
    assert outcomes and all(o.ok for o in outcomes), [o.failures for o in outcomes]


@pytest.mark.parametrize("cid", A2_CARDS)
def test_antike2_without_the_card_the_scenario_fails(cid: str, tmp_path: Path) -> None:
    """A know-how unlearnt; the personage's card left out of the pack."""
    data = yaml.safe_load((ANTIKE / "scenarios" / f"{cid}.yaml").read_text(encoding="utf-8"))
    variant = yaml.safe_load((ANTIKE / "variant.yaml").read_text(encoding="utf-8"))
    learnt = data["position"].get("know_how", {})
    if any(cid in ks for ks in learnt.values()):
        data["position"]["know_how"] = {n: [k for k in ks if k != cid]
                                        for n, ks in learnt.items()}
    else:
        variant["cards"]["add"] = [str(ANTIKE / "know_how")]
        del variant["components"]
    (tmp_path / "variant.yaml").write_text(yaml.safe_dump(variant), encoding="utf-8")
    data["variant"] = "variant.yaml"
    f = tmp_path / f"{cid}.yaml"
    f.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert not all(o.ok for o in run(f))
