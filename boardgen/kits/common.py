"""What every kit shares: options, safe file output, rules text, cover page parts."""

from __future__ import annotations

import ctypes
import errno
import hashlib
import os
import re
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from boardgen.data.paths import layouts_root
from boardgen.data.strings import word
from boardgen.data.theme import Theme
from boardgen.errors import DataError, Interrupted, OutputError, Problem, UsageError
from boardgen.options import page_kinds
from boardgen.render.imposition import CROP_RING, Rect, Tiling, frame_for, paper, place_keys, svg_size
from boardgen.render.pdf import Form, PdfKit

# The check's one-line verdict for the cover, or what gives it once the check is done (it may
# still be running beside the drawing when the cover is made: see boardgen.background).
Summary = str | Callable[[], str]


@dataclass(frozen=True)
class KitOptions:
    paper: str = "a4"
    margin: float = 8.0
    theme: str = "classic"
    lang: str = "en"
    seed: int | None = None
    joint: str = "butt"
    overlap: float = 10.0
    orientation: str = "auto"
    backs: str = "duplex"
    flip: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    board_sheets: tuple[int, ...] | None = None
    only: tuple[str, ...] | None = None  # reprint only these kinds of page (options.PARTS)
    previews: bool = True
    preview_dpi: int | None = None  # None: board.png at 150 dpi, pages at 60 (render.preview)
    svg: bool = True
    force: bool = False
    recheck: bool = False  # check the layout again even if its verdict is kept


@dataclass
class KitResult:
    game: str
    folder: Path
    pdf: Path
    pages: int
    files: list[Path] = field(default_factory=list)
    summary: str = ""
    warnings: list[str] = field(default_factory=list)


def _mm(value: float) -> str:
    return f"{value:g}".replace("-", "m")


def kit_id(game: str, layout_id: str) -> str:
    """The name of a kit's folder and files: the layout's id, except for a layout of the user's
    that keeps a bundled game's id (a copy, a generated board): it is named after its file, so
    it never writes over the bundled game's kit."""
    from boardgen.data.loader import bundled_names, resolve

    path = resolve("game", game).resolve()
    if path.is_relative_to(layouts_root().resolve()) or layout_id not in bundled_names("game"):
        return layout_id
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", path.stem).strip("_") or "layout"
    return stem if stem not in bundled_names("game") else f"{stem}-own"


def kit_file_name(game: str, options: KitOptions) -> str:
    """The PDF's file name: the game and paper, then every option that changes the printed
    pages and differs from its default, so two variants of a kit never overwrite each other.
    The one place kit names are made (reprints, authoring commands and tests use it)."""
    default = KitOptions()
    parts = [game, paper(options.paper).name]
    if options.lang != default.lang:
        parts.append(options.lang)
    if options.theme != default.theme:
        parts.append(Path(options.theme).stem if options.theme.endswith(".toml") else options.theme)
    if options.seed is not None:
        parts.append(f"seed{options.seed}")
    if options.orientation != default.orientation:
        parts.append(options.orientation)
    if options.margin != default.margin:
        parts.append(f"margin{_mm(options.margin)}")
    if options.joint != default.joint:
        parts.append(options.joint + ("" if options.overlap == default.overlap else _mm(options.overlap)))
    if options.backs != default.backs:
        parts.append({"fold": "fold", "none": "nobacks"}.get(options.backs, options.backs))
    elif options.flip != default.flip:
        parts.append(f"flip{options.flip}")
    if options.backs == "duplex" and options.back_offset != default.back_offset:
        parts.append("offset" + "_".join(_mm(v) for v in options.back_offset))
    if options.board_sheets is not None:
        # A reprint of some board sheets gets its own file: it never replaces the whole kit.
        parts.append("sheets-" + "-".join(map(str, options.board_sheets)))
    if options.only is not None:
        only = "only-" + "-".join(options.only)
        if len(only) > 120:  # many single pieces: a file name stays well under the 255 bytes allowed
            digest = hashlib.sha256(",".join(options.only).encode()).hexdigest()[:10]
            only = f"only-{len(options.only)}-parts-{digest}"
        parts.append(only)
    return re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts)) + ".pdf"


