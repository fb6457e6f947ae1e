"""``mnrules serve``'s games last and its server stays bounded (issues 37 and 39): a
server killed with SIGKILL mid-game goes on from its last choice, undo included, once
restarted; the 65th game evicts nothing; a request's bots stop at its budget while
another game answers; a cross-origin, a text/plain or a deep JSON request is refused with
a sentence; a seat's bot may not ask an unbounded search; a game's log downloads and
replays; the security headers are on every answer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")

from starlette.testclient import TestClient  # noqa: E402

from mnrules.frontends.web.app import create_app  # noqa: E402
from mnrules.frontends.web.tables import Budget  # noqa: E402
from web_live import free_port, serving  # noqa: E402

ROME = {"edition": "en", "players": 5, "seed": 3, "seats": {"rome": "human"}}


def api(link: str) -> str:
    return "/api" + link


def seat(link: str) -> dict[str, str]:
    return {"x-mnrules-seat": link.rsplit("/", 1)[-1]}


def play(client: Any, link: str, choices: int) -> dict[str, Any]:
    """Make ``choices`` of the link's choices (the first option each time)."""
    view: dict[str, Any] = client.get(api(link)).json()
    for _ in range(choices):
        r = client.post(api(link) + "/choose", headers=seat(link),
                        json={"key": len(view["options"]) - 1, "version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def serve(data: str | Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "mnrules", "serve", "--port", str(port),
                             "--data", str(data)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the server did not start: {proc.communicate()[0]!r}")


def test_a_game_goes_on_after_the_server_is_killed_and_restarted(data: str | Path) -> None:
    """In a data folder and in a PostgreSQL database (conftest's ``data``)."""
    port = free_port()
    proc = serve(data, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            links = client.post("/api/games", json=ROME).json()
            host = links["host"]
            before = play(client, host, 6)
            assert not before["over"]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    proc = serve(data, port)
    # a second server on the same store is refused: it would play the games on apart
    second = subprocess.run([sys.executable, "-m", "mnrules", "serve", "--port",
                             str(free_port()), "--data", str(data)],
                            capture_output=True, text=True, timeout=60)
    assert second.returncode != 0 and "another mnrules serve" in second.stderr
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            assert client.get(host).status_code == 200          # the page's link works
            after = client.get(api(host)).json()
            assert after["version"] == before["version"]
            assert after["options"] == before["options"] and after["log"] == before["log"]
            assert after["can_undo"] == before["can_undo"]
            on = play(client, host, 2)                            # and the game goes on
            assert on["version"] > after["version"]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)


def test_sigterm_stops_a_server_whose_bots_are_playing(tmp_path: Path) -> None:
    """Bots played a whole game inside one request on the event loop: SIGTERM waited on
    it (SIGKILL was needed). Here a six-nation bot game is started and polled, and
    SIGTERM is sent while its requests are under way."""
    port = free_port()
    proc = serve(tmp_path / "data", port)
    url = f"http://127.0.0.1:{port}"
    nations = ("yellow", "red", "green", "blue", "black", "grey")

    def play_bots() -> None:
        with httpx.Client(base_url=url, timeout=60) as c:
            try:
                host = c.post("/api/games", json={
                    "edition": "antike2", "players": 6, "seed": 5,
                    "seats": dict.fromkeys(nations, "heuristic")}).json()["host"]
                while True:
                    c.get(api(host))
            except httpx.HTTPError:
                return                          # the server went
    try:
        players = [threading.Thread(target=play_bots, daemon=True) for _ in range(2)]
        for p in players:
            p.start()
        time.sleep(1)
        t = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        assert time.monotonic() - t < 8
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_undo_and_the_log_survive_a_restart(tmp_path: Path, data: str | Path) -> None:
    first = TestClient(create_app(data))
    links = first.post("/api/games", json=ROME).json()
    host = links["host"]
    view = play(first, host, 1)
    for _ in range(60):                 # a choice nothing has followed (no bot, no die)
        if view["can_undo"]:
            break
        view = play(first, host, 1)
    assert view["can_undo"]
    again = TestClient(create_app(data))       # another server on the same folder
    assert again.get(api(host)).json() == view
    back = again.post(api(host) + "/undo", headers=seat(host), json={})
    assert back.status_code == 200, back.text
    assert back.json()["version"] == view["version"] - 1
    third = TestClient(create_app(data))
    assert third.get(api(host)).json()["version"] == view["version"] - 1

    # the log is play --log's: mnrules replay reads it without a divergence
    log = third.get(api(host) + "/log")
    assert log.status_code == 200 and log.headers["cache-control"] == "no-store"
    path = tmp_path / "game.jsonl"
    path.write_text(log.text, encoding="utf-8")
    from mnrules.tools.log import replay

    replayed = replay(path)
    assert replayed.divergence is None and replayed.choices == view["version"] - 1
    # a seat's link takes it only once the game is over; the replay page opens it
    assert third.get(api(links["seats"]["rome"]) + "/log").status_code == 403
    opened = third.post("/api/replays", json={"log": log.text})
    assert opened.status_code == 200 and opened.json()["steps"] == view["version"] - 1


def test_a_loaded_save_is_kept_from_its_position(tmp_path: Path, data: str | Path) -> None:
    first = TestClient(create_app(data))
    host = first.post("/api/games", json=ROME).json()["host"]
    play(first, host, 5)
    saved = first.get(api(host) + "/save").text
    loaded = first.post("/api/load", json={"save": saved}).json()["host"]
    view = play(first, loaded, 2)
    again = TestClient(create_app(data))
    assert again.get(api(loaded)).json() == view
    log = again.get(api(loaded) + "/log").text
    assert '"state"' in log.splitlines()[0]      # its log starts from the save's position
    path = tmp_path / "loaded.jsonl"
    path.write_text(log, encoding="utf-8")
    from mnrules.tools.log import replay

    assert replay(path).divergence is None


def test_undo_keeps_only_what_can_still_be_undone() -> None:
    """A snapshot per human choice, never trimmed, grew without end (58 KB a choice)."""
    from mnrules import load_ruleset
    from mnrules.frontends.web.tables import new_table

    table = new_table(load_ruleset("en"), "en", 3, {"rome": "human"}, seed=2, lang=None)
    for n in range(150):
        dec = table.game.pending
        assert dec is not None
        table.choose(["rome"], n % len(dec.options), table.version)
        kept = table.undo.get("rome", [])
        assert len(kept) <= 8, n
        assert table.can_undo("rome") == bool(kept)


def test_a_choice_the_store_refuses_is_not_played(data: str | Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    client = TestClient(create_app(data), raise_server_exceptions=False)
    host = client.post("/api/games", json=ROME).json()["host"]
    view = play(client, host, 2)
    store = client.app.state.server.store  # type: ignore[attr-defined]

    def full(*args: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(store, "append", full)
    r = client.post(api(host) + "/choose", headers=seat(host),
                    json={"key": 0, "version": view["version"]})
    assert r.status_code == 500 and "the game is as it was" in r.json()["error"]
    assert "Traceback" not in r.text
    monkeypatch.undo()
    assert client.get(api(host)).json() == view      # what is stored, nothing beyond


def test_the_65th_game_evicts_no_game_in_play(data: str | Path) -> None:
    client = TestClient(create_app(data, max_loaded=4))
    first = client.post("/api/games", json=ROME).json()
    view = play(client, first["host"], 2)
    for seed in range(64):
        r = client.post("/api/games", json={**ROME, "seed": seed, "players": 3})
        assert r.status_code == 200, r.text
    server = client.app.state.server  # type: ignore[attr-defined]
    assert len(server.tables) <= 4 and first["game"] not in server.tables  # unloaded only
    assert client.get(api(first["host"])).json() == view
    assert play(client, first["host"], 1)["version"] > view["version"]


def test_a_full_store_refuses_a_new_game_in_the_pages_language(data: str | Path) -> None:
    client = TestClient(create_app(data, max_stored=1))
    assert client.post("/api/games", json=ROME).status_code == 200
    r = client.post("/api/games", json={**ROME, "lang": "fr"})
    assert r.status_code == 400
    assert r.json()["error"].startswith("Ce serveur garde au plus 1 parties"), r.json()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[str]:
    budget = Budget(choices=10**6, seconds=0.3)
    with serving(lambda port: create_app(tmp_path, budget=budget)) as url:
        yield url


def test_a_long_bot_game_answers_within_its_budget_while_another_stays_quick(
        live: str) -> None:
    """Six Antike II nations played by bots take tens of thousands of choices: each
    request plays a budget of them and answers; another game's view never waits."""
    with httpx.Client(base_url=live, timeout=60) as client:
        mine = client.post("/api/games", json=ROME).json()["host"]
        client.get(api(mine))
        waits: list[float] = []
        stop = threading.Event()

        def watch() -> None:
            with httpx.Client(base_url=live, timeout=60) as other:
                while not stop.is_set():
                    t = time.monotonic()
                    assert other.get(api(mine)).status_code == 200
                    waits.append(time.monotonic() - t)
        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            t = time.monotonic()
            nations = ("yellow", "red", "green", "blue", "black", "grey")
            bots = client.post("/api/games", json={
                "edition": "antike2", "players": 6, "seed": 5,
                "seats": dict.fromkeys(nations, "heuristic")})
            made = time.monotonic() - t
            assert bots.status_code == 200, bots.text
            versions = []
            for _ in range(3):
                t = time.monotonic()
                versions.append(client.get(api(bots.json()["host"])).json())
                assert time.monotonic() - t < 3
        finally:
            stop.set()
            watcher.join()
    assert made < 3
    assert not versions[-1]["over"]
    assert versions[0]["version"] < versions[1]["version"] < versions[2]["version"]
    assert waits and max(waits) < 1.5, waits


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path, hosts={"testserver"}))


def test_a_request_of_another_site_or_not_json_is_refused(client: TestClient) -> None:
    r = client.post("/api/games", json=ROME, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and "another site" in r.json()["error"]
    r = client.post("/api/games", content=json.dumps(ROME).encode(),
                    headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "must be JSON" in r.json()["error"]
    r = client.post("/api/games", json=ROME, headers={"host": "evil.example"})
    assert r.status_code == 421 and "answers to testserver only" in r.json()["error"]
    assert client.app.state.server.store.count() == 0  # type: ignore[attr-defined]
    # the same origin is served; a seat's click needs its token in a header
    r = client.post("/api/games", json=ROME, headers={"origin": "http://testserver"})
    assert r.status_code == 200, r.text
    host = r.json()["host"]
    view = client.get(api(host)).json()
    r = client.post(api(host) + "/choose", json={"key": 0, "version": view["version"]})
    assert r.status_code == 403 and "x-mnrules-seat" in r.json()["error"]


def test_a_deep_or_malformed_json_body_is_a_400_with_a_sentence(client: TestClient) -> None:
    deep = b"[" * 200_000 + b"]" * 200_000
    for raw in (deep, b'{"seats": ' * 50_000, b"\xff\xfe"):
        r = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert r.json()["error"].startswith("the request is not"), r.json()
    r = client.post("/api/games", content=deep, headers={"content-type": "application/json"})
    assert "nests too deep" in r.json()["error"]


def test_a_seats_bot_may_not_ask_an_unbounded_search(client: TestClient) -> None:
    for kind in ("search:1000000000", "search:65", "mcts:5000", "mcts:100+width=2"):
        r = client.post("/api/games", json={**ROME, "seats": {"rome": "human",
                                                               "greece": kind}})
        assert r.status_code == 400 and "at most 64" in r.json()["error"], r.json()
    r = client.post("/api/games", json={**ROME, "lang": "uk",
                                        "seats": {"greece": "search:100000"}})
    assert r.status_code == 400 and "щонайбільше 64" in r.json()["error"], r.json()
    r = client.post("/api/simulations", json={"edition": "en", "games": 1,
                                              "bots": "search:100000"})
    assert r.status_code == 400


def test_every_answer_has_the_security_headers(client: TestClient) -> None:
    links = client.post("/api/games", json=ROME).json()
    for url in ("/", "/replay", "/static/app.js", links["host"], api(links["host"])):
        r = client.get(url)
        assert r.status_code == 200, url
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
        if ".html" in r.headers.get("content-type", "") or url in ("/", "/replay"):
            assert "<script>" not in r.text      # no inline script to allow
    assert client.get(api(links["host"])).headers["cache-control"] == "no-store"
    token = links["host"].rsplit("/", 1)[-1]
    assert len(token) >= 22                      # 128 bits, URL-safe base64
    assert client.get("/api/editions").headers["cache-control"].startswith("max-age")
