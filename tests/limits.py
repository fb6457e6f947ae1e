"""Run a hostile input in a child process under a memory and a time limit.

A test that feeds a bomb (an alias explosion, a huge number, a hanging variant) to the
engine must not take the test run down with it: the child gets an address-space cap and
a wall-clock timeout, and the test reads what it printed and how it ended.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

MEMORY_LIMIT = 1 << 30   # 1 GiB of address space: far above a real game, far below a bomb
TIME_LIMIT = 60.0        # seconds of wall clock


@dataclass(frozen=True)
class Outcome:
    returncode: int | None   # None when the child was killed for its time
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    @property
    def traceback(self) -> bool:
        return "Traceback (most recent call last)" in self.stderr + self.stdout


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_limited(args: list[str], *, cwd: Path | None = None, timeout: float = TIME_LIMIT,
                memory: bool = True, stdin: str | None = None,
                env: dict[str, str] | None = None) -> Outcome:
    """Run ``args`` (a command line, e.g. ``[sys.executable, "-m", "mnrules", ...]``)
    under the limits and return how it ended."""
    full_env = {**os.environ, **(env or {})}
    try:
        done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              input=stdin, env=full_env,
                              preexec_fn=_cap_memory if memory else None)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) \
            else (exc.stdout or "")
        err = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) \
            else (exc.stderr or "")
        return Outcome(None, out, err)
    return Outcome(done.returncode, done.stdout, done.stderr)


def mnrules(*argv: str, cwd: Path | None = None, timeout: float = TIME_LIMIT,
            stdin: str | None = None, env: dict[str, str] | None = None) -> Outcome:
    """The command line under the limits."""
    return run_limited([sys.executable, "-m", "mnrules", *argv], cwd=cwd, timeout=timeout,
                       stdin=stdin, env=env)


def python(code: str, *, cwd: Path | None = None, timeout: float = TIME_LIMIT,
           env: dict[str, str] | None = None) -> Outcome:
    """A snippet of Python under the limits (for the Python API's entry points)."""
    return run_limited([sys.executable, "-c", code], cwd=cwd, timeout=timeout, env=env)


def assert_clean_error(out: Outcome, *needles: str) -> None:
    """The command refused cleanly: exit 2, an ``mnrules: error:`` line naming every
    needle, no traceback, no hang."""
    assert not out.timed_out, f"hung: {out.stderr[-2000:]}"
    assert not out.traceback, out.stderr[-4000:]
    assert out.returncode == 2, (out.returncode, out.stdout[-2000:], out.stderr[-2000:])
    assert "mnrules: error:" in out.stderr, out.stderr[-2000:]
    for needle in needles:
        assert needle in out.stderr, (needle, out.stderr[-2000:])


def peak_memory(call: Callable[[], object]) -> tuple[int, Exception | None]:
    """The most memory ``call`` held at once, in bytes, and what it raised. A bomb refused
    before it expands holds little; timing it instead would fail on a loaded machine and
    pass on a fast one."""
    raised: Exception | None = None
    tracemalloc.start()
    try:
        call()
    except Exception as exc:
        raised = exc
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak, raised


@contextlib.contextmanager
def watchdog(seconds: int = 60, what: str = "") -> Iterator[None]:
    """Fail a case that hangs (a loop that never ends), with a limit no loaded machine
    reaches on a case that merely runs slowly."""
    def _hung(signum: int, frame: object) -> None:
        raise TimeoutError(f"{what}: still running after {seconds} s (a hang?)")

    old = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
