"""What a player reads of Mare Nostrum: every event, question and option as a sentence
in his language (the presentation hooks, with the templates of the packs'
``messages.yaml``), what he sees at the table beside the map, the round summary of
``mnrules play`` and the terminal's board and screen views.

Nothing here decides anything: the sentences read the state and the frame that asks.
What a player may not know (another's screen, what he keeps, a face-down offer, a
legendary good drawn) is never put in a sentence for him.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from mare_nostrum.production import CHOICE
from mare_nostrum.state import LEGENDARY, TRACKS, Game, base_good
from mnrules.core.effects import Event
from mnrules.core.engine import Decision
from mnrules.language.present import Presenter, place_name, presenter

UNIT_KINDS = ("legion", "trireme", "fortress")


# -- words ------------------------------------------------------------------------------


def good(say: Presenter, key: str) -> str:
    """A resource key in words: ``legendary:gems`` is "legendary gems" in the language
    (``word.legendary.GOOD`` where the adjective agrees with the good, as in Polish)."""
    if key.startswith(LEGENDARY):
        base = base_good(key)
        agreed = f"word.legendary.{base}"
        return say.say(agreed if say.has(agreed) else "word.legendary",
                       good=say.name(base, "goods"))
    if key == "legendary":
        return say.say("word.legendary_any")
    return say.name(key, "goods")


def counted_good(say: Presenter, key: str, n: int) -> str:
    """``n`` of a good, with the language's plural where it has one for that good
    (``plural.goods.GOOD.*``: "2 coins", "5 монет"); one is the good's name alone."""
    if n == 1:
        return good(say, key)
    if not key.startswith(LEGENDARY) and say.has(f"plural.goods.{key}.other"):
        return say.count(n, f"goods.{key}")
    return f"{n} {good(say, key)}"


def goods(say: Presenter, keys: Iterable[str] | dict[str, int]) -> str:
    """Resources counted: ``3 coins, grain and 2 wine`` (nothing: "nothing"); a key
    ``a|b``, a gain its taker chooses, reads "a or b"."""
    parts: list[str] = []
    for k, n in sorted(Counter(keys).items()):
        if CHOICE in k:
            parts += [say.join([good(say, g) for g in k.split(CHOICE)], "ui.or")] * n
        elif n > 0:
            parts.append(counted_good(say, k, n))
    return say.join(parts) or say.say("word.nothing")


def payment(say: Presenter, keys: Sequence[str]) -> str:
    counts = Counter(keys)
    return " + ".join(counted_good(say, k, n)
                      for k, n in sorted(counts.items())) or say.say("word.free")


def units_of(say: Presenter, n: int, kind: str) -> str:
    """``n`` pieces of a kind with the language's plural ("2 legions", "5 легіонів")."""
    return say.count(n, kind, "units")


def area(key: Any) -> str:
    return place_name(str(key))


def unit(say: Presenter, kind: str) -> str:
    return say.name(kind, "units")


def building(say: Presenter, game: Game, province: str, slot: int) -> str:
    """A printed slot: its kind, with the good a caravan carries or a city's name."""
    s = game.rules.board.provinces[province].slots[slot]
    kind = say.name(s.kind, "buildings")
    if s.good:
        return say.say("word.slot_good", building=kind, good=good(say, s.good))
    if s.name:
        return say.say("word.slot_named", building=kind, name=place_name(s.name))
    return kind


def title(say: Presenter, track: str) -> str:
    return say.name(track, "titles")


def dice(say: Presenter, rolls: Sequence[int]) -> str:
    return " ".join(say.number(r, "die") for r in rolls) or "—"


def _frame(game: Game) -> dict[str, Any]:
    stack = game.state.stack
    return stack[-1] if stack else {}


# -- events -----------------------------------------------------------------------------


