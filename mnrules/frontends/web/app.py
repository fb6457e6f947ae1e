"""``mnrules serve``: the web app (Starlette, served by uvicorn; the ``web`` extra).

Pages: ``/`` starts a game (game, edition, language, seats human or bot) or loads a save
(its own seats, as the save records them, unless the form changes them);
``/play/{game}/{token}`` plays it (the host's link plays his own seat, every human seat
in a hotseat game; a seat's link that seat only; the spectator's link none, showing what
every player sees); ``/lobby`` lists the games with a free seat to join; ``/replay``
steps through a log; ``/editor`` checks a card as it is typed; ``/design`` runs a small
simulation with a progress bar, then shows its report and win rates.
The pages are static files; they talk JSON with ``/api/...``.

The server never runs code from a request: games use the bundled editions only (no
variant or plugin file through the web), a log or save names a bundled edition, a card is
checked as data. Bodies are limited to :data:`MAX_BODY` bytes, a bad request gets a
clear message (never a traceback), and every change to a game is ``game.apply``.

Games last: each is kept in the server's store (:mod:`.store`, a SQLite file in the data
folder or a PostgreSQL database), every choice written before its request is answered,
and a game not in memory is rebuilt by playing its choices again. Bots play and views
are drawn on a small pool of worker threads, a request's bots within a budget
(:class:`.tables.Budget`): the event loop answers every other game meanwhile, and the
bots go on at the game's next request.
Only the server's own pages drive it (:class:`Guard`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sqlite3
import tempfile
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...content.ruleset import Ruleset
from ...errors import MnrulesError
from ...language.present import Presenter
from .store import GameStore, digest, open_store
from .tables import (
    HOST,
    WEB_MAX_SEARCH,
    Budget,
    Replay,
    Table,
    new_replay,
    new_table,
    rebuild,
    search_budget,
    seat_table,
)

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1 << 20
MAX_LOADED = 64
"""Games held in memory at once; beyond it the least recently used is unloaded (it stays
in the store and is loaded again, as it stood, by its next request)."""
MAX_STORED = 10_000
"""Games a server's store holds; a new game beyond it is refused, with this number."""
MAX_REPLAYS = 16
"""Replays held in memory (the store keeps the last :data:`KEPT_REPLAYS` logs)."""
KEPT_REPLAYS = 1_000
MAX_SIMULATIONS = 2
"""Simulations running at once (each a thread of its own)."""
WORKERS = 4
"""Threads that play bots and draw views, off the event loop."""
MAX_QUEUED = 64
"""Requests waiting for a worker; beyond it a request is refused as busy."""
MAX_SEED = 2**31
MAX_LOBBY = 50
"""Open games the lobby lists, the newest first."""
SEAT_HEADER = "x-mnrules-seat"
"""The header a state-changing request carries its link's token in: a page of another
site can make a browser send a URL, never a header of its choosing."""
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

T = TypeVar("T")


class Bad(MnrulesError):
    """A request the server refuses, with what to do instead."""


class Busy(MnrulesError):
    """Every worker is taken and the queue is full: a 503."""


