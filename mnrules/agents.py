"""What agents from elsewhere (OpenSpiel, PettingZoo: :mod:`mnrules.openspiel`,
:mod:`mnrules.pettingzoo`) need of any game on the kernel: a fixed integer action space
and chance as explicit nodes. No third-party import here (docs/agents.md).

**Actions.** An option (a str, an int or a nested tuple of them) is spelled as a
sequence of *tokens*, each a fixed integer of the game's :class:`ActionCodec`: a tuple
is ``OPEN`` ... ``CLOSE``; an int from 0 to 255 is one token; a string of the pack's
*vocabulary* (every short string of the pack's data, board, components, names, cards,
seating and typed choices' heads, sorted) is one token; any other string or int (a
composite id: ``legendary:gold``, ``card:pharos#0``) is spelled byte by byte of its
UTF-8 (or decimal) text between ``STR`` (or ``NUM``) and ``END``. The spelling is
prefix-free, so a choice is a walk down the trie of the legal options' spellings: a
player gives one token where the options part (the tokens they all share are taken
for him), and the option is chosen once one alone is left. Most decisions take one
action (their options differ in their first token); a payment of Mare Nostrum takes one
per good where payments differ. A token means the same in every state and run of the
game (the vocabulary is read from the pack), and ``size`` is fixed per game.

**Chance.** :class:`Table` applies a choice on a copy of the game whose
:attr:`~mnrules.core.engine.Game.chooser` answers each chance from the outcomes known so far
and, at the first unknown one, stops the trial: the table is then at a chance node
(label and options, each of probability ``1/len``). An outcome picked is added to the
known ones and the choice tried again from the position before it, until it completes.
The generator is drawn as in the native game, so the same outcomes give the same game,
state and generator included. What stays inside the seed: whatever a game draws with
``game.rng`` directly rather than through ``game.chance`` (Mare Nostrum's set-up
shuffles of the legendary pile and the heroes and wonders, and the reshuffle of the
legendary discard, whose order no draw reads: a draw is a chance among the sorted pile).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .content.ruleset import Ruleset
from .core.engine import Choice, Decision, Game
from .core.start import new_game

OPEN, CLOSE, STR, NUM, END = 0, 1, 2, 3, 4
BYTE0 = 5
"""Tokens 5 to 260: the bytes of a spelled string or number."""
INTS = 256
INT0 = BYTE0 + 256
"""Tokens 261 to 516: the ints 0 to 255."""
WORD0 = INT0 + INTS
"""Tokens from 517: the pack's vocabulary, sorted."""
MAX_WORD = 40
MAX_CHANCE = 256
"""The most outcomes a chance node may have (a game's are far fewer: 13 at most)."""
_MARKS = {OPEN: "(", CLOSE: ")", STR: "<text", NUM: "<number", END: ">"}


def vocabulary(rules: Ruleset) -> list[str]:
    """The pack's words: every string of at most 40 characters (no path, no line break)
    among its data, board, components, names, cards, seating, steps and the heads of
    its typed choices (``move``, ``done``), sorted. Objects are looked into when their
    class is the kernel's or the game's own package's (an Antike II ``Board`` is
    ``antike2.board.Board``: its areas' names are words)."""
    roots = ("mnrules", "plugins", *_game_packages(rules))
    words: set[str] = set()
    for part in (rules.data, rules.board, rules.components, rules.names,
                 rules.names_by_kind, sorted(rules.cards), rules.seating,
                 sorted(rules.steps),
                 [sorted(k for k in kinds if k) for kinds in rules.choice_types.values()]):
        _strings(part, words, 0, set(), roots)
    return sorted(words)


def _game_packages(rules: Ruleset) -> tuple[str, ...]:
    from .content.games import installed

    entry = installed().get(rules.game)
    return (entry.package.split(".")[0],) if entry is not None else ()


