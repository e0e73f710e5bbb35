"""Rules text of a kit: the Markdown rules sheets and the engine's interpretations, read with
their placeholders filled, and flowed onto the rules pages."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from boardgen.data import files, languages, strings, translation
from boardgen.data.paths import layouts_root
from boardgen.data.strings import word
from boardgen.data.toml_lines import line_of
from boardgen.errors import DataError, Problem, UsageError
from boardgen.geometry import Rect
from boardgen.render.pdf import PdfKit

if TYPE_CHECKING:
    from boardgen.model.game import GameInfo

# A placeholder in rules text: a name in braces, filled from the layout (`fill_placeholders`).
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fill_placeholders(
    text: str, values: Mapping[str, object], *, file: str, line: int | None = None
) -> tuple[str, list[Problem]]:
    """`text` with every ``{name}`` replaced by ``values[name]``, and a problem for each
    name that `values` does not have (the text keeps it unfilled)."""
    problems: list[Problem] = []

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            known = ", ".join("{" + k + "}" for k in sorted(values)) or "none"
            problems.append(Problem(file, "{" + name + "}", f"unknown placeholder; this layout fills {known}", line))
            return match.group(0)
        return str(values[name])

    return PLACEHOLDER.sub(one, text), problems


# A rules text is a few pages (the bundled ones 2-6 KiB); a house rules file over this is refused.
RULES_MAX_BYTES = 64 * 1024
# A paragraph is one line of the file; one longer than about a page is flowed again on every page
# it reaches (a 250 KB paragraph took 30 s): a paragraph over this is refused (bundled: 548).
MAX_PARAGRAPH_CHARS = 4000
# A word longer than a column is cut across lines by reportlab one character at a time, and the
# rest cut again on every page: a 1 MB word took minutes. No real word comes near this.
MAX_WORD_CHARS = 200
LONG_WORD = re.compile(r"\S{" + str(MAX_WORD_CHARS + 1) + ",}")


def read_rules(path: Path, shown: str | None = None) -> str:
    """The text of a rules file (bundled, or the user's house rules beside a layout) through the
    one reader of user files: a regular file, no link, no FIFO, at most RULES_MAX_BYTES, UTF-8."""
    return files.read_text(path, shown, limit=RULES_MAX_BYTES, what="a rules text")


def read_blocks(
    relative: str, values: Mapping[str, object] | None = None, *, path: Path | None = None
) -> list[tuple[str, str]]:
    """Read layouts/<relative> (or `path`, a file of the user's), a small Markdown text: '# '
    headings, '- ' bullets, other lines paragraphs, ``**bold**``, ``<!-- comments -->`` left out
    (a line of the original being translated prints only with a fallback, see
    boardgen.data.translation); ``{name}`` placeholders
    are filled from `values` (every unknown one is reported, with its line, as a `DataError`)."""
    shown = f"layouts/{relative}" if path is None else str(path)
    path = layouts_root() / relative if path is None else path
    if not path.exists() and not path.is_symlink():
        raise DataError([Problem(shown, "", "rules text not found")])
    blocks: list[tuple[str, str]] = []
    problems: list[Problem] = []
    lines, _untranslated = translation.rules_lines(read_rules(path, shown), fallback=strings.fallback() is not None)
    for number, raw in lines:
        long_word = LONG_WORD.search(raw)
        if long_word is not None:
            problems.append(
                Problem(
                    shown,
                    "",
                    f"a word of {len(long_word.group(0)):,} characters; a word of a rules "
                    f"text has at most {MAX_WORD_CHARS} (no column is wider): put spaces in it",
                    number,
                )
            )
            continue
        if len(raw) > MAX_PARAGRAPH_CHARS:
            problems.append(
                Problem(
                    shown,
                    "",
                    f"a paragraph of {len(raw):,} characters; a paragraph (one line) of a "
                    f"rules text has at most {MAX_PARAGRAPH_CHARS:,}: break it into several lines",
                    number,
                )
            )
            continue
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
    return strings.own_folder(beside)


def user_rules_folder() -> Path:
    """The user's rules texts of every game: ``$XDG_DATA_HOME/boardgen/rules``."""
    return strings.user_data_folder() / "rules"


def _lang_of(path: Path, name: str) -> str:
    return path.name[len(name) + 1 : -3]


def own_texts(name: str, beside: str | None) -> list[Path]:
    """The layout's own rules texts <name>.<lang>.md in its folder (none for a bundled layout)."""
    folder = _own_folder(beside)
    if folder is None or not RULES_NAME.match(name):
        return []
    return sorted(
        p
        for p in folder.glob(f"{name}.*.md")
        if languages.LANGUAGE_CODE.match(_lang_of(p, name)) and p.resolve().parent == folder
    )


def _bundled() -> list[str]:
    """The bundled rules texts' names."""
    return sorted(
        {p.name.split(".")[0] for p in (layouts_root() / "rules").glob("*.md") if ".interpretations." not in p.name}
    )


def _shared(name: str, lang: str) -> Path | None:
    """<name>.<lang>.md of the user's data folder, else the bundled one, else None."""
    if not RULES_NAME.match(name.removesuffix(".interpretations")):
        return None
    return next(
        (
            path
            for path in (user_rules_folder() / f"{name}.{lang}.md", layouts_root() / "rules" / f"{name}.{lang}.md")
            if path.is_file()
        ),
        None,
    )


def rules_file(name: str, lang: str, beside: str | None) -> Path:
    """Where the rules text <name> in `lang` is: beside a layout of the user's that has texts
    of that name (then only there), else in the user's data folder, else bundled. A missing one
    is a DataError at the layout's ``game.rules``, saying where it was looked for."""
    shown = beside if beside is not None else "layouts/games"
    own = own_texts(name, beside)
    if own:
        wanted = own[0].parent / f"{name}.{lang}.md"
        if wanted in own:
            return wanted
        have = ", ".join(p.name for p in own)
        raise DataError(
            [
                Problem(
                    shown,
                    "game.rules",
                    f"{name}.{lang}.md not found beside the layout (in {own[0].parent}); it has {have}",
                )
            ]
        )
    found = _shared(name, lang)
    if found is not None:
        return found
    folder = _own_folder(beside)
    where = f"beside the layout (in {folder}), " if folder is not None else ""
    raise DataError(
        [
            Problem(
                shown,
                "game.rules",
                f"no rules text {name}.{lang}.md {where}in {user_rules_folder()} "
                f"nor among the bundled ones ({', '.join(_bundled())})",
            )
        ]
    )


def rules_languages(name: str, beside: str | None) -> list[str]:
    """Every language the rules text <name> is in, where `rules_file` would look."""
    own = own_texts(name, beside)
    if own:
        return languages.order([_lang_of(p, name) for p in own])
    found = [
        _lang_of(p, name)
        for folder in (user_rules_folder(), layouts_root() / "rules")
        for p in folder.glob(f"{name}.*.md")
        if ".interpretations." not in p.name
    ]
    return languages.order([code for code in found if languages.LANGUAGE_CODE.match(code)])


def rules_blocks(
    name: str, lang: str, values: Mapping[str, object] | None = None, *, beside: str | None = None
) -> list[tuple[str, str]]:
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


def notes_file(
    engine: str, lang: str, *, rules: str | None = None, beside: str | None = None, wanted: bool | None = None
) -> Path | None:
    """Which notes on how boardgen reads the rules go with the rules text used, or None.

    With the bundled rules text: its own notes (<rules>.interpretations.<lang>.md, which may
    speak of its variants), else the engine's (<engine>.interpretations.<lang>.md: the rules
    as the engine plays them, no variant). With a text of the user's beside the layout: its
    own <rules>.interpretations.<lang>.md if there is one, else the engine's only if the
    layout asks for them (``interpretations = true``), since a house rule may differ.
    ``interpretations = false`` prints none."""
    engine_notes = _shared(f"{engine}.interpretations", lang)
    own = own_texts(rules, beside) if rules is not None else []
    if own:
        mine = own[0].parent / f"{rules}.interpretations.{lang}.md"
        if mine.is_file() and wanted is not False:
            return mine
        return engine_notes if wanted else None
    if wanted is False:
        return None
    texts_notes = _shared(f"{rules}.interpretations", lang) if rules is not None else None
    return texts_notes or engine_notes


def interpretation_blocks(
    engine: str, lang: str, values: Mapping[str, object] | None = None, *, layout: GameInfo | None = None
) -> list[tuple[str, str]]:
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
        out.append(
            Problem(sources[deck], deck, f"no {lang!r} text in {len(rows)} cards{span}: fill a column {column!r}", 1)
        )
    return out


def printable(layout: GameInfo, engine: str) -> list[str]:
    """Every language the game can print: the layout's texts have it, its rules text (and the
    notes that go with it) is in it, and boardgen has a strings file for it (bundled, the
    user's data folder's or beside the layout)."""
    doc = layout.doc
    texts = set(languages.languages("game", doc.data))
    words = set(strings.available())
    wanted = notes_wanted(layout)
    notes = notes_file(engine, "en", rules=layout.rules, beside=doc.path, wanted=wanted) is not None
    return [
        lang
        for lang in rules_languages(layout.rules, doc.path)
        if lang in texts
        and lang in words
        and (not notes or notes_file(engine, lang, rules=layout.rules, beside=doc.path, wanted=wanted))
    ]


def script_problems(layout: GameInfo, lang: str) -> list[Problem]:
    """A problem for each text of the render in `lang` in a script boardgen cannot print as it is
    read (right to left, or shaped: see boardgen.data.scripts); first the layout's, then the
    rules text's, then the strings file's."""
    from boardgen.data.scripts import unprintable

    doc = layout.doc
    problems: list[Problem] = []
    for key, text in languages.texts(doc.data):
        why = unprintable(text.get(lang, ""))
        if why:
            file, dotted, line = doc.where(*key)
            problems.append(Problem(file, dotted, f"{text[lang][:40]!r}: {why}", line))
    try:
        rules: Path | None = rules_file(layout.rules, lang, doc.path)
    except DataError:
        rules = None
    if rules is not None:
        for number, raw in enumerate(read_rules(rules, shown_path(rules)).split("\n"), start=1):
            why = unprintable(raw)
            if why:
                problems.append(Problem(str(rules), "", why, number))
                break
    words = strings.strings_file(lang)
    if words is not None:
        for name, value in strings.read(words).items():
            why = unprintable(str(value))
            if why:
                problems.append(Problem(strings.shown(words), name, why))
                break
    return problems


def shown_path(path: Path) -> str:
    """A rules text as messages name it: layouts/rules/... when bundled, else its path."""
    return f"layouts/rules/{path.name}" if path.parent == layouts_root() / "rules" else str(path)


def untranslated(path: Path) -> list[Problem]:
    """A problem for each line of a rules text still to translate (none with a fallback)."""
    if strings.fallback() is not None:
        return []
    _lines, left = translation.rules_lines(read_rules(path, shown_path(path)), fallback=False)
    return [
        Problem(shown_path(path), "", f"not translated: {text[:60]!r}; --fallback prints it as it is", number)
        for number, text in left
    ]


def check_language(layout: GameInfo, engine: str, lang: str) -> None:
    """Everything a render in `lang` prints from the layout: every text of it in that language,
    its rules text and the notes that go with it, the interface words of a strings file, all in
    a script boardgen prints. One DataError naming each missing key (file, key, line) and file:
    an English-only layout renders in English with nothing else, and says what French would need."""
    doc = layout.doc
    can = printable(layout, engine)
    scripts = script_problems(layout, lang)
    if scripts:
        raise languages.LanguageError(
            f"--lang {lang}: {doc.path} cannot be printed in {lang!r}"
            f" (it prints in {', '.join(can) or 'no language'}):",
            scripts,
        )
    if strings.strings_file(lang) is None:
        places = ", ".join(str(p) for p in strings.search_path(lang))
        raise UsageError(
            f"--lang {lang}: {layout.id} prints in {', '.join(can) or 'no language'}; "
            f"boardgen has no strings file for {lang!r} (looked for {places}); "
            f"`boardgen new language {lang} --from en` writes one to translate"
        )
    problems = _by_column(languages.missing(doc.data, lang, doc.lines, doc.path, doc.file_of), doc.sources, lang)
    rules_line = line_of(doc.lines, ("game", "rules"))
    try:
        rules = rules_file(layout.rules, lang, doc.path)
    except DataError as exc:
        problems += [Problem(doc.path, p.key, p.message, rules_line) for p in exc.problems]
    else:
        problems += untranslated(rules)
    notes = notes_file(engine, lang, rules=layout.rules, beside=doc.path, wanted=notes_wanted(layout))
    if notes is not None:
        problems += untranslated(notes)
    if (
        notes_file(engine, "en", rules=layout.rules, beside=doc.path, wanted=notes_wanted(layout)) is not None
        and notes_file(engine, lang, rules=layout.rules, beside=doc.path, wanted=notes_wanted(layout)) is None
    ):
        problems.append(
            Problem(
                doc.path,
                "game.interpretations",
                f"the notes on the rules have no {lang!r} text "
                f"({layout.rules}.interpretations.{lang}.md or {engine}.interpretations.{lang}.md)",
                rules_line,
            )
        )
    if strings.fallback() in (None, lang):
        problems += strings.key_problems(lang, strings.missing_keys(lang))
    if not problems:
        return
    other = f"; it renders with --lang {' or '.join(can)}" if can and lang not in can else ""
    has = languages.languages("game", doc.data)
    raise languages.LanguageError(
        f"{doc.path} is in {', '.join(has) or 'no language'}{other}. A render in {lang!r} needs:", problems
    )


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

    out = [
        f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n"
        "<style>body{font-family:sans-serif;font-size:1.5rem;line-height:1.5;max-width:40em;margin:auto;"
        "padding:1em}</style>\n</head>\n<body>\n<main>\n"
        f"<h1>{html.escape(title)}</h1>\n"
    ]
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
