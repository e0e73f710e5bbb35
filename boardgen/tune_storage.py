"""Where `boardgen tune --study` keeps a shared study: a journal file or a database.

`open_storage` turns the ``--study`` value into an Optuna storage, or a one-line UsageError
(no traceback) when it cannot work: an unknown database type, a driver that is not installed
(naming the extra that brings it), an sqlite file in a missing folder, a server that cannot
be reached.

A journal file is read and written by `SafeJournalFile`, not by Optuna's own backend, which
follows links, blocks forever on a FIFO, and ends in a traceback on a damaged line. Here the
file is opened with ``O_NOFOLLOW | O_NONBLOCK`` and must then be a regular file of this user
with one name (no symlink, hard link, FIFO or device), at most `MAX_JOURNAL_BYTES`; a line that
is cut short, not JSON, nested too deep or not a journal record is a DataError naming the
file and the line.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from optuna.storages.journal import BaseJournalBackend, JournalFileSymlinkLock

from boardgen.errors import DataError, Problem, UsageError

# A journal of a few thousand trials is a few MB; this bound keeps a wrong file from being read.
MAX_JOURNAL_BYTES = 256 * 1024 * 1024
# Optuna's records are objects three or four levels deep; anything much deeper is not one.
MAX_DEPTH = 32
# Optuna's journal operations (optuna.storages.journal._storage.JournalOperation): 0 to 10.
OP_CODES = range(11)
# A lock left by a process killed while appending is broken after this many seconds without
# change (Optuna's default, 30, held every other process still for half a minute). A live
# process holds it for one write and fsync; each record is one write to an O_APPEND file.
LOCK_GRACE_S = 5
# Tries at opening a database (processes making its tables at once), a little apart.
TRIES = 8
# The extra that installs each database driver SQLAlchemy picks for a URL.
EXTRAS = {"psycopg": "postgres", "pymysql": "mysql"}
HINT = "sqlite:///FILE, postgresql://USER@HOST/DB (pip install 'boardgen[postgres]') or mysql+pymysql://USER@HOST/DB"


def is_url(value: str) -> bool:
    """A database URL (``scheme://``) rather than a journal file's path."""
    return "://" in value


def open_storage(value: str) -> Any:
    """The Optuna storage ``--study VALUE`` names: a database URL, or a journal file."""
    if is_url(value):
        return _database(value)
    return journal_storage(Path(value))


def journal_storage(path: Path) -> Any:
    from optuna.storages.journal import JournalStorage

    backend = SafeJournalFile(path)
    return JournalStorage(backend)


def _database(url: str) -> Any:
    import sqlalchemy.exc
    from optuna.storages import RDBStorage
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except sqlalchemy.exc.ArgumentError:
        raise UsageError(f"--study {url}: not a database URL; use {HINT}") from None
    try:
        dialect = parsed.get_dialect()
    except sqlalchemy.exc.NoSuchModuleError:
        raise UsageError(f"--study {url}: unknown database type {parsed.drivername!r}; use {HINT}") from None
    try:
        dialect.import_dbapi()
    except ImportError:
        extra = EXTRAS.get(dialect.driver)
        if extra:
            how = f"pip install 'boardgen[{extra}]'"
        elif parsed.get_backend_name() == "mysql":
            how = "use mysql+pymysql://... after pip install 'boardgen[mysql]'"
        else:
            how = f"install it, or use {HINT}"
        raise UsageError(
            f"--study {url}: the {parsed.get_backend_name()} driver {dialect.driver!r} is not installed: {how}"
        ) from None
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(parsed.database).parent
        if not folder.is_dir():
            raise UsageError(f"--study {url}: the folder {folder} does not exist")
    kwargs = {"pool_pre_ping": True} if parsed.get_backend_name() != "sqlite" else {}
    for attempt in range(TRIES):
        try:
            return RDBStorage(url, engine_kwargs=kwargs)
        except sqlalchemy.exc.SQLAlchemyError as exc:
            # Processes starting together on a new database race to make Optuna's tables: the
            # losers see a duplicate key, and find the tables made when they try again.
            last = exc
            time.sleep(0.05 * (attempt + 1))
    raise UsageError(f"--study {url}: cannot use the database: {_first_line(last)}")


def _first_line(exc: BaseException) -> str:
    import sqlalchemy.exc

    text = str(exc.orig if isinstance(exc, sqlalchemy.exc.DBAPIError) else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _depth(value: Any, limit: int) -> int:
    """How deep `value` nests, stopping at `limit`."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        node, level = todo.pop()
        if level > limit:
            return level
        if isinstance(node, dict | list):
            deepest = max(deepest, level)
            todo.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


class SafeJournalFile(BaseJournalBackend):
    """Optuna's journal file backend, held to a regular file of this user, one line per record."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if path.is_dir() or not path.parent.is_dir():
            raise UsageError(f"--study {path}: give a journal file in an existing folder, or a database URL")
        self._lock = JournalFileSymlinkLock(str(path), grace_period=LOCK_GRACE_S)
        os.close(self._open(os.O_WRONLY | os.O_APPEND | os.O_CREAT))
        self._offsets: dict[int, int] = {0: 0}

    def _open(self, flags: int) -> int:
        """A descriptor of the journal, checked before anything is read or written."""
        try:
            fd = os.open(self.path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            try:
                mode = os.lstat(self.path).st_mode
            except OSError:
                mode = 0
            if stat.S_ISLNK(mode):
                raise UsageError(f"--study {self.path}: is a symbolic link; give the journal file itself") from None
            if mode and not stat.S_ISREG(mode):
                raise UsageError(
                    f"--study {self.path}: not a regular file (a FIFO, device or folder); give a journal file"
                ) from None
            raise UsageError(f"--study {self.path}: cannot open the journal: {exc.strerror}") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise UsageError(
                    f"--study {self.path}: not a regular file (a FIFO, device or folder); give a journal file"
                )
            if info.st_uid != os.geteuid():
                raise UsageError(f"--study {self.path}: belongs to another user; give a journal file of yours")
            if info.st_nlink != 1:
                raise UsageError(
                    f"--study {self.path}: has {info.st_nlink} names (hard links); give a journal file with one"
                )
            if info.st_size > MAX_JOURNAL_BYTES:
                raise UsageError(
                    f"--study {self.path}: {info.st_size:,} bytes, more than a journal holds "
                    f"({MAX_JOURNAL_BYTES:,}); start a new one"
                )
            os.set_blocking(fd, True)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _damaged(self, line: int, what: str) -> DataError:
        return DataError(
            [
                Problem(
                    str(self.path),
                    "",
                    f"damaged journal line: {what}; move the file away to start the study again",
                    line,
                )
            ]
        )

    def read_logs(self, log_number_from: int) -> Iterator[dict[str, Any]]:
        start = max(n for n in self._offsets if n <= log_number_from)
        fd = self._open(os.O_RDONLY)
        with os.fdopen(fd, "rb") as handle:
            handle.seek(self._offsets[start])
            text = handle.read(MAX_JOURNAL_BYTES + 1 - self._offsets[start])
        lines = text.split(b"\n")
        tail = lines.pop()  # after the last newline: empty, or a record another process is writing
        offset = self._offsets[start]
        logs = []
        for number, raw in enumerate(lines, start=start):
            offset += len(raw) + 1
            self._offsets[number + 1] = offset
            if number >= log_number_from:
                logs.append(self._record(raw, number + 1))
        del tail
        return iter(logs)

    def _record(self, raw: bytes, line: int) -> dict[str, Any]:
        try:
            record = json.loads(raw)
        except RecursionError:
            raise self._damaged(line, "nested too deep") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            # JSON that stops early (at its end, or inside a string running to the end) was cut short
            cut = isinstance(exc, json.JSONDecodeError) and (
                exc.pos >= len(raw.rstrip()) or exc.msg.startswith("Unterminated string")
            )
            what = "cut short" if cut else "not JSON"
            raise self._damaged(line, what) from None
        if _depth(record, MAX_DEPTH) > MAX_DEPTH:
            raise self._damaged(line, "nested too deep")
        if (
            not isinstance(record, dict)
            or record.get("op_code") not in OP_CODES
            or not isinstance(record.get("worker_id"), str)
        ):
            raise self._damaged(line, "not an Optuna journal record")
        return record

    def append_logs(self, logs: list[dict[str, Any]]) -> None:
        text = "".join(json.dumps(log, separators=(",", ":")) + "\n" for log in logs).encode("utf-8")
        self._lock.acquire()
        try:
            fd = self._open(os.O_RDWR | os.O_APPEND)
            try:
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    # A record cut short (a process killed while writing): appending would glue
                    # this record to it.
                    raise self._damaged(self._line_count(fd) + 1, "cut short")
                os.write(fd, text)
                os.fsync(fd)
            finally:
                os.close(fd)
        finally:
            self._lock.release()

    @staticmethod
    def _line_count(fd: int) -> int:
        os.lseek(fd, 0, os.SEEK_SET)
        count = 0
        while chunk := os.read(fd, 1 << 20):
            count += chunk.count(b"\n")
        return count
