"""The move and fight listings read each area's units as they reach it (docs/speed.md,
issue 15, eighth round) and list what they listed through ``placed`` and
``legions_and_fleet``'s passes over every area: the same trireme moves, battles and
legion moves in the same order, at every military decision of seeded games and after
writes behind the rules' back (units of his and of others added and removed, arrivals
counted)."""

from __future__ import annotations

import copy
import random
from typing import Any

from mare_nostrum.geometry import Reach, farther, seas_within
from mare_nostrum.military import legions_and_fleet, placed
from mnrules import Game, new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset

# -- the listings as they were (47809cc) -------------------------------------------------


def trireme_moves_before(game: Game, frame: dict[str, Any]) -> list[tuple[Any, ...]]:
    state = game.state
    board = game.rules.board
    player = frame["player"]
    out: list[tuple[Any, ...]] = []
    steps: int = game.fold("move.trireme_range", 1, player=player)
    mine = placed(state, player, "trireme")
    if not mine:
        return out
    arrived = frame["arrived"]
    for sea in board.seas:
        n = mine.get(sea, 0) - arrived.get(sea, 0)
        if n > 0:
            if steps == 1:
                out += [("move", sea, nxt) for nxt in board.seas[sea].neighbours]
            else:
                out.extend(("move", sea, nxt)
                           for nxt in sorted(seas_within(board, [sea], steps) - {sea}))
    return out


def battles_before(game: Game, frame: dict[str, Any], kind: str) -> list[tuple[Any, ...]]:
    state = game.state
    player = frame["player"]
    unit = "trireme" if kind == "sea" else "legion"
    areas = game.rules.board.seas if kind == "sea" else state.built
    out: list[tuple[Any, ...]] = []
    mine = placed(state, player, unit)
    if not mine:
        return out
    fought = frame["fought"]
    for area in areas:
        if area not in mine or area in fought:
            continue
        for enemy, theirs in list(state.units[area].items()):
            if enemy == player:
                continue
            if kind == "sea" and not theirs.get("trireme"):
                continue
            if game.fold("battle.allowed", True, area=area, attacker=player,
                         defender=enemy):
                out.append(("battle", area, enemy))
    return out


def legion_moves_before(game: Game, frame: dict[str, Any]) -> list[tuple[Any, ...]]:
    state = game.state
    player = frame["player"]
    out: list[tuple[Any, ...]] = []
    mine, fleet = legions_and_fleet(state, player)
    reach = Reach(game, player, fleet)
    steps: int = game.fold("move.range", 1, player=player)
    crossing: int = game.fold("move.sea_crossing", 0, player=player)
    arrived = frame["arrived"]
    for prov in state.built if mine else ():
        n = mine.get(prov)
        if n is None:
            continue
        movable = n - arrived.get(prov, 0)
        if movable <= 0:
            continue
        dests = set(reach(prov)) if steps == 1 and not crossing else \
            farther(game, reach, prov, steps, crossing)
        allowed = game.fold("move.destinations", dests, player=player, origin=prov)
        out += [("move", prov, d) for d in sorted(allowed)]
    return out


def scribble(game: Game, rng: random.Random) -> None:
    """A script's write: a unit of one player or another added or removed, on land or
    at sea (a trireme at sea alone)."""
    state = game.state
    p = rng.choice(state.players)
    if rng.random() < 0.6:
        if rng.random() < 0.5:
            state.add_units(rng.choice(sorted(game.rules.board.seas)), p, "trireme")
        else:
            state.add_units(rng.choice(sorted(state.built)), p,
                            rng.choice(("legion", "legion", "fortress")))
    else:
        here = sorted((a, k) for a, owners in state.units.items() for k in owners.get(p, {}))
        if here:
            area, kind = rng.choice(here)
            state.remove_units(area, p, kind)


def test_the_military_listings_are_those_they_replaced(rules: Ruleset) -> None:
    seen = {"military.trireme": 0, "military.naval": 0, "military.legion": 0,
            "military.land": 0}
    writes = 0
    for seed in (31, 32, 33):
        game = new_game(rules, 5, seed=seed, round_cap=12)
        bots = {p: make_bot("random", seed * 1009 + i, rules)
                for i, p in enumerate(game.state.players)}
        rng = random.Random(seed)
        while (dec := game.pending) is not None:
            if dec.kind in seen:
                frame = game.state.stack[-1]
                step = rules.steps[frame["step"]]
                # as listed, then after a write behind the rules' back (arrivals too)
                for written in (False, True):
                    assert step._trireme_moves(game, frame) == \
                        trireme_moves_before(game, frame), seed
                    assert step._legion_moves(game, frame) == \
                        legion_moves_before(game, frame), seed
                    for kind in ("sea", "land"):
                        assert step._battles(game, frame, kind) == \
                            battles_before(game, frame, kind), seed
                    if not written:
                        saved = copy.deepcopy(game.state.units), \
                            copy.deepcopy(frame["arrived"])
                        for _ in range(3):
                            scribble(game, rng)
                        for area in rng.sample(sorted(game.rules.board.seas), 2) + \
                                rng.sample(sorted(game.state.built), 3):
                            frame["arrived"][area] = frame["arrived"].get(area, 0) + 1
                        writes += 1
                game.state.units, frame["arrived"] = saved
                seen[dec.kind] += 1
            game.apply(bots[dec.player].choose(game))
    assert writes > 300 and min(seen.values()) > 20, seen
