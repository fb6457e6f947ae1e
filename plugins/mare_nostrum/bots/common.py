"""What the clever bots share: a fast clone of a game and the hidden information
redrawn as one player may imagine it (determinization). What the rules say (battle
odds, costs, reach, income) they ask the rules API, :mod:`..api`.

Only what the viewer may know is read: the other screens by their size, the
legendary pile and the face-down tiles by their contents as a whole (never their
order), and no future die: every clone gets a fresh generator of the bot's own.

A bot keeps nothing between decisions that changes what it chooses: its chance is a
pure function of its seed and the game's choice count (:func:`decision_seed`), and
its caches (:class:`Memo`) remember pure functions of the position only. So a game
saved and loaded goes on exactly as it would have, and a game plays the same alone
or after others in the same process.
"""

from __future__ import annotations

import marshal
import random
import weakref
from dataclasses import fields
from typing import Any

from mnrules.bots.random_bot import MASK, splitmix64
from mnrules.core.view import SECRET

from ..state import LEGENDARY, Game, State

_FIELDS = tuple(f.name for f in fields(State))


def decision_seed(seed: int, game: Game, salt: int = 0) -> int:
    """A 64-bit number for one use (``salt``) at the game's current decision: a pure
    function of the bot's seed and the game's choice count, so there is no generator
    to save with the game."""
    x = splitmix64(splitmix64(seed & MASK) ^ (game.state.choices & MASK))
    return splitmix64(x ^ (salt & MASK))


def decision_rng(seed: int, game: Game, salt: int = 0) -> random.Random:
    """A generator for one use at the game's current decision (see :func:`decision_seed`)."""
    return random.Random(decision_seed(seed, game, salt))


class Memo:
    """A bot's own caches, for functions of the position alone (never of what happened
    before it): bound to one rule set (another empties them) and bounded in size."""

    LIMIT = 4096

    def __init__(self) -> None:
        self._rules: object = None
        self._tables: dict[str, dict[Any, Any]] = {}

    def table(self, game: Game, name: str) -> dict[Any, Any]:
        if self._rules is not game.rules:
            self._rules = game.rules
            self._tables.clear()
        found = self._tables.get(name)
        if found is None or len(found) > self.LIMIT:
            found = self._tables[name] = {}
        return found


_SHARED: dict[int, tuple[weakref.ref[State], Memo]] = {}
"""The memo the bots playing one game share, by the game's state (an entry goes with
its state: a compiled game takes no weak reference safely, a state does)."""


def game_memo(game: Game, memo: Memo) -> Memo:
    """The memo the bots playing ``game`` share: the first one's (``memo``), which the
    others adopt. Everything a memo holds is a pure function of a position, keyed on all
    it depends on (the player, his profile's weights where they count), so a bot asks
    none of the questions another bot at the table already asked in that position (in
    the trade phase every bot reads the same board)."""
    state = game.state
    key = id(state)
    found = _SHARED.get(key)
    if found is not None and found[0]() is state:
        return found[1]
    _SHARED[key] = (weakref.ref(state, lambda _: _forget(key)), memo)
    return memo


def _forget(key: int) -> None:
    _SHARED.pop(key, None)


def clone_state(state: State) -> State:
    """A deep copy of plain-data state (about twenty times faster than State.copy)."""
    data = {name: getattr(state, name) for name in _FIELDS}
    copied: dict[str, object] = marshal.loads(marshal.dumps(data))
    return State(**copied)  # type: ignore[arg-type]


def clone(game: Game, seed: int) -> Game:
    """A copy of ``game`` at its pending decision whose chance is drawn from ``seed``
    (never from the game's own generator: that would read the future dice)."""
    _ = game.pending
    copy = Game(game.rules, clone_state(game.state))
    copy.rng = random.Random(seed)
    return copy


def determinize(game: Game, viewer: str, rng: random.Random, canonical: bool = False) -> None:
    """Redraw, in place, what ``viewer`` cannot see, consistently with what he can.

    Everything hidden from him — the other screens, the other players' secret entries
    in the decision frames (offers made face down), the legendary pile — is pooled
    (the box minus the supply, his own screen and what lies face up is exactly that
    pool) and dealt afresh: each hidden place gets as many resources as it holds, the
    legendary pile legendary goods only. The face-down tiles are shuffled.

    ``canonical`` pools in sorted order, so that the deal is a function of what the
    viewer sees alone (the sizes and the pool as a whole), not of where the hidden
    resources really lie: the kernel's search player (``mn_determinize``) asks it; the
    older search bot keeps its deals (and the games pinned with it).
    """
    state = game.state
    places: list[tuple[dict[str, Any], str]] = []   # (container, key) pairs to refill
    sizes: list[int] = []
    ordinary: list[str] = []
    legendary: list[str] = [LEGENDARY + g for g in state.legendary_pile]
    for p in state.players:
        if p != viewer:
            places.append((state.screens, p))
    for frame in state.stack:
        for key, value in frame.items():
            if key.startswith(SECRET) and isinstance(value, dict):
                for p, inner in value.items():
                    if p != viewer and isinstance(inner, dict):
                        places.append((value, p))
    for container, p in places:
        content: dict[str, int] = container[p]
        sizes.append(sum(content.values()))
        for key, n in content.items():
            (legendary if key.startswith(LEGENDARY) else ordinary).extend([key] * n)
    if canonical:
        legendary.sort()
        ordinary.sort()
    rng.shuffle(legendary)
    pile_size = len(state.legendary_pile)
    state.legendary_pile = sorted(k[len(LEGENDARY):] for k in legendary[:pile_size])
    pool = ordinary + legendary[pile_size:]
    rng.shuffle(pool)
    at = 0
    for (container, p), size in zip(places, sizes, strict=True):
        dealt: dict[str, int] = {}
        for key in pool[at:at + size]:
            dealt[key] = dealt.get(key, 0) + 1
        at += size
        container[p] = dealt
    if state.display_hidden:
        if canonical:
            state.display_hidden.sort()
        rng.shuffle(state.display_hidden)
