"""The kernel's search player: information-set Monte Carlo tree search (single-observer
ISMCTS, Cowling, Powley and Whitehouse 2012) for any game on the kernel, through the one
decision loop.

Each iteration imagines one world the searching player cannot tell from the real one:
a copy of the game whose hidden information is dealt afresh from what he may see (the
game's ``mn_determinize`` hook) and whose chance is drawn from a generator of the
iteration's own (never the game's: that would read the future dice). It then walks the
tree from the root, one node per choice, every seat's choices included: at a node it
expands the first candidate not tried yet (the game's policy ranks them, best first) or
takes the child with the best upper confidence bound among those legal in this world
(counted by their availability, as ISMCTS does, since a choice may exist in one world
and not another). From the new node the game's policy plays every seat for ``depth``
decisions, or to the end of the round or the game, and the position's value for each
seat (the policy's estimate of his chance to win; 1 for a winner, 0 for a loser) is
credited along the path to each node's mover (max^n: every seat plays for himself).

The budget is a number of iterations, never a time, and every draw is a pure function
of the bot's seed, the game's choice count and the iteration's number: a seeded game
replays exactly, and a game saved and loaded goes on as it would have. For that same
reason no tree is kept between decisions (a tree carried over would be state a save
does not hold). A game gives its policy through its definition's ``search_policy``; without one the
search plays random playouts to the end and values only outcomes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, Protocol

from ..core.engine import Choice, Decision, Game
from ..errors import MnrulesError
from .random_bot import MASK, splitmix64

MAX_ITERATIONS = 10_000
"""The largest budget a name may ask (``mcts:N``): a bot is input, and an unbounded one
would hang whoever plays it (the web server's seat kinds included)."""
DEFAULT_ITERATIONS = 8
"""``mcts`` with no number: the budget measured head to head in both games over 200
games (docs/simulation.md), affordable for a few hundred games."""
PLAYOUT_CAP = 2_000
"""Playout decisions at most, whatever ``depth`` says: no playout runs forever."""
DEFAULT_WIDTH = 6
"""Candidates a node considers, unless the game's policy says (``width``) or the bot's
name does (``mcts:8+width=4``)."""


class SearchPolicy(Protocol):
    """What a game tells the search player (its definition's ``search_policy``)."""

    depth: int
    """Decisions a playout lasts past the tree at most (0: to the end of the game)."""
    # A policy may also give ``width``, the candidates a node considers (else
    # DEFAULT_WIDTH): an optional attribute, so policies written before it still fit.

    def over(self, game: Game[Any], start: Decision, round: int, phase: str) -> bool:
        """Whether an imagined game begun at the searched decision ``start`` (in that
        ``round`` and ``phase``) has gone far enough to be valued (the choice shows)."""
        ...

    def searched(self, game: Game[Any]) -> bool:
        """Whether the pending decision is worth a search (else ``playout`` answers it)."""
        ...

    def candidates(self, game: Game[Any]) -> Sequence[Choice]:
        """The options the tree considers at the pending decision, best first."""
        ...

    def playout(self, game: Game[Any], salt: int) -> Choice:
        """A quick choice for the pending decision (``salt``: the playout's own chance)."""
        ...

    def answer(self, game: Game[Any], salt: int) -> Choice:
        """The choice made at the table for a decision not searched: the game's best
        unsearched answer, which a playout may cut short for speed."""
        ...

    def values(self, game: Game[Any]) -> dict[str, float]:
        """Each seat's chance to win as the game estimates it here, in [0, 1]."""
        ...


class RandomPolicy:
    """The policy of a game that gives none: every option, random playouts to the end,
    and only outcomes valued (a seat's share of the win; an undecided game is even)."""

    depth = 0

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def over(self, game: Game[Any], start: Decision, round: int, phase: str) -> bool:
        return False

    def searched(self, game: Game[Any]) -> bool:
        dec = game.pending
        return dec is not None and len(dec.options) > 1

    def candidates(self, game: Game[Any]) -> Sequence[Choice]:
        return game.legal()

    def playout(self, game: Game[Any], salt: int) -> Choice:
        options = game.legal()
        return options[splitmix64((salt ^ game.state.choices) & MASK) % len(options)]

    def answer(self, game: Game[Any], salt: int) -> Choice:
        return self.playout(game, salt)

    def values(self, game: Game[Any]) -> dict[str, float]:
        return outcome_values(game)


def outcome_values(game: Game[Any]) -> dict[str, float]:
    """1 shared among the winners of a finished game; an unfinished or drawn one even."""
    state = game.state
    players = state.players
    if state.finished and state.winners:
        share = 1.0 / len(state.winners)
        return {p: share if p in state.winners else 0.0 for p in players}
    return {p: 1.0 / len(players) for p in players}


class Node:
    """One choice in the tree: who made it, how often it was taken and was available,
    and the sum of its mover's rewards."""

    __slots__ = ("avail", "children", "player", "total", "visits")

    def __init__(self, player: str) -> None:
        self.player = player
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Choice, Node] = {}


