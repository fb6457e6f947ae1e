"""What the web tests that need a real server or browser share: Debian's Chromium (never
a downloaded browser: the module is skipped without one, except under CI, where a
missing browser fails), a free port, and the app served by uvicorn in a thread that can
be stopped and started again on the same port."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest


def find_chromium() -> str:
    """The Chromium to drive (``MNRULES_CHROMIUM``, else the one on PATH); without one
    the calling test module is skipped, or under CI (CI=true) fails."""
    found = os.environ.get("MNRULES_CHROMIUM") or shutil.which("chromium") \
        or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            raise RuntimeError("CI: no chromium on PATH (.ci/run installs Debian's chromium)")
        pytest.skip("no chromium installed (apt-get install chromium)",
                    allow_module_level=True)
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """The app ``make_app(port)`` builds, served on one port until stopped; started
    again, it is a new server on the same port (and whatever data folder the app has)."""

    def __init__(self, make_app: Callable[[int], Any], port: int | None = None) -> None:
        import uvicorn

        self.uvicorn = uvicorn
        self.make_app = make_app
        self.port = port if port is not None else free_port()
        self.srv: Any = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        config = self.uvicorn.Config(self.make_app(self.port), host="127.0.0.1",
                                     port=self.port, log_level="warning")
        self.srv = self.uvicorn.Server(config)
        self.thread = threading.Thread(target=self.srv.run, daemon=True)
        self.thread.start()
        for _ in range(400):
            if self.srv.started:
                return
            time.sleep(0.025)
        raise AssertionError("the server did not start")

    def stop(self) -> None:
        self.srv.should_exit = True
        assert self.thread is not None
        self.thread.join(10)


@contextmanager
def serving(make_app: Callable[[int], Any]) -> Iterator[str]:
    """The app served for the block; its address."""
    served = Served(make_app)
    served.start()
    try:
        yield served.url
    finally:
        served.stop()


@contextmanager
def chromium_browser(chromium: str) -> Iterator[Any]:
    """A headless Chromium through Playwright (``--no-sandbox``: CI runs as root)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()
