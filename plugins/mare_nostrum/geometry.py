"""The map's geometry for one player (FR 3.5, 4.1.2; NL/PL/UK 3.1.1, 4.1.2): which
provinces are adjacent, which a chain of his triremes connects, and so which he can
reach from a province — for placing a control marker, moving a legion, and occupying
or converting a marker.

Adjacency is the board's (``board.provinces[p].neighbours``, ``board.seas[s].neighbours``);
only provinces in play (those the state has) are reachable. A chain of triremes is a
run of adjacent seas each holding at least one of the player's triremes; enemy
triremes in those seas do not break it (4.1.2 example). Every province on a sea of
the chain is connected with every other.

Not a rule plugin of its own (no pack lists it, it answers no hook): the plugins that
need the map (build, military, conquest, the card words) and the bots (through
:mod:`.api`) ask it, so the geometry has one home.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mare_nostrum.state import Game, State


def fleet_seas(state: State, player: str) -> set[str]:
    """The seas holding at least one of ``player``'s triremes."""
    out = set()
    for sea, who in state.units.items():
        mine = who.get(player)
        if mine is not None and "trireme" in mine:
            out.add(sea)
    return out


def fleet_shores(board: Any, fleet: frozenset[str]) -> dict[str, frozenset[str]]:
    """For each sea of a fleet (the seas holding a player's triremes, or any set of seas
    one imagines them in), every province on the chain of seas it belongs to.

    A fleet's layout recurs often, so the answer is remembered (a small, bounded cache).
    """
    cache: dict[frozenset[str], dict[str, frozenset[str]]] = board.shores
    found = cache.get(fleet)
    if found is not None:
        return found
    out: dict[str, frozenset[str]] = {}
    for start in fleet:
        if start in out:
            continue
        chain = {start}
        frontier = [start]
        while frontier:
            sea = frontier.pop()
            for nxt in board.seas[sea].neighbours:
                if nxt in fleet and nxt not in chain:
                    chain.add(nxt)
                    frontier.append(nxt)
        shore = frozenset(p for sea in chain for p in board.provinces_on_sea(sea))
        for sea in chain:
            out[sea] = shore
    if len(cache) > 4096:
        cache.clear()
    cache[fleet] = out
    return out


class Reach:
    """Where one player can reach from provinces: the fleet is looked up once and each
    province's answer remembered (ask many provinces of one position with one Reach).

    ``fleet`` imagines his triremes in those seas instead of where they are.
    """

    def __init__(self, game: Game, player: str, fleet: Iterable[str] | None = None) -> None:
        self.board = game.rules.board
        self.live = game.state.built
        seas = frozenset(fleet_seas(game.state, player) if fleet is None else fleet)
        self.shores = fleet_shores(self.board, seas) if seas else {}
        self.memo: dict[str, set[str]] = {}

    def connected(self, province: str) -> set[str]:
        """Provinces linked to ``province`` by a continuous chain of the triremes (in
        play or not)."""
        reach: set[str] = set()
        for sea in self.board.provinces[province].seas:
            reach |= self.shores.get(sea, frozenset())
        reach.discard(province)
        return reach

    def __call__(self, province: str) -> set[str]:
        """Provinces in play adjacent to or connected with ``province`` (not itself)."""
        found = self.memo.get(province)
        if found is None:
            p = self.board.provinces[province]
            # the neighbours and the shores of his chains, then those in play: set
            # operations (no generator per sea)
            near = set(p.neighbours)
            shores = self.shores
            if shores:
                for sea in p.seas:
                    shore = shores.get(sea)
                    if shore is not None:
                        near |= shore
            found = self.live.keys() & near
            found.discard(province)
            self.memo[province] = found
        return found


def connected(game: Game, player: str, province: str) -> set[str]:
    """Provinces linked to ``province`` by a continuous chain of ``player``'s triremes."""
    return Reach(game, player).connected(province)


def reachable(game: Game, player: str, province: str) -> set[str]:
    """Provinces in play adjacent to or connected with ``province``."""
    return Reach(game, player)(province)


def seas_within(board: Any, start: Iterable[str], moves: int) -> set[str]:
    """The seas at most ``moves`` moves from the ``start`` seas, those included."""
    seen = set(start)
    frontier = list(seen)
    for _ in range(max(0, moves)):
        frontier = [n for sea in frontier for n in board.seas[sea].neighbours
                    if n not in seen]
        seen.update(frontier)
    return seen


def farther(game: Game, reach: Reach, province: str, steps: int, crossing: int) -> set[str]:
    """Where a legion may go from ``province`` when a card lets it go farther than the
    rules: up to ``steps`` steps of :class:`Reach` (each to an adjacent or connected
    province), and across up to ``crossing`` seas without triremes to a province on
    their shores. Only provinces in play; never the origin."""
    seen = {province}
    frontier = [province]
    for _ in range(max(1, steps)):
        frontier = [x for p in frontier for x in reach(p) if x not in seen]
        seen.update(frontier)
    if crossing > 0:
        board = game.rules.board
        live = game.state.built
        for sea in seas_within(board, board.provinces[province].seas, crossing - 1):
            seen.update(x for x in board.provinces_on_sea(sea) if x in live)
    seen.discard(province)
    return seen
