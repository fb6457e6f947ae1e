"""Conquest (book 002, Movere 2, «Завоевание») where a pack changes its numbers, and the
rules the book's examples do not reach: the defence is what the units must number and
what the conqueror loses, whatever a pack or a card makes of it; a conqueror may stop;
and a city changes colour only with a token of the conqueror's left in the box."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from antike2.conquest import conquerable, defence, loss_options, refusal
from antike2.state import Game
from mnrules import load_ruleset, new_game
from mnrules.content.ruleset import Ruleset
from mnrules.tools.scenario import set_position
from test_movere import asked, play, units

PACK = Path("editions/antike2/antike2/pack.yaml").resolve()


def variant(tmp_path: Path, text: str) -> Ruleset:
    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: {PACK}\n{text}", encoding="utf-8")
    return load_ruleset(path)


def at_movere_in(rules: Ruleset, position: dict[str, Any], nation: str) -> Game:
    """``nation`` at its Movere under ``rules``, in ``position``."""
    game: Game = new_game(rules, players=6, seed=1)
    set_position(game, {**position, "phase": "turn", "frame": {"nation": nation}})
    while game.pending is not None and game.pending.kind != "a2.rondel":
        play(game, ("done",))
    play(game, "movere")
    return game


def test_an_undefended_neutral_temple_costs_the_conqueror_nothing(tmp_path: Path) -> None:
    """The conqueror loses as many units as the defence («Завоеватель теряет количество
    воинских частей равное силе обороны»): a pack whose neutral temples defend at 0 lets
    one legion destroy one and keep its legion."""
    rules = variant(tmp_path, "params: {neutral_temple_defence: 0}\n")
    game = at_movere_in(rules, {"cities": {"LUGDUNUM": "red", "BURDIGALA": "red"},
                                "neutral": ["LUTETIA"],
                                "units": {"red": {"LUTETIA": {"legion": 1}}},
                                "personages": {"red": ["king"] * 3}}, "red")
    assert defence(game, "LUTETIA") == 0
    play(game, ("done",))
    assert asked(game) == ("red", "a2.conquest")
    play(game, ("conquer", "LUTETIA"))
    assert "LUTETIA" not in game.state.neutral
    assert units(game, "red", "LUTETIA") == {"legion": 1}
    assert game.state.destroyed["red"] == 1


def test_a_card_lowering_the_defence_below_nothing_leaves_it_at_nothing(
        tmp_path: Path) -> None:
    """A defence is never below 0: a (patched) Regnum subtracting 9 from a city's defence
    of 1 makes it 0, and a region without a city or temple has nothing to conquer (0)."""
    rules = variant(tmp_path, "cards:\n  override:\n    regnum:\n      effects: |\n"
                    "        modify city_defence: subtract 9\n")
    game = at_movere_in(rules, {"cities": {"GESOCRIBATE": "yellow", "ROMA": "yellow",
                                           "LUTETIA": "red"},
                                "know_how": {"yellow": ["regnum"]},
                                "units": {"red": {"GESOCRIBATE": {"legion": 1}}},
                                "personages": {"yellow": ["king"] * 3}}, "red")
    assert defence(game, "GESOCRIBATE") == 0
    assert defence(game, "NARBO") == 0
    play(game, ("done",), ("conquer", "GESOCRIBATE"))
    assert game.state.cities["GESOCRIBATE"]["owner"] == "red"
    assert units(game, "red", "GESOCRIBATE") == {"legion": 1}


def test_every_way_to_give_up_the_defence_uses_units_the_conqueror_has() -> None:
    """«Он может выбрать, какой тип войск удалить (Легион или Галеру), если имеет их
    больше, чем необходимо»: each way gives up exactly the defence, from the legions and
    galleys in the region, and every such way is offered."""
    game = at_movere_in(load_ruleset("antike2"), {"cities": {"LUGDUNUM": "red"}}, "red")
    for legions in range(4):
        for galleys in range(4):
            game.state.units["red"] = ({"GESOCRIBATE": {"legion": legions, "galley": galleys}}
                                       if legions or galleys else {})
            for n in range(legions + galleys + 1):
                ways = loss_options(game.state, "red", "GESOCRIBATE", n)
                assert {(k, n - k) for k in range(n + 1) if k <= legions
                        and n - k <= galleys} == {(lg, ga) for _, lg, ga in ways}
                assert all(kind == "lose" for kind, _, _ in ways)


def test_a_conqueror_with_no_city_token_left_cannot_take_a_city() -> None:
    """«Снабжение ограничено»: a conquered city takes a token of the conqueror's colour
    from the box (24 a nation); red, with all 24 on the board, may not conquer
    GESOCRIBATE though his legions reach its defence."""
    rules = load_ruleset("antike2")
    sites = [r for r, site in rules.board.regions.items() if site.city != "universal"
             and not site.neutral_temple and r not in ("GESOCRIBATE", "ROMA")]
    red = {r: "red" for r in sites[:24]}
    game = at_movere_in(rules, {"cities": {**red, "GESOCRIBATE": "yellow", "ROMA": "yellow"},
                                "units": {"red": {"GESOCRIBATE": {"legion": 2}}},
                                "personages": {"yellow": ["king"] * 3}}, "red")
    assert defence(game, "GESOCRIBATE") == 1
    assert conquerable(game, "red") == []
    rule, why = refusal(game, "red", "GESOCRIBATE") or (None, "")
    assert rule is not None and rule.id == "conquest-token"
    assert why == "Red has no city token left in the box"
    del game.state.cities[sites[0]]                  # one token back in the box
    assert conquerable(game, "red") == ["GESOCRIBATE"]