def event_text(say: Presenter, game: Game, event: Event, viewer: str | None) -> str | None:
    kind, d = event.kind, event.data
    who = say.player(event.player)
    if kind == "trade_token":
        return say.say("event.trade_token", player=who, token=d["token"],
                       value=d["value"], title=title(say, "trade"),
                       resources=say.count(d["value"], "resource"))
    if kind == "offers_revealed":
        offers = [say.say("ui.labelled", label=say.player(p), value=goods(say, o))
                  for p, o in d["offers"].items()]
        return say.say("event.offers_revealed", offers=say.say("ui.list_sep").join(offers)
                       or say.say("word.nothing"))
    if kind == "trade_pick":
        return say.say("event.trade_pick", player=who, good=good(say, d["resource"]),
                       source=say.player(d["from"]))
    if kind == "trade_giveback":
        return say.say("event.trade_giveback", player=who, to=say.player(d["to"]))
    if kind == "collected":
        return say.say("event.collected", player=who, goods=goods(say, d["resources"]))
    if kind == "built":
        return _built(say, game, who, d)
    if kind == "build_turn_end":
        if viewer is not None and viewer == event.player:
            if not any(d["kept"].values()):
                return say.say("event.kept_nothing")
            return say.say("event.kept", goods=goods(say, d["kept"]))
        return say.say("event.build_turn_end", player=who)
    if kind == "move":
        return say.say("event.move", player=who, unit=unit(say, d["kind"]),
                       source=area(d["from"]), to=area(d["to"]))
    if kind == "battle":
        attacker, defender = event.player or "", d["defender"]
        units, rolls, hits = d.get("units", {}), d.get("rolls", {}), d.get("hits", {})
        land = d.get("kind") == "land"
        return say.say("event.battle_land" if land else "event.battle_sea",
                       a_force=say.count(units.get(attacker, 0), "unit" if land else "trireme"),
                       a_score=say.count(hits.get(attacker, 0), "hit"),
                       area=area(d["area"]), attacker=say.player(attacker),
                       defender=say.player(defender), a_units=units.get(attacker, 0),
                       d_force=say.count(units.get(defender, 0), "unit" if land else "trireme"),
                       d_score=say.count(hits.get(defender, 0), "hit"),
                       d_units=units.get(defender, 0), a_dice=dice(say, rolls.get(attacker, [])),
                       d_dice=dice(say, rolls.get(defender, [])),
                       a_hits=hits.get(attacker, 0), d_hits=hits.get(defender, 0))
    if kind == "title":
        if d.get("from"):
            return say.say("event.title_from", player=who, title=title(say, d["track"]),
                           source=say.player(d["from"]))
        return say.say("event.title", player=who, title=title(say, d["track"]))
    if kind == "occupy":
        return say.say("event.occupy", player=who, province=area(d["province"]),
                       building=building(say, game, d["province"], d["slot"]))
    if kind == "conquest":
        return say.say("event.conquest", player=who, province=area(d["province"]),
                       source=say.player(d.get("from")))
    if kind == "occupy_marker":
        return say.say("event.occupy_marker", player=who, province=area(d["province"]))
    if kind == "convert":
        return say.say("event.convert", player=who, province=area(d["province"]),
                       source=say.player(d.get("from")))
    if kind == "conversion_failed":
        return say.say("event.conversion_failed", player=who, province=area(d["province"]),
                       source=say.player(d.get("from")))
    if kind == "pillage":
        return say.say("event.pillage", player=who, province=area(d["province"]),
                       building=say.name(d["building"], "buildings"),
                       goods=goods(say, d.get("gains") or []))
    if kind == "tile_discarded":
        key = "event.tile_returned" if d.get("to") == "display" else "event.tile_discarded"
        return say.say(key, player=who, tile=say.card_name(str(d.get("tile", ""))))
    if kind == "victory_claim":
        return say.say("event.victory_claim", player=who,
                       victory=say.name(d.get("path", ""), "victories"))
    if kind == "chance":
        return ""  # dice are told with their battle; a draw is behind the drawer's screen
    if kind in ("military_turn_end", "production_done"):
        return ""
    return None


def _built(say: Presenter, game: Game, who: str, d: dict[str, Any]) -> str:
    act = d["action"]
    paid = payment(say, d.get("paid") or [])
    if d.get("offer"):
        n = int(d.get("count", 1))
        return say.say("event.built_offer", player=who, count=n, units=units_of(say, n, act[0]),
                       unit=unit(say, act[0]), where=area(act[1]),
                       card=say.card_name(str(d["offer"])), paid=paid)
    kind = act[0]
    if kind == "marker":
        return say.say("event.built_marker", player=who, where=area(act[1]), paid=paid)
    if kind == "building":
        return say.say("event.built_building", player=who, where=area(act[1]),
                       building=building(say, game, act[1], act[2]), paid=paid)
    if kind == "tile":
        return say.say("event.built_tile", player=who, tile=say.card_name(act[1]), paid=paid)
    return say.say("event.built_unit", player=who, unit=unit(say, kind),
                   where=area(act[1]), paid=paid)


