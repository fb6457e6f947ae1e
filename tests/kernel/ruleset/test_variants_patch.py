"""Variants that change one fact in a few lines, and the pack formats they use:

* ``patch: {board: ...}`` changes any fact of the board file or the setup by key path,
  without copying the file (the kernel patches the file's data; the game reads it);
* a card's named ``variants:`` that a pack selects (``cards: {variant: {caesar: per_die}}``)
  instead of copying the script;
* ``names:`` grouped by kind, so that one id has a name per kind (the trade track and the
  trade phase), empires included;
* each parameter choice described, with the books' sections (``Param.Option``).

Every mistake is refused with the variant's file, line and key, and the nearest valid key.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from conftest import ROOT
from mnrules import load_ruleset, new_game
from mnrules.content import packs as packfiles
from mnrules.content.games import editions_dir
from mnrules.content.ruleset import Ruleset
from mnrules.content.yamlsource import load_yaml
from mnrules.core.engine import Param
from mnrules.errors import MnrulesError
from mnrules.frontends.cli import main

EN = editions_dir("mare_nostrum") / "en"  # type: ignore[operator]
BOARD = EN / "board.yaml"


@cache
def pack(name: str) -> Ruleset:
    return load_ruleset(name)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(variant: Path, *needles: str, line: int, edition: str = "en") -> str:
    with pytest.raises(MnrulesError) as err:
        load_ruleset(edition, variant=variant)
    message = str(err.value)
    assert f"{variant}:{line}:" in message, message
    for needle in needles:
        assert needle in message, message
    return message


# =====================================================================================
# Board patches
# =====================================================================================
GREECE_DOES_NOT_LEAD = """\
patch:                                    # the culture title at 3 players (D08)
  board: {start_titles.culture.3: carthage}
"""


def test_greece_does_not_lead_at_three_players(tmp_path: Path) -> None:
    variant = write(tmp_path, "v.yaml", GREECE_DOES_NOT_LEAD)
    rules = load_ruleset("en", variant=variant)
    assert new_game(pack("en"), 3, seed=1).state.titles["culture"] == "greece"
    three = new_game(rules, 3, seed=1).state.titles
    assert three == {"trade": "carthage", "culture": "carthage", "military": "rome"}
    assert new_game(rules, 4, seed=1).state.titles["culture"] == "egypt"  # the rest stays
    # the board file is untouched, and the edition it is played on keeps its own rules
    assert load_yaml(BOARD).data["start_titles"]["culture"][3] == "greece"
    assert load_ruleset("fr", variant=variant).params["hw_display"] == "all_face_up"
    assert rules.board.provinces == pack("en").board.provinces


ROME_WITHOUT_ITS_MARKET = """\
patch:
  board: [{remove: market, from: empires.rome.buildings.ITALIA},
          {set: empires.rome.tracks.trade, to: 6}]      # the book's 7, less the market
