"""Work beside the main process (boardgen.processes): the value, the progress and the errors of
a forked child come back whole; a cancelled child ends with the workers it started; a render
interrupted while its check runs leaves no process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from processes import alive, carrying

from boardgen import processes
from boardgen.errors import BoardgenError, DataError, Problem
from boardgen.kit import check_workers
from boardgen.processes import Progress, Workers, available_cpus, beside, can_fork

pytestmark = pytest.mark.skipif(not can_fork(), reason="no fork on this platform")


@pytest.fixture(autouse=True)
def two_cpus_at_least(monkeypatch: pytest.MonkeyPatch) -> None:
    """`beside` forks only where a second CPU is free; these tests are about the child, so it
    is forked on a one-CPU machine too (or a process pinned to one CPU: `taskset -c 0`), where
    a test killing "the child" would otherwise kill pytest itself."""
    monkeypatch.setattr(processes, "available_cpus", lambda: max(2, available_cpus()))


def test_the_value_comes_back_with_the_progress_and_from_another_process() -> None:
    def work(progress: Progress | None) -> dict[str, object]:
        assert progress is not None
        for done in range(1, 4):
            progress(done, 3, "games")
        return {"pid": os.getpid(), "big": "x" * 200_000}  # more than a pipe holds at once

    seen: list[tuple[int, int, str]] = []
    value = beside(work).result(lambda done, total, label: seen.append((done, total, label)))
    assert value["pid"] != os.getpid()
    assert value["big"] == "x" * 200_000
    assert seen == [(1, 3, "games"), (2, 3, "games"), (3, 3, "games")]


def test_a_nice_child_runs_at_a_lower_priority_and_this_process_does_not() -> None:
    """A render's check runs `nice` (kit.CHECK_NICENESS) so the drawing beside it goes first."""
    mine = os.nice(0)
    assert beside(lambda _progress: os.nice(0), nice=5).result() == min(19, mine + 5)
    assert beside(lambda _progress: os.nice(0)).result() == mine
    assert os.nice(0) == mine


def test_an_error_of_the_child_is_raised_here_with_its_file_and_key() -> None:
    def work(_progress: Progress | None) -> None:
        raise DataError([Problem("layouts/games/x.toml", "board.size", "must be odd", 12)])

    with pytest.raises(DataError) as caught:
        beside(work).result()
    assert "layouts/games/x.toml:12" in str(caught.value) and "board.size" in str(caught.value)


def test_a_bug_in_the_child_keeps_its_traceback() -> None:
    def work(_progress: Progress | None) -> None:
        empty: dict[str, int] = {}
        empty["missing"]  # noqa: B018 - the bug

    with pytest.raises(KeyError) as caught:
        beside(work).result()
    assert any("Traceback" in note and "work" in note for note in getattr(caught.value, "__notes__", []))


class Awkward(Exception):
    """An exception whose __init__ wants other arguments than it keeps in `args`."""

    def __init__(self, what: str, where: int) -> None:
        super().__init__(f"{what} at {where}")
        self.where = where


def test_an_error_whose_init_differs_comes_back_as_it_was() -> None:
    def work(_progress: Progress | None) -> None:
        raise Awkward("odd", 3)

    with pytest.raises(Awkward) as caught:
        beside(work).result()
    assert str(caught.value) == "odd at 3" and caught.value.where == 3


def test_an_error_that_cannot_be_sent_keeps_its_message() -> None:
    def work(_progress: Progress | None) -> None:
        error = ValueError("no good")
        error.callback = lambda: None  # type: ignore[attr-defined]  # pickle cannot send it
        raise error

    with pytest.raises(BoardgenError, match="no good"):
        beside(work).result()


def test_a_child_that_dies_is_a_clear_error() -> None:
    def work(_progress: Progress | None) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    with pytest.raises(BoardgenError, match="ended without a verdict"):
        beside(work).result()


def test_without_fork_the_work_runs_here_when_asked() -> None:
    ran: list[int] = []

    def work(_progress: Progress | None) -> int:
        ran.append(os.getpid())
        return 7

    pending = beside(work, fork=False)
    assert ran == []
    assert pending.result() == 7 and ran == [os.getpid()]
    assert pending.result() == 7 and len(ran) == 1  # asked twice, done once


def test_cancel_ends_the_child_and_the_pool_it_started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pids = tmp_path / "pids"
    sent: list[tuple[int, int]] = []
    real_kill = os.kill

    def kill(pid: int, signum: int) -> None:  # every signal the parent sends, passed on
        sent.append((pid, signum))
        real_kill(pid, signum)

    def work(_progress: Progress | None) -> None:
        with Workers("job", 2) as pool:  # the self-play and solver workers' pool
            assert pool.start()
            workers = [p.pid for p in pool._pool._pool]
            pids.write_text(" ".join(map(str, [os.getpid(), *workers])))
            list(pool.imap_unordered(_sleep, [60, 60]))

    pending = beside(work)
    deadline = time.monotonic() + 120
    while not pids.exists() or len(pids.read_text().split()) < 3:
        assert time.monotonic() < deadline, "the child never started its pool"
        time.sleep(0.02)
    started = [int(p) for p in pids.read_text().split()]
    assert all(alive(pid) for pid in started)
    monkeypatch.setattr(os, "kill", kill)
    pending.cancel()
    monkeypatch.undo()
    # Ended by SIGTERM, not killed after the grace period (the parent sent no SIGKILL).
    assert sent == [(started[0], signal.SIGTERM)]
    deadline = time.monotonic() + 60
    while any(alive(pid) for pid in started):  # the workers go with their parent
        assert time.monotonic() < deadline, f"left running: {[p for p in started if alive(p)]}"
        time.sleep(0.02)
    with pytest.raises(BoardgenError, match="cancelled"):
        pending.result()


