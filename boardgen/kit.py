"""Make a whole kit: check the layout, draw every piece, impose the PDF, write the files."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardgen import verdicts
from boardgen.data.strings import strings
from boardgen.data.theme import Theme, load_theme
from boardgen.engines import load_game
from boardgen.errors import UsageError
from boardgen.kits import reprint
from boardgen.kits.common import (
    KIT_FOLDERS,
    KitOptions,
    KitResult,
    check_output,
    interruptible,
    kit_file_name,
    kit_id,
    pieces_fit,
    write_atomic,
    write_kit,
)
from boardgen.options import check_kit_options, page_kinds
from boardgen.render import drawing_cache
from boardgen.render.art import require_pictures
from boardgen.render.imposition import frame_for
from boardgen.rules.report import Report, require_playable
from boardgen.rules.report import check as check_layout

if TYPE_CHECKING:
    from boardgen.engine import Engine

Progress = Callable[[int, int, str], None]


def verdict(engine: Engine[Any, Any, Any], layout: Any, seed: int, *, force: bool, recheck: bool = False,
            progress: Progress | None = None) -> Report:
    """The playability verdict on the layout and seed; UnplayableError unless it is
    playable or `force`. A verdict kept from an earlier check of the same layout, seed and
    rules is used again (see boardgen.verdicts) unless `recheck`."""
    key = verdicts.verdict_key(engine.name, engine.version, layout.doc.data, seed)
    kept = None if recheck else verdicts.load(key)
    report = None
    if kept is not None:
        try:
            report = Report.from_dict(kept, target_noun=engine.target_noun)
        except (KeyError, TypeError, ValueError, AttributeError):
            report = None  # an entry of another shape: check again
    if report is None:
        report = check_layout(engine, layout, seed, progress=progress)
        verdicts.store(key, report.to_dict())
    return require_playable(report, force=force)


def draw_kit(kit: Any, layout: Any, theme: Theme, setup: Any, seed: int, lang: str) -> Any:
    """kit.draw, or the very SVGs it drew before from the same inputs (see
    drawing_cache.kit_svgs_key): a render that changes only the paper, the margin or the
    backs draws nothing again. A kit whose drawings are not a plain dataclass is always drawn."""
    kind = getattr(kit, "Drawings", None)
    if not (isinstance(kind, type) and dataclasses.is_dataclass(kind)):
        return kit.draw(layout, theme, setup, lang)
    files = [*theme.art.values(), *theme.font_files.values()]
    key = drawing_cache.kit_svgs_key(getattr(kit, "__name__", repr(kit)), layout.doc.data, seed, lang,
                                     theme.doc.data, files)
    kept = drawing_cache.load_svgs(key) if key is not None else None
    if kept is not None and kept[0] == kind.__qualname__ \
            and set(kept[1]) == {f.name for f in dataclasses.fields(kind) if f.init}:
        return kind(**kept[1])
    drawings = kit.draw(layout, theme, setup, lang)
    if key is not None and type(drawings) is kind:
        drawing_cache.store_svgs(key, kind.__qualname__, {f.name: getattr(drawings, f.name)
                                                          for f in dataclasses.fields(kind) if f.init})
        drawing_cache.prune()  # new drawings follow: the cache stays bounded
    return drawings


def render_kit(game: str, out_root: Path, options: KitOptions, *, check: bool = True,
               progress: Progress | None = None) -> KitResult:
    """Every input is checked before the playability check (the slow part); everything is made
    in memory; then the whole kit folder is replaced at once (see kits.common.write_kit)."""
    sheet = check_kit_options(options)
    strings(options.lang)
    engine, layout = load_game(game)
    theme = load_theme(options.theme)
    kit = engine.kit()
    options = reprint.resolve(kit, layout, options, game)  # single pieces (--only card:ID) exist, spelt as listed
    seed = layout.default_seed if options.seed is None else options.seed
    name = kit_id(game, layout.id)
    folder = out_root / name
    pdf_name = kit_file_name(name, options)
    # The report depends on the layout and the seed; the previews show one PDF and live beside
    # the other variants' (preview/<pdf name>/), so neither is overwritten by another variant.
    json_name = f"{name}-playability.json" if options.seed is None else f"{name}-seed{seed}-playability.json"
    preview_dir = "preview/" + pdf_name.removesuffix(".pdf")
    check_output(folder, [pdf_name, json_name, *(f"{name}/" for name in KIT_FOLDERS)])
    setup = kit.setup(layout, seed)
    require_pictures(theme, layout)
    # Drawing reads the theme's every colour and picture: done before the check, it finds a
    # broken picture or theme at once; the pieces' sizes tell whether the paper is large enough.
    drawings = reprint.select(kit, draw_kit(kit, layout, theme, setup, seed, options.lang), options)
    content = frame_for(sheet, options.margin).content
    pieces_fit(drawings.files(), content.w, content.h, paper_name=sheet.name, backs=options.backs)
    with interruptible() as interrupted:
        report = (verdict(engine, layout, seed, force=options.force, recheck=options.recheck, progress=progress)
                  if check else None)
        summary = report.summary_line(options.lang) if report else ""
        pdf_bytes, kinds = kit.build_pdf(layout, theme, setup, drawings, options, summary=summary)
        if options.board_sheets is not None or options.only is not None:
            # A reprint is one file of its own: the kit, its SVG, previews and report stay as they are.
            _check_parts(options, kinds, layout.id)
            interrupted()
            written = [write_atomic(folder / pdf_name, pdf_bytes)]
            return KitResult(name, folder, folder / pdf_name, _kept(options, kinds), written, summary, [])
        pngs = None
        if options.previews:
            from boardgen.render import preview  # pdfium and Pillow: only when previews are made
            from boardgen.render.pdf import svg_key, svg_page

            # board.png: cut from the page that shows the set-up whole (the cover), or drawn anew.
            spot = getattr(pdf_bytes, "showcases", {}).get(svg_key(drawings.setup))
            board = spot if spot is not None else svg_page(drawings.setup, theme)
            pngs = preview.previews(pdf_bytes, kinds, board, dpi=options.preview_dpi)
        files: dict[str, bytes] = {pdf_name: pdf_bytes}
        if options.svg:
            files.update({f"svg/{name}.svg": text.encode("utf-8") for name, text in drawings.files().items()})
        if pngs is not None:
            files.update({f"{preview_dir}/{png}": data for png, data in pngs.items()})
        if report is not None:
            files[json_name] = (json.dumps(report.to_dict(), indent=2, sort_keys=True) + "\n").encode()
        written = write_kit(folder, files, owned=("svg", preview_dir, json_name), before_swap=interrupted)
    warnings = list(kit.board_tiling(layout, options).warnings)
    return KitResult(name, folder, folder / pdf_name, len(kinds), written, summary, warnings)


def _printed_parts(kinds: list[str]) -> list[str]:
    return sorted(set(kinds) - {"blank", "card-backs"})


def _check_parts(options: KitOptions, kinds: list[str], game: str) -> None:
    """Every part asked for with --only must be in this kit."""
    missing = [part for part in page_kinds(options.only) or () if part not in kinds]
    if missing:
        raise UsageError(f"--only: {game} has no {missing[0]!r} pages; its parts: {', '.join(_printed_parts(kinds))}")


def _kept(options: KitOptions, kinds: list[str]) -> int:
    """Pages in a reprint (the blank pages that keep card fronts on odd pages included)."""
    if options.only is None:
        return kinds.count("board")  # --sheets: PdfKit counted only the sheets asked for
    asked = page_kinds(options.only) or ()
    wanted = set(asked) | ({"card-backs"} if "cards" in asked else set())
    kept = 0
    for kind in kinds:
        if kind in wanted or (kind == "blank" and "cards" in wanted and kept % 2 == 1):
            kept += 1
    return kept
