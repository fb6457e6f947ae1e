"""What a player of Antike II reads at the terminal and in any front end: every event,
question and option as a sentence in his language, through the kernel's presentation
hooks (mnrules/language/present.py), and the table beside the map.

Every sentence is a template of the packs' ``messages.yaml`` (``editions/antike2/<pack>/``),
keyed by what it says: ``event.KIND`` for an event (its data are the template's values),
``decision.KIND`` for a question (the player, and the frame's plain values), and for an
option ``option.KIND`` (a one-word option: ``{option}``) or ``option.KIND.FIRST`` (a
tuple-shaped option: its other items as ``{a}``, ``{b}``, ``{c}``; a way of areas reads
"A > B > C"). Ids become the pack's names; nothing here is English.
"""

from __future__ import annotations

from typing import Any

from antike2.api import figures
from antike2.state import HOLDINGS, Game
from mnrules.core.effects import Event
from mnrules.core.engine import Decision
from mnrules.language.present import Presenter

SECRET_EVENTS = frozenset({"turn_end", "chance"})
"""Events nobody needs to read (the turn's end is the next turn's start)."""


def spelt(say: Presenter, value: Any) -> str:
    """A value of an event, a frame or an option in words: names for ids, a way of areas
    joined by '>', lists and mappings spelt out."""
    if isinstance(value, str):
        return say.name(value) if value else ""
    if isinstance(value, bool | int):
        return say.plain(value)
    if isinstance(value, dict):
        # counted with the language's plural where it has one ("3 золота")
        return say.join([say.count(v, str(k)) if isinstance(v, int) else
                         f"{v} {say.name(k)}" for k, v in value.items() if v]) or \
            say.say("ui.none")
    if isinstance(value, list | tuple):
        if value and all(isinstance(v, str) and v.isupper() for v in value):
            return " > ".join(say.name(v) for v in value)
        return say.join([spelt(say, v) for v in value])
    return say.plain(value)


def _values(say: Presenter, data: dict[str, Any]) -> dict[str, str]:
    return {str(k): spelt(say, v) for k, v in data.items() if k != "key"}


def event_text(say: Presenter, game: Game, event: Event, viewer: str | None
                  ) -> str | None:
    if event.kind in SECRET_EVENTS:
        return ""
    key = f"event.{event.kind}"
    if event.kind == "conquest" and not event.data.get("defender"):
        key = "event.conquest_neutral"
    if event.kind == "learn" and event.data.get("first"):
        key = "event.learn_first"
    if event.kind == "rondel" and not event.data.get("cost"):
        key = "event.rondel_free"
    if event.kind == "produce" and event.data.get("coin") is False:
        key = "event.produce_no_coin"
    if not say.has(key):
        return None
    values = _values(say, event.data)
    # a number a sentence counts is said with its word, in the language's plural
    if event.kind == "rondel" and isinstance(event.data.get("cost"), int):
        values["cost_count"] = say.count(event.data["cost"], "resource")
    if event.kind == "produce" and isinstance(event.data.get("amount"), int):
        values["amount_count"] = say.count(event.data["amount"],
                                           str(event.data.get("resource", "")))
    if event.kind == "militia" and isinstance(event.data.get("raised"), int):
        values["raised_count"] = say.count(event.data["raised"], "unit")
    if event.kind == "battle" and isinstance(event.data.get("lost"), int):
        values["losses"] = say.count(event.data["lost"], str(event.data.get("unit", "")),
                                     "units")
    return say.say(key, player=say.player(event.player), **values)


def prompt_text(say: Presenter, game: Game, decision: Decision) -> str | None:
    key = f"decision.{decision.kind}"
    if not say.has(key):
        return None
    frame = game.state.stack[-1] if game.state.stack else {}
    plain = {k: v for k, v in frame.items() if isinstance(v, str | int) and k != "step"}
    if isinstance(frame.get("n"), int) and isinstance(frame.get("paid"), int):
        plain["left"] = frame["n"] - frame["paid"]
    values = _values(say, plain)
    values["player"] = say.player(decision.player)
    return say.say(key, **values)


def option_text(say: Presenter, game: Game, decision: Decision, option: Any
                   ) -> str | None:
    if isinstance(option, tuple) and option and isinstance(option[0], str):
        key = f"option.{decision.kind}.{option[0]}"
        if not say.has(key):
            return None
        rest = {name: spelt(say, v) for name, v in zip("abcdef", option[1:], strict=False)}
        if decision.kind == "a2.losses" and len(option) == 3:
            # (lose, legions, galleys): counted with the language's plural
            rest.update(legions=say.count(int(option[1]), "legion", "units", case="acc"),
                        galleys=say.count(int(option[2]), "galley", "units", case="acc"))
        return say.say(key, **rest)
    key = f"option.{decision.kind}"
    if isinstance(option, str) and say.has(key):
        if decision.kind == "a2.rondel":
            # a space beyond the free ones costs resources: the player reads what he pays
            from antike2.rondel import cost

            price = cost(game, game.state.rondel.get(decision.player, ""), option,
                         decision.player)
            if price and say.has(f"{key}.pay"):
                return say.say(f"{key}.pay", option=say.name(option), cost=price,
                               cost_count=say.count(price, "resource"))
        return say.say(key, option=say.name(option))
    return None


def option_places(game: Game, decision: Decision, option: Any) -> list[str] | None:
    """The areas an option is about, as a player points at them on the map: where a unit
    is raised, a temple built, a city founded or conquered, a battle started; a move's
    start and end."""
    if not isinstance(option, tuple) or len(option) < 2:
        return []
    kind = decision.kind
    if kind in ("a2.militia", "a2.templum", "a2.found", "a2.conquest") or \
            (kind == "a2.move" and option[0] == "battle"):
        return [str(option[1])]
    if kind == "a2.move" and isinstance(option[1], tuple | list) and option[1]:
        return [str(option[1][0]), str(option[1][-1])]
    return []


def table(say: Presenter, game: Game, viewer: str | None) -> dict[str, Any] | None:
    """Every nation's standing: nothing in Antike II is hidden."""
    rows = []
    for nation in game.state.players:
        f = figures(game, nation)
        stock = spelt(say, {k: f["stock"][k] for k in HOLDINGS})
        rows.append([say.player(nation), say.name(f["space"]) if f["space"] else "-",
                     str(f["cities"]), str(f["temples"]), str(f["legions"]),
                     str(f["galleys"]), say.join([say.card_name(k) for k in f["know_how"]])
                     or say.say("ui.none"), str(len(f["personages"])), stock])
    head = [say.say(f"table.{k}") for k in ("nation", "space", "cities", "temples",
                                            "legions", "galleys", "know_how",
                                            "personages", "stock")]
    bellona = say.player(game.state.bellona)
    return {"title": say.say("table.title", round=game.state.round),
            "sections": [{"title": say.say("table.nations"), "head": head, "rows": rows,
                          "notes": [say.say("table.bellona", player=bellona)]}]}
