"""``mnrules serve``: the web app (Starlette, served by uvicorn; the ``web`` extra).

Pages: ``/`` starts a game (game, edition, language, seats human or bot) or loads a save
(its own seats, as the save records them, unless the form changes them);
``/play/{game}/{token}`` plays it (the host's link plays every human seat, a seat's link
that seat only); ``/replay`` steps through a log; ``/editor`` checks a card as it is
typed; ``/design`` runs a small simulation with a progress bar, then shows its report
and win rates.
The pages are static files; they talk JSON with ``/api/...``.

The server never runs code from a request: games use the bundled editions only (no
variant or plugin file through the web), a log or save names a bundled edition, a card is
checked as data. Bodies are limited to :data:`MAX_BODY` bytes, a bad request gets a
clear message (never a traceback), and every change to a game is ``game.apply``.
"""

from __future__ import annotations

import json
import secrets
import tempfile
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..errors import MnrulesError
from .tables import Replay, Table, new_replay, new_table, seat_table

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1 << 20
MAX_GAMES = 64
MAX_SEED = 2**31


class Bad(MnrulesError):
    """A request the server refuses, with what to do instead."""


class Server:
    """The games and replays of one server (nothing survives it; nothing is shared
    between two servers)."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.replays: dict[str, Replay] = {}
        self.simulations: dict[str, Any] = {}

    def keep(self, store: dict[str, Any], key: str, value: Any) -> None:
        if len(store) >= MAX_GAMES:
            store.pop(next(iter(store)))      # the oldest goes
        store[key] = value


async def body(request: Request) -> dict[str, Any]:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise Bad(f"the request is larger than {MAX_BODY // 1024} KiB")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise Bad("the request is not JSON") from None
    if not isinstance(data, dict):
        raise Bad("the request is not a JSON object")
    return data


def _text(data: dict[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > MAX_BODY:
        raise Bad(f"{key}: expected a text")
    return value


def _int(data: dict[str, Any], key: str, default: int | None = None,
         low: int = 0, high: int = MAX_SEED) -> int:
    value = data.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise Bad(f"{key}: expected a whole number from {low} to {high}")
    return value


INDEX_WORDS = ("form_edition", "form_language", "form_players", "form_seed", "form_start",
               "form_load_title", "form_load", "form_play_all", "nav_new", "nav_replay",
               "nav_editor", "nav_design")
"""The new-game page's words (``ui.*`` messages), sent in every language of a game."""


def _editions() -> list[dict[str, Any]]:
    from ..packs import list_packs, read

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


def _rules(edition: str) -> Any:
    from ..packs import list_packs
    from ..ruleset import load_ruleset

    if edition not in list_packs():
        raise Bad(f"edition: {edition!r} is not a bundled edition")
    return load_ruleset(edition)


