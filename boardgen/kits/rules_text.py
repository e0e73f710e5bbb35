"""Rules text of a kit: the Markdown rules sheets and the engine's interpretations, read with
their placeholders filled, and flowed onto the rules pages."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from boardgen.data import languages
from boardgen.data.paths import layouts_root
from boardgen.data.strings import word
from boardgen.data.toml_lines import line_of
from boardgen.errors import DataError, Problem
from boardgen.geometry import Rect
from boardgen.render.pdf import PdfKit

if TYPE_CHECKING:
    from boardgen.model.game import GameInfo

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


def _own_folder(beside: str | None) -> Path | None:
    """The folder of a layout of the user's (None for a bundled one): its own texts live there."""
    if beside is None:
        return None
    layout = Path(beside)
    if not layout.is_file() or layout.resolve().is_relative_to(layouts_root().resolve()):
        return None
    return layout.resolve().parent


def own_texts(name: str, beside: str | None) -> list[Path]:
    """The layout's own rules texts <name>.<lang>.md in its folder (none for a bundled layout)."""
    folder = _own_folder(beside)
    if folder is None or not RULES_NAME.match(name):
        return []
    return sorted(p for p in folder.glob(f"{name}.*.md")
                  if re.fullmatch(r"[a-z]{2}", p.name[len(name) + 1:-3]) and p.resolve().parent == folder)


def _bundled() -> list[str]:
    """The bundled rules texts' names."""
    return sorted({p.name.split(".")[0] for p in (layouts_root() / "rules").glob("*.md")
                   if ".interpretations." not in p.name})


def rules_file(name: str, lang: str, beside: str | None) -> Path:
    """Where the rules text <name> in `lang` is: beside a layout of the user's that has texts
    of that name (then only there), else bundled. A missing one is a DataError at the layout's
    ``game.rules``, saying where it was looked for."""
    shown = beside if beside is not None else "layouts/games"
    own = own_texts(name, beside)
    if own:
        wanted = own[0].parent / f"{name}.{lang}.md"
        if wanted in own:
            return wanted
        have = ", ".join(p.name for p in own)
        raise DataError([Problem(shown, "game.rules", f"{name}.{lang}.md not found beside the layout "
                                 f"(in {own[0].parent}); it has {have}")])
    bundled = layouts_root() / "rules" / f"{name}.{lang}.md"
    if RULES_NAME.match(name) and bundled.is_file():
        return bundled
    folder = _own_folder(beside)
    where = f"beside the layout (in {folder}) nor " if folder is not None else ""
    raise DataError([Problem(shown, "game.rules", f"no rules text {name}.{lang}.md {where}among the bundled "
                             f"ones ({', '.join(_bundled())})")])


def rules_blocks(name: str, lang: str, values: Mapping[str, object] | None = None, *,
                 beside: str | None = None) -> list[tuple[str, str]]:
    """The rules text <name>.<lang>.md as blocks (see `read_blocks`), its ``{name}``
    placeholders filled from `values` (a game model's ``rule_values``). A layout of the
    user's (`beside`: its file) may bring its own texts in its folder; otherwise, and for the
    bundled layouts, it is layouts/rules/<name>.<lang>.md (see `rules_file`). A plain name
    only: the text never comes from outside the layout's folder."""
    return _blocks(rules_file(name, lang, beside), values)


def _blocks(path: Path, values: Mapping[str, object] | None) -> list[tuple[str, str]]:
    """A bundled text is named as layouts/rules/... in messages, a user's by its path."""
    if path.parent == layouts_root() / "rules":
        return read_blocks(f"rules/{path.name}", values)
    return read_blocks("", values, path=path)


def notes_file(engine: str, lang: str, *, rules: str | None = None, beside: str | None = None,
               wanted: bool | None = None) -> Path | None:
    """Which notes on how boardgen reads the rules go with the rules text used, or None.

    With the bundled rules text: its own notes (<rules>.interpretations.<lang>.md, which may
    speak of its variants), else the engine's (<engine>.interpretations.<lang>.md: the rules
    as the engine plays them, no variant). With a text of the user's beside the layout: its
    own <rules>.interpretations.<lang>.md if there is one, else the engine's only if the
    layout asks for them (``interpretations = true``), since a house rule may differ.
    ``interpretations = false`` prints none."""
    folder = layouts_root() / "rules"
    engine_notes = folder / f"{engine}.interpretations.{lang}.md"
    own = own_texts(rules, beside) if rules is not None else []
    if own:
        mine = own[0].parent / f"{rules}.interpretations.{lang}.md"
        if mine.is_file() and wanted is not False:
            return mine
        return engine_notes if wanted and engine_notes.is_file() else None
    if wanted is False:
        return None
    if rules is not None and RULES_NAME.match(rules) and (folder / f"{rules}.interpretations.{lang}.md").is_file():
        return folder / f"{rules}.interpretations.{lang}.md"
    return engine_notes if engine_notes.is_file() else None


def interpretation_blocks(engine: str, lang: str, values: Mapping[str, object] | None = None, *,
                          layout: GameInfo | None = None) -> list[tuple[str, str]]:
    """The reading of every unclear rule, printed so people play what was checked: the
    heading, then the bullets of the notes `notes_file` picks for the layout's rules text
    (none: nothing), their placeholders filled from `values` like `rules_blocks`."""
    rules = layout.rules if layout is not None else None
    beside = layout.doc.path if layout is not None else None
    wanted = notes_wanted(layout) if layout is not None else None
    path = notes_file(engine, lang, rules=rules, beside=beside, wanted=wanted)
    if path is None:
        return []
    return [("h", word(lang, "interpretations")), *_blocks(path, values)]


