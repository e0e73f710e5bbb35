"""The one reader of the text files boardgen takes from a user's folders: layouts, themes,
rules texts (house rules and their notes), CSV decks, and the bundled files read the same way.

A file is read only if it is a regular file, opened without following a link (a link named as
the file is refused: the file itself is to be named) and without blocking (a FIFO or a device
is refused at once instead of hanging the render), at most a bounded size (named in the
message), and decoded as UTF-8, a bad byte named with its line and column. Every refusal is a
DataError naming the file.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from boardgen.errors import DataError, Problem

# The largest text file read, unless a reader asks for less: far above any real layout, theme,
# rules text or deck (the bundled ones are a few KiB), far below what would take memory or time.
MAX_TEXT_BYTES = 1024 * 1024

_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def _refused(shown: str, message: str, line: int | None = None) -> DataError:
    return DataError([Problem(shown, "", message, line)])


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in a message."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def size_text(limit: int) -> str:
    """A byte bound as a person reads it: 1024 KiB, 512 KiB."""
    return f"{limit // 1024} KiB" if limit % 1024 == 0 else f"{limit} bytes"


def read_bytes(
    path: Path | str,
    shown: str | None = None,
    *,
    limit: int = MAX_TEXT_BYTES,
    what: str = "a data file",
    usual: str = "a few KiB",
) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (see the module's docstring); a
    file over it is said to be larger than the limit, and `what` to be `usual`."""
    shown = str(path) if shown is None else shown
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):  # EMLINK: O_NOFOLLOW's answer on FreeBSD
            if os.path.islink(path):
                raise _refused(
                    shown,
                    f"is a symbolic link; {what} is read only from the file itself, "
                    "not through a link: name the file it points to",
                ) from None
            raise _refused(shown, "cannot be resolved (a symlink loop?)") from None
        if exc.errno == errno.ENOENT:
            raise _refused(shown, "no such file") from None
        raise _refused(shown, f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refused(shown, f"is {_kind(info.st_mode)}, not a regular file; {what} must be a regular file")
        if info.st_size > limit:
            raise _refused(
                shown,
                f"file larger than {size_text(limit)} ({info.st_size:,} bytes)"
                + (f"; {what} is {usual}" if usual else ""),
            )
        chunks: list[bytes] = []
        held = 0
        while held <= limit:
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - held))
            except BlockingIOError:  # a regular file never blocks; a file changed under us is not read
                raise _refused(shown, "cannot read: the file did not answer") from None
            if not chunk:
                break
            chunks.append(chunk)
            held += len(chunk)
    except OSError as exc:
        raise _refused(shown, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if held > limit:  # it grew while being read
        raise _refused(shown, f"file larger than {size_text(limit)} (it grew while being read)")
    return b"".join(chunks)


def decode(raw: bytes, shown: str, *, hint: str = "save the file as UTF-8") -> str:
    """UTF-8 text (a byte-order mark dropped), or a DataError at the line of the first bad byte."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        byte = raw[exc.start : exc.start + 1].hex()
        raise _refused(
            shown, f"not UTF-8 text: byte 0x{byte} at column {column} ({exc.reason}); {hint}", line
        ) from None


def read_text(
    path: Path | str,
    shown: str | None = None,
    *,
    limit: int = MAX_TEXT_BYTES,
    what: str = "a data file",
    hint: str = "save the file as UTF-8",
) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes; a DataError naming the file
    (and the line of a bad byte) otherwise."""
    shown = str(path) if shown is None else shown
    return decode(read_bytes(path, shown, limit=limit, what=what), shown, hint=hint)
