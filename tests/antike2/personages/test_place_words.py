"""Know-how written only with the words of place (issue 35, item 4): the region of a
founding read against the board — on the coast, next to a city of yours, a universal
site (the Orient side), and the count of your cities around it. Each card is proved by
its scenario (place/scenarios/ID.yaml), and the same scenario without the card fails."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mnrules import load_ruleset
from mnrules.errors import MnrulesError
from mnrules.tools.scenario import run

HERE = Path(__file__).resolve().parent / "place"
CARDS = sorted(p.stem for p in (HERE / "cards").glob("*.yaml"))


def test_each_card_has_its_scenario_and_no_python() -> None:
    assert len(CARDS) >= 4
    assert sorted(p.stem for p in (HERE / "scenarios").glob("*.yaml")) == CARDS
    assert not list(HERE.rglob("*.py"))


@pytest.mark.parametrize("cid", CARDS)
def test_the_power_plays_as_its_card_says(cid: str) -> None:
    outcomes = list(run(HERE / "scenarios" / f"{cid}.yaml"))
    assert outcomes and all(o.ok for o in outcomes), [o.failures for o in outcomes]


@pytest.mark.parametrize("cid", CARDS)
def test_without_the_card_the_scenario_fails(cid: str, tmp_path: Path) -> None:
    data = yaml.safe_load((HERE / "scenarios" / f"{cid}.yaml").read_text(encoding="utf-8"))
    known = data["position"]["know_how"]
    assert any(cid in cards for cards in known.values())
    data["position"]["know_how"] = {n: [c for c in cards if c != cid]
                                    for n, cards in known.items()}
    data["variant"] = str(HERE / Path(data["variant"]).name)
    f = tmp_path / f"{cid}.yaml"
    f.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert not all(o.ok for o in run(f))


def test_a_word_of_place_is_refused_where_no_area_is(tmp_path: Path) -> None:
    """The rondel's move happens nowhere on the map: a rule after it cannot ask where."""
    card = tmp_path / "cards" / "nowhere.yaml"
    card.parent.mkdir()
    card.write_text((HERE / "cards" / "harbour_works.yaml").read_text(encoding="utf-8")
                    .replace("harbour_works", "nowhere").replace("after found", "after rondel"),
                    encoding="utf-8")
    variant = tmp_path / "v.yaml"
    variant.write_text(f"extends: antike2\ncards:\n  add: [{card.parent}]\nparams:\n"
                       "  know_how:\n    nowhere: {first: 6, later: 3, after: ''}\n",
                       encoding="utf-8")
    with pytest.raises(MnrulesError, match="the region is on the coast"):
        load_ruleset(variant)
