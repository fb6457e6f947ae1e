"""Phase 2 — Trade, as the rulebooks' examples tell it (EX-TRADE-1 to -6).

Names as in the NL examples: Grady is the trade leader (Carthage, which starts with
the title), Dave is Rome, Kirsten is Greece, Bill is Egypt.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import pending, play
from mare_nostrum import position as pos
from mnrules import Game, IllegalChoice, new_game
from mnrules.content.ruleset import Ruleset, load_ruleset

TRADE_RULES = {short: load_ruleset("en", {"params": {"trade_short_player": short}})
               for short in ("offer_all", "exclude")}
GRADY, DAVE, KIRSTEN, BILL = "carthage", "rome", "greece", "egypt"
NAMES = {GRADY: "G", DAVE: "D", KIRSTEN: "K", BILL: "B"}
BY_LETTER = {v: k for k, v in NAMES.items()}

# Distinct goods per player, so that a picked resource tells whose it was.
STOCK = {
    GRADY: {"sheep": 2, "spices": 2, "gladiators": 2},
    DAVE: {"metal": 2, "wine": 2, "grain": 2},
    KIRSTEN: {"stone": 2, "wood": 2, "oil": 2},
    BILL: {"papyrus": 2, "gems": 2, "gold": 2},
}


def trade_game(rules: Ruleset, n: int = 4, stock: dict[str, dict[str, int]] | None = None,
               ) -> Game:
    """Round 2's Trade phase, every player holding exactly ``stock``."""
    game = new_game(rules, n, seed=1)
    for p in game.state.players:
        pos.clear_screen(game, p)
    for p, res in (stock or STOCK).items():
        if p in game.state.players:
            pos.give(game, p, res)
    pos.start_phase(game, "trade", round=2)
    return game


def frame(game: Game) -> dict[str, Any]:
    return next(f for f in game.state.stack if f["step"] == "trade")


def offers_left(game: Game) -> dict[str, int]:
    return {NAMES.get(p, p): sum(o.values()) for p, o in frame(game)["offers"].items()}


def offer(game: Game) -> dict[str, int]:
    """Everyone offers (the first resources of his screen); how many each offered."""
    made: Counter[str] = Counter()
    while (dec := game.pending) is not None and dec.kind == "trade.offer":
        assert dec.hidden
        made[dec.player] += 1
        play(game, dec.options[0])
    return dict(made)


def targets(game: Game) -> set[str]:
    dec = game.pending
    assert dec is not None and dec.kind == "trade.pick"
    return {NAMES[t] for t, _ in dec.options}


def pick(game: Game, step: str) -> None:
    """``"G<D"``: Grady takes one of Dave's offered resources."""
    picker, target = BY_LETTER[step[0]], BY_LETTER[step[2]]
    assert pending(game) == (picker, "trade.pick"), step
    dec = game.pending
    assert dec is not None
    play(game, next(o for o in dec.options if o[0] == target))


def chain(game: Game, steps: str) -> None:
    for step in steps.split():
        pick(game, step)


# --- EX-TRADE-1: choosing the trade token ----------------------------------------


@pytest.mark.parametrize("face", [3, 4])  # NL/PL/UK play the 4/3 token at 3, FR at 4
def test_the_leader_plays_a_token_and_everyone_offers_that_many(rules: Ruleset,
                                                                 face: int) -> None:
    game = trade_game(rules)
    dec = game.pending
    assert dec is not None
    assert (dec.player, dec.kind) == (GRADY, "trade.token")
    assert set(dec.options) == {("5/0", 5), ("5/0", 0), ("2/1", 2), ("2/1", 1), ("4/3", 4),
                                ("4/3", 3)}
    play(game, ("4/3", face))
    assert offer(game) == {GRADY: face, DAVE: face, KIRSTEN: face, BILL: face}
    assert offers_left(game) == {"G": face, "D": face, "K": face, "B": face}
    for p in (GRADY, DAVE, KIRSTEN, BILL):
        assert game.state.held(p) == 6 - face
    assert pending(game) == (GRADY, "trade.pick")


