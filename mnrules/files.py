"""Writing files without ever losing the previous one.

Every file the project writes (a save, a log, results, a figure, a picture, a fuzz
reproduction) goes through here: the new contents are written to a temporary file in the
same folder, flushed to the disk, and only then put in place of the old file with
``os.replace`` (atomic on POSIX and Windows). A kill or a full disk half-way leaves the
old file as it was, never a truncated one; a streamed log (:func:`streaming`) is put in
place with the whole lines it got.

:func:`check_writable` refuses an output path that cannot be written (a missing folder, a
folder given as a file, no permission) *before* the work that would fill it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .errors import MnrulesError
from .tools.stopping import unbroken


class OutputError(MnrulesError):
    """An output file that cannot be written."""


def _target(path: str | Path) -> Path:
    """The file really written: a symbolic link is followed, so the link stays a link."""
    return Path(os.path.realpath(path))


def _mode_for(target: Path) -> int:
    """The permissions the new file gets: the old file's, else the usual ones (umask)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _special(target: Path) -> bool:
    """An existing file that is not a plain file (/dev/null, /dev/stdout, a pipe): written
    in place, never replaced."""
    try:
        return not stat.S_ISREG(target.stat().st_mode)
    except OSError:
        return False


def _temp(target: Path) -> tuple[int, str]:
    return tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def check_writable(path: str | Path, what: str = "") -> None:
    """Refuse ``path`` now, naming it, if a file cannot be written there (by probing the
    folder with a temporary file, which is also how the file will be written)."""
    label = f"{what} {path}" if what else str(path)
    p = Path(path)
    if str(path) == "":
        raise OutputError(f"{what or 'output'}: an empty file name")
    if p.is_dir():
        raise OutputError(f"{label}: is a folder, not a file")
    target = _target(p)
    if _special(target):
        if not os.access(target, os.W_OK):
            raise OutputError(f"{label}: cannot write: permission denied")
        return
    folder = target.parent
    if not folder.exists():
        raise OutputError(f"{label}: cannot write: the folder {folder} does not exist")
    if not folder.is_dir():
        raise OutputError(f"{label}: cannot write: {folder} is not a folder")
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(f"{label}: cannot write: the file is read-only")
    try:
        fd, tmp = _temp(target)
    except OSError as exc:
        raise OutputError(f"{label}: cannot write in {folder}: {_why(exc)}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def check_distinct(*named: tuple[str, str | Path | None]) -> None:
    """Refuse two options naming the same file (``--log`` and ``--save``, say)."""
    seen: dict[str, str] = {}
    for option, path in named:
        if path is None:
            continue
        key = os.path.realpath(path)
        if key in seen:
            raise OutputError(f"{seen[key]} and {option} name the same file {path}; "
                              f"give each its own")
        seen[key] = option


def _commit(fd_file: IO[bytes] | IO[str], tmp: str, target: Path, mode: int) -> None:
    fd_file.flush()
    os.fsync(fd_file.fileno())
    fd_file.close()
    os.chmod(tmp, mode)
    os.replace(tmp, target)
    with contextlib.suppress(OSError):  # the rename itself to the disk (POSIX only)
        dir_fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def write_atomic(path: str | Path, data: str | bytes, encoding: str = "utf-8") -> None:
    """Put ``data`` in ``path`` all at once: the old file stays whole until the new one is
    complete on the disk. Raises :class:`OutputError` naming the path on failure."""
    target = _target(path)
    if _special(target):
        try:
            with open(target, "wb") as out:
                out.write(data.encode(encoding) if isinstance(data, str) else data)
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {_why(exc)}") from None
        return
    mode = _mode_for(target)
    try:
        fd, tmp = _temp(target)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {_why(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode(encoding) if isinstance(data, str) else data)
            with unbroken():  # a stop signal waits: the file is put in place, or not at all
                _commit(f, tmp, target, mode)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path}: {_why(exc)}; the previous file, if "
                              f"any, is unchanged") from None
        raise


@contextlib.contextmanager
def streaming(path: str | Path, append: bool = False,
              encoding: str = "utf-8") -> Iterator[IO[str]]:
    """A text file written bit by bit (the JSON-lines log): the lines go to a temporary
    file, which replaces ``path`` when the block ends, however it ends (an error, Ctrl-C,
    SIGTERM or SIGHUP under :func:`mnrules.tools.stopping.stop_signals`), so the file always
    holds everything written so far and never a truncated old one. A write that fails (a
    full disk) keeps the whole lines written before it. With ``append`` the old contents
    are copied first. Only a hard kill (SIGKILL) leaves the new lines in the temporary
    file ``.NAME.*.tmp`` beside it, the old file intact."""
    target = _target(path)
    if _special(target):
        try:
            direct = open(target, "a" if append else "w",  # noqa: SIM115 (closed below)
                          encoding=encoding, newline="")
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {_why(exc)}") from None
        with direct:
            yield direct
        return
    mode = _mode_for(target)
    try:
        fd, tmp = _temp(target)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {_why(exc)}") from None
    try:
        if append and target.exists():
            shutil.copyfile(target, tmp)   # bytes as they are, whatever they are
        f = os.fdopen(fd, "a", encoding=encoding, newline="")
    except OSError as exc:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise OutputError(f"cannot write {path}: {_why(exc)}") from None
    try:
        yield f
    finally:
        with unbroken():  # a stop signal waits: the lines are put in place first
            try:
                _commit(f, tmp, target, mode)
            except OSError as exc:
                kept = _salvage(f, tmp, target, mode)
                if kept is None:
                    raise OutputError(f"cannot write {path}: {_why(exc)}; the previous "
                                      f"file, if any, is unchanged") from None
                raise OutputError(f"cannot write {path}: {_why(exc)}; it keeps the "
                                  f"{kept} whole line{'s' * (kept != 1)} written before"
                                  ) from None


def _salvage(f: IO[str], tmp: str, target: Path, mode: int) -> int | None:
    """After a write failed (a full disk): the temporary file cut after its last whole
    line and put in place, so that what was written is kept and a log still reads; the
    lines kept, or None (the temporary file removed) if even that cannot be done."""
    with contextlib.suppress(OSError):
        f.close()   # what it still held unwritten is dropped
    try:
        with open(tmp, "r+b") as raw:
            data = raw.read()
            end = data.rfind(b"\n") + 1
            raw.truncate(end)
            raw.flush()
            os.fsync(raw.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return None
    return data.count(b"\n", 0, end)
