"""Reading edition packs and variants: files that extend one another and list only what
differs (plugins added, removed or replaced; cards added, removed, overridden or a named
variant selected; the board patched by key path), each mistake refused with the file, the
line and the nearest valid key. Read with the kernel's pack reader alone (no game built)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnrules import __version__
from mnrules.content import packs
from mnrules.errors import PackError


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def read(path: Path) -> packs.Pack:
    return packs.read(path, default_base="en")


def refused(path: Path, *needles: str, line: int | None = None) -> str:
    with pytest.raises(PackError) as err:
        read(path)
    message = str(err.value)
    if line is not None:
        assert f"{path}:{line}:" in message, message
    for needle in needles:
        assert needle in message, message
    return message


# -- which pack --------------------------------------------------------------------------
def test_an_unknown_edition_is_refused_with_the_nearest_and_the_known_ones() -> None:
    with pytest.raises(PackError) as err:
        packs.pack_file("enn")
    message = str(err.value)
    assert message.startswith("unknown edition 'enn'; did you mean 'en'?")
    assert "(known: " in message and "mare_nostrum/fr" in message


def test_an_edition_is_found_by_its_id_or_its_game_and_id() -> None:
    assert packs.pack_file("en") == packs.pack_file("mare_nostrum/en")
    found = packs.pack_file("en").parts   # editions/mare_nostrum/en or mare_nostrum/editions/en
    assert found[-2:] == ("en", "pack.yaml") and "mare_nostrum" in found[-4:]


def test_a_variant_extends_the_edition_it_is_played_on(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", "name: My variant\n")
    pack = read(path)
    assert pack.chain[0] == str(path) and pack.chain[-1].endswith("pack.yaml")
    assert pack.data["name"] == "My variant"
    assert pack.data["phases"] == ["production", "trade", "build", "military", "claims"]


# -- the engine a pack was written for ----------------------------------------------------
def test_a_pack_for_this_engine_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", f'engine: ">=0.1,<=99,=={__version__}"\n')
    assert read(path).data["engine"].startswith(">=0.1")


@pytest.mark.parametrize("spec", [">=99", "<0.1", f">{__version__}", f"<{__version__}",
                                  f"=={__version__}.1"])
def test_a_pack_for_another_engine_version_is_refused(tmp_path: Path, spec: str) -> None:
    path = write(tmp_path, "v.yaml", f'engine: "{spec}"\n')
    refused(path, f"engine: this pack needs mnrules {spec}, this is {__version__}", line=1)


def test_an_engine_version_is_a_comparison(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", 'engine: "0.1 or later"\n')
    refused(path, "engine: expected comparisons like '>=0.1', got '0.1 or later'", line=1)


# -- plugins ----------------------------------------------------------------------------
def test_a_variant_replaces_a_plugin_in_its_place(tmp_path: Path) -> None:
    write(tmp_path, "my_battle.py", "")
    path = write(tmp_path, "v.yaml", "plugins: {replace: {battle: my_battle.py}}\n")
    base = packs.read("en").data["plugins"]
    got = read(path).data["plugins"]
    at = base.index("battle")
    assert got == [*base[:at], str((tmp_path / "my_battle.py").resolve()), *base[at + 1:]]


def test_a_variant_removes_and_adds_plugins(tmp_path: Path) -> None:
    write(tmp_path, "rules/extra.py", "")
    path = write(tmp_path, "v.yaml", "plugins: {remove: [trade], add: [rules/extra.py]}\n")
    base = packs.read("en").data["plugins"]
    got = read(path).data["plugins"]
    assert got == [*(p for p in base if p != "trade"),
                   str((tmp_path / "rules" / "extra.py").resolve())]


@pytest.mark.parametrize(("text", "needles"), [
    ("plugins: {ad: [battle]}", ["plugins.ad: unknown key; did you mean 'add'?"]),
    ("plugins: {add: battle}", ["plugins.add: expected a list"]),
    ("plugins: {remove: [batle]}", ["plugins.remove: no plugin 'batle'",
                                    "did you mean 'battle'?"]),
    ("plugins: {replace: {batle: x.py}}", ["plugins.replace: no plugin 'batle' to replace",
                                          "did you mean 'battle'?"]),
    ("plugins: {add: [battle]}", ["'battle' is listed twice"]),
    ("plugins: {add: [batle]}", ["no rule plugin named 'batle'", "did you mean 'battle'?"]),
    ("plugins: {add: [../x.py]}", ["a plugin file must be in the pack's folder"]),
    ("plugins: {add: [nothere.py]}", ["no plugin file 'nothere.py'"]),
])
def test_a_bad_plugin_change_is_refused(tmp_path: Path, text: str, needles: list[str]) -> None:
    refused(write(tmp_path, "v.yaml", text + "\n"), *needles, line=1)


# -- where each value was set -----------------------------------------------------------
def test_every_value_is_traced_to_the_line_that_set_it(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", "name: Mine\nparams:\n  land_die: [1, 2]\n")
    pack = read(path)
    assert pack.where("params", "land_die") == f"{path}:3:3"
    assert pack.where("params", "land_die", "0") == f"{path}:3:14"
    assert pack.where("params", "land_die", "nothing", "below") == f"{path}:3:3"
    # what the base sets is traced to the base's file
    assert pack.where("phases").startswith(str(packs.pack_file("en")) + ":")


# -- names -------------------------------------------------------------------------------
def test_a_variant_names_ids_its_own_components_declare(tmp_path: Path) -> None:
    """A new good, declared four levels down its components, may be named; one that is
    declared nowhere is refused with the nearest good."""
    path = write(tmp_path, "v.yaml", "components:\n  market:\n    east:\n      row: [silk]\n"
                                     "names:\n  goods: {silk: Silk}\n")
    assert read(path).data["names"]["goods"]["silk"] == "Silk"
    path = write(tmp_path, "w.yaml", "names:\n  goods: {wines: Wines}\n")
    refused(path, "names.goods.wines: no goods has this id", "did you mean 'wine'?", line=2)


def test_only_the_first_four_levels_of_components_declare_ids(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", "components:\n  market:\n    east:\n      row:\n"
                                     "        far: [silk]\nnames:\n  goods: {silk: Silk}\n")
    refused(path, "names.goods.silk: no goods has this id")


# -- board patches -------------------------------------------------------------------------
def test_a_key_path_reads_keys_and_list_items() -> None:
    assert packs.parse_path("empires.rome.buildings.LATIUM[2]", "here") == \
        ("empires", "rome", "buildings", "LATIUM", 2)
    assert packs.parse_path(["start_titles", "culture", 3], "here") == \
        ("start_titles", "culture", 3)


@pytest.mark.parametrize("path", [["start_titles", True], ["start_titles", 1.5], [], "",
                                  "empires..rome", 7])
def test_a_key_path_is_keys_and_whole_numbers_only(path: object) -> None:
    with pytest.raises(PackError, match=r"^here: patch: "):
        packs.parse_path(path, "here")


def test_patch_steps_are_kept_in_order_with_their_verbs(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml",
                 "patch:\n  board:\n"
                 "    - {remove: market, from: empires.rome.buildings.ITALIA}\n"
                 "    - {add: temple, to: empires.rome.buildings.LATIUM}\n"
                 "    - {delete: empires.rome.legions.GALLIA}\n"
                 "    - {set: [start_titles, culture, 4], to: greece}\n")
    steps = read(path).patches["board"]
    assert [(s.verb, s.path, s.value) for s in steps] == [
        ("remove", ("empires", "rome", "buildings", "ITALIA"), "market"),
        ("add", ("empires", "rome", "buildings", "LATIUM"), "temple"),
        ("delete", ("empires", "rome", "legions", "GALLIA"), None),
        ("set", ("start_titles", "culture", 4), "greece")]
    # each at the line that writes it, at its path
    assert [s.where for s in steps] == [f"{path}:3:24", f"{path}:4:21", f"{path}:5:8",
                                        f"{path}:6:8"]
    assert steps[3].text == "start_titles.culture.4"


def patched(tmp_path: Path, body: str) -> packs.PatchedSource:
    path = write(tmp_path, "v.yaml", f"patch:\n  board:\n{body}")
    return packs.patched_sources(read(path))["board"]


def test_rome_starts_without_its_market(tmp_path: Path) -> None:
    board = patched(tmp_path, "    - {remove: market, from: empires.rome.buildings.ITALIA}\n")
    assert board.data["empires"]["rome"]["buildings"]["ITALIA"] == [
        "caravan:metal", "caravan:oil"]
    # the board file itself is untouched
    base = packs.patched_sources(read(write(tmp_path, "w.yaml", "patch: {board: {}}\n")))
    assert base == {}


def test_removing_an_item_the_list_lacks_is_refused_with_its_items(tmp_path: Path) -> None:
    with pytest.raises(PackError) as err:
        patched(tmp_path, "    - {remove: temple, from: empires.rome.buildings.LATIUM}\n")
    message = str(err.value)
    assert "remove 'temple': no such item" in message
    assert "(the list holds caravan:metal, caravan:wine, capital:ROMA)" in message


def test_a_set_replaces_the_value_at_its_key(tmp_path: Path) -> None:
    board = patched(tmp_path, "    start_titles.culture.3: carthage\n")
    assert board.data["start_titles"]["culture"][3] == "carthage"
    problem = board.problem(("start_titles", "culture", 3), "no such empire")
    assert (problem.file, problem.line) == (str(tmp_path / "v.yaml"), 3)


def test_a_path_through_a_plain_value_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PackError, match=r"start_titles.culture\[3\] is 'greece', which "
                                        r"has no keys \(no 'first'\)"):
        patched(tmp_path, "    start_titles.culture.3.first: rome\n")


def test_a_problem_near_a_patch_points_at_it(tmp_path: Path) -> None:
    """Rome's board entry was patched at the variant's line 3: a problem about Rome
    elsewhere says so; one about Greece, which no patch touched, does not."""
    board = patched(tmp_path, "    - {remove: market, from: empires.rome.buildings.ITALIA}\n")
    rome = str(board.problem(("empires", "rome", "tracks"), "odd"))
    assert f"(the file as patched at {tmp_path / 'v.yaml'}:3:" in rome
    assert "as patched" not in str(board.problem(("empires", "greece", "tracks"), "odd"))


# -- cards ---------------------------------------------------------------------------------
def test_a_variant_adds_a_folder_of_cards_beside_it(tmp_path: Path) -> None:
    (tmp_path / "heroes").mkdir()
    path = write(tmp_path, "v.yaml", "cards: {add: [heroes]}\n")
    assert read(path).card_dirs == [(tmp_path / "heroes").resolve()]


@pytest.mark.parametrize(("folder", "needle"), [
    ("../elsewhere", "a folder of cards must be in the pack's folder"),
    ("missing", "cards.add: no folder 'missing'"),
    ("''", "cards.add[0]: expected the path of a folder of cards"),
])
def test_a_card_folder_outside_the_pack_or_missing_is_refused(tmp_path: Path, folder: str,
                                                             needle: str) -> None:
    (tmp_path / "elsewhere").mkdir()
    sub = tmp_path / "pack"
    refused(write(sub, "v.yaml", f"cards: {{add: [{folder}]}}\n"), needle, line=1)


def test_a_variant_selects_a_cards_named_variant_over_an_inherited_override(
        tmp_path: Path) -> None:
    """The base overrides Caesar; the variant on top selects his per-die variant (D31)
    instead, so the override no longer applies."""
    write(tmp_path, "base.yaml", "cards:\n  override:\n    caesar: {name: Gaius}\n")
    path = write(tmp_path, "v.yaml", "extends: base.yaml\ncards:\n  variant:\n"
                                     "    caesar: per_die\n")
    assert "caesar" in read(tmp_path / "base.yaml").card_overrides
    pack = read(path)
    assert pack.card_variants == {"caesar": ("per_die", f"{path}:4:5")}
    assert "caesar" not in pack.card_overrides


def test_removed_cards_add_up_along_the_chain(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "cards: {remove: [colossus]}\n")
    path = write(tmp_path, "v.yaml", "extends: base.yaml\ncards: {remove: [pharos]}\n")
    pack = read(path)
    assert pack.data["_removed_cards"] == ["colossus", "pharos"]
    assert pack.removed_at["pharos"] == f"{path}:2:18"
