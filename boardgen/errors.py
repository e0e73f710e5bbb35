"""User-facing errors: each one prints itself and carries its exit code."""

from __future__ import annotations

from dataclasses import dataclass


class BoardgenError(Exception):
    """An error a user can act on; the CLI prints it without a traceback."""

    exit_code = 1

    def format(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Problem:
    """One problem found in a data file: where it is and what is wrong."""

    file: str
    key: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        key = f" {self.key}:" if self.key else ""
        return f"{where}:{key} {self.message}"


class DataError(BoardgenError, ValueError):
    """A layout, theme or other data file is broken; lists every problem found."""

    exit_code = 2

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__(self.format())

    def format(self) -> str:
        count = len(self.problems)
        head = "1 problem" if count == 1 else f"{count} problems"
        return f"{head} in the data:\n" + "\n".join(f"  {p}" for p in self.problems)


class UsageError(BoardgenError, ValueError):
    """An unknown game, theme or paper, or an option that cannot work."""

    exit_code = 2


class OutputError(BoardgenError, OSError):
    """The kit cannot be written where the user asked."""

    exit_code = 3


class UnplayableError(BoardgenError):
    """The playability check refused the layout."""

    exit_code = 4
