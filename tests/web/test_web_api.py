"""``mnrules serve``'s JSON, as a browser gets it: a game started, played, undone, saved;
nothing of another player's hidden information in any message a seat is sent; a log
replayed step by step; a card checked with its caret; bad requests refused clearly."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient

from mnrules.frontends.web.app import create_app


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def start(client: TestClient, **seats: str) -> dict[str, Any]:
    r = client.post("/api/games", json={"edition": "en", "players": 5, "seed": 3,
                                        "seats": seats or {"rome": "human"}})
    assert r.status_code == 200, r.text
    return dict(r.json())


def api(link: str) -> str:
    return "/api" + link


def seat(link: str) -> dict[str, str]:
    """The header a state-changing request carries its link's token in."""
    return {"x-mnrules-seat": link.rsplit("/", 1)[-1]}


def test_a_human_seat_plays_through_the_decision_loop(client: TestClient) -> None:
    links = start(client, rome="human")
    view = client.get(api(links["host"])).json()
    assert view["options"] and view["status"].startswith("Rome, ")
    assert 'data-area="LATIUM"' in view["board"]
    before = view["version"]
    view = client.post(api(links["host"]) + "/choose", headers=seat(links["host"]),
                       json={"key": 0, "version": before}).json()
    assert view["version"] != before
    # a stale click (the game moved on) changes nothing and says so
    r = client.post(api(links["host"]) + "/choose", headers=seat(links["host"]),
                    json={"key": 0, "version": before})
    assert r.status_code == 400 and "moved on" in r.json()["error"]


def test_antike_ii_shows_its_map_named_as_its_pack_names_it(client: TestClient) -> None:
    r = client.post("/api/games", json={"edition": "antike2-ru", "players": 4, "seed": 3,
                                        "seats": {"yellow": "human"}})
    assert r.status_code == 200, r.text
    view = client.get(api(r.json()["host"])).json()
    board = view["board"]
    assert board.startswith("<svg") and 'data-area="ROMA"' in board
    assert ">Roma<" in board and "ROMA<" not in board       # a name, never the id
    stock = [row[-1] for sec in view["table"]["sections"] for row in sec["rows"]]
    assert any("золота" in s or "железа" in s or "мрамора" in s for s in stock), stock


def test_undo_takes_back_a_build_choice(client: TestClient) -> None:
    links = start(client, rome="human")
    link = api(links["host"])
    for _ in range(200):
        view = client.get(link).json()
        if any(o["text"].startswith("Legion in") or o["text"].startswith("Control marker")
               for o in view["options"]):
            break
        client.post(link + "/choose", headers=seat(link),
                    json={"key": 0, "version": view["version"]})
    buy = next(o for o in view["options"] if o["places"])
    after = client.post(link + "/choose", headers=seat(link),
                        json={"key": buy["key"], "version": view["version"]}).json()
    assert after["can_undo"]
    back = client.post(link + "/undo", headers=seat(link), json={}).json()
    assert back["version"] == view["version"] and back["options"] == view["options"]
    assert back["log"] == view["log"]


def hidden_of(view: dict[str, Any]) -> str:
    return json.dumps(view, ensure_ascii=False)


def test_no_message_to_a_seat_holds_another_seats_hidden_information(client: TestClient
                                                                      ) -> None:
    """Two humans, each on his own link. Every view Greece is sent is the same whatever
    Rome holds behind his screen (same count), and holds no link of Rome's."""
    app_client = client
    links = start(app_client, rome="human", greece="human")
    rome, greece = api(links["seats"]["rome"]), api(links["seats"]["greece"])
    server = app_client.app.state.server        # type: ignore[attr-defined]
    table = next(iter(server.tables.values()))
    sent: list[str] = []
    for _ in range(120):
        for link in (rome, greece):
            view = app_client.get(link).json()
            sent.append(json.dumps(view, ensure_ascii=False))
            if view["options"]:
                app_client.post(link + "/choose", headers=seat(link),
                                json={"key": len(view["options"]) - 1,
                                      "version": view["version"]})
        # swap Rome's goods for others of the same count: Greece must see no difference
        screen = table.game.state.screens["rome"]
        seen = app_client.get(greece).json()
        real = dict(screen)
        total = sum(real.values())
        table.game.state.screens["rome"] = {"gladiators": total} if total else {}
        table._told.clear()
        assert app_client.get(greece).json() == seen
        table.game.state.screens["rome"] = real
        table._told.clear()
        if table.game.over:
            break
    tokens = [link.split("/")[-1] for link in (links["host"], *links["seats"].values())]
    assert not any(token in text for token in tokens for text in sent)
    assert not any('"stack"' in t or '"screens"' in t or '"history"' in t for t in sent)


