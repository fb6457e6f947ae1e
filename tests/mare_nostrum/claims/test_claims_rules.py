"""Phase 5 — Claim leadership (FR 5; NL/PL/UK 5): a card that wins ties for a title
(mutation testing, issue 19)."""

from __future__ import annotations

from pathlib import Path

from conftest import play
from mare_nostrum.position import build, give_tiles, start_phase
from mnrules import Game
from mnrules.content.ruleset import Ruleset
from test_card_scripts import with_cards
from test_claims import track, trade_table

SOLON = ("solon", "modify title.ties when the track is culture: include you")


def culture_tie(rules: Ruleset) -> Game:
    """EX-LEAD-1's table (Rome alone leads trade), and a temple each in LATIUM and
    ACHAEA: Rome and Greece tie for culture, which Egypt holds."""
    game = trade_table(rules)
    build(game, "LATIUM", "temple")
    build(game, "ACHAEA", "temple")
    top = max(track(game, "culture").values())
    assert [p for p, n in track(game, "culture").items() if n == top] == ["rome", "greece"]
    game.state.titles.update(trade="carthage", culture="egypt", military="rome")
    return game


def culture_asked(game: Game) -> list[tuple[str, tuple[str, ...]]]:
    """Play the Claims phase; the culture tie decisions asked (who, among whom). Other
    ties are kept by their holder if he is tied, else go to the first tied."""
    start_phase(game, "claims")
    asked = []
    while (dec := game.pending) is not None and dec.kind == "claims.tie":
        if "culture" in dec.prompt:
            asked.append((dec.player, tuple(dec.options)))
        play(game, dec.player if dec.player in dec.options else dec.options[0])
    return asked


def test_the_holder_settles_a_tie_of_two(rules: Ruleset) -> None:
    """Rome and Greece tie for culture: Egypt, its holder, chooses between them."""
    game = culture_tie(rules)
    assert culture_asked(game) == [("egypt", ("rome", "greece"))]
    assert game.state.titles["culture"] == "rome"  # the first offered, as played here


def test_a_card_that_wins_ties_takes_a_tie_of_two_unasked(tmp_path: Path) -> None:
    """Solon (a modder's hero: "You win every tie for the culture title"): Greece holds
    him; tied with Rome alone, he takes the culture title; Egypt is not asked."""
    game = culture_tie(with_cards(tmp_path, SOLON))
    give_tiles(game, "greece", "solon")
    assert culture_asked(game) == []
    assert game.state.titles["culture"] == "greece"
