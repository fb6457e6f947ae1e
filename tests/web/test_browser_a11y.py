"""Every page on a phone and by keyboard (issue 37, item 5), in Debian's Chromium through
Playwright: axe-core (the copy the ``axe-playwright-python`` package ships) finds no
critical or serious violation on any page, wide or at 390×844; on the phone no page is
wider than the screen and no text is smaller than 12 px; ``<html lang>`` follows the
game's language; the board and every option are reached with the Tab key, and a legal
area of the board is chosen with Enter. Also: a lobby game joined from the lobby page in
a second browser, both seats playing with the turn signal in the tab's title, a reload
and a second device going on with the seat's link, and a spectator's page with no
option and no screen."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from mnrules.frontends.web.app import allowed_hosts, create_app  # noqa: E402
from web_live import chromium_browser, find_chromium, serving  # noqa: E402

CHROMIUM = find_chromium()

WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
SCREEN = "Behind your screen"
"""The title of a seat's own screen on his page (English)."""


def axe_script() -> str | None:
    """axe-core's source, as the axe-playwright-python package vendors it."""
    try:
        from axe_playwright_python.base import AXE_SCRIPT
    except ImportError:
        return None
    return str(AXE_SCRIPT)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving(lambda port: create_app(None, allowed_hosts("127.0.0.1", port))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium_browser(CHROMIUM) as b:
        yield b


def _page(browser: Any, size: dict[str, int]) -> Any:
    page = browser.new_context(viewport=size).new_page()
    page.set_default_timeout(15_000)
    return page


def _start(page: Any, server: str, **form: bool) -> None:
    page.goto(server + "/")
    page.select_option("#edition", "en")
    page.wait_for_selector("select.seat[data-player='rome']")
    for box, on in form.items():
        page.set_checked(f"#{box}", on)


def pages(page: Any, server: str) -> Iterator[str]:
    """Each page of the app, as a user reaches it; its name as it is shown."""
    _start(page, server)
    yield "new game"
    page.select_option("select.seat[data-player='greece']", "human")
    page.check("#lobby")
    page.click("#start")
    page.wait_for_selector("#watchlink")
    watch = page.get_attribute("#watchlink", "href")
    page.click("#hostlink")
    page.wait_for_selector("#options button")
    yield "play"
    page.goto(server + str(watch))
    page.wait_for_selector("#status:not(:empty)")
    yield "spectator"
    page.goto(server + "/lobby")
    page.wait_for_selector("#games section")
    yield "lobby"
    page.goto(server + "/replay")
    yield "replay"
    page.goto(server + "/editor")
    page.wait_for_selector("#explain:not(:empty)")
    yield "editor"
    page.goto(server + "/design")
    page.wait_for_selector("#players option", state="attached")
    yield "design"


def _violations(page: Any, script: str) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(script)
    found = page.evaluate("""async () => (await axe.run(document,
        {resultTypes: ['violations']})).violations
        .filter(v => v.impact === 'critical' || v.impact === 'serious')
        .map(v => v.impact + ' ' + v.id + ': ' + v.nodes.slice(0, 3)
             .map(n => n.target.join(' ')).join(', '))""")
    return list(found)


def _phone_faults(page: Any) -> list[str]:
    return list(page.evaluate("""() => {
        const out = [];
        const doc = document.documentElement;
        if (doc.scrollWidth > window.innerWidth + 1)
          out.push('the page is ' + doc.scrollWidth + ' px wide');
        for (const e of document.querySelectorAll('body *')) {
          const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
          if (!own) continue;
          if (e.closest('svg')) continue;          // the board's picture scrolls and zooms
          const r = e.getBoundingClientRect();
          if (!r.width || !r.height) continue;
          const px = parseFloat(getComputedStyle(e).fontSize);
          if (px < 12) out.push(e.tagName + ' ' + (e.id || e.className) + ' ' + px + 'px');
        }
        return out.slice(0, 5);
    }"""))


def test_axe_finds_no_critical_or_serious_violation_wide_or_on_a_phone(
        server: str, browser: Any) -> None:
    script = axe_script()
    if script is None:
        pytest.skip("axe-core is not installed (pip install axe-playwright-python, in "
                    "the dev extra): the accessibility scan cannot run")
    faults: dict[str, list[str]] = {}
    for size in (WIDE, PHONE):
        page = _page(browser, size)
        for name in pages(page, server):
            where = f"{name} at {size['width']}x{size['height']}"
            assert page.evaluate("document.documentElement.lang"), where
            found = _violations(page, script)
            if size is PHONE:
                found += _phone_faults(page)
            if found:
                faults[where] = found
        page.context.close()
    assert faults == {}


def test_the_board_and_every_option_are_reached_by_keyboard(server: str,
                                                            browser: Any) -> None:
    page = _page(browser, WIDE)
    _start(page, server, hotseat=False)
    page.click("#start")
    page.click("#hostlink")
    page.wait_for_selector("#options button")
    reached = []
    for _ in range(40):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.id || "
                                     "document.activeElement.className.baseVal || "
                                     "document.activeElement.className"))
    assert "board" in reached and "option" in reached and "log" in reached
    # the board scrolls by the arrow keys
    page.focus("#board")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.getElementById('board').scrollLeft + "
                         "document.getElementById('board').scrollTop") >= 0
    page.context.close()


