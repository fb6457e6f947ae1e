"""The decision loop's promises for any game (mnrules/core/engine.py), shown on the watch
(tests/kernel/engine/test_flow.py): what a choice may be and what a refused one changes, who
is told of a choice, the order frames run in, chance and forced outcomes, the effects
cards have on a quantity or an event, what observers are told, the end of a game, and
snapshots that resume exactly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from mnrules import Game, IllegalChoice, InvalidChoice, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import (
    ADD,
    MULTIPLY,
    RULES_RANK,
    SET,
    Event,
    Modifier,
    Replacement,
    Trigger,
)
from mnrules.core.engine import (
    CHOICE_DEPTH,
    MAX_DEPTH,
    MAX_STEPS,
    Decision,
    InvariantError,
    Outcome,
    Step,
    as_choice,
    typed,
)
from mnrules.errors import GameOver, StateError
from mnrules.hooks.contract import UndeclaredName
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.compiler import ORIGINAL_RANK
from test_flow import answer, watch_rules

DIE = (1, 2, 3, 4, 5, 6)


@pytest.fixture
def watch(tmp_path: Path) -> Ruleset:
    return watch_rules(tmp_path)


def fresh(watch: Ruleset, **vars: Any) -> Game[Any]:
    game = new_game(watch, 2, seed=1)
    game.state.vars.update(vars)
    return game


# -- choices ---------------------------------------------------------------------------
def test_a_choice_is_text_a_whole_number_or_lists_of_them() -> None:
    """JSON lists become tuples, nested as deep as CHOICE_DEPTH lists; one level more, a
    bool (which would pass for 1), a float or a mapping is malformed, saying what."""
    assert as_choice(["move", ["a", 1]]) == ("move", ("a", 1))
    deepest: Any = "x"
    for _ in range(CHOICE_DEPTH):
        deepest = [deepest]
    assert as_choice(deepest) == eval("(" * CHOICE_DEPTH + "'x'" + ",)" * CHOICE_DEPTH)
    with pytest.raises(InvalidChoice, match=f"nest more than {CHOICE_DEPTH} deep"):
        as_choice([deepest])
    for bad in (True, 1.0, None, {"a": 1}):
        with pytest.raises(InvalidChoice) as err:
            as_choice(bad)
        assert err.value.detail.endswith(f"not {type(bad).__name__}")
    with pytest.raises(InvalidChoice, match=r"it holds True \(bool\)"):
        as_choice(["move", True])
    huge = {"note": "x" * 100}
    with pytest.raises(InvalidChoice) as err:
        as_choice(["move", huge])
    assert err.value.detail == ("a choice is a string, a whole number or a list of them; it "
                                f"holds {repr(huge)[:60]}... (dict)")


class Light(NamedTuple):
    verb: str
    keeper: str


class Spot(NamedTuple):
    x: int
    y: int


def test_a_tuple_choice_reaches_its_step_as_the_type_its_kind_declares() -> None:
    """A decision kind declares types by a choice's first item (or for any tuple): a
    choice takes the type its first item names, else the one for any tuple, if it has
    that type's length; anything else (an empty choice too) stays the tuple it was."""
    types: dict[str | None, Any] = {"light": Light, None: Spot}
    assert type(typed(types, ("light", "north"))) is Light
    assert typed(types, (3, 4)) == Spot(3, 4) and type(typed(types, (3, 4))) is Spot
    for plain in (("light", "north", "south"), (1, 2, 3), ()):
        assert type(typed(types, plain)) is tuple and typed(types, plain) == plain
    assert type(typed({"light": Light}, (3, 4))) is tuple


def test_a_refused_choice_names_the_question_and_changes_nothing(watch: Ruleset) -> None:
    """North may rise or sleep: "dance" is refused as not offered, True as malformed;
    the question is still his, nothing counted or recorded."""
    game = fresh(watch)
    before = game.snapshot().to_json()
    with pytest.raises(IllegalChoice, match=r"north \(watch.rise\): not among the legal "
                                            r"choices"):
        game.apply("dance")
    with pytest.raises(InvalidChoice):
        game.apply(True)
    assert game.snapshot().to_json() == before and game.history == []
    assert game.legal() == ("rise", "sleep")


