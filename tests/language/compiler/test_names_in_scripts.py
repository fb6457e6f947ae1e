"""What the second modder met writing from the docs alone, each fixed: a province id
written in a script, the errors that say how to write one, and a unit a card may not put
where it cannot stand."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import TESTS
from mnrules.content.resources import data_dir
from mnrules.content.ruleset import load_ruleset
from mnrules.errors import MnrulesError
from mnrules.frontends.cli import main


def _check(tmp_path: Path, capsys: object, script: str) -> tuple[int, str]:
    card = tmp_path / "c.yaml"
    card.write_text("id: cardo\nkind: hero\nphase: build\nbonuses: {}\nnames: {en: Cardo}\n"
                    f"effects: |\n  {script}\n", encoding="utf-8")
    rc = main(["cards", "check", "--edition", "en", str(card)])
    out, err = capsys.readouterr()  # type: ignore[attr-defined]
    return rc, out + err


def test_a_province_is_written_in_lowercase_with_underscores(tmp_path: Path,
                                                            capsys: object) -> None:
    for script in ("modify cost when you control aegyptus: subtract 1",
                   "modify battle.total when the province is cyrenaica: add 1"):
        rc, out = _check(tmp_path, capsys, script)
        assert rc == 0, out


def test_an_uppercase_id_is_told_how_to_write_it(tmp_path: Path, capsys: object) -> None:
    rc, out = _check(tmp_path, capsys, "modify cost when you control AEGYPTUS: subtract 1")
    assert rc == 1
    assert "c.yaml:7:32: unexpected character 'A'" in out
    assert "written in lowercase, an id too, with '_' for a space" in out


def test_a_trireme_put_in_a_province_is_refused_at_load(tmp_path: Path,
                                                        capsys: object) -> None:
    rc, out = _check(tmp_path, capsys, "after collect: place 1 trireme in your capital")
    assert rc == 1 and "a trireme stands at sea, never in a province" in out
    rc, out = _check(tmp_path, capsys, "after collect: place 1 legion in your capital")
    assert rc == 0, out


def test_the_kernel_data_is_its_package_and_a_games_is_the_games() -> None:
    """The grammar is the package ``mnrules.grammar`` wherever mnrules is installed (no
    guess at a checkout beside it); a game's packs and cards are its own package's, so
    asking the kernel for "editions" is refused with where they are."""
    from importlib import resources

    assert data_dir("grammar") == Path(str(resources.files("mnrules.grammar")))
    with pytest.raises(MnrulesError, match="editions_dir"):
        data_dir("editions")


def _a2_variant(tmp_path: Path, personages: str, cards: bool = True) -> Path:
    (tmp_path / "cards").mkdir(exist_ok=True)
    if cards:
        (tmp_path / "cards" / "consul.yaml").write_text(
            "id: consul\nkind: personage\nphase: turn\nnames: {en: Consul}\neffects: |\n"
            "  after turn.personages: take a consul with every 2 temples you own\n",
            encoding="utf-8")
    v = tmp_path / "variant.yaml"
    v.write_text(f"extends: antike2\ncards: {{add: [./cards]}}\n{personages}", encoding="utf-8")
    return v


def test_a_new_personage_needs_its_count_in_the_box(tmp_path: Path, capsys: object) -> None:
    """Before: a new personage card crashed the game (KeyError in the box's count), and
    a count for it was refused ('no such personage')."""
    with pytest.raises(MnrulesError, match="how many consul the box holds is not said"):
        load_ruleset("antike2", variant=str(_a2_variant(tmp_path, "")))
    load_ruleset("antike2", variant=str(_a2_variant(
        tmp_path, "components: {personages: {consul: 5}}\n")))
    with pytest.raises(MnrulesError, match=r"personages\.consol: no such personage; "
                                           r"did you mean 'consul'"):
        load_ruleset("antike2", variant=str(_a2_variant(
            tmp_path, "components: {personages: {consol: 5, consul: 5}}\n")))


def test_a_new_know_how_takes_a_price(tmp_path: Path) -> None:
    """Before: a new know-how was refused without a price and its price refused as an
    unknown key."""
    modder2 = TESTS / "language" / "modders" / "modder2"
    rules = load_ruleset("antike2", variant=str(modder2 / "antike2" / "variant.yaml"))
    assert rules.params["know_how"]["castra"] == {"first": 10, "later": 5, "after": "strata"}


@pytest.mark.parametrize(("script", "said"), [
    ("modify cost when the item is fortres: subtract 1",
     "'fortres' is no item; did you mean 'fortress'?"),
    ("after phase.start when the phase is trad: take 1 coin",
     "'trad' is no phase; did you mean 'trade'? (the phases: build, claims, military, "
     "production, trade)"),
    ("after buy when this is the card: claim victory prestig",
     "'prestig' is no victory; did you mean 'prestige'? (the victories: conquest, fifth, "
     "leadership, prestige)"),
])
def test_a_misspelt_name_is_refused_not_never_true(tmp_path: Path, capsys: object,
                                                   script: str, said: str) -> None:
    """Before: 'the item is fortres' loaded and was never true, 'claim victory prestig'
    claimed nothing."""
    rc, out = _check(tmp_path, capsys, script)
    assert rc == 1 and said in out, out


def test_the_names_a_card_may_give_are_accepted(tmp_path: Path, capsys: object) -> None:
    for script in ("modify cost when the item is market: subtract 1",
                   "modify cost when the item is pyramids: subtract 1",
                   "modify cost when the item is marker: subtract 1",
                   "after phase.start when the phase is claims: take 1 coin"):
        rc, out = _check(tmp_path, capsys, script)
        assert rc == 0, out