def test_token_face_zero_means_no_exchange(rules: Ruleset) -> None:
    game = trade_game(rules)
    play(game, ("5/0", 0))
    assert pending(game) == (BILL, "build.next")  # Phase 3: Egypt is the culture leader
    for p, res in STOCK.items():
        assert game.state.screens[p] == res


# --- EX-TRADE-2: the picking chain -------------------------------------------------


def test_picking_chain(rules: Ruleset) -> None:
    game = trade_game(rules)
    play(game, ("4/3", 3))
    offer(game)
    # 1. the leader picks first, from anyone
    assert targets(game) == {"D", "K", "B"}
    pick(game, "G<D")
    # 2. the player taken from picks next
    pick(game, "D<K")
    # 3. one round trip is allowed
    assert targets(game) == {"G", "D", "B"}
    pick(game, "K<D")
    # 4. Dave may not take from Kirsten again right away
    assert targets(game) == {"G", "B"}
    dec = game.pending
    assert dec is not None
    before = game.state.to_json()
    with pytest.raises(IllegalChoice) as refused:
        game.apply((KIRSTEN, "oil"))
    assert refused.value.rule is not None and refused.value.rule.id == "trade-no-return"
    assert game.state.to_json() == before
    pick(game, "D<B")
    # 5. Bill picks next
    assert pending(game) == (BILL, "trade.pick")
    assert offers_left(game) == {"G": 3, "D": 1, "K": 2, "B": 2}


def test_a_taken_resource_is_face_down_and_cannot_be_taken_again(rules: Ruleset) -> None:
    game = trade_game(rules, stock={GRADY: {"sheep": 1}, DAVE: {"metal": 1},
                                    KIRSTEN: {"stone": 1}, BILL: {"papyrus": 1}})
    play(game, ("2/1", 1))
    offer(game)
    play(game, (DAVE, "metal"))
    dec = game.pending
    assert dec is not None
    assert (dec.player, set(dec.options)) == (DAVE, {(GRADY, "sheep"), (KIRSTEN, "stone"),
                                                     (BILL, "papyrus")})
    # Grady now has the metal face down: it is not on offer
    with pytest.raises(IllegalChoice) as refused:
        game.apply((GRADY, "metal"))
    assert refused.value.rule is not None and refused.value.rule.id == "trade-pick"


# --- EX-TRADE-3: no immediate return -------------------------------------------------


def test_no_immediate_return(rules: Ruleset) -> None:
    game = trade_game(rules)
    play(game, ("4/3", 3))
    offer(game)
    pick(game, "G<D")
    pick(game, "D<G")  # the first return leg is allowed
    assert targets(game) == {"K", "B"}
    before = game.state.to_json()
    with pytest.raises(IllegalChoice) as refused:
        game.apply((DAVE, "metal"))
    assert refused.value.rule is not None and refused.value.rule.id == "trade-no-return"
    assert "trade-no-return" in str(refused.value)
    assert game.state.to_json() == before
    # FR: "Plus tard dans la phase d'échange, il pourra de nouveau prendre ... chez Frank."
    pick(game, "G<K")
    pick(game, "K<G")
    assert targets(game) == {"D", "B"}
    assert offers_left(game) == {"G": 1, "D": 2, "K": 2, "B": 3}


# --- EX-TRADE-4: ending with two players ---------------------------------------------


