"""A live preview: a local page showing what will print, redrawn on every edit.

The page shows the board and every piece (cards, tiles, tokens, blocks, pawns) as a zoomable
contact sheet, in the theme's own fonts; the playability verdict and the accessibility
summary, judged beside the drawing after each save (the redraw never waits for them); and a
link to the PDF of the files as they are now.

`boardgen serve` draws every piece of a kit as SVG, serves them with one
page on 127.0.0.1, and watches the files they come from (the layout, the theme and every
file in their folders: pictures, fonts, an extended theme). The page asks for the current
version twice a second; a change of any watched file redraws the pieces first, so the page
never shows a picture older than the files. A drawing error is shown on the page (the
message a render would print) instead of the last picture.

Only what it draws is served: the page, its state, the drawn SVGs, the PDF, the bundled fonts
and the theme's own (those its loader checked), all from memory under fixed names. Any other
path gets 404; nothing is read from disk on a request's say-so, so `..`, absolute paths and
links lead nowhere. Only requests addressed to
this server by name (``Host: 127.0.0.1:PORT``, ``localhost:PORT`` or ``[::1]:PORT``) are
answered; any other Host gets 421 and nothing else, so a web page whose name was pointed at
127.0.0.1 (DNS rebinding) reads no path, board or picture. Requests are answered by a fixed
pool of threads, each connection given a few seconds, with room for hundreds waiting. A request's
head is read by one thread watching every connection at once (selectors), within HEAD_SECONDS and
HEAD_BYTES; only a whole head takes a thread of the pool, so connections that drip a byte at a
time (300 of them starved the 32 threads) wait beside the others without holding any.
"""

from __future__ import annotations

import html
import io
import json
import os
import selectors
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from boardgen.errors import BoardgenError

# How far the watcher looks.
WATCH_MAX_FILES = 400
WATCH_MAX_DEPTH = 3
# Threads answering requests, seconds a connection may take, connections the system holds
# waiting to be accepted (the default of 5 left some of 200 simultaneous requests waiting 30 s).
WORKERS = 32
CONNECTION_SECONDS = 5
BACKLOG = 512
# A request's head (request line and headers) must arrive whole within this many seconds and
# bytes; connections whose head is still arriving are at most HEADS_WAITING (the oldest is
# dropped for a new one). Every client of a loopback server is 127.0.0.1: a bound per client
# would be a bound on everyone, so the bound is on the time and size each connection may take.
HEAD_SECONDS = 5.0
HEAD_BYTES = 16 * 1024
HEADS_WAITING = 4096


class Job(Protocol):
    """Work running beside the page (the playability check): its result, waited for, or cancelled."""

    def result(self) -> tuple[str, str]: ...

    def cancel(self) -> None: ...


@dataclass
class Drawn:
    """What one drawing of the files gives: every SVG by name, the theme's own fonts (file name
    -> family and bytes), the verdict to judge beside the page and the PDF to make on request."""

    svgs: dict[str, str]
    fonts: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    judge: Callable[[], Job] | None = None
    pdf: Callable[[str], bytes] | None = None


Drawer = Callable[[], "dict[str, str] | Drawn"]


@dataclass
class Snapshot:
    """What the page shows now: a version number, the drawings or the error that replaced them,
    and, once judged, the verdict and the accessibility summary of that version."""

    version: int = 0
    svgs: dict[str, bytes] = field(default_factory=dict)
    error: str = ""
    fonts: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    verdict: str = ""
    accessibility: str = ""
    judging: bool = False


def watched_files(roots: list[Path]) -> Iterator[Path]:
    """Every regular file under the given files' folders, a bounded walk (links not followed)."""
    seen = 0
    for root in roots:
        base = root if root.is_dir() else root.parent
        for folder, dirs, files in os.walk(base, followlinks=False):
            depth = len(Path(folder).relative_to(base).parts)
            dirs[:] = sorted(
                d
                for d in dirs
                if not d.startswith(".") and depth < WATCH_MAX_DEPTH and d not in ("output", "__pycache__", ".venv")
            )
            for name in sorted(files):
                if name.startswith("."):
                    continue
                seen += 1
                if seen > WATCH_MAX_FILES:
                    return
                yield Path(folder) / name