def create_app() -> Starlette:
    server = Server()

    def table(request: Request) -> tuple[Table, list[str]]:
        found = server.tables.get(request.path_params["game"])
        if found is None:
            raise HTTPException(404, "no such game (the server forgets games when it stops)")
        players = found.seat_of(request.path_params["token"])
        if not players and not secrets.compare_digest(request.path_params["token"],
                                                      found.host):
            raise HTTPException(403, "this link is not a seat of this game")
        return found, players

    async def page(request: Request) -> Response:
        name = request.path_params.get("page", "index")
        return FileResponse(STATIC / f"{name}.html")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ("app.js", "style.css"):
            raise HTTPException(404, "no such file")
        return FileResponse(STATIC / name)

    async def play_page(request: Request) -> Response:
        table(request)
        return FileResponse(STATIC / "play.html")

    async def editions(request: Request) -> Response:
        from ..present import languages, presenter

        eds = _editions()
        seats: dict[str, Any] = {}
        for ed in eds:
            if ed["id"] == "en" or ed["game"] not in seats:
                rules = _rules(ed["id"])
                from ..bots import bot_kinds

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
        return JSONResponse({"editions": eds, "games": seats})

    async def start(request: Request) -> Response:
        data = await body(request)
        edition = _text(data, "edition", "en")
        rules = _rules(edition)
        players = _int(data, "players", max(rules.seating, default=1), 1, 99)
        seats = data.get("seats") or {}
        if not isinstance(seats, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in seats.items()):
            raise Bad("seats: expected each player's 'human' or bot kind")
        lang = data.get("lang") or None
        if lang is not None:
            from ..present import language_pack

            language_pack(_text(data, "lang"), rules)
        t = new_table(rules, edition, players, seats, _int(data, "seed", 1), lang)
        server.keep(server.tables, t.id, t)
        return JSONResponse(_links(t))

    async def load_save(request: Request) -> Response:
        """A save goes on with its own seats (a save that does not name them: the first
        human, the others random bots, as a new game's form offers); ``seats`` changes
        any of them ("human" or a bot's name)."""
        from ..log import HUMAN, load_saved
        from ..packs import list_packs

        data = await body(request)
        text = _text(data, "save")
        try:
            head = json.loads(text)
        except ValueError:
            raise Bad("save: not a save file (JSON)") from None
        if not isinstance(head, dict) or head.get("pack") not in list_packs() \
                or head.get("variant"):
            raise Bad("save: the web app loads saves of the bundled editions only")
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "game.save"
            path.write_text(text, encoding="utf-8")
            saved = load_saved(path)
        game, pack = saved.game, saved.pack
        seats = data.get("seats") or {}
        if not isinstance(seats, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in seats.items()):
            raise Bad("seats: expected each player's 'human' or bot kind")
        lang = data.get("lang") or None
        if lang is not None:
            from ..present import language_pack

            language_pack(_text(data, "lang"), game.rules)
        players = game.state.players
        recorded = saved.seats if saved.seats is not None else {
            p: HUMAN if i == 0 else "random" for i, p in enumerate(players)}
        t = seat_table(game, pack, seats, lang, recorded)
        server.keep(server.tables, t.id, t)
        return JSONResponse(_links(t))

    async def view(request: Request) -> Response:
        t, players = table(request)
        lang = request.query_params.get("lang") or None
        with t.lock:
            return JSONResponse(t.view(players, lang))

    async def choose(request: Request) -> Response:
        t, players = table(request)
        data = await body(request)
        with t.lock:
            t.choose(players, _int(data, "key", None, 0, 10**6),
                     _int(data, "version", None, 0, 10**9))
            return JSONResponse(t.view(players))

    async def undo(request: Request) -> Response:
        t, players = table(request)
        with t.lock:
            if not t.take_back(players):
                raise Bad(t.say(t.lang).say("ui.cannot_undo"))
            return JSONResponse(t.view(players))

    async def save(request: Request) -> Response:
        from ..log import save_text

        t, _ = table(request)
        if not secrets.compare_digest(request.path_params["token"], t.host):
            # a save holds every screen: only the host's link may take one
            raise HTTPException(403, "only the host's link saves the game")
        with t.lock:
            text = save_text(t.game, t.pack, None, t.kinds)
        return Response(text, media_type="application/json", headers={
            "content-disposition": f'attachment; filename="mnrules-{t.id}.save"'})

    async def replay_new(request: Request) -> Response:
        data = await body(request)
        r = new_replay(_text(data, "log"))
        server.keep(server.replays, r.id, r)
        return JSONResponse({"id": r.id, "steps": len(r.choices), "rounds": r.rounds})

    async def replay_view(request: Request) -> Response:
        r = server.replays.get(request.path_params["replay"])
        if r is None:
            raise HTTPException(404, "no such replay")
        try:
            step = int(request.query_params.get("step", "0"))
        except ValueError:
            raise Bad("step: expected a whole number") from None
        with r.lock:
            r.go(step)
            return JSONResponse(r.view(request.query_params.get("lang") or None))

    async def card_check(request: Request) -> Response:
        from .editor import check_card

        data = await body(request)
        return JSONResponse(check_card(_text(data, "text"), _text(data, "edition", "en"),
                                       data.get("lang") or None))

    async def card_try(request: Request) -> Response:
        from .editor import try_card

        data = await body(request)
        return JSONResponse(try_card(_text(data, "text"), _text(data, "edition", "en"),
                                     _text(data, "position", ""), _int(data, "seed", 1),
                                     _int(data, "rounds", 2, 1, 10)))

    async def simulate(request: Request) -> Response:
        from .design import start as start_simulation

        data = await body(request)
        sim = start_simulation(_text(data, "edition", "en"), _int(data, "players", 5, 1, 99),
                               _int(data, "games", 20, 1, 10**6), _int(data, "seed", 1),
                               _text(data, "bots", "random"))
        server.keep(server.simulations, sim.id, sim)
        return JSONResponse(sim.status())

    async def simulation(request: Request) -> Response:
        sim = server.simulations.get(request.path_params["sim"])
        if sim is None:
            raise HTTPException(404, "no such simulation")
        return JSONResponse(sim.status())

    async def refused(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=400)

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
        Route("/static/{name}", static),
        Route("/play/{game}/{token}", play_page),
        Route("/api/editions", editions),
        Route("/api/games", start, methods=["POST"]),
        Route("/api/load", load_save, methods=["POST"]),
        Route("/api/play/{game}/{token}", view),
        Route("/api/play/{game}/{token}/choose", choose, methods=["POST"]),
        Route("/api/play/{game}/{token}/undo", undo, methods=["POST"]),
        Route("/api/play/{game}/{token}/save", save),
        Route("/api/replays", replay_new, methods=["POST"]),
        Route("/api/replays/{replay}", replay_view),
        Route("/api/cards/check", card_check, methods=["POST"]),
        Route("/api/cards/try", card_try, methods=["POST"]),
        Route("/api/simulations", simulate, methods=["POST"]),
        Route("/api/simulations/{sim}", simulation),
    ]
    app = Starlette(routes=routes, exception_handlers={
        MnrulesError: refused, HTTPException: http_error, Exception: crashed})
    app.state.server = server
    return app


def _links(t: Table) -> dict[str, Any]:
    """What the host is told: his link, and each human seat's private link."""
    return {"game": t.id, "host": f"/play/{t.id}/{t.host}",
            "seats": {p: f"/play/{t.id}/{s.token}" for p, s in t.seats.items() if s.human}}


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the app until interrupted."""
    import uvicorn

    print(f"mnrules serve: open http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
