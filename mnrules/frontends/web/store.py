"""Where ``mnrules serve`` keeps its games: how each was made and every choice that
stands, so a game is rebuilt by playing its choices again through the one decision loop
(a game is a pure function of its pack, players, seed or saved position, bots and
choices; the bots draw from their seed and the choice count, never from a generator of
their own).

:class:`GameStore` is the interface the server uses; :class:`SqliteStore` is the one
backend (an embedded SQLite file in WAL mode, each write committed with ``synchronous =
FULL`` before the request that made it is answered). A PostgreSQL backend is meant to
implement the same few methods; none is written yet.

Seat links are kept as SHA-256 digests only: the file alone does not let anyone play a
seat.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

SCHEMA_VERSION = 2
"""2: each game's ``hotseat``, ``lobby`` and ``watch`` columns (a store of version 1 is
moved on as it opens: its games stay hotseat games, as they were played)."""


def digest(token: str) -> str:
    """What the store keeps of a link's token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class GameRecord:
    """How a game was made: enough, with its choices, to rebuild it exactly."""

    id: str
    pack: str
    players: list[str]
    seed: int
    start: dict[str, Any] | None
    """The saved position a loaded game starts from (None: a new game from its seed)."""
    lang: str | None
    kinds: dict[str, str]
    """Who plays each seat: a bot's name or ``human``."""
    host: str
    """The digest of the host's token."""
    seats: dict[str, str]
    """Each human seat's token digest."""
    created: float = 0.0
    over: bool = False
    hotseat: bool = True
    """The host's link plays every human seat (else only the first, its own)."""
    lobby: bool = False
    """Listed in the lobby while a human seat is free (a seat with no token yet)."""
    watch: str = ""
    """The spectator link's token, kept as it is: it shows only what everyone sees."""


StoredChoice = tuple[str, str, Any]
"""A choice as stored: the player, the decision's kind, the choice (JSON data)."""


class GameStore(Protocol):
    def create(self, record: GameRecord) -> None: ...
    def load(self, game_id: str) -> GameRecord | None: ...
    def choices(self, game_id: str) -> list[StoredChoice]: ...
    def append(self, game_id: str, first: int, choices: Sequence[StoredChoice],
               over: bool) -> None:
        """Store ``choices`` as choices number ``first``, ``first + 1``... of the game."""
        ...
    def truncate(self, game_id: str, keep: int) -> None:
        """Only the first ``keep`` choices stand (an undo)."""
        ...
    def claim(self, game_id: str, player: str, token: str) -> bool:
        """Give the free seat ``player`` the token digest ``token`` (False: taken)."""
        ...
    def open_games(self, limit: int) -> list[GameRecord]:
        """The lobby's games not over with a free human seat, the newest first."""
        ...
    def count(self) -> int: ...
    def put_replay(self, replay_id: str, text: str, keep: int) -> None: ...
    def replay(self, replay_id: str) -> str | None: ...
    def close(self) -> None: ...


