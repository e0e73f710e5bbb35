"""A render's check beside the drawing plays on the CPUs the drawing leaves (issue 38): one
fewer than there are where there are more than two (on two, both: the check outlasts the
drawing); alone (no child could be forked) on all of them."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest

from boardgen import kit, verdicts
from boardgen.engines import load_game
from boardgen.processes import Beside, available_cpus, can_fork


@pytest.mark.parametrize(("cpus", "beside", "alone"), [(1, 1, 1), (2, 2, 2), (3, 2, 3), (8, 7, 8)])
def test_the_check_beside_the_drawing_leaves_it_a_cpu(
    monkeypatch: pytest.MonkeyPatch, cpus: int, beside: int, alone: int
) -> None:
    monkeypatch.setattr(kit, "available_cpus", lambda: cpus)
    assert kit.check_workers(True) == beside
    assert kit.check_workers(False) == alone


def test_a_check_run_in_this_process_uses_every_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no child is forked (here: fork refused) the verdict is checked in the render's
    own process after the drawing, with nothing beside it: all the CPUs."""
    seen: list[int | None] = []

    def check(engine: Any, layout: Any, seed: int, *, progress: Any = None, workers: int | None = None) -> Any:
        seen.append(workers)
        raise RuntimeError("stop here")

    monkeypatch.setattr(kit, "check_layout", check)
    monkeypatch.setattr(kit, "available_cpus", lambda: 4)
    monkeypatch.setattr(kit, "beside", lambda work, nice=0: Beside(work, None, None))
    monkeypatch.setattr(verdicts, "verdict_key", lambda *args: None)
    engine, layout = load_game("classic")
    verdict = kit.Verdict(engine, layout, layout.default_seed, force=False)
    with pytest.raises(RuntimeError, match="stop here"):
        verdict.report()
    assert seen == [4]


def test_a_check_in_a_child_beside_the_drawing_leaves_the_drawing_a_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """The forked child (a real one) is told one CPU fewer; what it was told comes back
    through the child's own error."""

    def check(engine: Any, layout: Any, seed: int, *, progress: Any = None, workers: int | None = None) -> Any:
        raise RuntimeError(f"checked in {'a child' if os.getpid() != parent else 'the render'} with {workers}")

    parent = os.getpid()
    monkeypatch.setattr(kit, "check_layout", check)
    monkeypatch.setattr(kit, "available_cpus", lambda: 4)
    monkeypatch.setattr(verdicts, "verdict_key", lambda *args: None)
    if not can_fork() or available_cpus() < 2 or threading.active_count() > 1:
        pytest.skip("no child can be forked here")
    engine, layout = load_game("classic")
    verdict = kit.Verdict(engine, layout, layout.default_seed, force=False)
    with pytest.raises(Exception, match="checked in a child with 3"):
        verdict.report()
