"""What a save may hold (mnrules/core/state.py): a state is plain data of the right shape,
within the bounds a game keeps, checked before any game plays from it; the generator's
state is saved as its seed's twists and comes back the very same (issue 19: the state's
promises that mutation testing found unguarded).

Each refusal names the key it found wrong (``StateError.key``), so a player told "his
save is broken" is told where."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import pytest

from mnrules.core.state import (
    KERNEL_SHAPES,
    MAX_DEPTH,
    MAX_INT,
    MAX_ROUND,
    MAX_TWISTS,
    MT_WORDS,
    State,
    at_least,
    check_plain,
    check_rng,
    compact_rng,
    expand_rng,
    plain_copy,
    read_json,
)
from mnrules.errors import StateError


def nested(kind: str, depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"deeper": value} if kind == "dict" else [value]
    return value


def save(**changes: Any) -> dict[str, Any]:
    """A small game's save, with ``changes``."""
    return {"seed": 7, "players": ["north", "south"], "round": 2, "phase": "dawn",
            "choices": 3, "vars": {}, "stack": [{"step": "game"}], **changes}


def refused(data: Any, key: str, message: str) -> None:
    with pytest.raises(StateError, match=message) as err:
        State.from_dict(data)
    assert err.value.key == key


def generator(seed: int = 7, draws: int = 0) -> list[Any]:
    gen = random.Random(seed)
    for _ in range(draws):
        gen.getrandbits(32)
    kind, words, gauss = gen.getstate()
    return [kind, list(words), gauss]


# -- plain data --------------------------------------------------------------------------
def test_the_bounds_are_the_documented_ones() -> None:
    """Data nests 24 levels, whole numbers up to 2**63 - 1, 10,000 rounds, a compact
    generator 10,000 twists from its seed: what the refusals below quote."""
    assert (MAX_DEPTH, MAX_INT, MAX_ROUND, MAX_TWISTS) == (24, 2**63 - 1, 10_000, 10_000)


@pytest.mark.parametrize("kind", ["dict", "list"])
def test_saved_data_nests_at_most_its_bound(kind: str) -> None:
    """Data a save may hold nests MAX_DEPTH levels of mappings or lists; one more level is
    refused, naming where (a hostile save cannot exhaust the loader)."""
    check_plain({"vars": nested(kind, MAX_DEPTH - 1)})
    with pytest.raises(StateError, match=f"nests more than {MAX_DEPTH} deep"):
        check_plain({"vars": nested(kind, MAX_DEPTH)})
    check_plain(nested(kind, 3), root=("vars",), depth=3)
    with pytest.raises(StateError):
        check_plain(nested(kind, 4), root=("vars",), depth=3)


@pytest.mark.parametrize("value", [{1, 2}, b"bytes", object()])
def test_saved_data_is_plain_data_only(value: Any) -> None:
    """A set, bytes or any object in a state is refused with where it is: a save holds
    only what JSON holds."""
    with pytest.raises(StateError, match="is not plain data"):
        check_plain({"vars": {"odd": value}})


def test_whole_numbers_up_to_the_bound_either_sign() -> None:
    """A state holds whole numbers up to MAX_INT (2**63 - 1), either sign; one beyond is
    refused, naming where it lies. Text, flags and null are plain data."""
    assert MAX_INT == 2**63 - 1
    State.from_dict(save(vars={"a": [MAX_INT, -MAX_INT, 0, True, None, "x"]}))
    refused(save(vars={"a": {"b": [1, MAX_INT + 1]}}), "vars.a.b[1]", "a number beyond")
    refused(save(vars={"a": -MAX_INT - 1}), "vars.a", "a number beyond")


def test_numbers_are_whole_but_the_generators_spare_gaussian() -> None:
    """1.5 anywhere is refused (a game counts in whole numbers); the one number not whole
    a state holds is the generator's spare Gaussian, and it is finite."""
    refused(save(vars={"a": [1.5]}), "vars.a[0]", "1.5: a state holds whole numbers only")
    refused(save(round=2.0), "round", "whole numbers only")
    rng = generator()
    check_plain({"rng": [rng[0], rng[1], 0.25]})
    with pytest.raises(StateError, match="inf: a state holds whole numbers only"):
        check_plain({"rng": [rng[0], rng[1], math.inf]})
    with pytest.raises(StateError, match="whole numbers only"):
        check_plain({"rng": [rng[0], rng[1], None, 0.25]})


