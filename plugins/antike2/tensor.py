"""Antike II's observation tensor (``tensor``): what agents from elsewhere learn from
(``mnrules.openspiel``'s observation tensor, the PettingZoo observation). Its layout is
fixed by the board and the number of nations, and it is read from the viewer's
``player_view`` alone, so it can hold nothing he may not know (Antike II hides nothing:
every nation's tensor holds the same facts, seen from its own seat).

Seats are *relative*: seat 0 is the viewer, then the others in the rule set's seating
order after him. With ``n`` nations, in order (docs/agents.md lists it too):

1. per area (land regions sorted, then seas sorted), per relative seat: its legions,
   its galleys (counts);
2. per region (sorted): the city's holder, one-hot over the ``n`` seats, ``neutral``
   (a neutral temple stands there) and ``none``; its temple (0/1);
3. per relative seat: its rondel space, one-hot over the rondel's spaces and "not yet
   moved"; its marble, iron, gold and coins; its know-hows, personages and destroyed
   temples (counts); whether it holds Bellona (0/1);
4. the seat to act (one-hot over the ``n`` seats and "nobody"), the round, whether the
   game is over.

Counts and the round are raw numbers (not scaled).
"""

from __future__ import annotations

from typing import Any

from antike2.rondel import spaces
from antike2.state import HOLDINGS, UNITS, Game
from mnrules.core.view import one_hot, player_view, relative_seats


def tensor(game: Game, player: str) -> list[float]:
    view = player_view(game, player)
    board = game.rules.board
    seats = relative_seats(game, player)
    regions, seas = sorted(board.regions), sorted(board.seas)
    out: list[float] = []
    units: dict[str, dict[str, dict[str, int]]] = view["units"]
    for area in regions + seas:
        for nation in seats:
            here = units.get(nation, {}).get(area, {})
            out.extend(float(here.get(kind, 0)) for kind in UNITS)
    cities: dict[str, dict[str, Any]] = view["cities"]
    neutral = set(view["neutral"])
    for region in regions:
        city = cities.get(region)
        holder = (city["owner"] if city is not None and city.get("owner")
                  else "neutral" if region in neutral else "none")
        one_hot(out, holder, [*seats, "neutral", "none"])
        out.append(1.0 if city is not None and city.get("temple") else 0.0)
    rondel = ["", *spaces(game)]
    for nation in seats:
        one_hot(out, view["rondel"].get(nation, ""), rondel)
        stock = view["stock"].get(nation, {})
        out.extend(float(stock.get(k, 0)) for k in HOLDINGS)
        out.append(float(len(view["know_how"].get(nation, []))))
        out.append(float(len(view["personages"].get(nation, []))))
        out.append(float(view["destroyed"].get(nation, 0)))
        out.append(1.0 if view["bellona"] == nation else 0.0)
    pending = view.get("pending")
    one_hot(out, pending["player"] if pending else "", [*seats, ""])
    out.append(float(view["round"]))
    out.append(1.0 if view["finished"] else 0.0)
    return out
