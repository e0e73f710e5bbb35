"""Rules text of a kit: the Markdown rules sheets and the engine's interpretations, read with
their placeholders filled, and flowed onto the rules pages."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from boardgen.data.paths import layouts_root
from boardgen.data.strings import word
from boardgen.errors import DataError, Problem
from boardgen.render.imposition import Rect
from boardgen.render.pdf import PdfKit

# A placeholder in rules text: a name in braces, filled from the layout (`fill_placeholders`).
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fill_placeholders(text: str, values: Mapping[str, object], *, file: str,
                      line: int | None = None) -> tuple[str, list[Problem]]:
    """`text` with every ``{name}`` replaced by ``values[name]``, and a problem for each
    name that `values` does not have (the text keeps it unfilled)."""
    problems: list[Problem] = []

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            known = ", ".join("{" + k + "}" for k in sorted(values)) or "none"
            problems.append(Problem(file, "{" + name + "}", f"unknown placeholder; this layout "
                                    f"fills {known}", line))
            return match.group(0)
        return str(values[name])

    return PLACEHOLDER.sub(one, text), problems


def read_blocks(relative: str, values: Mapping[str, object] | None = None, *,
                path: Path | None = None) -> list[tuple[str, str]]:
    """Read layouts/<relative> (or `path`, a file of the user's), a small Markdown text: '# '
    headings, '- ' bullets, other lines paragraphs, ``**bold**``; ``{name}`` placeholders
    are filled from `values` (every unknown one is reported, with its line, as a `DataError`)."""
    shown = f"layouts/{relative}" if path is None else str(path)
    path = layouts_root() / relative if path is None else path
    if not path.is_file():
        raise DataError([Problem(shown, "", "rules text not found")])
    blocks: list[tuple[str, str]] = []
    problems: list[Problem] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        line, found = fill_placeholders(raw.strip(), values or {}, file=shown, line=number)
        problems += found
        if not line:
            continue
        line = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        line = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", line)
        if line.startswith("# "):
            blocks.append(("h", line[2:]))
        elif line.startswith("- "):
            blocks.append(("li", line[2:]))
        else:
            blocks.append(("p", line))
    if problems:
        raise DataError(problems)
    return blocks


RULES_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def rules_blocks(name: str, lang: str, values: Mapping[str, object] | None = None, *,
                 beside: str | None = None) -> list[tuple[str, str]]:
    """The rules text <name>.<lang>.md as blocks (see `read_blocks`), its ``{name}``
    placeholders filled from `values` (a game model's ``rule_values``). A layout of the
    user's (`beside`: its file) may bring its own text in its folder; otherwise, and for the
    bundled layouts, it is layouts/rules/<name>.<lang>.md. A plain name only: the text never
    comes from outside the layout's folder."""
    own = _own_rules(name, lang, beside)
    if own is not None:
        return read_blocks("", values, path=own)
    return read_blocks(f"rules/{name}.{lang}.md", values)


def _own_rules(name: str, lang: str, beside: str | None) -> Path | None:
    if beside is None or not RULES_NAME.match(name):
        return None
    layout = Path(beside)
    if not layout.is_file() or layout.resolve().is_relative_to(layouts_root().resolve()):
        return None
    candidate = layout.parent / f"{name}.{lang}.md"
    if candidate.is_file() and candidate.resolve().parent == layout.resolve().parent:
        return candidate
    return None


def interpretation_blocks(engine: str, lang: str,
                          values: Mapping[str, object] | None = None) -> list[tuple[str, str]]:
    """The engine's reading of every unclear rule, printed so people play what was checked:
    the heading, then the bullets of layouts/rules/<engine>.interpretations.<lang>.md with
    their placeholders filled from `values` like `rules_blocks`."""
    return [("h", word(lang, "interpretations"))] + read_blocks(f"rules/{engine}.interpretations.{lang}.md", values)


def rules_pages(pdf: PdfKit, blocks: list[tuple[str, str]], heading: str) -> list[Rect]:
    """The rules in columns, page after page; returns the free areas left on the last page
    (below the end of the text, and any column the text did not reach) for pieces."""
    area = pdf.base_frame.content
    columns = 2 if area.w > 150 else 1
    remaining = pdf.flowables(blocks)
    while remaining:
        pdf.new_page(heading, kind="rules")
        left = pdf.flow(remaining, area, columns=columns)
        if len(left) == len(remaining) and left[0] is remaining[0]:
            raise DataError([Problem("layouts/rules", "", "a rules paragraph is too long for one page")])
        remaining = left
    column, used, col_w, gutter = pdf.flow_end
    free = []
    if column < columns:
        x = area.x + column * (col_w + gutter)
        free.append(Rect(x, area.y + used + 2.0, col_w, area.h - used - 2.0))
        if column + 1 < columns:
            x += col_w + gutter
            free.append(Rect(x, area.y, area.right - x, area.h))
    return free
