"""Winning (book, "ЦЕЛЬ ИГРЫ"): the first nation to hold the target number of
personages at the end of its turn wins — 7 with six nations, 10 with three (book); 9
with four and 8 with five (Antike, Rio Grande 2006 rules p. IV, the same table; the
Antike II book's laurel-wreath track is lost).

One personage short (book 002, ЦЕЛЬ ИГРЫ): "Если нация не хватает выиграть всего лишь 1
персонажа, она может выиграть, разрушая храм даже если персонажей больше нет в банке."
A destroyed temple is worth a general ("7 ГЕНЕРАЛОВ: За каждый храм (включительно за
нейтральные храмы), разрушенный нацией, игрок получает Генерала"); the sentence lets it
win only where that general cannot be had, "even if no personages are left in the
bank". So a temple stands in only for a general the bank can no longer give: the nation
wins by it at the end of its turn if, one short, it destroyed in this turn a temple for
which no general was left (the turn's ``without_general``, counted as the temple falls:
``personages.temple_destroyed``). A temple that earned a general has been counted
once, as that general, and does not count again: two short, a temple and the last
general leave the nation one short, not a winner.

Variant "Nine scholars" (parameter ``pliny_wins``): Pliny the Elder, for all eight
know-how, wins the game.
"""

from __future__ import annotations

from antike2.state import Game, Step
from antike2.turn import this_turn
from mnrules.core.engine import DONE, Decision, Frame, Param
from mnrules.hooks.contract import Declaration, Part
from mnrules.hooks.hookspecs import hookimpl


def target(game: Game) -> int:
    targets: dict[str, int] = game.param("personage_target")
    n = len(game.state.players)
    return int(targets.get(str(n), targets[max(targets, key=int)]))


def victory_of(game: Game, nation: str) -> str | None:
    """How ``nation`` wins at the end of its turn, if it does."""
    state = game.state
    held = state.personages.get(nation, [])
    if len(held) >= target(game):
        return "personages"
    if game.param("pliny_wins") and "pliny" in held:
        return "pliny"
    turn = this_turn(game)
    without_general = int(turn.get("without_general", 0)) \
        if turn.get("nation") == nation else 0
    if len(held) == target(game) - 1 and without_general > 0:
        return "temple"
    return None


class Victory(Step):
    """Frame ``{nation}``: end the game if the nation has won (no decision)."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        how = victory_of(game, frame["nation"])
        if how is not None:
            game.end([frame["nation"]], how)
        return DONE


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"a2.victory": Victory()}


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("personage_target", {"3": 10, "4": 9, "5": 8, "6": 7}, "personages a nation "
              "needs to win, by the number of nations (book: 6 → 7, 3 → 10; Antike 2006: "
              "4 → 9, 5 → 8)", minimum=1, maximum=37, open_keys=True),
        Param("pliny_wins", False, "the book's variant 'Nine scholars': Pliny the Elder "
              "wins the game",
              choices=(Param.Option(False, "Pliny is one personage", "002 Ученые"),
                       Param.Option(True, "Pliny wins", "002 Варианты: Девять ученых"))),
    ]


@hookimpl
def mn_contract() -> list[Declaration]:
    return [Part("victory", "turn", "The end of a turn: the personage target reached, or "
                 "one short and a temple destroyed for which no general was left.")]