def test_each_choice_is_recorded_counted_and_told_before_it_acts(watch: Ruleset) -> None:
    """A choice listener hears the question and the answer before the rules act on it
    (a log written then holds the choice even if acting on it fails)."""
    game = fresh(watch)
    heard: list[tuple[str, str, Any, int]] = []
    game.choice_listeners.append(
        lambda d, c: heard.append((d.player, d.kind, c, len(game.state.vars.get("lit", [])))))
    answer(game, "rise", "sleep", "rise")
    assert heard == [("north", "watch.rise", "rise", 0), ("south", "watch.rise", "sleep", 1),
                     ("north", "watch.rise", "rise", 1)]
    assert game.history == ["rise", "sleep", "rise"] and game.state.choices == 3


def test_a_question_is_public_unless_its_step_says_secret(watch: Ruleset) -> None:
    dec = fresh(watch).pending
    assert dec is not None and dec.hidden is False and dec.labels == ()


def test_an_invariant_broken_by_a_choice_is_reported_with_the_choice(
        watch: Ruleset) -> None:
    """With a checker (tests, --check), a choice that leaves the game breaking an
    invariant is reported naming the choice, its number and the seed."""
    game = fresh(watch)
    game.checker = lambda g: ["a lamp lit twice"] if len(g.state.vars.get("lit", [])) > 1 else []
    answer(game, "rise")
    with pytest.raises(InvariantError) as err:
        game.apply("rise")
    assert str(err.value) == ("invariant broken after choice 2 (south watch.rise 'rise'), "
                              "seed 1: a lamp lit twice")
    assert err.value.problems == ["a lamp lit twice"] and err.value.choice_number == 2


def test_no_choice_once_the_game_is_over(watch: Ruleset) -> None:
    game = fresh(watch, goal=1)
    answer(game, "rise", "sleep")
    assert game.over and game.legal() == ()
    with pytest.raises(GameOver, match="no decision is pending"):
        game.apply("rise")


# -- frames ----------------------------------------------------------------------------
def test_frames_pushed_together_run_in_the_order_given(watch: Ruleset) -> None:
    """Dawn asks the keepers awake, in the order listed, then hands over to dusk: with
    south alone awake, south alone is asked, once a round."""
    game = fresh(watch, awake=["south"])
    assert answer(game, "rise", "sleep") == [("south", "watch.rise", 1),
                                             ("south", "watch.rise", 2)]
    game = fresh(watch, awake=["south", "north"])
    assert [p for p, _, _ in answer(game, *["sleep"] * 4)] == ["south", "north"] * 2


def test_the_loops_bounds_are_the_documented_ones() -> None:
    """A stack of 500 frames, a million steps between two decisions, choices nested 8
    lists deep: far beyond any real game, and what the errors below quote."""
    assert (MAX_DEPTH, MAX_STEPS, CHOICE_DEPTH) == (500, 1_000_000, 8)


def test_a_step_that_never_asks_nor_finishes_is_stopped(tmp_path: Path) -> None:
    """A broken phase that keeps running without asking anything is stopped after
    exactly MAX_STEPS steps, naming it, rather than hanging the game."""
    game = new_game(watch_rules(tmp_path, phases=("spin",)), 2, seed=1)
    with pytest.raises(StateError, match=f"no decision after {MAX_STEPS:,} steps "
                                         r"\(the last one 'spin', round 1\)"):
        game.pending  # noqa: B018
    # the game's step and the round's, starting the round and the phase, were two of them
    assert game.state.stack[-1] == {"step": "spin", "spins": MAX_STEPS - 2}


