"""The heuristic bot's settings, written into its name as Mare Nostrum's are
(``heuristic:PROFILE+KEY=N``, :func:`mnrules.bots.settings.parse_settings`): one profile
today, ``balanced`` (the default), and its settings:

* ``temperature``: 0 plays the best-scored option (the bot as it always played); above 0
  the bot draws among its best options by a softmax over their scores normalised by
  their spread (:func:`mnrules.bots.settings.softmax_pick`), so its play varies with its
  seed (``heuristic:+temperature=0.1``, ``heuristic:balanced+temperature=0.1``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    name: str
    temperature: float = 0.0
    summary: str = ""


PROFILES: dict[str, Settings] = {s.name: s for s in (
    Settings("balanced", summary="personages by every path the evaluation weighs"),
)}
DEFAULT = PROFILES["balanced"]


def settings(name: str) -> Settings:
    """The settings a bot's name carries (``""``: the default)."""
    from mnrules.bots.settings import parse_settings

    return parse_settings("heuristic", name, PROFILES, DEFAULT)
