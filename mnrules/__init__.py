"""mnrules: a rules engine for Mare Nostrum: Empires.

    >>> from mnrules import load_ruleset, new_game
    >>> game = new_game(load_ruleset("en"), players=5, seed=1)
    >>> game.pending.player, game.pending.kind
    ('carthage', 'trade.token')
"""

from .engine import Decision, Game
from .errors import IllegalChoice, InvalidChoice, MnrulesError
from .ruleset import Ruleset, load_ruleset
from .start import load_game, new_game
from .state import State

__all__ = ["Decision", "Game", "IllegalChoice", "InvalidChoice", "MnrulesError", "Ruleset",
           "State", "load_game", "load_ruleset", "new_game"]
__version__ = "0.1.0"
