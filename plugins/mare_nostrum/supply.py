"""The general supply (FR Matériel; NL/PL/UK components and 1.1, Q&A 9): the one home of
taking resources from it, giving them back and drawing legendary goods, and of taking
buildings from it and putting them back.

The supply is finite: what has run out cannot be taken (a hard limit). A legendary good
is drawn face down from its pile; when the pile is empty its discard pile is shuffled
into a new one. What is paid or put back goes to the supply, a legendary good to its
discard pile.

Not a rule plugin of its own (no pack lists it, it answers no hook): every plugin that
moves resources or buildings between the supply and a screen or the board (production,
build, conquest, setup, the card words) calls these functions, so the rule has one
home whichever of those plugins a variant replaces.
"""

from __future__ import annotations

from mare_nostrum.state import LEGENDARY, Game, State

LEGENDARY_DRAW = "legendary"
"""The resource key of an income or a gain that draws a legendary good from the pile."""


def draw_legendary(game: Game) -> str | None:
    """The top legendary good; the discard pile is reshuffled when the pile is empty."""
    state = game.state
    if not state.legendary_pile and state.legendary_discard:
        state.legendary_pile = list(state.legendary_discard)
        state.legendary_discard.clear()
        game.rng.shuffle(state.legendary_pile)
    if not state.legendary_pile:
        return None
    good = game.chance("legendary draw", sorted(state.legendary_pile))
    state.legendary_pile.remove(good)
    return good


def in_supply(game: Game, key: str) -> bool:
    """Whether one ``key`` ("legendary": a legendary draw) can be taken now."""
    state = game.state
    if key == LEGENDARY_DRAW:
        return bool(state.legendary_pile or state.legendary_discard)
    return state.supply.get(key, 0) > 0


def take(game: Game, player: str, key: str, n: int = 1) -> int:
    """Move up to ``n`` of ``key`` from the supply to ``player``'s screen ("legendary":
    draw legendary goods); returns how many he got."""
    state = game.state
    got = 0
    for _ in range(n):
        if key == LEGENDARY_DRAW:
            good = draw_legendary(game)
            if good is None:
                break
            state.gain(player, LEGENDARY + good)
        else:
            if state.supply.get(key, 0) <= 0:
                break
            state.supply[key] -= 1
            state.gain(player, key)
        got += 1
    return got


def give_back(state: State, player: str, key: str, n: int = 1) -> None:
    """Return resources from ``player``'s screen to the supply (legendary goods to their
    discard pile)."""
    state.spend(player, key, n)
    if key.startswith(LEGENDARY):
        state.legendary_discard.extend([key[len(LEGENDARY):]] * n)
    else:
        state.supply[key] = state.supply.get(key, 0) + n


def take_building(state: State, kind: str) -> None:
    """A building of ``kind`` leaves the supply for the board (its placement has been
    checked: there is one left)."""
    state.supply[kind] -= 1


def return_building(state: State, kind: str) -> None:
    """A building of ``kind`` leaves the board for the supply (pillaged)."""
    state.supply[kind] = state.supply.get(kind, 0) + 1
