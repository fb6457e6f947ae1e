"""A game in the browser lasts (issue 37): a human plays some choices, reloads the page
and goes on; the server is stopped and another started on the same data folder, and the
page, reloaded, goes on from the last choice. No page runs a script its content security
policy would refuse (the console stays clean); the game's log downloads from its page
and the replay page opens it. Debian's Chromium driven by Playwright,
as in ``test_browser.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from mnrules.frontends.web.app import allowed_hosts, create_app  # noqa: E402
from web_live import Served, chromium_browser, find_chromium  # noqa: E402

CHROMIUM = find_chromium()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    data = tmp_path / "data"
    s = Served(lambda port: create_app(data, allowed_hosts("127.0.0.1", port)))
    s.start()
    yield s
    s.stop()


@pytest.fixture
def page() -> Iterator[Any]:
    with chromium_browser(CHROMIUM) as b:
        pg = b.new_context(viewport={"width": 1500, "height": 950}).new_page()
        pg.set_default_timeout(15_000)
        yield pg


def _click_first(page: Any) -> None:
    version = page.evaluate("document.body.dataset.version")
    page.locator("#options button").last.click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)


def _shown(page: Any) -> tuple[str, str, str]:
    return (page.evaluate("document.body.dataset.version"),
            page.locator("#status").inner_text(), page.locator("#log").inner_text())


def test_a_game_goes_on_after_a_reload_and_a_server_restart(served: Served, page: Any,
                                                            tmp_path: Path) -> None:
    refused: list[str] = []      # a script error, or anything the policy refused
    page.on("pageerror", lambda e: refused.append(str(e)))
    page.on("console", lambda m: refused.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.goto(served.url + "/")
    page.select_option("#edition", "en")
    page.wait_for_selector("select.seat[data-player='rome']")
    page.click("#start")
    page.click("#hostlink")
    page.wait_for_selector("#options button")
    for _ in range(4):
        _click_first(page)
    page.wait_for_selector("#options button")
    before = _shown(page)
    page.reload()
    page.wait_for_selector("#options button")
    assert _shown(page) == before                   # the same game, where it was
    _click_first(page)
    page.wait_for_selector("#options button")
    before = _shown(page)

    served.stop()
    served.start()                                  # the same folder, a new process' state
    page.reload()
    page.wait_for_selector("#options button")
    assert _shown(page) == before
    _click_first(page)                              # and the game goes on
    version = int(page.evaluate("document.body.dataset.version"))
    assert version > int(before[0])

    # the game's log downloads from its page, and the replay page opens it
    with page.expect_download() as got:
        page.click("#logfile")
    log = tmp_path / "game.jsonl"
    got.value.save_as(log)
    page.goto(served.url + "/replay")
    page.set_input_files("#logfile", str(log))
    page.click("#open")
    page.wait_for_function(
        "n => document.getElementById('where').textContent.startsWith('choice 0 of ' + n)",
        arg=version)
    assert not refused, refused
