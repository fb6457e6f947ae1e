"""Antike II's packs: every mistake in a variant is refused before a game, naming the
file, line and key; the book's variants and the Orient side load; the packs' names."""

from __future__ import annotations

from pathlib import Path

import pytest

from a2_helpers import variant_file
from mnrules import load_ruleset
from mnrules.content.packs import list_packs
from mnrules.errors import MnrulesError


@pytest.mark.parametrize(("text", "says"), [
    ("params: {rondel: [ferrum, templum, aurum, movere, militia, marmor, scientia, movre]}",
     "v.yaml:2:"),
    ("params: {rondel: [ferrum, templum, aurum]}", "8 to 8 items"),
    ("components: {personages: {kings: 3}}", "did you mean 'king'"),
    ("components: {temples: -1}", "components.temples"),
    ("params: {know_how: {moneta: {after: metalum}}}", "did you mean 'metallum'"),
    ("cards: {remove: [strata]}", "params.know_how.strata"),
    ("params: {personage_target: {'4': 0}}", "personage_target"),
])
def test_a_broken_variant_is_refused_with_its_place(tmp_path: Path, text: str,
                                                    says: str) -> None:
    with pytest.raises(MnrulesError) as caught:
        load_ruleset("antike2", variant=variant_file(tmp_path, text))
    assert says in str(caught.value)


@pytest.mark.parametrize("name", ["orient", "nine_scholars", "free_city_resource"])
def test_the_shipped_variants_load(name: str) -> None:
    rules = load_ruleset("antike2", variant=f"editions/antike2/variants/{name}.yaml")
    assert sorted(rules.seating) == [3, 4, 5, 6]


def test_a_pack_extends_the_orient_side_by_its_id(tmp_path: Path) -> None:
    """The bug of issue 35: only a path into the checkout reached the Orient side."""
    folder = tmp_path / "my-orient"
    folder.mkdir()
    (folder / "pack.yaml").write_text(
        "format: mnrules-pack/1\nextends: antike2-orient\nid: my-orient\n"
        "name: My Orient\nparams: {personage_target: {'4': 8}}\n", encoding="utf-8")
    mine = load_ruleset(str(folder))
    orient = load_ruleset("antike2-orient")
    assert mine.board.side == orient.board.side == "orient"
    assert mine.data["params"]["personage_target"]["4"] == 8
    assert load_ruleset("antike2").board.side != "orient"
    variant = tmp_path / "v.yaml"        # a variant file extends it as well
    variant.write_text("extends: antike2-orient\n", encoding="utf-8")
    assert load_ruleset("antike2", variant=str(variant)).board.side == "orient"


def test_the_packs_ids_do_not_clash_with_mare_nostrums() -> None:
    packs = list_packs()
    assert packs["antike2"] == "antike2/antike2" and packs["en"] == "mare_nostrum/en"
    assert {p for p, q in packs.items() if q.startswith("antike2/")} >= {
        "antike2", "antike2-ru", "antike2-la", "antike2-orient"}
    ru = load_ruleset("antike2-ru")
    assert ru.language == "ru" and ru.name("militia", "spaces") == "Militia (ополчение)"


def test_a_rondel_action_played_by_two_plugins_is_refused(tmp_path: Path) -> None:
    (tmp_path / "second_militia.py").write_text(
        "from mnrules.hooks.hookspecs import hookimpl\n\n\n@hookimpl\n"
        "def a2_actions() -> dict[str, str]:\n    return {'militia': 'a2.templum'}\n",
        encoding="utf-8")
    with pytest.raises(MnrulesError, match="'militia' is played by two plugins"):
        load_ruleset("antike2",
                     variant=variant_file(tmp_path, "plugins: {add: [second_militia.py]}"))