def test_a_seat_link_sees_only_its_seat_and_cannot_save(client: TestClient) -> None:
    links = start(client, rome="human", greece="human")
    greece = api(links["seats"]["greece"])
    view = client.get(greece).json()
    assert view["you"] == ["Greece"]
    screens = [s for s in view["table"]["sections"] if s["title"] == "Behind your screen"]
    assert len(screens) == 1                     # his own only
    assert client.get(greece + "/save").status_code == 403
    saved = client.get(api(links["host"]) + "/save")
    assert saved.status_code == 200 and '"format":"mnrules-save/3"' in saved.text
    loaded = client.post("/api/load", json={"save": saved.text, "seats": {"rome": "human"}})
    assert loaded.status_code == 200 and client.get(api(loaded.json()["host"])).json()["options"]


def test_a_save_loaded_without_seats_keeps_its_own(client: TestClient) -> None:
    """Issue 37 item 2: a load with no seats made every seat a random bot, and the game
    was over at once."""
    links = start(client, rome="human", greece="heuristic")
    saved = client.get(api(links["host"]) + "/save").text
    assert json.loads(saved)["seats"] == {"rome": "human", "greece": "heuristic",
                                          "babylon": "random", "egypt": "random",
                                          "carthage": "random"}
    for body in ({"save": saved}, {"save": saved, "seats": {}}):
        loaded = client.post("/api/load", json=body).json()
        assert set(loaded["seats"]) == {"rome"}          # Rome is still a person's
        view = client.get(api(loaded["host"])).json()
        assert not view["over"] and view["options"] and view["you"] == ["Rome"]
    # seats given change only those they name; a save's hostile bot is refused
    loaded = client.post("/api/load", json={"save": saved, "seats": {"greece": "human"}})
    assert set(loaded.json()["seats"]) == {"rome", "greece"}
    hostile = json.loads(saved)
    hostile["seats"]["greece"] = "search:1000000000"
    r = client.post("/api/load", json={"save": json.dumps(hostile)})
    assert r.status_code == 400 and "seats: greece: search:1000000000" in r.json()["error"]
    r = client.post("/api/load", json={"save": saved, "seats": {"rome": "hueristic"}})
    assert r.status_code == 400 and "unknown bot 'hueristic'" in r.json()["error"]
    # a save that does not name its players: the first seat human, the others random
    old = json.loads(saved)
    del old["seats"]
    old["format"] = "mnrules-save/2"
    loaded = client.post("/api/load", json={"save": json.dumps(old)}).json()
    assert set(loaded["seats"]) == {"rome"}


