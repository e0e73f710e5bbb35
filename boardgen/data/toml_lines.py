"""Find the line of a key path in TOML text, so messages can point at it."""

from __future__ import annotations

import re
from typing import Any

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_ASSIGN = re.compile(r"^\s*([A-Za-z0-9_\-\"'. ]+?)\s*=")


def _split_key(raw: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in raw.split("."))


def key_lines(text: str) -> dict[tuple[Any, ...], int]:
    """Map each key path (tuple of keys and array indexes) to its 1-based line number. The
    elements of an inline array written over several lines get their own lines too."""
    lines: dict[tuple[Any, ...], int] = {}
    array_counts: dict[tuple[Any, ...], int] = {}
    table: tuple[Any, ...] = ()
    value: _InlineArray | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if value is not None:
            if not value.feed(line, number, lines):
                value = None  # closed on this line
            continue
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
            key = table + _split_key(assign.group(1))
            lines.setdefault(key, number)
            rest = line[assign.end() :]
            if rest.lstrip().startswith("["):
                value = _InlineArray(key)
                if not value.feed(rest, number, lines):
                    value = None
    return lines


class _InlineArray:
    """Follows an inline array value across lines, noting the line each element starts on."""

    def __init__(self, key: tuple[Any, ...]):
        self.key = key
        self.depth = 0
        self.index = 0
        self.expecting = False
        self.quote = ""

    def feed(self, line: str, number: int, lines: dict[tuple[Any, ...], int]) -> bool:
        """Read one line; True while the array is still open after it."""
        i = 0
        while i < len(line):
            char = line[i]
            if self.quote:
                if char == "\\" and self.quote == '"':
                    i += 1
                elif char == self.quote:
                    self.quote = ""
            elif char == "#":
                break
            elif not char.isspace():
                if self.expecting and self.depth == 1 and char not in "],":
                    lines.setdefault(self.key + (self.index,), number)
                    self.index += 1
                    self.expecting = False
                if char in "\"'":
                    self.quote = char
                elif char in "[{":
                    self.depth += 1
                    if self.depth == 1:
                        self.expecting = True
                elif char in "]}":
                    self.depth -= 1
                    if self.depth <= 0:
                        return False
                elif char == "," and self.depth == 1:
                    self.expecting = True
            i += 1
        return True


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
