"""Cards whose powers are set aside for a while: what ``cancel CARD until the end of the
phase`` and ``WHO loses card powers until the end of the round`` leave in the state.

Each entry names a card (or every card of a holder), the round it was said in and, for
"the phase", the phase: once the round (or the phase) is over the entry says nothing
more. While one holds, the card's modifiers, replacements and reactions do not answer
for that holder (``CardEffects._open``); its printed bonuses stay (they are the
pieces a track counts, not a power). The card that said it is never silenced by its
own words. Kept under ``vars["card_silenced"]``, so saves, undo and replays hold it.
"""

from __future__ import annotations

from typing import Any

KEY = "card_silenced"
"""The state's ``vars`` key: a list of ``{card, holder, round, phase, by}`` (``card``
or ``holder`` empty: every card, every holder; ``phase`` empty: the whole round)."""


def silenced(state: Any, card: str, holder: str) -> bool:
    """Whether ``card``'s powers are set aside for ``holder`` now."""
    found: list[dict[str, Any]] | None = state.vars.get(KEY)
    if not found:
        return False
    for e in found:
        if e["round"] != state.round or (e["phase"] and e["phase"] != state.phase):
            continue
        if e["by"] == card:
            continue
        if (not e["card"] or e["card"] == card) and (not e["holder"] or e["holder"] == holder):
            return True
    return False


def silence(state: Any, card: str, holder: str, by: str, phase: bool) -> None:
    """Set ``card`` (every card if empty) of ``holder`` (every holder if empty) aside
    until the end of the round, or of the phase if ``phase``; entries whose time is
    over are dropped."""
    entries = [e for e in state.vars.get(KEY, []) if e["round"] == state.round and
               (not e["phase"] or e["phase"] == state.phase)]
    entry = {"card": card, "holder": holder, "round": int(state.round),
             "phase": str(state.phase) if phase else "", "by": by}
    if entry not in entries:
        entries.append(entry)
    state.vars[KEY] = entries
