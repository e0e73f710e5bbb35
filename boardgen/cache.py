"""The user's cache folder: entries kept between runs, each signed with the user's own key.

One folder holds every store (``BOARDGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/boardgen``, else
``~/.cache/boardgen``): ``verdicts``, ``schema-passes``, ``kit-svgs`` and ``drawings``. An
entry is ``<store>/<key[:2]>/<key>``: one header line (format, store, key, payload length and
an HMAC-SHA256 of all of them with the payload), then the payload, which is data only (JSON
or an empty mark: never a pickle). Anything that is not whole and signed with this user's key
is ignored and made again; an entry whose signature does not match is reported once, since
only someone else (or an edit) can have written it.

Trust is that of ssh with its files:

- the key is 32 random bytes in a file of the user's (``$XDG_STATE_HOME/boardgen/cache-key``,
  else ``~/.local/state/boardgen/cache-key``; mode 0600, in a folder only the user can write),
  made on first use and never inside the cache folder, so a cache copied from elsewhere (a CI
  cache of another branch, a shared folder) brings no key that makes its entries believed;
- the cache folder and each folder under it must belong to the user and be writable by nobody
  else: otherwise the cache is not used (said once) and everything is made afresh;
- folders are opened one below the other without following links, entries with no-follow and
  non-blocking flags; an entry must be a regular file of the user's, read up to its store's
  bound, so a link, a FIFO or a device in the cache never blocks, grows memory or redirects a
  write or a removal outside it.

Writing is best effort: a read-only, full or refused cache only means the work is done again.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import importlib.util
import json
import logging
import os
import re
import secrets
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

logger = logging.getLogger("boardgen.cache")

FORMAT = b"boardgen-cache-3"
KEY_FILE = "cache-key"
MAX_CACHE_BYTES = 256 << 20  # every store together
PRUNED_TO = 192 << 20
STALE_PART_SECONDS = 3600  # a temporary file this old was left by a process that died
_KEY = re.compile(r"[0-9a-f]{64}")
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
# Folders older boardgen versions kept (pickled fonts): removed when the cache is pruned.
_LEGACY = ("fonts",)


@dataclass(frozen=True)
class Store:
    """One kind of entry: its folder, the largest entry it reads, and what an ignored entry means."""

    name: str
    max_bytes: int
    what: str  # "a kept verdict"
    instead: str  # "the layout is checked again"

    def read(self, key: str) -> bytes | None:
        """The payload kept under key, if the entry is whole and signed with the user's key."""
        secret = _secret()
        if secret is None or not _KEY.fullmatch(key):
            return None
        with _folder((self.name, key[:2]), create=False) as leaf:
            if leaf is None:
                return None
            data = _read_entry(leaf, key, self.max_bytes + 256, self._shown(key))
        if data is None:
            return None
        head, newline, payload = data.partition(b"\n")
        fields = head.split(b" ")
        if (
            not newline
            or len(fields) != 5
            or fields[:3] != [FORMAT, self.name.encode(), key.encode()]
            or fields[3] != str(len(payload)).encode()
            or len(payload) > self.max_bytes
        ):
            return None  # damaged (cut short, written by another version): simply made again
        if not hmac.compare_digest(fields[4], _sign(secret, self.name, key, payload).encode()):
            _tell(
                f"ignored {self.what} not signed with your cache key ({self._shown(key)}): someone "
                f"else wrote it or it was edited; {self.instead} (any more in {self.name}/ are "
                "ignored without a word)",
                topic=f"signature {self.name}",
            )
            return None
        return payload

    def write(self, key: str, payload: bytes) -> None:
        """Keep payload under key, signed, written whole or not at all (failures are ignored)."""
        secret = _secret()
        if secret is None or not _KEY.fullmatch(key) or len(payload) > self.max_bytes:
            return
        head = b" ".join(
            (
                FORMAT,
                self.name.encode(),
                key.encode(),
                str(len(payload)).encode(),
                _sign(secret, self.name, key, payload).encode(),
            )
        )
        with _folder((self.name, key[:2]), create=True) as leaf:
            if leaf is not None:
                _write_entry(leaf, key, head + b"\n" + payload)

    def _shown(self, key: str) -> str:
        return str(root() / self.name / key[:2] / key)