"""


def test_rome_starts_without_its_market(tmp_path: Path) -> None:
    variant = write(tmp_path, "v.yaml", ROME_WITHOUT_ITS_MARKET)
    rules = load_ruleset("en", variant=variant)
    en = new_game(pack("en"), 5, seed=1)
    game = new_game(rules, 5, seed=1)
    slots = [s.kind for s in rules.board.provinces["ITALIA"].slots]
    market = slots.index("market")
    assert en.state.built["ITALIA"][market] and not game.state.built["ITALIA"][market]
    assert game.state.supply["market"] == en.state.supply["market"] + 1
    assert game.report()["rome"]["trade"] == en.report()["rome"]["trade"] - 1
    # the market's income is gone from Rome's starting resources (7, not the book's 9)
    assert game.state.held("rome") == en.state.held("rome") - 2


def test_the_printed_boards_figures_still_bind_an_unpatched_board(tmp_path: Path) -> None:
    """A board file whose start disagrees with the books' figures, not patched by a
    variant, is still refused by the board check."""
    rules = pack("en")
    board = rules.board
    rome = board.empires["rome"]
    market = [s.kind for s in board.provinces["ITALIA"].slots].index("market")
    rome.buildings["ITALIA"] = tuple(i for i in rome.buildings["ITALIA"] if i != market)
    try:
        problems = [p for found in rules.hook.mn_check_board(rules=rules) for p in found]
    finally:
        object.__setattr__(rome, "buildings", rome.buildings)
    assert any("produce 7 resources, not 9" in p for p in problems), problems


def test_the_patch_applies_before_the_game_reads_the_board() -> None:
    """The kernel's patching alone: the data as the game's loader gets it, the source
    positions kept for what was not patched, and moved along a list an item left."""
    src = packfiles.read(str(EN / "pack.yaml"))
    text = ("patch:\n  board:\n"
            "    - {remove: 'caravan:wine', from: empires.rome.buildings.LATIUM}\n"
            "    - {add: 'temple', to: empires.rome.buildings.LATIUM}\n"
            "    - {delete: empires.rome.legions.GALLIA}\n"
            "    - {set: 'start_titles.culture.4', to: greece}\n")
    variant = load_yaml("v.yaml", text)
    steps = packfiles._patch_steps(variant, "board", variant.data["patch"]["board"])
    board = load_yaml(src.board_file)
    patched = packfiles.apply_patches(board, steps)
    rome = patched.data["empires"]["rome"]
    assert rome["buildings"]["LATIUM"] == ["caravan:metal", "capital:ROMA", "temple"]
    assert rome["legions"] == {"LATIUM": 1} and board.data["empires"]["rome"]["legions"] == \
        {"LATIUM": 1, "GALLIA": 1}
    assert patched.data["start_titles"]["culture"] == {"default": "egypt", 3: "greece",
                                                       4: "greece"}
    at = ("empires", "rome", "buildings", "LATIUM")
    # capital:ROMA moved from [2] to [1] and keeps its line in the board file
    assert patched.position((*at, 1)) == board.position((*at, 2))
    # the added temple is the variant's: a problem there is reported at its line
    problem = patched.problem((*at, 2), "no temple slot")
    assert (problem.file, problem.line) == ("v.yaml", 4), problem
    problem = patched.problem(("start_titles", "culture", 4), "x")
    assert (problem.file, problem.line) == ("v.yaml", 6), problem
    # a problem about Rome elsewhere points at the patches that changed Rome
    assert "as patched at v.yaml:3:" in str(patched.problem(("empires", "rome"), "odd"))


def test_patches_in_a_chain_apply_in_order(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "extends: en\npatch:\n"
          "  board: {start_titles.culture.3: carthage, start_titles.trade.default: rome}\n")
    child = write(tmp_path, "child.yaml", "extends: base.yaml\npatch:\n"
                  "  board: {start_titles.culture.3: rome}\n")
    titles = new_game(load_ruleset("en", variant=child), 3, seed=1).state.titles
    assert titles == {"trade": "rome", "culture": "rome", "military": "rome"}


@pytest.mark.parametrize(("body", "line", "needles"), [
    ("board: {start_titles.cultur.3: rome}", 2,
     ["patch: start_titles.cultur.3", "no key 'cultur'", "did you mean 'culture'?"]),
    ("bord: {start_titles.culture.3: rome}", 2, ["patch.bord", "did you mean 'board'?"]),
    ("board:\n    - {remove: markt, from: empires.rome.buildings.ITALIA}", 3,
     ["remove 'markt'", "did you mean 'market'?"]),
    ("board:\n    - {delete: empires.rome.legions.GALIA}", 3,
     ["no key 'GALIA'", "did you mean 'GALLIA'?"]),
    ("board:\n    - {set: empires.rome.tracks.trade}", 3, ["patch.board[0]", "needs 'to:'"]),
    ("board:\n    - {set: empires.rome.tracks.trade, too: 6}", 3,
     ["patch.board[0].too", "did you mean 'to'?"]),
    ("board:\n    - {sett: empires.rome.tracks.trade, to: 6}", 3,
     ["patch.board[0]", "expected one of {set: PATH, to: VALUE}"]),
    ("board:\n    empires.rome.buildings.LATIUM[9]: market", 3,
     ["a list of 3 items", "write [0] to [2]"]),
    ("board: {empires..rome: 1}", 2, ["expected keys joined by '.'"]),
    ("board: {empires.rome.name.first: Roma}", 2, ["'Rome', which has no keys"]),
    ("board:\n    - {add: city, to: empires.rome.tracks}", 3, ["not a list"]),
    ("board: [rome]", 2, ["patch.board[0]", "expected one of"]),
    ("board: 3", 2, ["patch.board", "expected key paths and their values"]),
    # a value the board does not accept: the board's own check, at the variant's line
    ("board: {start_titles.culture.3: romee}", 2,
     ["start_titles.culture.3: unknown empire 'romee'", "did you mean 'rome'?",
      "as this file patches board.yaml"]),
    ("board:\n    empires.rome.starting_hero: ceasar", 3,
     ["empires.rome.starting_hero", "no card 'ceasar'", "did you mean 'caesar'?"]),
])
def test_a_bad_patch_is_refused_with_file_line_and_the_nearest_key(
        tmp_path: Path, body: str, line: int, needles: list[str]) -> None:
    refused(write(tmp_path, "v.yaml", f"patch:\n  {body}\n"), *needles, line=line)


def test_a_patch_shows_in_editions_show_and_diff(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    variant = write(tmp_path, "v.yaml", "extends: en\n" + GREECE_DOES_NOT_LEAD)
    assert main(["editions", "show", "en", "--variant", str(variant)]) == 0
    out = capsys.readouterr().out
    assert f"  patched: set start_titles.culture.3 'carthage'  ({variant}:3:" in out
    assert f"board: {BOARD}" in out
    assert main(["editions", "diff", "en", str(variant)]) == 0
    out = capsys.readouterr().out
    assert "board patches" in out and "setup: starting titles" in out


# =====================================================================================
# Card variants
# =====================================================================================
def test_packs_select_named_card_variants_instead_of_copying_scripts() -> None:
    chosen = {p: {cid: c.variant for cid, c in pack(p).cards.items() if c.variant}
              for p in ("en", "fr", "nl", "pl", "uk")}
    assert chosen == {
        "en": {}, "nl": {},
        "fr": {"circe": "friendly_provinces", "statue_of_zeus": "both_ways"},
        "pl": {"caesar": "per_die", "pericles": "per_die"},
        "uk": {"caesar": "per_die", "pericles": "per_die_any_battle",
               "nebuchadnezzar": "plus_hit", "statue_of_zeus": "both_ways"}}
    for p in ("fr", "pl", "uk"):
        assert packfiles.read(p).card_overrides == {}  # no pack copies a script
        for cid in chosen[p]:
            card = pack(p).cards[cid]
            assert card.file.endswith(f"{cid}.yaml")  # a script error names the card file
            assert card.effects == card.variants[chosen[p][cid]].change["effects"]
    caesar = pack("pl").cards["caesar"]
    assert "D31" in caesar.variants["per_die"].note and "PL/UK 10" in \
        caesar.variants["per_die"].note


def test_a_variant_file_selects_or_undoes_a_card_variant(tmp_path: Path) -> None:
    back = write(tmp_path, "v.yaml", "cards: {variant: {caesar: default}}\n")
    assert load_ruleset("uk", variant=back).cards["caesar"].effects == \
        pack("en").cards["caesar"].effects
    per_die = write(tmp_path, "w.yaml", "cards: {variant: {caesar: per_die}}\n")
    assert load_ruleset("en", variant=per_die).cards["caesar"].effects == \
        pack("uk").cards["caesar"].effects
    # a variant's selection replaces an override of the pack it extends
    over = write(tmp_path, "over.yaml", "extends: en\ncards:\n  override:\n    caesar:\n"
                 "      effects: 'modify battle.total when you attack: add 3'\n")
    both = write(tmp_path, "both.yaml", f"extends: {over}\ncards: {{variant: "
                 f"{{caesar: per_die}}}}\n")
    assert load_ruleset("en", variant=both).cards["caesar"].variant == "per_die"
    assert "add 1 per die" in (load_ruleset("en", variant=both).cards["caesar"].effects or "")


@pytest.mark.parametrize(("text", "line", "needles"), [
    ("cards: {variant: {caesar: per_dice}}\n", 1,
     ["cards.variant.caesar", "no variant 'per_dice'", "did you mean 'per_die'?",
      "its variants: default, per_die"]),
    ("cards: {variant: {ceasar: per_die}}\n", 1,
     ["cards.variant.ceasar", "no such card", "did you mean 'caesar'?"]),
    ("cards: {varaint: {caesar: per_die}}\n", 1, ["cards.varaint", "did you mean 'variant'?"]),
    ("cards: {variant: {caesar: [per_die]}}\n", 1, ["cards.variant.caesar", "expected the name"]),
    ("cards:\n  override:\n    caesar: {variants: {x: {note: y}}}\n", 3,
     ["cards.override.caesar.variants", "selects one with cards.variant"]),
])
def test_a_bad_card_variant_is_refused(tmp_path: Path, text: str, line: int,
                                       needles: list[str]) -> None:
    refused(write(tmp_path, "v.yaml", text), *needles, line=line)


CARD = """id: achilles
kind: hero
phase: military
names: {en: Achilles}
effects: |
  modify battle.total when land battle and you attack: add 5