# Output ------------------------------------------------------------------------------------
#
# A kit folder always holds one complete kit, the old one or the new one: the new kit is written
# whole into a hidden folder beside it, the files of the old folder that are not the kit's (other
# papers' PDFs, reprints, the user's own) are linked in, and the two folders are exchanged with
# one atomic rename. A failure or a signal before that leaves the old kit as it was and removes
# the hidden folder. Files and folders get the modes the umask gives, as any other program's.

# The parts of a kit that a new kit replaces, or removes when it has none (--no-svg, ...).
KIT_FOLDERS = ("svg", "preview")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _blocked(path: Path) -> Path | None:
    """The first existing part of path that is not a folder, if any."""
    for part in reversed((path, *path.parents)):
        if part.exists() and not part.is_dir():
            return part
    return None


def prepare_folder(folder: Path) -> None:
    blocker = _blocked(folder)
    if blocker is not None:
        raise OutputError(f"cannot create output folder {folder}: {blocker} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create output folder {folder}: {exc.strerror}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"output folder {folder} is not writable")


def check_output(folder: Path, entries: list[str]) -> None:
    """Everything that would stop the kit being written into folder, found before any work:
    a file in the way of a folder (or the reverse), a folder that cannot be created or written.
    entries: the kit's top-level names, folders ending in '/'."""
    blocker = _blocked(folder)
    if blocker is not None:
        raise OutputError(f"cannot create output folder {folder}: {blocker} is a file, not a folder")
    existing = next(part for part in (folder, *folder.parents) if part.exists())
    parent = folder.parent if folder.exists() else existing
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"output folder {parent} is not writable")
    for entry in entries:
        path = folder / entry.rstrip("/")
        wants_folder = entry.endswith("/")
        if path.is_symlink() or (path.exists() and path.is_dir() != wants_folder):
            kind = "a folder" if wants_folder else "a file"
            raise OutputError(f"cannot write {path}: something other than {kind} is in the way; "
                              "move it elsewhere and render again")


@contextmanager
def interruptible() -> Iterator[Callable[[], None]]:
    """SIGINT and SIGTERM raise Interrupted while the kit is made. A signal that lands inside a
    C callback (pypdfium2, reportlab) can have its exception swallowed there, so the function
    yielded raises it again: call it before anything is swapped in."""
    received: list[int] = []
    owner = os.getpid()

    def handler(signum: int, _frame: object) -> None:
        if os.getpid() != owner:
            # A forked worker (self-play) inherited this handler: it just ends, quietly, as it
            # would have without it; the kit's own process does the cleaning up.
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        received.append(signum)
        raise Interrupted(signum)

    def check() -> None:
        if received:
            raise Interrupted(received[0])

    if threading.current_thread() is not threading.main_thread():
        yield check  # signals are only delivered to the main thread
        return
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield check
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def pieces_fit(files: dict[str, str], content_w: float, content_h: float, *, paper_name: str,
               backs: str, skip: tuple[str, ...] = ("board", "setup", "score-pad")) -> None:
    """Every piece drawn (each SVG's size in mm) fits the printable area: checked before the
    playability check, so a paper too small is known at once. Folded card backs need twice
    the width. (The score pad is not a true-size piece: the packer shrinks it to the page.)"""
    misfits: dict[str, str] = {}
    for name, svg in files.items():
        if name in skip:
            continue
        size = svg_size(svg)
        if size is None:
            continue
        w, h = size
        what = "score pad" if name == "score-pad" else name.split("-")[0]
        need_w = 2 * w if what == "card" and backs == "fold" else w
        if (need_w > content_w + 1e-6 or h > content_h + 1e-6) and what not in misfits:
            misfits[what] = (f"a {w:.1f} x {h:.1f} mm {what} does not fit the {content_w:.0f} x {content_h:.0f} mm "
                             f"printable area of {paper_name} paper")
    if misfits:
        raise UsageError("; ".join(misfits.values()) + ": use larger paper or smaller margins")