class Server:
    """The games of one server: kept in its store, the recently used held in memory."""

    def __init__(self, store: GameStore, budget: Budget, workers: int = WORKERS,
                 max_loaded: int = MAX_LOADED, max_stored: int = MAX_STORED) -> None:
        self.store = store
        self.budget = budget
        self.max_loaded = max_loaded
        self.max_stored = max_stored
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.replays: OrderedDict[str, Replay] = OrderedDict()
        self.simulations: dict[str, Any] = {}
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="mnrules-web")
        self.queued = 0
        self._held = threading.Lock()       # guards tables, replays and the caches
        self._games: dict[str, asyncio.Lock] = {}
        self._rules: dict[str, Ruleset] = {}
        self._say: dict[tuple[str, str | None], Presenter] = {}
        self.editions: dict[str, Any] | None = None
        self._editions_lock: asyncio.Lock | None = None

    # -- the workers ------------------------------------------------------------------------
    async def run(self, work: Callable[[], T]) -> T:
        """``work`` on a worker thread, so the event loop answers other games meanwhile."""
        if self.queued >= MAX_QUEUED:
            raise Busy("the server is busy: try again in a moment")
        self.queued += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, work)
        finally:
            self.queued -= 1

    def game_lock(self, game_id: str) -> asyncio.Lock:
        """One request of a game at a time (the others of that game wait on the loop,
        never on a worker)."""
        lock = self._games.get(game_id)
        if lock is None:
            lock = self._games[game_id] = asyncio.Lock()
        return lock

    # -- games ------------------------------------------------------------------------------
    def rules(self, pack: str) -> Ruleset:
        from ...content.ruleset import load_ruleset

        with self._held:
            found = self._rules.get(pack)
        if found is None:
            found = load_ruleset(pack)
            with self._held:
                self._rules.setdefault(pack, found)
        return found

    def say(self, pack: str, lang: str | None) -> Presenter:
        from ...language.present import presenter

        key = (pack, lang)
        with self._held:
            found = self._say.get(key)
        if found is None:
            found = presenter(self.rules(pack), lang)
            with self._held:
                self._say[key] = found
        return found

    def table(self, game_id: str) -> Table:
        """A game as it stands, loaded from the store if it is not in memory (on a
        worker: rebuilding plays its choices again)."""
        with self._held:
            found = self.tables.get(game_id)
            if found is not None:
                self.tables.move_to_end(game_id)
                return found
        record = self.store.load(game_id)
        if record is None:
            raise HTTPException(404, "no such game")
        found = rebuild(record, self.store.choices(game_id), self.store,
                        self.rules(record.pack))
        self.hold(found)
        return found

    def hold(self, table: Table) -> None:
        with self._held:
            self.tables[table.id] = table
            self.tables.move_to_end(table.id)

    def drop(self, game_id: str) -> None:
        with self._held:
            self.tables.pop(game_id, None)

    def unload(self) -> None:
        """Unload the least recently used games beyond :attr:`max_loaded` (never one a
        request is using): they are in the store, nothing of them is lost."""
        with self._held:
            for game_id in list(self.tables):
                if len(self.tables) <= self.max_loaded:
                    break
                lock = self._games.get(game_id)
                if lock is not None and lock.locked():
                    continue
                # its lock stays: a request woken by it may be about to run, and a
                # second lock would let two requests rebuild the game side by side
                del self.tables[game_id]

    def check_room(self, pack: str, lang: str | None) -> None:
        if self.store.count() >= self.max_stored:
            raise Bad(self.say(pack, lang).say("ui.refused_full", limit=self.max_stored))

    def replay(self, replay_id: str) -> Replay:
        with self._held:
            found = self.replays.get(replay_id)
            if found is not None:
                self.replays.move_to_end(replay_id)
                return found
        text = self.store.replay(replay_id)
        if text is None:
            raise HTTPException(404, "no such replay (the server keeps the last "
                                     f"{KEPT_REPLAYS}: open the log again)")
        found = new_replay(text)
        found.id = replay_id
        self.keep_replay(found)
        return found

    def keep_replay(self, replay: Replay) -> None:
        with self._held:
            self.replays[replay.id] = replay
            while len(self.replays) > MAX_REPLAYS:
                self.replays.popitem(last=False)


async def body(request: Request) -> dict[str, Any]:
    from ...core.state import read_json

    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise Bad(f"the request is larger than {MAX_BODY // 1024} KiB")
    try:
        data = read_json(raw or b"{}")
    except MnrulesError as exc:
        raise Bad(f"the request is {exc}") from None
    if not isinstance(data, dict):
        raise Bad("the request is not a JSON object")
    return data


