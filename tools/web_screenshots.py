"""Redraw the web app's screenshots in docs/web/ from the code as it is: a server on a free
port, Debian's Chromium through Playwright (as the browser tests drive it), and for each
page the steps a user takes. Run after a change a reader would see:

    python tools/web_screenshots.py [--out docs/web]

(`MNRULES_CHROMIUM` names another Chromium; as root it runs with --no-sandbox.)"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

WIDTH, HEIGHT = 1400, 900
SIZES = {"": (WIDTH, HEIGHT), "-phone": (390, 844)}
"""Each screen wide, and on a phone (``NAME-phone.png``)."""


def serve() -> tuple[Any, str]:
    import uvicorn

    from mnrules.frontends.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def answer(page: Any, times: int) -> None:
    """Click the side panel's first option ``times`` times (a human playing along)."""
    for _ in range(times):
        if not page.locator("#options button").count():
            return
        version = page.evaluate("document.body.dataset.version")
        page.locator("#options button").first.click()
        page.wait_for_function("v => document.body.dataset.version !== v", arg=version)


def shoot(out: Path, url: str, chromium: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    made: list[Path] = []
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=chromium, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        for suffix, (width, height) in SIZES.items():
            made += _screens(browser, out, url, Path(tmp), suffix, width, height)
        browser.close()
    return made


def _screens(browser: Any, out: Path, url: str, tmp: Path, suffix: str, width: int,
             height: int) -> list[Path]:
    from mnrules.frontends.cli import main

    made: list[Path] = []
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(60_000)
    def save(name: str) -> None:
        path = out / name.replace(".png", f"{suffix}.png")
        page.screenshot(path=str(path))
        made.append(path)

    # a new game in French, Rome played by a human, the others by bots
    page.goto(url + "/")
    page.select_option("#edition", "fr")
    page.wait_for_selector("select.seat[data-player='rome']")
    save("new-game.png")
    page.select_option("select.seat[data-player='greece']", "human")
    page.check("#lobby")
    page.click("#start")
    page.wait_for_selector("#watchlink")
    watch = page.get_attribute("#watchlink", "href")
    page.click("#hostlink")
    page.wait_for_selector("#options button")
    answer(page, 12)
    save("play.png")

    # the lobby, Greece's seat free; and the spectator's page of the same game
    page.goto(url + "/lobby?lang=fr")
    page.wait_for_selector("#games section")
    save("lobby.png")
    page.goto(url + str(watch))
    page.wait_for_selector("#status:not(:empty)")
    save("spectator.png")

    # a replay of a bot game's log, five rounds in
    log = tmp / "g.jsonl"
    with contextlib.redirect_stdout(io.StringIO()):     # the game's own lines
        main(["play", "--edition", "en", "--seed", "4", "--rounds", "5", "--log", str(log)])
    page.goto(url + "/replay")
    page.set_input_files("#logfile", str(log))
    page.click("#open")
    page.wait_for_function(
        "() => document.getElementById('where').textContent.startsWith('choice 0 ')")
    for _ in range(3):
        before = page.locator("#where").inner_text()
        page.click("#nextRound")
        page.wait_for_function("b => document.getElementById('where').textContent !== b",
                               arg=before)
    save("replay.png")

    # the card editor with a misspelt word: the caret and the lexer's error token
    page.goto(url + "/editor")
    page.wait_for_function("() => document.getElementById('state').textContent === 'ok'")
    page.fill("#card", page.locator("#card").input_value().replace("choose 0", "chose 0"))
    page.wait_for_function("() => document.getElementById('errors').textContent.includes('^')")
    save("editor.png")

    # a designer's small simulation
    page.goto(url + "/design")
    page.wait_for_selector("#edition option[value='en']", state="attached")
    page.fill("#games", "40")
    page.click("#run")
    page.wait_for_function("() => document.getElementById('report').textContent.length > 0")
    save("design.png")
    context.close()
    return made


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1]
                    / "docs" / "web")
    args = ap.parse_args(argv)
    chromium = os.environ.get("MNRULES_CHROMIUM") or shutil.which("chromium") \
        or shutil.which("chromium-browser")
    if chromium is None:
        print("web_screenshots: no chromium (apt-get install chromium)", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    server, url = serve()
    try:
        for path in shoot(args.out, url, chromium):
            print(path)
    finally:
        server.should_exit = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