def test_bad_requests_are_refused_with_a_message(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{not json",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json()["error"].startswith("the request is not JSON: line 1 column 2")
    r = client.post("/api/games", json={"edition": "../../etc", "seats": {}})
    assert r.status_code == 400 and "not a bundled edition" in r.json()["error"]
    r = client.post("/api/games", json={"edition": "en", "seats": {"atlantis": "human"}})
    assert r.status_code == 400 and "atlantis" in r.json()["error"]
    r = client.post("/api/games", content=b"x" * (2 << 20),
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and "larger than" in r.json()["error"]
    assert client.get("/api/play/nope/nope").status_code == 404
    links = start(client)
    game = links["game"]
    assert client.get(f"/api/play/{game}/wrongtoken").status_code == 403
    r = client.post(api(links["host"]) + "/choose", headers=seat(links["host"]),
                    json={"key": 10**5, "version": 0})
    assert r.status_code == 400
    r = client.post("/api/load", json={"save": json.dumps({"pack": "/tmp/evil.yaml"})})
    assert r.status_code == 400 and "bundled editions only" in r.json()["error"]


def test_a_log_replays_choice_by_choice_and_round_by_round(client: TestClient,
                                                          tmp_path: Path) -> None:
    from mnrules.frontends.cli import main

    log = tmp_path / "g.jsonl"
    assert main(["play", "--edition", "en", "--seed", "4", "--rounds", "2", "--log", str(log)]) == 0
    r = client.post("/api/replays", json={"log": log.read_text()})
    assert r.status_code == 200, r.text
    rid, rounds = r.json()["id"], r.json()["rounds"]
    assert rounds[0] == 0 and len(rounds) >= 2
    first = client.get(f"/api/replays/{rid}?step=1").json()
    later = client.get(f"/api/replays/{rid}?step={rounds[1]}").json()
    assert first["step"] == 1 and later["round"] == first["round"] + 1
    assert len(later["log"]) > len(first["log"])
    back = client.get(f"/api/replays/{rid}?step=1").json()
    assert back == first


def test_a_log_that_leaves_the_rules_replays_up_to_there_and_says_where(
        client: TestClient, tmp_path: Path) -> None:
    """As ``mnrules replay`` does: a record whose player is not the one the rules ask is
    where the log diverges; the browser steps through the choices before it and names
    the line."""
    from mnrules.frontends.cli import main

    log = tmp_path / "g.jsonl"
    assert main(["play", "--edition", "en", "--seed", "4", "--rounds", "2", "--log", str(log)]) == 0
    lines = log.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if i > 5 and '"choice"' in line)
    rec = json.loads(lines[at])
    rec["player"] = next(p for p in ("rome", "greece") if p != rec["player"])
    lines[at] = json.dumps(rec)
    r = client.post("/api/replays", json={"log": "\n".join(lines) + "\n"})
    assert r.status_code == 200, r.text
    view = client.get(f"/api/replays/{r.json()['id']}?step=10000").json()
    before = sum('"choice"' in line for line in lines[:at])
    assert view["steps"] == before
    assert view["divergence"].startswith("The log and the rules diverge") \
        and f"line {at + 1}:" in view["divergence"], view["divergence"]
    fine = client.post("/api/replays", json={"log": log.read_text()}).json()
    assert client.get(f"/api/replays/{fine['id']}?step=1").json()["divergence"] == ""


def test_the_card_editor_shows_the_error_with_its_caret(client: TestClient) -> None:
    card = ("id: my_hero\nkind: hero\nbonuses: {trade: 1}\nnames: {en: My hero}\n"
            "effects: |\n  modify offer_size: chose 0 to 5\n")
    r = client.post("/api/cards/check", json={"text": card}).json()
    assert not r["ok"] and r["errors"][0]["line"] == 6
    assert "^" in r["errors"][0]["message"] and "card.yaml:6:" in r["errors"][0]["message"]
    if importlib.util.find_spec("pygments") is not None:   # the lexer's tokens, escaped
        assert '<span class="t-nx t-err">chose</span>' in r["highlight"]
        assert '<span class="t-k">modify</span>' in r["highlight"]
    evil = client.post("/api/cards/check", json={"text": card + "x: '<img src=x>'\n"}).json()
    assert "<img" not in evil["highlight"] and "&lt;img" in evil["highlight"]
    good = card.replace("chose", "choose")
    r = client.post("/api/cards/check", json={"text": good}).json()
    assert r["ok"], r
    assert any("from 0 to 5" in line for line in r["explanation"])
    tried = client.post("/api/cards/try", json={"text": good,
                                                "position": "tiles: {rome: [my_hero]}"})
    assert tried.status_code == 200 and tried.json()["ok"] and tried.json()["log"]


@pytest.mark.parametrize("edition", ["en", "fr", "nl", "pl", "uk"])
def test_a_whole_game_against_bots_in_each_editions_language(edition: str) -> None:
    """What the host's page does, choice by choice, to the end (the view looked at every
    few choices): every edition plays out in its own language."""
    from mnrules import load_ruleset
    from mnrules.frontends.web.tables import new_table

    table = new_table(load_ruleset(edition), edition, 5, {"rome": "human"}, seed=7, lang=None)
    rome = ["rome"]
    n = 0
    while not table.game.over:
        view = table.view(rome) if n % 40 == 0 else None
        if view is not None:
            assert view["options"] and all(o["text"] for o in view["options"])
        dec = table.game.pending
        assert dec is not None and dec.player == "rome"
        table.choose(rome, n % len(dec.options), table.version)
        n += 1
    end = table.view(rome)
    assert end["over"] and end["options"] == []
    words = {"en": "Game over", "fr": "Fin de la partie", "nl": "Einde van het spel",
             "pl": "Koniec gry", "uk": "Кінець гри"}
    assert end["status"].startswith(words[edition])
    assert end["log"][-1] == end["status"]


def test_a_small_simulation_reports_its_progress_then_its_figures(client: TestClient) -> None:
    import time

    r = client.post("/api/simulations", json={"edition": "fr", "players": 3, "games": 3,
                                              "seed": 2, "bots": "random"})
    assert r.status_code == 200, r.text
    status = r.json()
    assert status["total"] == 3
    for _ in range(600):
        status = client.get(f"/api/simulations/{status['id']}").json()
        if status["finished"]:
            break
        time.sleep(0.05)
    assert status["done"] == 3 and status["error"] == ""
    # the pack's names, as the CLI's report says them, never the ids
    assert "3 games" in status["report"] and set(status["rates"]) == {"Rome", "Grèce",
                                                                     "Carthage"}
    assert "Grèce" in status["report"] and "greece" not in status["report"]
    bad = client.post("/api/simulations", json={"games": 10**5})
    assert bad.status_code == 400 and "from 1 to 200" in bad.json()["error"]


def test_serve_prints_its_address_and_serves_the_pages(tmp_path: Path) -> None:
    import os
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "mnrules", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1",
                                 "XDG_DATA_HOME": str(tmp_path)})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        # its games go to the user's data folder unless --data names another
        assert str(tmp_path / "mnrules") in line
        assert (tmp_path / "mnrules" / "games.sqlite3").is_file()
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    assert b"New game" in r.read()
                break
            except OSError:
                import time

                time.sleep(0.1)
        else:
            raise AssertionError("the server never answered")
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_refuses_a_port_that_is_none() -> None:
    from mnrules.frontends.cli import main

    assert main(["serve", "--port", "70000"]) != 0