def test_two_player_ending_and_the_give_back(rules: Ruleset) -> None:
    """Test B of EX-TRADE-4: N = 4, thirteen picks, then Dave has no legal target."""
    game = trade_game(rules)
    before = {p: game.state.held(p) for p in game.state.players}
    play(game, ("4/3", 4))
    offer(game)
    chain(game, "G<K K<G G<B B<G G<K K<G G<B B<K K<G G<K K<D")
    # Test A: Grady's and Kirsten's offers are gone; Dave must take from Bill
    assert offers_left(game) == {"G": 0, "K": 0, "D": 3, "B": 2}
    assert targets(game) == {"B"}
    pick(game, "D<B")
    assert targets(game) == {"D"}  # Bill is forced too
    pick(game, "B<D")
    # Dave may not take from Bill again: the phase ends; the leftovers (Dave 2, Bill 1)
    # go back behind their owners' screens. Dave is one short: Grady gives him one.
    dec = game.pending
    assert dec is not None
    assert (dec.player, dec.kind) == (GRADY, "trade.giveback")
    assert dec.hidden
    assert game.state.held(GRADY) == before[GRADY] + 1
    assert game.state.held(DAVE) == before[DAVE] - 1
    # Dave offered grain 2 + metal 2; Kirsten and Bill took his grain, his metal came back
    assert game.state.screens[DAVE] == {"wine": 2, "metal": 2, "gold": 1}
    # Bill offered gems 2 + gold 2; Grady took both gems, Dave a gold, one gold came back
    assert game.state.screens[BILL]["gold"] == 1
    play(game, dec.options[0])
    assert {p: game.state.held(p) for p in game.state.players} == before
    assert pending(game) == (BILL, "build.next")


# --- EX-TRADE-5: unequal distribution, the leader gives one back (2.2.1) ---------------


def test_give_back_with_three_participants(rules: Ruleset) -> None:
    """Token 2/1 at face 1; Grady, Kirsten and Dave (3 players) offer one each."""
    game = trade_game(rules, n=3)
    play(game, ("2/1", 1))
    assert offer(game) == {GRADY: 1, DAVE: 1, KIRSTEN: 1}
    pick(game, "G<K")
    pick(game, "K<G")
    assert targets(game) == {"D"}
    pick(game, "G<D")
    # Dave finds nothing on offer: Grady ends with 2 traded resources, Dave with none
    dec = game.pending
    assert dec is not None
    assert (dec.player, dec.kind) == (GRADY, "trade.giveback")
    # from what he traded or from behind his screen: any resource of his
    # (each offered the first of his goods: Grady gladiators, Dave grain, Kirsten oil)
    assert set(dec.options) == {"grain", "oil", "sheep", "spices", "gladiators"}
    play(game, "oil")  # he gives back the one he took from Kirsten
    state = game.state
    assert state.screens[DAVE] == {"oil": 1, "wine": 2, "grain": 1, "metal": 2}
    assert state.screens[GRADY] == {"sheep": 2, "spices": 2, "gladiators": 1, "grain": 1}
    assert state.screens[KIRSTEN] == {"gladiators": 1, "stone": 2, "wood": 2, "oil": 1}
    assert all(state.held(p) == 6 for p in state.players)


def test_give_back_goes_to_the_last_player_taken_from(rules: Ruleset) -> None:
    """The 4-participant variant: after Dave takes from Bill, Bill is the short one."""
    game = trade_game(rules)
    play(game, ("2/1", 1))
    offer(game)
    chain(game, "G<K K<G G<D D<B")
    dec = game.pending
    assert dec is not None
    assert (dec.player, dec.kind) == (GRADY, "trade.giveback")
    assert game.state.held(BILL) == 5
    play(game, "sheep")
    assert game.state.screens[BILL]["sheep"] == 1
    assert all(game.state.held(p) == 6 for p in game.state.players)


def test_no_give_back_when_the_last_target_is_the_leader(rules: Ruleset) -> None:
    game = trade_game(rules, n=3)
    play(game, ("2/1", 1))
    offer(game)
    chain(game, "G<D D<K K<G")
    assert pending(game) == (KIRSTEN, "build.next")  # Greece: culture leader at 3 players
    assert all(game.state.held(p) == 6 for p in game.state.players)


# --- token reuse (2.1) ----------------------------------------------------------------


def finish_trade(game: Game) -> None:
    while (dec := game.pending) is not None and dec.kind.startswith("trade."):
        play(game, dec.options[0])


def tokens_offered(game: Game) -> set[str]:
    dec = game.pending
    assert dec is not None and dec.kind == "trade.token"
    return {t for t, _ in dec.options}


