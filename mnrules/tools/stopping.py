"""Ending a command on SIGTERM or SIGHUP as Ctrl-C ends it.

Python turns Ctrl-C (SIGINT) into a KeyboardInterrupt, so every ``finally`` runs: the
streamed log is put in place (:func:`mnrules.files.streaming`), a half-written file is
cleaned away. SIGTERM (``timeout``, a CI job cancelled, ``kill``) and SIGHUP (the terminal
closed) would end the process on the spot instead, leaving the game's lines in a hidden
temporary file. :func:`stop_signals` makes both raise :class:`Stopped`, a
KeyboardInterrupt, for the length of a command.

A stop that came in the middle of a :func:`unbroken` stretch (one choice applied with the
log lines of its draws, a file being put in place) waits for the stretch's end, so a
log is never cut between a choice and the chances it drew.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """The command was told to stop by a signal other than Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name


_depth = 0
_pending: int | None = None


def _stop(signum: int) -> None:
    # one stop is enough: the clean-up that follows is not cut by a second one
    for sig in STOP_SIGNALS:
        with contextlib.suppress(ValueError, OSError):
            signal.signal(sig, signal.SIG_IGN)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signum)


def _handler(signum: int, frame: FrameType | None) -> None:
    global _pending
    if _depth:
        _pending = signum
        return
    _stop(signum)


@contextlib.contextmanager
def unbroken() -> Iterator[None]:
    """A stretch that a stop signal does not cut: the stop is raised at its end (unless
    the stretch itself ends by an exception, which goes on as it is)."""
    global _depth, _pending
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
    if _depth == 0 and _pending is not None:
        signum, _pending = _pending, None
        _stop(signum)


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP raise a KeyboardInterrupt (:class:`Stopped` for the
    last two) while the block runs; the previous handlers come back after it. A signal
    already ignored (``nohup`` ignores SIGHUP) stays ignored, and outside the main
    thread (where Python lets no handler be set) nothing changes."""
    global _pending
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before: dict[int, Any] = {}
    for sig in STOP_SIGNALS:
        old = signal.getsignal(sig)
        if old in (signal.SIG_DFL, signal.default_int_handler):
            before[sig] = old
            signal.signal(sig, _handler)
    try:
        yield
    finally:
        _pending = None
        for sig, old in before.items():
            signal.signal(sig, old)


def default_in_child() -> None:
    """In a forked worker process: the stop signals do what they do by default (the
    parent, which owns the files, is the one that cleans up)."""
    for sig in STOP_SIGNALS:
        if sig != signal.SIGINT and signal.getsignal(sig) is _handler:
            signal.signal(sig, signal.SIG_DFL)
