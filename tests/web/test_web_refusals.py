"""The web app's refusals of a click read as a sentence in the table's language: a
stale click, a click on another's decision."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient

from mnrules.frontends.web.app import create_app


@pytest.mark.parametrize(("edition", "lang", "moved_on"), [
    ("fr", None, "La partie a avancé depuis votre dernier regard"),
    ("en", "uk", "Гра пішла далі, відколи ви дивилися"),
    ("antike2-ru", None, "Игра ушла вперёд")])
def test_a_stale_click_is_refused_in_the_tables_language(edition: str, lang: str | None,
                                                         moved_on: str) -> None:
    client = TestClient(create_app())
    first = "rome" if edition in ("fr", "en") else "yellow"
    body = {"edition": edition, "players": 3, "seed": 3, "seats": {first: "human"}}
    if lang:
        body["lang"] = lang
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    link = "/api" + r.json()["host"]
    before = client.get(link).json()["version"]
    token = {"x-mnrules-seat": link.rsplit("/", 1)[-1]}
    assert client.post(link + "/choose", headers=token,
                       json={"key": 0, "version": before}).status_code == 200
    r = client.post(link + "/choose", headers=token, json={"key": 0, "version": before})
    assert r.status_code == 400 and r.json()["error"].startswith(moved_on), r.json()


def test_a_games_page_names_its_buttons_and_links_in_its_language() -> None:
    client = TestClient(create_app())
    r = client.post("/api/games", json={"edition": "pl", "players": 3, "seed": 1,
                                        "seats": {"rome": "human"}})
    view = client.get("/api" + r.json()["host"]).json()
    named = {"undo": "Cofnij", "download_log": "Dziennik", "nav_new": "Nowa gra",
             "nav_replay": "Odtwórz dziennik", "nav_editor": "Edytor kart",
             "nav_design": "Symulacja", "nav_lobby": "Poczekalnia"}
    assert named.items() <= view["words"].items()
    english = client.post("/api/games", json={"edition": "en", "players": 3, "seed": 1,
                                              "seats": {"rome": "human"}}).json()["host"]
    words = client.get("/api" + english).json()["words"]
    assert set(words) == set(view["words"])      # every word of the page, in Polish too
    assert all(view["words"][k] != words[k] for k in named)