def _strings(value: Any, out: set[str], depth: int, seen: set[int],
             roots: tuple[str, ...]) -> None:
    if depth > 12:
        return
    if isinstance(value, str):
        if (0 < len(value) <= MAX_WORD and "\n" not in value
                and not (("/" in value or "\\" in value) and "." in value)
                and not value.startswith("/")):
            out.add(value)
        return
    if isinstance(value, int | float | bool) or value is None:
        return
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for k, v in value.items():
            _strings(k, out, depth + 1, seen, roots)
            _strings(v, out, depth + 1, seen, roots)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            _strings(v, out, depth + 1, seen, roots)
    elif hasattr(value, "__dict__") and type(value).__module__.split(".")[0] in roots:
        _strings(vars(value), out, depth + 1, seen, roots)
    elif hasattr(value, "__slots__"):
        for name in getattr(value, "__slots__", ()):
            _strings(getattr(value, name, None), out, depth + 1, seen, roots)


class ActionCodec:
    """A game's tokens: the structure marks, the bytes, the ints 0-255 and its words."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = sorted(set(words))
        self.index = {w: WORD0 + i for i, w in enumerate(self.words)}
        self.size = WORD0 + len(self.words)

    def spell(self, option: Choice) -> tuple[int, ...]:
        out: list[int] = []
        self._spell(option, out)
        return tuple(out)

    def _spell(self, value: Any, out: list[int]) -> None:
        if isinstance(value, tuple | list):
            out.append(OPEN)
            for v in value:
                self._spell(v, out)
            out.append(CLOSE)
        elif isinstance(value, bool):
            raise TypeError(f"not a choice: {value!r}")
        elif isinstance(value, int):
            if 0 <= value < INTS:
                out.append(INT0 + value)
            else:
                out.append(NUM)
                out.extend(BYTE0 + b for b in str(value).encode())
                out.append(END)
        elif isinstance(value, str):
            word = self.index.get(value)
            if word is not None:
                out.append(word)
            else:
                out.append(STR)
                out.extend(BYTE0 + b for b in value.encode())
                out.append(END)
        else:
            raise TypeError(f"not a choice: {value!r}")

    def read(self, tokens: Sequence[int]) -> Choice:
        """The option a whole spelling spells (the inverse of :meth:`spell`)."""
        value, end = self._read(tokens, 0)
        if end != len(tokens):
            raise ValueError(f"tokens left after the option: {list(tokens[end:])}")
        return value

    def _read(self, tokens: Sequence[int], i: int) -> tuple[Choice, int]:
        t = tokens[i]
        if t == OPEN:
            items: list[Choice] = []
            i += 1
            while tokens[i] != CLOSE:
                item, i = self._read(tokens, i)
                items.append(item)
            return tuple(items), i + 1
        if t in (STR, NUM):
            j = list(tokens[i + 1:]).index(END) + i + 1
            text = bytes(b - BYTE0 for b in tokens[i + 1:j]).decode()
            return (text if t == STR else int(text)), j + 1
        if INT0 <= t < WORD0:
            return t - INT0, i + 1
        if t >= WORD0:
            return self.words[t - WORD0], i + 1
        raise ValueError(f"token {t} cannot start an option")

    def text(self, token: int) -> str:
        """A token as text: its word, int, byte or mark."""
        if token in _MARKS:
            return _MARKS[token]
        if token < INT0:
            return repr(chr(token - BYTE0))
        if token < WORD0:
            return str(token - INT0)
        return self.words[token - WORD0]


def codec_for(rules: Ruleset) -> ActionCodec:
    """The game's codec, made once per rule set."""
    found = getattr(rules, "_agents_codec", None)
    if isinstance(found, ActionCodec):
        return found
    codec = ActionCodec(vocabulary(rules))
    object.__setattr__(rules, "_agents_codec", codec)
    return codec


class _NeedChance(BaseException):
    """A trial met a chance no outcome is known for (a BaseException: no rule's
    ``except Exception`` may swallow it)."""

    def __init__(self, label: str, options: tuple[Any, ...]) -> None:
        super().__init__(label)
        self.label = label
        self.options = options


def copy_game(game: Game[Any]) -> Game[Any]:
    """A settled copy sharing nothing but the rule set: state, history, generator."""
    _ = game.pending
    other: Game[Any] = Game(game.rules, game.state.clone(), history=list(game.history),
                            max_rounds=game.max_rounds)
    other.rng.setstate(game.rng.getstate())
    _ = other.pending
    return other


