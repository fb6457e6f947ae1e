"""Where ``mnrules serve`` keeps its games: how each was made and every choice that
stands, so a game is rebuilt by playing its choices again through the one decision loop
(a game is a pure function of its pack, players, seed or saved position, bots and
choices; the bots draw from their seed and the choice count, never from a generator of
their own).

:class:`GameStore` is the interface the server uses. It has two backends, both
:class:`SqlStore`, which holds their statements and transactions: :class:`SqliteStore`
(an embedded SQLite file in WAL mode, each write committed with ``synchronous = FULL``)
and :class:`PostgresStore` (a PostgreSQL database named by a ``postgresql://`` URL,
through psycopg 3, the ``postgres`` extra; imported only when a URL is given). Either
way each write is committed before the request that made it is answered.
:func:`open_store` picks the backend from ``--data``.

Seat links are kept as SHA-256 digests only: the store alone does not let anyone play a
seat.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import re
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
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
    def hold(self) -> bool:
        """Take the store for this process alone (False: another server has it)."""
        ...
    def close(self) -> None: ...


class StoreError(OSError):
    """A store that cannot be opened or kept, with the sentence saying why (never a
    password)."""


class _Rows(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


COLUMNS = ("id, pack, players, seed, start, lang, kinds, host, seats, created, over, "
           "hotseat, lobby, watch")
"""A game's columns, in :func:`_record`'s order."""


class SqlStore:
    """What the SQL backends share: every statement (written with ``?`` placeholders),
    the transactions and the lock. A backend gives its connection (:meth:`_execute`,
    :meth:`_executemany`), its dialect (:attr:`_begin`, :attr:`_for_update`), its tables
    and :meth:`hold`; one that can lose its connection says so (:meth:`_lost`) and makes
    a new one (:meth:`_reconnect`).

    One connection serves every worker thread, under a lock: the writes are short, and
    one server writes a store (:meth:`hold`). A write is one transaction, committed
    before the method returns; one that fails is rolled back whole."""

    _begin = "BEGIN"
    """Starts a write transaction."""
    _for_update = ""
    """Ends a ``SELECT`` whose row the transaction goes on to change."""
    shown = ""
    """Where the store is, as it may be printed (no password)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    # -- a backend's part ---------------------------------------------------------------
    def _execute(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        raise NotImplementedError

    def _executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    def _lost(self, exc: BaseException) -> bool:
        """``exc`` says the connection is gone (a new one may be made)."""
        return False

    def _reconnect(self) -> None:
        raise NotImplementedError

    def hold(self) -> bool:
        """Take the store for this process alone, for as long as it runs (False: another
        server has it; two servers on one store would each play its games on apart)."""
        raise NotImplementedError

    def holder(self) -> str:
        """Who holds the store when :meth:`hold` failed, if the backend can tell."""
        return ""

    def close(self) -> None:
        raise NotImplementedError

    # -- shared -------------------------------------------------------------------------
    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """A read's rows; a connection found lost is made again and the read asked again
        (once: a read changes nothing)."""
        with self._lock:
            try:
                return self._execute(sql, params).fetchall()
            except Exception as exc:
                if not self._lost(exc):
                    raise
            self._reconnect()
            return self._execute(sql, params).fetchall()

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One transaction, committed as the block ends, rolled back if it raises. A
        connection found lost as it begins is made again (nothing was sent yet); one
        lost later fails the write: whether its commit arrived is the store's to say,
        and the caller reads the store again (never what it meant to write)."""
        with self._lock:
            try:
                self._execute(self._begin)
            except Exception as exc:
                if not self._lost(exc):
                    raise
                self._reconnect()
                self._execute(self._begin)
            try:
                yield
            except BaseException:
                # a connection that is gone took its transaction with it
                with contextlib.suppress(Exception):
                    self._execute("ROLLBACK")
                raise
            try:
                self._execute("COMMIT")
            except BaseException:
                # a commit refused (a full disk) leaves no transaction open behind it
                with contextlib.suppress(Exception):
                    self._execute("ROLLBACK")
                raise

    def create(self, record: GameRecord) -> None:
        with self._write():
            self._execute(
                f"INSERT INTO games ({COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (record.id, record.pack, json.dumps(record.players), record.seed,
                 None if record.start is None else json.dumps(record.start),
                 record.lang, json.dumps(record.kinds), record.host,
                 json.dumps(record.seats), record.created or time.time(), bool(record.over),
                 bool(record.hotseat), bool(record.lobby), record.watch))

    def load(self, game_id: str) -> GameRecord | None:
        rows = self._read(f"SELECT {COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _record(rows[0]) if rows else None

    def choices(self, game_id: str) -> list[StoredChoice]:
        rows = self._read("SELECT player, kind, choice FROM choices WHERE game = ? "
                          "ORDER BY n", (game_id,))
        return [(p, k, json.loads(c)) for p, k, c in rows]

    def append(self, game_id: str, first: int, choices: Sequence[StoredChoice],
               over: bool) -> None:
        with self._write():
            self._executemany(
                "INSERT INTO choices (game, n, player, kind, choice) VALUES (?,?,?,?,?)",
                [(game_id, first + i, p, k, json.dumps(c, ensure_ascii=False))
                 for i, (p, k, c) in enumerate(choices)])
            self._execute("UPDATE games SET over = ? WHERE id = ?", (bool(over), game_id))

    def truncate(self, game_id: str, keep: int) -> None:
        with self._write():
            self._execute("DELETE FROM choices WHERE game = ? AND n >= ?", (game_id, keep))
            self._execute("UPDATE games SET over = ? WHERE id = ?", (False, game_id))

    def claim(self, game_id: str, player: str, token: str) -> bool:
        with self._write():
            row = self._execute("SELECT seats, kinds FROM games WHERE id = ?"
                                + self._for_update, (game_id,)).fetchone()
            seats = json.loads(row[0]) if row is not None else {}
            if row is None or json.loads(row[1]).get(player) != "human" \
                    or seats.get(player):
                return False
            seats[player] = token
            self._execute("UPDATE games SET seats = ? WHERE id = ?",
                          (json.dumps(seats), game_id))
            return True

    def open_games(self, limit: int) -> list[GameRecord]:
        rows = self._read(f"SELECT {COLUMNS} FROM games WHERE lobby = ? AND over = ? "
                          "ORDER BY created DESC", (True, False))
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
        return int(self._read("SELECT count(*) FROM games")[0][0])

    def put_replay(self, replay_id: str, text: str, keep: int) -> None:
        """Keep a replay's log; beyond ``keep`` replays the oldest's copy goes (its
        uploader still has the file)."""
        with self._write():
            self._execute("INSERT INTO replays (id, text, created) VALUES (?,?,?)",
                          (replay_id, text, time.time()))
            self._execute("DELETE FROM replays WHERE id NOT IN (SELECT id FROM replays "
                          "ORDER BY created DESC LIMIT ?)", (keep,))

    def replay(self, replay_id: str) -> str | None:
        rows = self._read("SELECT text FROM replays WHERE id = ?", (replay_id,))
        return str(rows[0][0]) if rows else None


class SqliteStore(SqlStore):
    """The games in one SQLite file (``:memory:`` for a server that keeps nothing), in
    WAL mode, each commit synced (``synchronous = FULL``)."""

    _begin = "BEGIN IMMEDIATE"

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = self.shown = str(path)
        self._held: Any = None
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                   timeout=30)
        try:
            self._setup()
        except BaseException:
            self._db.close()
            raise

    def _setup(self) -> None:
        with self._lock:
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
        # in one transaction: a store is moved on by one process, and whole
        with self._write():
            version = self._execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: written by a newer mnrules (schema "
                                 f"{version}, this one reads {SCHEMA_VERSION})")
            for table in ("""
                CREATE TABLE IF NOT EXISTS games (
                    id TEXT PRIMARY KEY, pack TEXT NOT NULL, players TEXT NOT NULL,
                    seed INTEGER NOT NULL, start TEXT, lang TEXT, kinds TEXT NOT NULL,
                    host TEXT NOT NULL, seats TEXT NOT NULL, created REAL NOT NULL,
                    over INTEGER NOT NULL DEFAULT 0, hotseat INTEGER NOT NULL DEFAULT 1,
                    lobby INTEGER NOT NULL DEFAULT 0, watch TEXT NOT NULL DEFAULT '')""", """
                CREATE TABLE IF NOT EXISTS choices (
                    game TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL,
                    player TEXT NOT NULL, kind TEXT NOT NULL, choice TEXT NOT NULL,
                    PRIMARY KEY (game, n)) WITHOUT ROWID""", """
                CREATE TABLE IF NOT EXISTS replays (
                    id TEXT PRIMARY KEY, text TEXT NOT NULL, created REAL NOT NULL)"""):
                self._execute(table)
            columns = {r[1] for r in self._execute("PRAGMA table_info(games)").fetchall()}
            for column, kind in (("hotseat", "INTEGER NOT NULL DEFAULT 1"),
                                 ("lobby", "INTEGER NOT NULL DEFAULT 0"),
                                 ("watch", "TEXT NOT NULL DEFAULT ''")):
                if column not in columns:       # a store of schema 1
                    self._execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")
            self._execute("CREATE INDEX IF NOT EXISTS lobby_games ON games (lobby, over)")
            self._execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        return self._db.execute(sql, params)

    def _executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._db.executemany(sql, rows)

    def hold(self) -> bool:
        """An advisory lock on ``serve.lock`` beside the file, held while the process
        lives (where there are no such locks, the store is not held)."""
        if self.path == ":memory:" or self._held is not None:
            return True
        try:
            import fcntl
        except ImportError:
            return True
        lock = open(Path(self.path).parent / "serve.lock", "a+")  # noqa: SIM115 - kept
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            return False
        self._held = lock
        return True

    def close(self) -> None:
        with self._lock:
            self._db.close()
        if self._held is not None:
            self._held.close()
            self._held = None


# -- PostgreSQL ---------------------------------------------------------------------------

POSTGRES_SCHEMES = ("postgresql", "postgres")
CONNECT_TIMEOUT = 10
"""Seconds a connection to PostgreSQL may take (unless the URL or PGCONNECT_TIMEOUT
says otherwise): an unreachable server is refused, never waited on for good."""
RECONNECT_PAUSE = 2.0
"""Seconds between tries to connect again to a server found gone."""
HOLD_TRIES = 5
"""Tries, 0.2 s apart, to take a store whose holder may be a server just killed (its
connection is ended by PostgreSQL as soon as it sees it gone)."""
_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def is_url(data: str | Path) -> bool:
    """``data`` names a database server (``scheme://...``), not a folder."""
    return isinstance(data, str) and _URL.match(data) is not None


def _secrets(url: str) -> list[str]:
    """The passwords a URL holds, as written and decoded (to keep out of any text)."""
    found = []
    rest = url.split("://", 1)[-1]
    query = rest.find("?")
    at = rest.rfind("@", 0, query if query >= 0 else len(rest))
    if at >= 0 and ":" in rest[:at]:
        found.append(rest[:at].split(":", 1)[1])
    found += re.findall(r"(?i)[?&]password=([^&#]*)", url)
    found += [urllib.parse.unquote(s) for s in found]
    return sorted({s for s in found if s}, key=len, reverse=True)


def shown_url(url: str) -> str:
    """``url`` as it may be printed: its password, wherever it is, as ``***``."""
    return redact(url, url)


def redact(text: str, url: str) -> str:
    """``text`` without any of ``url``'s passwords."""
    for secret in _secrets(url):
        text = text.replace(secret, "***")
    return text


def _postgres_where(params: dict[str, Any]) -> str:
    """The server a connection's parameters lead to, as a person would name it."""
    import os

    host = params.get("host") or params.get("hostaddr") or os.environ.get("PGHOST") \
        or "the local socket"
    port = params.get("port") or os.environ.get("PGPORT")
    return f"{host}:{port}" if port else str(host)


def _postgres_reason(exc: BaseException) -> str:
    """What libpq says went wrong, without its "connection failed" preamble."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    text = text.rsplit("failed: ", 1)[-1].strip()
    return re.sub(r"^(FATAL|ERROR):\s+", "", text) or type(exc).__name__


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError("a PostgreSQL store needs psycopg 3, which is not installed: "
                         "install mnrules[postgres] (pip install 'mnrules[postgres]')"
                         ) from None
    return psycopg


class PostgresStore(SqlStore):
    """The games in a PostgreSQL database (``postgresql://user@host:port/db``, any
    parameter libpq reads; the PG* environment variables and ``~/.pgpass`` too), in the
    first schema of its ``search_path``: the tables ``games``, ``choices``, ``replays``
    and ``mnrules_meta`` (which holds the schema's version).

    Each write is a transaction committed before the method returns
    (``synchronous_commit`` is on: a session where it was off turns it on). A lost
    connection is made again at the next call (see :meth:`SqlStore._write`), and a held
    store is held again with it. :meth:`hold` is a session-level advisory lock."""

    _for_update = " FOR UPDATE"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.shown = shown_url(url)
        self._pg = _psycopg()
        try:
            self._params = self._pg.conninfo.conninfo_to_dict(url)
        except self._pg.Error as exc:
            raise StoreError(f"not a PostgreSQL URL ({redact(_postgres_reason(exc), url)})"
                             ) from None
        self.where = redact(_postgres_where(self._params), url)
        self._holding = False
        self._pause_until = 0.0
        self._conn: Any = None
        try:
            self._conn = self._connect()
            self._setup()
        except self._pg.Error as exc:
            self.close()
            raise StoreError(f"the PostgreSQL server at {self.where} refused to keep the "
                             f"games: {redact(_postgres_reason(exc), url)}") from None
        except BaseException:
            self.close()
            raise

    def _connect(self) -> Any:
        import os

        extra: dict[str, Any] = {"autocommit": True, "client_encoding": "UTF8"}
        if "connect_timeout" not in self._params and not os.environ.get("PGCONNECT_TIMEOUT"):
            extra["connect_timeout"] = CONNECT_TIMEOUT
        if "application_name" not in self._params and not os.environ.get("PGAPPNAME"):
            extra["application_name"] = "mnrules serve"
        try:
            conn = self._pg.connect(self.url, **extra)
        except self._pg.Error as exc:
            raise StoreError(f"cannot connect to the PostgreSQL server at {self.where}: "
                             f"{redact(_postgres_reason(exc), self.url)}") from None
        try:
            if conn.execute("SHOW synchronous_commit").fetchone()[0] == "off":
                conn.execute("SET synchronous_commit = on")
        except BaseException:
            conn.close()
            raise
        return conn

    def _key(self, what: str) -> str:
        """An advisory lock's name: one per database and schema."""
        return f"mnrules {what} {self._database} {self._schema}"

    def _setup(self) -> None:
        database, schema, encoding = self._conn.execute(
            "SELECT current_database(), current_schema(), "
            "current_setting('server_encoding')").fetchone()
        if schema is None:
            raise StoreError(f"the PostgreSQL database {database} at {self.where} has no "
                             f"schema to keep the games in (its search_path names none "
                             f"that exists and the role may use)")
        if encoding != "UTF8":
            raise StoreError(f"the PostgreSQL database {database} at {self.where} is in "
                             f"{encoding}: mnrules needs a UTF8 one (CREATE DATABASE ... "
                             f"ENCODING 'UTF8')")
        self._database, self._schema = str(database), str(schema)
        # in one transaction, one process at a time: a schema is made by one, and whole
        with self._write():
            self._execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))",
                          (self._key("setup"),))
            tables = {r[0] for r in self._execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            ).fetchall()}
            mine = {"games", "choices", "replays"} & tables
            if "mnrules_meta" not in tables and mine:
                raise StoreError(
                    f"the schema {schema} of the PostgreSQL database {database} at "
                    f"{self.where} has a table {sorted(mine)[0]} that mnrules did not make: "
                    f"give mnrules a database or a schema of its own (docs/web.md)")
            version = 0
            if "mnrules_meta" in tables:
                row = self._execute("SELECT value FROM mnrules_meta WHERE key = 'schema'"
                                    ).fetchone()
                version = int(row[0]) if row is not None else 0
            if version > SCHEMA_VERSION:
                raise StoreError(f"the PostgreSQL database {database} at {self.where}: "
                                 f"written by a newer mnrules (schema {version}, this one "
                                 f"reads {SCHEMA_VERSION})")
            for table in ("""
                CREATE TABLE IF NOT EXISTS mnrules_meta (
                    key TEXT PRIMARY KEY, value TEXT NOT NULL)""", """
                CREATE TABLE IF NOT EXISTS games (
                    id TEXT PRIMARY KEY, pack TEXT NOT NULL, players TEXT NOT NULL,
                    seed BIGINT NOT NULL, start TEXT, lang TEXT, kinds TEXT NOT NULL,
                    host TEXT NOT NULL, seats TEXT NOT NULL,
                    created DOUBLE PRECISION NOT NULL,
                    over BOOLEAN NOT NULL DEFAULT FALSE, hotseat BOOLEAN NOT NULL DEFAULT TRUE,
                    lobby BOOLEAN NOT NULL DEFAULT FALSE, watch TEXT NOT NULL DEFAULT '')""",
                          """
                CREATE TABLE IF NOT EXISTS choices (
                    game TEXT NOT NULL REFERENCES games(id), n BIGINT NOT NULL,
                    player TEXT NOT NULL, kind TEXT NOT NULL, choice TEXT NOT NULL,
                    PRIMARY KEY (game, n))""", """
                CREATE TABLE IF NOT EXISTS replays (
                    id TEXT PRIMARY KEY, text TEXT NOT NULL,
                    created DOUBLE PRECISION NOT NULL)""",
                          "CREATE INDEX IF NOT EXISTS lobby_games ON games (lobby, over)",
                          "CREATE INDEX IF NOT EXISTS replays_created ON replays (created)"):
                self._execute(table)
            # the upsert: PostgreSQL's way to keep one row per key
            self._execute("INSERT INTO mnrules_meta (key, value) VALUES ('schema', ?) "
                          "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                          (str(SCHEMA_VERSION),))

    @staticmethod
    @functools.cache
    def _dialect(sql: str) -> str:
        return sql.replace("?", "%s")       # psycopg's placeholders

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        if self._conn.closed:
            raise self._pg.OperationalError("the connection is closed")
        return self._conn.execute(self._dialect(sql), params)  # type: ignore[no-any-return]

    def _executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._conn.cursor() as cursor:
            cursor.executemany(self._dialect(sql), rows)

    def _lost(self, exc: BaseException) -> bool:
        return isinstance(exc, self._pg.OperationalError) and (
            self._conn.closed or self._conn.broken)

    def _reconnect(self) -> None:
        """A new connection; after a failed try, none is tried for
        :data:`RECONNECT_PAUSE` seconds (the calls fail at once meanwhile: some are made
        on the server's event loop, which a connection waited on would stop)."""
        if time.monotonic() < self._pause_until:
            raise StoreError(f"the PostgreSQL server at {self.where} was unreachable a "
                             f"moment ago")
        with contextlib.suppress(Exception):
            self._conn.close()
        try:
            self._conn = self._connect()
        except BaseException:
            self._pause_until = time.monotonic() + RECONNECT_PAUSE
            raise
        if self._holding and not self._take():
            self._conn.close()
            raise StoreError(f"{self.shown}: another mnrules serve took the store while "
                             f"this one's connection was lost")

    def _take(self) -> bool:
        for attempt in range(HOLD_TRIES):
            if attempt:
                time.sleep(0.2)
            row = self._conn.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))",
                                     (self._key("serve"),)).fetchone()
            if row[0]:
                return True
        return False

    def hold(self) -> bool:
        with self._lock:
            if not self._holding:
                self._holding = self._take()
            return self._holding

    def holder(self) -> str:
        with self._lock:
            rows = self._conn.execute("""
                SELECT a.pid, coalesce(host(a.client_addr), 'this host')
                FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid,
                     hashtextextended(%s, 0) AS k
                WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                  AND l.database = (SELECT oid FROM pg_database
                                    WHERE datname = current_database())
                  AND l.classid = ((k >> 32) & 4294967295)::oid
                  AND l.objid = (k & 4294967295)::oid""",
                                      (self._key("serve"),)).fetchall()
        if not rows:
            return ""
        pid, client = rows[0]
        return (f"its connection is PostgreSQL's process {pid}, from {client}; if that "
                f"server is gone, SELECT pg_terminate_backend({pid}) frees the store")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()