# -- questions --------------------------------------------------------------------------


def prompt_text(say: Presenter, game: Game, decision: Decision) -> str | None:
    k, p = decision.kind, decision.player
    f = _frame(game)
    who = say.player(p)
    values: dict[str, Any] = {"player": who}
    if k == "trade.size":
        values["value"] = f.get("value", "")
    elif k == "trade.offer":
        values["left"] = list(f.get("offer_queue", [])).count(p) or 1
    elif k == "trade.giveback":
        values["to"] = say.player(_giveback_to(game, f))
    elif k in ("trade.token", "build.next", "military.next", "claims.tie"):
        track = {"trade.token": "trade", "build.next": "culture",
                 "military.next": "military"}.get(k, f.get("track", ""))
        values["title"] = title(say, str(track))
        if k == "claims.tie":
            track = TRACKS[f.get("i", 0)] if f.get("i", 0) < len(TRACKS) else ""
            values["title"] = title(say, track)
            values["level"] = _tie_level(f.get("levels") or {}, track, decision)
    elif k == "build.claim_first":
        values["title"] = title(say, "culture")
    elif k == "build.action":
        values["held"] = goods(say, game.state.screens[p])
    elif k == "build.pay":
        action = tuple(f.get("action") or ())
        values["item"] = _item(say, game, p, action) if action else ""
    elif k == "build.keep":
        from mare_nostrum.build import storage

        coins, kept = storage(game, p)
        values.update(coins=coins, goods=kept, held=goods(say, game.state.screens[p]),
                      coin_count=say.count(coins, "coin"),
                      good_count=say.count(kept, "good"))
    elif k == "battle.loss":
        values["area"] = area(f.get("area", ""))
        values["left"] = (f.get("losses") or {}).get(p, 1)
    elif k in ("conquest.choose", "conquest.occupy", "conquest.release"):
        values["province"] = area(f.get("province", ""))
    elif k.startswith("card."):
        values["card"] = say.card_name(str(f.get("card", "")))
    key = f"decision.{k}"
    return say.say(key, **values) if say.has(key) else None


def _giveback_to(game: Game, frame: dict[str, Any]) -> str | None:
    try:
        from mare_nostrum.trade import Trade

        _, short = Trade._imbalance(game, frame)
        return short
    except (ImportError, AttributeError, KeyError, TypeError):
        return None


def _tie_level(lv: dict[str, dict[str, int]], track: str, decision: Decision) -> str:
    tied = [lv[str(o)][track] for o in decision.options if track in lv.get(str(o), {})]
    return str(max(tied)) if tied else ""


# -- options ----------------------------------------------------------------------------


def _cost(game: Game, player: str, action: tuple[Any, ...]) -> int | None:
    from mare_nostrum.build import item_cost

    try:
        return item_cost(game, player, action)
    except (KeyError, IndexError, TypeError):
        return None


def _item(say: Presenter, game: Game, player: str, action: tuple[Any, ...]) -> str:
    """A build action in words, without its price."""
    kind = action[0]
    if kind == "offer":
        return say.say("option.offer", card=say.card_name(str(action[1])),
                       unit=unit(say, str(action[2])), where=area(action[3]))
    if kind == "marker":
        return say.say("option.marker", where=area(action[1]))
    if kind == "building":
        return say.say("option.building", building=building(say, game, action[1], action[2]),
                       where=area(action[1]))
    if kind == "tile":
        return say.card_name(str(action[1]))
    return say.say("option.unit", unit=unit(say, kind), where=area(action[1]))


def discards(game: Game, player: str) -> int:
    """How many goods ``player`` would give back if his build turn ended now."""
    from mare_nostrum.build import storage

    coins, kept = storage(game, player)
    screen = game.state.screens[player]
    extra_coins = max(0, screen.get("coin", 0) - coins)
    goods_held = sum(n for k, n in screen.items() if k != "coin")
    types = len({base_good(k) for k, n in screen.items() if k != "coin" and n > 0})
    return extra_coins + goods_held - min(kept, types)