def fingerprint(roots: list[Path]) -> tuple[tuple[str, int, int], ...]:
    """Name, modification time and size of every watched file: any edit changes it."""
    out = []
    for path in watched_files(roots):
        try:
            stat = path.stat()
        except OSError:
            continue
        out.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(out)


class LivePreview:
    """Redraws when the watched files change; thread-safe for several tabs at once. The verdict
    of each version is judged beside it (a thread waiting on the check's child process); a
    newer edit cancels the judging of an older one."""

    def __init__(self, draw: Drawer, roots: list[Path]):
        self._draw = draw
        self._roots = roots
        self._lock = threading.Lock()
        self._seen: tuple[tuple[str, int, int], ...] | None = None
        self.snapshot = Snapshot()
        self._drawn: Drawn | None = None
        self._job: Job | None = None
        self._pdf: tuple[int, str, bytes] | None = None
        self._pdf_lock = threading.Lock()

    def current(self) -> Snapshot:
        """The snapshot for the files as they are now, redrawn first if any changed."""
        with self._lock:
            now = fingerprint(self._roots)
            if now != self._seen:
                self._seen = now
                self.snapshot = self._redraw(self.snapshot.version + 1)
            return self.snapshot

    def _redraw(self, version: int) -> Snapshot:
        if self._job is not None:
            self._job.cancel()
            self._job = None
        self._drawn = None
        try:
            drawn = self._draw()
        except BoardgenError as exc:
            return Snapshot(version, {}, exc.format())
        except RecursionError:
            return Snapshot(version, {}, "the data is nested too deeply to draw")
        if not isinstance(drawn, Drawn):
            drawn = Drawn(drawn)
        self._drawn = drawn
        snap = Snapshot(
            version,
            {name: text.encode("utf-8") for name, text in drawn.svgs.items()},
            "",
            dict(drawn.fonts),
            judging=drawn.judge is not None,
        )
        if drawn.judge is not None:
            try:
                job = drawn.judge()
            except BoardgenError as exc:
                snap.verdict, snap.judging = exc.format(), False
            else:
                self._job = job
                threading.Thread(target=self._judged, args=(version, job), daemon=True, name="boardgen-judge").start()
        return snap

    def _judged(self, version: int, job: Job) -> None:
        """Wait for the verdict of `version` and show it, unless a newer edit replaced it."""
        try:
            verdict, accessibility = job.result()
        except BoardgenError as exc:
            verdict, accessibility = exc.format(), ""
        except Exception as exc:  # noqa: BLE001 - a cancelled check: a newer version is judged
            verdict, accessibility = f"not judged ({type(exc).__name__})", ""
        with self._lock:
            if self.snapshot.version == version:
                self.snapshot = replace(self.snapshot, verdict=verdict, accessibility=accessibility, judging=False)

    def pdf(self) -> tuple[str, bytes] | None:
        """The PDF of the version shown (file name and bytes), made on the first request of it."""
        snap = self.current()
        drawn = self._drawn
        if drawn is None or drawn.pdf is None or snap.error:
            return None
        with self._pdf_lock:
            if self._pdf is not None and self._pdf[0] == snap.version:
                return self._pdf[1], self._pdf[2]
            try:
                data = drawn.pdf(snap.verdict)
            except BoardgenError:
                return None
            name = f"preview-v{snap.version}.pdf"
            self._pdf = (snap.version, name, data)
            return name, data


def bundled_fonts() -> dict[str, tuple[str, bytes]]:
    """The bundled TrueType fonts by family, so the browser draws text as the PDF does."""
    import tomllib

    folder = Path(str(resources.files("boardgen.fonts")))
    listing = tomllib.loads((folder / "fonts.toml").read_text(encoding="utf-8"))
    fonts: dict[str, tuple[str, bytes]] = {}
    for entry in listing.get("font", []):
        file = Path(entry["file"]).name
        fonts[file] = (entry["family"], (folder / file).read_bytes())
    return fonts


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>boardgen - {title}</title>
<link id="faces" rel="stylesheet" href="/fonts.css?v=0">
<style>
body {{ font-family: "DejaVu Sans", sans-serif; margin: 1rem; background: #f3f1ec; color: #1d1d1b; }}
header {{ display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; }}
header h1 {{ margin: 0 0 .3rem 0; }}
#status {{ color: #6f6a60; font-size: .9rem; }}
#verdict, #a11y {{ margin: .2rem 0; max-width: 75rem; }}
#verdict.checking {{ color: #6f6a60; }}
#error {{ display: none; white-space: pre-wrap; background: #fde8e6; border: 2px solid #c8312b;
  padding: .8rem; font-family: monospace; }}