variants:
  strong:
    note: "a house rule"
    effects: |
      modify battle.total when land battle and you attack: add 6
"""


@pytest.mark.parametrize(("change", "line", "needles"), [
    ("    efects: x\n", 12, ["variants.strong.efects", "did you mean 'effects'?"]),
    ("    bonuses: {militray: 1}\n", 12, ["variants.strong.bonuses.militray",
                                          "did you mean 'military'?"]),
    ("  default:\n    note: x\n", 12, ["variants.default", "not 'default'"]),
    ("  weak: {effects: 'modify battle.total when you attack: add 1'}\n", 12,
     ["variants.weak.note", "expected a text"]),
])
def test_a_bad_variant_in_a_card_file_is_refused(tmp_path: Path, change: str, line: int,
                                                 needles: list[str]) -> None:
    (tmp_path / "heroes").mkdir()
    card = write(tmp_path / "heroes", "achilles.yaml", CARD + change)
    variant = write(tmp_path, "v.yaml", "cards:\n  add: [heroes]\n")
    with pytest.raises(MnrulesError) as err:
        load_ruleset("en", variant=variant)
    message = str(err.value)
    assert f"{card}:{line}:" in message and all(n in message for n in needles), message


def test_a_variant_script_error_names_the_card_file_line(tmp_path: Path) -> None:
    (tmp_path / "heroes").mkdir()
    card = write(tmp_path / "heroes", "achilles.yaml",
                 CARD.replace("add 6", "add 6 per legon die"))
    variant = write(tmp_path, "v.yaml", "cards:\n  add: [heroes]\n  variant: "
                    "{achilles: strong}\n")
    assert load_ruleset("en", variant=write(tmp_path, "w.yaml", "cards:\n  add: [heroes]\n"))
    with pytest.raises(MnrulesError) as err:
        load_ruleset("en", variant=variant)
    assert f"{card}:11:" in str(err.value), str(err.value)


# =====================================================================================
# Names by kind
# =====================================================================================
def test_one_id_has_a_name_per_kind() -> None:
    nl = pack("nl")
    assert nl.name("trade", "tracks") == "Handel"
    assert nl.name("trade", "phases") == "Grondstoffen verhandelen"
    assert nl.name("trade", "titles") == "handelsleider"
    assert nl.name("trade") == "Handel"        # without a kind: the first kind's name
    assert nl.name("nothing", "phases") == "nothing"
    for root in (ROOT / "editions", ROOT /
                 "mnrules"):
        for f in root.rglob("*"):
            if f.suffix in (".yaml", ".py"):
                assert "trade_phase" not in f.read_text(encoding="utf-8"), f


@pytest.mark.parametrize(("edition", "greece"), [
    ("en", "Greece"), ("fr", "Grèce"), ("nl", "Griekenland"), ("pl", "Grecja"),
    ("uk", "Греція")])
def test_every_pack_names_the_empires_in_its_book(edition: str, greece: str) -> None:
    rules = pack(edition)
    assert rules.name("greece", "empires") == greece
    assert rules.board.empires["greece"].name == greece  # as the board picture shows it
    en = pack("en").names_by_kind
    assert {k: set(v) for k, v in rules.names_by_kind.items()} == \
        {k: set(v) for k, v in en.items()}, "a pack names every id the English one names"


def test_flat_names_stay_compatible(tmp_path: Path) -> None:
    """An entry outside a kind names the id whatever its kind (as the tic-tac-toe pack's)."""
    variant = write(tmp_path, "v.yaml", "names:\n  trade: Negotium\n")
    rules = load_ruleset("en", variant=variant)
    assert rules.name("trade") == "Negotium" and rules.name("trade", "victories") == \
        "Negotium"
    assert rules.name("trade", "phases") == "Trade"   # a kind's own name comes first


@pytest.mark.parametrize(("text", "line", "needles"), [
    ("names:\n  phase: {trade: Negotium}\n", 2,
     ["names.phase", "name no 'phase'", "did you mean 'phases'?"]),
    ("names:\n  phases: {trad: Negotium}\n", 2,
     ["names.phases.trad", "did you mean 'trade'?"]),
    ("names:\n  empires: {greec: Hellas}\n", 2,
     ["names.empires.greec", "did you mean 'greece'?"]),
    ("names:\n  phases: {trade: [1]}\n", 2, ["names.phases.trade", "expected an id and its name"]),
])
def test_a_bad_name_is_refused(tmp_path: Path, text: str, line: int, needles: list[str]
                               ) -> None:
    refused(write(tmp_path, "v.yaml", text), *needles, line=line)


def test_a_variant_names_a_good_it_adds(tmp_path: Path) -> None:
    variant = write(tmp_path, "v.yaml", "components:\n  goods: {silk: 2}\n"
                    "names:\n  goods: {silk: Silk}\n")
    assert load_ruleset("en", variant=variant).name("silk", "goods") == "Silk"


# =====================================================================================
# Parameter choices, each described
# =====================================================================================
def test_every_choice_of_a_switch_is_described_with_its_books() -> None:
    for name, p in pack("en").declared.items():
        if not p.choices or isinstance(p.default, list | dict):
            continue
        assert [o.value for o in p.options] == list(p.choices), name
        for option in p.options:
            assert option.doc, (name, option)
            if name not in ("first_round_collects",):
                assert re.search(r"\b(FR|NL|PL|UK)\b", option.cite), (name, option)
    fortress = pack("en").declared["fortress_model"]
    assert fortress.option("plus_hit") == Param.Option(
        "plus_hit", "+1 hit scored, and one enemy hit less", "UK 4.2")
    assert fortress.option(1) is None and pack("en").declared[
        "occupy_marker_needs_link"].option(1) is None  # True is not 1


def test_editions_show_lists_each_value_described_default_and_choice_marked(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["editions", "show", "fr"]) == 0
    out = capsys.readouterr().out
    block = out[out.index("  conversion_timing = 'end_of_next_turn'  *\n"):]
    block = block[:block.index("\n  conversion_fail") if "\n  conversion_fail" in block
                  else block.index("\n  costs")]
    assert "'start_of_later_turn' (default): at the start of every later" in block
    assert "> 'end_of_next_turn': at the end of the conqueror's Military turn" in block
    assert "[FR 4.3.3; UK 4.3.3 and its example]" in block
    assert "[UK 4.3.3's rule text read without its example]" in block
    assert "  hit_divisor = 5\n" in out and "values: a whole number from 1 to 99" in out
    assert "> friendly_provinces: D53, FR 8 Circé" in out
    assert "circe: variant friendly_provinces (" in out
    assert "empires (Rome, Grèce, Babylone, ...)" in out
    assert "phases: Production, Commerce, Achats, Militaire, Revendications" in out
