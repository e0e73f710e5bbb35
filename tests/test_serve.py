"""The live preview: what it serves, what it refuses, and a real browser following an edit."""

from __future__ import annotations

import http.client
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardgen import serve
from boardgen.serve import LivePreview, kit_drawer, make_server, watch_roots

THEME = """[theme]
id = "mine"
name = {{ en = "Mine", fr = "Le mien" }}
extends = "classic"

[palette]
floor = "{floor}"
"""


def write_theme(folder: Path, floor: str, *, extra: str = "") -> Path:
    path = folder / "mine.toml"
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(THEME.format(floor=floor) + extra, encoding="utf-8")
    # Some file systems keep coarse times: make sure the edit is seen as one.
    if path.stat().st_mtime_ns == before:
        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))
    return path


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    theme = write_theme(tmp_path, "#f6e7b0")
    preview = LivePreview(kit_drawer("classic", str(theme), "en", None), watch_roots("classic", str(theme)))
    server = make_server(preview, "classic", 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], theme
    finally:
        server.shutdown()
        server.server_close()


def get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request("GET", path)
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def state(port: int) -> dict[str, object]:
    status, body = get(port, "/state")
    assert status == 200
    data: dict[str, object] = json.loads(body)
    return data


def test_serves_the_page_the_board_and_pieces(served: tuple[int, Path]) -> None:
    port, _ = served
    status, page = get(port, "/")
    assert status == 200 and b"<script>" in page
    now = state(port)
    assert now["error"] == ""
    names = now["names"]
    assert isinstance(names, list) and names[0] == "board" and len(names) > 3
    status, board = get(port, "/svg/board.svg")
    assert status == 200 and board.startswith(b"<?xml") or board.startswith(b"<svg")
    assert b"#f6e7b0" in board


@pytest.mark.parametrize(
    "path",
    [
        "/../setup.cfg",
        "/svg/../../setup.cfg",
        "/svg/%2e%2e/setup.cfg",
        "//etc/passwd",
        "/etc/passwd",
        "/svg/",
        "/svg/nothing.svg",
        "/font/../fonts.toml",
        "/font/",
        "/svg/board.svg/..",
        "/favicon.ico",
    ],
)
def test_anything_else_is_not_found(served: tuple[int, Path], path: str) -> None:
    port, _ = served
    status, body = get(port, path)
    assert status == 404
    assert b"[metadata]" not in body and b"root:" not in body


