"""What a player reads of Antike II outside the board picture: the figures of each
nation (``mn_report``), the round summary ``mnrules play`` prints, and the terminal's
board and stock views. Every word is the presentation layer's (``summary.*`` templates of
the packs' messages.yaml, the pack's names), in the language ``--lang`` asks.
"""

from __future__ import annotations

from typing import Any

from antike2.api import figures
from antike2.state import HOLDINGS, Game
from mnrules.core.effects import Event
from mnrules.hooks.hookspecs import hookimpl
from mnrules.language.present import Presenter

SKIPPED = frozenset({"turn_start", "turn_end", "paid", "militia", "phase_start", "chance",
                     "game_over"})
"""Events the summary leaves out: the turn's frame, payments told with what they bought,
the dice (there are none to tell)."""


def _target(game: Game) -> int:
    from antike2.victory import target

    return target(game) if "personage_target" in game.rules.params else 0


def _act(say: Presenter, game: Game, ev: Event) -> str:
    """What a nation did, as a clause of the summary (``summary.KIND`` of the messages);
    an event with no clause is told by its whole sentence (``event.KIND``)."""
    d = ev.data
    n = say.name
    if ev.kind == "rondel":
        key = "summary.rondel" if d.get("cost") else "summary.rondel_free"
        return say.say(key, space=n(d["space"], "spaces"), cost=d.get("cost", 0),
                       cost_count=say.count(int(d.get("cost", 0)), "resource"))
    if ev.kind == "produce":
        return say.say("summary.produce", amount=d["amount"],
                       resource=n(d["resource"], "resources"))
    if ev.kind == "raise":
        return say.say("summary.raise", unit=n(d["unit"], "units"), region=n(d["region"]))
    if ev.kind == "temple":
        return say.say("summary.temple", region=n(d["region"]))
    if ev.kind == "learn":
        return say.say("summary.learn", know_how=say.card_name(d["know_how"]))
    if ev.kind == "found":
        return say.say("summary.found", region=n(d["region"]),
                       resource=n(d["resource"], "resources"))
    if ev.kind == "personage":
        return say.say("summary.personage", personage=say.card_name(d["personage"]))
    if ev.kind == "trade":
        return say.say("summary.trade")
    if ev.kind == "bellona":
        return say.say("summary.bellona", to=say.player(d["to"]))
    if ev.kind == "move":
        return say.say("summary.move", unit=n(d["unit"], "units"), to=n(d["to"]),
                       **{"from": n(d["from"])})
    if ev.kind == "battle":
        lost = d.get("lost")
        lost = max(lost.values()) if isinstance(lost, dict) and lost else lost
        return say.say("summary.battle", defender=say.player(d["defender"]),
                       area=n(d["area"]), lost=say.count(int(lost or 0), str(d["unit"]),
                                                         "units"))
    if ev.kind == "conquest":
        if d.get("defender"):
            return say.say("summary.conquest", region=n(d["region"]),
                           defender=say.player(d["defender"]), defence=d.get("defence"))
        return say.say("summary.conquest_neutral", region=n(d["region"]))
    return say.event(game, ev, None)


def round_lines(say: Presenter, game: Game, rnd: int, events: list[Event]) -> list[str]:
    """What ``mnrules play`` prints after a round, in ``say``'s language: what each
    nation did, then each nation's figures."""
    acts: dict[str, list[str]] = {}
    for ev in events:
        if ev.kind in SKIPPED or not ev.player:
            continue
        text = _act(say, game, ev)
        if text:
            acts.setdefault(ev.player, []).append(text)
    lines = [say.say("ui.round", round=rnd)]
    lines += ["  " + say.say("summary.acts", player=say.player(who), acts=", ".join(done))
              for who, done in acts.items()]
    return lines + figure_lines(say, game)


def figure_lines(say: Presenter, game: Game) -> list[str]:
    target = _target(game)
    lines = []
    for who in game.state.players:
        f = figures(game, who)
        stock = say.join([f"{say.name(k, 'resources')} {v}" for k, v in f["stock"].items()
                          if v])
        space = say.name(f["space"], "spaces") if f["space"] else "-"
        line = say.say("summary.figures", cities=f["cities"], temples=f["temples"],
                       legions=f["legions"], galleys=f["galleys"], know_how=len(f["know_how"]),
                       personages=len(f["personages"]), target=target)
        if stock:
            line += " " + say.say("summary.stock", stock=stock)
        lines.append(f"  {say.player(who):<10} {space:<12} {line}")
    return lines


def describe(say: Presenter, game: Game, player: str, what: str) -> str:
    state = game.state
    if what == "screen":
        items = say.join([f"{say.name(k, 'resources')} {state.stock[player].get(k, 0)}"
                          for k in HOLDINGS])
        return say.say("summary.your_stock", items=items)
    lines = figure_lines(say, game)
    temple = say.name("temple", "things")
    mine = [f"{say.name(r)} ({say.name(c['resource'], 'resources')}"
            f"{', ' + temple if c['temple'] else ''})"
            for r, c in sorted(state.cities.items()) if c["owner"] == player]
    lines.append("  " + say.say("summary.your_cities",
                                items=", ".join(mine) or say.say("ui.none")))
    units = [f"{say.name(a)}: " + say.join([say.count(v, k, "units")
                                            for k, v in kinds.items() if v])
             for a, kinds in sorted(state.units.get(player, {}).items())]
    lines.append("  " + say.say("summary.your_units",
                                items="; ".join(units) or say.say("ui.none")))
    return "\n".join(lines)


@hookimpl
def mn_report(game: Game, player: str) -> dict[str, Any]:
    f = figures(game, player)
    return {"cities": f["cities"], "temples": f["temples"], "legions": f["legions"],
            "galleys": f["galleys"], "seas": f["seas"], "know_how": len(f["know_how"]),
            "personages": len(f["personages"])}


def round_summary(say: Presenter, game: Game, round: int, events: list[Event]
                     ) -> list[str]:
    return round_lines(say, game, round, events)
