"""mnrules: a rules engine for board games. The kernel (this package) knows no game;
each game is a package of its own, found through the entry-point group ``mnrules.games``
(Mare Nostrum: Empires as ``mare_nostrum``, Antike II as ``antike2``). A game or plugin
author imports from :mod:`mnrules.api`.

    >>> from mnrules import load_ruleset, new_game
    >>> game = new_game(load_ruleset("en"), players=5, seed=1)
    >>> game.pending.player, game.pending.kind
    ('carthage', 'trade.token')
"""

from . import _legacy
from .content.ruleset import Ruleset, load_ruleset
from .core.engine import Decision, Game
from .core.start import load_game, new_game
from .core.state import State
from .errors import IllegalChoice, InvalidChoice, MnrulesError
from .version import API_VERSION, __version__

__all__ = ["API_VERSION", "Decision", "Game", "IllegalChoice", "InvalidChoice", "MnrulesError",
           "Ruleset", "State", "__version__", "load_game", "load_ruleset", "new_game"]

_legacy.install()   # mnrules.plugins.* (0.1's names) until 0.3
