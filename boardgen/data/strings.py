"""Printed interface words in each language: one strings file per language is all boardgen
needs to print in it (with the rules texts).

A language's strings file is looked for, first found wins:

1. beside the user's layout being printed: ``strings.<lang>.toml`` in its folder;
2. in the user's data folder: ``$XDG_DATA_HOME/boardgen/strings/<lang>.toml`` (by default
   ``~/.local/share/boardgen/strings/<lang>.toml``);
3. among the bundled ones, layouts/strings/<lang>.toml (English, French, German).

Nothing is ever written into the package: a new language lives in 1 or 2. A file that lacks
some of English's keys prints only with a fallback language (``--fallback en``), key by key,
and says which keys fell back (`fell_back`).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from boardgen.data import files
from boardgen.data.languages import LANGUAGE_CODE, order
from boardgen.data.paths import layouts_root
from boardgen.errors import DataError, Problem, UsageError


def _bundled() -> tuple[str, ...]:
    """The languages with a bundled strings file, English first."""
    codes = {path.stem for path in (layouts_root() / "strings").glob("*.toml") if LANGUAGE_CODE.match(path.stem)}
    return tuple(order(codes))


LANGUAGES = _bundled()  # the bundled languages (see `available` for the user's too)
REFERENCE = "en"  # the language every other strings file is held against

# The state of the render under way: the folder of the user's layout (its own strings files),
# and the language a partial strings file falls back to (only when the user asks).
_state: dict[str, Any] = {"folder": None, "fallback": None}


def user_data_folder() -> Path:
    """``$XDG_DATA_HOME/boardgen`` (default ``~/.local/share/boardgen``): the user's languages."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "boardgen"


def own_folder(layout: str | None) -> Path | None:
    """The folder of a layout file of the user's (None for a bundled one, or no file)."""
    if layout is None:
        return None
    path = Path(layout)
    if not path.is_file() or path.resolve().is_relative_to(layouts_root().resolve()):
        return None
    return path.resolve().parent


def use_layout_folder(folder: Path | None) -> None:
    """The folder of the user's layout now printed (None: a bundled one): its strings.<lang>.toml
    come first."""
    _state["folder"] = folder


def use_fallback(lang: str | None) -> None:
    """Keys a strings file lacks come from `lang` (None: a missing key is an error)."""
    _state["fallback"] = lang


def fallback() -> str | None:
    value: str | None = _state["fallback"]
    return value


def search_path(lang: str) -> list[Path]:
    """Where the strings file of `lang` is looked for, first found wins."""
    folder: Path | None = _state["folder"]
    places = [folder / f"strings.{lang}.toml"] if folder is not None else []
    return [*places, user_data_folder() / "strings" / f"{lang}.toml", layouts_root() / "strings" / f"{lang}.toml"]


def strings_file(lang: str) -> Path | None:
    """The strings file `lang` prints with, or None."""
    if not LANGUAGE_CODE.match(lang):
        return None
    return next((path for path in search_path(lang) if path.is_file()), None)


def available() -> list[str]:
    """Every language with a strings file: bundled, the user's data folder's, the layout's."""
    codes = set(LANGUAGES)
    folder: Path | None = _state["folder"]
    codes |= {p.stem for p in (user_data_folder() / "strings").glob("*.toml") if LANGUAGE_CODE.match(p.stem)}
    if folder is not None:
        codes |= {p.name[8:-5] for p in folder.glob("strings.*.toml") if LANGUAGE_CODE.match(p.name[8:-5])}
    return order(codes)


def shown(path: Path) -> str:
    """A strings file as messages name it: layouts/strings/... when bundled, else its path."""
    bundled = layouts_root() / "strings"
    return f"layouts/strings/{path.name}" if path.parent == bundled else str(path)


