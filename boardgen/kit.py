"""Make a whole kit: check the layout, draw every piece, impose the PDF, write the files."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path

from boardgen.checks import require_playable
from boardgen.data.strings import strings
from boardgen.data.theme import load_theme
from boardgen.games import load_game
from boardgen.kits.common import (
    KitOptions,
    KitResult,
    kit_file_name,
    prepare_folder,
    replace_folder,
    write_atomic,
)
from boardgen.render import preview
from boardgen.render.imposition import paper
from boardgen.render.pdf import svg_page

Progress = Callable[[int, int, str], None]


def render_kit(game: str, out_root: Path, options: KitOptions, *, check: bool = True,
               progress: Progress | None = None) -> KitResult:
    """Everything is drawn in memory first; files are written only once all of it succeeded."""
    strings(options.lang)
    paper(options.paper)
    engine, layout = load_game(game)
    theme = load_theme(options.theme)
    kit = importlib.import_module(f"boardgen.kits.{engine.kit}")
    seed = layout.default_seed if options.seed is None else options.seed
    setup = kit.setup(layout, seed)
    report = require_playable(engine, layout, seed, force=options.force, progress=progress) if check else None
    summary = report.summary_line(options.lang) if report else ""
    drawings = kit.draw(layout, theme, setup, options.lang)
    pdf_bytes, kinds = kit.build_pdf(layout, theme, setup, drawings, options, summary=summary)
    pngs = preview.previews(pdf_bytes, kinds, svg_page(drawings.setup, theme)) if options.previews else None
    folder = out_root / layout.id
    prepare_folder(folder)
    files: list[Path] = []
    pdf_path = folder / kit_file_name(layout.id, options)
    # Nothing is written before everything above succeeded; each write is atomic.
    if options.svg:
        svgs = {f"{name}.svg": text.encode("utf-8") for name, text in drawings.files().items()}
        files += replace_folder(folder / "svg", svgs)
    if report is not None:
        files.append(write_atomic(folder / f"{layout.id}-playability.json",
                                  (json.dumps(report.to_dict(), indent=2, sort_keys=True) + "\n").encode()))
    if pngs is not None:
        files += replace_folder(folder / "preview", pngs)
    files.append(write_atomic(pdf_path, pdf_bytes))
    warnings = list(kit.board_tiling(layout, options).warnings)
    return KitResult(layout.id, folder, pdf_path, len(kinds), files, summary, warnings)