def notes_wanted(layout: GameInfo) -> bool | None:
    """The layout's ``interpretations`` choice (None: not said)."""
    game = layout.doc.data.get("game")
    value = game.get("interpretations") if isinstance(game, dict) else None
    return value if isinstance(value, bool) else None


def _by_column(problems: list[Problem], sources: Mapping[str, str], lang: str) -> list[Problem]:
    """A deck read from CSV lacks a language as a column: one problem per missing column, on
    the header line, instead of one per row."""
    from boardgen.data.decks import NAME_OF

    out: list[Problem] = []
    columns: dict[tuple[str, str], list[Problem]] = {}
    for problem in problems:
        deck, _, rest = problem.key.partition("[")
        if deck in sources and "]." in rest:
            columns.setdefault((deck, rest.split("].", 1)[1]), []).append(problem)
        else:
            out.append(problem)
    for (deck, field), rows in columns.items():
        column = lang if NAME_OF.get(deck) == field else f"{field}.{lang}"
        lines = [p.line for p in rows if p.line is not None]
        span = f" (lines {min(lines)}-{max(lines)})" if len(lines) > 1 else ""
        out.append(Problem(sources[deck], deck, f"no {lang!r} text in {len(rows)} cards{span}: fill a column "
                           f"{column!r}", 1))
    return out


def check_language(layout: GameInfo, engine: str, lang: str) -> None:
    """Everything a render in `lang` prints from the layout: every text of it in that language,
    its rules text and the notes that go with it. One DataError naming each missing key (file,
    key, line) and file: an English-only layout renders in English with nothing else, and
    says what French would need."""
    doc = layout.doc
    problems = _by_column(languages.missing(doc.data, lang, doc.lines, doc.path, doc.file_of), doc.sources, lang)
    rules_line = line_of(doc.lines, ("game", "rules"))
    try:
        rules_file(layout.rules, lang, doc.path)
    except DataError as exc:
        problems += [Problem(doc.path, p.key, p.message, rules_line) for p in exc.problems]
    if notes_file(engine, "en", rules=layout.rules, beside=doc.path, wanted=notes_wanted(layout)) is not None \
            and notes_file(engine, lang, rules=layout.rules, beside=doc.path, wanted=notes_wanted(layout)) is None:
        problems.append(Problem(doc.path, "game.interpretations", f"the notes on the rules have no {lang!r} text "
                                f"({layout.rules}.interpretations.{lang}.md or {engine}.interpretations.{lang}.md)",
                                rules_line))
    if not problems:
        return
    has = languages.languages("game", doc.data)
    other = f"; it renders with --lang {has[0]}" if has and lang not in has else ""
    raise languages.LanguageError(f"{doc.path} is in {', '.join(has) or 'no language'}{other}. "
                                  f"A render in {lang!r} needs:", problems)


SIZES = (3.4, 3.3, 3.2, 3.1, 3.0, 2.9)  # type sizes the rules may take, largest first (mm)
LARGE_PRINT_MM = 18 * 25.4 / 72  # 18 pt: large print as the guides for low vision ask for it


def rules_size(pdf: PdfKit, blocks: list[tuple[str, str]], area: Rect, columns: int, gutter: float = 6.0) -> float:
    """The largest type size that sets the rules on as few pages as the smallest would: a last
    page of a few lines is tightened away rather than printed."""
    col_w = (area.w - gutter * (columns - 1)) / columns
    room = area.h * columns * 0.96  # a column rarely ends flush: paragraphs and headings break early

    def pages(size: float) -> int:
        return max(1, math.ceil(pdf.measure(blocks, col_w, size=size) / room))

    fewest = pages(SIZES[-1])
    return next(size for size in SIZES if pages(size) == fewest)


def rules_pages(pdf: PdfKit, blocks: list[tuple[str, str]], heading: str) -> list[Rect]:
    """The rules in columns, page after page, at the largest type that takes no more pages than
    needed (rules_size); returns the free areas left on the last page (below the end of the
    text, and any column the text did not reach)."""
    area = pdf.base_frame.content
    columns = 2 if area.w > 150 and not pdf.large_print else 1
    size = LARGE_PRINT_MM if pdf.large_print else rules_size(pdf, blocks, area, columns)
    remaining = pdf.flowables(blocks, size=size)
    while remaining:
        pdf.new_page(heading, kind="rules")
        left = pdf.flow(remaining, area, columns=columns, size=size)
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


def rules_html(title: str, blocks: list[tuple[str, str]], lang: str) -> str:
    """The rules as an accessible HTML page (what a screen reader or a braille display reads,
    with the headings to move by): the title as its one ``h1``, each heading an ``h2``, the
    bullets lists, large type that scales with the reader's own settings."""
    import html

    out = [f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
           f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
           f"<title>{html.escape(title)}</title>\n"
           "<style>body{font-family:sans-serif;font-size:1.5rem;line-height:1.5;max-width:40em;margin:auto;"
           "padding:1em}</style>\n</head>\n<body>\n<main>\n"
           f"<h1>{html.escape(title)}</h1>\n"]
    in_list = False
    for kind, text in blocks:  # the blocks' text is already escaped, with <b> its only markup
        if kind == "li" and not in_list:
            out.append("<ul>\n")
        elif kind != "li" and in_list:
            out.append("</ul>\n")
        in_list = kind == "li"
        tag = {"h": "h2", "li": "li"}.get(kind, "p")
        out.append(f"<{tag}>{text}</{tag}>\n")
    if in_list:
        out.append("</ul>\n")
    out.append("</main>\n</body>\n</html>\n")
    return "".join(out)
