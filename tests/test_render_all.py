"""`render --all` renders games side by side in child processes (boardgen.kit.render_all): the
kits are byte for byte those of one-by-one renders, reported in order; the first error ends
the rest and is raised as it was; an interrupted run leaves no process and no half kit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import carrying

from boardgen.errors import DataError
from boardgen.kit import render_all, render_kit
from boardgen.options import KitOptions
from boardgen.processes import available_cpus, can_fork

pytestmark = pytest.mark.skipif(not can_fork(), reason="no fork on this platform")
BAD = Path(__file__).parent / "fixtures" / "bad" / "broken_syntax.toml"


def test_side_by_side_kits_are_those_of_one_by_one_renders(tmp_path: Path) -> None:
    games = ["walls", "classic", "grand"]
    options = KitOptions(previews=False, svg=False, check=False)  # the check has its own tests
    together = list(render_all(games, tmp_path / "together", options, at_once=2))
    assert [game for game, _, _ in together] == games
    for game, result, took in together:
        alone = render_kit(game, tmp_path / "alone", options)
        assert result.pdf.read_bytes() == alone.pdf.read_bytes()
        assert result.pages == alone.pages and took > 0


def test_the_first_error_is_raised_and_the_rest_are_not_made(tmp_path: Path) -> None:
    seen = []
    with pytest.raises(DataError) as caught:
        for game, _, _ in render_all(
            ["walls", str(BAD), "classic", "grand"],
            tmp_path,
            KitOptions(previews=False, svg=False, check=False),
            at_once=2,
        ):
            seen.append(game)
    assert seen == ["walls"]
    assert "broken_syntax.toml" in str(caught.value)
    assert not (tmp_path / "grand").exists()  # never started
    assert not list(tmp_path.glob(".*"))  # no staging folder left by the one cancelled


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.skipif(available_cpus() < 2, reason="with one CPU the kits are rendered one by one, in one process")
def test_an_interrupted_render_all_leaves_no_process_and_no_half_kit(tmp_path: Path) -> None:
    out = tmp_path / "unique-all-7c2e"
    env = dict(os.environ, BOARDGEN_CACHE_DIR=str(tmp_path / "cache"))
    log = (tmp_path / "stderr").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgen", "render", "--all", "-o", str(out)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        cwd=tmp_path,
    )

    def ours() -> list[int]:
        return carrying(str(out), but=proc.pid)

    deadline = time.monotonic() + 120
    while len(ours()) < 3:  # two renders and at least one check beside them
        assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "stderr").read_text()
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    log.close()
    ended = time.monotonic()
    while ours():
        assert time.monotonic() - ended < 60, f"left running: {ours()}"
        time.sleep(0.02)
    err = (tmp_path / "stderr").read_bytes()
    assert proc.returncode == 128 + signal.SIGINT, err
    assert b"Traceback" not in err
    assert not list(out.glob(".*")) if out.exists() else True  # no staging folder
    for kit in out.iterdir() if out.exists() else []:  # a kit finished before the interrupt is whole
        assert list(kit.glob("*.pdf")) and list(kit.glob("*-playability.json")), kit
