"""A live preview: a local page showing a game's board and a few pieces, redrawn on every edit.

`boardgen serve` draws the board and the first pieces of a kit as SVG, serves them with one
page on 127.0.0.1, and watches the files they come from (the layout, the theme and every
file in their folders: pictures, fonts, an extended theme). The page asks for the current
version twice a second; a change of any watched file redraws the pieces first, so the page
never shows a picture older than the files. A drawing error is shown on the page (the
message a render would print) instead of the last picture.

Only what it draws is served: the page, its state, the drawn SVGs and the bundled fonts,
all from memory under fixed names. Any other path gets 404; nothing is read from disk on a
request's say-so, so `..`, absolute paths and links lead nowhere. Only requests addressed to
this server by name (``Host: 127.0.0.1:PORT``, ``localhost:PORT`` or ``[::1]:PORT``) are
answered; any other Host gets 421 and nothing else, so a web page whose name was pointed at
127.0.0.1 (DNS rebinding) reads no path, board or picture. Requests are answered by a fixed
pool of threads, each connection given a few seconds, with room for hundreds waiting.
"""

from __future__ import annotations

import html
import json
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from boardgen.errors import BoardgenError

# How many pieces besides the board the page shows, and how far the watcher looks.
PIECES_SHOWN = 6
WATCH_MAX_FILES = 400
WATCH_MAX_DEPTH = 3
# Threads answering requests, seconds a connection may take, connections the system holds
# waiting to be accepted (the default of 5 left some of 200 simultaneous requests waiting 30 s).
WORKERS = 32
CONNECTION_SECONDS = 5
BACKLOG = 512

Drawer = Callable[[], dict[str, str]]


@dataclass
class Snapshot:
    """What the page shows now: a version number, the drawings or the error that replaced them."""

    version: int = 0
    svgs: dict[str, bytes] = field(default_factory=dict)
    error: str = ""


def watched_files(roots: list[Path]) -> Iterator[Path]:
    """Every regular file under the given files' folders, a bounded walk (links not followed)."""
    seen = 0
    for root in roots:
        base = root if root.is_dir() else root.parent
        for folder, dirs, files in os.walk(base, followlinks=False):
            depth = len(Path(folder).relative_to(base).parts)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and depth < WATCH_MAX_DEPTH
                             and d not in ("output", "__pycache__", ".venv"))
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
    """Redraws when the watched files change; thread-safe for several tabs at once."""

    def __init__(self, draw: Drawer, roots: list[Path]):
        self._draw = draw
        self._roots = roots
        self._lock = threading.Lock()
        self._seen: tuple[tuple[str, int, int], ...] | None = None
        self.snapshot = Snapshot()

    def current(self) -> Snapshot:
        """The snapshot for the files as they are now, redrawn first if any changed."""
        with self._lock:
            now = fingerprint(self._roots)
            if now != self._seen:
                self._seen = now
                self.snapshot = self._redraw(self.snapshot.version + 1)
            return self.snapshot

    def _redraw(self, version: int) -> Snapshot:
        try:
            drawings = self._draw()
        except BoardgenError as exc:
            return Snapshot(version, {}, exc.format())
        except RecursionError:
            return Snapshot(version, {}, "the data is nested too deeply to draw")
        return Snapshot(version, {name: text.encode("utf-8") for name, text in drawings.items()}, "")


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
<style>
{faces}
body {{ font-family: "DejaVu Sans", sans-serif; margin: 1rem; background: #f3f1ec; color: #1d1d1b; }}
header {{ display: flex; gap: 1rem; align-items: baseline; }}
#status {{ color: #6f6a60; font-size: .9rem; }}
#error {{ display: none; white-space: pre-wrap; background: #fde8e6; border: 2px solid #c8312b;
  padding: .8rem; font-family: monospace; }}
