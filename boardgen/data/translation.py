"""Copies to translate, and what a translation still lacks.

`boardgen new language es --from en` writes the strings file and every bundled rules text as
a commented copy. In the strings file each key is a comment, ``# up = "Up"``: uncomment the
line and translate the value. In a rules text each line of the original is a comment,
``<!-- en: # Goal -->``: write the translation on the line below it. `boardgen validate --lang
es` names each key and line still untranslated, at its file and line; a render prints an
untranslated line in the original language only with ``--fallback``.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from boardgen.data import files, toml_write
from boardgen.errors import Problem

# A line of the original in a rules text being translated: <!-- en: text -->
ORIGINAL = re.compile(r"^<!--\s*([A-Za-z]{2}(?:-[A-Za-z0-9]+)*):\s?(.*?)\s*-->$")
COMMENT = re.compile(r"^<!--.*-->$")
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:[:!][^}]*)?\}")


def strings_template(lang: str, base: str, source: str) -> str:
    """The strings file of `base` (its text `source`) as a copy to translate into `lang`."""
    data = tomllib.loads(source)
    out = [
        f"# boardgen's printed words in {lang}, to translate from {base}.",
        f"# Each key is a comment showing the {base} text: remove the '# ' before a key and",
        "# translate its value (keep every {name} as it is). `boardgen validate --lang "
        f"{lang}` lists the keys still to do.",
        "",
    ]
    for line in source.split("\n"):
        match = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=", line)
        if match:
            out.append(f"# {match.group(1)} = {toml_write.value(data[match.group(1)])}")
        elif line.startswith("#"):
            out.append("#" + line)
        elif line.strip():
            out.append("# " + line)
    return "\n".join(out).rstrip("\n") + "\n"


def rules_template(lang: str, base: str, source: str) -> str:
    """A rules text of `base` as a copy to translate into `lang`: each line a comment."""
    out = [
        f"<!-- A rules text to translate from {base} into {lang}: write each line's translation "
        "below it (keep every {name}); the comments are never printed. -->"
    ]
    for line in source.split("\n"):
        out.append(f"<!-- {base}: {line.strip()} -->\n" if line.strip() else "")
    return "\n".join(out).rstrip("\n") + "\n"


def rules_lines(text: str, *, fallback: bool) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The lines of a rules text to print (number, text), comments left out, and the lines of
    the original still untranslated (number, original text). With `fallback` an untranslated
    line prints in the original."""
    lines = text.split("\n")
    printed: list[tuple[int, str]] = []
    untranslated: list[tuple[int, str]] = []
    for index, raw in enumerate(lines):
        line = raw.strip()
        original = ORIGINAL.match(line)
        if original:
            following = next((nxt.strip() for nxt in lines[index + 1 :] if nxt.strip()), "")
            if original.group(2) and (not following or COMMENT.match(following)):
                untranslated.append((index + 1, original.group(2)))
                if fallback:
                    printed.append((index + 1, original.group(2)))
            continue
        if COMMENT.match(line):
            continue
        printed.append((index + 1, raw))
    return printed, untranslated


def rules_problems(path: Path, shown: str, original: Path | None) -> list[Problem]:
    """A problem for each untranslated line of a rules text, and for each line whose
    placeholders differ from the original's line above it."""
    text = files.read_text(path, shown, what="a rules text")
    _printed, untranslated = rules_lines(text, fallback=False)
    problems = [Problem(shown, "", f"not translated: {line[:60]!r}", number) for number, line in untranslated]
    lines = text.split("\n")
    for index, raw in enumerate(lines):
        match = ORIGINAL.match(raw.strip())
        following = next(
            ((n, nxt.strip()) for n, nxt in enumerate(lines[index + 1 :], start=index + 2) if nxt.strip()), None
        )
        if not match or following is None or COMMENT.match(following[1]):
            continue
        wanted, found = set(PLACEHOLDER.findall(match.group(2))), set(PLACEHOLDER.findall(following[1]))
        if wanted != found:
            problems.append(Problem(shown, "", _placeholders(wanted, found), following[0]))
    if original is None and not problems and not _printed:
        problems.append(Problem(shown, "", "empty"))
    return problems


def _placeholders(wanted: set[str], found: set[str]) -> str:
    parts = []
    if wanted - found:
        parts.append("lacks " + ", ".join("{" + n + "}" for n in sorted(wanted - found)))
    if found - wanted:
        parts.append("has " + ", ".join("{" + n + "}" for n in sorted(found - wanted)) + " the original has not")
    return "the translation " + " and ".join(parts)


def strings_problems(
    data: dict[str, Any], reference: dict[str, Any], shown: str, lines: dict[str, int], key_lines: dict[str, int]
) -> list[Problem]:
    """A problem for each key of `reference` that `data` lacks (at the line of its commented
    template), each key boardgen does not know, each value whose placeholders differ."""
    problems = [
        Problem(shown, key, f"not translated (en: {str(value)[:50]!r})", lines.get(key))
        for key, value in reference.items()
        if key not in data
    ]
    for key, value in data.items():
        if key not in reference:
            if key != "nouns_capitalised":
                problems.append(Problem(shown, key, "not a key boardgen prints", key_lines.get(key)))
            continue
        if isinstance(value, str) and isinstance(reference[key], str):
            wanted, found = set(PLACEHOLDER.findall(reference[key])), set(PLACEHOLDER.findall(value))
            if wanted != found:
                problems.append(Problem(shown, key, _placeholders(wanted, found), key_lines.get(key)))
        elif isinstance(reference[key], list) and (not isinstance(value, list) or len(value) != len(reference[key])):
            problems.append(
                Problem(shown, key, f"a list of {len(reference[key])} texts, as in English", key_lines.get(key))
            )
    return problems


def key_lines(path: Path) -> dict[str, int]:
    """The line of each key set in a strings file (not the commented ones)."""
    found: dict[str, int] = {}
    for number, line in enumerate(files.read_text(path, what="a strings file").split("\n"), start=1):
        match = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=", line)
        if match:
            found.setdefault(match.group(1), number)
    return found