def _turn(page: Any) -> bool:
    return bool(page.evaluate("document.body.dataset.turn"))


def _click(page: Any) -> None:
    version = page.evaluate("document.body.dataset.version")
    page.locator("#options button").last.click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)


def test_two_friends_play_a_lobby_game_reload_and_a_spectator_sees_no_screen(
        server: str, browser: Any) -> None:
    host = _page(browser, WIDE)
    _start(host, server, lobby=True)
    host.select_option("select.seat[data-player='greece']", "human")
    host.select_option("#players", "3")
    host.wait_for_selector("select.seat[data-player='greece']")
    host.select_option("select.seat[data-player='greece']", "human")
    host.click("#start")
    host.wait_for_selector("#watchlink")
    assert host.locator(".seatlink").count() == 1         # greece is free, in the lobby
    watch = str(host.get_attribute("#watchlink", "href"))
    host.click("#hostlink")
    host.wait_for_selector("#status:not(:empty)")
    assert host.locator("#you").inner_text() == "Rome"    # his own seat only

    friend = _page(browser, PHONE)
    friend.goto(server + "/lobby")
    friend.click("button.join[data-player='greece']")
    friend.wait_for_url("**/play/**")
    friend.wait_for_selector("#status:not(:empty)")
    assert friend.locator("#you").inner_text() == "Greece"
    link = friend.url

    # both play their turns to the second round; the one whose turn it is sees it in
    # his tab's title
    pages = [host, friend]
    for _ in range(80):
        if "Round 2" in host.locator("#table h3").first.inner_text():
            break
        turn = next((p for p in pages if _turn(p)), None)
        if turn is None:        # the bots play, or the other page has not polled yet
            time.sleep(0.3)
            continue
        assert turn.title().startswith("\u25b6 Your turn")
        other = pages[1 - pages.index(turn)]
        assert not other.title().startswith("\u25b6")
        _click(turn)
    assert "Round 2" in host.locator("#table h3").first.inner_text()

    # a reload, and the seat's link on another device, go on as the same seat
    friend.reload()
    friend.wait_for_selector("#status:not(:empty)")
    assert friend.locator("#you").inner_text() == "Greece"
    other_device = _page(browser, PHONE)
    other_device.goto(link)
    other_device.wait_for_selector("#status:not(:empty)")
    assert other_device.locator("#you").inner_text() == "Greece"
    assert other_device.evaluate("document.body.dataset.version") == \
        friend.evaluate("document.body.dataset.version")
    # and the game goes on: the next choice is made on whichever page it falls to
    version = int(friend.evaluate("document.body.dataset.version"))
    for _ in range(40):
        turn = next((p for p in (host, friend) if _turn(p)), None)
        if turn is not None:
            _click(turn)
            break
        time.sleep(0.3)
    friend.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)

    # the spectator: no option, no undo, no screen of anyone
    spectator = _page(browser, WIDE)
    spectator.goto(server + watch)
    spectator.wait_for_selector("#status:not(:empty)")
    assert spectator.locator("#options button").count() == 0
    assert SCREEN in host.locator("#side").inner_text()      # a seat sees his own
    assert SCREEN not in spectator.locator("#side").inner_text()
    assert spectator.locator("#you").inner_text() == "spectator"
    for p in (host, friend, other_device, spectator):
        p.context.close()


def test_many_grouped_choices_are_picked_in_two_steps(server: str, browser: Any) -> None:
    """A payment with many combinations (grouped by their first goods, as the game
    groups them): a labelled select narrows the list to one group, then its choices.
    The page's view is given 20 choices in two groups."""
    import json

    page = _page(browser, WIDE)
    _start(page, server)
    page.click("#start")
    host = str(page.get_attribute("#hostlink", "href"))

    def many(route: Any) -> None:
        view = route.fetch().json()
        view["options"] = [{"key": i, "text": f"choice {i}", "places": [],
                            "group": "wine + …" if i < 12 else "gold + …"}
                           for i in range(20)]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(view))
    page.route(f"**/api{host}", many)
    page.goto(server + host)
    page.wait_for_selector("#narrow")
    assert page.locator("#options button.option").count() == 20     # all, until narrowed
    assert page.locator("label.narrow").inner_text().startswith("Show only")
    page.select_option("#narrow", "gold + …")
    assert page.locator("#options button.option").count() == 8
    assert page.evaluate("document.activeElement.dataset.key") == "12"
    page.context.close()