class Table:
    """A game as agents from elsewhere see it: at a player's decision (part of whose
    option may be spelled already), at a chance node, or over.

    ``seats`` is the fixed order of the players (the rule set's seating: the seat
    numbers agents use, whatever order of play the set-up draws)."""

    def __init__(self, rules: Ruleset, players: int, seed: int,
                 round_cap: int | None = None) -> None:
        self.rules = rules
        self.codec = codec_for(rules)
        self.seats: list[str] = list(rules.seating[players])
        self.players = players
        self.seed = seed
        self.round_cap = round_cap
        self.game: Game[Any] | None = None   # the settled game (None: not yet set up)
        self.choice: Choice | None = None    # the choice being applied, at a chance node
        self.known: list[int] = []           # its chance outcomes picked so far
        self.chance: tuple[str, tuple[Any, ...]] | None = None
        self.prefix: list[int] = []          # the tokens of the pending option given
        self.seen: dict[str, list[str]] = {p: [] for p in self.seats}
        self._spellings: tuple[Decision, list[tuple[tuple[int, ...], Choice]]] | None = None
        self._run()

    # -- copies ---------------------------------------------------------------------------
    def copy(self) -> Table:
        other = Table.__new__(Table)
        other.__dict__.update(self.__dict__)
        other.game = copy_game(self.game) if self.game is not None else None
        other.known = list(self.known)
        other.prefix = list(self.prefix)
        other.seen = {p: list(v) for p, v in self.seen.items()}
        other._spellings = None
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.copy()

    # -- where we are ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.chance is None and self.game is not None and self.game.pending is None

    @property
    def decision(self) -> Decision | None:
        return None if self.chance is not None or self.game is None else self.game.pending

    def seat(self) -> int | None:
        """The seat to act (None at a chance node or at the end)."""
        dec = self.decision
        return None if dec is None else self.seats.index(dec.player)

    def returns(self) -> list[float]:
        if not self.over or self.game is None:
            return [0.0] * len(self.seats)
        winners = self.game.state.winners
        return [1.0 / len(winners) if p in winners else 0.0 for p in self.seats]

    # -- a player's tokens ----------------------------------------------------------------
    def _candidates(self) -> list[tuple[tuple[int, ...], Choice]]:
        dec = self.decision
        assert dec is not None
        if self._spellings is None or self._spellings[0] is not dec:
            self._spellings = (dec, [(self.codec.spell(o), o) for o in dec.options])
        n = len(self.prefix)
        found = [(s, o) for s, o in self._spellings[1] if list(s[:n]) == self.prefix]
        while len(found) > 1 and len({s[len(self.prefix)] for s, _ in found}) == 1:
            self.prefix.append(found[0][0][len(self.prefix)])
        return found

    def legal(self) -> list[int]:
        """The tokens the player to act may give next, sorted."""
        if self.decision is None:
            return []
        found = self._candidates()
        n = len(self.prefix)
        return sorted({s[n] for s, _ in found})

    def options_of(self, token: int) -> list[Choice]:
        """The legal options the token ``token`` leaves."""
        found = self._candidates()
        n = len(self.prefix)
        return [o for s, o in found if s[n] == token]

    def remaining(self, option: Choice) -> list[int]:
        """The tokens still to give for a whole legal option of the pending decision
        (after those given and those every option left shares); a ValueError if it is
        not legal or the tokens given so far spell another."""
        dec = self.decision
        if dec is None:
            raise ValueError("no decision is pending")
        if option not in dec.options:
            raise ValueError(f"{dec.kind}: {option!r} is not a legal option")
        self._candidates()
        spelled = self.codec.spell(option)
        n = len(self.prefix)
        if list(spelled[:n]) != self.prefix:
            raise ValueError(f"{dec.kind}: the tokens given "
                             f"({' '.join(self.codec.text(t) for t in self.prefix)}) "
                             f"spell another option than {option!r}")
        return list(spelled[n:])

    def give(self, token: int) -> None:
        """The player to act gives a token; the option is applied once it is the only
        one left."""
        left = self.options_of(token)
        if not left:
            raise ValueError(f"token {token} ({self.codec.text(token)}) is not legal")
        self.prefix.append(token)
        if len(left) == 1:
            self.choose(left[0])

    def choose(self, option: Choice) -> None:
        """Apply a whole option of the pending decision (every token at once)."""
        dec = self.decision
        assert dec is not None and self.game is not None
        if option not in dec.options:
            raise ValueError(f"{option!r} is not a legal option")
        for p in self.seats:
            shown = option if p == dec.player or not dec.hidden else "hidden"
            self.seen[p].append(json.dumps([dec.player, dec.kind, shown]))
        self.choice = option
        self.known = []
        self.prefix = []
        self._run()

    # -- chance ---------------------------------------------------------------------------
    def outcomes(self) -> list[tuple[int, float]]:
        assert self.chance is not None
        k = len(self.chance[1])
        return [(i, 1.0 / k) for i in range(k)]

    def pick(self, outcome: int) -> None:
        """The outcome of the chance node (an index into its options)."""
        assert self.chance is not None
        if not 0 <= outcome < len(self.chance[1]):
            raise ValueError(f"no outcome {outcome} of {self.chance[0]}")
        label = self.chance[0]
        for p in self.seats:
            self.seen[p].append(json.dumps(["chance", label]))
        self.known.append(outcome)
        self._run()

    def _run(self) -> None:
        known = self.known
        used = 0

        def chooser(label: str, options: Sequence[Any], drawn: int) -> int:
            nonlocal used
            if used < len(known):
                used += 1
                return known[used - 1]
            if len(options) > MAX_CHANCE:
                raise ValueError(f"{label}: {len(options)} outcomes, more than {MAX_CHANCE}")
            raise _NeedChance(label, tuple(options))

        try:
            if self.game is None:
                trial = new_game(self.rules, self.players, seed=self.seed,
                                 round_cap=self.round_cap, chooser=chooser)
            else:
                trial = copy_game(self.game)
                trial.chooser = chooser
                trial.apply(self.choice)
            _ = trial.pending
        except _NeedChance as need:
            self.chance = (need.label, need.options)
            return
        trial.chooser = None
        self.game = trial
        self.chance = None
        self.choice = None
        self.known = []
        self._spellings = None

    def chance_text(self, outcome: int) -> str:
        assert self.chance is not None
        label, options = self.chance
        return f"{label}: {options[outcome]}"


