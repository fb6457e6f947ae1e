"""The leadership tracks, derived from the board every time they are read.

Trade = caravans + markets, Culture = cities + capitals + legendary cities + temples,
Military = legions + triremes + fortresses; occupied buildings count for the occupier;
heroes and wonders add the bonuses printed on them (FR 3.8/5; NL/PL/UK 3.1.4, 5).
"""

from __future__ import annotations

from typing import Any

from mare_nostrum.state import TRACKS, Game
from mnrules.core.effects import Modifier
from mnrules.core.engine import Param
from mnrules.hooks.contract import Declaration, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl

# What this plugin answers on the bus (see mnrules.hooks.bus).
MODIFIES = frozenset({"track"})


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("track_buildings", {"trade": ["caravan", "market"],
                                  "culture": ["city", "capital", "legendary", "temple"]},
              "which building kinds count on which track",
              ("caravan", "market", "city", "capital", "legendary", "temple"), length=(0, 6)),
        Param("track_units", {"military": ["legion", "trireme", "fortress"]},
              "which unit kinds count on which track", ("legion", "trireme", "fortress"),
              length=(0, 3)),
    ]


def counted(game: Game) -> dict[str, dict[str, int]]:
    """Each player's track levels before hero and wonder bonuses."""
    state = game.state
    board = game.rules.board
    kinds: dict[str, str] = {}
    for track, ks in game.param("track_buildings").items():
        for k in ks:
            kinds[k] = track
    unit_kinds: dict[str, str] = {}
    for track, ks in game.param("track_units").items():
        for k in ks:
            unit_kinds[k] = track
    levels = {p: dict.fromkeys(TRACKS, 0) for p in state.players}
    control = state.control
    occupied = state.occupied
    provinces = board.provinces
    for prov, built in state.built.items():
        if True not in built:
            continue
        slots = provinces[prov].slots
        occupiers = occupied[prov]
        for i, is_built in enumerate(built):
            if not is_built:
                continue
            track = kinds.get(slots[i].kind)
            if track is None:
                continue
            # slot_controller's rule, inlined (a pass over every slot of the board)
            who = occupiers[i] or control.get(prov)
            if who in levels:
                levels[who][track] += 1
    for here in state.units.values():
        for who, units in here.items():
            for kind, n in units.items():
                track = unit_kinds.get(kind)
                if track is not None:
                    levels[who][track] += n
    return levels


def levels(game: Game) -> dict[str, dict[str, int]]:
    """Each player's track levels, heroes' and wonders' bonuses included."""
    out = counted(game)
    for p, tracks in out.items():
        for t in TRACKS:
            tracks[t] = game.fold("track", tracks[t], player=p, track=t)
    return out


@hookimpl
def mn_modifiers(game: Game, quantity: str, ctx: dict[str, Any]) -> list[Modifier] | None:
    """The leadership bonuses printed on the tiles a player owns."""
    if quantity != "track":
        return None
    cards = game.rules.cards
    bonus = 0
    for tile in game.state.tiles.get(ctx["player"], ()):
        card = cards.get(tile)
        if card is not None:
            bonus += card.bonuses.get(ctx["track"], 0)
    if not bonus:
        return None
    return [Modifier("rules:tile bonuses", lambda v: v + bonus)]


@hookimpl
def mn_report(game: Game, player: str) -> dict[str, Any]:
    lv = levels(game)[player]
    titles = [t for t, who in game.state.titles.items() if who == player]
    return {"trade": lv["trade"], "culture": lv["culture"], "military": lv["military"],
            "titles": titles}


@hookimpl
def mn_contract() -> list[Declaration]:
    """The track levels this plugin folds."""
    return [
        Part("tracks", "", "Each empire's level on the trade, culture and military tracks, "
             "counted from its buildings, units and tiles."),
        Quantity("track", "tracks", "A player's level on a leadership track: what his "
                 "pieces count there plus the bonuses printed on his heroes and wonders.",
                 "int", (("player", "whose level it is"),
                         ("track", "the track: trade, culture or military")),
                 subject="player", word="track"),
    ]
