"""Verdicts kept between renders: a layout and seed checked once are not checked again.

A person changing a colour, the paper or the language renders again; the playability
verdict cannot have changed, since it depends only on

- the layout as loaded (its whole data after ``extends``),
- the seed,
- the engine (its name and `version`) and the code that plays and judges it: a digest of
  boardgen's rules, model and engine sources, so a changed rule never meets an old verdict.

Those make the key. The verdict is the report's JSON, kept in the ``verdicts`` store of the
user's cache (boardgen.cache): signed with the user's own key, so an entry that is damaged,
edited, filed under another key or written by anyone else is ignored (and said to be, when
its signature is wrong) and the check runs again; it is never trusted.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from boardgen import __version__
from boardgen.cache import VERDICTS, canonical_json, digest

FORMAT = 3  # 3: signed entries of boardgen.cache
# The code a verdict depends on, relative to the package: the rules as played and judged.
SOURCES = ("engine.py", "engines", "rules", "checks", "model", "draws.py")


@cache
def code_digest() -> str:
    """A digest of every source file the rules and checks are made of."""
    package = Path(__file__).resolve().parent
    parts: list[str | bytes] = [__version__]
    for name in SOURCES:
        root = package / name
        for path in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            parts += [str(path.relative_to(package)), path.read_bytes()]
    return digest(*parts)


def verdict_key(engine_name: str, engine_version: str, layout_data: Any, seed: int) -> str | None:
    """The key of a layout's verdict; None when its data cannot be written down (nothing kept)."""
    layout = canonical_json(layout_data)
    if layout is None:
        return None
    return digest("verdict", str(FORMAT), code_digest(), engine_name, engine_version, str(seed), layout)


def load(key: str | None) -> dict[str, Any] | None:
    """The report kept under key, or None when there is none worth trusting."""
    payload = VERDICTS.read(key) if key is not None else None
    if payload is None:
        return None
    try:
        report = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    return report if isinstance(report, dict) else None


def store(key: str | None, report: dict[str, Any]) -> None:
    """Keep the report under key (written whole or not at all; failures are ignored)."""
    if key is not None:
        VERDICTS.write(key, json.dumps(report, ensure_ascii=False).encode("utf-8"))
