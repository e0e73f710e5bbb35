"""User-facing errors: each one prints itself and carries its exit code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Longest quoted value in a message, and longest message line: a 1 MB value must not become a
# 1 MB line on the terminal.
QUOTE_CHARS = 60
MESSAGE_CHARS = 400
# A DataError lists at most this many problems, then says how many more there are.
SHOWN_PROBLEMS = 40


def shorten(text: str, limit: int = MESSAGE_CHARS) -> str:
    """text cut to limit characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def quote(value: Any, limit: int = QUOTE_CHARS) -> str:
    """A value as a message quotes it: repr() for short ones, the start and the length otherwise."""
    if isinstance(value, dict):
        return f"a table of {len(value)} keys" if len(repr(value)) > limit else repr(value)
    if isinstance(value, list) and len(repr(value)) > limit:
        return f"an array of {len(value)} items"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


class BoardgenError(Exception):
    """An error a user can act on; the CLI prints it without a traceback."""

    exit_code = 1

    def format(self) -> str:
        return "\n".join(shorten(line) for line in str(self).split("\n"))


@dataclass(frozen=True)
class Problem:
    """One problem found in a data file: where it is and what is wrong."""

    file: str
    key: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        key = f" {shorten(self.key, QUOTE_CHARS)}:" if self.key else ""
        return f"{shorten(where, MESSAGE_CHARS)}:{key} {shorten(self.message)}"


class DataError(BoardgenError, ValueError):
    """A layout, theme or other data file is broken; lists every problem found."""

    exit_code = 2

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__(self.format())

    def format(self) -> str:
        count = len(self.problems)
        head = "1 problem" if count == 1 else f"{count} problems"
        lines = [f"  {p}" for p in self.problems[:SHOWN_PROBLEMS]]
        if count > SHOWN_PROBLEMS:
            lines.append(f"  ... and {count - SHOWN_PROBLEMS} more")
        return f"{head} in the data:\n" + "\n".join(lines)


class UsageError(BoardgenError, ValueError):
    """An unknown game, theme or paper, or an option that cannot work."""

    exit_code = 2


class OutputError(BoardgenError, OSError):
    """The kit cannot be written where the user asked."""

    exit_code = 3


class UnplayableError(BoardgenError):
    """The playability check refused the layout."""

    exit_code = 4


class InaccessibleError(BoardgenError):
    """The accessibility check found problems and they were to be errors (--strict, or the
    theme's `strict`)."""

    exit_code = 5


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived while a kit was being made: nothing was swapped in. Like
    KeyboardInterrupt it is no Exception, so no `except Exception` can swallow it."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
        self.exit_code = 128 + signum
