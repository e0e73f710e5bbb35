"""Decks from a CSV file beside the layout, as Squib and nanDECK users keep them: one row per
card, one column per field, a column per language.

A layout names the file instead of writing the array: ``treasures = "treasures.csv"`` (also
``objects``, Master's tokens, and ``deck``, Le Grand Labyrinthe's event cards). The first row
names the columns: ``id``, ``art``, ``value``...; a bare language code (``en``, ``fr``, ``de``)
is the card's name in that language; a dotted name is a table (``title.en``, ``effect.kind``).
Whole numbers are numbers (except in ids, pictures, field names and texts); an empty cell
leaves the key out. The rows become exactly the array the TOML would hold, checked by the same schema and
model, and every problem names the CSV file, the row's line and the key.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from boardgen.data import files
from boardgen.data.languages import LANGUAGE_CODE
from boardgen.errors import DataError, Problem, quote

# The arrays of a layout that may come from a CSV file.
DECK_KEYS = ("treasures", "objects", "deck")
MAX_ROWS = 10_000
MAX_BYTES = 1024 * 1024
# Columns whose cells stay text whatever they look like (a field is named "61" or "IX").
TEXT_COLUMNS = ("id", "art", "field")
# The table a bare language column fills.
NAME_OF = {"treasures": "name", "objects": "name", "deck": "title"}
# A column names a key up to three tables deep (title.en, effect.kind), 64 characters at most.
COLUMN = re.compile(
    r"^([a-z_][a-z0-9_]{0,63}|[a-z]{2}(-[A-Za-z0-9]{2,4}){1,2})"
    r"(\.([a-z_][a-z0-9_]{0,63}|[a-z]{2}(-[A-Za-z0-9]{2,4}){1,2})){0,3}$"
)
MAX_COLUMNS = 64


def is_deck_file(value: Any) -> bool:
    return isinstance(value, str) and value.lower().endswith(".csv")


def _cell(column: str, text: str) -> Any:
    last = column.rsplit(".", 1)[-1]
    if last in TEXT_COLUMNS or LANGUAGE_CODE.match(last):
        return text
    if re.fullmatch(r"-?[0-9]{1,18}", text):
        return int(text)
    if re.fullmatch(r"-?[0-9]{1,18}\.[0-9]{1,18}", text):
        return float(text)
    if text in ("true", "false"):
        return text == "true"
    return text


def unclosed_quote(text: str) -> tuple[int, int] | None:
    """(line, cell index) of a quote that opens a cell and never closes, as Python's csv reads
    quotes (only at a cell's start; "" inside a quoted cell is a quote), or None."""
    line, cell, start = 1, 0, True
    opened: tuple[int, int] | None = None
    index = 0
    while index < len(text):
        char = text[index]
        if opened is not None:
            if char == '"':
                if text.startswith('""', index):
                    index += 2
                    continue
                opened = None
                start = False
            elif char == "\n":
                line += 1
            index += 1
            continue
        if char == '"' and start:
            opened = (line, cell)
        elif char == ",":
            cell += 1
        elif char == "\n":
            line, cell = line + 1, 0
        start = char in ",\n" or (char == "\r" and start)
        index += 1
    return opened


def read_deck(
    path: Path, key: str, shown: str
) -> tuple[list[dict[str, Any]], dict[tuple[Any, ...], int], list[Problem]]:
    """The cards of a CSV file as the TOML array `key` would hold them, the line of each card
    and of each of its keys (for messages), and the problems of the file itself."""
    try:
        text = files.read_text(path, shown, limit=MAX_BYTES, what="a deck", hint="save the file as UTF-8 (CSV UTF-8)")
    except DataError as exc:
        return [], {}, exc.problems
    if "\0" in text:
        return [], {}, [Problem(shown, "", "contains a NUL character")]
    opened = unclosed_quote(text)
    if opened is not None:
        line, at = opened
        header_cells = next(csv.reader(io.StringIO(text.split("\n", 1)[0])), [])
        name = f" {quote(header_cells[at].strip())}" if line > 1 and at < len(header_cells) else ""
        return (
            [],
            {},
            [
                Problem(
                    shown,
                    "",
                    f"a quote opens on line {line} (column {at + 1}{name}) and never "
                    "closes, so every line after it would be one cell: close it, and write a quote "
                    'inside a cell as two ("")',
                    line,
                )
            ],
        )
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        return [], {}, [Problem(shown, "", f"not a CSV file: {exc}", 1)]
    if not header or not any(h.strip() for h in header):
        return [], {}, [Problem(shown, "", "no header row: the first row names the columns (id, en, fr...)", 1)]
    columns = [h.strip() for h in header]
    if len(columns) > MAX_COLUMNS:
        return [], {}, [Problem(shown, "", f"{len(columns)} columns; a deck has at most {MAX_COLUMNS}", 1)]
    problems = []
    for number, column in enumerate(columns, start=1):
        if not COLUMN.match(column):
            problems.append(
                Problem(
                    shown,
                    "",
                    f"column {number} {quote(column)}: a column is a key such as id, "
                    "art, en, title.fr (at most four parts)",
                    1,
                )
            )
        elif columns.index(column) != number - 1:
            problems.append(Problem(shown, "", f"column {quote(column)} appears twice", 1))
    if problems:
        return [], {}, problems
    cards: list[dict[str, Any]] = []
    lines: dict[tuple[Any, ...], int] = {(key,): 1}
    start = reader.line_num + 1
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                start = reader.line_num + 1
                continue
            index = len(cards)
            if index >= MAX_ROWS:
                problems.append(Problem(shown, "", f"more than {MAX_ROWS} cards", start))
                break
            if len(row) > len(columns):
                problems.append(
                    Problem(shown, f"{key}[{index}]", f"{len(row)} cells but {len(columns)} columns", start)
                )
            card: dict[str, Any] = {}
            lines[(key, index)] = start
            for column, cell in zip(columns, row, strict=False):
                cell = cell.strip()
                if not cell:
                    continue
                parts = column.split(".")
                if len(parts) == 1 and LANGUAGE_CODE.match(column) and column not in TEXT_COLUMNS:
                    parts = [NAME_OF[key], column]
                table = card
                for part in parts[:-1]:
                    table = table.setdefault(part, {})
                    if not isinstance(table, dict):
                        break
                    lines[(key, index, *parts[: parts.index(part) + 1])] = start
                else:
                    table[parts[-1]] = _cell(column, cell)
                    lines[(key, index, *parts)] = start
            cards.append(card)
            start = reader.line_num + 1
    except csv.Error as exc:
        problems.append(Problem(shown, "", f"not a CSV file: {exc}", reader.line_num))
    return cards, lines, problems
