"""Mare Nostrum's blunder checks (``mnrules bots check``, the kernel's ``mn_blunders``):
a one-step lookahead on a copy of the game shows a decision strictly dominated.

* **A hopeless attack**: the choice that closes a player's legion moves (his ``done``,
  or the last move he may make) leaves him a land battle that his moves of this turn
  brought on or changed (a legion moved in, or one moved out of it) that he cannot
  win (never every defending unit destroyed with one of his left), in which no
  defending unit can fall, and in which he must lose a unit — e.g. one legion against
  a lone fortress (FR/NL/PL/UK 4.2: a fortress rolls no die but scores a hit and
  cancels one). Not moving in (or not leaving that one alone) is better whatever the
  dice. The same for a naval battle he starts. The odds are the rules' own, exactly
  (:func:`.api.hopeless_battle`, every card folded in).
* **Resources thrown away**: a build turn ended while the storage rule is about to
  discard resources (FR 3.1 "À la fin de sa Phase Achats", NL/PL/UK 3.0: keep up to 2
  coins, with the Hanging Gardens 2 goods of different types, discard the rest) that
  alone would pay for a unit, a marker or a building he may place now. Bought with what
  he loses anyway, it costs him nothing he keeps, and a piece on the board only adds
  (income, a track, a legion): ending the turn is dominated by buying it first. Heroes
  and wonders are left out (each raises the next one's price), as are the cards'
  offers, and a build phase whose end already decides the game (a fifth hero or wonder
  claimed: nothing bought then can matter either way).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mare_nostrum import api
from mare_nostrum.state import Game
from mnrules.language.present import Presenter

HOPELESS = "hopeless attack"
THROWN = "resources thrown away"


def hopeless(game: Game, area: str, attacker: str, defender: str) -> bool:
    """:func:`.api.hopeless_battle` as the board stands."""
    return api.hopeless_battle(game, area, attacker, defender)


def _units(say: Presenter, here: dict[str, int]) -> str:
    return say.join([say.count(n, k) for k, n in sorted(here.items()) if n])


def _sentence(say: Presenter, game: Game, area: str, me: str, enemy: str) -> str:
    here = game.state.units.get(area, {})
    return say.say("blunder.hopeless_attack", player=say.player(me),
                   defender=say.player(enemy), area=say.name(area),
                   force=_units(say, here.get(me, {})),
                   defence=_units(say, here.get(enemy, {})))


def _battles(game: Game, me: str, areas: set[str]) -> list[tuple[str, str]]:
    """The land battles ``me`` will fight in ``areas`` (an enemy's units there, the
    battle allowed)."""
    out = []
    for area in sorted(areas):
        for enemy, units in sorted(game.state.units.get(area, {}).items()):
            if enemy == me or not sum(units.values()):
                continue
            if game.fold("battle.allowed", True, area=area, attacker=me, defender=enemy):
                out.append((area, enemy))
    return out


def _discarded(game: Game, player: str) -> list[Counter[str]]:
    """What ending the build turn now discards, one multiset per choice of goods kept."""
    from mare_nostrum.build import keep_options, storage

    screen = Counter({k: n for k, n in game.state.screens[player].items() if n})
    coins, goods = storage(game, player)
    kept_coins = Counter({"coin": min(coins, screen["coin"])})
    keeps = keep_options(game, player, goods) if goods else [()]
    return [screen - kept_coins - Counter(keep) for keep in keeps]


def thrown_away(game: Game, player: str) -> tuple[tuple[Any, ...], Counter[str]] | None:
    """A purchase (not a hero or wonder, not a card's offer) that what ending the build
    turn now discards would pay for in full, with what is discarded; None if there is
    none or the phase's end already decides the game."""
    from mare_nostrum.build import item_cost, legal_actions
    from mare_nostrum.payment import payments, set_rules

    if api.pending_build_victories(game):
        return None
    lost = [c for c in _discarded(game, player) if c.total()]
    if not lost:
        return None
    rules = set_rules(game, player)
    seen: dict[int, bool] = {}
    for action in legal_actions(game, player):
        if action[0] in ("tile", "offer"):
            continue
        cost = item_cost(game, player, action)
        if cost is None or cost == 0:
            continue
        if cost not in seen:
            seen[cost] = False
            for spare in lost:
                if spare.total() >= cost and \
                        next(payments(dict(spare), cost, rules), None) is not None:
                    seen[cost] = True
                    break
        if seen[cost]:
            return action, min(lost, key=lambda c: (c.total(), sorted(c.items())))
    return None


def _thrown_sentence(say: Presenter, game: Game, player: str, action: tuple[Any, ...],
                     lost: Counter[str]) -> str:
    from mare_nostrum.build import area_of, item_of

    item = item_of(game, action)
    area = area_of(action)
    return say.say("blunder.thrown_away", player=say.player(player),
                   lost=say.join([say.count(n, k) for k, n in sorted(lost.items()) if n]),
                   item=say.count(1, item), area=say.name(area or ""))


def check(game: Game, player: str, kind: str, choice: Any, notes: dict[str, Any],
          say: Presenter) -> list[tuple[str, str]]:
    if kind == "build.action":
        if choice != ("end",):
            return []
        notes.setdefault("checked", []).append(THROWN)
        found = thrown_away(game, player)
        if found is None:
            return []
        return [(THROWN, _thrown_sentence(say, game, player, *found))]
    if kind == "military.naval":
        notes.setdefault("checked", []).append(HOPELESS)
        if choice == ("done",):
            return []
        area, enemy = str(choice[1]), str(choice[2])
        if hopeless(game, area, player, enemy):
            return [(HOPELESS, _sentence(say, game, area, player, enemy))]
        return []
    if kind != "military.legion":
        return []
    frame = game.state.stack[-1]
    touched = {a for a, n in frame.get("arrived", {}).items() if n}
    turn = (game.state.round, player)
    if notes.get("turn") != turn:
        notes["turn"], notes["left"] = turn, {}
    left: dict[str, int] = notes["left"]
    if choice != ("done",):
        touched.add(str(choice[2]))
        left[str(choice[1])] = left.get(str(choice[1]), 0) + 1
    from mare_nostrum.bots.common import clone

    after = clone(game, 0)
    after.apply(choice)
    nxt = after.pending
    if nxt is not None and nxt.player == player and nxt.kind == "military.legion":
        return []   # he may still move legions in: the battles are not set yet
    # the board as the choice leaves it, before any battle is fought
    g = clone(game, 0)
    if choice != ("done",):
        g.state.remove_units(str(choice[1]), player, "legion")
        g.state.add_units(str(choice[2]), player, "legion")
    out = []
    for area, enemy in _battles(g, player, touched | set(left)):
        notes.setdefault("checked", []).append(HOPELESS)
        if not hopeless(g, area, player, enemy):
            continue
        if area not in touched:
            # legions only left it: a blunder if those who left would have made the
            # battle one that is not lost before the dice
            stayed = g.state.count(area, player, "legion") + left[area]
            if api.hopeless_battle(g, area, player, enemy, stayed):
                continue
        out.append((HOPELESS, _sentence(say, g, area, player, enemy)))
    return out