def test_a_played_token_waits_until_all_three_are_played(rules: Ruleset) -> None:
    game = trade_game(rules)
    play(game, ("4/3", 3))
    finish_trade(game)
    pos.start_phase(game, "trade", round=3)
    assert tokens_offered(game) == {"5/0", "2/1"}
    before = game.state.to_json()
    with pytest.raises(IllegalChoice) as refused:
        game.apply(("4/3", 4))
    assert refused.value.rule is not None and refused.value.rule.id == "trade-token-reuse"
    assert game.state.to_json() == before
    play(game, ("2/1", 1))
    finish_trade(game)
    pos.start_phase(game, "trade", round=4)
    assert tokens_offered(game) == {"5/0"}
    play(game, ("5/0", 0))
    pos.start_phase(game, "trade", round=5)
    assert tokens_offered(game) == {"5/0", "2/1", "4/3"}


def test_a_new_trade_leader_takes_all_three_tokens(rules: Ruleset) -> None:
    game = trade_game(rules)
    play(game, ("4/3", 3))
    finish_trade(game)
    game.state.titles["trade"] = DAVE  # Phase 5: Rome takes the title
    pos.start_phase(game, "trade", round=3)
    assert pending(game) == (DAVE, "trade.token")
    assert tokens_offered(game) == {"5/0", "2/1", "4/3"}
    play(game, ("5/0", 0))
    game.state.titles["trade"] = GRADY  # and Carthage takes it back
    pos.start_phase(game, "trade", round=4)
    assert pending(game) == (GRADY, "trade.token")
    assert tokens_offered(game) == {"5/0", "2/1", "4/3"}


def test_token_reuse_across_real_rounds(rules: Ruleset) -> None:
    """The same check through the whole round loop (Phases 3-5 played at random)."""
    game = new_game(rules, 3, seed=2)
    play(game, ("4/3", 3))
    finish_trade(game)
    while (dec := game.pending) is not None and dec.kind != "trade.token":
        play(game, dec.options[-1])
    assert game.state.round == 2
    leader = game.state.titles["trade"]
    assert pending(game) == (leader, "trade.token")
    if leader == GRADY:
        assert tokens_offered(game) == {"5/0", "2/1"}
    else:
        assert tokens_offered(game) == {"5/0", "2/1", "4/3"}


# --- EX-TRADE-6: a player short of resources --------------------------------------------

SHORT = {GRADY: {"sheep": 2, "spices": 2, "gladiators": 2},
         DAVE: {"metal": 2, "wine": 2, "grain": 2},
         KIRSTEN: {"stone": 2, "wood": 2},  # 4 resources: one short of 5
         BILL: {"papyrus": 2, "gems": 2, "gold": 2}}


def test_short_player_offers_all_he_has(fresh_rules: Any) -> None:
    """NL Q&A 9 (trade_short_player: offer_all): Kirsten offers her 4."""
    game = trade_game(fresh_rules(trade_short_player="offer_all"), stock=SHORT)
    play(game, ("5/0", 5))
    assert offer(game) == {GRADY: 5, DAVE: 5, KIRSTEN: 4, BILL: 5}
    assert game.state.held(KIRSTEN) == 0
    taken_from_kirsten = 0
    while (dec := game.pending) is not None and dec.kind == "trade.pick":
        choice = next((o for o in dec.options if o[0] == KIRSTEN), dec.options[0])
        taken_from_kirsten += choice[0] == KIRSTEN
        play(game, choice)
    finish_trade(game)
    assert taken_from_kirsten == 4
    assert game.state.held(KIRSTEN) == 4
    assert all(game.state.held(p) == 6 for p in (GRADY, DAVE, BILL))


