"""Fuzz the cache and `serve` (issue 28): plant random and malicious entries, then send random
requests to a loopback preview server, and count what happened. Bounded: a fixed number of
rounds each, every read under a 5 s alarm; everything in temporary folders, loopback only.

Usage: python benchmarks/fuzz_cache_serve.py [--entries 3000] [--requests 2000] [--seed 1]

Cache: each round damages one store's entry in one of many ways (random bytes, a flipped or
cut entry, a pickle that would run a command, signed with a foreign key or with the user's own
key as if it had leaked, random JSON signed with the user's key, a FIFO, a link to /dev/zero or
out of the cache, a folder, a huge sparse file, a store or fan folder made 0777 or a link) and
reads it back as boardgen does. Counted: refused, accepted (only entries signed with the real
key can be), crashes (an exception out of a read: there must be none), hangs (the alarm: none),
code run (a marker file: never), files outside the cache removed by pruning (never).

serve: random methods, paths, Host headers (right, wrong, missing, doubled), headers, raw
garbage, half-open connections, in bursts of threads. Counted: answers by status; any answer
to a foreign Host that is not 421 or carries a drawing, the state or the page (must be 0); the
server's thread count (at most serve.WORKERS); a normal request answered at the end.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import random
import signal
import socket
import stat
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


class Hang(Exception):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise Hang


def exploit(marker: Path) -> bytes:
    """A protocol-4 pickle calling os.system through a dotted name inside an allowed module."""
    module, name, command = b"reportlab.pdfbase.ttfonts", b"os.system", f"touch {marker}".encode()

    def text(data: bytes) -> bytes:
        return b"\x8c" + bytes([len(data)]) + data

    return b"\x80\x04" + text(module) + text(name) + b"\x93" + text(command) + b"\x85R."


def random_json(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 6 or roll < 0.3:
        return rng.choice(
            [
                None,
                True,
                0,
                -1,
                1e308,
                -1e-308,
                2**70,
                "x",
                "",
                "Drawing",
                "Group",
                "\x00",
                "c",
                "t",
                3.5,
                "a" * rng.randrange(200),
            ]
        )
    if roll < 0.6:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(5))]
    keys = [
        "contents",
        "c",
        "t",
        "x",
        "fillColor",
        "_attrMap",
        "__class__",
        "__dict__",
        "kind",
        "fields",
        "playable",
        "reasons",
        "transform",
        "points",
        "svgid",
        "canv",
        "text",
    ]
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def shaped_drawing(rng: random.Random) -> Any:
    """Random JSON shaped like a kept drawing: [kind, {attributes}] nodes."""
    kinds = ["Drawing", "Group", "Rect", "Circle", "Path", "String", "Image", "NoStrokePath", "os.system", ""]

    def node(depth: int) -> Any:
        kind = rng.choice(kinds)
        state: dict[str, Any] = {}
        for _ in range(rng.randrange(5)):
            state[
                rng.choice(
                    [
                        "x",
                        "y",
                        "width",
                        "height",
                        "fillColor",
                        "strokeColor",
                        "points",
                        "transform",
                        "text",
                        "fontName",
                        "_attrMap",
                        "__class__",
                        "canv",
                        "contents",
                    ]
                )
            ] = random_json(rng, 4)
        if kind in ("Drawing", "Group") and depth < 4:
            state["contents"] = [node(depth + 1) for _ in range(rng.randrange(3))]
        return [kind, state]

    return node(0)


def fuzz_cache(rounds: int, seed: int) -> dict[str, int]:
    from boardgen import cache, verdicts
    from boardgen.render import drawing_cache, pdf

    rng = random.Random(seed)
    counts: collections.Counter[str] = collections.Counter()
    root = cache.root()
    outside = Path(tempfile.mkdtemp(prefix="fuzz-outside-"))
    precious = outside / "precious"
    precious.write_bytes(b"keep me")
    marker = outside / "ran"
    own = cache._secret()
    assert own is not None
    from reportlab.graphics.shapes import Drawing, Rect
    from reportlab.lib.colors import Color

    base = Drawing(20, 20)
    base.add(Rect(1, 2, 3, 4, fillColor=Color(0.1, 0.2, 0.3, 1)))
    stores = {
        "drawings": cache.DRAWINGS,
        "kit-svgs": cache.KIT_SVGS,
        "verdicts": cache.VERDICTS,
        "schema-passes": cache.SCHEMA_PASSES,
    }

    def readers(name: str, key: str) -> Any:
        if name == "drawings":
            return drawing_cache.load(key, substitutes=pdf._SVGLIB_PATHS)
        if name == "kit-svgs":
            return drawing_cache.load_svgs(key)
        if name == "verdicts":
            return verdicts.load(key)
        return cache.SCHEMA_PASSES.read(key)

    def fresh(name: str, key: str) -> None:
        if name == "drawings":
            drawing_cache.store(key, base, substitutes=pdf._SVGLIB_PATHS)
        elif name == "kit-svgs":
            drawing_cache.store_svgs(key, "Drawings", {"board": "<svg/>"})
        elif name == "verdicts":
            verdicts.store(key, {"playable": False, "reasons": ["fails"]})
        else:
            cache.SCHEMA_PASSES.write(key, b"")

    def signed(store: Any, key: str, payload: bytes, secret: bytes) -> bytes:
        mac = cache._sign(secret, store.name, key, payload).encode()
        return (
            b" ".join((cache.FORMAT, store.name.encode(), key.encode(), str(len(payload)).encode(), mac))
            + b"\n"
            + payload
        )

    damages = [
        "random-bytes",
        "flip",
        "truncate",
        "pickle-foreign",
        "pickle-own-key",
        "json-own-key",
        "shaped-own-key",
        "json-foreign",
        "fifo",
        "link-dev-zero",
        "link-outside",
        "folder",
        "huge",
        "fan-0777",
        "fan-link",
        "store-0777",
        "empty",
        "header-only",
        "other-key",
    ]
    signal.signal(signal.SIGALRM, _alarm)
    started = time.perf_counter()
    for round_ in range(rounds):
        name = rng.choice(list(stores))
        store = stores[name]
        key = f"{rng.getrandbits(256):064x}"
        fresh(name, key)
        path = root / name / key[:2] / key
        damage = rng.choice(damages)
        counts[f"damage {damage}"] += 1
        restore: list[tuple[Path, int]] = []
        relink: Path | None = None
        try:
            good = path.read_bytes() if path.exists() else b""
            if path.exists() or path.is_symlink():
                path.unlink()
            if damage == "random-bytes":
                path.write_bytes(rng.randbytes(rng.randrange(1, 4096)))
            elif damage == "flip":
                data = bytearray(good)
                if data:
                    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
                path.write_bytes(bytes(data))
            elif damage == "truncate":
                path.write_bytes(good[: rng.randrange(len(good) + 1)])
            elif damage == "pickle-foreign":
                path.write_bytes(signed(store, key, exploit(marker), rng.randbytes(32)))
            elif damage == "pickle-own-key":
                path.write_bytes(signed(store, key, exploit(marker), own))
            elif damage in ("json-own-key", "shaped-own-key", "json-foreign"):
                tree = shaped_drawing(rng) if damage == "shaped-own-key" else random_json(rng)
                payload = json.dumps(tree).encode()
                if name == "schema-passes":
                    payload = payload[:0] if rng.random() < 0.5 else payload
                path.write_bytes(signed(store, key, payload, own if "own" in damage else rng.randbytes(32)))
            elif damage == "fifo":
                os.mkfifo(path)
            elif damage == "link-dev-zero":
                path.symlink_to("/dev/zero")
            elif damage == "link-outside":
                path.symlink_to(precious)
            elif damage == "folder":
                path.mkdir()
            elif damage == "huge":
                with path.open("wb") as out:
                    out.truncate(store.max_bytes + 10_000_000)
            elif damage in ("fan-0777", "store-0777"):
                path.write_bytes(good)
                folder = path.parent if damage == "fan-0777" else path.parent.parent
                restore.append((folder, stat.S_IMODE(folder.stat().st_mode)))
                os.chmod(folder, 0o777)
            elif damage == "fan-link":
                path.write_bytes(good)
                fan = path.parent
                moved = fan.with_name(fan.name + ".real")
                fan.rename(moved)
                fan.symlink_to(moved)
                relink = fan
            elif damage == "empty":
                path.write_bytes(b"")
            elif damage == "header-only":
                path.write_bytes(good.partition(b"\n")[0])
            else:  # another key's whole entry filed here
                other = f"{rng.getrandbits(256):064x}"
                path.write_bytes(good.replace(key.encode(), other.encode()))
        except OSError:
            counts["could not plant"] += 1
            continue
        signal.alarm(5)
        try:
            got = readers(name, key)
            counts["accepted" if got is not None else "refused"] += 1
            if got is not None:
                counts[f"accepted after {damage} ({name})"] += 1
                if name == "drawings":  # a signed but odd drawing must still draw or fail cleanly
                    try:
                        pdf.svg_page  # noqa: B018 - the module is loaded; draw it on a canvas
                        from reportlab.pdfgen import canvas

                        from boardgen.render.pdf import _draw

                        _draw(got, canvas.Canvas(os.devnull), "Helvetica")
                        counts["odd signed drawing drawn"] += 1
                    except Exception:  # noqa: BLE001 - counted: needs the user's own key to happen
                        counts["odd signed drawing refused by reportlab"] += 1
        except Hang:
            counts["HANG"] += 1
        except Exception as exc:  # noqa: BLE001 - counted, must be 0
            counts["CRASH"] += 1
            counts[f"CRASH {type(exc).__name__}: {str(exc)[:80]}"] += 1
        finally:
            signal.alarm(0)
            for folder, mode in restore:
                os.chmod(folder, mode)
            if relink is not None:
                relink.unlink()
                relink.with_name(relink.name + ".real").rename(relink)
        if round_ % 500 == 499:
            signal.alarm(30)
            try:
                cache.prune(limit=0 if rng.random() < 0.5 else 1 << 30, keep=0)
                counts["prunes"] += 1
            except Hang:
                counts["HANG in prune"] += 1
            finally:
                signal.alarm(0)
    counts["code run (marker)"] = int(marker.exists())
    counts["outside file removed"] = int(not precious.exists())
    counts["seconds"] = round(time.perf_counter() - started)
    return dict(counts)


def fuzz_serve(requests: int, seed: int) -> dict[str, int]:
    from boardgen import serve
    from boardgen.serve import LivePreview, kit_drawer, make_server, watch_roots

    rng = random.Random(seed)
    counts: collections.Counter[str] = collections.Counter()
    preview = LivePreview(kit_drawer("classic", "classic", "en", None), watch_roots("classic", "classic"))
    server = make_server(preview, "classic", 0)
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    lock = threading.Lock()
    good_hosts = [f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"LocalHost:{port}"]
    bad_hosts = [
        "attacker.example",
        f"attacker.example:{port}",
        "127.0.0.1",
        "localhost",
        f"127.0.0.1:{port + 1}",
        f"127.0.0.1:{port}.evil",
        f" 127.0.0.1:{port}x",
        f"127.0.0.2:{port}",
        "",
        "\u00e9:1",
        f"localhost:{port}@evil",
        f"[::1]:{port}0",
    ]
    paths = [
        "/",
        "/state",
        "/svg/board.svg",
        "/font/DejaVuSans.ttf",
        "/fonts.css",
        "/kit.pdf",
        "/svg/../state",
        "/%2e%2e/etc/passwd",
        "//",
        "/svg/",
        "*",
        "/" + "a" * 5000,
        "/state?x=" + "%" * 50,
        "/svg/board.svg#x",
        "/\x7f",
    ]
    try:
        preview.current()
        max_threads = 0
        started = time.perf_counter()

        def one(index: int) -> None:
            nonlocal max_threads
            r = random.Random(seed * 1_000_003 + index)
            roll = r.random()
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
                    if roll < 0.05:  # half-open: connect, maybe send part of a request, then wait
                        if r.random() < 0.5:
                            sock.sendall(b"GET / HTTP/1.1\r\nHost: ")
                        reply = sock.recv(65536)
                        kind = "half-open closed by server" if reply == b"" else "half-open answered"
                        with lock:
                            counts[kind] += 1
                        return
                    if roll < 0.12:  # raw garbage
                        sock.sendall(r.randbytes(r.randrange(1, 2000)) + b"\r\n\r\n")
                        status, host_ok = _status(sock), None
                    else:
                        method = r.choice(["GET"] * 6 + ["HEAD", "POST", "PUT", "OPTIONS", "G\x00T", "get"])
                        path = r.choice(paths)
                        hosts = r.choice(
                            [[r.choice(good_hosts)]] * 3
                            + [[r.choice(bad_hosts)], [], [r.choice(good_hosts), r.choice(bad_hosts)]]
                        )
                        lines = [f"{method} {path} HTTP/1.{r.choice([0, 1])}"]
                        lines += [f"Host: {h}" for h in hosts]
                        for _ in range(r.randrange(3)):
                            lines.append(
                                r.choice(
                                    [
                                        "X-Forwarded-Host: 127.0.0.1",
                                        "Origin: http://attacker.example",
                                        "Content-Length: 5",
                                        "Connection: keep-alive",
                                        "A" * 70000 + ": b",
                                    ]
                                )
                            )
                        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "surrogateescape"))
                        host_ok = len(hosts) == 1 and hosts[0].lower() in [h.lower() for h in good_hosts]
                        status, body = _reply(sock)
                        if not host_ok and method in ("GET", "HEAD") and status not in (400, 414, 421, 431, None):
                            with lock:
                                counts["FOREIGN HOST ANSWERED"] += 1
                        shown = (b"<svg", b'"version"', b"<script>", b"%PDF", b"@font-face")
                        if not host_ok and any(mark in body for mark in shown):
                            with lock:
                                counts["FOREIGN HOST GOT CONTENT"] += 1
                    with lock:
                        counts[f"status {status}"] += 1
                        alive = sum(t.name.startswith("boardgen-serve") for t in threading.enumerate())
                        max_threads = max(max_threads, alive)
            except OSError as exc:
                with lock:
                    counts[f"client {type(exc).__name__}"] += 1

        done = 0
        while done < requests:
            burst = min(requests - done, rng.choice([1, 10, 50, 200]))
            clients = [threading.Thread(target=one, args=(done + i,)) for i in range(burst)]
            for c in clients:
                c.start()
            for c in clients:
                c.join(60)
            done += burst
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        conn.request("GET", "/state")
        counts[f"final request status {conn.getresponse().status}"] += 1
        conn.close()
        counts["max server threads"] = max_threads
        counts["workers allowed"] = serve.WORKERS
        counts["seconds"] = round(time.perf_counter() - started)
    finally:
        server.shutdown()
        server.server_close()
    return dict(counts)


def _reply(sock: socket.socket) -> tuple[int | None, bytes]:
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    if not data.startswith(b"HTTP/"):
        return None, data
    try:
        return int(data.split(b" ", 2)[1]), data
    except (IndexError, ValueError):
        return None, data


def _status(sock: socket.socket) -> int | None:
    return _reply(sock)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=3000)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fuzz-cache-") as tmp:
        os.environ["BOARDGEN_CACHE_DIR"] = str(Path(tmp) / "cache")
        os.environ["XDG_STATE_HOME"] = str(Path(tmp) / "state")
        import logging

        logging.getLogger("boardgen.cache").setLevel(logging.ERROR)  # the once-per-cause warnings
        results = {"cache": fuzz_cache(args.entries, args.seed), "serve": fuzz_serve(args.requests, args.seed)}
    for part, counts in results.items():
        print(f"== {part}")
        for name, count in sorted(counts.items()):
            print(f"  {name:<60} {count}")
    bad = [
        k
        for part in results.values()
        for k, v in part.items()
        if v and (k.startswith(("CRASH", "HANG", "FOREIGN")) or k in ("code run (marker)", "outside file removed"))
    ]
    if results["serve"].get("max server threads", 0) > results["serve"].get("workers allowed", 0):
        bad.append("too many server threads")
    print("findings: " + (", ".join(bad) if bad else "none"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