main {{ display: flex; gap: 1.5rem; align-items: flex-start; margin-top: .8rem; }}
#board svg {{ width: min(50vw, 85vh); height: auto; background: white; box-shadow: 0 1px 4px #0003; }}
#sheet {{ flex: 1; min-width: 16rem; }}
#sheet label {{ font-size: .9rem; }}
#pieces {{ display: flex; flex-wrap: wrap; gap: .6rem; margin-top: .5rem; }}
#pieces figure {{ margin: 0; text-align: center; font-size: .7rem; color: #6f6a60; cursor: zoom-in; }}
#pieces svg {{ height: var(--piece, 110px); width: auto; max-width: 100%; background: white;
  box-shadow: 0 1px 4px #0003; display: block; }}
#pieces figure.zoomed {{ position: fixed; inset: 1rem; z-index: 5; background: #f3f1ecf0; cursor: zoom-out;
  display: flex; flex-direction: column; align-items: center; justify-content: center; }}
#pieces figure.zoomed svg {{ height: 85vh; max-width: 95vw; }}
</style></head>
<body><header><h1>{title}</h1><span id="status">loading</span>
<a id="pdf" href="/kit.pdf" download>Download the PDF of this version</a></header>
<p id="verdict" class="checking">Playability: checking...</p><p id="a11y"></p>
<pre id="error"></pre>
<main><div id="board"></div><section id="sheet"><label>Zoom
<input id="zoom" type="range" min="50" max="500" value="110"></label> <span id="count"></span>
(click a piece to see it large)<div id="pieces"></div></section></main>
<script>
let shown = -1;
async function svg(name, version) {{
  const reply = await fetch("/svg/" + encodeURIComponent(name) + ".svg?v=" + version);
  return reply.ok ? await reply.text() : "";
}}
function escaped(text) {{
  const span = document.createElement("span"); span.textContent = text; return span.innerHTML;
}}
document.getElementById("zoom").addEventListener("input", e => {{
  document.documentElement.style.setProperty("--piece", e.target.value + "px");
}});
document.getElementById("pieces").addEventListener("click", e => {{
  const figure = e.target.closest("figure");
  if (figure) figure.classList.toggle("zoomed");
}});
function judged(state) {{
  const verdict = document.getElementById("verdict");
  verdict.textContent = state.judging ? "Playability: checking..." : "Playability: " + (state.verdict || "-");
  verdict.className = state.judging ? "checking" : "";
  document.getElementById("a11y").textContent = state.accessibility || "";
  document.body.dataset.judged = state.judging ? "" : String(state.version);
}}
async function tick() {{
  try {{
    const state = await (await fetch("/state", {{cache: "no-store"}})).json();
    if (state.version !== shown) {{
      const error = document.getElementById("error");
      if (state.error) {{
        error.textContent = state.error; error.style.display = "block";
        document.getElementById("board").innerHTML = "";
        document.getElementById("pieces").innerHTML = "";
      }} else {{
        document.getElementById("faces").href = "/fonts.css?v=" + state.version;
        const parts = await Promise.all(state.names.map(n => svg(n, state.version)));
        error.style.display = "none";
        document.getElementById("board").innerHTML = parts[0] || "";
        document.getElementById("pieces").innerHTML = state.names.slice(1).map((n, i) =>
          '<figure data-name="' + escaped(n) + '">' + parts[i + 1] + "<figcaption>" + escaped(n)
          + "</figcaption></figure>").join("");
        document.getElementById("count").textContent = (state.names.length - 1) + " pieces";
      }}
      shown = state.version;
      document.body.dataset.version = String(shown);
      document.getElementById("status").textContent = "version " + shown + (state.error ? " (error)" : "");
      document.getElementById("pdf").href = "/kit.pdf?v=" + shown;
    }}
    judged(state);
  }} catch (e) {{
    document.getElementById("status").textContent = "server stopped";
  }}
  setTimeout(tick, 500);
}}
tick();
</script></body></html>
"""


def page_html(title: str, fonts: dict[str, tuple[str, bytes]] | None = None) -> bytes:
    """The page; its fonts come from /fonts.css, which follows the theme."""
    return PAGE.format(title=html.escape(title)).encode("utf-8")


def font_faces(fonts: dict[str, tuple[str, bytes]]) -> bytes:
    """@font-face rules for every font served (file name -> family), the bundled and the theme's."""
    return "\n".join(
        f'@font-face {{ font-family: "{family.replace(chr(34), "")}"; src: url("/font/{file}"); }}'
        for file, (family, _) in sorted(fonts.items())
    ).encode("utf-8")


