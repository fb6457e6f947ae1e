"""Players that choose without a human: every bot answers the pending decision.

The kernel has two bots of its own, ``random`` and the search player ``mcts:N``
(:mod:`.mcts`, which any game may teach through ``mn_search_policy``); a game adds its
bots through the ``mn_bots`` hook (``name`` or ``name:ARGUMENT`` on the command line).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..engine import Choice, Game
from ..errors import MnrulesError

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..ruleset import Ruleset


class Bot(Protocol):
    def choose(self, game: Game[Any]) -> Choice:
        """A legal choice for the pending decision (which belongs to this bot)."""
        ...


def _random(seed: int, arg: str) -> Bot:
    from .random_bot import RandomBot

    if arg:
        raise MnrulesError("--bots: the random bot takes no argument")
    return RandomBot(seed)


def _mcts(rules: Ruleset | None) -> Callable[[int, str], Bot]:
    def make(seed: int, arg: str) -> Bot:
        from .mcts import MctsBot, RandomPolicy, parse_options

        options = parse_options("mcts", arg)
        found = rules.hook.mn_search_policy(rules=rules, seed=seed) if rules else None
        return MctsBot(seed, found if found is not None else RandomPolicy(seed),
                       **options)  # type: ignore[arg-type]
    return make


def bot_kinds(rules: Ruleset | None) -> dict[str, Callable[[int, str], Bot]]:
    """Every bot a game under ``rules`` can use, by name."""
    kinds: dict[str, Callable[[int, str], Bot]] = {"random": _random, "mcts": _mcts(rules)}
    if rules is not None:
        for found in rules.hook.mn_bots():
            kinds.update(found)
    return kinds


def make_bot(name: str, seed: int, rules: Ruleset | None = None) -> Bot:
    """A bot by name (``random``, or one of the game's: ``heuristic``, ``search:N``)."""
    kind, _, arg = name.partition(":")
    kinds = bot_kinds(rules)
    if kind not in kinds:
        from ..yamlsource import did_you_mean

        known = f"; known: {', '.join(sorted(kinds))}"
        raise MnrulesError(f"--bots: unknown bot {name!r}{did_you_mean(kind, kinds, known)}")
    return kinds[kind](seed, arg)
