"""Verdicts kept between renders: a layout and seed checked once are not checked again.

A person changing a colour, the paper or the language renders again; the playability
verdict cannot have changed, since it depends only on

- the layout as loaded (its whole data after ``extends``),
- the seed,
- the engine (its name and `version`) and the code that plays and judges it: a digest of
  boardgen's rules, model and engine sources, so a changed rule never meets an old verdict.

Those make a SHA-256 key. The verdict is the report's JSON, kept as
``<cache>/verdicts/<key>.json`` with its key and a digest of the report inside: an entry that
is unreadable, truncated, edited or filed under another key is ignored (and the check runs
again), never trusted. The cache is the folder named by ``BOARDGEN_CACHE_DIR``, else
``$XDG_CACHE_HOME/boardgen``, else ``~/.cache/boardgen``. Writing is best effort: a
read-only or full cache only means the next render checks again.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from boardgen import __version__

FORMAT = 2  # 2: reports state how self-play was sampled (stats["sampling"])
MAX_ENTRY_BYTES = 4 << 20
# The code a verdict depends on, relative to the package: the rules as played and judged.
SOURCES = ("engine.py", "engines", "rules", "checks", "model")


def cache_dir() -> Path:
    named = os.environ.get("BOARDGEN_CACHE_DIR")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "boardgen"


@cache
def code_digest() -> str:
    """A digest of every source file the rules and checks are made of."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256(__version__.encode())
    for name in SOURCES:
        root = package / name
        files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        for path in files:
            digest.update(str(path.relative_to(package)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def verdict_key(engine_name: str, engine_version: str, layout_data: Any, seed: int) -> str:
    material = {"format": FORMAT, "code": code_digest(), "engine": engine_name, "version": engine_version,
                "seed": seed, "layout": layout_data}
    blob = json.dumps(material, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _report_digest(report: Any) -> str:
    blob = json.dumps(report, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / "verdicts" / f"{key}.json"


def load(key: str) -> dict[str, Any] | None:
    """The report kept under key, or None when there is none worth trusting."""
    path = _path(key)
    try:
        if path.stat().st_size > MAX_ENTRY_BYTES:
            return None
        entry = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if not (isinstance(entry, dict) and entry.get("format") == FORMAT and entry.get("key") == key):
        return None
    report = entry.get("report")
    if not isinstance(report, dict) or entry.get("digest") != _report_digest(report):
        return None
    return report


def store(key: str, report: dict[str, Any]) -> None:
    """Keep the report under key (written whole or not at all; failures are ignored)."""
    path = _path(key)
    entry = {"format": FORMAT, "key": key, "digest": _report_digest(report), "report": report}
    keep(path, json.dumps(entry, ensure_ascii=False).encode("utf-8"))


def keep(path: Path, data: bytes) -> None:
    """Write one cache entry whole or not at all, best effort: it goes to a hidden file beside
    `path` and is renamed over it; a cache that cannot be written (read-only, full, gone) only
    means the work is done again next time."""
    temp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:16]}.", suffix=".part")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temp, path)
        temp = None
    except OSError:
        pass
    finally:
        if temp is not None:
            try:
                os.unlink(temp)
            except OSError:
                pass
