"""Mare Nostrum's observation tensor (``tensor``): what agents from elsewhere learn
from (``mnrules.openspiel``'s observation tensor, the PettingZoo observation). Its layout
is fixed by the board and the number of empires, and it is read from the viewer's
``player_view`` alone, so it holds nothing he may not know: of another empire's screen
only how many goods it hides, of the legendary pile and the face-down tiles only how
many there are, of a trade offer in the making nothing.

Seats are *relative*: seat 0 is the viewer, then the others in the rule set's seating
order after him. With ``n`` empires, in order (docs/agents.md lists it too):

1. per province (sorted): its controller, one-hot over the ``n`` seats and ``none``; its
   buildings built; per relative seat, the spaces of it its units occupy;
2. per area (provinces sorted, then seas sorted), per relative seat: its legions,
   triremes and fortresses;
3. per relative seat: the legions, triremes, fortresses and markers left in its box;
   the goods behind its screen (a count); its heroes and wonders;
4. the viewer's own screen, per good (the board's goods and coins, sorted);
5. the supply, per good and per building kind; the legendary pile, its discard, the
   face-up display and the face-down tiles (counts);
6. per title (sorted), its holder: one-hot over the ``n`` seats and ``none``;
7. the phase, one-hot over the rule set's phases; the seat to act (one-hot over the
   ``n`` seats and "nobody"), the round, whether the game is over.

Counts and the round are raw numbers (not scaled).
"""

from __future__ import annotations

from mare_nostrum.box_data import BUILDING_KINDS, PIECES
from mare_nostrum.state import Game
from mnrules.core.view import one_hot, player_view, relative_seats

UNIT_KINDS = ("legion", "trireme", "fortress")


def goods(game: Game) -> list[str]:
    """The goods a screen may hold: the board's (its caravans' and markets') and coins."""
    found = {slot.good for province in game.rules.board.provinces.values()
             for slot in province.slots if slot.good}
    return sorted(found | {"coin"})


def tensor(game: Game, player: str) -> list[float]:
    view = player_view(game, player)
    board = game.rules.board
    seats = relative_seats(game, player)
    provinces, seas = sorted(board.provinces), sorted(board.seas)
    out: list[float] = []
    for province in provinces:
        one_hot(out, view["control"].get(province), [*seats, None])
        out.append(float(sum(1 for b in view["built"].get(province, []) if b)))
        held = view["occupied"].get(province, [])
        out.extend(float(sum(1 for who in held if who == s)) for s in seats)
    units: dict[str, dict[str, dict[str, int]]] = view["units"]
    for area in provinces + seas:
        for empire in seats:
            here = units.get(area, {}).get(empire, {})
            out.extend(float(here.get(kind, 0)) for kind in UNIT_KINDS)
    screens: dict[str, dict[str, int]] = view["screens"]
    for empire in seats:
        box = view["pieces"].get(empire, {})
        out.extend(float(box.get(kind, 0)) for kind in PIECES)
        screen = screens.get(empire, {})
        out.append(float(sum(screen.values())))   # {"hidden": n} for another's
        out.append(float(len(view["tiles"].get(empire, []))))
    mine = screens.get(player, {})
    kinds = goods(game)
    out.extend(float(mine.get(good, 0)) for good in kinds)
    supply: dict[str, int] = view["supply"]
    out.extend(float(supply.get(key, 0)) for key in [*kinds, *BUILDING_KINDS])
    out.append(float(view["legendary_pile"]))
    out.append(float(len(view["legendary_discard"])))
    out.append(float(len(view["display"])))
    out.append(float(view["display_hidden"]))
    for title in sorted(board.start_titles):
        one_hot(out, view["titles"].get(title), [*seats, None])
    one_hot(out, view["phase"], list(game.rules.phases))
    pending = view.get("pending")
    one_hot(out, pending["player"] if pending else "", [*seats, ""])
    out.append(float(view["round"]))
    out.append(1.0 if view["finished"] else 0.0)
    return out