def option_text(say: Presenter, game: Game, decision: Decision, option: Any
                   ) -> str | None:
    k, p = decision.kind, decision.player
    if k == "trade.token":
        return say.say("option.token", token=option[0], value=option[1])
    if k == "trade.size":
        return say.say("option.size", n=option)
    if k in ("trade.offer", "trade.giveback", "collect.choice", "conquest.gain"):
        return good(say, str(option))
    if k == "trade.pick":
        return say.say("option.pick", good=good(say, str(option[1])),
                       source=say.player(str(option[0])))
    if k in ("build.next", "military.next", "claims.tie"):
        return say.player(str(option))
    if k == "build.action":
        if option[0] == "end":
            lost = discards(game, p)
            if lost > 0:
                return say.say("option.end_discard", n=lost,
                               goods=say.count(lost, "good"))
            return say.say("option.end")
        text = _item(say, game, p, tuple(option))
        cost = _cost(game, p, tuple(option)) if option[0] != "offer" else None
        return say.say("option.priced", item=text, cost=say.count(cost, "resource")) \
            if cost is not None else text
    if k == "build.pay":
        return payment(say, [str(x) for x in option])
    if k == "build.keep":
        return goods(say, [str(x) for x in option])
    if k in ("military.trireme", "military.legion"):
        if option[0] == "done":
            return say.say(f"option.done_{k.split('.')[1]}")
        return say.say("option.move", unit=unit(say, "trireme" if k.endswith("trireme")
                                                else "legion"),
                       source=area(option[1]), to=area(option[2]))
    if k in ("military.naval", "military.land"):
        if option[0] == "done":
            return say.say("option.no_battle")
        return say.say("option.battle", area=area(option[1]),
                       opponent=say.player(str(option[2])))
    if k == "battle.loss":
        return unit(say, str(option))
    if k == "conquest.release":
        prov = str(_frame(game).get("province", ""))
        if option[0] == "marker":
            return say.say("option.release_marker", province=area(prov))
        return say.say("option.release", building=building(say, game, prov, int(option[1])))
    if k in ("conquest.choose", "conquest.occupy"):
        prov = str(_frame(game).get("province", ""))
        if option[0] in ("pass", "done"):
            return say.say(f"option.conquest_{option[0]}")
        if option[0] == "marker":
            return say.say("option.occupy_marker", province=area(prov))
        return say.say(f"option.{option[0]}",
                       building=building(say, game, prov, int(option[1])) if prov else "")
    if option in ("yes", "no"):
        return say.say(f"ui.{option}")
    return None


def option_group(say: Presenter, game: Game, decision: Decision, option: Any
                    ) -> str | None:
    k = decision.kind
    if k == "build.pay" and len(decision.options) > 8 and len(option) > 1:
        # payments that share all but their last good are listed on one line
        return payment(say, [str(x) for x in option[:-1]]) + " + …"
    if k in ("military.trireme", "military.legion") and option[0] == "move":
        return say.say("option.from", source=area(option[1]))
    if k == "build.action" and option[0] != "end":
        return say.name(option[0] if option[0] != "building" else "building", "groups")
    if k == "trade.pick":
        return say.player(str(option[0]))
    return None


def option_places(game: Game, decision: Decision, option: Any) -> list[str] | None:
    k = decision.kind
    if not isinstance(option, tuple) or not option:
        return []
    if k == "build.action" and option[0] in ("marker", *UNIT_KINDS, "building"):
        return [str(option[1])]
    if k == "build.action" and option[0] == "offer":
        return [str(option[3])]
    if k in ("military.trireme", "military.legion") and option[0] == "move":
        return [str(option[1]), str(option[2])]
    if k in ("military.naval", "military.land") and option[0] == "battle":
        return [str(option[1])]
    if k in ("conquest.choose", "conquest.occupy", "conquest.release") \
            and option[0] != "pass":
        prov = _frame(game).get("province")
        return [str(prov)] if prov else []
    return []


# -- the table beside the map -----------------------------------------------------------


