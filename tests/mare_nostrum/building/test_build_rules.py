"""Phase 3 — Build: rules that mutation testing found unguarded (issue 19): the build
order's refusals, where a unit may stand, and the heroes' own ways to build (their price
in tokens, the box's limit)."""

from __future__ import annotations

from typing import Any

from conftest import pending, play
from mare_nostrum import position as pos
from mnrules.content.ruleset import Ruleset
from test_build import face_up_game, game_at, offers, refused, turn


def test_a_player_who_has_built_is_not_named_again(rules: Ruleset) -> None:
    """FR 3; NL/PL/UK 3: the culture leader names each player once a round. Once Rome
    has built, naming him again, or naming someone who does not play, is refused by the
    build order (not by a claim of the first turn, which nobody made)."""
    game = game_at(rules, screens={"rome": {"coin": 3}})
    pos.start_phase(game, "build", round=2)
    leader = pending(game)[0]
    play(game, "rome")
    play(game, ("end",))
    assert pending(game) == (leader, "build.next")
    assert refused(game, "rome") == "build-order"
    assert refused(game, "atlantis") == "build-order"


def test_a_legion_never_stands_at_sea_nor_a_trireme_on_land(rules: Ruleset) -> None:
    """FR 3.6; NL/PL/UK 3.1.2: legions go in provinces, triremes in seas. Rome's legion
    offered for a sea, or his trireme for Macedonia, is refused by the unit-placement
    rule (where they may stand), not by who controls the place."""
    game = game_at(rules, screens={"rome": {"coin": 9}})
    turn(game, "rome")
    assert refused(game, ("legion", "MARE TYRRHENUM")) == "unit-placement"
    assert refused(game, ("fortress", "MARE TYRRHENUM")) == "unit-placement"
    assert refused(game, ("trireme", "MACEDONIA")) == "unit-placement"


def spartacus_game(fresh_rules: Any, screen: dict[str, int]) -> Any:
    game = face_up_game(fresh_rules, carthage=screen)
    pos.give_tiles(game, "carthage", "spartacus")
    return game


def test_spartacus_is_paid_with_a_coin_or_gladiators_only(fresh_rules: Any) -> None:
    """Spartacus: once per round a legion for 1 coin or 1 gladiators; a legendary good
    counts as its type (FR 3.1; NL 3.0). Carthage, holding wine, a coin and the legendary
    gladiators, may pay with the coin or the legendary gladiators, never with wine."""
    game = spartacus_game(fresh_rules, {"wine": 2, "coin": 1, "legendary:gladiators": 1})
    turn(game, "carthage")
    cheap = ("offer", "card:spartacus#0", "legion", "LIBYA")
    assert cheap in offers(game, "legion")
    play(game, cheap)
    dec = game.pending
    assert dec is not None and dec.kind == "build.pay"
    assert set(dec.options) == {("coin",), ("legendary:gladiators",)}
    play(game, ("legendary:gladiators",))
    assert game.state.screens["carthage"] == {"wine": 2, "coin": 1}


def test_spartacus_wants_the_right_token_not_any_token(fresh_rules: Any) -> None:
    """Holding only wine and sheep, Carthage cannot pay Spartacus' price: no cheap
    legion is offered (FR 8; NL 10: the card's price, as its tile says)."""
    game = spartacus_game(fresh_rules, {"wine": 1, "sheep": 1})
    turn(game, "carthage")
    assert offers(game, "legion") == []


def test_a_hero_builds_nothing_the_box_has_run_out_of(fresh_rules: Any) -> None:
    """The components are a hard limit (FR Matériel; NL/PL/UK 3.1.2): with all his
    legions on the board, Carthage's Spartacus offers no legion, whatever he can pay;
    with all his markers placed, Babylon's Hammurabi offers no free marker."""
    game = spartacus_game(fresh_rules, {"coin": 1, "gladiators": 1})
    pos.add_units(game, "carthage", "LIBYA", "legion", game.state.pieces["carthage"]["legion"])
    turn(game, "carthage")
    assert offers(game, "legion") == []
    assert refused(game, ("offer", "card:spartacus#0", "legion", "LIBYA")) == "card-build"


def test_a_heros_offer_takes_the_last_piece_in_the_box(fresh_rules: Any) -> None:
    """The limit is the box's last piece, not one before it: with one legion left,
    Spartacus still offers it (FR Matériel; NL/PL/UK 3.1.2)."""
    game = spartacus_game(fresh_rules, {"coin": 1, "gladiators": 1})
    pos.add_units(game, "carthage", "LIBYA", "legion",
                  game.state.pieces["carthage"]["legion"] - 1)
    assert game.state.pieces["carthage"]["legion"] == 1
    turn(game, "carthage")
    assert offers(game, "legion") != []

def test_hammurabi_without_a_marker_left_offers_none(rules: Ruleset) -> None:
    game = game_at(rules, 5)
    for prov in ("GERMANIA", "DACIA", "SICILIA", "PHAZANIA", "NUBIA"):
        pos.set_marker(game, prov, "babylon")  # his five markers, far from home
    assert game.state.pieces["babylon"]["marker"] == 0
    turn(game, "babylon")
    assert offers(game, "marker") == []


def test_a_pack_prices_one_to_nineteen_tiles_beyond_the_first(tmp_path: Any) -> None:
    """`tile_costs` lists the prices of the 2nd, 3rd... hero or wonder: at least one
    (every later tile then costs it), at most 19 (the most tiles a pack may let an empire
    own is 20); an empty or longer list is refused at its line."""
    import pytest

    from mnrules import load_ruleset
    from mnrules.errors import MnrulesError

    for n, ok in ((0, False), (1, True), (19, True), (20, False)):
        v = tmp_path / f"v{n}.yaml"
        v.write_text("extends: en\nparams:\n  tile_costs: [" + ", ".join(["7"] * n) + "]\n",
                     encoding="utf-8")
        if ok:
            assert load_ruleset("en", variant=str(v)) is not None
        else:
            with pytest.raises(MnrulesError, match=f"{v.name}:3:3: params.tile_costs: "
                               f"expected a list of 1 to 19 items, got {n}"):
                load_ruleset("en", variant=str(v))
