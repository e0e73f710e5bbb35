"""Find the line of a key path in TOML text, so messages can point at it."""

from __future__ import annotations

import re
from typing import Any

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_ASSIGN = re.compile(r"^\s*([A-Za-z0-9_\-\"'. ]+?)\s*=")


def _split_key(raw: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in raw.split("."))


def key_lines(text: str) -> dict[tuple[Any, ...], int]:
    """Map each key path (tuple of keys and array indexes) to its 1-based line number."""
    lines: dict[tuple[Any, ...], int] = {}
    array_counts: dict[tuple[Any, ...], int] = {}
    table: tuple[Any, ...] = ()
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            brackets, name = header.group(1), _split_key(header.group(2))
            resolved = _resolve(name, array_counts)
            if brackets == "[[":
                index = array_counts.get(resolved, 0)
                array_counts[resolved] = index + 1
                lines.setdefault(resolved, number)
                table = resolved + (index,)
            else:
                table = resolved
            lines.setdefault(table, number)
            continue
        assign = _ASSIGN.match(line)
        if assign:
            lines.setdefault(table + _split_key(assign.group(1)), number)
    return lines


def _resolve(name: tuple[Any, ...], array_counts: dict[tuple[Any, ...], int]) -> tuple[Any, ...]:
    """Insert the current index after every prefix that is an array of tables."""
    resolved: tuple[Any, ...] = ()
    for part in name:
        resolved += (part,)
        if resolved in array_counts and resolved != name:
            resolved += (array_counts[resolved] - 1,)
    return resolved


def line_of(lines: dict[tuple[Any, ...], int], path: tuple[Any, ...]) -> int | None:
    """The line of the longest known prefix of path, or None."""
    for end in range(len(path), 0, -1):
        found = lines.get(tuple(path[:end]))
        if found is not None:
            return found
    return None
