"""Braille for the 3D pieces' labels and the rules' braille sheet: text to cells, cells to an
embossable Braille Ready File (BRF).

A cell is one Unicode braille character (U+2800 plus its dots as bits: dot 1 is bit 0, dot 6
bit 5). liblouis (Debian's python3-louis) translates where its Python module can be imported
(its grade 1 tables); otherwise boardgen's own grade 1 table, layouts/braille/grade1.toml,
does: the 26 letters, each language's accented letters and punctuation, its capital sign and
its numbers. `translator(lang).source` says which one wrote a text.
"""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from boardgen.data.paths import layouts_root
from boardgen.errors import UsageError

BLANK = "\u2800"
# North American Braille ASCII, the BRF's code: the character of each cell, by its dots' bits.
BRAILLE_ASCII = " A1B'K2L@CIF/MSP\"E3H9O6R^DJG>NTQ,*5<-U8V.%[$+X!&;:4\\0Z7(_?W]#Y)="
# An embosser's page of BRF: 40 cells a line, 25 lines a page.
LINE_CELLS = 40
PAGE_LINES = 25
# liblouis's grade 1 table of each language boardgen's own table knows.
LOUIS_TABLES = {"en": "en-ueb-g1.ctb", "fr": "fr-bfu-comp6.utb", "de": "de-g0.utb"}
TABLE_FILE = "braille/grade1.toml"
# What a character becomes before translation when the table has no cell of its own for it.
PLAIN = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
    "\u2026": "...",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2009": " ",
}


def cell(dots: str) -> str:
    """The cell of dots written as digits 1-6 ("125" is h)."""
    bits = 0
    for d in dots:
        if d not in "123456":
            raise ValueError(f"braille dot {d!r} is not one of 1-6")
        bits |= 1 << (int(d) - 1)
    return chr(0x2800 + bits)


def cells_of(dots: str) -> str:
    """Several cells written as dot numbers separated by spaces ("5 126")."""
    return "".join(cell(d) for d in dots.split())


def dots(one: str) -> tuple[int, ...]:
    """The raised dots (1-6) of one cell."""
    bits = ord(one) - 0x2800
    if not 0 <= bits < 64:
        raise ValueError(f"{one!r} is not a braille cell")
    return tuple(d for d in range(1, 7) if bits & (1 << (d - 1)))


@dataclass(frozen=True)
class Table:
    """One language's grade 1 braille from boardgen's table (see the module docstring)."""

    lang: str
    name: str
    letters: dict[str, str]
    signs: dict[str, str]
    capital: str
    capital_word: str
    number: str
    letter_after_number: str
    sign_after_number: str
    digits: tuple[str, ...]


@cache
def _tables() -> dict[str, Table]:
    path = layouts_root() / TABLE_FILE
    data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    letters = {k: cell(v) for k, v in data["letters"].items()}
    out = {}
    for lang, t in data.items():
        if lang == "letters":
            continue
        out[lang] = Table(
            lang,
            t["name"],
            letters,
            {k: cells_of(v) for k, v in t["signs"].items()},
            cells_of(t["capital"]),
            cells_of(t["capital_word"]),
            cells_of(t["number"]),
            cells_of(t["letter_after_number"]),
            cells_of(t.get("sign_after_number", "")),
            tuple(cell(d) for d in t["digits"]),
        )
    return out


def languages() -> list[str]:
    """The languages boardgen's own table translates."""
    return sorted(_tables())


@dataclass
class Translator:
    """Text to grade 1 braille cells in one language; `unknown` collects every character it
    had no cell for (left out of the braille)."""

    lang: str
    source: str  # what translates: liblouis and its table, or boardgen's table
    table: Table | None = None
    louis_table: str = ""
    unknown: set[str] = field(default_factory=set)

    def cells(self, text: str) -> str:
        """The braille of `text` (spaces stay blank cells)."""
        if self.table is None:
            return self._louis(text)
        return " ".join(self._word(w) for w in text.split()).replace(" ", BLANK)

    def words(self, text: str) -> list[str]:
        """The braille of each word of `text`."""
        return [w for w in self.cells(text).split(BLANK) if w]

    def _louis(self, text: str) -> str:
        import louis

        out: str = louis.translateString([self.louis_table], text, mode=louis.dotsIO | louis.ucBrl)
        return out.replace(" ", BLANK)

    def _word(self, word: str) -> str:
        """One word: capitals marked per run of letters (a run of two or more capitals with the
        word's capital sign), numbers with their sign, a letter a-j after a number with the
        table's indicator, and (German) a low sign after a number with its own."""
        table = self.table
        assert table is not None
        chars = "".join(_plain(raw, table) for raw in word)
        out: list[str] = []
        in_number = False
        run_caps = False  # inside a run of letters marked with the word's capital sign
        for k, char in enumerate(chars):
            if char.isdigit() and char in "0123456789":
                if not in_number:
                    out.append(table.number)
                    in_number = True
                out.append(table.digits[int(char)])
                run_caps = False
                continue
            after = chars[k + 1] if k + 1 < len(chars) else ""
            if in_number and char in ".," and after.isdigit():  # a decimal point or a thousands separator
                out.append(table.signs.get(char, ""))
                continue
            lower = char.lower()
            found = table.letters.get(lower) or table.signs.get(lower)
            if found is None:
                self.unknown.add(char)
                in_number = run_caps = False
                continue
            if not char.isalpha():
                low = all(set(dots(c)) <= {2, 3, 5, 6} for c in found)
                marked = char not in ".," and not found.startswith(table.sign_after_number)
                if in_number and table.sign_after_number and low and marked:
                    out.append(table.sign_after_number)
                in_number = run_caps = False
                out.append(found)
                continue
            if in_number and lower in "abcdefghij" and lower in table.letters:
                out.append(table.letter_after_number)
            in_number = False
            if char != lower and not run_caps:
                run = _letter_run(chars, k)
                if len(run) > 1 and run.isupper() and table.capital_word:
                    out.append(table.capital_word)
                    run_caps = True
                else:
                    out.append(table.capital)
            elif char == lower:
                run_caps = False
            out.append(found)
        return "".join(out)


