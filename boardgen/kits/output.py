"""A kit's files on disk: the kit's folder and file names, and writing them so a folder always
holds one whole kit (staged, then swapped in at once) and no file is ever left half-written."""

from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from boardgen.data.paths import layouts_root
from boardgen.errors import Interrupted, OutputError

if TYPE_CHECKING:
    from boardgen.geometry import Placement

# Output ------------------------------------------------------------------------------------
#
# A kit folder always holds one complete kit, the old one or the new one: the new kit is written
# whole into a hidden folder beside it, the files of the old folder that are not the kit's (other
# papers' PDFs, reprints, the user's own) are linked in, and the two folders are exchanged with
# one atomic rename. A failure or a signal before that leaves the old kit as it was and removes
# the hidden folder. Files and folders get the modes the umask gives, as any other program's.

# The parts of a kit that a new kit replaces, or removes when it has none (--no-svg, ...).
KIT_FOLDERS = ("svg", "preview")


@dataclass
class KitResult:
    game: str
    folder: Path
    pdf: Path
    pages: int
    files: list[Path] = field(default_factory=list)
    summary: str = ""
    warnings: list[str] = field(default_factory=list)
    # Every piece placed on the kit's pages (render.imposition.Placement): what cut files and
    # print-shop files read, so they cut what the PDF prints. Page indexes are the kit's.
    placements: list[Placement] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # the kind of each page laid out


def kit_id(game: str, layout_id: str) -> str:
    """The name of a kit's folder and files: the layout's id, except for a layout of the user's
    that keeps a bundled game's id (a copy, a generated board): it is named after its file, so
    it never writes over the bundled game's kit."""
    from boardgen.data.loader import bundled_names, resolve

    path = resolve("game", game).resolve()
    if path.is_relative_to(layouts_root().resolve()) or layout_id not in bundled_names("game"):
        return layout_id
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", path.stem).strip("_") or "layout"
    return stem if stem not in bundled_names("game") else f"{stem}-own"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _blocked(path: Path) -> Path | None:
    """The first existing part of path that is not a folder, if any."""
    for part in reversed((path, *path.parents)):
        if part.exists() and not part.is_dir():
            return part
    return None


def kind_of(path: Path) -> str | None:
    """What is at path, as a message names it ("a FIFO"), not following a link; None if nothing."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    for test, name in (
        (stat.S_ISLNK, "a link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISREG, "a file"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "something other than a file"


def prepare_folder(folder: Path) -> None:
    blocker = _blocked(folder)
    if blocker is not None:
        raise OutputError(f"cannot create output folder {folder}: {blocker} is {kind_of(blocker)}, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create output folder {folder}: {exc.strerror}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"output folder {folder} is not writable")


def check_output(folder: Path, entries: list[str]) -> None:
    """Everything that would stop the kit being written into folder, found before any work:
    a file in the way of a folder (or the reverse), a folder that cannot be created or written.
    entries: the kit's top-level names, folders ending in '/'."""
    blocker = _blocked(folder)
    if blocker is not None:
        raise OutputError(f"cannot create output folder {folder}: {blocker} is {kind_of(blocker)}, not a folder")
    _refuse_link(folder)
    existing = next(part for part in (folder, *folder.parents) if part.exists())
    parent = folder.parent if folder.exists() else existing
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"output folder {parent} is not writable")
    for entry in entries:
        path = folder / entry.rstrip("/")
        wants_folder = entry.endswith("/")
        found = kind_of(path)
        if found is not None and found != ("a folder" if wants_folder else "a file"):
            kind = "a folder" if wants_folder else "a file"
            raise OutputError(
                f"cannot write {path}: something other than {kind} is in the way; move it elsewhere and render again"
            )


@contextmanager
def interruptible() -> Iterator[Callable[[], None]]:
    """SIGINT and SIGTERM raise Interrupted while the kit is made. A signal that lands inside a
    C callback (pypdfium2, reportlab) can have its exception swallowed there, so the function
    yielded raises it again: call it before anything is swapped in."""
    received: list[int] = []
    owner = os.getpid()

    def handler(signum: int, _frame: object) -> None:
        if os.getpid() != owner:
            # A forked worker (self-play) inherited this handler: it just ends, quietly, as it
            # would have without it; the kit's own process does the cleaning up.
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        received.append(signum)
        raise Interrupted(signum)

    def check() -> None:
        if received:
            raise Interrupted(received[0])

    if threading.current_thread() is not threading.main_thread():
        yield check  # signals are only delivered to the main thread
        return
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield check
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _refuse_link(folder: Path) -> None:
    """A kit folder is replaced whole (staged beside it, then exchanged): one that is a link
    would have the link replaced, not the folder it names, so it is refused."""
    if folder.is_symlink():
        real = Path(os.path.realpath(folder))
        raise OutputError(
            f"cannot write the kit into {folder}: it is a link (to {real}); a kit folder is "
            f"replaced whole, so give its real place: -o {real.parent}"
        )


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done (then arrive as usual): a temporary
    file or folder is made and named, or removed, whole, never left behind half-way."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def check_target(path: Path, *, replace: bool) -> None:
    """What would stop `write_atomic` writing `path`, found before any work (OutputError)."""
    prepare_folder(path.parent)
    found = kind_of(path)
    if found not in (None, "a file", "a link"):
        raise OutputError(f"cannot write {path}: it is {found}, not a file; give the name of a file")
    if found is not None and not replace:
        raise OutputError(f"{path} already exists (use --force to replace it)")


