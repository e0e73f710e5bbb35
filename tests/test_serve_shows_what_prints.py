"""`serve` shows what will print: every piece on a zoomable contact sheet, the theme's own font,
the verdict and the accessibility summary after each save, and the PDF of the version shown;
followed in a real browser (headless Chromium) through an edit of a card and of a font."""

from __future__ import annotations

import http.client
import io
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_serve import chromium

from boardgen.data.fonts import fonts_root
from boardgen.data.loader import layouts_root
from boardgen.serve import LivePreview, kit_drawer, make_server, watch_roots

THEME = """[theme]
id = "mine"
name = { en = "Mine" }
extends = "classic"
"""


def touch(path: Path, text: str) -> None:
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    if path.stat().st_mtime_ns == before:
        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))


@pytest.fixture
def mine(tmp_path: Path) -> Iterator[tuple[int, Path, Path]]:
    """A copy of classic and a theme of one's own, served."""
    game = tmp_path / "mine-game.toml"
    touch(
        game,
        (layouts_root() / "games" / "classic.toml")
        .read_text(encoding="utf-8")
        .replace('id = "classic"', 'id = "mine-game"', 1),
    )
    theme = tmp_path / "mine.toml"
    touch(theme, THEME)
    preview = LivePreview(kit_drawer(str(game), str(theme), "en", None), watch_roots(str(game), str(theme)))
    server = make_server(preview, "mine", 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], game, theme
    finally:
        server.shutdown()
        server.server_close()


def get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path)
        reply = conn.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read()
    finally:
        conn.close()


@pytest.mark.skipif(
    chromium() is None and not os.environ.get("CI"),
    reason="Debian's chromium and chromium-driver are not installed (.ci/run installs them)",
)
def test_the_live_page_shows_every_piece_the_theme_font_and_the_verdict(mine, tmp_path: Path) -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    found = chromium()
    assert found is not None, "CI must have chromium and chromium-driver (see .ci/run)"
    port, game, theme = mine
    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=found[1]), options=options)
    js = driver.execute_script
    try:
        driver.get(f"http://127.0.0.1:{port}/")
        WebDriverWait(driver, 30).until(lambda d: js("return document.querySelectorAll('#pieces figure').length"))
        names = js("return Array.from(document.querySelectorAll('#pieces figure')).map(f => f.dataset.name)")
        # Every piece of the classic kit: 34 loose tiles, 24 cards, 4 pawns (and the back, the set-up).
        assert sum(n.startswith("tile-") for n in names) == 34
        assert sum(n.startswith("card-") and n != "card-back" for n in names) == 24
        assert sum(n.startswith("pawn-") for n in names) == 4 and "card-back" in names and "setup" in names
        # The verdict and the accessibility summary arrive beside the drawing.
        WebDriverWait(driver, 60).until(lambda d: js("return document.body.dataset.judged") == "1")
        verdict = js("return document.getElementById('verdict').textContent")
        assert verdict.startswith("Playability: passed (seed 1). Checked for 2-4 players: a game lasts about ")
        assert js("return document.getElementById('a11y').textContent").startswith("Accessibility: ")

        def moth_font(_: object = None) -> str:
            return str(
                js(
                    "const t = document.querySelector('figure[data-name=\"card-moth\"] svg text');"
                    "return t ? getComputedStyle(t).fontFamily + '|' + t.textContent : '';"
                )
            )

        assert "MyFont" not in moth_font() and "Luna moth" not in moth_font()
        # The edit: a font of the theme's own for the labels, and the last card renamed.
        (theme.parent / "fonts").mkdir()
        shutil.copy(fonts_root() / "DejaVuSerif.ttf", theme.parent / "fonts" / "MyFont.ttf")
        touch(theme, THEME + '\n[fonts]\nlabels = "fonts/MyFont.ttf"\n')
        touch(game, game.read_text(encoding="utf-8").replace('en = "Moth"', 'en = "Luna moth"'))
        WebDriverWait(driver, 30).until(lambda d: "Luna moth" in moth_font() and "MyFont" in moth_font())
        family = moth_font().split("|")[0]
        assert "DejaVu Serif MyFont" in family
        # The browser loaded the theme's own file for it (served from memory), not a fallback.
        WebDriverWait(driver, 30).until(
            lambda d: js(
                "return Array.from(document.fonts).some(f => f.family.includes('MyFont') && f.status === 'loaded')"
            )
        )
        version = js("return document.body.dataset.version")
        WebDriverWait(driver, 60).until(lambda d: js("return document.body.dataset.judged") == version)
        assert js("return document.getElementById('verdict').textContent").startswith("Playability: passed")
        # Zoom: the slider sizes the contact sheet, a click shows a piece large.
        js("const z = document.getElementById('zoom'); z.value = 300; z.dispatchEvent(new Event('input'));")
        height = js(
            "return document.querySelector('figure[data-name=\"card-moth\"] svg').getBoundingClientRect().height"
        )
        assert 295 <= height <= 305
        shot = tmp_path / "live.png"
        driver.save_screenshot(str(shot))
        keep = os.environ.get("BOARDGEN_KEEP_SCREENSHOT")
        if keep:
            shutil.copy(shot, keep)
        # The link gives the PDF of the version shown: the new card, the new font embedded.
        href = js("return document.getElementById('pdf').getAttribute('href')")
        assert href == f"/kit.pdf?v={version}"
        status, headers, body = get(port, href)
        assert status == 200 and body.startswith(b"%PDF") and "attachment" in headers["Content-Disposition"]
        from pypdf import PdfReader

        pdf = PdfReader(io.BytesIO(body))
        text = " ".join(page.extract_text() or "" for page in pdf.pages)
        assert "Luna moth" in " ".join(text.split())
        fonts = {str(f) for page in pdf.pages for f in (page.get("/Resources", {}).get("/Font", {}) or {}).values()}
        assert fonts  # the pages carry their fonts
    finally:
        driver.quit()


def test_the_verdict_never_holds_up_the_drawing(tmp_path: Path) -> None:
    """A judging that never ends leaves the page drawn, then a newer edit cancels it."""
    started = threading.Event()
    release = threading.Event()  # the verdicts come only when the test is done
    cancelled: list[int] = []

    class Slow:
        def __init__(self, n: int) -> None:
            self.n = n

        def result(self) -> tuple[str, str]:
            started.set()
            release.wait(600)
            return "late", ""

        def cancel(self) -> None:
            cancelled.append(self.n)

    from boardgen.serve import Drawn

    calls = iter(range(1, 100))
    watched = tmp_path / "watched.toml"
    touch(watched, "a")

    def draw() -> Drawn:
        n = next(calls)
        return Drawn({"board": f"<svg>{n}</svg>"}, judge=lambda: Slow(n))

    preview = LivePreview(draw, [watched])
    try:
        # No verdict can come before `release`: a page answered now was not held up by it.
        snap = preview.current()
        assert snap.svgs["board"] == b"<svg>1</svg>" and snap.judging and snap.verdict == ""
        assert started.wait(60)  # the judging did start, beside the drawing
        touch(watched, "b")
        snap = preview.current()
        assert snap.version == 2 and snap.svgs["board"] == b"<svg>2</svg>" and cancelled == [1]
    finally:
        release.set()
