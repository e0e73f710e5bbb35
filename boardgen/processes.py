"""The one process layer: every piece of work boardgen does beside the main process goes
through here.

- `beside(work)`: one child for one piece of work. A render starts the playability check in a
  forked child, draws and imposes the kit meanwhile, and takes the verdict when the cover needs
  it; `render --all` renders its games side by side, each in a child (boardgen.kit.render_all).
  `Beside.result(progress)` waits for its return value (or raises the exception it raised),
  relaying the progress it reported; `Beside.cancel()` ends it. Where no child can be forked
  (Windows, a sandbox), this process has a single CPU or runs other threads, the work runs in
  this process, when `result` is first asked for. The child and its parent talk through one
  pipe, in frames of a length and a pickle. Progress is sent without waiting: while the parent
  is busy drawing, a full pipe drops progress frames, never the work.
- `Workers(job, count)`: a pool of forked workers that inherit `job` (a game and its players, a
  board: never pickled; only tasks go out and results come back) and run `function(job, task)`
  for each task (`imap_unordered`). The self-play pool (boardgen.rules.simulate.SelfPlayPool)
  and the solver's processes (boardgen.rules.solver) are two users of it.
- `worker_start(parent)`: what every worker process does first (the tuner's ``--workers`` pool
  too): interrupts are its parent's, and it ends with its parent however the parent ends.

A child ignores SIGINT (the parent owns the terminal and cancels it) and ends on SIGTERM; the
workers it started end with it (see die_with_parent).
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator
from types import FrameType
from typing import Any, Generic, TypeVar

from boardgen.errors import BoardgenError

T = TypeVar("T")
J = TypeVar("J")
A = TypeVar("A")
R = TypeVar("R")
Progress = Callable[[int, int, str], None]

_HEADER = struct.Struct("<I")
# Seconds a cancelled child gets to end its workers before it is killed.
_GRACE = 5.0


class Beside(Generic[T]):
    """The outcome of `work`, running in a child process (or, where none can be forked, here)."""

    def __init__(self, work: Callable[[Progress | None], T], pid: int | None, fd: int | None) -> None:
        self._work, self._pid, self._fd = work, pid, fd
        self._done = False
        self._value: T | None = None
        self._error: BaseException | None = None

    def result(self, progress: Progress | None = None) -> T:
        """The work's return value, waited for; its exception is raised here."""
        if not self._done:
            try:
                if self._pid is None:
                    self._value = self._work(progress)
                else:
                    self._value = self._receive(progress)
            except BaseException as exc:
                self._error = exc
                raise
            finally:
                self._done = True
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]

    def cancel(self) -> None:
        """End the child if it still runs; a finished or in-process work is left as it is."""
        if self._pid is None or self._done:
            return
        self._done = True
        self._error = BoardgenError("the background work was cancelled")
        pid, self._pid = self._pid, None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        _end(pid)

    def _receive(self, progress: Progress | None) -> T:
        assert self._fd is not None and self._pid is not None
        fd, pid = self._fd, self._pid
        outcome: tuple[str, object, str] | None = None
        self._pid = None
        try:
            with os.fdopen(fd, "rb", closefd=True) as pipe:
                self._fd = None
                while True:
                    header = pipe.read(_HEADER.size)
                    if len(header) < _HEADER.size:
                        break
                    body = pipe.read(_HEADER.unpack(header)[0])
                    kind, payload, text = pickle.loads(body)
                    if kind == "progress":
                        if progress is not None:
                            progress(*payload)
                        continue
                    outcome = (kind, payload, text)
                    break
        except BaseException:  # interrupted while waiting: the child and its workers end too
            _end(pid)
            raise
        status = _reap(pid, _GRACE)
        if outcome is None:
            raise BoardgenError(
                f"the playability check ended without a verdict (exit status {status}); "
                "run the command again, or `boardgen validate` to see the check alone"
            )
        kind, payload, text = outcome
        if kind == "value":
            return payload  # type: ignore[return-value]
        raise _rebuild(payload, text)


def beside(work: Callable[[Progress | None], T], *, fork: bool = True, nice: int = 0) -> Beside[T]:
    """`work(progress)` started in a forked child (see the module docstring); with `fork`
    false, or where forking is not possible or not worth it, run in this process later.
    `nice` lowers the child's priority (and its workers'), so work this process does
    meanwhile is not slowed by it; the child takes what CPU is left, all of it once this
    process waits."""
    # A process with other threads is not forked: one of them may hold a lock the child needs.
    if not fork or not can_fork() or available_cpus() < 2 or threading.active_count() > 1:
        return Beside(work, None, None)
    read, write = os.pipe()
    parent = os.getpid()
    # Ctrl-C or SIGTERM is held back across the fork: delivered inside it, the handler's
    # exception would land in an at-fork hook (logging's lock release), where Python can only
    # print it. Held, it is delivered as soon as the fork is done, where it unwinds as usual.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD) if _CAN_HOLD else None
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        _release(held)
        return Beside(work, None, None)
    if pid == 0:  # the child: never returns
        os.close(read)
        _child(work, write, parent, held, nice)
    os.close(write)
    pending = Beside(work, pid, read)
    try:
        _release(held)  # a held Ctrl-C is raised here: the child is ended with it, not left behind
    except BaseException:
        pending.cancel()
        raise
    return pending