def table(say: Presenter, game: Game, viewer: str | None) -> dict[str, Any]:
    from mare_nostrum.build import tile_cost

    st = game.state
    reports = game.report()
    phase = say.name(st.phase, "phases") if st.phase else say.say("ui.setup")
    sections: list[dict[str, Any]] = []
    head = [say.say("table.empire"), *(say.name(t, "tracks") for t in TRACKS),
            say.say("table.provinces"), say.say("table.resources"), say.say("table.units"),
            say.say("table.tiles")]
    rows = []
    for p in st.players:
        r = reports[p]
        units = Counter[str]()
        for here in st.units.values():
            for kind, n in here.get(p, {}).items():
                units[kind] += n
        rows.append([say.player(p), *(str(r.get(t, 0)) for t in TRACKS),
                     str(r.get("provinces", 0)), str(st.held(p)),
                     say.join([units_of(say, n, u) for u, n in sorted(units.items())]),
                     say.join([say.card_name(t) for t in st.tiles.get(p, [])])
                     or say.say("ui.none")])
    sections.append({"title": say.say("table.empires"), "head": head, "rows": rows,
                     "colours": [game.rules.board.empires[p].colour for p in st.players]})
    sections.append({"title": say.say("table.titles"), "head": [],
                     "rows": [[title(say, t), say.player(st.titles.get(t))] for t in TRACKS]})
    if viewer is not None and viewer in st.screens:
        sections.append({"title": say.say("table.screen"), "head": [],
                         "rows": [[good(say, k), str(n)]
                                  for k, n in sorted(st.screens[viewer].items())],
                         "notes": [goods(say, st.screens[viewer])]})
    tiles = []
    for t in st.display:
        card = game.rules.cards[t]
        cost = tile_cost(game, viewer, t) if viewer in st.players else card.cost
        tiles.append([say.card_name(t), say.name(card.kind, "card_kinds"),
                      "" if cost is None else str(cost), power(say, game, t)])
    sections.append({"title": say.say("table.display"),
                     "head": [say.say("table.tile"), say.say("table.kind"),
                              say.say("table.cost"), say.say("table.text")], "rows": tiles,
                     "notes": unpayable(say, game, viewer)})
    owned = [[say.player(p), say.card_name(t),
              say.name(game.rules.cards[t].kind, "card_kinds"), bonuses(say, game, t),
              power(say, game, t)] for p in st.players for t in st.tiles.get(p, [])]
    if owned:
        sections.append({"title": say.say("table.owned"),
                         "head": [say.say("table.empire"), say.say("table.tile"),
                                  say.say("table.kind"), say.say("table.bonuses"),
                                  say.say("table.text")], "rows": owned})
    sections.append(board_section(say, game))
    return {"title": say.say("ui.round_phase", round=st.round, phase=phase),
            "sections": sections}


def unpayable(say: Presenter, game: Game, viewer: str | None) -> list[str]:
    """Why a tile on display is not to be had by ``viewer``: its price is more than any
    payment set of his screen (coins only, or goods all of different types), said as a
    sentence with what he holds."""
    from mare_nostrum.build import tile_cost
    from mare_nostrum.payment import can_pay, set_rules

    st = game.state
    if viewer is None or viewer not in st.screens:
        return []
    screen = st.screens[viewer]
    rules = set_rules(game, viewer)
    costs = {t: tile_cost(game, viewer, t) for t in st.display}
    beyond = [t for t, c in costs.items() if c is not None and not can_pay(screen, c, rules)]
    if not beyond:
        return []
    most = max((c for c in range(1, 1 + max(c or 0 for c in costs.values()))
                if can_pay(screen, c, rules)), default=0)
    return [say.say("table.cannot_pay", tiles=say.join([say.card_name(t) for t in beyond]),
                    most=most)]


def bonuses(say: Presenter, game: Game, tile: str) -> str:
    """A tile's bonuses on the tracks, in words ("Trade +2; Culture +2")."""
    got = game.rules.cards[tile].bonuses
    return say.join([say.say("table.bonus", track=say.name(t, "tracks"), n=got[t])
                     for t in TRACKS if got.get(t)]) or say.say("ui.none")


def power(say: Presenter, game: Game, tile: str) -> str:
    """What a tile does: its text, or for a tile with no script, its bonuses (Hercules
    prints "No power.", and gives +2 on every track)."""
    if game.rules.cards[tile].effects is None and game.rules.cards[tile].bonuses:
        return say.say("table.bonuses_only", bonuses=bonuses(say, game, tile))
    return say.card_text(tile)


