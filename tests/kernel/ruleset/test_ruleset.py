"""A rule set: which plugins an edition pack loads, the parameters they declare and the
values the pack gives them, its names, and its cards (removed, overridden) — each mistake
refused with the pack file's line and the nearest valid name."""

from __future__ import annotations

import importlib.resources
from functools import cache
from pathlib import Path

import pytest

from conftest import TESTS
from mnrules import load_ruleset
from mnrules.content.ruleset import Ruleset
from mnrules.errors import PackError

TICTACTOE = TESTS / "kernel" / "tictactoe" / "pack.yaml"
GAME = Path(str(importlib.resources.files("mare_nostrum")))


@cache
def en() -> Ruleset:
    return load_ruleset("en")


def variant(folder: Path, text: str, name: str = "v.yaml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(path: Path, *needles: str, line: int | None = None) -> str:
    with pytest.raises(PackError) as err:
        load_ruleset("en", variant=path)
    message = str(err.value)
    if line is not None:
        assert f"{path}:{line}:" in message, message
    for needle in needles:
        assert needle in message, message
    return message


# -- names ------------------------------------------------------------------------------
def test_one_id_has_a_name_per_kind_in_the_packs_words() -> None:
    """The trade track and the trade phase are both 'Trade' in English, the military
    phase is 'Move & Fight' while the military track is 'Military'."""
    rules = en()
    assert rules.name("military", "phases") == "Move & Fight"
    assert rules.name("military", "tracks") == "Military"
    assert rules.name("military", "nonsense") == "military"


def test_a_name_outside_any_kind_names_its_id_whatever_the_kind() -> None:
    """Tic-tac-toe names its players and its endings outside any kind (x: Crosses)."""
    rules = load_ruleset(TICTACTOE)
    assert rules.name("x", "players") == "Crosses"
    assert rules.name("x") == "Crosses"
    assert rules.name("line", "endings") == "three in a row"
    assert rules.name("z", "players") == "z"
    assert rules.phases == ["turn"] and rules.game.endswith("tictactoe.py")


# -- plugins ----------------------------------------------------------------------------
def test_a_plugin_of_another_game_is_no_rule_of_this_one(tmp_path: Path) -> None:
    """Antike II's rondel is a bundled plugin, but not one of Mare Nostrum's."""
    path = variant(tmp_path, "extends: en\nplugins: {add: [rondel]}\n")
    message = refused(path, "no rule plugin named 'rondel'")
    assert "battle" in message    # the plugins this game has, listed


def test_replacing_a_plugin_replaces_its_rule_whole(tmp_path: Path) -> None:
    """A variant's copy of the production plugin, where a temple beside a legendary city
    adds a coin only: the bundled plugin is gone (its parameters are the copy's), in the
    same place of the list, and the copy's default is the rule."""
    text = (GAME / "production.py").read_text(encoding="utf-8")
    old = 'Param("legendary_temple_bonus", ["coin", "legendary"],'
    assert text.count(old) == 1
    (tmp_path / "my_production.py").write_text(
        text.replace(old, 'Param("legendary_temple_bonus", ["coin"],'), encoding="utf-8")
    path = variant(tmp_path, "extends: en\nplugins: {replace: {production: "
                             "my_production.py}}\n")
    rules = load_ruleset("en", variant=path)
    book = en().data["plugins"]
    got = rules.data["plugins"]
    at = book.index("production")
    assert got[at] == str((tmp_path / "my_production.py").resolve())
    assert got[:at] + got[at + 1:] == book[:at] + book[at + 1:]
    assert rules.pm.get_plugin("production") is None
    assert rules.params["legendary_temple_bonus"] == ["coin"]
    assert en().params["legendary_temple_bonus"] == ["coin", "legendary"]


def test_two_plugins_declaring_one_parameter_are_refused_naming_both(tmp_path: Path) -> None:
    (tmp_path / "dice.py").write_text(
        "from mnrules.hooks.hookspecs import hookimpl\n"
        "from mnrules.hooks.params import Param\n\n\n"
        "@hookimpl\n"
        "def mn_params():\n"
        "    return [Param('land_die', [1, 2, 3], 'my own land die')]\n", encoding="utf-8")
    path = variant(tmp_path, "extends: en\nplugins: {add: [dice.py]}\n")
    message = refused(path, "parameter 'land_die' is declared by two plugins (")
    assert "'battle'" in message and f"'{(tmp_path / 'dice.py').resolve()}'" in message


def test_a_parameter_no_plugin_declares_is_refused_with_the_nearest(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: en\nparams:\n  land_dice: [1, 2, 3]\n")
    refused(path, "params.land_dice: no plugin declares this parameter",
            "did you mean 'land_die'", line=3)


def test_a_parameter_value_is_checked_where_the_pack_gives_it(tmp_path: Path) -> None:
    """A die of no faces: the pack's line, the key path, what was expected, and the
    parameter's description."""
    path = variant(tmp_path, "extends: en\nparams:\n  land_die: []\n")
    refused(path, "params.land_die: expected a list of 1 to 20 items, got 0",
            "(land_die: faces of a land battle die)", line=3)


def test_overrides_change_a_parameter_for_one_rule_set() -> None:
    rules = load_ruleset("en", overrides={"params": {"land_die": [5, 5, 5, 5, 5, 5]}})
    assert rules.params["land_die"] == [5, 5, 5, 5, 5, 5]
    assert en().params["land_die"] == [0, 1, 2, 3, 4, 5]


# -- resources ---------------------------------------------------------------------------
def test_a_city_yields_only_resources_the_pack_has(tmp_path: Path) -> None:
    """'silk' is no good of Mare Nostrum; wine is, and 'coin|wine' is a choice of them."""
    good = variant(tmp_path, "extends: en\nparams:\n  income:\n    city: [coin|wine]\n"
                             "    capital: [coin]\n    legendary: [coin, legendary]\n",
                   "good.yaml")
    assert load_ruleset("en", variant=good).params["income"]["city"] == ["coin|wine"]
    bad = variant(tmp_path, "extends: en\nparams:\n  income:\n    city: [coin, silk]\n"
                            "    capital: [coin]\n    legendary: [coin, legendary]\n")
    refused(bad, "params.income.city[1]: 'silk' is no resource of this pack", "wine",
            line=4)


# -- cards -------------------------------------------------------------------------------
def test_removing_a_card_the_pack_lacks_is_refused_with_the_nearest(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: en\ncards:\n  remove: [caesr]\n")
    refused(path, "cards.remove: no card 'caesr'", "did you mean 'caesar'")


def test_a_removed_card_is_not_in_play(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: en\ncards:\n  remove: [colossus]\n")
    rules = load_ruleset("en", variant=path)
    assert "colossus" not in rules.cards and "colossus" not in rules.effects
    assert "colossus" in en().cards and "colossus" in en().effects


def test_overriding_a_card_the_pack_lacks_is_refused_with_the_nearest(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: en\ncards:\n  override:\n    caesr: {name: Caesar}\n")
    refused(path, "cards.override.caesr: no such card", "did you mean 'caesar'", line=4)


def test_selecting_a_variant_of_a_card_the_pack_lacks_is_refused(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: en\ncards:\n  variant:\n    caesr: per_die\n")
    refused(path, "cards.variant.caesr: no such card", "did you mean 'caesar'", line=4)


def test_the_games_own_checks_run_with_its_rules(tmp_path: Path) -> None:
    """The game registers its board checks beside itself (its definition's plugins): a
    variant may not remove a starting hero the board gives at setup."""
    path = variant(tmp_path, "extends: en\ncards:\n  remove: [caesar]\n")
    refused(path, "cards.remove: 'caesar' is the starting hero of rome (the board gives it "
                  "at setup); it cannot be removed", line=3)


def test_a_board_starting_more_pieces_than_the_box_holds_is_refused(tmp_path: Path) -> None:
    """The game's board checks (registered by the game beside itself): Rome starts with
    two legions, a box of one legion an empire cannot hold them."""
    path = variant(tmp_path, "extends: en\ncomponents:\n  pieces: {legion: 1}\n")
    refused(path, "rome starts with 2 legion(s) but the box gives each empire 1")


def test_a_variant_overrides_a_cards_words(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: en\ncards:\n  override:\n"
                             "    colossus: {names: {en: The Great Statue}}\n")
    rules = load_ruleset("en", variant=path)
    assert rules.cards["colossus"].name("en") == "The Great Statue"
    assert en().cards["colossus"].name("en") != "The Great Statue"



def test_a_hook_no_spec_declares_is_refused_last_by_its_name() -> None:
    """The rule set's last check (pluggy's ``check_pending``, after every plugin and card
    is registered): what slips past the plugin files' own check is still told by the
    hook's name and the nearest one, never as pluggy's text."""
    from mnrules.content.ruleset import _check_pending
    from mnrules.hooks import hookspecs
    from mnrules.hooks.bus import Bus

    class Late:
        @hookspecs.hookimpl
        def mn_reportz(self, game: object, player: str) -> list[str]:
            return []

    pm = Bus(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(Late(), name="late")
    with pytest.raises(PackError) as err:
        _check_pending(pm, "v.yaml:2:1: plugins")
    message = str(err.value)
    assert message.startswith("v.yaml:2:1: plugins: plugin 'late': mn_reportz is no hook; "
                              "did you mean 'mn_report'"), message

def test_a_pack_of_another_format_is_refused_naming_the_format(tmp_path: Path) -> None:
    path = variant(tmp_path, "extends: en\nformat: mnrules-pack/9\n")
    refused(path, "format: expected 'mnrules-pack/1', got 'mnrules-pack/9'", line=2)