def _record(row: Sequence[Any]) -> GameRecord:
    (gid, pack, players, seed, start, lang, kinds, host, seats, created, over, hotseat,
     lobby, watch) = row
    return GameRecord(gid, pack, json.loads(players), seed,
                      None if start is None else json.loads(start), lang,
                      json.loads(kinds), host, json.loads(seats), created, bool(over),
                      bool(hotseat), bool(lobby), str(watch or ""))


def open_store(data: str | Path | None) -> SqlStore:
    """The store ``data`` names: a ``postgresql://`` URL's database, a folder's SQLite
    file (the folder made if missing), or one in memory (None). Refused with a
    :class:`StoreError` saying why (an ``OSError`` of the folder's as it is)."""
    if data is None:
        return SqliteStore(":memory:")
    if is_url(data):
        scheme = str(data).split("://", 1)[0]
        if scheme.lower() not in POSTGRES_SCHEMES:
            raise StoreError(f"{scheme}:// is not a store mnrules keeps games in: give a "
                             f"folder or a postgresql:// URL")
        return PostgresStore(str(data))
    path = Path(data)
    path.mkdir(parents=True, exist_ok=True)
    return SqliteStore(path / "games.sqlite3")


def shown_data(data: str | Path) -> str:
    """``--data`` as it may be printed (a URL's password as ``***``)."""
    return shown_url(str(data)) if is_url(data) else str(data)


def default_data_folder() -> Path:
    """The user's data folder (XDG_DATA_HOME, else ~/.local/share), ``mnrules`` in it."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mnrules"