main {{ display: flex; gap: 1.5rem; align-items: flex-start; flex-wrap: wrap; }}
#board svg {{ width: min(70vw, 85vh); height: auto; background: white; box-shadow: 0 1px 4px #0003; }}
#pieces {{ display: flex; flex-wrap: wrap; gap: 1rem; max-width: 24rem; }}
#pieces svg {{ height: 160px; width: auto; max-width: 22rem; background: white; box-shadow: 0 1px 4px #0003; }}
</style></head>
<body><header><h1>{title}</h1><span id="status">loading</span></header>
<pre id="error"></pre><main><div id="board"></div><div id="pieces"></div></main>
<script>
let shown = -1;
async function svg(name, version) {{
  const reply = await fetch("/svg/" + encodeURIComponent(name) + ".svg?v=" + version);
  return reply.ok ? await reply.text() : "";
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
        const parts = await Promise.all(state.names.map(n => svg(n, state.version)));
        error.style.display = "none";
        document.getElementById("board").innerHTML = parts[0] || "";
        document.getElementById("pieces").innerHTML = parts.slice(1).join("");
      }}
      shown = state.version;
      document.body.dataset.version = String(shown);
      document.getElementById("status").textContent = "version " + shown + (state.error ? " (error)" : "");
    }}
  }} catch (e) {{
    document.getElementById("status").textContent = "server stopped";
  }}
  setTimeout(tick, 500);
}}
tick();
</script></body></html>
"""


def page_html(title: str, fonts: dict[str, tuple[str, bytes]]) -> bytes:
    faces = "\n".join(f'@font-face {{ font-family: "{family}"; src: url("/font/{file}"); }}'
                      for file, (family, _) in sorted(fonts.items()))
    return PAGE.format(title=html.escape(title), faces=faces).encode("utf-8")


def make_handler(preview: LivePreview, page: bytes,
                 fonts: dict[str, tuple[str, bytes]]) -> type[BaseHTTPRequestHandler]:
    """A request handler that answers from memory only."""

    class Handler(BaseHTTPRequestHandler):
        server_version = "boardgen"
        sys_version = ""
        timeout = CONNECTION_SECONDS  # the socket's: a silent or slow client is dropped

        def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
            if not self._addressed_to_us():
                return
            path = urlsplit(self.path).path
            if path == "/":
                self._send(page, "text/html; charset=utf-8")
            elif path == "/state":
                snap = preview.current()
                state = {"version": snap.version, "error": snap.error, "names": list(snap.svgs)}
                self._send(json.dumps(state).encode("utf-8"), "application/json")
            elif path.startswith("/svg/") and path.endswith(".svg"):
                data = preview.snapshot.svgs.get(path[len("/svg/"):-len(".svg")])
                self._send(data, "image/svg+xml") if data is not None else self._missing()
            elif path.startswith("/font/") and path[len("/font/"):] in fonts:
                self._send(fonts[path[len("/font/"):]][1], "font/ttf")
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
            if len(hosts) == 1 and hosts[0].strip().lower() in (f"127.0.0.1:{port}", f"localhost:{port}",
                                                                 f"[::1]:{port}"):
                return True
            self.send_error(HTTPStatus.MISDIRECTED_REQUEST, "this server answers only 127.0.0.1 / localhost")
            return False

        def _send(self, body: bytes, kind: str) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", kind)
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


class PooledHTTPServer(HTTPServer):
    """An HTTP server whose requests are answered by a fixed pool of threads (a thread per
    connection let 3,000 half-open connections hold 3,000 threads)."""

    request_queue_size = BACKLOG

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler],
                 workers: int = WORKERS) -> None:
        super().__init__(address, handler)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="boardgen-serve")

    def process_request(self, request: Any, client_address: Any) -> None:
        self._pool.submit(self._answer, request, client_address)

    def _answer(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:  # noqa: BLE001 - a client that went away: nothing to tell anyone
            pass
        finally:
            self.shutdown_request(request)

    def server_close(self) -> None:
        super().server_close()
        self._pool.shutdown(wait=False, cancel_futures=True)


def make_server(preview: LivePreview, title: str, port: int = 0) -> PooledHTTPServer:
    """A server on the loopback address only; port 0 lets the system choose a free one."""
    fonts = bundled_fonts()
    return PooledHTTPServer(("127.0.0.1", port), make_handler(preview, page_html(title, fonts), fonts))


def pick_pieces(files: dict[str, str], shown: int = PIECES_SHOWN) -> dict[str, str]:
    """The board first, then one piece of each kind before a second of any: tiles, cards, pawns."""
    board = {name: svg for name, svg in files.items() if name == "board"}
    rest = [name for name in files if name != "board"]
    kinds: dict[str, list[str]] = {}
    for name in rest:
        kinds.setdefault(name.split("-")[0], []).append(name)
    order: list[str] = []
    while len(order) < min(shown, len(rest)):
        for names in kinds.values():
            if names and len(order) < shown:
                order.append(names.pop(0))
    return {**board, **{name: files[name] for name in order}}


def kit_drawer(game: str, theme: str, lang: str, seed: int | None) -> Drawer:
    """Draw the board and the first pieces of GAME's kit, reading every file afresh."""

    def draw() -> dict[str, str]:
        from boardgen.data.strings import strings
        from boardgen.data.theme import load_theme
        from boardgen.engines import load_game

        strings(lang)
        engine, layout = load_game(game)
        look = load_theme(theme)
        kit = engine.kit()
        setup = kit.setup(layout, layout.default_seed if seed is None else seed)
        files: dict[str, str] = kit.draw(layout, look, setup, lang).files()
        return pick_pieces(files)

    return draw


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
