"""The store's contract, kept alike by both backends (issue 37, item 1): SQLite in a data
folder and PostgreSQL through a URL (conftest's ``data``; the PostgreSQL cases are skipped
without a server unless MNRULES_TEST_POSTGRES names one, postgres_live). A store opened
again on the same database (a restart) holds every game, seat and choice as committed; a
failed write leaves nothing of itself; the limits and refusals are the same. Then what
only PostgreSQL does: a bad URL, an unreachable server or a missing psycopg refused with
one sentence naming ``--data`` and the host, never a password; a lost connection, even
a PostgreSQL process killed with SIGKILL mid-game, loses no choice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import postgres_live
from mnrules.frontends.web.store import (
    GameRecord,
    GameStore,
    StoreError,
    open_store,
    shown_url,
)
from web_live import free_port


def record(game_id: str = "g1", **extra: Any) -> GameRecord:
    made: dict[str, Any] = {
        "id": game_id, "pack": "en", "players": ["rome", "greece", "carthage"],
        "seed": 2**31, "start": {"state": {"round": 3, "nested": [1, 2.5, None, "ü"]}},
        "lang": "uk", "kinds": {"rome": "human", "greece": "human", "carthage": "random"},
        "host": "h" * 64, "seats": {"rome": "r" * 64}, "lobby": True, "hotseat": False,
        "watch": "w-token", **extra}
    return GameRecord(**made)


CHOICES = [("rome", "action", 3), ("greece", "pay", {"gold": 2, "goods": ["wine", "oil"]}),
           ("carthage", "text", "Карфаген\x00 «a» \U0001f3db"), ("rome", "none", None),
           ("rome", "float", [0.1, -2.5e300, True, False])]
"""Choices of every JSON shape: the NUL and the characters beyond the BMP included."""


def test_a_new_store_on_the_same_database_holds_what_was_committed(data: Any) -> None:
    first = open_store(data)
    assert first.count() == 0 and first.load("g1") is None and first.choices("g1") == []
    made = record()
    first.create(made)
    first.append("g1", 0, CHOICES[:2], over=False)
    first.append("g1", 2, CHOICES[2:], over=True)
    assert first.claim("g1", "greece", "g" * 64)
    first.put_replay("r1", "a log\nof two lines\n", keep=10)
    first.close()

    again = open_store(data)                    # the server restarted
    loaded = again.load("g1")
    assert loaded is not None and loaded.created > 0 and loaded.over
    assert loaded == GameRecord(**{**made.__dict__, "created": loaded.created, "over": True,
                                   "seats": {"rome": "r" * 64, "greece": "g" * 64}})
    assert list(loaded.kinds) == list(made.kinds)          # the seats' order too
    assert again.choices("g1") == CHOICES
    assert again.replay("r1") == "a log\nof two lines\n" and again.replay("r2") is None
    again.truncate("g1", 3)                                  # an undo: no longer over
    third = open_store(data)
    assert third.choices("g1") == CHOICES[:3]
    assert third.load("g1").over is False  # type: ignore[union-attr]
    for store in (again, third):
        store.close()


def test_a_failed_write_leaves_nothing_and_the_store_goes_on(data: Any) -> None:
    store = open_store(data)
    store.create(record())
    store.append("g1", 0, CHOICES[:2], over=False)
    with pytest.raises(Exception):  # noqa: B017 - each backend's own integrity error
        store.append("g1", 1, CHOICES[2:4], over=True)      # choice 1 is there already
    assert store.choices("g1") == CHOICES[:2] and not store.load("g1").over  # type: ignore[union-attr]
    with pytest.raises(Exception):  # noqa: B017
        store.create(record())                              # the same game twice
    store.append("g1", 2, CHOICES[2:3], over=False)         # the store still writes
    assert open_store(data).choices("g1") == CHOICES[:3]
    store.close()


def test_a_seat_is_claimed_once_and_the_lobby_lists_free_seats_newest_first(
        data: Any) -> None:
    store: GameStore = open_store(data)
    for n, extra in enumerate(({}, {"lobby": False}, {"over": True}, {},
                               {"seats": {"rome": "r", "greece": "g"}})):
        store.create(record(f"g{n}", created=1000.0 + n, **extra))
    assert [r.id for r in store.open_games(10)] == ["g3", "g0"]
    assert [r.id for r in store.open_games(1)] == ["g3"]
    assert store.claim("g3", "greece", "t1")
    assert not store.claim("g3", "greece", "t2")            # taken
    assert not store.claim("g3", "carthage", "t2")          # a bot's seat
    assert not store.claim("nope", "greece", "t2")          # no such game
    assert store.load("g3").seats["greece"] == "t1"  # type: ignore[union-attr]
    assert [r.id for r in store.open_games(10)] == ["g0"] and store.count() == 5
    store.close()


def test_the_replays_kept_are_the_newest(data: Any) -> None:
    store = open_store(data)
    for n in range(4):
        store.put_replay(f"r{n}", f"log {n}", keep=2)
        time.sleep(0.002)
    assert [store.replay(f"r{n}") for n in range(4)] == [None, None, "log 2", "log 3"]
    store.close()


def test_a_second_server_on_the_same_store_is_refused(data: Any) -> None:
    first, second = open_store(data), open_store(data)
    assert first.hold() and first.hold()         # held once, for the process' life
    assert not second.hold()
    first.close()
    assert second.hold()
    second.close()


def test_a_store_of_a_newer_mnrules_is_refused(data: Any) -> None:
    open_store(data).close()
    if isinstance(data, Path):
        import sqlite3

        with sqlite3.connect(data / "games.sqlite3") as db:
            db.execute("PRAGMA user_version=99")
    else:
        with postgres_live.admin() as c:
            c.execute(f"UPDATE {schema_of(data)}.mnrules_meta SET value = '99' "
                      f"WHERE key = 'schema'")
    with pytest.raises(StoreError, match=r"written by a newer mnrules \(schema 99, this "
                                         r"one reads 2\)"):
        open_store(data)


def url_options(url: str) -> str:
    import urllib.parse

    return dict(urllib.parse.parse_qsl(url.partition("?")[2]))["options"]


# -- PostgreSQL only ----------------------------------------------------------------------

@pytest.fixture
def pg() -> Any:
    """A URL of an empty schema of the test server."""
    with postgres_live.schema() as url:
        yield url


def schema_of(url: str) -> str:
    return url_options(url).split("search_path=")[1]


def test_a_schema_with_tables_mnrules_did_not_make_is_refused(pg: str) -> None:
    with postgres_live.admin() as c:
        c.execute(f"CREATE TABLE {schema_of(pg)}.games (id INTEGER, score INTEGER)")
    with pytest.raises(StoreError, match="has a table games that mnrules did not make: "
                                         "give mnrules a database or a schema of its own"):
        open_store(pg)


def test_commits_are_synchronous_even_where_the_session_says_otherwise(pg: str) -> None:
    store = open_store(postgres_live.with_params(pg, options="-c synchronous_commit=off"))
    assert store._read("SHOW synchronous_commit") == [("on",)]
    store.close()


def connection_of(store: Any) -> int:
    return int(store._read("SELECT pg_backend_pid()")[0][0])


def test_a_lost_connection_is_made_again_and_loses_no_choice(pg: str) -> None:
    store = open_store(pg)
    assert store.hold()
    store.create(record())
    store.append("g1", 0, CHOICES[:2], over=False)
    with postgres_live.admin() as c:                       # a read after the loss
        c.execute("SELECT pg_terminate_backend(%s)", (connection_of(store),))
    assert store.choices("g1") == CHOICES[:2]
    with postgres_live.admin() as c:                       # a write after the loss
        c.execute("SELECT pg_terminate_backend(%s)", (connection_of(store),))
    store.append("g1", 2, CHOICES[2:], over=False)
    assert open_store(pg).choices("g1") == CHOICES
    assert not open_store(pg).hold()             # held again with the new connection
    store.close()


def test_a_server_that_stays_away_fails_the_calls_at_once_until_a_pause_is_over(
        pg: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from mnrules.frontends.web import store as module

    monkeypatch.setattr(module, "RECONNECT_PAUSE", 0.3)
    store = open_store(pg)
    store.create(record())
    good = store.url
    store.url = f"postgresql://mnrules@127.0.0.1:{free_port()}/games"     # it went away
    with postgres_live.admin() as c:
        c.execute("SELECT pg_terminate_backend(%s)", (connection_of(store),))
    with pytest.raises(StoreError, match="cannot connect to the PostgreSQL server"):
        store.load("g1")
    t = time.monotonic()
    with pytest.raises(StoreError, match="was unreachable a moment ago"):
        store.load("g1")                      # no new try within the pause
    assert time.monotonic() - t < 0.5
    store.url = good                          # it is back
    time.sleep(0.4)
    assert store.load("g1") is not None
    store.close()


def test_a_postgresql_process_killed_mid_game_loses_no_choice(pg: str) -> None:
    """SIGKILL of the game's PostgreSQL process: the server ends every session and
    recovers from its log; the game's next requests reconnect and find every choice."""
    import urllib.parse

    from starlette.testclient import TestClient

    from mnrules.frontends.web.app import create_app
    from test_web_store import ROME, api, play

    host = dict(urllib.parse.parse_qsl(pg.partition("?")[2])).get("host", "")
    if not host.startswith("/"):
        pytest.skip("the test server is not on this machine's socket: its processes "
                    "cannot be signalled from here")
    client = TestClient(create_app(pg), raise_server_exceptions=False)
    links = client.post("/api/games", json=ROME).json()
    link = links["host"]
    before = play(client, link, 6)
    store = client.app.state.server.store  # type: ignore[attr-defined]
    pid = connection_of(store)
    try:
        os.kill(pid, signal.SIGKILL)
    except PermissionError:
        pytest.skip("the test server's processes are another user's")
    client.app.state.server.drop(links["game"])  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while True:          # a player reloading while PostgreSQL recovers (a 500 meanwhile)
        r = client.get(api(link))
        if r.status_code == 200 or time.monotonic() > deadline:
            break
        assert "Traceback" not in r.text and "the game is as it was" in r.json()["error"]
        time.sleep(0.2)
    assert r.status_code == 200, r.text
    after = r.json()
    assert (after["version"], after["options"], after["log"]) == (
        before["version"], before["options"], before["log"])
    assert connection_of(store) != pid
    assert play(client, link, 2)["version"] > after["version"]