class SqliteStore:
    """The games in one SQLite file (``:memory:`` for a server that keeps nothing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        # one connection for every worker thread, used under a lock: the writes are
        # short and SQLite serialises writers anyway
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                   timeout=30)
        self._lock = threading.Lock()
        with self._lock:
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise OSError(f"{self.path}: written by a newer mnrules (schema {version}, "
                              f"this one reads {SCHEMA_VERSION})")
            self._db.executescript("""
                CREATE TABLE IF NOT EXISTS games (
                    id TEXT PRIMARY KEY, pack TEXT NOT NULL, players TEXT NOT NULL,
                    seed INTEGER NOT NULL, start TEXT, lang TEXT, kinds TEXT NOT NULL,
                    host TEXT NOT NULL, seats TEXT NOT NULL, created REAL NOT NULL,
                    over INTEGER NOT NULL DEFAULT 0, hotseat INTEGER NOT NULL DEFAULT 1,
                    lobby INTEGER NOT NULL DEFAULT 0, watch TEXT NOT NULL DEFAULT '');
                CREATE TABLE IF NOT EXISTS choices (
                    game TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL,
                    player TEXT NOT NULL, kind TEXT NOT NULL, choice TEXT NOT NULL,
                    PRIMARY KEY (game, n)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS replays (
                    id TEXT PRIMARY KEY, text TEXT NOT NULL, created REAL NOT NULL);
                """)
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(games)")}
            for column, kind in (("hotseat", "INTEGER NOT NULL DEFAULT 1"),
                                 ("lobby", "INTEGER NOT NULL DEFAULT 0"),
                                 ("watch", "TEXT NOT NULL DEFAULT ''")):
                if column not in columns:       # a store of schema 1
                    self._db.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")
            self._db.execute("CREATE INDEX IF NOT EXISTS lobby_games ON games (lobby, over)")
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def create(self, record: GameRecord) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (record.id, record.pack, json.dumps(record.players), record.seed,
                 None if record.start is None else json.dumps(record.start),
                 record.lang, json.dumps(record.kinds), record.host,
                 json.dumps(record.seats), record.created or time.time(), int(record.over),
                 int(record.hotseat), int(record.lobby), record.watch))

    def load(self, game_id: str) -> GameRecord | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _record(row)

    def choices(self, game_id: str) -> list[StoredChoice]:
        with self._lock:
            rows = self._db.execute("SELECT player, kind, choice FROM choices WHERE game = ? "
                                    "ORDER BY n", (game_id,)).fetchall()
        return [(p, k, json.loads(c)) for p, k, c in rows]

    def append(self, game_id: str, first: int, choices: Sequence[StoredChoice],
               over: bool) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT INTO choices VALUES (?,?,?,?,?)",
                    [(game_id, first + i, p, k, json.dumps(c, ensure_ascii=False))
                     for i, (p, k, c) in enumerate(choices)])
                self._db.execute("UPDATE games SET over = ? WHERE id = ?",
                                 (int(over), game_id))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def truncate(self, game_id: str, keep: int) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM choices WHERE game = ? AND n >= ?", (game_id, keep))
            self._db.execute("UPDATE games SET over = 0 WHERE id = ?", (game_id,))
            self._db.execute("COMMIT")

    def claim(self, game_id: str, player: str, token: str) -> bool:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute("SELECT seats, kinds FROM games WHERE id = ?",
                                       (game_id,)).fetchone()
                seats = json.loads(row[0]) if row is not None else {}
                if row is None or json.loads(row[1]).get(player) != "human" \
                        or seats.get(player):
                    self._db.execute("ROLLBACK")
                    return False
                seats[player] = token
                self._db.execute("UPDATE games SET seats = ? WHERE id = ?",
                                 (json.dumps(seats), game_id))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return True

    def open_games(self, limit: int) -> list[GameRecord]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM games WHERE lobby = 1 AND over = 0 "
                                    "ORDER BY created DESC").fetchall()
        out = []
        for row in rows:
            record = _record(row)
            if any(k == "human" and not record.seats.get(p)
                   for p, k in record.kinds.items()):
                out.append(record)
                if len(out) >= limit:
                    break
        return out

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM games").fetchone()[0])

    def put_replay(self, replay_id: str, text: str, keep: int) -> None:
        """Keep a replay's log; beyond ``keep`` replays the oldest's copy goes (its
        uploader still has the file)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT INTO replays VALUES (?,?,?)",
                             (replay_id, text, time.time()))
            self._db.execute("DELETE FROM replays WHERE id NOT IN (SELECT id FROM replays "
                             "ORDER BY created DESC LIMIT ?)", (keep,))
            self._db.execute("COMMIT")

    def replay(self, replay_id: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT text FROM replays WHERE id = ?",
                                   (replay_id,)).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _record(row: Sequence[Any]) -> GameRecord:
    (gid, pack, players, seed, start, lang, kinds, host, seats, created, over, hotseat,
     lobby, watch) = row
    return GameRecord(gid, pack, json.loads(players), seed,
                      None if start is None else json.loads(start), lang,
                      json.loads(kinds), host, json.loads(seats), created, bool(over),
                      bool(hotseat), bool(lobby), str(watch or ""))


def open_store(folder: str | Path | None) -> SqliteStore:
    """The store in ``folder`` (made if missing), or one in memory (None)."""
    if folder is None:
        return SqliteStore(":memory:")
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return SqliteStore(path / "games.sqlite3")


def default_data_folder() -> Path:
    """The user's data folder (XDG_DATA_HOME, else ~/.local/share), ``mnrules`` in it."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mnrules"