def write_atomic(path: Path, data: bytes) -> Path:
    """Write next to the target, then rename: an existing file is never left half-written."""
    prepare_folder(path.parent)
    temp = None
    try:
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except BaseException as exc:
        if temp is not None and os.path.exists(temp):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path}: {exc.strerror}") from None
        raise
    return path


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2); False where that is not available."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _carry_over(old: Path, new: Path, replaced: set[str]) -> None:
    """Link (or copy) into new what old holds that the new kit does not replace; a replaced
    name may be nested ('preview/classic-a4'), and the rest of its folder is carried over."""
    for entry in sorted(old.iterdir()):
        if entry.name in replaced:
            continue
        inner = {name.split("/", 1)[1] for name in replaced if name.startswith(entry.name + "/")}
        target = new / entry.name
        if inner and entry.is_dir() and not entry.is_symlink():
            target.mkdir(exist_ok=True)
            _carry_over(entry, target, inner)
        elif entry.is_symlink():
            os.symlink(os.readlink(entry), target)
        elif entry.is_dir():
            shutil.copytree(entry, target, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(entry, target)


def _link_or_copy(source: Path | str, target: Path | str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def write_kit(folder: Path, files: dict[str, bytes], *, owned: tuple[str, ...] = KIT_FOLDERS,
              before_swap: Callable[[], None] | None = None) -> list[Path]:
    """Replace the kit in folder by files (relative POSIX paths: 'svg/board.svg', 'x.pdf'),
    all at once. owned: top-level names that belong to the kit, dropped from the old one
    even when the new kit has none. before_swap runs last: it may still cancel everything."""
    prepare_folder(folder.parent)
    _drop_stale(folder)
    mask = _umask()
    staging: Path | None = None
    try:
        staging = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.new-{os.getpid()}-"))
        os.chmod(staging, 0o777 & ~mask)
        for name, data in sorted(files.items()):
            path = staging / name
            if not path.parent.is_dir():
                path.parent.mkdir(parents=True)  # mkdir honours the umask itself
            with path.open("xb") as out:
                out.write(data)
        if folder.exists():
            tops = {name.split("/")[0] for name in files if not any(name.startswith(o + "/") for o in owned)}
            _carry_over(folder, staging, tops | set(owned))
        if before_swap is not None:
            before_swap()
        if not folder.exists():
            staging.rename(folder)
            staging = None
        elif _exchange(staging, folder):
            pass  # staging now holds the old kit, removed below
        else:
            old = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.old-{os.getpid()}-"))
            os.rmdir(old)
            folder.rename(old)
            staging.rename(folder)
            staging = old
    except OSError as exc:
        raise OutputError(f"cannot write {folder}: {exc.strerror or exc}") from None
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    return [folder / name for name in sorted(files)]


def _drop_stale(folder: Path) -> None:
    """Remove the hidden staging folders (`.<kit>.new-<pid>-*`, `.<kit>.old-<pid>-*`) that a
    render killed outright (SIGKILL, a power cut) left beside the kit: those of a process
    that no longer runs. A render still running keeps its own."""
    pattern = re.compile(re.escape(f".{folder.name}.") + r"(?:new|old)-(\d+)-")
    try:
        siblings = list(folder.parent.iterdir())
    except OSError:
        return
    for path in siblings:
        match = pattern.match(path.name)
        if match and not _running(int(match.group(1))) and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process (or a number no process has): left alone
    return True


# Rules text --------------------------------------------------------------------------------

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


def impose(layout: Any, theme: Theme, options: KitOptions, drawings: Any, tiling: Tiling, *, subject: str,
           pages: Callable[[PdfKit, Form], None]) -> tuple[bytes, list[str]]:
    """Open the kit's PDF and make the board a form once; then either reprint only the board
    sheets asked for, or lay out the whole kit with `pages(pdf, board)`. Returns the PDF and
    the kind of each page."""
    lang = options.lang
    pdf = PdfKit(frame_for(paper(options.paper), options.margin), theme, lang, title=layout.title[lang],
                 subject=subject, only=page_kinds(options.only))
    board = pdf.add_svg_form("Board", drawings.board)
    if options.board_sheets is not None:
        pdf.board_sheets(board, tiling.select(options.board_sheets), heading=word(lang, "board"))
    else:
        pages(pdf, board)
    return pdf.finish(), pdf.kinds


def card_section(pdf: PdfKit, fronts: list[Form], back: Form, *, bleed: float, options: KitOptions,
                 heading: str) -> None:
    """Card fronts with the backs the user chose (duplex pages, fold-over or none)."""
    pdf.card_sheets(fronts, back, bleed=bleed, heading=heading, back_heading=word(pdf.lang, "card_backs"),
                    backs=options.backs, flip=options.flip, back_offset=options.back_offset)


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


# Cover ---------------------------------------------------------------------------------------

def assembly_map(pdf: PdfKit, board: Form, tiling: Tiling, box: Rect) -> None:
    """A small picture of the board with the sheet grid, numbers and place names."""
    scale = min(box.w / tiling.board_w, box.h / tiling.board_h)
    w, h = tiling.board_w * scale, tiling.board_h * scale
    x0, y0 = box.x + (box.w - w) / 2, box.y + (box.h - h) / 2
    pdf.place(board, x0, y0, scale=scale)
    width = pdf.theme.strokes["map_seam"]
    for sx in tiling.seams_x:
        pdf.line(x0 + sx * scale, y0 - 2, x0 + sx * scale, y0 + h + 2, colour="ink", width=width, dash=(2, 1))
    for sy in tiling.seams_y:
        pdf.line(x0 - 2, y0 + sy * scale, x0 + w + 2, y0 + sy * scale, colour="ink", width=width, dash=(2, 1))
    for piece in tiling.pieces:
        cx = x0 + (piece.trim.x + piece.trim.w / 2) * scale
        cy = y0 + (piece.trim.y + piece.trim.h / 2) * scale
        disc = Rect(cx - 5, cy - 5, 10, 10)
        pdf.rect(disc, fill="paper", stroke="ink", width=pdf.theme.strokes["tile_edge"], alpha=0.9)
        pdf.text(str(piece.index + 1), cx, cy + 1.5, size=4.2, weight="bold", anchor="middle")
        name = " ".join(word(pdf.lang, k) for k in place_keys(piece))
        if name:
            # On a light box so the name reads over the board's picture and the seam lines.
            width = min(pdf.text_width(name, size=2.8) + 2.0, piece.trim.w * scale * 0.9)
            pdf.rect(Rect(cx - width / 2, cy + 6.4, width, 3.8), fill="paper", alpha=0.9)
            pdf.text(name, cx, cy + 9, size=2.8, anchor="middle", width=width - 2.0)


def _bullets(lines: list[str]) -> list[tuple[str, str]]:
    return [("li", line.replace("&", "&amp;").replace("<", "&lt;")) for line in lines]


def bullet_list(pdf: PdfKit, lines: list[str], x: float, y: float, width: float, *,
                size: float = 3.2) -> float:
    """Short bullet lines from y down; returns the y below the last one."""
    blocks = _bullets(lines)
    height = pdf.measure(blocks, width, size=size) + 2
    pdf.paragraphs(blocks, Rect(x, y, width, height), size=size)
    return y + height


def board_line(lang: str, tiling: Tiling) -> str:
    """The contents line for a tiled board."""
    return word(lang, "contents_board", sheets=len(tiling.pieces), rows=tiling.rows, cols=tiling.cols,
                w=tiling.board_w, h=tiling.board_h)


def page_ranges(pages: list[int]) -> str:
    """1-based page numbers as '1-8, 15'."""
    out: list[str] = []
    for n in sorted(pages):
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = out[-1].split("-")[0] + f"-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def print_help(lang: str, options: KitOptions, kinds: list[str], tiling: Tiling, *,
               pieces_on_board: bool = False) -> list[str]:
    """The cover's printing steps, from the options and the kinds of the pages that follow."""
    lines = [word(lang, "print_scale")]
    duplex = [i + 1 for i, kind in enumerate(kinds) if kind in ("cards", "card-backs")] \
        if options.backs == "duplex" else []
    if duplex:
        single = [i + 1 for i in range(len(kinds)) if i + 1 not in duplex]
        edge = word(lang, f"edge_{options.flip}")
        if single:
            lines.append(word(lang, "print_sides", single=page_ranges(single), double=page_ranges(duplex),
                              edge=edge))
        else:
            lines.append(word(lang, "print_sides_only", double=page_ranges(duplex), edge=edge))
        lines.append(word(lang, "print_duplex_test", pair=page_ranges(duplex[:2])))
    else:
        lines.append(word(lang, "print_single"))
        if "cards" in kinds:
            lines.append(word(lang, "print_fold" if options.backs == "fold" else "print_no_backs"))
    lines.append(word(lang, "print_stock"))
    lines.append(word(lang, "print_board_overlap" if tiling.style == "overlap" else "print_board_butt"))
    if pieces_on_board:
        lines.append(word(lang, "print_pieces_on_board"))
    lines += [word(lang, "print_warning", text=text) for text in tiling.warnings]
    return lines


def cover_page(pdf: PdfKit, *, title: str, tagline: str, contents: list[str], summary: Summary,
               board: Form, tiling: Tiling, options: KitOptions, side: tuple[str, Form, float] | None = None,
               side_lines: tuple[str, list[str]] | None = None) -> None:
    """Title, contents, print help, the check's verdict, the assembly map and one side panel:
    a picture (title, form, its size in mm) or a list of lines (title, lines)."""
    lang = pdf.lang
    pdf.new_page(title, kind="cover")
    area = pdf.frame.content
    pdf.text(title, area.x, area.y + 10, size=11, role="title", weight="bold", width=area.w)
    pdf.text(tagline, area.x, area.y + 17, size=4.2, fill="muted", width=area.w)
    y = area.y + 25
    half = (area.w - 8) / 2
    pdf.text(word(lang, "contents"), area.x, y, size=4.0, weight="bold")
    y_left = bullet_list(pdf, contents, area.x, y + 2, half)
    pdf.text(word(lang, "how_to_print"), area.x + half + 8, y, size=4.0, weight="bold")
    # The steps name page numbers not known yet: room is measured with the longest numbers a
    # kit can have, and the text is drawn when the PDF is finished.
    widest = ["cards", "card-backs"] * 2 + ["tiles"] * 90 + ["cards", "card-backs"] * 2
    sample = print_help(lang, options, widest, tiling, pieces_on_board=True)
    help_x, help_y = area.x + half + 8, y + 2
    y_right = help_y + pdf.measure(_bullets(sample), half, size=3.2) + 2

    def steps() -> None:
        lines = print_help(lang, options, pdf.kinds, tiling, pieces_on_board=pdf.pieces_on_board)
        bullet_list(pdf, lines, help_x, help_y, half)

    pdf.later("PrintHelp", steps)
    y = max(y_left, y_right) + 3
    def verdict(line_y: float = y) -> None:
        said = summary() if callable(summary) else summary
        pdf.text(word(lang, "playability_line", summary=said or word(lang, "not_checked")), area.x, line_y,
                 size=3.2, width=area.w)

    # Drawn when the PDF is finished: the check may still be running while the pages are made.
    pdf.later("Playability", verdict)
    y += 8
    size = min(half, area.bottom - y - 8)
    pdf.text(word(lang, "assembly"), area.x, y, size=3.6, weight="bold")
    assembly_map(pdf, board, tiling, Rect(area.x, y + 3, half, size))
    right = area.x + half + 8
    if side is not None:
        heading, form, form_mm = side
        pdf.text(heading, right, y, size=3.6, weight="bold", width=half)
        pdf.place(form, right + (half - size) / 2, y + 3, scale=size / form_mm, showcase=True)
    elif side_lines is not None:
        heading, lines = side_lines
        pdf.text(heading, right, y, size=3.6, weight="bold", width=half)
        bullet_list(pdf, lines, right, y + 3, half, size=2.8)


@dataclass
class Block:
    """Pieces of one size: butted ones share cut lines (crop marks around the block), the others
    have their own cut outlines and a gap between them. A `scalable` piece (a score pad) may be
    shrunk to fit a page that is smaller than it."""

    title: str
    forms: list[Form]
    gap: float = 2.0
    butted: bool = False
    scalable: bool = False
    turnable: bool = False  # may lie turned 90 degrees where upright it does not fit


class Packer:
    """Pieces packed block after block into free areas: first the space under the board parts
    of board sheets, then as many pages as the rest needs."""

    TITLE = 6.0  # room for a block's title line
    SPACING = 4.0  # between blocks

    def __init__(self, pdf: PdfKit, blocks: list[Block]) -> None:
        self.pdf = pdf
        self.blocks = [replace(b, forms=list(b.forms)) for b in blocks if b.forms]
        self.heading = ""

    @property
    def done(self) -> bool:
        return all(not b.forms for b in self.blocks)

    def fill(self, area: Rect, *, titles: bool = True) -> int:
        """Place what fits in the area of another kind of page (board sheets, rules), from its
        top; returns how many pieces were placed. Nothing goes on a page a reprint drops: the
        pieces would be lost with it (they go on their own pages)."""
        pdf = self.pdf
        if pdf.only is not None and pdf.kinds and pdf.kinds[-1] not in pdf.only:
            return 0
        return self._fill(area, titles=titles)

    def _fill(self, area: Rect, *, titles: bool = True) -> int:
        placed_total = 0
        y = area.y
        for block in self.blocks:
            while block.forms:
                placed, bottom = self._place(block, Rect(area.x, y, area.w, area.bottom - y), titles=titles)
                if not placed:
                    break
                placed_total += placed
                y = bottom + self.SPACING
        return placed_total

    def _place(self, block: Block, room: Rect, *, titles: bool) -> tuple[int, float]:
        pdf = self.pdf
        form = block.forms[0]
        titled = titles and block.title != self.heading  # the page heading already says it
        top = room.y + (self.TITLE if titled else 0.0) + (CROP_RING if block.butted else 0.0)
        gap = 0.0 if block.butted else block.gap
        best = (0, 0, 0, 0)
        for turned in (False, True) if block.turnable else (False,):
            w, h = (form.h, form.w) if turned else (form.w, form.h)
            cols = int((room.w + gap + 1e-9) // (w + gap))
            rows = int((room.bottom - top + gap + 1e-9) // (h + gap))
            if min(cols * rows, len(block.forms)) > best[0]:
                best = (min(cols * rows, len(block.forms)), cols, rows, 90 if turned else 0)
        count, cols, rows, rotate = best
        if count < 1:
            return 0, room.y
        w, h = (form.h, form.w) if rotate else (form.w, form.h)
        cols = min(cols, count)
        rows = -(-count // cols)
        used_w = cols * w + (cols - 1) * gap
        x0 = room.x + (room.w - used_w) / 2
        if titled:
            pdf.text(block.title, room.x, room.y + 4.5, size=3.4, weight="bold", width=room.w)
        for i in range(count):
            r, c = divmod(i, cols)
            pdf.place(block.forms[i], x0 + c * (w + gap), top + r * (h + gap), rotate=rotate)
        form = Form(form.name, w, h)
        bottom = top + rows * h + (rows - 1) * gap
        if block.butted:
            # Marks extend every cut line outside the block (a partial last row's edges included).
            xs = [x0 + k * form.w for k in range(cols + 1)]
            ys = [top + k * form.h for k in range(rows + 1)]
            pdf.crop_marks(xs, ys, Rect(x0, top, used_w, bottom - top))
            bottom += CROP_RING
        del block.forms[:count]
        return count, bottom

    def pages(self, *, kind: str, heading: str | None = None) -> None:
        """New pages until every piece is placed; a piece too big for an empty page is named.
        Pages are headed `heading`, or else the title of the first block they hold."""
        pdf = self.pdf
        area = pdf.base_frame.content  # not the board's (maybe turned) frame
        while not self.done:
            first = next(b for b in self.blocks if b.forms)
            self.heading = heading or first.title
            pdf.new_page(self.heading, kind=kind)
            if self._fill(area):
                continue
            form = first.forms[0]
            if first.scalable:
                titled = first.title != self.heading  # the page heading already says it
                top = area.y + (self.TITLE if titled else 0.0)
                scale = min(area.w / form.w, (area.bottom - top) / form.h)
                if titled:
                    pdf.text(first.title, area.x, area.y + 4.5, size=3.4, weight="bold", width=area.w)
                pdf.place(form, area.x + (area.w - form.w * scale) / 2, top, scale=scale)
                del first.forms[0]
                continue
            raise UsageError(f"a {form.w:.1f} x {form.h:.1f} mm {first.title.lower()} piece does not fit the "
                             f"{area.w:.0f} x {area.h:.0f} mm printable area: use larger paper or smaller margins")


def pack_pieces(pdf: PdfKit, blocks: list[tuple[str, list[Form], float]], *, heading: str, kind: str) -> None:
    """Pieces with their own cut outlines on new pages, block after block: (title, forms of one
    size, gap in mm). The Packer does it; kits that want the room under their board parts or
    beside their rules use it directly."""
    packer = Packer(pdf, [Block(title, forms, gap=gap) for title, forms, gap in blocks])
    packer.pages(kind=kind, heading=heading)