def board_section(say: Presenter, game: Game) -> dict[str, Any]:
    """The board as a player at the table sees it, area by area: who holds the marker
    (and who occupies it), the buildings standing (and their occupiers), every player's
    units. A front end that draws the map leaves it out (``"map": True``)."""
    st = game.state
    board = game.rules.board
    rows = []
    for name in [*board.provinces, *board.seas]:
        units = st.units.get(name, {})
        owner = st.control.get(name)
        built = []
        if name in board.provinces:
            for i, done in enumerate(st.built.get(name, [])):
                if done:
                    who = (st.occupied.get(name) or [None] * (i + 1))[i]
                    text = building(say, game, name, i)
                    built.append(f"{text} ({say.player(who)})" if who else text)
        if not (owner or units or built):
            continue
        marker = say.player(owner) if owner else ""
        if st.marker_occupier.get(name):
            marker += f" ({say.player(st.marker_occupier[name])})"
        rows.append([area(name), marker, say.join(built),
                     say.say("ui.list_sep").join(say.say(
                         "ui.labelled", label=say.player(p), value=say.join(
                             [units_of(say, n, k) for k, n in sorted(ks.items())]))
                         for p, ks in units.items())])
    return {"title": say.say("table.board"), "map": True,
            "head": [say.say("table.area"), say.say("table.marker"),
                     say.say("table.buildings"), say.say("table.units")], "rows": rows}


def board_svg(say: Presenter, game: Game, viewer: str | None) -> str:
    from mare_nostrum.render import map_svg

    return map_svg(game, say, area_titles(say, game))


def area_titles(say: Presenter, game: Game) -> dict[str, str]:
    """Each area's tooltip on the map: its name, then who holds it, what stands there
    and whose units are in it, as the board's table says them."""
    board = game.rules.board
    titles = {name: area(name) for name in [*board.provinces, *board.seas]}
    sep = say.say("ui.list_sep")
    by_title = {shown: name for name, shown in titles.items()}
    for row in board_section(say, game)["rows"]:
        parts = [say.say("ui.labelled", label=head, value=cell) for head, cell in
                 zip(board_section_head(say)[1:], row[1:], strict=False) if cell]
        if row[0] in by_title and parts:
            titles[by_title[row[0]]] = say.say("ui.labelled", label=row[0],
                                               value=sep.join(parts))
    return titles


def board_section_head(say: Presenter) -> list[str]:
    return [say.say("table.area"), say.say("table.marker"), say.say("table.buildings"),
            say.say("table.units")]


# -- play's summaries and the terminal's views -----------------------------------------


def round_lines(say: Presenter, game: Game, rnd: int, events: list[Event]) -> list[str]:
    """What ``mnrules play`` prints after a round, in ``say``'s language: the round's
    events in sentences (what an onlooker sees), then each empire's figures."""
    lines = [say.say("ui.round", round=rnd)]
    for ev in events:
        if ev.kind in ("phase_start", "move", "collected", "chance", "build_turn_end"):
            continue
        text = say.event(game, ev, None)
        if text:
            lines.append(f"  {text}")
    for p, r in game.report().items():
        titles = f" [{', '.join(title(say, t) for t in r.get('titles', []))}]" \
            if r.get("titles") else ""
        lines.append(f"  {say.player(p):<9} " + "  ".join(
            f"{say.name(t, 'tracks')} {r.get(t, 0):>2}" for t in TRACKS)
            + f"  {say.say('table.provinces')} {r.get('provinces', 0):>2}  "
            f"{say.say('table.tiles')} {len(r.get('tiles', []))}{titles}")
    return lines


def describe_board(game: Game, player: str, say: Presenter | None = None) -> str:
    """The table as ``player`` sees it, as text."""
    say = say or presenter(game.rules)
    seen = table(say, game, player)
    lines = [seen["title"]]
    for sec in seen["sections"]:
        lines.append(f"{sec['title']}:")
        if sec.get("head"):
            lines.append("  " + " | ".join(sec["head"]))
        for row in sec["rows"]:
            lines.append("  " + " | ".join(row))
    st = game.state
    mine = sorted(area(p) for p, who in st.control.items() if who == player)
    lines.append(say.say("table.your_provinces", provinces=say.join(mine)
                         or say.say("ui.none")))
    for where, who in sorted(st.units.items()):
        here = [f"{say.player(p)} {say.join([units_of(say, n, k) for k, n in ks.items()])}"
                for p, ks in who.items()]
        lines.append("  " + say.say("ui.labelled", label=area(where),
                                    value=say.say("ui.list_sep").join(here)))
    return "\n".join(lines)


def round_summary(say: Presenter, game: Game, round: int, events: list[Event]
                     ) -> list[str]:
    return round_lines(say, game, round, events)


def describe(say: Presenter, game: Game, player: str, what: str) -> str:
    if what == "screen":
        return say.say("table.screen_line", goods=goods(say, game.state.screens[player]))
    return describe_board(game, player, say)