_HELD = {signal.SIGINT, signal.SIGTERM}
_CAN_HOLD = hasattr(signal, "pthread_sigmask")


def _release(held: set[int | signal.Signals] | None) -> None:
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def available_cpus() -> int:
    """CPUs this process may run on: the number of workers self-play uses by default."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def die_with_parent(parent: int) -> bool:
    """Have this forked process sent SIGTERM when its parent ends, however it ends (Linux;
    elsewhere nothing, and False): a child or self-play worker never outlives a killed render."""
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (AttributeError, OSError, ImportError):
        return False
    if prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) != 0:
        return False
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)  # the parent ended before the request was made
    return True


_PR_SET_PDEATHSIG = 1


def _child(
    work: Callable[[Progress | None], object],
    fd: int,
    parent: int,
    held: set[int | signal.Signals] | None = None,
    nice: int = 0,
) -> None:
    status = 1
    try:
        if nice:
            try:
                os.nice(nice)
            except OSError:
                pass  # not allowed here: the child runs at its parent's priority
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        # On SIGTERM the child just ends where the kernel ends its self-play workers with it
        # (die_with_parent); elsewhere it unwinds, so its pool ends them. Unwinding by an
        # exception may land where Python can only print it (an at-fork hook, a finaliser).
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if not die_with_parent(parent):
            signal.signal(signal.SIGTERM, _unwind)
        _release(held)  # the signals held across the fork reach the child's own handlers
        os.set_blocking(fd, False)

        def progress(done: int, total: int, label: str) -> None:
            frame = _frame(("progress", (done, total, label), ""))
            try:
                os.write(fd, frame)  # under PIPE_BUF: written whole or not at all
            except BlockingIOError:
                pass  # the parent is busy: this step is not shown

        try:
            message = ("value", work(progress), "")
        except BaseException as exc:  # noqa: B036 - every outcome goes back to the parent
            if not isinstance(exc, BoardgenError):
                exc.add_note("".join(traceback.format_exception(exc)))
            try:  # its class, arguments and attributes: rebuilt without calling __init__ again
                message = ("error", pickle.dumps((type(exc), exc.args, vars(exc))), str(exc))
            except Exception:
                message = ("error", b"", str(exc))
        os.set_blocking(fd, True)
        data = _frame(message)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        status = 0
    except BaseException:  # noqa: B036 - a broken pipe or a second signal: nothing to tell
        status = 1
    finally:
        os._exit(status)


def _rebuild(payload: object, text: str) -> BaseException:
    """The child's exception: its class with the same arguments and attributes (an __init__
    that takes other arguments than it keeps in `args` is not called again); where that
    cannot be done, a BoardgenError with its text."""
    try:
        kind, args, state = pickle.loads(payload)  # type: ignore[arg-type]
        error: BaseException = kind.__new__(kind, *args)
        error.args = args
        error.__dict__.update(state)
        return error
    except Exception:
        return BoardgenError(text)


def _unwind(_signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(1)


def _frame(message: tuple[str, object, str]) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(body)) + body


def _end(pid: int) -> None:
    """Ask the child to end (it unwinds and ends its workers), and wait for it."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    _reap(pid, _GRACE)


def _reap(pid: int, grace: float) -> int:
    """Wait for the child; kill it if it is still there after `grace` seconds."""
    import time

    deadline = time.monotonic() + grace
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return 0
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.005)


def worker_start(parent: int) -> None:
    """A worker process leaves interrupts to its parent and ends silently when its pool ends it
    or its parent ends (killed, say): it must not inherit a handler the parent set (the kit's,
    which raises)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)


# What the workers of the latest pool inherit (forked children see it; it is never pickled).
# Set just before a pool forks (a worker that replaces a dead one forks from it too), cleared
# when that pool closes.
_inherited: object = None


def _run(task: tuple[Callable[[Any, Any], Any], Any]) -> Any:
    function, argument = task
    if _inherited is None:
        raise RuntimeError("a worker started without a job")
    return function(_inherited, argument)


class Workers(Generic[J]):
    """`count` forked workers that inherit `job`; started by `start` (False where processes
    cannot be had: some sandboxes forbid them, and the caller then works by itself), ended by
    `close`. Use it as a context manager. `function` must be a module-level function (it is
    sent by name)."""

    def __init__(self, job: J, count: int) -> None:
        self.job, self.count = job, count
        self._pool: Any = None

    def start(self) -> bool:
        global _inherited
        if self._pool is not None:
            return True
        if self.count <= 1 or not can_fork():
            return False
        import multiprocessing

        _inherited = self.job
        try:
            # A Pool forks all its workers before starting its own threads.
            self._pool = multiprocessing.get_context("fork").Pool(self.count, worker_start, (os.getpid(),))
        except OSError:
            _inherited = None
            return False
        return True

    def imap_unordered(self, function: Callable[[J, A], R], tasks: Iterable[A]) -> Iterator[R]:
        """Each task's result, as the workers finish them."""
        if self._pool is None:
            raise RuntimeError("Workers.imap_unordered before start")
        results: Iterator[R] = self._pool.imap_unordered(_run, [(function, task) for task in tasks])
        return results

    def close(self) -> None:
        global _inherited
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
            if _inherited is self.job:
                _inherited = None

    def __enter__(self) -> Workers[J]:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