@pytest.mark.skipif(available_cpus() < 2, reason="with one CPU a render checks in its own process")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGKILL])
def test_a_render_ended_during_its_check_leaves_no_process(tmp_path: Path, signum: int) -> None:
    """A real `boardgen render` of a 9 x 9 layout (its check takes seconds) with an empty
    verdict cache, interrupted (SIGINT) or killed (SIGKILL) while its check (a child and its
    self-play workers) runs: within seconds no process that carries its unique output path
    is left (a killed render's child and workers are told by the kernel), and an interrupted
    one ends with the usual code and writes no kit."""
    layout = tmp_path / "nine.toml"
    made = subprocess.run(
        [sys.executable, "-m", "boardgen", "generate", "classic", "--size", "9", "-o", str(layout)],
        capture_output=True,
        cwd=tmp_path,
    )  # not the source tree: the installed package
    assert made.returncode == 0, made.stderr
    out = tmp_path / "unique-output-4d1f"
    env = dict(os.environ, BOARDGEN_CACHE_DIR=str(tmp_path / "cache"))
    # Files, not pipes: waiting for a pipe to close would wait for every process holding it.
    log = (tmp_path / "stderr").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgen", "render", str(layout), "-o", str(out)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        cwd=tmp_path,
    )

    def ours() -> list[int]:
        return carrying(str(out), but=proc.pid)

    # The checking child, and its self-play workers where it has more than one
    # (boardgen.kit.check_workers).
    workers = check_workers(beside_drawing=True)
    expected = 1 + (workers if workers > 1 else 0)
    deadline = time.monotonic() + 120
    while len(ours()) < expected:
        assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "stderr").read_text()
        time.sleep(0.02)
    proc.send_signal(signum)
    proc.wait(timeout=120)
    log.close()
    err = (tmp_path / "stderr").read_bytes()
    ended = time.monotonic()
    while ours():
        assert time.monotonic() - ended < 60, f"left running: {ours()}"
        time.sleep(0.02)
    if signum == signal.SIGINT:
        assert proc.returncode == 128 + signal.SIGINT, err
        assert b"Traceback" not in err
        assert not list(out.glob("*/*.pdf"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_a_process_that_asked_dies_with_its_parent(tmp_path: Path) -> None:
    """die_with_parent (self-play workers and the checking child call it): a grandchild that
    asked is ended by the kernel when its parent is killed, even busy in a long sleep; one
    that did not ask lives on."""
    from boardgen.processes import die_with_parent

    pids = tmp_path / "pids"

    def middle() -> None:  # forks the grandchildren, writes their pids, then waits to be killed
        children = []
        for asks in (True, False):
            pid = os.fork()
            if pid == 0:
                if asks:
                    die_with_parent(os.getppid())
                time.sleep(30)
                os._exit(0)
            children.append(pid)
        pids.write_text(" ".join(map(str, children)))
        time.sleep(30)

    parent = os.fork()
    if parent == 0:
        try:
            middle()
        finally:
            os._exit(0)
    deadline = time.monotonic() + 60
    while not pids.exists() or len(pids.read_text().split()) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    asked, unasked = map(int, pids.read_text().split())
    os.kill(parent, signal.SIGKILL)
    os.waitpid(parent, 0)
    deadline = time.monotonic() + 60
    while alive(asked):
        assert time.monotonic() < deadline, "the grandchild that asked outlived its parent"
        time.sleep(0.01)
    assert alive(unasked)
    os.kill(unasked, signal.SIGKILL)


def test_a_process_with_other_threads_does_the_work_itself() -> None:
    """Forking while another thread may hold a lock is unsafe: the work runs here instead."""
    import threading

    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert beside(lambda _progress: os.getpid()).result() == os.getpid()
    finally:
        release.set()
        other.join()
    assert beside(lambda _progress: os.getpid()).result() != os.getpid()


def _sleep(job: str, seconds: float) -> str:
    time.sleep(seconds)
    return job


def _where(job: tuple[str, int, Callable[[], None]], n: int) -> tuple[str, int, int, int]:
    return job[0], job[1] * n, os.getpid(), os.getppid()


def test_workers_inherit_their_job_and_run_each_task_once() -> None:
    """The job is inherited by the forked workers (the lambda inside it could not be pickled),
    every task is run once in a worker, and the pool's processes end with `close`."""
    job = ("board", 3, lambda: None)
    with Workers(job, 2) as pool:
        assert pool.start()
        workers = [p.pid for p in pool._pool._pool]
        got = sorted(pool.imap_unordered(_where, range(20)))
    assert [(name, value) for name, value, _, _ in got] == [("board", 3 * n) for n in range(20)]
    assert {pid for _, _, pid, _ in got} <= set(workers) and os.getpid() not in {pid for _, _, pid, _ in got}
    assert {parent for _, _, _, parent in got} == {os.getpid()}
    deadline = time.monotonic() + 60
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "the workers outlived close()"
        time.sleep(0.02)


def test_one_worker_is_no_pool() -> None:
    """Where a pool would hold one worker, or no process can be forked, `start` says so and the
    caller works by itself."""
    assert not Workers("job", 1).start()