def test_serve_refuses_a_data_folder_it_cannot_write(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    from mnrules.frontends.cli import main

    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    assert main(["serve", "--port", "8123", "--data", str(blocked / "games")]) != 0
    err = capsys.readouterr().err
    assert "--data" in err and "cannot keep games" in err and "Traceback" not in err


TRIED = ("id: my_hero\nkind: hero\nbonuses: {trade: 1}\nnames: {en: My hero}\n"
         "effects: |\n  after collect: take 1 coin\n")


def test_try_it_keeps_the_positions_round_phase_and_board(client: TestClient) -> None:
    """Issue 35: "Try it" played from round 1 on a cleared board whatever it was told,
    and nothing marked when the card fired."""
    r = client.post("/api/cards/try", json={
        "text": TRIED, "position": "tiles: {rome: [my_hero]}\nround: 3\nphase: production",
        "seed": 4, "rounds": 1}).json()
    assert r["ok"], r
    log = r["log"]
    assert log[0] == "— Collect resources —"           # the phase it was told
    fired = [i for i, line in enumerate(log) if line.startswith("★ My hero: ")]
    assert fired and "take 1 coin" in log[fired[0]]
    assert log[fired[0] - 1].startswith("Rome collects ")   # right after what fired it
    assert "Rome collects coin" in log[fired[0] - 1]   # the board kept: Rome's provinces


def test_try_it_takes_a_seed_and_forced_chance(client: TestClient) -> None:
    ask = {"text": TRIED, "position": "tiles: {rome: [my_hero]}", "rounds": 1}
    one = client.post("/api/cards/try", json={**ask, "seed": 3}).json()
    again = client.post("/api/cards/try", json={**ask, "seed": 3}).json()
    assert one["ok"] and one["log"] == again["log"]
    bad = client.post("/api/cards/try", json={**ask, "forced": "land die: 5"})
    assert bad.status_code == 400 and "forced.land die: expected a list" in bad.json()["error"]
    fine = client.post("/api/cards/try", json={**ask, "forced": "land die: [5, 4]"})
    assert fine.status_code == 200 and fine.json()["ok"]


def test_try_it_plays_any_edition(client: TestClient) -> None:
    card = ("id: my_card\nkind: bellona\nnames: {en: My card}\n"
            "effects: |\n  modify legion_reach: set 2\n")
    r = client.post("/api/cards/try", json={"text": card, "edition": "antike2",
                                            "rounds": 1}).json()
    assert r["ok"] and r["log"], r


def test_the_editor_page_offers_every_edition_with_no_inline_script(
        client: TestClient) -> None:
    page = client.get("/editor").text
    assert '<select id="edition"></select>' in page     # filled from /api/editions
    for field in ('id="seed"', 'id="forced"', 'id="rounds"'):
        assert field in page
    assert "<script>" not in page and 'src="/static/app.js"' in page
    js = client.get("/static/app.js").text
    assert 'api("/api/editions")' in js.split("async function editor()")[1]


def test_the_board_is_drawn_again_only_when_the_game_moves() -> None:
    """Seats and spectators that look while nothing happens get the picture already
    drawn; a choice or an undo draws it anew, from the position it leaves."""
    from mnrules import load_ruleset
    from mnrules.frontends.web.tables import new_table

    everyone = ["rome", "greece", "babylon", "egypt", "carthage"]
    table = new_table(load_ruleset("en"), "en", 5, dict.fromkeys(everyone, "human"),
                      seed=7, lang=None)
    shown = table.game.rules.definition.presentation
    drawn: list[int] = []
    draw = shown.board_svg

    def counting(**kw: object) -> str | None:
        drawn.append(1)
        return draw(**kw)

    object.__setattr__(shown, "board_svg", counting)   # a frozen dataclass, for this test
    try:
        first = table.view(everyone)["board"]
        assert table.view(everyone)["board"] == first and len(drawn) == 1
        table.choose(everyone, 0, table.version)
        table.view(everyone)
        assert len(drawn) == 2
        assert table.take_back(everyone)
        assert table.view(everyone)["board"] == first and len(drawn) == 3
        table.view(everyone)
        assert len(drawn) == 3
    finally:
        object.__setattr__(shown, "board_svg", draw)
