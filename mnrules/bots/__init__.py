"""Players that choose without a human: every bot answers the pending decision.

The kernel has two bots of its own, ``random`` and the search player ``mcts:N``
(:mod:`.mcts`, which a game teaches through its definition's ``search_policy``); a game
adds its own bots in its definition (``bots``) and a plugin through the ``mn_bots`` hook
(``name`` or ``name:ARGUMENT`` on the command line).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..core.engine import Choice, Game
from ..errors import MnrulesError

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..content.ruleset import Ruleset


class Bot(Protocol):
    def choose(self, game: Game[Any]) -> Choice:
        """A legal choice for the pending decision (which belongs to this bot)."""
        ...


class SeatBot(Protocol):
    """A bot from elsewhere, that never sees the game object: only its player's view
    (:func:`mnrules.core.view.player_view`, a fresh JSON-able dict) and the legal options. An
    ``mn_bots`` factory may return one; :func:`make_bot` seats it through
    :class:`ViewBot` (docs/agents.md)."""

    def choose(self, view: dict[str, Any], options: list[Choice]) -> Choice:
        ...


class ViewBot:
    """A :class:`SeatBot` at the table: the kernel asks the game, the seat bot gets its
    player's view and the options, and its answer is checked against them."""

    def __init__(self, seat: SeatBot) -> None:
        self._seat = seat

    def choose(self, game: Game[Any]) -> Choice:
        from ..core.engine import as_choice
        from ..core.view import player_view

        dec = game.pending
        if dec is None:
            raise MnrulesError("the game is over: nothing to choose")
        view = player_view(game, dec.player)
        options = list(dec.options)
        pick = as_choice(self._seat.choose(view, options))
        if pick not in dec.options:
            raise MnrulesError(f"{type(self._seat).__name__} chose {pick!r}, not one of "
                               f"the {len(options)} legal options")
        return pick


def view_bot(seat: SeatBot) -> Bot:
    """``seat`` as a bot of the kernel (see :class:`ViewBot`)."""
    return ViewBot(seat)


def _is_seat_bot(bot: object) -> bool:
    """Whether ``bot.choose`` takes (view, options) rather than the game."""
    import inspect

    try:
        params = inspect.signature(bot.choose).parameters  # type: ignore[attr-defined]
    except (TypeError, ValueError, AttributeError):
        return False
    return len(params) == 2


def _random(seed: int, arg: str) -> Bot:
    from .random_bot import RandomBot

    if arg:
        raise MnrulesError("--bots: the random bot takes no argument")
    return RandomBot(seed)


def _mcts(rules: Ruleset | None) -> Callable[[int, str], Bot]:
    def make(seed: int, arg: str) -> Bot:
        from .mcts import MctsBot, RandomPolicy, parse_options

        options = parse_options("mcts", arg)
        make_policy = rules.definition.search_policy if rules else None
        found = make_policy(rules=rules, seed=seed) if make_policy is not None else None
        return MctsBot(seed, found if found is not None else RandomPolicy(seed),
                       **options)  # type: ignore[arg-type]
    return make


def bot_kinds(rules: Ruleset | None) -> dict[str, Callable[[int, str], Bot]]:
    """Every bot a game under ``rules`` can use, by name."""
    kinds: dict[str, Callable[[int, str], Bot]] = {"random": _random, "mcts": _mcts(rules)}
    if rules is not None:
        kinds.update(rules.definition.bots)
        for found in rules.hook.mn_bots():   # a plugin's, beside the game's own
            kinds.update(found)
    return kinds


STUDY_BOTS = "heuristic"
"""The bot of every seat when a study command (simulate, sweep) is given none: the
cheapest bot that plays each game with a plan. Random bots measure the rules' luck, not
the balance players meet; a search bot costs a hundredfold more a game. A game with no
bot of that name (a modder's small game) is played by random bots."""


def default_bots(given: str | None, rules: Ruleset) -> str:
    """``--bots`` as given, else :data:`STUDY_BOTS` where the game has it, else random."""
    if given is not None:
        return given
    return STUDY_BOTS if STUDY_BOTS in bot_kinds(rules) else "random"


def make_bot(name: str, seed: int, rules: Ruleset | None = None) -> Bot:
    """A bot by name (``random``, or one of the game's: ``heuristic``, ``search:N``)."""
    kind, _, arg = name.partition(":")
    kinds = bot_kinds(rules)
    if kind not in kinds:
        from ..content.yamlsource import did_you_mean

        known = f"; known: {', '.join(sorted(kinds))}"
        raise MnrulesError(f"--bots: unknown bot {name!r}{did_you_mean(kind, kinds, known)}")
    bot = kinds[kind](seed, arg)
    if _is_seat_bot(bot):   # a bot from elsewhere never gets the game object
        return view_bot(bot)  # type: ignore[arg-type]
    return bot