def test_keys_are_text() -> None:
    refused(save(vars={"a": {1: "x"}}), "vars.a", "keys must be text, got 1")


# -- the kernel's fields ---------------------------------------------------------------
def test_a_new_state_is_round_one_with_nothing_decided() -> None:
    state = State(seed=3, players=["north"])
    assert (state.round, state.phase, state.choices, state.vars, state.stack, state.rng,
            state.winners, state.victory, state.finished) == (1, "", 0, {}, [], [], [], "",
                                                              False)
    assert state.cards_held("north") == ()


def test_a_finished_game_round_trips_with_its_outcome() -> None:
    """A save of a game won keeps who won and how."""
    done = State.from_dict(save(stack=[], finished=True, winners=["south"], victory="lamp"))
    again = State.from_json(done.to_json())
    assert again == done and again.victory == "lamp" and again.winners == ["south"]
    assert json.loads(done.to_json())["victory"] == "lamp"


def test_each_field_holds_its_kind() -> None:
    """A round given as text, a flag given as a number, a number given as a flag, a
    player given as a number: each refused, naming the field."""
    refused(save(round="2"), "round", "expected int, got str")
    refused(save(round=True), "round", "expected int, got True")
    refused(save(finished=1), "finished", "expected bool, got int")
    refused(save(players=["north", 3]), "players[1]", "expected str, got int")
    refused(save(players="north"), "players", "expected a list, got str")
    refused(save(vars=[]), "vars", "expected dict, got list")
    refused(save(stack=[{"step": "game"}, 4]), "stack[1]", "expected dict, got int")


def test_only_the_fields_of_a_state_and_at_least_its_seed_and_players() -> None:
    """An unknown key is refused, quoted to 40 characters (a hostile key may be huge)."""
    with pytest.raises(StateError, match="unknown state key"):
        State.from_dict(save(bogus=1))
    long_key = "k" * 50
    with pytest.raises(StateError) as err:
        State.from_dict(save(**{long_key: 1}))
    assert str(err.value) == f"unknown state key(s): {repr(long_key)[:40]}..."
    with pytest.raises(StateError, match=r"missing state key\(s\): seed"):
        State.from_dict({"players": ["north"]})
    with pytest.raises(StateError, match="a state must be a mapping, got list"):
        State.from_dict([])  # type: ignore[arg-type]


# -- bounds a game keeps ---------------------------------------------------------------
def test_rounds_run_from_the_first_to_the_last_a_game_may_reach() -> None:
    assert MAX_ROUND == 10_000
    for good in (1, MAX_ROUND):
        assert State.from_dict(save(round=good)).round == good
    for bad in (0, MAX_ROUND + 1):
        refused(save(round=bad), "round", f"{bad} is out of bounds")


def test_choices_made_are_never_negative() -> None:
    assert State.from_dict(save(choices=0)).choices == 0
    refused(save(choices=-1), "choices", "-1 is out of bounds")


def test_each_player_is_seated_once() -> None:
    refused(save(players=[]), "players", "no players")
    refused(save(players=["north", "south", "north"]), "players[2]", "seated twice")


def test_winners_are_players_named_once_of_a_finished_game() -> None:
    ok = State.from_dict(save(finished=True, winners=["north", "south"], victory="lamp"))
    assert ok.winners == ["north", "south"]
    refused(save(finished=True, winners=["east"]), "winners[0]", "not a player")
    refused(save(finished=True, winners=["north", "north"]), "winners[1]", "named twice")
    refused(save(winners=["north"]), "winners", "not finished has no winner")
    refused(save(victory="lamp"), "winners", "not finished has no winner nor victory")
    State.from_dict(save(finished=True))


def test_each_frame_names_its_step() -> None:
    refused(save(stack=[{"step": "game"}, {"keeper": "north"}]), "stack[1].step",
            "a frame names its step as text")