def test_only_a_step_some_plugin_provides_can_be_pushed(watch: Ruleset) -> None:
    """Pushing answers the frame put on top; an unknown step is refused by name, and a
    stack at its bound refuses one more frame, naming the step that pushed it."""
    game = fresh(watch)
    with pytest.raises(StateError, match="no plugin provides the step 'nap'"):
        game.push("nap")
    frame = game.push("watch.omen", keeper="south")
    assert game.state.stack[-1] is frame and frame == {"step": "watch.omen",
                                                        "keeper": "south"}
    while len(game.state.stack) < MAX_DEPTH - 1:
        game.push("dusk")
    game.push("watch.omen", keeper="north")
    with pytest.raises(StateError, match=r"would make the stack 501 frames deep \(pushed "
                                         r"by 'watch.omen', round 1\)"):
        game.push("dusk")


def test_a_game_with_nothing_left_to_run_is_over(watch: Ruleset) -> None:
    game = Game(watch, watch.state_class(seed=1, players=["north", "south"]))
    assert game.pending is None and game.state.finished


def test_a_finished_game_asks_nothing_even_with_frames_left(watch: Ruleset) -> None:
    """A game saved as won by north stays won: the frames left on its stack are not
    played on."""
    state = watch.state_class.from_dict({
        "seed": 1, "players": ["north", "south"], "stack": [{"step": "game"}],
        "finished": True, "winners": ["north"], "victory": "lamp"})
    game = Game(watch, state)
    assert game.pending is None and game.outcome == Outcome(("north",), "lamp")
    assert game.state.round == 1 and game.state.stack == [{"step": "game"}]


def test_a_step_must_say_how_it_advances_and_chooses(watch: Ruleset) -> None:
    step: Step[Any] = Step()
    game = fresh(watch)
    with pytest.raises(NotImplementedError):
        step.advance(game, {"step": "x"})
    with pytest.raises(NotImplementedError):
        step.choose(game, {"step": "x"}, "rise")


# -- the end ---------------------------------------------------------------------------
def test_the_end_names_each_winner_once_in_seating_order(watch: Ruleset) -> None:
    """However the rules list them, winners are each named once, in seating order; the
    question pending is dropped and observers are told the game is over."""
    game = fresh(watch)
    assert game.pending is not None
    told: list[Event] = []
    game.listeners.append(told.append)
    game.end(["south", "north", "south"], "lamp")
    assert game.outcome == Outcome(("north", "south"), "lamp")
    assert game.state.winners == ["north", "south"] and game.state.stack == []
    assert told == [Event("game_over", None, {"winners": ["north", "south"],
                                              "victory": "lamp"})]


def test_each_keepers_report_is_his_own(watch: Ruleset) -> None:
    game = fresh(watch)
    answer(game, "rise", "sleep")
    assert game.report() == {"north": {"lamps": 1}, "south": {"lamps": 0}}
    assert repr(game) == "Game(seed=1, players=['north', 'south'], round=2, choices=2)"


# -- chance ----------------------------------------------------------------------------
def test_a_die_is_the_games_own_and_told_to_observers(watch: Ruleset) -> None:
    """The same seed rolls the same faces; an observer is told each roll, by its label."""
    games = [fresh(watch), fresh(watch)]
    rolls = [[g.chance("die", DIE) for _ in range(20)] for g in games]
    assert rolls[0] == rolls[1] and len(set(rolls[0])) > 1
    game = fresh(watch)
    told: list[Event] = []
    game.listeners.append(told.append)
    face = game.chance("die", DIE)
    assert told == [Event("chance", None, {"label": "die", "value": face})]


def test_forced_outcomes_come_first_in_order_then_chance_again(watch: Ruleset) -> None:
    """A scenario forcing a die twice gets its faces in the order forced (both calls
    queue), then the game's own dice take over; another label is not affected."""
    game = fresh(watch)
    game.force("die", [6])
    game.force("die", [2])
    free = fresh(watch)
    assert game.chance("coin", (0, 1)) == free.chance("coin", (0, 1))
    assert [game.chance("die", DIE) for _ in range(2)] == [6, 2]
    assert game.chance("die", DIE) == free.chance("die", DIE)


def test_a_resumed_game_rolls_the_dice_the_original_would(watch: Ruleset) -> None:
    """A snapshot keeps the dice generator: the game loaded from it rolls what the
    original rolls next."""
    game = fresh(watch)
    for _ in range(5):
        game.chance("die", DIE)
    snap = game.snapshot()
    resumed = Game(watch, type(snap).from_json(snap.to_json()))
    assert [resumed.chance("die", DIE) for _ in range(20)] == \
        [game.chance("die", DIE) for _ in range(20)]


