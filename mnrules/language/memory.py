"""What a card knows beyond its holder's own things: its own count, per holder, kept in
the state, and who holds which card.

A script may count something over time with no Python ("each round the one who holds
it adds 1; at 3 it pays"): ``add N to this card's count``, ``set this card's count to
N``, the condition ``this card's count reaches N`` and the count ``this card's count``
(for ``per``). The words are the language's own, in every game on the kernel. Each
holder of the card has his own count (two players holding a copy count apart), stored
in the state's ``vars`` under ``card_counts`` (card id, then holder), so snapshots,
saves, undo and replays hold it as they hold everything else.

A card's power may last a while ("for 2 rounds after a battle won, +1 die"): ``this
card works for N rounds`` (the round it is said in counts as the first), ``this card
works until the end of the round``, ``this card stops working``, the condition ``this
card is working`` and the count ``rounds this card still works``. The last round it
works is kept per holder under ``card_until`` (a longer spell said while one runs
keeps the later end; a shorter one never cuts it).

A card may set others' powers aside (cards on cards): ``cancel CARD until the end of the
phase`` (or ``of the round``), and ``WHO loses card powers until the end of the phase``
(every card that player holds; :mod:`.silence`).

Who holds a card is the kernel's (``State.card_holders``), so the conditions on it are
the language's too: ``you hold CARD``, ``an opponent holds CARD``, ``nobody holds CARD``.
"""

from __future__ import annotations

from typing import Any

from ..hooks.hookspecs import hookimpl
from .compiler import Env
from .silence import silence
from .words import Terms, Word

KEY = "card_counts"
"""The state's ``vars`` key of every card's counts: ``{card: {holder: n}}``."""
MOST = 999
"""The most a card's count may hold (a count is a tally, never a bank)."""


def count_of(env: Env) -> int:
    """The count of ``env``'s card for its holder (0 until a script changes it)."""
    return int(env.game.state.vars.get(KEY, {}).get(env.card, {}).get(env.holder, 0))


def _set(env: Env, n: int) -> None:
    counts = env.game.state.vars.setdefault(KEY, {}).setdefault(env.card, {})
    counts[env.holder] = max(0, min(MOST, int(n)))


def _add(env: Env, n: int) -> None:
    _set(env, count_of(env) + int(n))


UNTIL = "card_until"
"""The state's ``vars`` key of the last round each card works: ``{card: {holder: round}}``."""


def last_round(env: Env) -> int:
    """The last round ``env``'s card works for its holder (0: it does not)."""
    return int(env.game.state.vars.get(UNTIL, {}).get(env.card, {}).get(env.holder, 0))


def rounds_left(env: Env) -> int:
    """The rounds the card still works, this one included (0 when it does not)."""
    return max(0, last_round(env) - int(env.game.state.round) + 1)


def _work(env: Env, n: int) -> None:
    until = env.game.state.vars.setdefault(UNTIL, {}).setdefault(env.card, {})
    until[env.holder] = max(last_round(env), int(env.game.state.round) + int(n) - 1)


def _cancel(phase: bool) -> Any:
    def cancel(env: Env, card: str) -> None:
        silence(env.game.state, card, "", env.card, phase)
    return cancel


def _lose_powers(phase: bool) -> Any:
    def lose(env: Env) -> None:
        silence(env.game.state, "", env.actor, env.card, phase)
    return lose


def _stop(env: Env) -> None:
    until = env.game.state.vars.get(UNTIL, {}).get(env.card, {})
    until.pop(env.holder, None)


class CardMemory:
    """The language's own words for a card's count and for who holds a card
    (registered with every rule set)."""

    @hookimpl
    def mn_vocabulary(self) -> list[Word | Terms]:
        return [
            Word("action", "add {n} to this card's count", _add,
                 "add {n} to the count this card keeps for its holder (0 at first)",
                 numbers=(1, 99)),
            Word("action", "set this card's count to {n}", _set,
                 "set the count this card keeps for its holder to {n}", numbers=(0, 99)),
            Word("condition", "this card's count reaches {n}",
                 lambda e, n: count_of(e) >= n,
                 "the count this card keeps for its holder is {n} or more",
                 numbers=(0, 99)),
            Word("count", "this card's count", count_of,
                 "the count this card keeps for its holder"),
            Word("action", "this card works for {n} rounds", _work,
                 "the card works (``this card is working``) this round and the {n} - 1 "
                 "after it", numbers=(1, 20)),
            Word("action", "this card works until the end of the round",
                 lambda e: _work(e, 1), "the card works (``this card is working``) until "
                 "this round ends"),
            Word("action", "this card stops working", _stop,
                 "the card works no more, whatever was said before"),
            Word("condition", "this card is working", lambda e: rounds_left(e) > 0,
                 "a `this card works ...` said for its holder still runs this round"),
            Word("count", "rounds this card still works", rounds_left,
                 "the rounds this card works for its holder, this one included"),
            Word("action", "cancel {card} until the end of the phase", _cancel(True),
                 "the card {card}'s powers answer for nobody until this phase ends "
                 "(its printed bonuses stay)"),
            Word("action", "cancel {card} until the end of the round", _cancel(False),
                 "the card {card}'s powers answer for nobody until this round ends "
                 "(its printed bonuses stay)"),
            Word("action", "lose card powers until the end of the phase", _lose_powers(True),
                 "the powers of every card the actor holds (this one apart) answer for "
                 "him no more until this phase ends (``the attacker loses card powers "
                 "until the end of the phase``)"),
            Word("action", "lose card powers until the end of the round", _lose_powers(False),
                 "the powers of every card the actor holds (this one apart) answer for "
                 "him no more until this round ends"),
            Word("condition", "you hold {card}",
                 lambda e, c: e.holder in e.game.state.card_holders(c),
                 "you hold the card {card}"),
            Word("condition", "an opponent holds {card}",
                 lambda e, c: any(p != e.holder for p in e.game.state.card_holders(c)),
                 "another player holds the card {card}"),
            Word("condition", "nobody holds {card}", lambda e, c: not e.game.state.card_holders(c),
                 "no player holds the card {card}"),
        ]


def counts(state: Any) -> dict[str, dict[str, int]]:
    """Every card's counts in ``state``, by card and holder (for reports and tests)."""
    found: dict[str, dict[str, int]] = state.vars.get(KEY, {})
    return found