def test_a_round_cap_is_a_whole_number_of_rounds_or_null() -> None:
    for good in (0, 12, None):
        State.from_dict(save(vars={"round_cap": good}))
    for bad in (-1, True, "12"):
        refused(save(vars={"round_cap": bad}), "vars.round_cap",
                "expected a whole number of rounds or null")


def test_forced_outcomes_are_lists_by_chance_label() -> None:
    State.from_dict(save(vars={"forced": {"die": [1, 2], "coin": []}}))
    for bad in ({"die": 3}, ["die"], {"die": [1], "coin": "heads"}):
        refused(save(vars={"forced": bad}), "vars.forced", "mapping of chance labels")


@dataclass
class CardGame(State):
    """A game's own state, as a game declares it: each player's hand of cards (at most
    three), by player."""

    SHAPES: ClassVar[dict[str, Any]] = {**KERNEL_SHAPES, "hands": (dict, (list, str))}

    hands: dict[str, list[str]] = field(default_factory=dict)

    def cards_held(self, player: str) -> Sequence[str]:
        return self.hands.get(player, [])

    @classmethod
    def check_counts(cls, data: dict[str, Any]) -> None:
        for player, hand in data.get("hands", {}).items():
            at_least(f"hands.{player}", len(hand), 0, 3)


def test_a_games_own_fields_are_checked_as_the_kernels() -> None:
    """The hands of a card game are a mapping of players to lists of card names: a card
    given as a number is refused naming the hand, a hand of four by the game's own
    bound; who holds a card is answered in seating order."""
    game = CardGame.from_dict(save(hands={"south": ["lighthouse"], "north": ["lighthouse",
                                                                            "storm"]}))
    assert game.card_holders("lighthouse") == ["north", "south"]
    assert game.card_holders("storm") == ["north"] and game.card_holders("moon") == []
    assert CardGame.from_json(game.to_json()) == game
    with pytest.raises(StateError, match="expected str, got int") as err:
        CardGame.from_dict(save(hands={"north": ["storm", 3]}))
    assert err.value.key == "hands.north[1]"
    with pytest.raises(StateError, match="expected a list, got str") as err:
        CardGame.from_dict(save(hands={"north": "storm"}))
    assert err.value.key == "hands.north"
    with pytest.raises(StateError, match=r"4 is out of bounds \(0 to 3\)") as err:
        CardGame.from_dict(save(hands={"north": ["a", "b", "c", "d"]}))
    assert err.value.key == "hands.north"


# -- the generator ---------------------------------------------------------------------
def test_a_generator_state_is_what_random_saves() -> None:
    """Three items: version 3, 625 words below 2**32 (a word may be 0) and the spare
    Gaussian; anything else is refused naming ``rng``. A word of 2**32 would be cut to 0
    by the generator: refused, not loaded as another generator."""
    good = generator()
    check_rng(good)
    zero = [3, [0, *good[1][1:]], None]
    check_rng(zero)
    assert State.from_dict(save(rng=zero)).rng == zero
    top = [3, [2**32 - 1, *good[1][1:]], 0.5]
    check_rng(top)
    bad_states = [
        [3, [2**32, *good[1][1:]], None],
        [3, [-1, *good[1][1:]], None],
        [3, good[1][:-1], None],
        [2, good[1], None],
        [True, good[1], None],
        [3, good[1], None, None],
        [3, good[1], "x"],
        [3, [*good[1][:-1], 625], None],   # an index past the words: random refuses it
        [3, [*good[1][:-1], True], None],
    ]
    for bad in bad_states:
        with pytest.raises(StateError, match="not a random generator state") as err:
            check_rng(bad)
        assert err.value.key == "rng"
    refused(save(rng=[3, [2**32, *good[1][1:]], None]), "rng", "not a random generator")