class NativeSeat:
    """One of our bots (:class:`mnrules.bots.Bot`) in a seat of the adapters: asked once
    a decision, as in the native loop, its option then given a token at a time. Asking
    it again at each token would let a bot that draws among its best options (the
    heuristic does) pick another one halfway through a decision of several tokens,
    whose next token those already given refuse."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._decision: Decision | None = None
        self._option: Choice | None = None

    def token(self, table: Table) -> int:
        """The next token of the bot's option for the pending decision."""
        dec = table.decision
        if dec is None or table.game is None:
            raise ValueError("no decision is pending")
        if dec is not self._decision:
            self._decision, self._option = dec, self.bot.choose(table.game)
        return table.remaining(self._option)[0]


def replay_outcomes(rules: Ruleset, players: int, seed: int,
                    choose: Callable[[Game[Any]], Choice], round_cap: int | None = None,
                    limit: int = 10_000) -> tuple[Game[Any], list[Choice], list[Any]]:
    """A native game played by ``choose``, with its choices and the chance outcomes its
    generator drew in order (values): what a replay through the adapters needs."""
    drawn: list[Any] = []

    def listen(event: Any) -> None:
        if event.kind == "chance":
            drawn.append(event.data["value"])

    game = new_game(rules, players, seed=seed, round_cap=round_cap, listeners=[listen])
    choices: list[Choice] = []
    while game.pending is not None and len(choices) < limit:
        c = choose(game)
        choices.append(c)
        game.apply(c)
    return game, choices, drawn