def test_a_bad_url_or_a_missing_server_is_refused_with_a_sentence() -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(StoreError, match=r"^mysql:// is not a store mnrules keeps games "
                                         r"in: give a folder or a postgresql:// URL$"):
        open_store("mysql://u@h/db")
    with pytest.raises(StoreError, match=r"^not a PostgreSQL URL \("):
        open_store("postgresql://u@h/db?nosuchparameter=1")
    port = free_port()                                   # nothing listens on it
    with pytest.raises(StoreError) as refused:
        open_store(f"postgresql://mn:s3cr%40t@127.0.0.1:{port}/games")
    assert str(refused.value) == (f"cannot connect to the PostgreSQL server at "
                                  f"127.0.0.1:{port}: Connection refused"), refused.value
    assert shown_url("postgresql://mn:s3cr%40t@h/db?password=other&sslmode=require") == \
        "postgresql://mn:***@h/db?password=***&sslmode=require"


def test_without_psycopg_the_url_is_refused_saying_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)          # as if not installed
    with pytest.raises(StoreError, match=r"needs psycopg 3, which is not installed: "
                                         r"install mnrules\[postgres\]"):
        open_store("postgresql://u@127.0.0.1/db")


def test_serve_refuses_an_unreachable_server_naming_the_option_and_host() -> None:
    pytest.importorskip("psycopg")
    pytest.importorskip("uvicorn")
    port = free_port()
    for url, why in ((f"postgresql://mn:s3cret@127.0.0.1:{port}/games",
                      f"cannot connect to the PostgreSQL server at 127.0.0.1:{port}: "
                      f"Connection refused"),
                     ("postgresql://mn:s3cret@[::1/games", "not a PostgreSQL URL")):
        done = subprocess.run([sys.executable, "-m", "mnrules", "serve", "--port",
                               str(free_port()), "--data", url],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done
        [line] = done.stderr.splitlines()
        assert line.startswith("mnrules: error: --data postgresql://mn:***@") and why in line
        assert "s3cret" not in done.stderr + done.stdout and "Traceback" not in done.stderr


def test_serve_on_postgresql_prints_no_password(pg: str) -> None:
    """A URL with a password (PostgreSQL takes it whether or not it asks for one)."""
    import httpx

    secret = os.environ.get("PGPASSWORD") or "s3cret"     # trusted: no password asked
    url = postgres_live.with_params(pg, password=secret)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "mnrules", "serve", "--port", str(port),
                             "--data", url], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "games kept in postgresql://" in line and "password=***" in line, line
        assert secret not in line
        deadline = time.monotonic() + 30      # the line is printed as uvicorn starts
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
    finally:
        proc.kill()
        proc.wait(10)
