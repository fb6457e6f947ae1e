"""Remote play (issue 37, item 3) through the JSON a browser gets: a game listed in the
lobby with its free seats, a seat joined (its own private link, and only once), the host
of a game not made as hotseat playing only his own seat, and a spectator's link that
shows only what everyone sees: changing every hidden thing of the game (the screens)
changes nothing of what the spectator is sent. The reason Undo is unavailable is a
sentence; owned heroes are shown with their text and bonuses."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient

from mnrules import load_ruleset, new_game
from mnrules.frontends.web.app import create_app
from mnrules.frontends.web.tables import seat_table
from mnrules.language.present import presenter


def api(link: str) -> str:
    return "/api" + link


def seat(link: str) -> dict[str, str]:
    return {"x-mnrules-seat": link.rsplit("/", 1)[-1]}


def lobby_game(client: TestClient, **extra: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"edition": "en", "players": 3, "seed": 5,
                                        "seats": {"rome": "human", "greece": "human"},
                                        **extra})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_lobby_game_lists_its_free_seat_and_a_friend_joins_it_once(data: Any) -> None:
    """In a data folder and in a PostgreSQL database (conftest's ``data``)."""
    client = TestClient(create_app(data))
    links = lobby_game(client, lobby=True)
    assert set(links["seats"]) == {"rome"}            # greece is free: no link yet
    listed = client.get("/api/lobby?lang=fr").json()
    assert listed["lang"] == "fr" and listed["words"]["lobby_join"] == "Rejoindre"
    [game] = listed["games"]
    assert {p["id"]: p["kind"] for p in game["players"]} == {
        "rome": "human", "greece": "free", "carthage": "bot"}
    assert game["watch"] == links["watch"]
    joined = client.post(f"/api/lobby/{links['game']}/join", json={"player": "greece"})
    assert joined.status_code == 200, joined.text
    link = joined.json()["link"]
    assert client.get(link).status_code == 200
    assert client.get(api(link)).json()["you"] == ["Greece"]
    again = client.post(f"/api/lobby/{links['game']}/join", json={"player": "greece"})
    assert again.status_code == 400 and "taken" in again.json()["error"]
    assert client.get("/api/lobby").json()["games"] == []   # no free seat left
    # a game not in the lobby cannot be joined
    other = lobby_game(client)
    refused = client.post(f"/api/lobby/{other['game']}/join", json={"player": "greece"})
    assert refused.status_code == 400


def test_the_host_plays_only_his_own_seat_unless_hotseat() -> None:
    client = TestClient(create_app())
    own = lobby_game(client)
    assert client.get(api(own["host"])).json()["you"] == ["Rome"]
    assert client.get(api(own["seats"]["greece"])).json()["you"] == ["Greece"]
    both = lobby_game(client, hotseat=True)
    assert client.get(api(both["host"])).json()["you"] == ["Rome", "Greece"]
    assert client.post("/api/games", json={"hotseat": "yes"}).status_code == 400


def _play_to_screens(seed: int = 5) -> Any:
    rules = load_ruleset("en")
    game = new_game(rules, 3, seed=seed)
    table = seat_table(game, "en", {"rome": "human", "greece": "human", "carthage": "human"},
                       None, new=True)
    # every seat plays its first option until each has goods behind his screen
    for _ in range(60):
        dec = game.pending
        if dec is None or (game.state.round > 1 and all(game.state.screens.values())):
            break
        table.choose([dec.player], 0, table.version)
    return table


def test_a_spectator_sees_nothing_any_screen_hides() -> None:
    table = _play_to_screens()
    game = table.game
    watched = table.view([])
    assert watched["options"] == [] and watched["role"] == "watch"
    assert not watched["can_undo"]
    say = presenter(game.rules, None)
    titles = [s["title"] for s in watched["table"]["sections"]]
    assert say.say("table.screen") not in titles
    # noninterference: every screen changed, the spectator is sent the very same
    before = json.dumps(watched, sort_keys=True)
    kept = copy.deepcopy(game.state.screens)
    kinds = sorted({k for screen in kept.values() for k in screen})
    for i, p in enumerate(game.state.screens):
        # as many goods as before (the count is public), of other kinds
        total = sum(kept[p].values())
        game.state.screens[p] = {kinds[(i + 1) % len(kinds)]: total - 1,
                                 kinds[(i + 2) % len(kinds)]: 1}
        assert game.state.screens[p] != kept[p]
    table._told.clear()
    assert json.dumps(table.view([]), sort_keys=True) == before
    game.state.screens = kept
    # while each seat's private view does show its screen
    for p in game.state.players:
        mine = [s["title"] for s in table.view([p])["table"]["sections"]]
        assert say.say("table.screen") in mine


def test_a_spectator_link_cannot_choose_undo_save_or_take_the_log() -> None:
    client = TestClient(create_app())
    links = lobby_game(client, lobby=True)
    watch = links["watch"]
    assert client.get(watch).status_code == 200
    view = client.get(api(watch)).json()
    assert view["role"] == "watch" and view["options"] == []
    host = client.get(api(links["host"])).json()
    chose = client.post(api(watch) + "/choose", headers=seat(watch),
                        json={"key": 0, "version": host["version"]})
    assert chose.status_code == 400
    assert client.post(api(watch) + "/undo", headers=seat(watch), json={}).status_code == 400
    assert client.get(api(watch) + "/save").status_code == 403
    assert client.get(api(watch) + "/log").status_code == 403


def test_undo_says_why_it_is_unavailable_and_owned_heroes_show_their_power() -> None:
    table = _play_to_screens()
    say = presenter(table.game.rules, None)
    views = [table.view([p]) for p in table.game.state.players]
    whys = {v["undo_why"] for v in views if not v["can_undo"]}
    assert whys and all(w.endswith(".") for w in whys)
    assert whys <= {say.say(f"ui.undo_why_{k}") for k in ("over", "none", "drawn", "other")}
    owned = next(s for s in views[0]["table"]["sections"]
                 if s["title"] == say.say("table.owned"))
    caesar = next(r for r in owned["rows"] if r[1] == "Caesar")
    assert "legion" in caesar[4]
    # a tile with no script reads as its bonuses, never as "No power."
    from mare_nostrum.reports import power

    assert power(say, table.game, "hercules") == \
        "Its track bonuses only: Trade +2, Culture +2 and Military +2."


def test_every_area_of_the_map_has_a_tooltip_in_the_viewers_language() -> None:
    import re

    rules = load_ruleset("en")
    game = new_game(rules, 5, seed=1)
    say = presenter(rules, "fr")
    svg = rules.definition.presentation.board_svg(say=say, game=game, viewer="rome")
    spots = re.findall(r'class="area" data-area="([^"]+)"[^>]*><title>([^<]+)</title>', svg)
    assert {a for a, _ in spots} == {*rules.board.provinces, *rules.board.seas}
    latium = dict(spots)["LATIUM"]
    assert latium.startswith("Latium") and "Marqueur" in latium and "légion" in latium


def test_a_tile_beyond_the_screen_says_why_it_is_not_offered() -> None:
    rules = load_ruleset("en")
    game = new_game(rules, 5, seed=1)
    say = presenter(rules, None)

    def notes(viewer: str | None) -> list[str]:
        table = rules.definition.presentation.table(say=say, game=game, viewer=viewer)
        return list(next(s for s in table["sections"]
                         if s["title"] == say.say("table.display"))["notes"])
    [why] = notes("rome")
    assert why.startswith("Beyond your means now: ") and "different types" in why
    assert "at most 5." in why                 # 5 types of goods, 1 coin: at most 5
    assert notes(None) == []                   # a spectator is told nothing of screens


def test_a_store_of_schema_1_opens_its_games_as_hotseat_games(tmp_path: Any) -> None:
    import sqlite3

    from mnrules.frontends.web.store import SqliteStore

    path = tmp_path / "games.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE games (
            id TEXT PRIMARY KEY, pack TEXT NOT NULL, players TEXT NOT NULL,
            seed INTEGER NOT NULL, start TEXT, lang TEXT, kinds TEXT NOT NULL,
            host TEXT NOT NULL, seats TEXT NOT NULL, created REAL NOT NULL,
            over INTEGER NOT NULL DEFAULT 0);
        INSERT INTO games VALUES ('g1', 'en', '["rome", "greece", "carthage"]', 1, NULL,
            NULL, '{"rome": "human", "greece": "human", "carthage": "random"}', 'h',
            '{"rome": "r", "greece": "g"}', 0, 0);
        PRAGMA user_version=1;""")
    db.close()
    store = SqliteStore(path)
    record = store.load("g1")
    assert record is not None and record.hotseat and not record.lobby and not record.watch
    assert store.open_games(10) == []
    store.close()


def test_the_maps_letters_are_the_viewers_languages() -> None:
    import re

    from mare_nostrum.render import SLOT_LETTERS, slot_letters

    assert slot_letters({k: presenter(load_ruleset("en")).name(k, "buildings")
                         for k in SLOT_LETTERS}) == SLOT_LETTERS
    rules = load_ruleset("en")
    game = new_game(rules, 5, seed=1)
    svg = rules.definition.presentation.board_svg(say=presenter(rules, "uk"), game=game,
                                                  viewer=None)
    letters = set(re.findall(r">([^<>]{1,2})</text>", svg))
    assert {"Р", "Х"} <= letters and "M" not in letters     # ринок, храм; not "market"


def test_only_the_hosts_view_names_the_spectator_link() -> None:
    client = TestClient(create_app())
    links = lobby_game(client)
    assert client.get(api(links["host"])).json()["watch"] == links["watch"]
    assert "watch" not in client.get(api(links["seats"]["greece"])).json()
    assert "watch" not in client.get(api(links["watch"])).json()