def raw_get(port: int, path: str, hosts: list[str]) -> tuple[int, bytes]:
    """A request with exactly these Host headers (none, one or several)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.putrequest("GET", path, skip_host=True)
        for host in hosts:
            conn.putheader("Host", host)
        conn.endheaders()
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


@pytest.mark.parametrize(
    "hosts",
    [
        ["attacker.example"],
        ["attacker.example:{port}"],
        ["127.0.0.1:1"],
        ["127.0.0.1"],
        ["localhost.attacker.example:{port}"],
        [],
        ["127.0.0.1:{port}", "attacker.example"],
    ],
)
def test_a_request_for_another_host_gets_nothing(served: tuple[int, Path], hosts: list[str]) -> None:
    """DNS rebinding: a page of attacker.example whose name now points at 127.0.0.1."""
    port, _ = served
    state(port)  # the drawings exist: a request that got through would get them
    for path in ("/", "/state", "/svg/board.svg", "/font/DejaVuSans.ttf", "/fonts.css", "/kit.pdf"):
        status, body = raw_get(port, path, [h.format(port=port) for h in hosts])
        assert status == 421, path
        assert b"<svg" not in body and b"version" not in body and b"<script>" not in body
        assert b"%PDF" not in body and b"@font-face" not in body


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "[::1]:{port}"])
def test_the_loopback_names_are_answered(served: tuple[int, Path], host: str) -> None:
    port, _ = served
    state(port)
    status, body = raw_get(port, "/svg/board.svg", [host.format(port=port)])
    assert status == 200 and b"<svg" in body


def test_two_hundred_simultaneous_requests_are_all_answered(served: tuple[int, Path]) -> None:
    """All at once, each allowed 10 s (the client's timeout), on a fixed pool of threads."""
    port, _ = served
    state(port)  # drawn once, before the crowd
    count = 200
    start = threading.Barrier(count)
    answers: list[int] = []
    errors: list[BaseException] = []
    threads_seen: list[int] = []

    def client(index: int) -> None:
        try:
            start.wait(30)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                conn.request("GET", "/state" if index % 2 else "/")
                reply = conn.getresponse()
                reply.read()
                answers.append(reply.status)
                threads_seen.append(sum(t.name.startswith("boardgen-serve") for t in threading.enumerate()))
            finally:
                conn.close()
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    clients = [threading.Thread(target=client, args=(i,)) for i in range(count)]
    for t in clients:
        t.start()
    for t in clients:
        t.join(60)
    assert not errors, errors[:3]
    assert answers == [200] * count
    assert max(threads_seen) <= serve.WORKERS


def test_a_silent_connection_is_dropped(served: tuple[int, Path]) -> None:
    port, _ = served
    silent = socket.create_connection(("127.0.0.1", port), timeout=30)
    try:
        silent.settimeout(serve.CONNECTION_SECONDS * 6)
        assert silent.recv(100) == b""  # the server closed it, without an answer
    finally:
        silent.close()


def test_three_hundred_dripping_connections_do_not_starve_a_normal_request(
    served: tuple[int, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """300 connections that send their head a byte at a time (and never end it) are read beside
    one another by one thread; a normal request is answered while every one of them is still
    held open, and a slow one is closed once its head is late. No sleeps and no clock: the drip
    is a byte on each, round after round, and each wait is for an event."""
    port, _ = served
    state(port)  # drawn once, before the crowd
    # Long enough that none of the 300 is late on any machine: each answer below must come while
    # all of them still wait (before, none came until the slow ones freed the 32 threads).
    monkeypatch.setattr(serve, "HEAD_SECONDS", 600.0)
    head = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode()
    slow = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(300)]
    watch = select.poll()
    for connection in slow:
        watch.register(connection, select.POLLIN | select.POLLHUP | select.POLLERR)
    answered = 0
    try:
        for round_ in range(len(head)):
            for connection in slow:
                connection.send(head[round_ : round_ + 1])
            if round_ % 10 == 9:
                status, page = get(port, "/")
                assert status == 200 and b"<script>" in page
                # The server sends the slow ones nothing: any event on one is its closing.
                assert watch.poll(0) == [], "a slow connection was let go before the answer"
                answered += 1
        assert answered >= 3
    finally:
        for connection in slow:
            connection.close()
    # A dripping head is closed, without an answer, once it is late (after 0.5 s here). The
    # server drops late heads in the order they came, so the patient 300 are gone first.
    monkeypatch.setattr(serve, "HEAD_SECONDS", 0.5)
    late = [socket.create_connection(("127.0.0.1", port), timeout=120) for _ in range(3)]
    try:
        for connection in late:
            connection.send(head[:5])
        for connection in late:
            assert connection.recv(100) == b""  # closed without an answer (a generous deadline)
    finally:
        for connection in late:
            connection.close()


def test_an_edit_is_drawn_and_an_error_replaces_the_picture(served: tuple[int, Path]) -> None:
    port, theme = served
    first = state(port)["version"]
    write_theme(theme.parent, "#12ab34")
    after = state(port)
    assert after["version"] != first and after["error"] == ""
    assert b"#12ab34" in get(port, "/svg/board.svg")[1]
    write_theme(theme.parent, "#12ab34", extra="flor = 1\n")
    broken = state(port)
    assert "flor" in str(broken["error"]) and broken["names"] == []
    assert get(port, "/svg/board.svg")[0] == 404  # never a stale picture


def test_many_tabs_and_rapid_edits(served: tuple[int, Path]) -> None:
    """Tabs may see a half-written file as an error for a moment, but always get an answer,
    and once the edits stop every tab sees the last one."""
    port, theme = served
    errors: list[BaseException] = []

    def tab() -> None:
        try:
            for _ in range(6):
                state(port)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    tabs = [threading.Thread(target=tab) for _ in range(5)]
    for t in tabs:
        t.start()
    for k in range(6):
        write_theme(theme.parent, f"#1{k}ab34")
        time.sleep(0.02)
    for t in tabs:
        t.join(60)
    assert not errors
    assert state(port)["error"] == ""
    assert b"#15ab34" in get(port, "/svg/board.svg")[1]


def test_ctrl_c_stops_it_cleanly(tmp_path: Path) -> None:
    # Run from elsewhere than the repository, so the installed boardgen is the one started.
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgen", "serve", "classic", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert "http://127.0.0.1:" in line
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in err
    assert proc.returncode == 0, err


def chromium() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.mark.skipif(
    chromium() is None and not os.environ.get("CI"),
    reason="Debian's chromium and chromium-driver are not installed (.ci/run installs them)",
)
def test_a_real_browser_follows_a_colour_change(served: tuple[int, Path], tmp_path: Path) -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    found = chromium()
    assert found is not None, "CI must have chromium and chromium-driver (see .ci/run)"
    browser, driver_path = found
    port, theme = served
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1200,1400",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        driver.get(f"http://127.0.0.1:{port}/")

        def floor_colours(_: object) -> str:
            return str(
                driver.execute_script(
                    "const s = document.querySelector('#board svg');"
                    "return s ? Array.from(s.querySelectorAll('[fill]')).map(e => e.getAttribute('fill'))"
                    ".join(' ') : '';"
                )
            )

        WebDriverWait(driver, 120).until(lambda d: "#f6e7b0" in floor_colours(d))
        version = driver.execute_script("return document.body.dataset.version")
        write_theme(theme.parent, "#12ab34")
        # The change is shown without a reload (the wait is for it, bounded generously).
        WebDriverWait(driver, 120).until(lambda d: "#12ab34" in floor_colours(d))
        assert driver.execute_script("return document.body.dataset.version") != version
        assert "#f6e7b0" not in floor_colours(driver)
        # The drawn page really shows it: sample the screenshot for the new colour.
        shot = tmp_path / "live.png"
        driver.save_screenshot(str(shot))
        from PIL import Image

        with Image.open(shot) as image:
            colours = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
        rgbs = [colour for _, colour in colours if isinstance(colour, tuple)]
        assert any(abs(r - 0x12) < 6 and abs(g - 0xAB) < 6 and abs(b - 0x34) < 6 for r, g, b in rgbs)
        keep = os.environ.get("BOARDGEN_KEEP_SCREENSHOT")
        if keep:
            shutil.copy(shot, keep)
    finally:
        driver.quit()
