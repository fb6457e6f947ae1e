"""A game is one typed object, ``GAME = GameDefinition(...)``: what it says of itself
once is no hook. The kernel's bus keeps the hooks many plugins answer; a game written
as mnrules 0.2's hooks still plays, with a deprecation warning, until 0.3."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from mnrules import load_ruleset, new_game
from mnrules.api import GameDefinition, State
from mnrules.bots import make_bot
from mnrules.errors import PackError
from mnrules.hooks import hookspecs, legacy_game
from mnrules.tools.scenario import ScenarioError, load, run

TICTACTOE = Path(__file__).parent / "tictactoe"

PACK = """\
format: mnrules-pack/1
game: ./{file}
id: {id}
engine: ">=0.1"
plugins: []
phases: [turn]
"""

OLD_GAME = '''\
"""A one-round game written as mnrules 0.2 wrote games: the game's hooks."""
from dataclasses import dataclass, field
from typing import Any, ClassVar

from mnrules.api import DONE, KERNEL_SHAPES, Decision, Step, hookimpl
from mnrules.api import State as KernelState


@dataclass
class State(KernelState):
    SHAPES: ClassVar[dict[str, Any]] = {**KERNEL_SHAPES, "picked": (dict, str)}
    picked: dict[str, str] = field(default_factory=dict)


class Pick(Step[State]):
    def advance(self, game, frame):
        waiting = [p for p in game.state.players if p not in game.state.picked]
        if not waiting:
            return DONE
        return Decision(waiting[0], "pick", "heads or tails?", ("heads", "tails"))

    def choose(self, game, frame, choice):
        game.state.picked[game.pending.player] = choice
        if len(game.state.picked) == len(game.state.players):
            game.end(sorted(p for p, c in game.state.picked.items() if c == "heads"), "coin")


@hookimpl
def mn_state_class():
    return State


@hookimpl
def mn_seating(rules):
    return {2: ["left", "right"]}


@hookimpl
def mn_steps():
    return {"turn": Pick()}


@hookimpl
def mn_option_text(say, game, decision, option):
    return f"call {option}"
'''


def game_pack(folder: Path, source: str, name: str = "coin") -> Path:
    (folder / f"{name}.py").write_text(source, encoding="utf-8")
    pack = folder / "pack.yaml"
    pack.write_text(PACK.format(file=f"{name}.py", id=name), encoding="utf-8")
    return pack


def test_tic_tac_toe_is_one_definition_and_its_rules() -> None:
    rules = load_ruleset(str(TICTACTOE / "pack.yaml"))
    assert isinstance(rules.definition, GameDefinition)
    assert rules.definition.name == "tictactoe"
    assert rules.seating == {2: ["x", "o"]}
    assert rules.state_class.game_fields() == ("cells",)


def test_a_game_written_as_the_old_hooks_plays_with_a_warning(tmp_path: Path) -> None:
    pack = game_pack(tmp_path, OLD_GAME)
    with pytest.warns(DeprecationWarning, match=r"pack\.yaml:2:1: game 'coin' answers the "
                                                r"game hooks of mnrules 0\.2.*GameDefinition"):
        rules = load_ruleset(str(pack))
    assert rules.seating == {2: ["left", "right"]}
    game = new_game(rules, 2, seed=3)
    dec = game.pending
    assert dec is not None
    from mnrules.language.present import presenter

    assert presenter(rules).option(game, dec, "heads") == "call heads"
    bots = {p: make_bot("random", i) for i, p in enumerate(game.state.players)}
    while (dec := game.pending) is not None:
        game.apply(bots[dec.player].choose(game))
    assert game.state.victory == "coin"


def test_a_game_with_no_definition_is_refused_saying_what_to_write(tmp_path: Path) -> None:
    pack = game_pack(tmp_path, "'''A game that says nothing of itself.'''\n")
    with pytest.raises(PackError, match=r"pack\.yaml:2:1: game: '.*coin\.py' defines no "
                                        r"GAME: write GAME = mnrules\.api\.GameDefinition"):
        load_ruleset(str(pack))


def test_a_game_whose_game_is_no_definition_is_refused(tmp_path: Path) -> None:
    pack = game_pack(tmp_path, "GAME = {'name': 'coin'}\n")
    with pytest.raises(PackError, match=r"its GAME must be a mnrules\.api\.GameDefinition, "
                                        r"not dict"):
        load_ruleset(str(pack))


def test_a_definition_beside_the_old_hooks_is_refused(tmp_path: Path) -> None:
    source = OLD_GAME + "\nfrom mnrules.api import GameDefinition\n" \
        "GAME = GameDefinition(name='coin', state=State, seating={2: ['left', 'right']})\n"
    pack = game_pack(tmp_path, source)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(PackError, match=r"has a GAME and also answers the game hooks of "
                                            r"mnrules 0\.2 \(mn_option_text, mn_seating, "
                                            r"mn_state_class\)"):
            load_ruleset(str(pack))


def test_a_definition_checks_its_own_fields() -> None:
    with pytest.raises(TypeError, match="name must be the game's id"):
        GameDefinition(name="")
    with pytest.raises(TypeError, match=r"'coin': state must be a subclass of "
                                        r"mnrules\.api\.State, not <class 'dict'>"):
        GameDefinition(name="coin", state=dict)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"'coin': render must be a function, not 'board\.png'"):
        GameDefinition(name="coin", render="board.png")  # type: ignore[arg-type]
    assert GameDefinition(name="coin").seats(None) == {}
    assert GameDefinition(name="coin", seating=lambda rules: {2: ("a", "b")}).seats(None) \
        == {2: ["a", "b"]}


def test_the_kernel_bus_holds_no_hook_of_one_game() -> None:
    """What a game says once is its definition; the kernel's hooks are those many plugins
    answer (each rule plugin, each card, each variant's plugin)."""
    kernel = {name for name in vars(hookspecs) if name.startswith("mn_")}
    assert kernel == {
        "mn_params", "mn_steps", "mn_contract", "mn_check_board", "mn_check_pack",
        "mn_setup", "mn_phase_start", "mn_phase_end", "mn_build_offers", "mn_modifiers",
        "mn_replacements", "mn_triggers", "mn_vocabulary", "mn_word_sets", "mn_report",
        "mn_compare", "mn_check_state", "mn_bots"}
    assert not kernel & legacy_game.HOOKS
    assert len(legacy_game.HOOKS) == 25


def test_a_scenario_sets_and_expects_a_declared_field_by_its_shape(tmp_path: Path) -> None:
    """Tic-tac-toe declares no scenario keys: its state's field ``cells`` is one, set and
    expected whole, and a value of the wrong shape is refused naming its line."""
    assert all(o.ok for o in run(TICTACTOE / "x_wins_the_diagonal.yaml"))
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"scenario: a cell holding a number\nedition: {TICTACTOE / 'pack.yaml'}\n"
                   "players: 2\nposition:\n  cells: [x, 1, '', '', '', '', '', '', '']\n",
                   encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad\.yaml:5:\d+: position\.cells: "
                                            r"cells\[1\]: expected str, got int"):
        load(bad)


def test_a_state_names_the_fields_a_game_adds() -> None:
    assert State.game_fields() == ()