def test_a_snapshot_is_taken_at_a_decision(watch: Ruleset) -> None:
    """A game just set up is saved at its first question, not before its first round."""
    snap = fresh(watch).snapshot()
    assert snap.stack[-1] == {"step": "watch.ask", "keeper": "north"}
    assert snap.phase == "dawn" and len(snap.rng) == 3


# -- effects ---------------------------------------------------------------------------
class Oil:
    """Cards on the oil a lamp burns: "lamps burn twice as much" (a multiplication) and
    "north's lamp burns one more" (an addition, no answer for south), listed in that
    order; it declares the oil alone, but answers whatever it is asked."""

    MODIFIES = frozenset({"watch.oil"})

    @hookimpl
    def mn_modifiers(self, game: Game[Any], quantity: str, ctx: dict[str, Any]) -> Any:
        double = Modifier("test:double", lambda v: v * 2, layer=MULTIPLY, rank=2)
        if ctx["keeper"] != "north":
            return double
        return [double, Modifier("test:one more", lambda v: v + 1, layer=ADD, rank=1)]


@pytest.mark.parametrize("flat", [True, False])
def test_cards_modify_the_oil_burnt(watch: Ruleset, flat: bool) -> None:
    """Additions before multiplications, whatever order a card lists them in: north
    burns (1 + 1) * 2 = 4, south 1 * 2 = 2; the same through pluggy's own hook call (a
    bus not flat) as through the bus's lists. A plugin is asked for the quantities it
    declares on the bus's lists; pluggy's own call asks every plugin everything."""
    watch.pm.register(Oil(), name="test:oil")
    if not flat:  # a bus keeps its lists unless told otherwise
        watch.pm.flat = False
    game = fresh(watch)
    answer(game, "rise", "rise")
    assert game.state.vars["lit"] == [["north", 4], ["south", 2]]
    assert game.fold("watch.oil", 5, keeper="south") == 10
    assert game.fold("watch.wick", 5, keeper="south") == (5 if flat else 10)


class Beacon:
    """The base rule "a keeper's lamp burns one more oil in a storm" (the game's own
    modifier, at the rules' rank) and the card "Beacon: your lamp burns three times as
    much" (a card's owner's rank), both additions in the same layer."""

    MODIFIES = frozenset({"watch.oil"})

    @hookimpl
    def mn_modifiers(self, game: Game[Any], quantity: str, ctx: dict[str, Any]) -> Any:
        return [Modifier("card:beacon", lambda v: v * 3, layer=ADD, rank=ORIGINAL_RANK),
                Modifier("watch", lambda v: v + 1, layer=ADD)]


def test_the_base_rules_apply_before_any_card_in_a_layer(watch: Ruleset) -> None:
    """(1 + 1) * 3 = 6: the rules' own modifier first, then the card's, although the
    card's source sorts first."""
    assert RULES_RANK < ORIGINAL_RANK
    watch.pm.register(Beacon(), name="test:beacon")
    assert fresh(watch).fold("watch.oil", 1, keeper="north") == 6


class Storm:
    """Cards on lighting: "a storm puts out south's lamp" (cancels), "north's lamp is
    trimmed: it burns 3" (sets), and "whoever lights the lamp wakes the other keeper"
    (a trigger, told the event as it happened)."""

    REPLACES = frozenset({"lit"})
    TRIGGERED_BY = frozenset({"lit"})

    def __init__(self) -> None:
        self.woken: list[tuple[str | None, int]] = []

    @hookimpl
    def mn_replacements(self, game: Game[Any], event: Event) -> Any:
        def trim(e: Event) -> Event:
            return Event(e.kind, e.player, {**e.data, "oil": 3})

        def storm(e: Event) -> Event | None:
            return None if e.player == "south" else e

        return [Replacement("test:storm", storm, layer=SET, rank=1),
                Replacement("test:trim", trim, layer=ADD, rank=1)]

    @hookimpl
    def mn_triggers(self, game: Game[Any], event: Event) -> Any:
        return Trigger("test:wake", lambda e: self.woken.append((e.player, e.data["oil"])))