def test_short_player_is_excluded(fresh_rules: Any) -> None:
    """FR/PL 2.1, UK 2.2.2 (trade_short_player: exclude): Kirsten does not take part."""
    game = trade_game(fresh_rules(trade_short_player="exclude"), stock=SHORT)
    play(game, ("5/0", 5))
    assert offer(game) == {GRADY: 5, DAVE: 5, BILL: 5}
    assert "K" not in offers_left(game)
    while (dec := game.pending) is not None and dec.kind == "trade.pick":
        assert dec.player != KIRSTEN
        assert all(t != KIRSTEN for t, _ in dec.options)
        play(game, dec.options[0])
    finish_trade(game)
    assert game.state.screens[KIRSTEN] == SHORT[KIRSTEN]
    assert all(game.state.held(p) == 6 for p in (GRADY, DAVE, BILL))


def test_a_player_with_nothing_takes_no_part(rules: Ruleset) -> None:
    stock = dict(STOCK)
    stock[KIRSTEN] = {}
    game = trade_game(rules, stock=stock)
    play(game, ("2/1", 2))
    assert offer(game) == {GRADY: 2, DAVE: 2, BILL: 2}
    assert "K" not in offers_left(game)


# --- property: every trade leaves each participant with what he had -------------------


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 10_000),
       short=st.sampled_from(["offer_all", "exclude"]))
def test_random_trades_follow_the_chain_rules(players: int, seed: int, short: str) -> None:
    rules = TRADE_RULES[short]
    game = new_game(rules, players, seed=seed)
    rng = random.Random(seed)
    # some players short of resources, to exercise trade_short_player
    for p in game.state.players:
        screen = game.state.screens[p]
        for key in sorted(screen):
            if rng.random() < 0.4:
                n = rng.randint(1, screen[key])
                screen[key] -= n
                game.state.supply[key] = game.state.supply.get(key, 0) + n
                if not screen[key]:
                    del screen[key]
    before = {p: game.state.held(p) for p in game.state.players}
    history: list[tuple[str, str]] = []
    while (dec := game.pending) is not None and dec.kind.startswith("trade."):
        if dec.kind == "trade.pick":
            f = frame(game)
            picker = dec.player
            barred = (history[-1][0] if len(history) >= 2 and history[-1][1] == picker
                      and history[-2] == (picker, history[-1][0]) else None)
            expected = {t for t, o in f["offers"].items()
                        if t not in (picker, barred) and sum(o.values())}
            assert {t for t, _ in dec.options} == expected
        choice = dec.options[rng.randrange(len(dec.options))]
        if dec.kind == "trade.pick":
            history.append((dec.player, choice[0]))
        play(game, choice)
    # 2.2.1: after the give-back, everyone has received as many as he gave
    assert {p: game.state.held(p) for p in game.state.players} == before


# --- a card changes what the token asks --------------------------------------------


def _with_card(tmp_path: Path, script: str, holder: str) -> Game:
    from test_card_scripts import with_cards

    game = trade_game(with_cards(tmp_path, ("merchant", script)))
    game.state.tiles[holder].append("merchant")
    return game


def test_a_card_of_the_trade_leader_raises_the_tokens_value(tmp_path: Path) -> None:
    """Grady holds a Merchant (`modify trade.value: add 1`): he plays the 4/3 token's 3,
    and everyone offers 4."""
    game = _with_card(tmp_path, "modify trade.value: add 1", GRADY)
    play(game, ("4/3", 3))
    assert offer(game) == {GRADY: 4, DAVE: 4, KIRSTEN: 4, BILL: 4}


def test_the_tokens_value_is_the_leaders_to_change(tmp_path: Path) -> None:
    """The same card held by Dave, who does not lead the trade, changes nothing."""
    game = _with_card(tmp_path, "modify trade.value: add 1", DAVE)
    play(game, ("4/3", 3))
    assert offer(game) == {GRADY: 3, DAVE: 3, KIRSTEN: 3, BILL: 3}


def test_a_value_bounded_below_the_face_asks_less(tmp_path: Path) -> None:
    game = _with_card(tmp_path, "modify trade.value: at most 2", GRADY)
    play(game, ("5/0", 5))
    assert offer(game) == {GRADY: 2, DAVE: 2, KIRSTEN: 2, BILL: 2}