VERDICTS = Store("verdicts", 4 << 20, "a kept verdict", "the layout is checked again")
SCHEMA_PASSES = Store("schema-passes", 0, "a kept schema pass", "the file is validated again")
KIT_SVGS = Store("kit-svgs", 32 << 20, "a kit's kept pieces", "they are drawn again")
DRAWINGS = Store("drawings", 32 << 20, "a kept converted drawing", "it is converted again")
STORES = (VERDICTS, SCHEMA_PASSES, KIT_SVGS, DRAWINGS)


# Keys -----------------------------------------------------------------------------------------


def digest(*parts: str | bytes) -> str:
    """The one digest of the cache: SHA-256 of the parts, each with its length (so no two lists
    of parts run together into the same bytes), as hex. Every key is made by it."""
    out = hashlib.sha256(FORMAT)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        out.update(len(data).to_bytes(8, "big"))
        out.update(data)
    return out.hexdigest()


def canonical_json(data: Any) -> str | None:
    """data as one canonical JSON text for a key; None when it cannot be written (then nothing
    is kept). Values JSON does not have are written by repr."""
    try:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):
        return None


def installed(package: str, *files: str) -> str:
    """Where a package's code is and which version of it (its files' sizes and times), found
    without importing it."""
    spec = importlib.util.find_spec(package)
    origin = spec.origin if spec is not None else None
    if origin is None:
        return f"{package}: ?"
    out = [package]
    for name in ("__init__.py", *files):
        path = os.path.join(os.path.dirname(origin), name)
        try:
            info = os.stat(path)
            out.append(f"{path} {info.st_size} {info.st_mtime_ns}")
        except OSError:
            out.append(f"{path} ?")
    return " ".join(out)


def tree_state(top: Path) -> str:
    """Every file under top with its size and time: any edit changes it."""
    out = []
    for folder, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            try:
                info = os.stat(path)
            except OSError:
                continue
            out.append(f"{os.path.relpath(path, top)} {info.st_size} {info.st_mtime_ns}")
    return "\n".join(out)


# Where ----------------------------------------------------------------------------------------


def root() -> Path:
    named = os.environ.get("BOARDGEN_CACHE_DIR")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "boardgen"


def key_file() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "boardgen" / KEY_FILE


_told: set[str] = set()


def _tell(message: str, topic: str | None = None) -> None:
    """Say something about the cache once per process and topic (a render may meet the same
    cause often: a cache copied from elsewhere has every entry signed with another key)."""
    topic = topic or message
    if topic not in _told:
        _told.add(topic)
        logger.warning("warning: cache: %s", message)


def _unsafe(fd: int) -> str | None:
    """Why the open folder fd cannot be trusted, or None."""
    info = os.fstat(fd)
    if not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    if info.st_uid != os.getuid():
        return f"belongs to another user (uid {info.st_uid})"
    if info.st_mode & 0o022:
        return f"can be written by others than you (mode {stat.S_IMODE(info.st_mode):o})"
    return None


def _refuse(path: Path, reason: str) -> None:
    _tell(
        f"not using {path}: it {reason}; working without a cache (make it yours and "
        f"`chmod 700` it, or set BOARDGEN_CACHE_DIR to a folder of your own)"
    )


def _open_root(create: bool) -> int | None:
    try:
        path = root()
    except RuntimeError:  # no home folder to find it in
        return None
    try:
        fd = os.open(path, _DIR_FLAGS)
    except FileNotFoundError:
        if not create:
            return None
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
            fd = os.open(path, _DIR_FLAGS)
        except (OSError, ValueError):
            return None
    except (OSError, ValueError):
        return None  # not a folder, unreadable, a name too long: no cache
    return _checked(fd, path)


