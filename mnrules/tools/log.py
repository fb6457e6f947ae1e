"""Game logs (JSON lines) and exact replay.

A log's first line says how the game was made (pack, variant, players, seed, round
cap, engine version, and who played each seat: ``seats``, a bot's name or ``human``);
then one line per choice (who, which decision, what) and one per chance
outcome (a die, a legendary draw). ``replay`` plays the choices again through the one
decision loop and reports the first place where the log and the rules part ways.

A log holds the choices that stand: a choice undone at the terminal is taken out of it
(the lines written since it are cut off), or, where the log cannot be cut (a pipe), an
``{"undo": 1}`` line withdraws it, which reading the log applies. A pack or variant
named by a file is recorded by its absolute path, so that the log replays from any
folder; an older log's relative path is also looked for beside the log.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import IO, Any, Protocol

from ..content.ruleset import Ruleset, load_ruleset
from ..core.effects import Event
from ..core.engine import Choice, Decision, Game, as_choice
from ..core.start import new_game
from ..core.state import MAX_INT, check_plain, compact_rng, expand_rng, read_json
from ..errors import IllegalChoice, InvalidChoice, MnrulesError, StateError, clipped
from ..version import __version__

LOG_FORMAT = "mnrules-log/1"


class LogError(MnrulesError):
    """A log that cannot be read, or that no longer matches the rules."""


def file_ref(ref: str | None) -> str | None:
    """A pack or variant as a log or a save records it: a file (or a pack's folder) by
    its absolute path, a bundled edition by its id."""
    if ref is None:
        return None
    p = Path(ref)
    if ref.endswith((".yaml", ".yml")) or (p.is_dir() and (p / "pack.yaml").is_file()):
        return str(p.resolve())
    return ref


def _found_ref(ref: str, beside: str | Path) -> str:
    """A recorded pack or variant file, looked for beside the log or save that names it
    when a relative path does not lead to it from here (a log written before paths were
    recorded absolute)."""
    if Path(ref).is_absolute() or Path(ref).exists() or not ref.endswith((".yaml", ".yml")):
        return ref
    near = Path(beside).parent / ref
    return str(near) if near.exists() else ref


@dataclass
class Recorder:
    """Writes a game's log as it is played (attach with :meth:`attach`)."""

    out: IO[str]
    _marks: list[int | None] = field(default_factory=list)
    """Where each choice's line begins in ``out`` (None where it cannot be told)."""

    def header(self, game: Game[Any], pack: str, variant: str | None,
               start: bool = False, seats: Mapping[str, str] | None = None) -> None:
        """The first line; with ``start`` (a game loaded from a save) it also holds the
        position the log starts from, which replay loads instead of a new game; with
        ``seats``, who plays each seat (a bot's name or ``human``)."""
        head: dict[str, Any] = {
            "format": LOG_FORMAT, "engine": __version__, "pack": file_ref(pack),
            "variant": file_ref(variant), "players": game.state.players,
            "seed": game.state.seed, "round_cap": game.state.vars.get("round_cap")}
        if seats is not None:
            head["seats"] = dict(seats)
        if start:
            head["state"] = game.snapshot().to_dict()
        self._write(head)

    def attach(self, game: Game[Any]) -> None:
        game.choice_listeners.append(self.on_choice)
        game.listeners.append(self.on_event)

    def on_choice(self, decision: Decision, choice: Choice) -> None:
        try:
            mark: int | None = self.out.tell() if self.out.seekable() else None
        except (OSError, ValueError):
            mark = None
        self._marks.append(mark)
        self._write({"player": decision.player, "kind": decision.kind, "choice": choice})

    def undo(self) -> None:
        """The last choice was undone: cut it (and anything written after it) off the
        log, or, where the log cannot be cut, write an undo line that withdraws it."""
        mark = self._marks.pop() if self._marks else None
        if mark is not None:
            try:
                self.out.flush()
                self.out.truncate(mark)
                self.out.seek(mark)
                return
            except (OSError, ValueError):
                pass
        self._write({"undo": 1})

    def on_event(self, event: Event) -> None:
        if event.kind == "chance":
            self._write({"chance": event.data["label"], "value": event.data["value"]})

    def _write(self, record: dict[str, Any]) -> None:
        self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.out.flush()


def read_log(path: str | Path) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """The header and the numbered records of a log file, every field checked: a broken
    or hostile line is a :class:`LogError` naming ``file:line`` and the field."""
    header, _, records = _read(path)
    return header, records


def _read(path: str | Path
          ) -> tuple[dict[str, Any], int, list[tuple[int, dict[str, Any]]]]:
    records: list[tuple[int, dict[str, Any]]] = []
    header: dict[str, Any] | None = None
    header_line = 0
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise LogError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = raw.count(b"\n", 0, exc.start) + 1
        raise LogError(f"{path}:{at}: not a log (not UTF-8 text: {exc.reason})") from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = read_json(line)
        except StateError as exc:
            raise LogError(f"{path}:{n}: {exc}") from None
        if not isinstance(rec, dict):
            raise LogError(f"{path}:{n}: expected a JSON object")
        if header is not None and "undo" in rec:
            _undo(rec, records, f"{path}:{n}")
            continue
        if header is None:
            if rec.get("format") != LOG_FORMAT:
                raise LogError(f"{path}:{n}: not an mnrules log (format "
                               f"{clipped(rec.get('format'), 60)}, expected {LOG_FORMAT!r})")
            _check_header(rec, f"{path}:{n}")
            header, header_line = rec, n
        else:
            _check_record(rec, f"{path}:{n}")
            records.append((n, rec))
    if header is None:
        raise LogError(f"{path}: empty log")
    return header, header_line, records


def _undo(rec: dict[str, Any], records: list[tuple[int, dict[str, Any]]], where: str) -> None:
    """An undo line: the last ``undo`` choices, with the chance lines after them, are
    withdrawn."""
    if set(rec) != {"undo"}:
        raise LogError(f"{where}: an undo line holds only undo, not "
                       f"{', '.join(sorted(set(rec) - {'undo'}))}")
    n = rec["undo"]
    if type(n) is not int or n < 1:
        raise LogError(f"{where}: undo: expected a number of choices (1 or more), got "
                       f"{clipped(n, 60)}")
    for _ in range(n):
        while records and "choice" not in records[-1][1]:
            records.pop()
        if not records:
            raise LogError(f"{where}: undo: no choice left to undo")
        records.pop()


def _field(rec: dict[str, Any], key: str, where: str, what: str, ok: Callable[[Any], bool],
           optional: bool = False) -> None:
    if key not in rec:
        if optional:
            return
        raise LogError(f"{where}: {key}: missing (expected {what})")
    if not ok(rec[key]):
        raise LogError(f"{where}: {key}: expected {what}, got {clipped(rec[key], 60)}")


def _whole(value: Any) -> bool:
    return type(value) is int and -MAX_INT <= value <= MAX_INT


def _check_header(rec: dict[str, Any], where: str) -> None:
    _field(rec, "pack", where, "an edition's name or a pack file",
           lambda v: isinstance(v, str) and bool(v))
    _field(rec, "variant", where, "a variant file or null",
           lambda v: v is None or (isinstance(v, str) and bool(v)), optional=True)
    _field(rec, "players", where, "a list of players",
           lambda v: isinstance(v, list) and bool(v) and all(isinstance(p, str) for p in v))
    _field(rec, "seed", where, "a whole number", _whole)
    _field(rec, "round_cap", where, "a whole number of rounds or null",
           lambda v: v is None or (_whole(v) and v >= 0), optional=True)
    _field(rec, "state", where, "a saved game's state", lambda v: isinstance(v, dict),
           optional=True)
    if "seats" in rec:  # each seat a player: checked once the game is made (replay)
        _seats_shape(rec["seats"], None, where)


def _check_record(rec: dict[str, Any], where: str) -> None:
    if ("chance" in rec) == ("choice" in rec):
        raise LogError(f"{where}: neither a choice nor a chance record" if "chance" not in rec
                       else f"{where}: both a choice and a chance record")
    if "chance" in rec:
        _field(rec, "chance", where, "a chance label", lambda v: isinstance(v, str))
        _field(rec, "value", where, "a chance outcome (text, a whole number or a list)",
               _is_choice)
        return
    _field(rec, "player", where, "a player", lambda v: isinstance(v, str))
    _field(rec, "kind", where, "a decision kind", lambda v: isinstance(v, str))
    try:
        as_choice(rec["choice"])
    except InvalidChoice as exc:
        raise LogError(f"{where}: choice: {exc}") from None


def _is_choice(value: Any) -> bool:
    try:
        as_choice(value)
    except InvalidChoice:
        return False
    return True


@dataclass
class Replay:
    game: Game
    choices: int = 0
    divergence: str | None = None
    stopped_at_round: int | None = None
    chances: list[tuple[int, dict[str, Any]]] = field(default_factory=list)


class Watcher(Protocol):
    """Who follows a replay step by step (:mod:`mnrules.tools.audit`): the game once made,
    every event as it happens, and each logged choice once applied."""

    def start(self, game: Game[Any]) -> None: ...

    def event(self, game: Game[Any], event: Event) -> None: ...

    def after(self, game: Game[Any], line: int) -> None: ...


def replay(path: str | Path, rules: Ruleset | None = None, until_round: int | None = None,
           watch: Watcher | None = None) -> Replay:
    """Play a log again; stop at the first divergence or at the start of ``until_round``.

    A divergence is a choice the rules no longer ask or allow, a chance outcome that
    differs, one the game draws that the log does not have, or one the log has that
    the game never drew. ``watch``, if given, sees the game, its events and every
    choice applied."""
    header, h, records = _read(path)
    where = f"{path}:{h}"
    try:
        if rules is None:
            variant = header.get("variant")
            rules = load_ruleset(_found_ref(header["pack"], path), variant=None
                                 if variant is None else _found_ref(variant, path))
        if isinstance(header.get("state"), dict):  # a log started from a saved game
            from ..core.start import load_game

            game = load_game(rules, header["state"])
        else:
            game = new_game(rules, header["players"], seed=header["seed"],
                            round_cap=header.get("round_cap"))
    except StateError as exc:
        raise exc.within(where, "state") from None
    except LogError:
        raise
    except MnrulesError as exc:
        raise LogError(f"{where}: {exc}") from None
    except (OSError, ValueError) as exc:  # a pack named by a path the system refuses
        raise LogError(f"{where}: pack: cannot be read: {clipped(exc, 120)}") from None
    if "seats" in header:
        _seats_shape(header["seats"], game.state.players, where)
    seen: list[dict[str, Any]] = []
    game.listeners.append(lambda e: seen.append(dict(e.data)) if e.kind == "chance" else None)
    if watch is not None:
        watch.start(game)
        game.listeners.append(lambda e: watch.event(game, e))
    result = Replay(game)
    expected_chances: list[tuple[int, dict[str, Any]]] = []
    finished = True
    steps = list(_choices_and_chances(records, expected_chances))
    for i, (n, rec) in enumerate(steps):
        if until_round is not None and game.state.round >= until_round:
            result.stopped_at_round = game.state.round
            finished = False
            break
        dec = game.pending
        if dec is None:
            result.divergence = f"line {n}: the game is already over, the log goes on"
            break
        if dec.player != rec["player"] or dec.kind != rec["kind"]:
            result.divergence = (f"line {n}: the log has {rec['player']} ({rec['kind']}), "
                                 f"the rules ask {dec.player} ({dec.kind})")
            break
        # Play may have stopped at the next round's start (--rounds), before that round
        # drew anything: the last choice settles no further than that, and the log's end
        # below goes on only if the log has more draws.
        keep = game.max_rounds
        if i == len(steps) - 1:
            game.max_rounds = game.state.round + 1
        try:
            game.apply(as_choice(rec["choice"]))
        except IllegalChoice as exc:
            result.divergence = f"line {n}: {exc}"
            break
        finally:
            game.max_rounds = keep
        result.choices += 1
        if watch is not None:
            watch.after(game, n)
        result.divergence = _match_chances(seen, expected_chances, result, n)
        if result.divergence:
            break
    else:
        if until_round is not None and game.state.round >= until_round:
            result.stopped_at_round = game.state.round
            finished = False
    if finished and result.divergence is None and expected_chances:
        _ = game.pending  # what the log's end still draws before the next decision
        result.divergence = _match_chances(seen, expected_chances, result, None)
        if result.divergence is None and expected_chances:
            m, want = expected_chances[0]
            result.divergence = (f"line {m}: the log has {want['chance']} "
                                 f"{clipped(want['value'], 60)}, which the game never drew "
                                 f"({len(expected_chances)} chance record(s) left over)")
    if finished and result.divergence is None:
        _ = game.pending  # the game goes on to its next decision, as a live one does
    return result


def _match_chances(seen: list[dict[str, Any]], expected: list[tuple[int, dict[str, Any]]],
                   result: Replay, n: int | None) -> str | None:
    """Check the game's new chance outcomes against the log's, in order."""
    for got in seen[len(result.chances):]:
        if not expected:
            at = f"line {n}: " if n is not None else "the end of the log: "
            return (f"{at}a chance outcome the log does not have "
                    f"({got['label']} {got['value']!r})")
        m, want = expected.pop(0)
        if want["chance"] != got["label"] or as_choice(want["value"]) != \
                as_choice(got["value"]):
            return (f"line {m}: the log has {want['chance']} {clipped(want['value'], 60)}, "
                    f"the game gave {got['label']} {got['value']!r}")
        result.chances.append((m, want))
    return None


def _choices_and_chances(records: list[tuple[int, dict[str, Any]]],
                         chances: list[tuple[int, dict[str, Any]]]
                         ) -> Iterator[tuple[int, dict[str, Any]]]:
    """Choice records in order; chance records are queued for checking as they come."""
    for n, rec in records:
        if "chance" in rec:
            chances.append((n, rec))
        else:
            yield n, rec


SAVE_FORMAT = "mnrules-save/3"
"""A save's format: /3 records who plays each seat (``seats``: a bot's name as given,
``heuristic:trader+denial=0.5``, ``search:4``, or ``human``) and the round cap; /2 writes
the generator compactly (:func:`mnrules.core.state.compact_rng`) and JSON without spaces; /1
(the generator's 625 words). /1 and /2 are read as well: such a save does not name its
players."""
SAVE_FORMATS = ("mnrules-save/1", "mnrules-save/2", SAVE_FORMAT)
HUMAN = "human"
"""A seat played by a person, in a save's or a log's ``seats``."""
MAX_BOT_NAME = 200
"""The longest bot name a save or log may hold."""


def _seats_shape(seats: Any, players: Any, where: str) -> dict[str, str]:
    """``seats`` as a save or log holds it: each player of the game once, with a bot's
    name or ``human``."""
    if not isinstance(seats, dict):
        raise LogError(f"{where}: seats: expected each player's bot or 'human', got "
                       f"{clipped(seats, 60)}")
    for p, name in seats.items():
        if not isinstance(name, str) or not name or len(name) > MAX_BOT_NAME:
            raise LogError(f"{where}: seats: {p[:40]}: expected a bot's name (at "
                           f"most {MAX_BOT_NAME} characters) or 'human', got "
                           f"{clipped(name, 60)}")
    if isinstance(players, list) and list(seats) != players:
        extra = [p for p in seats if p not in players]
        missing = [p for p in players if p not in seats]
        raise LogError(f"{where}: seats: "
                       + (f"{extra[0][:40]} is not a player of this game "
                          if extra else f"{missing[0]} is missing " if missing
                          else "not in the seats' order ")
                       + f"(the players: {', '.join(players)})")
    return dict(seats)


def check_seats(seats: Any, game: Game[Any], where: str) -> dict[str, str]:
    """A save's ``seats``, every bot's name tried as ``--bots`` would be: an unknown bot,
    a bad setting or a budget over its cap is a :class:`LogError` naming ``where`` and
    the seat."""
    from ..bots import make_bot

    out = _seats_shape(seats, game.state.players, where)
    for p, name in out.items():
        if name == HUMAN:
            continue
        try:
            make_bot(name, 0, game.rules)
        except MnrulesError as exc:
            why = str(exc).removeprefix("--bots: ")
            raise LogError(f"{where}: seats: {p}: {why}") from None
    return out


def save_text(game: Game[Any], pack: str, variant: str | None,
              seats: Mapping[str, str] | None = None) -> str:
    """A save file's text: how the game was made (and, with ``seats``, who plays each
    seat: a bot's name or ``human``) plus the exact state at its pending decision. A
    state JSON cannot write (a rule left an object in it) is refused here
    (:class:`StateError` naming the key); anything else a state may not hold (a float)
    is refused, naming its key, when the save is loaded."""
    snap = game.snapshot()          # the save's own copy: written out as it is
    state = {f.name: getattr(snap, f.name) for f in fields(snap)}
    state["rng"] = compact_rng(snap.seed, snap.rng)
    data: dict[str, Any] = {"format": SAVE_FORMAT, "engine": __version__,
                            "pack": file_ref(pack), "variant": file_ref(variant)}
    if seats is not None:
        data["seats"] = {p: seats[p] for p in snap.players}
    data["round_cap"] = snap.vars.get("round_cap")
    data["state"] = state
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"),
                          check_circular=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        check_plain(state)  # names the key
        raise StateError(f"the game's state is not plain data: {clipped(exc, 120)}") from None
    return text


def save(game: Game[Any], pack: str, variant: str | None, path: str | Path,
         seats: Mapping[str, str] | None = None) -> None:
    """Write a save file (:func:`save_text`); the old file stays whole until the new one
    is written."""
    from ..files import write_atomic

    write_atomic(path, save_text(game, pack, variant, seats))


@dataclass
class Saved:
    """A loaded save: the game and how it was made."""

    game: Game[Any]
    pack: str
    variant: str | None
    seats: dict[str, str] | None
    """Each player's bot name or ``human``; None for a save that does not name them (one
    written before format /3)."""


def load(path: str | Path, rules: Ruleset | None = None) -> tuple[Game, str, str | None]:
    """A saved game, ready to go on (:func:`load_saved`): the game, its pack, its
    variant."""
    saved = load_saved(path, rules)
    return saved.game, saved.pack, saved.variant


def load_saved(path: str | Path, rules: Ruleset | None = None) -> Saved:
    """A saved game, ready to go on: the file, its pack, its state and its seats' bots
    are checked (:func:`mnrules.core.start.load_game`, :func:`check_seats`) and any problem
    is named by the file and the key. ``rules``, if given, is used instead of loading
    the save's pack (as for replay)."""
    from ..core.start import load_game

    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise LogError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = read_json(raw)
    except StateError as exc:
        raise LogError(f"{path}: not a save file: {exc}") from None
    if not isinstance(data, dict) or data.get("format") not in SAVE_FORMATS:
        raise LogError(f"{path}: not an mnrules save file")
    where = str(path)
    _field(data, "pack", where, "an edition's name or a pack file",
           lambda v: isinstance(v, str) and bool(v))
    _field(data, "variant", where, "a variant file or null",
           lambda v: v is None or (isinstance(v, str) and bool(v)), optional=True)
    _field(data, "state", where, "the saved game's state", lambda v: isinstance(v, dict))
    pack, variant = _found_ref(data["pack"], path), data.get("variant")
    variant = None if variant is None else _found_ref(variant, path)
    try:
        if rules is None:
            rules = load_ruleset(pack, variant=variant)
    except MnrulesError as exc:
        raise LogError(f"{path}: pack: {exc}") from None
    except (OSError, ValueError) as exc:  # a pack named by a path the system refuses
        raise LogError(f"{path}: pack: cannot be read: {clipped(exc, 120)}") from None
    try:
        state = data["state"]
        if "rng" in state:
            state["rng"] = expand_rng(state.get("seed"), state["rng"])
        game = load_game(rules, state)
    except StateError as exc:
        raise exc.within(where, "state") from None
    if "round_cap" in data and (not (data["round_cap"] is None or _whole(data["round_cap"]))
                                or data["round_cap"] != game.state.vars.get("round_cap")):
        raise LogError(f"{where}: round_cap: {clipped(data['round_cap'], 40)}, but the "
                       f"state's is {game.state.vars.get('round_cap')}")
    seats = check_seats(data["seats"], game, where) if "seats" in data else None
    return Saved(game, pack, variant, seats)
