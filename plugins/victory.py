"""Victory (FR 6; NL/UK 6.1–6.4; PL 6.1–6.3): the Pyramids, the fifth hero or wonder,
four capitals and/or legendary cities, all three titles — each checked when its
edition says."""

from __future__ import annotations

from typing import Any

from mnrules.effects import Event, Trigger
from mnrules.engine import Game, Param
from mnrules.hookspecs import hookimpl

from .control import slot_controller


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("build_victory", "timed",
              "timed (NL/UK 6.1-6.2: the Pyramids win at once; a 5th hero/wonder wins at the "
              "end of the build phase, the culture leader first among several) or "
              "leader_priority (FR/PL 6.1: the culture leader who builds either wins at once; "
              "otherwise those who built the Pyramids, else the 5th, share at the end of "
              "the phase)", ("timed", "leader_priority")),
        Param("conquest_cities", 4,
              "capitals and/or legendary cities controlled or occupied at the end of "
              "Move & Fight to win"),
        Param("conquest_kinds", ["capital", "legendary"], "the city kinds that count"),
    ]


def great_cities(game: Game) -> dict[str, int]:
    """Capitals and legendary cities each player controls or occupies."""
    state = game.state
    board = game.rules.board
    kinds = set(game.param("conquest_kinds"))
    out = dict.fromkeys(state.players, 0)
    for prov, built in state.built.items():
        slots = board.provinces[prov].slots
        for i, b in enumerate(built):
            if b and slots[i].kind in kinds:
                who = slot_controller(state, prov, i)
                if who in out:
                    out[who] += 1
    return out


def _claims(game: Game) -> dict[str, list[str]]:
    claims: dict[str, list[str]] = game.state.vars.setdefault(
        "victory.build", {"pyramids": [], "fifth": []})
    return claims


@hookimpl
def mn_triggers(game: Game, event: Event) -> list[Trigger] | None:
    if event.kind != "built" or event.data["action"][0] != "tile":
        return None
    tile = event.data["action"][1]
    player = event.player
    assert player is not None

    def check(e: Event) -> None:
        cards = game.rules.cards
        state = game.state
        if cards[tile].kind == "pyramids":
            path = "pyramids"
        elif sum(1 for t in state.tiles[player] if cards[t].kind != "pyramids") \
                >= game.param("max_tiles"):
            path = "fifth"
        else:
            return
        model = game.param("build_victory")
        if model == "timed" and path == "pyramids":
            game.end([player], "pyramids")
        elif model == "leader_priority" and state.titles.get("culture") == player:
            game.end([player], path)
        else:
            _claims(game)[path].append(player)
    return [Trigger("rules:build victory", check)]


@hookimpl
def mn_phase_end(game: Game, phase: str) -> None:
    state = game.state
    if state.finished:
        return
    if phase == "build":
        claims = state.vars.pop("victory.build", None)
        if not claims:
            return
        pyr, fifth = claims["pyramids"], claims["fifth"]
        if game.param("build_victory") == "timed":
            if fifth:
                leader = state.titles.get("culture")
                game.end([leader] if leader is not None and leader in fifth else fifth, "fifth")
        elif pyr:
            game.end(pyr, "pyramids")
        elif fifth:
            game.end(fifth, "fifth")
    elif phase == "military":
        need = game.param("conquest_cities")
        winners = [p for p, n in great_cities(game).items() if n >= need]
        if winners:
            game.end(winners, "conquest")
    elif phase == "claims":
        holders = set(state.titles.values())
        if len(holders) == 1 and len(state.titles) == 3:
            game.end(list(holders), "leadership")


@hookimpl
def mn_report(game: Game, player: str) -> dict[str, Any]:
    return {"great_cities": great_cities(game)[player]}