def _checked(fd: int, shown: Path) -> int | None:
    """The open folder fd if it is safe to use; else it is closed, the user told, and None."""
    reason = _unsafe(fd)
    if reason is not None:
        os.close(fd)
        _refuse(shown, reason)
        return None
    return fd


def _open_below(parent: int, name: str, create: bool, shown: Path) -> int | None:
    """The folder `name` in the open folder `parent`, never through a link, if it is safe."""
    for attempt in range(2):
        try:
            fd = os.open(name, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=parent)
        except FileNotFoundError:
            if not create or attempt:
                return None
            try:
                os.mkdir(name, 0o700, dir_fd=parent)
            except FileExistsError:
                pass
            except OSError:
                return None
            continue
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                try:
                    is_link = stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
                except OSError:
                    is_link = False
                _refuse(shown, "is a link" if is_link else "is not a folder")
            return None
        return _checked(fd, shown)
    return None


@contextmanager
def _folder(names: tuple[str, ...], *, create: bool) -> Iterator[int | None]:
    """The open folder root/names..., each step checked, or None (then there is no cache)."""
    opened: list[int] = []
    try:
        fd = _open_root(create)
        if fd is None:
            yield None
            return
        opened.append(fd)
        shown = root()
        for name in names:
            shown = shown / name
            fd = _open_below(opened[-1], name, create, shown)
            if fd is None:
                yield None
                return
            opened.append(fd)
        yield opened[-1]
    finally:
        for fd in opened:
            os.close(fd)


def _read_bounded(fd: int, limit: int) -> bytes | None:
    """At most limit bytes of the open file; None if it holds more."""
    chunks = []
    left = limit + 1
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    data = b"".join(chunks)
    return data if len(data) <= limit else None


def _read_entry(folder: int, name: str, limit: int, shown: str) -> bytes | None:
    """An entry's bytes: a regular file of the user's, no longer than limit, opened without
    following a link or waiting on a FIFO."""
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            _tell(f"ignored {shown}: it is a link, not a cache entry")
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            _tell(f"ignored {shown}: it is not a regular file")
            return None
        if info.st_uid != os.getuid() or info.st_size > limit:
            return None
        return _read_bounded(fd, limit)
    except OSError:
        return None
    finally:
        os.close(fd)


def _temporary(folder: int, stem: str) -> tuple[int, str] | None:
    """A new hidden file of the user's only (0600) in the open folder, never through a link:
    (its descriptor, its name), or None when it cannot be made."""
    temp = f".{stem}.{secrets.token_hex(4)}.part"
    try:
        return os.open(
            temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=folder
        ), temp
    except OSError:
        return None


def _write_entry(folder: int, name: str, data: bytes) -> None:
    """Write a file in the open folder whole or not at all: a temporary file renamed over the name."""
    made = _temporary(folder, name[:16])
    if made is None:
        return
    fd, temp = made
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
        temp = ""
    except OSError:
        pass
    finally:
        if temp:
            try:
                os.unlink(temp, dir_fd=folder)
            except OSError:
                pass


# The key --------------------------------------------------------------------------------------


def _sign(secret: bytes, store: str, key: str, payload: bytes) -> str:
    message = b"\0".join((FORMAT, store.encode(), key.encode(), payload))
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def _secret() -> bytes | None:
    try:
        path = key_file()
    except RuntimeError:
        return None
    return _secret_at(str(path))


@cache
def _secret_at(path: str) -> bytes | None:
    """The user's cache key in the file at path, made on first use; None (no cache) when the
    file or its folder could be read or written by someone else, or cannot be made."""
    file = Path(path)
    try:
        os.makedirs(file.parent, mode=0o700, exist_ok=True)
        folder = os.open(file.parent, _DIR_FLAGS)
    except (OSError, ValueError):
        return None
    try:
        reason = _unsafe(folder)
        if reason is not None:
            _refuse(file.parent, reason)
            return None
        secret = _read_key(folder, file)
        if secret is None and not _exists(folder, file.name):
            _make_key(folder, file.name)
            secret = _read_key(folder, file)
        return secret
    finally:
        os.close(folder)