def test_a_generator_is_saved_as_its_twists_from_the_seed() -> None:
    """The game's generator, 0 to 64 twists from its seed, is saved as that count, its
    index and spare Gaussian, and comes back the same; further, or from another seed,
    it is kept whole."""
    for draws in (0, 1, MT_WORDS, 64 * MT_WORDS):
        whole = generator(7, draws)
        compact = compact_rng(7, whole)
        assert compact == {"twists": _twists(draws), "index": whole[1][MT_WORDS],
                           "gauss": None}
        assert expand_rng(7, compact) == whole
    far = generator(7, 65 * MT_WORDS)
    assert compact_rng(7, far) == far
    claimed = [2, generator(7)[1], None]  # the seed's words, but not random's version 3
    assert compact_rng(7, claimed) is claimed
    assert compact_rng(8, generator(7, 3)) == generator(7, 3)
    gen = random.Random(7)
    gen.gauss(0, 1)
    kind, words, gauss = gen.getstate()
    compact = compact_rng(7, [kind, list(words), gauss])
    assert isinstance(compact, dict) and isinstance(compact["gauss"], float)
    assert expand_rng(7, compact) == [kind, list(words), gauss]


def _twists(draws: int) -> int:
    """Twists the generator made for ``draws`` 32-bit draws: one when first drawn from,
    and one per 624 words after."""
    return 0 if draws == 0 else (draws - 1) // MT_WORDS + 1


@pytest.mark.parametrize("rng", [[3, [1, 2], None], [3, [0] * 625], [2, [0] * 625, None]])
def test_what_is_not_a_generator_state_is_kept_as_it_is(rng: list[Any]) -> None:
    assert compact_rng(7, rng) is rng


def test_a_compact_generator_state_within_its_bounds() -> None:
    """Twists 0 to MAX_TWISTS, index 0 to 624, a spare Gaussian null or finite, and a
    whole seed; a whole state is returned as it is, for check_rng."""
    whole = generator()
    assert expand_rng(7, whole) is whole
    for twists, index in ((0, 0), (MAX_TWISTS, MT_WORDS)):
        out = expand_rng(7, {"twists": twists, "index": index, "gauss": 0.5})
        assert out[0] == 3 and out[1][MT_WORDS] == index and out[2] == 0.5
        check_rng(out)
    for bad in ({"twists": MAX_TWISTS + 1, "index": 0, "gauss": None},
                {"twists": 0, "index": MT_WORDS + 1, "gauss": None},
                {"twists": 0, "index": -1, "gauss": None},
                {"twists": 0, "index": 0, "gauss": math.inf},
                {"twists": 0, "index": 0, "gauss": 1},
                {"twists": 0, "index": 0, "gauss": None, "more": 1}):
        with pytest.raises(StateError, match="not a compact generator state"):
            expand_rng(7, bad)
    with pytest.raises(StateError, match="with a whole seed"):
        expand_rng(True, {"twists": 0, "index": 0, "gauss": None})  # type: ignore[arg-type]


# -- copies and JSON -------------------------------------------------------------------
class Move(NamedTuple):
    origin: str
    to: str


def test_a_copy_shares_nothing_and_keeps_typed_choices() -> None:
    """A copy of a state (a snapshot) shares no list with the game; a typed choice a
    frame holds (a named tuple, which marshal cannot write) is copied equal."""
    state = State.from_dict(save(vars={"lit": [["north", 1]]}))
    state.stack.append({"step": "watch.ask", "last": Move("a", "b")})
    clone = state.clone()
    assert clone == state and clone.stack[-1]["last"] == Move("a", "b")
    clone.vars["lit"][0].append(2)
    assert state.vars["lit"] == [["north", 1]]
    shared = [1]
    apart = State(seed=1, players=["north"], vars={"a": shared, "b": shared}).clone()
    apart.vars["a"].append(2)
    assert apart.vars["b"] == [1]
    copy = State.from_dict(save(vars={"lit": [["north", 1]]})).copy()
    assert copy.vars == {"lit": [["north", 1]]}
    assert plain_copy((Move("a", "b"),)) == (("a", "b"),)


def test_json_text_that_is_not_a_state_is_refused_saying_why() -> None:
    assert read_json(b'{"a": [1]}') == {"a": [1]}
    assert State.from_json(json.dumps(save()).encode()) == State.from_dict(save())
    for text, why in ((b"\xff{}", r"not UTF-8 text \(byte 0: invalid start byte\)"),
                      ("{not json", "not JSON: line 1 column 2"),
                      ("[" * 100_000, "not JSON: it nests too deep"),
                      ("1" * 5000, "not JSON: ")):
        with pytest.raises(StateError, match=why):
            read_json(text)