class MctsBot:
    """``iterations`` ISMCTS iterations a searched decision, ``width`` candidates a node
    at most (the policy's best; the policy's own ``width`` if it has one, else
    :data:`DEFAULT_WIDTH`), UCB constant ``explore`` (times the spread of the rewards
    seen), the policy's playout depth unless ``depth`` is given."""

    def __init__(self, seed: int, policy: SearchPolicy, iterations: int = DEFAULT_ITERATIONS,
                 width: int | None = None, explore: float = 1.0,
                 depth: int | None = None) -> None:
        self.seed = seed
        self.policy = policy
        self.iterations = iterations
        self.width = int(getattr(policy, "width", DEFAULT_WIDTH)) if width is None else width
        self.explore = explore
        self.depth = policy.depth if depth is None else depth
        self.searched = 0

    def choose(self, game: Game[Any]) -> Choice:
        dec = game.pending
        assert dec is not None, "the game is over"
        if len(dec.options) == 1:
            return dec.options[0]
        if self.iterations <= 0 or not self.policy.searched(game):
            return self.policy.answer(game, self._seed(game, -1))
        cands = list(self.policy.candidates(game))[:self.width]
        if len(cands) == 1:
            return cands[0]
        self.searched += 1
        return best(self.search(game, cands), cands)

    def search(self, game: Game[Any], cands: list[Choice]) -> Node:
        """The tree grown from ``game``'s pending decision, its root's children ``cands``.

        The root's child is chosen before the world is imagined, and the k-th visit of
        every root child imagines the same world and dice (common random numbers: the
        candidates are compared on the same worlds, not on luck)."""
        dec = game.pending
        assert dec is not None
        root = Node(dec.player)
        stats = [0, 0.0, 0.0]        # rewards backed up: count, sum, sum of squares
        for _ in range(self.iterations):
            choice, child = self._select(root, cands, dec.player, stats)
            seed = self._seed(game, child.visits)
            world = imagine(game, dec.player, seed)
            world.apply(choice)
            self._iterate(world, [root, child], stats, dec,
                          (game.state.round, game.state.phase), seed ^ 0x5DEECE66D)
        return root

    def _seed(self, game: Game[Any], salt: int) -> int:
        x = splitmix64(splitmix64(self.seed & MASK) ^ (game.state.choices & MASK))
        return splitmix64(x ^ (salt & MASK))

    def _iterate(self, g: Game[Any], path: list[Node], stats: list[Any], start: Decision,
                 begun: tuple[int, str], salt: int) -> None:
        policy = self.policy
        node = path[-1]
        while node.visits > 0:        # down the tree to a node not yet played out
            dec = g.pending
            if dec is None or policy.over(g, start, *begun):
                break
            if len(dec.options) == 1:
                g.apply(dec.options[0])
                continue
            options = policy.candidates(g)[:self.width]
            choice, node = self._select(node, options, dec.player, stats)
            g.apply(choice)
            path.append(node)
        self._playout(g, start, begun, salt)
        values = policy.values(g) if g.pending is not None else outcome_values(g)
        for n in path[1:]:
            v = values.get(n.player, 0.0)
            n.visits += 1
            n.total += v
            stats[0] += 1
            stats[1] += v
            stats[2] += v * v

    def _select(self, node: Node, options: Sequence[Choice], player: str,
                stats: list[Any]) -> tuple[Choice, Node]:
        """The first option never tried (in the policy's order), else the best upper
        confidence bound among the options legal here (each counted available)."""
        children = node.children
        for opt in options:
            child = children.get(opt)
            if child is None:
                child = children[opt] = Node(player)
            child.avail += 1
        for opt in options:
            if children[opt].visits == 0:
                return opt, children[opt]
        count, total, squares = stats
        spread = math.sqrt(max(squares / count - (total / count) ** 2, 1e-6)) if count else 1
        c = self.explore * spread
        top = -math.inf
        chosen = options[0]
        for opt in options:
            child = children[opt]
            u = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if u > top:
                chosen, top = opt, u
        return chosen, children[chosen]

    def _playout(self, g: Game[Any], start: Decision, begun: tuple[int, str],
                 salt: int) -> None:
        policy = self.policy
        cap = self.depth if self.depth > 0 else PLAYOUT_CAP
        for k in range(min(cap, PLAYOUT_CAP)):
            dec = g.pending
            if dec is None or policy.over(g, start, *begun):
                return
            if len(dec.options) == 1:
                g.apply(dec.options[0])
            else:
                g.apply(policy.playout(g, salt + k))