def _letter_run(chars: str, start: int) -> str:
    """The letters from `start` to the next character that is no letter."""
    end = start
    while end < len(chars) and chars[end].isalpha():
        end += 1
    return chars[start:end]


def _plain(char: str, table: Table) -> str:
    """The character as the table writes it: itself if it has a cell, else its plain form
    (typographic quotes and dashes, accents dropped)."""
    lower = char.lower()
    if lower in table.letters or lower in table.signs or char.isdigit() or char in ".,":
        return char
    if char in PLAIN:
        return PLAIN[char]
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    return base or char


def louis_available() -> bool:
    try:
        import louis  # noqa: F401
    except ImportError:
        return False
    return True


def translator(lang: str, *, use_louis: bool | None = None) -> Translator:
    """The grade 1 translator of `lang` (liblouis where importable, unless `use_louis` is
    False); a UsageError naming the languages known for any other."""
    tables = _tables()
    if lang not in tables:
        raise UsageError(
            f"--braille {lang!r}: no grade 1 braille table for this language; boardgen knows {', '.join(languages())}"
        )
    if (use_louis if use_louis is not None else louis_available()) and lang in LOUIS_TABLES:
        return Translator(lang, f"liblouis {LOUIS_TABLES[lang]}", None, LOUIS_TABLES[lang])
    return Translator(lang, f"boardgen grade 1 table (layouts/{TABLE_FILE}, {tables[lang].name})", tables[lang])


def to_ascii(cells: str) -> str:
    """Cells in North American Braille ASCII (blank cells as spaces)."""
    return "".join(BRAILLE_ASCII[ord(c) - 0x2800] for c in cells)


def wrap(words: list[str], width: int, *, first: int = 0, rest: int = 0) -> list[str]:
    """Braille words set in lines of `width` cells, the first line indented `first` blank
    cells and the others `rest`; a word longer than a line is cut."""
    lines: list[str] = []
    line = BLANK * first
    indent = first
    for w in words:
        while len(w) > width - rest:
            if len(line) > indent:
                lines.append(line)
                line = BLANK * rest
                indent = rest
            room = width - len(line)
            lines.append(line + w[:room])
            w = w[room:]
            line = BLANK * rest
            indent = rest
        need = len(w) + (1 if len(line) > indent else 0)
        if len(line) + need > width:
            lines.append(line)
            line = BLANK * rest
            indent = rest
        line += (BLANK if len(line) > indent else "") + w
    if len(line) > indent:
        lines.append(line)
    return lines


def brf(blocks: list[tuple[str, str]], tr: Translator) -> bytes:
    """The blocks of a text (``h`` headings, ``p`` paragraphs, ``li`` bullets, as the rules
    are read) as a Braille Ready File: 40 cells a line, 25 lines a page, headings centred
    after a blank line, paragraphs indented two cells, bullets with runovers at cell 3;
    lines end with CR LF and pages with a form feed."""
    lines: list[str] = []
    for kind, text in blocks:
        words = tr.words(_text(text))
        if not words:
            continue
        if kind == "h":
            if lines:
                lines.append("")
            for line in wrap(words, LINE_CELLS):
                lines.append(BLANK * ((LINE_CELLS - len(line)) // 2) + line)
        elif kind == "li":
            lines += wrap(words, LINE_CELLS, first=0, rest=2)
        else:
            lines += wrap(words, LINE_CELLS, first=2, rest=0)
    pages = [lines[i : i + PAGE_LINES] for i in range(0, len(lines), PAGE_LINES)] or [[]]
    out = "\f".join("".join(to_ascii(line).rstrip() + "\r\n" for line in page) for page in pages) + "\f"
    return out.encode("ascii")


def _text(marked: str) -> str:
    """A rules block's text without its markup (``<b>``, entities)."""
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", marked))