@cache
def _read(path: Path, stamp: float) -> dict[str, Any]:
    try:
        data = tomllib.loads(files.read_text(path, shown(path), what="a strings file"))
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+)", str(exc))
        raise DataError([Problem(shown(path), "", str(exc), int(found.group(1)) if found else None)]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError([Problem(shown(path), "", f"cannot be read: {exc}")]) from None
    return data


def read(path: Path) -> dict[str, Any]:
    """A strings file's table (read again when it changes)."""
    return _read(path, path.stat().st_mtime)


def unknown_language(lang: str) -> UsageError:
    places = ", ".join(str(p) for p in search_path(lang))
    return UsageError(
        f"--lang {lang}: no strings file for {lang!r} (looked for {places}); "
        f"boardgen prints in {', '.join(available())}. "
        f"`boardgen new language {lang} --from en` writes one to translate"
    )


def missing_keys(lang: str) -> list[str]:
    """English's keys the strings file of `lang` lacks, in English's order."""
    path = strings_file(lang)
    reference = strings_file(REFERENCE)
    if path is None or reference is None or lang == REFERENCE:
        return []
    have = read(path)
    return [key for key in read(reference) if key not in have and not optional(key)]


def optional(key: str) -> bool:
    """A singular form (``dice_one``): a strings file without it prints the plural for one; or
    one of OPTIONAL_KEYS, which print another way without it."""
    return key.endswith(SINGULAR) or key in OPTIONAL_KEYS


# Keys a strings file may leave out, each printed another way without it: Le Grand Labyrinthe's
# routes on its rules sheet ("from IX to X or 21", "I to 3"), as arrows ("IX → X or 21").
OPTIONAL_KEYS = frozenset({"route_choice", "route_back"})


SINGULAR = "_one"  # the suffix of a noun's singular form, printed for a count of 1


def fell_back(lang: str) -> list[str]:
    """The keys of `lang` printed in the fallback language (none without --fallback)."""
    return missing_keys(lang) if fallback() not in (None, lang) else []


_memo: dict[tuple[Any, ...], dict[str, Any]] = {}


def strings(lang: str) -> dict[str, Any]:
    """`_strings`, kept for the render under way (a label asks for a word thousands of times)."""
    key = (lang, _state["folder"], _state["fallback"], os.environ.get("XDG_DATA_HOME"), os.environ.get("HOME"))
    found = _memo.get(key)
    if found is None:
        found = _memo[key] = _strings(lang)
    return found


def forget() -> None:
    """Read the strings files again (they were edited: the live preview, `validate`)."""
    _memo.clear()


def _strings(lang: str) -> dict[str, Any]:
    """Every interface word of `lang`: a UsageError if boardgen has no strings file for it, a
    DataError naming each missing key (at the line of its commented template, if any) unless a
    fallback was asked for, then those keys come from it."""
    path = strings_file(lang)
    if path is None:
        raise unknown_language(lang)
    data = read(path)
    absent = missing_keys(lang)
    if not absent:
        return data
    spare = fallback()
    if spare is None or spare == lang:
        raise DataError(key_problems(lang, absent))
    base = strings(spare)
    return {**{k: base[k] for k in absent if k in base}, **data}


def template_lines(path: Path) -> dict[str, int]:
    """The line of each key's commented template (``# key = ...``) in a strings file."""
    found: dict[str, int] = {}
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return found
    for number, line in enumerate(lines, start=1):
        match = re.match(r"^#\s*([A-Za-z_][A-Za-z0-9_]*)\s*=", line)
        if match:
            found.setdefault(match.group(1), number)
    return found


def key_problems(lang: str, absent: Sequence[str]) -> list[Problem]:
    """One problem per missing key of `lang`'s strings file, at its template's line."""
    path = strings_file(lang)
    if path is None:
        return []
    lines = template_lines(path)
    english = read(strings_file(REFERENCE) or path)
    return [
        Problem(
            shown(path),
            key,
            f"not translated (en: {english.get(key)!r}); --fallback en prints it in English",
            lines.get(key),
        )
        for key in absent
    ]


def word(lang: str, key: str, **values: object) -> str:
    text: str = strings(lang)[key]
    return text.format(**values)


def noun(lang: str, key: str) -> str:
    """A heading word used inside a line ("34 × corridor tiles"): lower-cased, unless the
    language capitalises its nouns (``nouns_capitalised = true`` in its strings file, German)."""
    text = word(lang, key)
    return text if strings(lang).get("nouns_capitalised") else text.lower()


def noun_one(lang: str, key: str) -> str:
    """The noun of `key` for one piece ("die"): its singular form ``<key>_one`` if the strings
    file has it, else the plural."""
    return noun(lang, key + SINGULAR) if key + SINGULAR in strings(lang) else noun(lang, key)


def counted(lang: str, count: int, key: str) -> str:
    """'3 × dice', '1 × die': a count of pieces with their noun in the number it needs."""
    return word(lang, "count_line", count=count, what=noun_one(lang, key) if count == 1 else noun(lang, key))


def counts(lang: str, values: Sequence[int]) -> str:
    """Player counts as a reader says them: a run as a range ("2-4"), others listed ("2 or 4")."""
    ordered = sorted(set(values))
    if len(ordered) > 1 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return word(lang, "count_range", low=ordered[0], high=ordered[-1])
    if len(ordered) == 1:
        return str(ordered[0])
    return word(lang, "list_sep").join(map(str, ordered[:-1])) + word(lang, "list_or") + str(ordered[-1])
