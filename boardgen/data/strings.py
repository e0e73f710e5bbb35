"""Printed interface words in each supported language: one file per language,
layouts/strings/<code>.toml, is all boardgen needs to print in it (with the rules texts)."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from functools import cache
from typing import Any

from boardgen.data import files
from boardgen.data.languages import LANGUAGE_CODE, order
from boardgen.data.paths import layouts_root
from boardgen.errors import UsageError


def _available() -> tuple[str, ...]:
    """The languages with a strings file, English first."""
    codes = {path.stem for path in (layouts_root() / "strings").glob("*.toml") if LANGUAGE_CODE.match(path.stem)}
    return tuple(order(codes))


LANGUAGES = _available()


@cache
def strings(lang: str) -> dict[str, Any]:
    if lang not in LANGUAGES:
        raise UsageError(f"unknown language {lang!r}; available: {', '.join(LANGUAGES)}")
    path = layouts_root() / "strings" / f"{lang}.toml"
    return tomllib.loads(files.read_text(path))


def word(lang: str, key: str, **values: object) -> str:
    text: str = strings(lang)[key]
    return text.format(**values)


def noun(lang: str, key: str) -> str:
    """A heading word used inside a line ("34 × corridor tiles"): lower-cased, unless the
    language capitalises its nouns (``nouns_capitalised = true`` in its strings file, German)."""
    text = word(lang, key)
    return text if strings(lang).get("nouns_capitalised") else text.lower()


def counts(lang: str, values: Sequence[int]) -> str:
    """Player counts as a reader says them: a run as a range ("2-4"), others listed ("2 or 4")."""
    ordered = sorted(set(values))
    if len(ordered) > 1 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return word(lang, "count_range", low=ordered[0], high=ordered[-1])
    if len(ordered) == 1:
        return str(ordered[0])
    return word(lang, "list_sep").join(map(str, ordered[:-1])) + word(lang, "list_or") + str(ordered[-1])
