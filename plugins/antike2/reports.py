"""What a player reads of Antike II outside the board picture: the figures of each
nation (``mn_report``), the round summary ``mnrules play`` prints, and the terminal's
board and stock views. Every word comes from the pack's names (``--lang`` chooses them).
"""

from __future__ import annotations

from typing import Any

from mnrules.effects import Event
from mnrules.hookspecs import hookimpl
from mnrules.plugins.antike2.api import figures
from mnrules.plugins.antike2.state import HOLDINGS, Game
from mnrules.present import place_name

SENTENCES = {
    "round": "Round", "paid": " (paid {k})", "produce": "+{amount} {resource}",
    "raise": "raises {what}", "temple": "temple in {regions}", "learn": "learns {what}",
    "found": "founds {what}", "personage": "takes {what}", "trade": "trades",
    "bellona": "passes Bellona to {to}", "move": "moves a {unit} {from} > {to}",
    "battle": "fights {defender} in {area} ({lost} {unit}s each lost)",
    "conquest": "conquers {region} from {defender} (defence {defence})",
    "conquest_neutral": "destroys the neutral temple of {region}",
    "line": "  {n:<10} {space:<12} cities {cities:>2} temples {temples:>2} legions "
            "{legions:>2} galleys {galleys:>2} know-how {kh} personages {p}/{target} "
            "{stock}",
    "stock": "your stock: {items}", "your_cities": "your cities: {items}",
    "your_units": "your units: {items}", "none": "none", "off": "-",
}
"""The sentences of the reports, by key: a pack gives them in its language as the names
``say.KEY`` (kind ``sentences``); these English ones stand in for a pack without them."""


def _words(names: dict[str, str]) -> dict[str, str]:
    return {k: names.get(f"say.{k}", text) for k, text in SENTENCES.items()}


def _target(game: Game) -> int:
    from mnrules.plugins.antike2.victory import target

    return target(game) if "personage_target" in game.rules.params else 0


def round_lines(game: Game, rnd: int, events: list[Event],
                names: dict[str, str] | None = None) -> list[str]:
    nm = dict(game.rules.names)
    nm.update(names or {})
    w = _words(nm)

    def n(key: str) -> str:
        # an area no pack names reads as a name (MARE_GALLICUM: Mare Gallicum), not an id
        return nm.get(key) or place_name(key)

    def card(key: str) -> str:
        c = game.rules.cards.get(key)
        return nm.get(key) or (c.name() if c is not None else key)

    acts: dict[str, list[str]] = {}
    order: list[str] = []

    def say(who: str | None, text: str) -> None:
        if who is None:
            return
        if who not in acts:
            acts[who] = []
            order.append(who)
        acts[who].append(text)

    for ev in events:
        d = ev.data
        if ev.kind == "rondel":
            text = n(d["space"])
            if d.get("cost"):
                text += w["paid"].format(k=d["cost"])
            say(ev.player, text)
        elif ev.kind == "produce":
            say(ev.player, w["produce"].format(amount=d["amount"], resource=n(d["resource"])))
        elif ev.kind == "raise":
            say(ev.player, w["raise"].format(what=f"{n(d['unit'])} {n(d['region'])}"))
        elif ev.kind == "temple":
            say(ev.player, w["temple"].format(regions=n(d["region"])))
        elif ev.kind == "learn":
            say(ev.player, w["learn"].format(what=card(d["know_how"])))
        elif ev.kind == "found":
            say(ev.player, w["found"].format(what=f"{n(d['region'])} ({n(d['resource'])})"))
        elif ev.kind == "personage":
            say(ev.player, w["personage"].format(what=card(d["personage"])))
        elif ev.kind == "trade":
            say(ev.player, w["trade"])
        elif ev.kind == "bellona":
            say(ev.player, w["bellona"].format(to=n(d["to"])))
        elif ev.kind == "move":
            say(ev.player, w["move"].format(unit=n(d["unit"]), to=n(d["to"]),
                                            **{"from": n(d["from"])}))
        elif ev.kind == "battle":
            lost = d.get("lost")
            lost = max(lost.values()) if isinstance(lost, dict) and lost else lost
            say(ev.player, w["battle"].format(defender=n(d["defender"]), area=n(d["area"]),
                                              lost=lost, unit=n(d["unit"])))
        elif ev.kind == "conquest":
            key = "conquest" if d.get("defender") else "conquest_neutral"
            say(ev.player, w[key].format(region=n(d["region"]),
                                         defender=n(d.get("defender") or ""),
                                         defence=d.get("defence")))
        elif ev.kind not in ("turn_start", "turn_end", "paid", "militia", "phase_start",
                             "chance", "game_over") and ev.player:
            say(ev.player, n(ev.kind) + (" " + n(str(d["region"])) if "region" in d else ""))
    lines = [f"{w['round']} {rnd}"]
    for who in order:
        lines.append(f"  {n(who)}: " + ", ".join(acts[who]))
    target = _target(game)
    for who in game.state.players:
        f = figures(game, who)
        stock = " ".join(f"{n(k)} {v}" for k, v in f["stock"].items() if v)
        lines.append(w["line"].format(
            n=n(who), space=n(f["space"]) if f["space"] else w["off"], cities=f["cities"],
            temples=f["temples"], legions=f["legions"], galleys=f["galleys"],
            kh=len(f["know_how"]), p=len(f["personages"]), target=target,
            stock=f"[{stock}]" if stock else ""))
    return lines


def describe(game: Game, player: str, what: str, names: dict[str, str] | None = None
             ) -> str:
    nm = dict(game.rules.names)
    nm.update(names or {})
    w = _words(nm)

    def n(key: str) -> str:
        return nm.get(key, key)

    state = game.state
    if what == "screen":
        items = ", ".join(f"{n(k)} {state.stock[player].get(k, 0)}" for k in HOLDINGS)
        return w["stock"].format(items=items)
    lines = round_lines(game, state.round, [], nm)[1:]
    mine = [f"{n(r)} ({n(c['resource'])}{', ' + n('temple') if c['temple'] else ''})"
            for r, c in sorted(state.cities.items()) if c["owner"] == player]
    lines.append("  " + w["your_cities"].format(items=", ".join(mine) or w["none"]))
    units = [f"{n(a)}: " + ", ".join(f"{n(k)} {v}" for k, v in kinds.items())
             for a, kinds in sorted(state.units.get(player, {}).items())]
    lines.append("  " + w["your_units"].format(items="; ".join(units) or w["none"]))
    return "\n".join(lines)


@hookimpl
def mn_report(game: Game, player: str) -> dict[str, Any]:
    f = figures(game, player)
    return {"cities": f["cities"], "temples": f["temples"], "legions": f["legions"],
            "galleys": f["galleys"], "seas": f["seas"], "know_how": len(f["know_how"]),
            "personages": len(f["personages"])}


@hookimpl
def mn_round_summary(game: Game, round: int, events: list[Event],
                     names: dict[str, str]) -> list[str]:
    return round_lines(game, round, events, names)


@hookimpl
def mn_describe(game: Game, player: str, what: str) -> str:
    return describe(game, player, what)