def test_a_cancelled_event_does_not_happen_and_a_replaced_one_happens_as_replaced(
        watch: Ruleset) -> None:
    """South's lamp is put out: not lit, no trigger, no observer told, nothing trimmed.
    North's is trimmed: lit with 3 oil, and that is what the trigger and observers see
    and what ``perform`` answers."""
    storm = Storm()
    watch.pm.register(storm, name="test:storm")
    game = fresh(watch)
    told: list[Event] = []
    game.listeners.append(told.append)
    answer(game, "rise", "rise")
    assert game.state.vars["lit"] == [["north", 3]]
    assert storm.woken == [("north", 3)]
    assert [e for e in told if e.kind == "lit"] == [Event("lit", "north", {"oil": 3})]
    assert game.perform(Event("lit", "south", {"oil": 1}), lambda e: None) is None
    done = game.perform(Event("lit", "north", {"oil": 1}), lambda e: None)
    assert done == Event("lit", "north", {"oil": 3})


def test_an_event_no_plugin_declares_is_refused_even_unobserved(watch: Ruleset) -> None:
    """Telling observers an event nobody declared ("lamp_lit" for "lit") is refused,
    whether or not anyone listens."""
    game = fresh(watch)
    with pytest.raises(UndeclaredName, match=r"game\.emit: no plugin declares the event "
                                             r"'lamp_lit'"):
        game.emit(Event("lamp_lit", "north"))
    game.listeners.append(lambda e: None)
    with pytest.raises(UndeclaredName):
        game.emit(Event("lamp_lit", "north"))


def test_what_an_observer_is_told_is_a_copy_made_when_it_happened(watch: Ruleset) -> None:
    """Data of every plain kind is told as it was; later changes to the rules' own lists
    and mappings do not reach it (one record is shared by every observer)."""
    game = fresh(watch)
    told: list[Event] = []
    game.listeners.extend([told.append, told.append])
    data: dict[str, Any] = {"oil": 1, "who": ["north"], "where": ("rock", 2),
                            "seen": {"by": ["south"]}, "lit": True, "none": None, "n": 1.5}
    game.emit(Event("lit", "north", data))
    data["who"].append("south")
    data["seen"]["by"].clear()
    assert told[0] is told[1]
    assert told[0].data == {"oil": 1, "who": ["north"], "where": ("rock", 2),
                            "seen": {"by": ["south"]}, "lit": True, "none": None, "n": 1.5}
    assert type(told[0].data["where"]) is tuple


class Move(NamedTuple):
    origin: str
    to: str


def test_an_observer_keeps_a_typed_choice_as_typed(watch: Ruleset) -> None:
    """A typed choice (a named tuple) in an event reaches observers as that type, equal
    to what happened; a plain tuple stays a tuple."""
    game = fresh(watch)
    told: list[Event] = []
    game.listeners.append(told.append)
    game.emit(Event("lit", "north", {"oil": 1, "move": Move("rock", "sea"), "at": (1, 2)}))
    assert told[0].data == {"oil": 1, "move": Move("rock", "sea"), "at": (1, 2)}
    assert type(told[0].data["move"]) is Move and type(told[0].data["at"]) is tuple


def test_the_kernel_runs_without_the_compilers_marks() -> None:
    """The core install is lark, pluggy and pyyaml: without mypy_extensions (the
    compiled core's marks) the decision loop is the same, its steps subclassable."""
    code = ("import sys; sys.modules['mypy_extensions'] = None\n"
            "from mnrules.core.engine import Step\n"
            "class Mine(Step):\n    pass\n"
            "print(Mine.__mro__[1].__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Step"]


def test_decision_equality_is_by_what_is_asked() -> None:
    assert Decision("north", "watch.rise", "?", ("rise",)) != \
        Decision("north", "watch.rise", "?", ("rise",), hidden=True)
