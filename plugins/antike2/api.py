"""Questions about a game of Antike II that several plugins, the reports and the bots ask:
what a nation has, and whether a saved state fits the rule set."""

from __future__ import annotations

from typing import Any

from antike2.state import HOLDINGS, UNITS, Game, State
from antike2.supply import cities_of, seas_held, temples_of


def figures(game: Game, nation: str) -> dict[str, Any]:
    """What a summary shows of a nation."""
    state = game.state
    units = {k: sum(a.get(k, 0) for a in state.units.get(nation, {}).values()) for k in UNITS}
    return {"space": state.rondel.get(nation, ""),
            "cities": len(cities_of(state, nation)),
            "temples": len(temples_of(state, nation)),
            "legions": units["legion"], "galleys": units["galley"],
            "seas": seas_held(game, nation),
            "know_how": list(state.know_how.get(nation, [])),
            "personages": list(state.personages.get(nation, [])),
            "stock": {k: state.stock.get(nation, {}).get(k, 0) for k in HOLDINGS},
            "bellona": state.bellona == nation}


PER_NATION = ("units", "stock", "know_how", "personages", "destroyed", "rondel")
"""The state's maps with an entry for every nation."""


def fits(rules: Any, state: State) -> list[str]:
    """What of a loaded state does not fit the board and the cards of ``rules``."""
    board = rules.board
    problems: list[str] = []
    players = set(state.players)
    areas = set(board.regions) | set(board.seas)
    for region, city in state.cities.items():
        if region not in board.regions:
            problems.append(f"cities.{region}: no region of the board")
        if city.get("owner") not in players:
            problems.append(f"cities.{region}.owner: {city.get('owner')!r} does not play")
    for region in state.neutral:
        if region not in board.regions:
            problems.append(f"neutral: {region!r} is no region of the board")
    for key in PER_NATION:
        held = getattr(state, key)
        for nation in held:
            if nation not in players:
                problems.append(f"{key}.{nation}: does not play")
        # setup gives every nation an entry in each; the rules read them without a default
        for nation in state.players:
            if nation not in held:
                problems.append(f"{key}.{nation}: missing (every nation has one)")
    for nation, items in state.stock.items():
        for k in items:
            if k not in HOLDINGS:
                problems.append(f"stock.{nation}.{k}: no resource nor coin "
                                f"({', '.join(HOLDINGS)})")
    for nation, placed in state.units.items():
        for area, kinds in placed.items():
            if area not in areas:
                problems.append(f"units.{nation}.{area}: no area of the board")
            for kind in kinds:
                if kind not in UNITS:
                    problems.append(f"units.{nation}.{area}.{kind}: no unit")
    for key, kind in (("know_how", "know-how"), ("personages", "personage")):
        for nation, cards in getattr(state, key).items():
            for c in cards:
                if c not in rules.cards or rules.cards[c].kind != kind:
                    problems.append(f"{key}.{nation}: {c!r} is no {kind}")
    from antike2.rondel import space_ids

    ids = space_ids(rules.params.get("rondel") or [])
    for nation, space in state.rondel.items():
        if space and space not in ids:
            problems.append(f"rondel.{nation}: {space!r} is no rondel space "
                            f"({', '.join(ids)})")
    if state.bellona and state.bellona not in players:
        problems.append(f"bellona: {state.bellona!r} does not play")
    return problems
