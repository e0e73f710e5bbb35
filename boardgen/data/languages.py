"""The languages a layout or theme has, and what a render in another language would miss.

A text in a data file is a table of language codes (BCP 47: a two-letter language, and maybe a
script or a region: ``es``, ``pt-BR``, ``sr-Latn``), ``{ en = "Labyrinth" }``. A
file may say which languages it has (``[game] languages = ["en"]``, ``[theme] languages``):
then every text it holds must give each of them. Without it, its languages are those all of
its texts share. A render asks only for the one language it prints in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from boardgen.data.toml_lines import line_of
from boardgen.errors import SHOWN_PROBLEMS, DataError, Problem

# BCP 47 as the data files can hold it: two letters (ISO 639-1), then maybe a script (Latn,
# Cyrl) and a region (BR, 419). "id" and "to" alone are keys of the data files (a treasure's id,
# a jump's target), so Indonesian and Tongan cannot be told from them and are left out.
LANGUAGE_PATTERN = r"^(?!(id|to)$)[a-z]{2}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$"
LANGUAGE_CODE = re.compile(LANGUAGE_PATTERN)


def normalise(code: str) -> str:
    """A code as written by hand (``pt-br``, ``PT_BR``) in its usual case: ``pt-BR``."""
    parts = code.replace("_", "-").split("-")
    out = [parts[0].lower()]
    for part in parts[1:]:
        out.append(part.title() if len(part) == 4 else part.upper())
    return "-".join(out)


# Where a file declares its languages, by kind of file.
DECLARED_AT = {"game": ("game", "languages"), "theme": ("theme", "languages")}


def is_text(value: Any) -> bool:
    """A table of language code -> string: how data files hold every printed text."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(k, str) and LANGUAGE_CODE.match(k) and isinstance(v, str) for k, v in value.items())
    )


def texts(data: Any, key: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], dict[str, str]]]:
    """Every text in the data, with its key path, in file order."""
    if is_text(data):
        yield key, data
    elif isinstance(data, dict):
        for sub, value in data.items():
            yield from texts(value, key + (sub,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from texts(value, key + (index,))


def declared(kind: str, data: dict[str, Any]) -> list[str] | None:
    """The languages the file says it has, or None where it does not say."""
    table, key = DECLARED_AT[kind]
    value = data.get(table, {}).get(key) if isinstance(data.get(table), dict) else None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def order(codes: set[str] | list[str]) -> list[str]:
    """English first, then the others in alphabetical order."""
    return sorted(set(codes), key=lambda code: (code != "en", code))


def languages(kind: str, data: dict[str, Any]) -> list[str]:
    """The languages the file has: those it declares, else those every text of it gives."""
    said = declared(kind, data)
    if said is not None:
        return order(said)
    shared: set[str] | None = None
    for _key, text in texts(data):
        shared = set(text) if shared is None else shared & set(text)
    return order(shared or set())


def _dotted(key: tuple[Any, ...]) -> str:
    out = ""
    for part in key:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def gaps(kind: str, data: dict[str, Any], lines: dict[tuple[Any, ...], int], shown: str) -> list[Problem]:
    """A problem for each text that lacks one of the languages the file declares."""
    said = declared(kind, data)
    if said is None:
        return []
    problems = []
    for key, text in texts(data):
        absent = [lang for lang in order(said) if lang not in text]
        if absent:
            names = ", ".join(repr(lang) for lang in absent)
            problems.append(
                Problem(
                    shown,
                    _dotted(key),
                    f"missing {names}: this file's languages are "
                    f"{', '.join(order(said))} ({_dotted(DECLARED_AT[kind])})",
                    line_of(lines, key),
                )
            )
    return problems


def missing(
    data: dict[str, Any],
    lang: str,
    lines: dict[tuple[Any, ...], int],
    shown: str,
    file_of: Callable[[tuple[Any, ...]], str] | None = None,
) -> list[Problem]:
    """A problem for each text of the file that has no `lang`, each at its key and line (and
    file: `file_of` names the file a key was read from, a deck's CSV)."""
    return [
        Problem(
            file_of(key) if file_of else shown,
            _dotted(key),
            f"no {lang!r} text (it has {', '.join(order(list(text)))})",
            line_of(lines, key),
        )
        for key, text in texts(data)
        if lang not in text
    ]


class LanguageError(DataError):
    """What a render in a language the data lacks would miss: a sentence, then each key."""

    def __init__(self, heading: str, problems: list[Problem]):
        self.heading = heading
        super().__init__(problems)

    def format(self) -> str:
        lines = [f"  {p}" for p in self.problems[:SHOWN_PROBLEMS]]
        if len(self.problems) > SHOWN_PROBLEMS:
            lines.append(f"  ... and {len(self.problems) - SHOWN_PROBLEMS} more")
        return "\n".join([getattr(self, "heading", ""), *lines])