def make_handler(
    preview: LivePreview, page: bytes, fonts: dict[str, tuple[str, bytes]]
) -> type[BaseHTTPRequestHandler]:
    """A request handler that answers from memory only."""

    class Handler(BaseHTTPRequestHandler):
        server_version = "boardgen"
        sys_version = ""
        timeout = CONNECTION_SECONDS  # the socket's: a silent or slow client is dropped

        def setup(self) -> None:
            super().setup()
            if isinstance(self.server, PooledHTTPServer):
                # The head was read already (HeadReader): the handler reads it from memory.
                self.rfile = io.BytesIO(self.server.head_of(self.connection))

        def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
            if not self._addressed_to_us():
                return
            path = urlsplit(self.path).path
            if path == "/":
                self._send(page, "text/html; charset=utf-8")
            elif path == "/state":
                snap = preview.current()
                state = {
                    "version": snap.version,
                    "error": snap.error,
                    "names": list(snap.svgs),
                    "verdict": snap.verdict,
                    "accessibility": snap.accessibility,
                    "judging": snap.judging,
                }
                self._send(json.dumps(state).encode("utf-8"), "application/json")
            elif path.startswith("/svg/") and path.endswith(".svg"):
                data = preview.snapshot.svgs.get(path[len("/svg/") : -len(".svg")])
                self._send(data, "image/svg+xml") if data is not None else self._missing()
            elif path == "/fonts.css":
                self._send(font_faces({**fonts, **preview.snapshot.fonts}), "text/css; charset=utf-8")
            elif path.startswith("/font/"):
                served = {**fonts, **preview.snapshot.fonts}.get(path[len("/font/") :])
                self._send(served[1], "font/ttf") if served is not None else self._missing()
            elif path == "/kit.pdf":
                made = preview.pdf()
                if made is None:
                    self._missing()
                else:
                    self._send(made[1], "application/pdf", download=made[0])
            else:
                self._missing()

        def do_HEAD(self) -> None:  # noqa: N802
            if self._addressed_to_us():
                self._missing()

        def _addressed_to_us(self) -> bool:
            """Whether the request names this server (Host); if not, it is answered 421 only."""
            address = self.server.server_address
            port = address[1] if isinstance(address, tuple) else None
            hosts = self.headers.get_all("Host") or []
            if len(hosts) == 1 and hosts[0].strip().lower() in (
                f"127.0.0.1:{port}",
                f"localhost:{port}",
                f"[::1]:{port}",
            ):
                return True
            self.send_error(HTTPStatus.MISDIRECTED_REQUEST, "this server answers only 127.0.0.1 / localhost")
            return False

        def _send(self, body: bytes, kind: str, *, download: str | None = None) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", kind)
            if download is not None:
                self.send_header("Content-Disposition", f'attachment; filename="{download}"')
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # a tab closed mid-answer: nothing to do

        def _missing(self) -> None:
            self.send_error(HTTPStatus.NOT_FOUND, "not found")

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (base signature)
            pass  # quiet: the terminal shows only what the person needs

    return Handler