def _text(data: dict[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > MAX_BODY:
        raise Bad(f"{key}: expected a text")
    return value


def _edition(data: dict[str, Any]) -> str:
    """The request's pack, or the one installed game's base pack (packs.default_pack)."""
    if data.get("edition") is None:
        from ...content.packs import default_pack

        return default_pack()
    return _text(data, "edition")


def _int(data: dict[str, Any], key: str, default: int | None = None,
         low: int = 0, high: int = MAX_SEED) -> int:
    value = data.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise Bad(f"{key}: expected a whole number from {low} to {high}")
    return value


INDEX_WORDS = ("form_edition", "form_language", "form_players", "form_seed", "form_start",
               "form_load_title", "form_load", "form_play_all", "nav_new", "nav_replay",
               "nav_editor", "nav_design", "nav_lobby", "form_hotseat", "form_lobby",
               "form_watch", "form_play_own", "form_file")
"""The new-game page's words (``ui.*`` messages), sent in every language of a game."""


def create_app(data: str | Path | GameStore | None = None, hosts: set[str] | None = None,
               budget: Budget | None = None, workers: int = WORKERS,
               max_loaded: int = MAX_LOADED, max_stored: int = MAX_STORED,
               warm: bool = False) -> Starlette:
    """The app. ``data``: its store, or what :func:`.store.open_store` opens: the folder
    of its SQLite file, a ``postgresql://`` URL, None for a store in memory, lost with
    the app. ``hosts``: the ``Host`` values it answers (``name:port``; None: any, for
    a test client). ``budget``: the bot play one request may do. ``warm``: make the
    new-game form's data as the server starts, not at its first visitor."""
    store = open_store(data) if data is None or isinstance(data, str | Path) else data
    server = Server(store, budget or Budget(), workers, max_loaded, max_stored)

    def seat(request: Request, t: Table) -> list[str]:
        token = request.path_params["token"]
        players = t.seat_of(token)
        if not players and not t.is_host(token) and not t.is_watch(token):
            raise HTTPException(403, "this link is not a seat of this game")
        return players

    def changing(request: Request) -> None:
        """A state-changing request carries its link's token in a header too."""
        sent = request.headers.get(SEAT_HEADER, "")
        if not secrets.compare_digest(sent.encode("utf-8", "replace"),
                                      request.path_params["token"].encode("utf-8",
                                                                          "replace")):
            raise HTTPException(403, f"this request needs its link's token in the "
                                     f"{SEAT_HEADER} header")

    def seen(request: Request, t: Table, players: list[str], lang: str | None = None
             ) -> dict[str, Any]:
        """The link's view; the host's names the spectator link too, to pass on."""
        out = t.view(players, lang)
        if t.is_host(request.path_params["token"]) and t.watch:
            out["watch"] = f"/play/{t.id}/{t.watch}"
        return out

    async def at_table(request: Request, work: Callable[[Table, list[str]], Response]
                       ) -> Response:
        """``work`` on the request's game, on a worker, one request of a game at a time."""
        game_id = request.path_params["game"]
        held = server.tables.get(game_id)
        record = server.store.load(game_id) if held is None else None
        if held is None and record is None:
            raise HTTPException(404, "no such game")
        try:
            async with server.game_lock(game_id):
                def job() -> Response:
                    t = server.table(game_id)
                    with t.lock:
                        try:
                            return work(t, seat(request, t))
                        finally:
                            if t.saved != t.version:
                                # the store did not take a choice (a full disk): the
                                # game goes back to what is stored, never beyond it
                                server.drop(game_id)
                return await server.run(job)
        except Busy:
            pack, lang = (held.pack, held.lang) if held is not None else \
                (record.pack, record.lang) if record is not None else ("en", None)
            raise Busy(server.say(pack, lang).say("ui.busy")) from None
        finally:
            server.unload()

    async def page(request: Request) -> Response:
        name = request.path_params.get("page", "index")
        return FileResponse(STATIC / f"{name}.html")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ("app.js", "style.css"):
            raise HTTPException(404, "no such file")
        return FileResponse(STATIC / name)

    async def play_page(request: Request) -> Response:
        record = server.store.load(request.path_params["game"])
        token = digest(request.path_params["token"])
        if record is None:
            raise HTTPException(404, "no such game")
        watch = request.path_params["token"].encode("utf-8", "replace")
        if not any(secrets.compare_digest(token, d)
                   for d in (record.host, *record.seats.values())) and not (
                record.watch and secrets.compare_digest(watch, record.watch.encode())):
            raise HTTPException(403, "this link is not a seat of this game")
        return FileResponse(STATIC / "play.html", headers=PRIVATE)

    async def editions_info() -> dict[str, Any]:
        # the same for the server's life, and seconds to make: made once, on a worker
        if server._editions_lock is None:
            server._editions_lock = asyncio.Lock()
        async with server._editions_lock:
            if server.editions is None:
                server.editions = await server.run(lambda: _editions_info(server))
        return server.editions

    async def editions(request: Request) -> Response:
        return JSONResponse(await editions_info(), headers={"cache-control": "max-age=300"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        warming = asyncio.create_task(editions_info()) if warm else None
        try:
            yield
        finally:
            if warming is not None:
                warming.cancel()
            server.pool.shutdown(wait=False, cancel_futures=True)

    def seats_of(data: dict[str, Any]) -> dict[str, str]:
        seats = data.get("seats") or {}
        if not isinstance(seats, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in seats.items()):
            raise Bad("seats: expected each player's 'human' or bot kind")
        return seats

    def lang_of(data: dict[str, Any], rules: Ruleset) -> str | None:
        lang = data.get("lang") or None
        if lang is not None:
            from ...language.present import language_pack

            language_pack(_text(data, "lang"), rules)
        return lang

    async def start(request: Request) -> Response:
        data = await body(request)
        edition = _edition(data)
        rules = await server.run(lambda: _rules(server, edition))
        players = _int(data, "players", max(rules.seating, default=1), 1, 99)
        seats = seats_of(data)
        lang = lang_of(data, rules)
        seed = _int(data, "seed", 1)
        hotseat, lobby = _flag(data, "hotseat"), _flag(data, "lobby")
        server.check_room(edition, lang)

        def make() -> Table:
            t = new_table(rules, edition, players, seats, seed, lang, server.store,
                          server.budget, hotseat, lobby)
            server.hold(t)
            return t
        t = await server.run(make)
        server.unload()
        return JSONResponse(_links(t))

    async def load_save(request: Request) -> Response:
        """A save goes on with its own seats (a save that does not name them: the first
        human, the others random bots, as a new game's form offers); ``seats`` changes
        any of them ("human" or a bot's name)."""
        from ...content.packs import list_packs

        data = await body(request)
        text = _text(data, "save")
        try:
            head = json.loads(text)
        except (ValueError, RecursionError):
            raise Bad("save: not a save file (JSON)") from None
        if not isinstance(head, dict) or head.get("pack") not in list_packs() \
                or head.get("variant"):
            raise Bad("save: the web app loads saves of the bundled editions only")
        seats = seats_of(data)
        server.check_room(str(head["pack"]), data.get("lang") or None)

        def make() -> Table:
            from ...tools.log import HUMAN, load_saved

            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "game.save"
                path.write_text(text, encoding="utf-8")
                saved = load_saved(path)
            game, pack = saved.game, saved.pack
            lang = lang_of(data, game.rules)
            players = game.state.players
            recorded = saved.seats if saved.seats is not None else {
                p: HUMAN if i == 0 else "random" for i, p in enumerate(players)}
            t = seat_table(game, pack, seats, lang, recorded, server.store, server.budget,
                           hotseat=_flag(data, "hotseat"), lobby=_flag(data, "lobby"))
            server.hold(t)
            return t
        t = await server.run(make)
        server.unload()
        return JSONResponse(_links(t))

    async def view(request: Request) -> Response:
        lang = request.query_params.get("lang") or None

        def work(t: Table, players: list[str]) -> Response:
            if t.bots_to_play():        # the bots go on where the last request stopped
                t.run_bots(server.budget)
            return JSONResponse(seen(request, t, players, lang), headers=PRIVATE)
        return await at_table(request, work)

    async def choose(request: Request) -> Response:
        changing(request)
        data = await body(request)
        key = _int(data, "key", None, 0, 10**6)
        version = _int(data, "version", None, 0, 10**9)

        def work(t: Table, players: list[str]) -> Response:
            t.choose(players, key, version, server.budget)
            return JSONResponse(seen(request, t, players), headers=PRIVATE)
        return await at_table(request, work)

    async def undo(request: Request) -> Response:
        changing(request)
        await body(request)

        def work(t: Table, players: list[str]) -> Response:
            if not t.take_back(players):
                raise Bad(t.say(t.lang).say("ui.cannot_undo"))
            return JSONResponse(seen(request, t, players), headers=PRIVATE)
        return await at_table(request, work)

    async def save(request: Request) -> Response:
        from ...tools.log import save_text

        def work(t: Table, players: list[str]) -> Response:
            if not t.is_host(request.path_params["token"]):
                # a save holds every screen: only the host's link may take one
                raise HTTPException(403, t.say(t.lang).say("ui.refused_save_host"))
            text = save_text(t.game, t.pack, None, t.kinds)
            return Response(text, media_type="application/json", headers={
                **PRIVATE,
                "content-disposition": f'attachment; filename="mnrules-{t.id}.save"'})
        return await at_table(request, work)

    async def game_log(request: Request) -> Response:
        def work(t: Table, players: list[str]) -> Response:
            # a log of a game in play tells every screen's draws: the host's only, until
            # the game is over
            if not t.is_host(request.path_params["token"]) and not t.game.over:
                raise HTTPException(403, t.say(t.lang).say("ui.refused_log_host"))
            return Response(t.log_text(), media_type="application/x-ndjson", headers={
                **PRIVATE,
                "content-disposition": f'attachment; filename="mnrules-{t.id}.jsonl"'})
        return await at_table(request, work)

    async def replay_new(request: Request) -> Response:
        data = await body(request)
        text = _text(data, "log")
        r = await server.run(lambda: new_replay(text))
        server.store.put_replay(r.id, text, KEPT_REPLAYS)
        server.keep_replay(r)
        return JSONResponse({"id": r.id, "steps": len(r.choices), "rounds": r.rounds})

    async def replay_view(request: Request) -> Response:
        try:
            step = int(request.query_params.get("step", "0"))
        except ValueError:
            raise Bad("step: expected a whole number") from None
        lang = request.query_params.get("lang") or None

        def work() -> Response:
            r = server.replay(request.path_params["replay"])
            with r.lock:
                r.go(step)
                return JSONResponse(r.view(lang))
        return await server.run(work)

    async def card_check(request: Request) -> Response:
        from .editor import check_card

        data = await body(request)
        text, edition = _text(data, "text"), _edition(data)
        lang = data.get("lang") or None
        return JSONResponse(await server.run(lambda: check_card(text, edition, lang)))

    async def card_try(request: Request) -> Response:
        from .editor import try_card

        data = await body(request)
        text, edition = _text(data, "text"), _edition(data)
        position, seed = _text(data, "position", ""), _int(data, "seed", 1)
        rounds = _int(data, "rounds", 2, 1, 10)
        forced = _text(data, "forced", "")
        return JSONResponse(await server.run(
            lambda: try_card(text, edition, position, seed, rounds, forced)))

    async def simulate(request: Request) -> Response:
        from .design import start as start_simulation

        data = await body(request)
        edition = _edition(data)
        bots = _text(data, "bots", "random")
        if any(search_budget(b) > WEB_MAX_SEARCH for b in bots.split(",")):
            raise Bad(f"bots: at most {WEB_MAX_SEARCH} search iterations a decision in "
                      f"the browser (mnrules simulate runs more)")
        running = [s for s in server.simulations.values() if not s.status()["finished"]]
        if len(running) >= MAX_SIMULATIONS:
            raise Busy(f"{MAX_SIMULATIONS} simulations are running, as many as this server "
                       f"runs at once: try again when one is done")
        sim = start_simulation(edition, _int(data, "players", 5, 1, 99),
                               _int(data, "games", 20, 1, 10**6), _int(data, "seed", 1),
                               bots)
        server.simulations[sim.id] = sim
        while len(server.simulations) > MAX_LOADED:
            oldest = next(iter(server.simulations))
            if not server.simulations[oldest].status()["finished"]:
                break
            server.simulations.pop(oldest)
        return JSONResponse(sim.status())

    async def simulation(request: Request) -> Response:
        sim = server.simulations.get(request.path_params["sim"])
        if sim is None:
            raise HTTPException(404, "no such simulation")
        return JSONResponse(sim.status())

    async def lobby(request: Request) -> Response:
        """The open games: each with its free seats and spectator link, in the language
        asked (else the game's)."""
        lang = request.query_params.get("lang") or None

        def work() -> Response:
            games = []
            for record in server.store.open_games(MAX_LOBBY):
                try:
                    say = server.say(record.pack, lang or record.lang)
                except MnrulesError:
                    say = server.say(record.pack, record.lang)
                humans = [p for p, k in record.kinds.items() if k == "human"]
                games.append({
                    "game": record.id, "edition": _edition_name(record.pack),
                    "players": [{"id": p, "name": say.player(p),
                                 "kind": "free" if p in humans and not record.seats.get(p)
                                 else "human" if p in humans else "bot"}
                                for p in record.players],
                    "watch": f"/play/{record.id}/{record.watch}" if record.watch else "",
                    "created": record.created})
            words, lang_used = _lobby_words(server, lang)
            return JSONResponse({"games": games, "words": words, "lang": lang_used})
        return await server.run(work)

    async def join(request: Request) -> Response:
        """Take a free seat of a lobby game: its private link (the seat's only)."""
        data = await body(request)
        player = _text(data, "player")
        game_id = request.path_params["game"]
        if server.store.load(game_id) is None:
            raise HTTPException(404, "no such game")
        async with server.game_lock(game_id):
            def job() -> Response:
                t = server.table(game_id)
                with t.lock:
                    token = t.claim(player) if t.lobby and not t.game.over else None
                    if token is None:
                        raise Bad(t.say(data.get("lang") or t.lang).say("ui.refused_seat_taken"))
                    return JSONResponse({"game": t.id, "player": player,
                                         "link": f"/play/{t.id}/{token}"})
            return await server.run(job)

    async def refused(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=503 if isinstance(exc, Busy)
                            else 400)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def crashed(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": f"the server could not do this ({type(exc).__name__}); "
                                      f"the game is as it was"}, status_code=500)

    routes = [
        Route("/", page),
        Route("/replay", lambda r: FileResponse(STATIC / "replay.html")),
        Route("/editor", lambda r: FileResponse(STATIC / "editor.html")),
        Route("/design", lambda r: FileResponse(STATIC / "design.html")),
        Route("/lobby", lambda r: FileResponse(STATIC / "lobby.html")),
        Route("/api/lobby", lobby),
        Route("/api/lobby/{game}/join", join, methods=["POST"]),
        Route("/static/{name}", static),
        Route("/play/{game}/{token}", play_page),
        Route("/api/editions", editions),
        Route("/api/games", start, methods=["POST"]),
        Route("/api/load", load_save, methods=["POST"]),
        Route("/api/play/{game}/{token}", view),
        Route("/api/play/{game}/{token}/choose", choose, methods=["POST"]),
        Route("/api/play/{game}/{token}/undo", undo, methods=["POST"]),
        Route("/api/play/{game}/{token}/save", save),
        Route("/api/play/{game}/{token}/log", game_log),
        Route("/api/replays", replay_new, methods=["POST"]),
        Route("/api/replays/{replay}", replay_view),
        Route("/api/cards/check", card_check, methods=["POST"]),
        Route("/api/cards/try", card_try, methods=["POST"]),
        Route("/api/simulations", simulate, methods=["POST"]),
        Route("/api/simulations/{sim}", simulation),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        MnrulesError: refused, HTTPException: http_error, Exception: crashed})
    app.state.server = server
    app.add_middleware(Guard, hosts=hosts)
    return app


PRIVATE = {"cache-control": "no-store"}
"""A seat's view, save or log: never kept by a cache."""


class Guard:
    """Same origin only, and the security headers on every answer.

    A request whose ``Host`` is not the server's is refused (DNS rebinding: a name of
    another site resolved to this address); a state-changing request (not GET or HEAD)
    from another origin is refused, and must be JSON (a form or a ``text/plain`` fetch of
    another site needs no permission to be sent, a JSON one does)."""

    def __init__(self, app: ASGIApp, hosts: set[str] | None = None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        why = None
        status = 403
        if self.hosts is not None and host.lower() not in self.hosts:
            why = (f"this server answers to {', '.join(sorted(self.hosts))} only, "
                   f"not {host[:80]!r}")
            status = 421
        elif scope["method"] not in ("GET", "HEAD"):
            origin = headers.get("origin")
            foreign = origin is not None and origin not in (f"http://{host}",
                                                            f"https://{host}")
            if foreign or headers.get("sec-fetch-site") == "cross-site":
                why = "a request from another site is refused"
            elif headers.get("content-type", "").split(";")[0].strip().lower() \
                    != "application/json":
                why, status = "the request must be JSON (content-type: application/json)", 415
        if why is not None:
            response = JSONResponse({"error": why}, status_code=status)
            await self._secured(response)(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)
        await self.app(scope, receive, sending)

    @staticmethod
    def _secured(response: Response) -> Response:
        response.raw_headers.extend(SECURITY_HEADERS)
        return response


SECURITY_HEADERS = [(k.encode(), v.encode()) for k, v in (
    ("content-security-policy", CSP), ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"), ("x-frame-options", "DENY"))]
"""On every answer. No referrer: a page's address holds its seat's token."""


def _editions() -> list[dict[str, Any]]:
    from ...content.packs import list_packs, read

    out = []
    for pack, qualified in list_packs().items():
        if "/" in pack:
            continue
        try:
            data = read(pack).data
        except MnrulesError:
            continue
        out.append({"id": pack, "game": qualified.split("/")[0],
                    "name": str(data.get("name", pack)),
                    "language": str(data.get("language", ""))})
    return out


def _rules(server: Server, edition: str) -> Ruleset:
    from ...content.packs import list_packs

    if edition not in list_packs():
        raise Bad(f"edition: {edition!r} is not a bundled edition")
    return server.rules(edition)


def _editions_info(server: Server) -> dict[str, Any]:
    """What the new-game form offers: every edition, and each game's seats, bots and
    words in each of its languages."""
    from ...bots import bot_kinds
    from ...language.present import languages, presenter

    eds = _editions()
    seats: dict[str, Any] = {}
    for ed in eds:
        if ed["game"] not in seats:   # a game's packs seat alike: its first one says
            rules = _rules(server, ed["id"])
            everyone = list(dict.fromkeys(p for ps in rules.seating.values() for p in ps))
            bots = ["random", *sorted(set(bot_kinds(rules)) - {"random"})]
            says = {lang: presenter(rules, lang) for lang in languages(rules)}
            seats[ed["game"]] = {
                "seating": {str(n): ps for n, ps in rules.seating.items()},
                "languages": list(says),
                # a seat is shown by its name in the language picked, never by its id
                "language_names": {lang: say.say("ui.language_name")
                                   for lang, say in says.items()},
                "names": {lang: {p: say.player(p) for p in everyone}
                          for lang, say in says.items()},
                "bots": bots,
                # the page's own words, and each seat's kind, in the language picked
                # (a bot kind the pack has no name for reads as its id)
                "words": {lang: {k: say.say(f"ui.{k}") for k in INDEX_WORDS}
                          for lang, say in says.items()},
                "bot_names": {lang: {"human": say.say("ui.seat_human") or "human",
                                     **{b: say.say(f"ui.bot_{b}") or b for b in bots}}
                              for lang, say in says.items()}}
    return {"editions": eds, "games": seats}


def _links(t: Table) -> dict[str, Any]:
    """What the host is told: his link, each human seat's private link (a lobby game's
    free seats have none yet: a friend joining one gets it), and the spectator's."""
    return {"game": t.id, "host": f"/play/{t.id}/{t.tokens[HOST]}",
            "seats": {p: f"/play/{t.id}/{t.tokens[p]}" for p, s in t.seats.items()
                      if s.human and p in t.tokens},
            "watch": f"/play/{t.id}/{t.watch}", "hotseat": t.hotseat, "lobby": t.lobby}


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise Bad(f"{key}: expected true or false")
    return value


def _edition_name(pack: str) -> str:
    return next((e["name"] for e in _editions_cached() if e["id"] == pack), pack)


_EDITIONS: list[dict[str, Any]] = []


def _editions_cached() -> list[dict[str, Any]]:
    if not _EDITIONS:
        _EDITIONS.extend(_editions())
    return _EDITIONS


LOBBY_WORDS = ("lobby_title", "lobby_none", "lobby_join", "lobby_watch", "lobby_free",
               "lobby_bot", "lobby_human", "lobby_refresh", "nav_new", "nav_replay",
               "nav_editor", "nav_design", "nav_lobby")


def _lobby_words(server: Server, lang: str | None) -> tuple[dict[str, str], str]:
    """The lobby's words in ``lang`` if an edition speaks it, else in English."""
    eds = _editions_cached()
    english = next((ed["id"] for ed in eds if ed["language"] == "en"), eds[0]["id"])
    pack = next((ed["id"] for ed in eds if lang and ed["language"] == lang), english)
    say = server.say(pack, lang if pack != english else None)
    return {k: say.say(f"ui.{k}") for k in LOBBY_WORDS}, say.language


def allowed_hosts(host: str, port: int) -> set[str] | None:
    """The ``Host`` values a server bound to ``host`` answers: its address, and for the
    loopback its names too (None for an address of every interface: any name leads to
    it, so none is refused there; such a server is open to its network anyway)."""
    if host in ("0.0.0.0", "::", ""):
        return None
    names = {host.lower(), f"[{host}]" if ":" in host else host.lower()}
    if host in ("127.0.0.1", "localhost", "::1"):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    return {f"{n}:{port}" for n in names} | ({n for n in names} if port == 80 else set())


def serve(host: str = "127.0.0.1", port: int = 8000, data: str | Path | None = None) -> None:
    """Run the app until interrupted, its games kept in ``data``: a folder (its SQLite
    file) or a ``postgresql://`` URL (:func:`.store.open_store`)."""
    import uvicorn

    from .store import StoreError, default_data_folder, shown_data

    where = data if data is not None else default_data_folder()
    shown = shown_data(where)
    try:
        store = open_store(where)
    except StoreError as exc:
        raise MnrulesError(f"--data {shown}: {exc}") from None
    except (OSError, sqlite3.Error) as exc:
        raise MnrulesError(f"--data {shown}: cannot keep games there: "
                           f"{getattr(exc, 'strerror', None) or exc}") from None
    try:
        held = store.hold()
        who = "" if held else store.holder()
    except Exception as exc:         # the server went between opening and holding
        store.close()
        raise MnrulesError(f"--data {shown}: cannot hold the store: "
                           f"{type(exc).__name__}") from None
    if not held:
        store.close()
        raise MnrulesError(f"--data {shown}: another mnrules serve keeps its games there "
                           f"(give this one another --data{'; ' + who if who else ''})")
    app = create_app(store, allowed_hosts(host, port), warm=True)
    print(f"mnrules serve: open http://{host}:{port}/ (games kept in {shown}; "
          f"Ctrl-C stops)", flush=True)
    # a stopped server waits at most a few seconds for requests under way; an idle or a
    # slow client is dropped, and connections are capped
    uvicorn.run(app, host=host, port=port, log_level="warning", http=_timed_protocol(),
                timeout_graceful_shutdown=5, timeout_keep_alive=5, limit_concurrency=256)


HEADER_SECONDS = 10.0
"""How long a new connection may take to send its request's headers."""


def _timed_protocol() -> Any:
    """uvicorn's HTTP/1.1 protocol, closing a connection whose first request's headers
    are not all in after :data:`HEADER_SECONDS` (uvicorn times out only an idle
    connection between requests: a client sending a byte now and then held its
    descriptor for good)."""
    import asyncio as _asyncio

    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Timed(H11Protocol):
        def connection_made(self, transport: _asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.loop.call_later(HEADER_SECONDS, self._too_slow)

        def _too_slow(self) -> None:
            if self.cycle is None and not self.transport.is_closing():
                self.transport.close()
    return Timed