def write_atomic(path: Path, data: bytes, *, replace: bool = True) -> Path:
    """Write next to the target, then rename: an existing file is never left half-written.
    Only a file is ever replaced (never a folder, FIFO, device or socket), and only if
    `replace` (a file the user named: with --force; a kit's own file: always)."""
    check_target(path, replace=replace)
    temp = None
    try:
        with _signals_held():
            handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except BaseException as exc:
        if temp is not None and os.path.exists(temp):
            with _signals_held():
                os.unlink(temp)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path}: {exc.strerror}") from None
        raise
    return path


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2); False where that is not available."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _carry_over(old: Path, new: Path, replaced: set[str]) -> None:
    """Link (or copy) into new what old holds that the new kit does not replace; a replaced
    name may be nested ('preview/classic-a4'), and the rest of its folder is carried over."""
    for entry in sorted(old.iterdir()):
        if entry.name in replaced:
            continue
        inner = {name.split("/", 1)[1] for name in replaced if name.startswith(entry.name + "/")}
        target = new / entry.name
        if inner and entry.is_dir() and not entry.is_symlink():
            target.mkdir(exist_ok=True)
            _carry_over(entry, target, inner)
        elif entry.is_symlink():
            os.symlink(os.readlink(entry), target)
        elif entry.is_dir():
            shutil.copytree(entry, target, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(entry, target)


def _link_or_copy(source: Path | str, target: Path | str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def write_kit(
    folder: Path,
    files: dict[str, bytes],
    *,
    owned: tuple[str, ...] = KIT_FOLDERS,
    before_swap: Callable[[], None] | None = None,
) -> list[Path]:
    """Replace the kit in folder by files (relative POSIX paths: 'svg/board.svg', 'x.pdf'),
    all at once. owned: top-level names that belong to the kit, dropped from the old one
    even when the new kit has none. before_swap runs last: it may still cancel everything."""
    prepare_folder(folder.parent)
    _refuse_link(folder)
    _drop_stale(folder)
    mask = _umask()
    staging: Path | None = None
    try:
        with _signals_held():  # a signal between making the folder and naming it would leave it
            staging = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.new-{os.getpid()}-"))
        os.chmod(staging, 0o777 & ~mask)
        for name, data in sorted(files.items()):
            path = staging / name
            if not path.parent.is_dir():
                path.parent.mkdir(parents=True)  # mkdir honours the umask itself
            with path.open("xb") as out:
                out.write(data)
        if folder.exists():
            tops = {name.split("/")[0] for name in files if not any(name.startswith(o + "/") for o in owned)}
            _carry_over(folder, staging, tops | set(owned))
        if before_swap is not None:
            before_swap()
        with _signals_held():  # the swap is whole: the old kit or the new one, and staging known
            if not folder.exists():
                staging.rename(folder)
                staging = None
            elif _exchange(staging, folder):
                pass  # staging now holds the old kit, removed below
            else:
                old = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.old-{os.getpid()}-"))
                os.rmdir(old)
                folder.rename(old)
                staging.rename(folder)
                staging = old
    except OSError as exc:
        raise OutputError(f"cannot write {folder}: {exc.strerror or exc}") from None
    finally:
        if staging is not None:
            with _signals_held():  # removed whole even when Ctrl-C is what brought us here
                shutil.rmtree(staging, ignore_errors=True)
    return [folder / name for name in sorted(files)]


def _drop_stale(folder: Path) -> None:
    """Remove the hidden staging folders (`.<kit>.new-<pid>-*`, `.<kit>.old-<pid>-*`) that a
    render killed outright (SIGKILL, a power cut) left beside the kit: those of a process
    that no longer runs. A render still running keeps its own."""
    pattern = re.compile(re.escape(f".{folder.name}.") + r"(?:new|old)-(\d+)-")
    try:
        siblings = list(folder.parent.iterdir())
    except OSError:
        return
    for path in siblings:
        match = pattern.match(path.name)
        if match and not _running(int(match.group(1))) and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process (or a number no process has): left alone
    return True
