"""Printed interface words in each supported language."""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from boardgen.data.paths import layouts_root
from boardgen.errors import UsageError

LANGUAGES = ("en", "fr")


@cache
def strings(lang: str) -> dict[str, Any]:
    if lang not in LANGUAGES:
        raise UsageError(f"unknown language {lang!r}; available: {', '.join(LANGUAGES)}")
    path = layouts_root() / "strings" / f"{lang}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def word(lang: str, key: str, **values: object) -> str:
    text: str = strings(lang)[key]
    return text.format(**values)
