"""The game state: plain data only (str, int, bool, list, dict), so that a
snapshot is a JSON document that round-trips exactly.

The kernel's state holds only what every game has; a game adds its components by
subclassing :class:`State`.
"""

from __future__ import annotations

import copy
import json
import marshal
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Self, TypeGuard

from ..errors import StateError, clipped

KERNEL_SHAPES: dict[str, Any] = {
    "seed": int, "players": (list, str), "round": int, "phase": str, "choices": int,
    "vars": dict, "stack": (list, dict), "rng": list, "winners": (list, str), "victory": str,
    "finished": bool,
}


MAX_DEPTH = 24
"""How deep plain data may nest in a state (a real game's frames and vars: about 6)."""
MAX_INT = 2**63 - 1
"""The largest whole number a state may hold, either sign (a real game's: a few hundred)."""
MAX_ROUND = 10_000
RNG_WORDS = 625     # random.Random's state: 624 words of Mersenne Twister and an index


def _dotted(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def check_plain(data: Any, root: tuple[str | int, ...] = (), depth: int = MAX_DEPTH) -> None:
    """Refuse what JSON cannot hold or a game never does: other types, floats, keys that
    are not text, nesting deeper than ``depth``, whole numbers beyond :data:`MAX_INT`.
    Iterative, so that hostile nesting cannot exhaust the stack."""
    todo: list[tuple[Any, tuple[str | int, ...]]] = [(data, root)]
    while todo:
        value, path = todo.pop()
        if isinstance(value, dict):
            if len(path) - len(root) >= depth:
                raise StateError(f"nests more than {depth} deep", _dotted(path))
            for k, v in value.items():
                if not isinstance(k, str):
                    raise StateError(f"keys must be text, got {clipped(k)}", _dotted(path))
                todo.append((v, (*path, k)))
        elif isinstance(value, list | tuple):
            if len(path) - len(root) >= depth:
                raise StateError(f"nests more than {depth} deep", _dotted(path))
            todo.extend((v, (*path, i)) for i, v in enumerate(value))
        elif isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        elif isinstance(value, int):
            if not -MAX_INT <= value <= MAX_INT:
                raise StateError(f"a number beyond ±{MAX_INT:,}", _dotted(path))
        elif isinstance(value, float) and path == ("rng", 2) and math.isfinite(value):
            continue  # the generator's spare Gaussian: the only number not whole
        elif isinstance(value, float):
            raise StateError(f"{value!r}: a state holds whole numbers only", _dotted(path))
        else:
            raise StateError(f"a {type(value).__name__} is not plain data", _dotted(path))


def _check_type(path: str, value: Any, shape: Any) -> None:
    """Refuse a state whose key holds the wrong kind of value (a hostile or broken file)."""
    if isinstance(shape, tuple) and len(shape) == 2 and shape[0] in (dict, list):
        container, item = shape
        if not isinstance(value, container):
            raise StateError(f"expected a {container.__name__}, got {type(value).__name__}",
                             path)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:  # keys are text: check_plain has refused any other first
            _check_type(f"{path}.{k}" if isinstance(value, dict) else f"{path}[{k}]", v, item)
        return
    kinds = shape if isinstance(shape, tuple) else (shape,)
    if isinstance(value, bool) and bool not in kinds:
        raise StateError(f"expected {' or '.join(k.__name__ for k in kinds)}, got {value!r}",
                         path)
    if not isinstance(value, kinds):
        raise StateError(f"expected {' or '.join(k.__name__ for k in kinds)}, "
                         f"got {type(value).__name__}", path)


def at_least(path: str, n: int, low: int, high: int = MAX_INT) -> None:
    """Refuse a count out of bounds, naming its key."""
    if not low <= n <= high:
        raise StateError(f"{n} is out of bounds ({low} to {high:,})", path)


def _check_counts(data: dict[str, Any]) -> None:
    """Bounds no game leaves: negative counts, a round before the first, duplicates."""
    if "round" in data:
        at_least("round", data["round"], 1, MAX_ROUND)
    if "choices" in data:
        at_least("choices", data["choices"], 0)
    players = data["players"]
    if not players:
        raise StateError("no players", "players")
    for i, p in enumerate(players):
        if p in players[:i]:
            raise StateError(f"{p!r} is seated twice", f"players[{i}]")
    winners = data.get("winners", [])
    for i, who in enumerate(winners):
        if who not in players or who in winners[:i]:
            raise StateError(f"{who!r} is not a player of this game, or is named twice",
                             f"winners[{i}]")
    if not data.get("finished", False) and (winners or data.get("victory")):
        raise StateError("a game not finished has no winner nor victory", "winners")
    for i, frame in enumerate(data.get("stack", [])):
        if not isinstance(frame.get("step"), str):
            raise StateError("a frame names its step as text", f"stack[{i}].step")
    cap = data.get("vars", {}).get("round_cap")
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
        raise StateError(f"expected a whole number of rounds or null, not {clipped(cap)}",
                         "vars.round_cap")
    forced = data.get("vars", {}).get("forced")
    if forced is not None and not (isinstance(forced, dict) and
                                   all(isinstance(v, list) for v in forced.values())):
        raise StateError("expected a mapping of chance labels to lists of outcomes",
                         "vars.forced")
    rng = data.get("rng")
    if rng:
        check_rng(rng)


def check_rng(rng: list[Any]) -> None:
    """Refuse anything but a saved ``random.Random`` state: [3, 625 words, gauss]."""
    ok = (len(rng) == 3 and rng[0] == 3 and not isinstance(rng[0], bool)
          and isinstance(rng[1], list) and len(rng[1]) == RNG_WORDS
          and all(type(w) is int and 0 <= w < 2**32 for w in rng[1])
          and (rng[2] is None or type(rng[2]) is float))
    if ok:
        try:
            random.Random().setstate((3, tuple(rng[1]), rng[2]))
        except (TypeError, ValueError, OverflowError):
            ok = False
    if not ok:
        raise StateError("not a random generator state (as a snapshot saves it: "
                         f"[3, {RNG_WORDS} words, null or a number])", "rng")


SEEN = ("all", "own", "count")
"""Who may see a state field (:func:`seen_by`): everybody; each player his own entry (a
mapping by player; the others see how much it holds); or everybody how much it holds,
none what (a face-down pile)."""


def seen_by(who: str) -> Mapping[str, str]:
    """A game state field's metadata saying who may see it (:data:`SEEN`). The player's
    view (:func:`mnrules.core.view.player_view`, which the web, the agents' adapters and
    the search player's imagined worlds read) is derived from these declarations, so a
    game hides a screen or a face-down pile by saying so, not by code of its own:
    ``screens: dict[str, dict[str, int]] = field(default_factory=dict,
    metadata=seen_by("own"))``."""
    if who not in SEEN:
        raise ValueError(f"seen_by({who!r}): expected one of {', '.join(SEEN)}")
    return {"seen": who}


@dataclass
class State:
    """What every game has: its seed and players, the round and phase, the decision
    stack, the generator, the outcome. A game declares its own state as a subclass
    (dataclass fields with their ``SHAPES``), its definition's ``state``
    (:class:`mnrules.core.definition.GameDefinition`); the kernel validates and
    round-trips whatever was declared."""

    SHAPES: ClassVar[dict[str, Any]] = KERNEL_SHAPES

    seed: int
    players: list[str]
    round: int = 1
    phase: str = ""
    choices: int = 0          # choices applied so far (like chess's move number)
    # Plain data a plugin keeps between steps, under keys it owns ("trade.tokens", ...).
    vars: dict[str, Any] = field(default_factory=dict)
    # The decision stack: frames are dicts with a "step" key.
    stack: list[dict[str, Any]] = field(default_factory=list)
    rng: list[Any] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    victory: str = ""
    finished: bool = False

    def cards_held(self, player: str) -> Sequence[str]:
        """The cards ``player`` holds (whose effects act for him); a game with cards
        says where they lie in its state."""
        return ()

    def holdings(self) -> Mapping[str, list[str]]:
        """Each player's cards (as :meth:`cards_held`), whole: the game compares it with
        the copy its index of who holds what was made from, at every fold a card answers
        (a game whose cards lie in one mapping of lists returns that mapping itself)."""
        return {p: list(self.cards_held(p)) for p in self.players}

    def card_holders(self, card: str) -> list[str]:
        """The players holding ``card``, in seat order (asked at every fold a card
        answers: a game may answer it in one pass over where its cards lie)."""
        return [p for p in self.players if card in self.cards_held(p)]

    @classmethod
    def check_counts(cls, data: dict[str, Any]) -> None:
        """Bounds of the game's own fields (a game's State adds its own checks)."""

    # -- snapshots -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the fields as plain containers (what ``asdict`` gives, twenty
        times faster: see :func:`plain_copy`)."""
        data: dict[str, Any] = plain_copy({f.name: getattr(self, f.name) for f in fields(self)})
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def copy(self) -> Self:
        """A deep copy, checked as a loaded state is (:meth:`from_dict`)."""
        return self.from_dict(self.to_dict())

    def clone(self) -> Self:
        """A deep copy, not checked: for a state the rules themselves made (a snapshot)."""
        return type(self)(**self.to_dict())

    @classmethod
    def game_fields(cls) -> tuple[str, ...]:
        """The fields a game's state declares beyond the kernel's, in declaration order."""
        return tuple(f.name for f in fields(cls) if f.name not in KERNEL_SHAPES)

    @classmethod
    def seen(cls) -> dict[str, str]:
        """Each field not seen whole by everybody, with who may see it (:func:`seen_by`)."""
        return {f.name: f.metadata["seen"] for f in fields(cls)
                if f.metadata.get("seen", "all") != "all"}

    @classmethod
    def check_field(cls, key: str, value: Any) -> None:
        """Refuse (:class:`StateError`, naming the key) a value of a declared field that
        is not plain data of its declared shape."""
        check_plain(value, (key,))
        _check_type(key, value, cls.SHAPES[key])

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """A state from plain data, refused (:class:`StateError`, naming the key) unless
        it is plain data of the right shape within the bounds a game keeps; what the
        rules and the board say of it is checked by :func:`mnrules.core.start.load_game`."""
        if not isinstance(data, dict):
            raise StateError(f"a state must be a mapping, got {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in data if k not in names)
        if unknown:
            raise StateError(f"unknown state key(s): {', '.join(clipped(k, 40) for k in unknown)}")
        missing = [n for n in ("seed", "players") if n not in data]
        if missing:
            raise StateError(f"missing state key(s): {', '.join(missing)}")
        check_plain(data)
        for key, value in data.items():
            _check_type(key, value, cls.SHAPES[key])
        _check_counts(data)
        cls.check_counts(data)
        return cls(**data)

    @classmethod
    def from_json(cls, text: str | bytes) -> Self:
        """A state from its JSON text (see :meth:`from_dict`)."""
        return cls.from_dict(read_json(text))


def plain_copy(data: Any) -> Any:
    """A deep copy of plain data (dicts, lists, tuples, text, numbers), through marshal's
    format 2, which writes every object out in full (so that, as with ``asdict``, no list
    or dict of the copy stands in two places: a later format would share what the
    original shares); anything marshal cannot write (a named tuple, an object) is copied
    by ``copy.deepcopy``."""
    try:
        return marshal.loads(marshal.dumps(data, 2))
    except ValueError:
        return copy.deepcopy(data)


MT_WORDS = 624
"""The Mersenne Twister's words: its state is those words and an index into them."""
MAX_TWISTS = 10_000
"""The twists a compact generator state may ask (each ~10 µs; a real game makes two)."""