class HeadReader:
    """One thread reading the heads of every new connection at once, without blocking: a
    connection whose head is whole (a blank line ends it) goes to `ready`; one that is silent or
    slow past HEAD_SECONDS, or sends more than HEAD_BYTES without ending its head, is closed."""

    def __init__(self, ready: Callable[[socket.socket, bytes], None]) -> None:
        self._ready = ready
        self._selector = selectors.DefaultSelector()
        self._waiting: dict[socket.socket, tuple[float, bytearray]] = {}  # in arrival order
        self._new: list[socket.socket] = []
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._stopped = False
        self._thread = threading.Thread(target=self._loop, name="boardgen-heads", daemon=True)
        self._thread.start()

    def add(self, connection: socket.socket) -> None:
        with self._lock:
            self._new.append(connection)
        self._wake()

    def _wake(self) -> None:
        try:
            self._wake_w.send(b"\0")
        except (BlockingIOError, OSError):
            pass  # a wake-up is already waiting, or the reader is stopped

    def stop(self) -> None:
        self._stopped = True
        self._wake()
        self._thread.join(5)
        for connection in list(self._waiting) + self._new:
            _close(connection)
        self._waiting.clear()
        self._selector.close()
        self._wake_r.close()
        self._wake_w.close()

    def _loop(self) -> None:
        while not self._stopped:
            self._take_new()
            self._drop_late(time.monotonic())
            for key, _ in self._selector.select(timeout=0.25):
                if key.fileobj is self._wake_r:
                    try:
                        self._wake_r.recv(4096)
                    except OSError:
                        pass
                    continue
                connection = key.fileobj
                if isinstance(connection, socket.socket):
                    self._read(connection)

    def _take_new(self) -> None:
        with self._lock:
            new, self._new = self._new, []
        now = time.monotonic()
        for connection in new:
            if len(self._waiting) >= HEADS_WAITING:
                self._drop(next(iter(self._waiting)))
            try:
                connection.setblocking(False)
                self._selector.register(connection, selectors.EVENT_READ)
            except (OSError, ValueError):
                _close(connection)
                continue
            self._waiting[connection] = (now + HEAD_SECONDS, bytearray())

    def _drop_late(self, now: float) -> None:
        for connection, (deadline, _) in list(self._waiting.items()):
            if deadline > now:
                break  # arrival order: every later one has a later deadline
            self._drop(connection)

    def _drop(self, connection: socket.socket) -> None:
        self._waiting.pop(connection, None)
        try:
            self._selector.unregister(connection)
        except (KeyError, ValueError):
            pass
        _close(connection)

    def _read(self, connection: socket.socket) -> None:
        try:
            chunk = connection.recv(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._drop(connection)
            return
        _, head = self._waiting[connection]
        head += chunk
        if b"\r\n\r\n" in head or b"\n\n" in head:
            self._waiting.pop(connection)
            self._selector.unregister(connection)
            connection.setblocking(True)
            self._ready(connection, bytes(head))
        elif len(head) > HEAD_BYTES:
            try:
                connection.send(b"HTTP/1.0 431 Request Header Fields Too Large\r\nContent-Length: 0\r\n\r\n")
            except OSError:
                pass
            self._drop(connection)


def _close(connection: socket.socket) -> None:
    try:
        connection.close()
    except OSError:
        pass


class PooledHTTPServer(HTTPServer):
    """An HTTP server whose requests are answered by a fixed pool of threads (a thread per
    connection let 3,000 half-open connections hold 3,000 threads), each request's head read
    first by the HeadReader, so that no thread of the pool waits on a slow client's head."""

    request_queue_size = BACKLOG

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], workers: int = WORKERS) -> None:
        super().__init__(address, handler)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="boardgen-serve")
        self._heads: dict[socket.socket, bytes] = {}
        self._heads_lock = threading.Lock()
        self._reader = HeadReader(self._head_read)

    def process_request(self, request: Any, client_address: Any) -> None:
        self._reader.add(request)

    def _head_read(self, request: socket.socket, head: bytes) -> None:
        with self._heads_lock:
            self._heads[request] = head
        try:
            self._pool.submit(self._answer, request, request.getpeername())
        except (RuntimeError, OSError):  # the pool is shut down, or the client already gone
            self.head_of(request)
            _close(request)

    def head_of(self, request: socket.socket) -> bytes:
        """The head read for this connection (once: it is forgotten as it is handed over)."""
        with self._heads_lock:
            return self._heads.pop(request, b"")

    def _answer(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:  # noqa: BLE001 - a client that went away: nothing to tell anyone
            pass
        finally:
            self.head_of(request)
            self.shutdown_request(request)

    def server_close(self) -> None:
        super().server_close()
        self._reader.stop()
        self._pool.shutdown(wait=False, cancel_futures=True)


def make_server(preview: LivePreview, title: str, port: int = 0) -> PooledHTTPServer:
    """A server on the loopback address only; port 0 lets the system choose a free one."""
    fonts = bundled_fonts()
    return PooledHTTPServer(("127.0.0.1", port), make_handler(preview, page_html(title, fonts), fonts))


def kit_drawer(game: str, theme: str, lang: str, seed: int | None) -> Drawer:
    """Draw every piece of GAME's kit, reading every file afresh, with the theme's own fonts,
    the verdict to judge beside the page and the PDF to make on request."""

    def draw() -> Drawn:
        from boardgen.data.strings import forget, strings
        from boardgen.data.theme import load_theme
        from boardgen.engines import load_game
        from boardgen.kits.glyphs import check_glyphs
        from boardgen.kits.rules_text import check_language

        forget()  # a strings file beside the layout may be what was just edited
        strings(lang)
        engine, layout = load_game(game)
        check_language(layout, engine.name, lang)
        look = load_theme(theme)
        check_glyphs(look, layout, lang)
        kit = engine.kit()
        chosen = layout.default_seed if seed is None else seed
        start = kit.setup(layout, chosen)
        files: dict[str, str] = kit.draw(layout, look, start, lang).files()
        svgs = {"board": files["board"], **{name: svg for name, svg in files.items() if name != "board"}}
        fonts = {
            f"theme-{index}-{path.stem[:40]}.ttf": (family, path.read_bytes())
            for index, (family, path) in enumerate(sorted(look.font_files.items()))
        }

        def judge() -> Job:
            return _Judging(engine, layout, look, chosen, lang)

        def pdf(verdict: str) -> bytes:
            from boardgen.kit import draw_kit
            from boardgen.options import KitOptions, check_kit_options

            options = KitOptions(theme=theme, lang=lang, seed=seed, previews=False, svg=False, check=False)
            check_kit_options(options)
            drawings = draw_kit(kit, layout, look, start, chosen, lang)
            pieces = kit.catalogue(layout, drawings)
            return kit.build_pdf(layout, look, start, drawings, pieces, options, summary=verdict).data

        return Drawn(svgs, fonts, judge, pdf)

    return draw


class _Judging:
    """The playability check of one version in a child process (the verdict kept from an
    earlier check is reused at once), and the accessibility of its colours."""

    def __init__(self, engine: Any, layout: Any, theme: Any, seed: int, lang: str) -> None:
        from boardgen.kit import Verdict

        self._layout, self._theme, self._lang = layout, theme, lang
        self._groups = engine.colour_groups(layout, theme)
        self._verdict = Verdict(engine, layout, seed, force=True)

    def result(self) -> tuple[str, str]:
        from boardgen.checks.accessibility import check_colours
        from boardgen.checks.words import said_verdict

        said = said_verdict(self._verdict.report(), self._lang, self._layout)
        try:
            colours = check_colours(self._theme, self._groups).cover_line(self._lang)
        except BoardgenError as exc:
            colours = exc.format()
        return said, colours

    def cancel(self) -> None:
        self._verdict.cancel()


def watch_roots(game: str, theme: str) -> list[Path]:
    """The files a live page follows: the layout's and the theme's, with their folders."""
    from boardgen.data.loader import resolve

    roots = []
    for kind, name in (("game", game), ("theme", theme)):
        try:
            roots.append(resolve(kind, name))
        except BoardgenError:
            continue  # the page shows the same error from the drawing
    return roots
