"""Game logs (JSON lines) and exact replay.

A log's first line says how the game was made (pack, variant, players, seed, engine
version); then one line per choice (who, which decision, what) and one per chance
outcome (a die, a legendary draw). ``replay`` plays the choices again through the one
decision loop and reports the first place where the log and the rules part ways.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from . import __version__
from .effects import Event
from .engine import Choice, Decision, Game, as_choice
from .errors import IllegalChoice, MnrulesError
from .ruleset import Ruleset, load_ruleset
from .start import new_game

LOG_FORMAT = "mnrules-log/1"


class LogError(MnrulesError):
    """A log that cannot be read, or that no longer matches the rules."""


@dataclass
class Recorder:
    """Writes a game's log as it is played (attach with :meth:`attach`)."""

    out: IO[str]
    lines: int = 0

    def header(self, game: Game[Any], pack: str, variant: str | None) -> None:
        self._write({"format": LOG_FORMAT, "engine": __version__, "pack": pack,
                     "variant": variant, "players": game.state.players,
                     "seed": game.state.seed, "round_cap": game.state.vars.get("round_cap")})

    def attach(self, game: Game[Any]) -> None:
        game.choice_listeners.append(self.on_choice)
        game.listeners.append(self.on_event)

    def on_choice(self, decision: Decision, choice: Choice) -> None:
        self._write({"player": decision.player, "kind": decision.kind, "choice": choice})

    def on_event(self, event: Event) -> None:
        if event.kind == "chance":
            self._write({"chance": event.data["label"], "value": event.data["value"]})

    def _write(self, record: dict[str, Any]) -> None:
        self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.out.flush()
        self.lines += 1


def read_log(path: str | Path) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """The header and the numbered records of a log file."""
    records: list[tuple[int, dict[str, Any]]] = []
    header: dict[str, Any] | None = None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogError(f"{path}: cannot read: {exc.strerror or exc}") from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"{path}:{n}: not JSON: {exc.msg}") from None
        if not isinstance(rec, dict):
            raise LogError(f"{path}:{n}: expected a JSON object")
        if header is None:
            if rec.get("format") != LOG_FORMAT:
                raise LogError(f"{path}:{n}: not an mnrules log (format "
                               f"{rec.get('format')!r}, expected {LOG_FORMAT!r})")
            header = rec
        else:
            records.append((n, rec))
    if header is None:
        raise LogError(f"{path}: empty log")
    return header, records


@dataclass
class Replay:
    game: Game
    choices: int = 0
    divergence: str | None = None
    stopped_at_round: int | None = None
    chances: list[tuple[int, dict[str, Any]]] = field(default_factory=list)


def replay(path: str | Path, rules: Ruleset | None = None, until_round: int | None = None
           ) -> Replay:
    """Play a log again; stop at the first divergence or at the start of ``until_round``."""
    header, records = read_log(path)
    if rules is None:
        rules = load_ruleset(header["pack"], variant=header.get("variant"))
    game = new_game(rules, header["players"], seed=int(header["seed"]),
                    round_cap=header.get("round_cap"))
    seen: list[dict[str, Any]] = []
    game.listeners.append(lambda e: seen.append(dict(e.data)) if e.kind == "chance" else None)
    result = Replay(game)
    expected_chances: list[tuple[int, dict[str, Any]]] = []
    for n, rec in list(_choices_and_chances(records, expected_chances)):
        if until_round is not None and game.state.round >= until_round:
            result.stopped_at_round = game.state.round
            break
        dec = game.pending
        if dec is None:
            result.divergence = f"line {n}: the game is already over, the log goes on"
            break
        if dec.player != rec["player"] or dec.kind != rec["kind"]:
            result.divergence = (f"line {n}: the log has {rec['player']} ({rec['kind']}), "
                                 f"the rules ask {dec.player} ({dec.kind})")
            break
        try:
            game.apply(as_choice(rec["choice"]))
        except IllegalChoice as exc:
            result.divergence = f"line {n}: {exc}"
            break
        result.choices += 1
        if len(seen) > len(result.chances):
            for got in seen[len(result.chances):]:
                if not expected_chances:
                    result.divergence = (f"line {n}: a chance outcome the log does not have "
                                         f"({got['label']} {got['value']!r})")
                    break
                m, want = expected_chances.pop(0)
                if want["chance"] != got["label"] or as_choice(want["value"]) != \
                        as_choice(got["value"]):
                    result.divergence = (f"line {m}: the log has {want['chance']} "
                                         f"{want['value']!r}, the game gave {got['label']} "
                                         f"{got['value']!r}")
                    break
                result.chances.append((m, want))
            if result.divergence:
                break
    return result


def _choices_and_chances(records: list[tuple[int, dict[str, Any]]],
                         chances: list[tuple[int, dict[str, Any]]]
                         ) -> Iterator[tuple[int, dict[str, Any]]]:
    """Choice records in order; chance records are queued for checking as they come."""
    for n, rec in records:
        if "chance" in rec:
            chances.append((n, rec))
        elif "choice" in rec:
            yield n, rec
        else:
            raise LogError(f"line {n}: neither a choice nor a chance record")


def save(game: Game[Any], pack: str, variant: str | None, path: str | Path) -> None:
    """A save file: how the game was made plus the exact state at its pending decision."""
    data = {"format": "mnrules-save/1", "engine": __version__, "pack": pack,
            "variant": variant, "state": game.snapshot().to_dict()}
    Path(path).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def load(path: str | Path) -> tuple[Game, str, str | None]:
    """A saved game, ready to go on."""
    from .start import load_game

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise LogError(f"{path}: not a save file: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != "mnrules-save/1":
        raise LogError(f"{path}: not an mnrules save file")
    rules = load_ruleset(data["pack"], variant=data.get("variant"))
    return load_game(rules, data["state"]), str(data["pack"]), data.get("variant")