def compact_rng(seed: int, rng: list[Any], most: int = 64) -> dict[str, Any] | list[Any]:
    """A game's generator state as a save writes it: the game's generator is seeded with
    its seed, so its 624 words are those after some number of twists of that seed's
    generator, and the state is that number, the index and the spare Gaussian (60 bytes
    rather than 7 kB). A state not found within ``most`` twists (a scenario that set it)
    is kept whole."""
    if len(rng) != 3 or rng[0] != 3 or len(rng[1]) != MT_WORDS + 1:
        return rng
    words = tuple(rng[1][:MT_WORDS])
    gen = random.Random(seed)
    for twists in range(most + 1):
        if gen.getstate()[1][:MT_WORDS] == words:
            return {"twists": twists, "index": rng[1][MT_WORDS], "gauss": rng[2]}
        gen.getrandbits(32 * MT_WORDS)   # exactly one twist: all 624 words drawn
    return rng


def expand_rng(seed: int, rng: Any) -> Any:
    """The generator state a :func:`compact_rng` answer stands for (a whole state is
    returned as it is, for :func:`check_rng`); a compact one out of bounds is refused."""
    if not isinstance(rng, dict):
        return rng
    twists, index, gauss = rng.get("twists"), rng.get("index"), rng.get("gauss")
    if not (set(rng) == {"twists", "index", "gauss"} and _whole(seed)
            and _whole(twists) and 0 <= twists <= MAX_TWISTS
            and _whole(index) and 0 <= index <= MT_WORDS
            and (gauss is None or (type(gauss) is float and math.isfinite(gauss)))):
        raise StateError(f"not a compact generator state ({{twists: 0 to {MAX_TWISTS:,}, "
                         f"index: 0 to {MT_WORDS}, gauss: null or a number}}, with a whole "
                         f"seed)", "rng")
    gen = random.Random(seed)
    for _ in range(twists):
        gen.getrandbits(32 * MT_WORDS)
    return [3, [*gen.getstate()[1][:MT_WORDS], index], gauss]


def _whole(value: object) -> TypeGuard[int]:
    return type(value) is int


def read_json(text: str | bytes) -> Any:
    """JSON text as plain data; anything JSON cannot read, or reads only by exhausting
    the stack or by a number too long to convert, is a :class:`StateError`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StateError(f"not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateError(f"not JSON: line {exc.lineno} column {exc.colno}: "
                         f"{exc.msg}") from None
    except RecursionError:
        raise StateError("not JSON: it nests too deep") from None
    except ValueError as exc:  # a number of thousands of digits
        raise StateError(f"not JSON: {exc}") from None
