"""What a player reads of Mare Nostrum outside the board picture: the round summary of
``mnrules play`` and the terminal's board and screen views."""

from __future__ import annotations

from mnrules.effects import Event
from mnrules.hookspecs import hookimpl
from mnrules.plugins.mare_nostrum.state import Game
from mnrules.view import player_view


def round_lines(game: Game, rnd: int, events: list[Event],
                names: dict[str, str] | None = None) -> list[str]:
    """What ``mnrules play`` prints after a round: trade, purchases, each empire's figures."""
    nm = names or {}

    def n(key: str) -> str:
        return nm.get(key, key)

    lines = [f"Round {rnd}"]
    built: dict[str, list[str]] = {}
    for ev in events:
        if ev.kind == "trade_token":
            lines.append(f"  trade: {ev.player} plays token {ev.data['token']} "
                         f"for {ev.data['value']}")
        elif ev.kind == "built" and ev.player:
            act = ev.data["action"]
            what = act[0] if act[0] != "building" else \
                game.rules.board.provinces[act[1]].slots[act[2]].kind
            built.setdefault(ev.player, []).append(f"{what}@{act[1]}" if len(act) > 1
                                                   else what)
    for p, items in built.items():
        lines.append(f"  {p} builds {', '.join(items)}")
    for p, r in game.report().items():
        titles = f" [{', '.join(r.get('titles', []))}]" if r.get("titles") else ""
        titles = f" [{', '.join(n(t) for t in r.get('titles', []))}]" \
            if r.get("titles") else ""
        lines.append(f"  {p:<9} {n('trade')} {r.get('trade', 0):>2}  {n('culture')} "
                     f"{r.get('culture', 0):>2}  {n('military')} {r.get('military', 0):>2}  "
                     f"provinces {r.get('provinces', 0):>2}  tiles {len(r.get('tiles', []))}"
                     f"{titles}")
    return lines


def describe_board(game: Game, player: str) -> str:
    view = player_view(game, player)
    lines = [f"Round {view['round']}, phase {view['phase'] or '-'}; titles: "
             + ", ".join(f"{t}: {p}" for t, p in view["titles"].items())]
    for p, r in game.report().items():
        held = view["screens"][p]
        count = sum(held.values()) if p == player else held.get("hidden", 0)
        lines.append(f"  {p:<9} trade {r.get('trade', 0):>2} culture {r.get('culture', 0):>2}"
                     f" military {r.get('military', 0):>2}  provinces {r.get('provinces', 0)}"
                     f"  resources {count}  tiles {', '.join(r.get('tiles', []))}")
    mine = sorted(prov for prov, who in game.state.control.items() if who == player)
    lines.append(f"  your provinces: {', '.join(mine)}")
    units = [f"{area}: " + ", ".join(f"{k} {n}" for k, n in who[player].items())
             for area, who in sorted(game.state.units.items()) if player in who]
    lines.append("  your units: " + ("; ".join(units) or "none"))
    return "\n".join(lines)



@hookimpl
def mn_round_summary(game: Game, round: int, events: list[Event],
                     names: dict[str, str]) -> list[str]:
    return round_lines(game, round, events, names)


@hookimpl
def mn_describe(game: Game, player: str, what: str) -> str:
    if what == "screen":
        return f"your screen: {game.state.screens[player]}"
    return describe_board(game, player)