def _exists(folder: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    except OSError:
        pass
    return True


def _read_key(folder: int, file: Path) -> bytes | None:
    try:
        fd = os.open(file.name, _READ_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError:
        _refuse(file, "cannot be opened as a regular file")
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            _refuse(file, "is not a regular file")
            return None
        if info.st_uid != os.getuid():
            _refuse(file, f"belongs to another user (uid {info.st_uid})")
            return None
        if info.st_mode & 0o077:
            _refuse(
                file, f"can be read or written by others than you (mode {stat.S_IMODE(info.st_mode):o}; `chmod 600` it)"
            )
            return None
        data = _read_bounded(fd, 65)
    except OSError:
        return None
    finally:
        os.close(fd)
    text = (data or b"").strip()
    if not _KEY.fullmatch(text.decode("ascii", "replace")):
        _refuse(file, "does not hold a cache key (delete it: a new one is made)")
        return None
    return bytes.fromhex(text.decode("ascii"))


def _make_key(folder: int, name: str) -> None:
    """A new key, written whole to a temporary file and linked to its name: of two processes
    making one at once, one wins and both read the winner's."""
    made = _temporary(folder, name)
    if made is None:
        return
    fd, temp = made
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_hex(32).encode("ascii") + b"\n")
            out.flush()
            os.fsync(out.fileno())
        os.link(temp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
    except OSError:
        pass  # another process made it first, or the folder is read-only
    finally:
        try:
            os.unlink(temp, dir_fd=folder)
        except OSError:
            pass


# Size -----------------------------------------------------------------------------------------


def prune(limit: int = MAX_CACHE_BYTES, keep: int = PRUNED_TO) -> None:
    """When the stores pass `limit` bytes, remove the oldest entries until `keep` remain
    (anything removed is simply made again when needed); temporary files of processes that
    died and the folders older versions kept go whatever the size. Only regular files inside
    the checked folders are removed; links are never followed."""
    entries: list[tuple[int, int, str, str, str]] = []
    stale: list[tuple[str, str, str]] = []
    now = time.time_ns()
    with _folder((), create=False) as top:
        if top is None:
            return
        for store in [s.name for s in STORES] + list(_LEGACY):
            for fan, name, info in _files(top, store):
                if store in _LEGACY or name.startswith(".") and now - info.st_mtime_ns > STALE_PART_SECONDS * 10**9:
                    stale.append((store, fan, name))
                elif not name.startswith("."):
                    entries.append((info.st_mtime_ns, info.st_size, store, fan, name))
    for store, fan, name in stale:
        _remove(store, fan, name)
    total = sum(size for _, size, *_ in entries)
    if total <= limit:
        return
    for _, size, store, fan, name in sorted(entries):
        _remove(store, fan, name)
        total -= size
        if total <= keep:
            return


def _files(top: int, store: str) -> Iterator[tuple[str, str, os.stat_result]]:
    """(fan folder, name, stat) of every regular file two levels under the store folder."""
    shown = root() / store
    store_fd = _open_below(top, store, False, shown)
    if store_fd is None:
        return
    try:
        with os.scandir(store_fd) as fans:
            fan_names = sorted(f.name for f in fans if f.is_dir(follow_symlinks=False))
        for fan in fan_names:
            fan_fd = _open_below(store_fd, fan, False, shown / fan)
            if fan_fd is None:
                continue
            try:
                with os.scandir(fan_fd) as files:
                    for entry in files:
                        try:
                            info = entry.stat(follow_symlinks=False)
                        except OSError:
                            continue
                        if stat.S_ISREG(info.st_mode):
                            yield fan, entry.name, info
            finally:
                os.close(fan_fd)
    except OSError:
        return
    finally:
        os.close(store_fd)


def _remove(store: str, fan: str, name: str) -> None:
    with _folder((store, fan), create=False) as folder:
        if folder is not None:
            try:
                os.unlink(name, dir_fd=folder)
            except OSError:
                pass