def best(root: Node, cands: list[Choice]) -> Choice:
    """The root's child of best mean among the well-tried ones (at least half the most
    visits), the policy's order breaking ties."""
    tried = [c for c in cands if c in root.children and root.children[c].visits]
    if not tried:
        return cands[0]
    most = max(root.children[c].visits for c in tried)
    sure = [c for c in tried if 2 * root.children[c].visits >= most]
    return max(sure, key=lambda c: (root.children[c].total / root.children[c].visits,
                                    -cands.index(c)))


def imagine(game: Game[Any], viewer: str, seed: int) -> Game[Any]:
    """A copy of ``game`` at its pending decision as ``viewer`` may imagine it: what he
    cannot see dealt afresh (the game's ``determinize``), chance drawn from ``seed``."""
    _ = game.pending
    copy: Game[Any] = Game(game.rules, game.state.clone())
    copy.rng = random.Random(seed)
    deal = copy.rules.definition.determinize
    if deal is not None:
        deal(game=copy, viewer=viewer, rng=random.Random(seed ^ 0x2545F491))
    return copy


def parse_options(name: str, arg: str) -> dict[str, int | float]:
    """``mcts:ITERATIONS+key=value...`` (``width``, ``explore``, ``depth``), refused
    with what to write when malformed or beyond bounds."""
    head, *extra = arg.split("+") if arg else ("",)
    out: dict[str, int | float] = {}
    if head:
        if not head.isdigit() or not 0 < int(head) <= MAX_ITERATIONS:
            raise MnrulesError(f"--bots: {name}:{arg}: give the iterations as a number from "
                               f"1 to {MAX_ITERATIONS:,}, e.g. {name}:64")
        out["iterations"] = int(head)
    bounds: dict[str, tuple[type, float, float]] = {
        "width": (int, 1, 64), "depth": (int, 0, PLAYOUT_CAP), "explore": (float, 0.0, 10.0)}
    for item in extra:
        key, eq, value = item.partition("=")
        if key not in bounds or not eq:
            raise MnrulesError(f"--bots: {name}:{arg}: {item!r}: write key=value with a key "
                               f"of {', '.join(bounds)}, e.g. {name}:64+width=4")
        kind, low, high = bounds[key]
        try:
            number = kind(value)
        except ValueError:
            number = None
        if number is None or not low <= number <= high:
            raise MnrulesError(f"--bots: {name}:{arg}: {key} takes a {kind.__name__} from "
                               f"{low:g} to {high:g}, not {value!r}")
        out[key] = number
    return out
