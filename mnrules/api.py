"""The public surface for game and plugin authors: import from here, not from the
kernel's modules (their layout may change between minor versions; these names may not).

    from mnrules.api import DONE, Decision, Frame, Game, GameDefinition, State, Step

A game is a package (or one .py file beside a pack) holding ``GAME``, a
:class:`GameDefinition` (its state, seats, board, bots, texts...), and answering the
rules hooks its rules need with module-level ``@hookimpl`` functions
(docs/writing-a-game.md); a rule plugin is a module of a game's package, or a .py file
beside a variant's pack (docs/writing-a-plugin.md).

``API_VERSION`` is the version of this surface, ``MAJOR.MINOR``: a minor step adds names,
a major step removes or changes one (after a minor version of deprecation warnings). A
pack asks for it with ``api: ">=1.0"`` (the same comparisons as ``engine:``), and is
refused, naming its file and key, by an mnrules that does not provide it.
"""

from __future__ import annotations

from .bots import Bot
from .content.ruleset import Ruleset
from .content.yamlsource import did_you_mean
from .core.definition import GameDefinition, Presentation, ScenarioSupport
from .core.effects import ADD, MULTIPLY, SET, Event, Modifier, Replacement, Trigger
from .core.engine import CONTINUE, DONE, Choice, Decision, Frame, Game, Listener, Param, Step
from .core.state import KERNEL_SHAPES, State, at_least, seen_by
from .errors import (
    DataFileError,
    IllegalChoice,
    InvalidChoice,
    MnrulesError,
    PackError,
    RuleRef,
    StateError,
)
from .hooks.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from .hooks.hookspecs import hookimpl, hookspec
from .language.words import Terms, Word, one_of
from .version import API_VERSION  # with the package's version, which packs read too

__all__ = [
    "ADD", "API_VERSION", "CONTINUE", "DONE", "KERNEL_SHAPES", "MULTIPLY", "SET", "Bot",
    "Choice", "DataFileError", "Decision", "DecisionKind", "Declaration", "Event",
    "EventKind", "Frame", "Game", "GameDefinition", "IllegalChoice", "InvalidChoice",
    "Listener", "MnrulesError", "Modifier", "PackError", "Param", "Part", "Presentation",
    "Quantity", "Replacement", "RuleRef", "Ruleset", "ScenarioSupport", "State",
    "StateError", "Step", "Terms", "Trigger", "Word", "at_least", "did_you_mean",
    "hookimpl", "hookspec", "one_of", "seen_by",
]
