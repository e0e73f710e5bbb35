"""Make a whole kit: check the layout, draw every piece, impose the PDF, write the files."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardgen import verdicts
from boardgen.checks import accessibility
from boardgen.checks.harness import Report, require_playable
from boardgen.checks.harness import check as check_layout
from boardgen.checks.words import said_verdict
from boardgen.data import fonts
from boardgen.data.strings import strings
from boardgen.data.theme import Theme, load_theme
from boardgen.engines import load_game
from boardgen.errors import InaccessibleError, UsageError
from boardgen.kits import reprint
from boardgen.kits.catalogue import Catalogue
from boardgen.kits.glyphs import check_glyphs
from boardgen.kits.output import KIT_FOLDERS, KitResult, check_output, interruptible, kit_id, write_atomic, write_kit
from boardgen.kits.packing import pieces_fit
from boardgen.kits.rules_text import check_language, rules_html
from boardgen.options import (
    KitOptions,
    check_kit_options,
    kit_file_name,
    page_kinds,
    split_name,
    svg_folder,
)
from boardgen.processes import Beside, available_cpus, beside
from boardgen.render import drawing_cache
from boardgen.render.art import require_pictures
from boardgen.render.imposition import STOCKS, Paper, frame_for, stock

if TYPE_CHECKING:
    from boardgen.engine import Engine
    from boardgen.render.pdf import ImposedPdf

Progress = Callable[[int, int, str], None]


# How much lower a render's check (a child and its self-play workers) runs than the drawing
# beside it: a tenth of a contended CPU, about, while both run.
CHECK_NICENESS = 10


class Verdict:
    """The playability verdict on a layout and seed: kept from an earlier check of the same
    layout, seed and rules (see boardgen.verdicts) unless `recheck`, or checked in a child
    process beside the drawing (boardgen.processes) and kept for the next render."""

    def __init__(
        self, engine: Engine[Any, Any, Any], layout: Any, seed: int, *, force: bool, recheck: bool = False
    ) -> None:
        self.force = force
        self.key = verdicts.verdict_key(engine.name, engine.version, layout.doc.data, seed)
        self.report_: Report | None = None if recheck else _kept_report(self.key, engine.target_noun)
        self.pending: Beside[Report] | None = None
        if self.report_ is None:
            # The drawing, the longest part of most renders, goes first: the check takes the
            # CPU it leaves (all of it once the kit waits for the verdict).
            here = os.getpid()
            self.pending = beside(
                lambda progress: check_layout(
                    engine, layout, seed, progress=progress, workers=check_workers(os.getpid() != here)
                ),
                nice=CHECK_NICENESS,
            )

    def report(self, progress: Progress | None = None) -> Report:
        """The verdict, waited for; UnplayableError unless it is playable or `force`."""
        if self.report_ is None:
            assert self.pending is not None
            self.report_ = self.pending.result(progress)
            verdicts.store(self.key, self.report_.to_dict())
        return require_playable(self.report_, force=self.force)

    def cancel(self) -> None:
        """Stop a check still running (the kit failed or was interrupted)."""
        if self.pending is not None:
            self.pending.cancel()


def check_workers(beside_drawing: bool) -> int:
    """Self-play processes of a render's check: beside the drawing (a child of the render) one
    CPU fewer than there are where there are more than two, as the drawing keeps one busy
    until the kit waits for the verdict; on two CPUs both, since a check that outlasts the
    drawing (most do, under a test suite or on a busy machine) would otherwise finish on one
    core with the other idle; every CPU when the check runs alone after the drawing. The
    figures do not depend on the count."""
    cpus = available_cpus()
    return cpus - 1 if beside_drawing and cpus > 2 else cpus


def start_verdict(
    engine: Engine[Any, Any, Any], layout: Any, seed: int, *, force: bool, recheck: bool = False
) -> Verdict | None:
    """The verdict the kit is made under (tests replace this to skip the check)."""
    return Verdict(engine, layout, seed, force=force, recheck=recheck)


def _kept_report(key: str | None, target_noun: str) -> Report | None:
    kept = verdicts.load(key)
    if kept is None:
        return None
    try:
        return Report.from_dict(kept, target_noun=target_noun)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None  # an entry of another shape: check again


def draw_kit(kit: Any, layout: Any, theme: Theme, setup: Any, seed: int, lang: str) -> Any:
    """kit.draw, or the very SVGs it drew before from the same inputs (see
    drawing_cache.kit_svgs_key): a render that changes only the paper, the margin or the
    backs draws nothing again. A kit whose drawings are not a plain dataclass is always drawn."""
    kind = kit.Drawings
    if not (isinstance(kind, type) and dataclasses.is_dataclass(kind)):
        return kit.draw(layout, theme, setup, lang)
    files = [*theme.art.values(), *theme.font_files.values()]
    key = drawing_cache.kit_svgs_key(kit.__name__, layout.doc.data, seed, lang, theme.doc.data, files)
    kept = drawing_cache.load_svgs(key) if key is not None else None
    if (
        kept is not None
        and kept[0] == kind.__qualname__
        and set(kept[1]) == {f.name for f in dataclasses.fields(kind) if f.init}
    ):
        return kind(**kept[1])
    before = fonts.noted()
    drawings = kit.draw(layout, theme, setup, lang)
    if key is not None and type(drawings) is kind and fonts.noted() == before:  # never keep a broken drawing
        fields = vars(drawings)
        drawing_cache.store_svgs(
            key, kind.__qualname__, {f.name: fields[f.name] for f in dataclasses.fields(kind) if f.init}
        )
        drawing_cache.prune()  # new drawings follow: the cache stays bounded
    return drawings


@dataclass(frozen=True)
class KitPlan:
    """A kit's inputs, checked, and the names of what it will write: found before any drawing,
    so a bad option or an output folder in the way is known at once."""

    game: str  # as the user named it (a bundled name or a layout file)
    engine: Engine[Any, Any, Any]
    layout: Any
    theme: Theme
    kit: Any  # the engine's kit module (boardgen.engine.Kit)
    options: KitOptions  # reprint ids spelt as listed, room made for a cutting machine
    sheet: Paper
    seed: int
    name: str  # the kit's folder and the stem of its files
    pdf_name: str
    json_name: str
    preview_dir: str
    svg_dir: str

    @property
    def is_reprint(self) -> bool:
        """Single sheets or parts (--sheets, --only): one file of its own, nothing else touched."""
        return self.options.board_sheets is not None or self.options.only is not None

    @property
    def entries(self) -> list[str]:
        """The kit folder's top-level names this variant writes (folders end in '/')."""
        return [
            self.pdf_name,
            self.json_name,
            f"{self.svg_dir}/",
            *(f"{folder}/" for folder in KIT_FOLDERS if folder != "svg"),
            *([self.html_name] if self.options.large_print else []),
        ]

    @property
    def html_name(self) -> str:
        """The rules' HTML edition, written beside the PDF with --large-print."""
        return self.pdf_name.removesuffix(".pdf") + "-rules.html"


@dataclass(frozen=True)
class KitBuild:
    """A whole kit made in memory (`build_kit`): its piece catalogue (every piece design with its
    drawing, trim outline and the copies the game uses), the imposed PDF with its pages and every
    piece placed on them, the check's report, and the files of the kit folder, by path relative
    to it. `boardgen.render_kit` writes them; every other output reads this value."""

    plan: KitPlan
    setup: Any  # the seeded start the cover shows and the check plays
    drawings: Any  # the kit's Drawings: every SVG, by file name (drawings.files())
    catalogue: Catalogue
    pdf: ImposedPdf
    report: Report | None  # None: not checked (--no-check) or a reprint
    accessibility: accessibility.AccessibilityReport | None  # None for a reprint
    files: Mapping[str, bytes]
    summary: str  # the verdict in one English line ("" when not checked)

    @property
    def name(self) -> str:
        return self.plan.name

    @property
    def warnings(self) -> list[str]:
        found = list(self.plan.kit.board_tiling(self.plan.layout, self.plan.options).warnings)
        return found + [f"accessibility: {f}" for f in (self.accessibility.findings if self.accessibility else [])]


def plan_kit(game: str, options: KitOptions) -> KitPlan:
    """Every input checked (options, strings, layout, theme, glyphs, single pieces asked for)
    before anything is drawn or the playability check (the slow part) starts."""
    sheet = check_kit_options(options)
    engine, layout = load_game(game)  # first: a layout of the user's may bring its own language
    check_language(layout, engine.name, options.lang)  # names what the game can print
    strings(options.lang)
    theme = load_theme(options.theme)
    check_glyphs(theme, layout, options.lang)
    kit = engine.kit()
    options = reprint.resolve(kit, layout, options, game)  # single pieces (--only card:ID) exist, spelt as listed
    if options.cut is not None:
        from boardgen.cut.make import room_for_cutting

        options = room_for_cutting(options)  # marks need room near the corners; blades a gap
    seed = layout.default_seed if options.seed is None else options.seed
    name = kit_id(game, layout.id)
    pdf_name = kit_file_name(name, options)
    # The report depends on the layout and the seed; the previews show one PDF and live beside
    # the other variants' (preview/<pdf name>/), so neither is overwritten by another variant.
    json_name = f"{name}-playability.json" if options.seed is None else f"{name}-seed{seed}-playability.json"
    preview_dir = (
        "preview/" + pdf_name.removesuffix(".pdf") + (f"-{options.preview_vision}" if options.preview_vision else "")
    )
    svg_dir = svg_folder(options)  # each variant's drawings in a folder of their own
    return KitPlan(
        game, engine, layout, theme, kit, options, sheet, seed, name, pdf_name, json_name, preview_dir, svg_dir
    )


def build_kit(game: str, options: KitOptions | None = None, *, progress: Progress | None = None) -> KitBuild:
    """Make the kit of `game` (a bundled game's name or a layout file) in memory, writing no
    file: checked, drawn, imposed and, unless `options.check` is off, proven playable (an
    UnplayableError otherwise, unless `options.force`). Nothing is written; see render_kit."""
    return _build(plan_kit(game, options or KitOptions()), progress)


def _build(plan: KitPlan, progress: Progress | None, interrupted: Callable[[], None] | None = None) -> KitBuild:
    """The kit of a plan, in memory (the playability check runs beside the drawing)."""
    engine, layout, theme, kit, options, seed = plan.engine, plan.layout, plan.theme, plan.kit, plan.options, plan.seed
    setup = kit.setup(layout, seed)
    require_pictures(theme, layout)
    # The check (the slow part) runs beside the drawing and imposing (a child process, see
    # Verdict); the cover takes its verdict last, and nothing is written before it is known.
    verdict = (
        start_verdict(engine, layout, seed, force=options.force, recheck=options.recheck) if options.check else None
    )
    try:
        # Drawing reads the theme's every colour and picture: it finds a broken picture or
        # theme at once; the pieces' sizes tell whether the paper is large enough.
        # Text a font cannot draw is named all at once, after everything is drawn.
        with fonts.collecting():
            drawings = reprint.select(kit, draw_kit(kit, layout, theme, setup, seed, options.lang), options)
            pieces = kit.catalogue(layout, drawings)
            content = frame_for(plan.sheet, options.margin).content
            pieces_fit(pieces, content.w, content.h, paper_name=plan.sheet.name, backs=options.backs)

            def summary_line(lang: str = options.lang) -> str:
                if verdict is None:
                    return ""
                return said_verdict(verdict.report(progress), lang, layout)

            # The colours are judged before the cover is drawn, the printed text on the finished PDF;
            # a reprint without the cover judges nothing (numpy and colorspacious stay unloaded).
            @functools.cache
            def colours() -> accessibility.AccessibilityReport:
                return accessibility.check_colours(theme, engine.colour_groups(layout, theme), strict=options.strict)

            if not plan.is_reprint:
                colours()

            def cover_lines() -> str:
                return summary_line() + "\n" + colours().cover_line(options.lang)

            imposed = kit.build_pdf(layout, theme, setup, drawings, pieces, options, summary=cover_lines)
        report = verdict.report(progress) if verdict is not None else None  # a reprint has no cover
    finally:
        if verdict is not None:
            verdict.cancel()
    summary = summary_line("en")  # for the command line, which speaks English
    if plan.is_reprint:
        # A reprint is one file of its own: the kit, its SVG, previews and report stay as they are.
        _check_parts(options, list(imposed.kinds), layout.id)
        return KitBuild(
            plan,
            setup,
            drawings,
            pieces,
            imposed,
            report,
            None,
            {plan.pdf_name: imposed.data, **_html_edition(plan)},
            summary,
        )
    kinds = list(imposed.kinds)
    a11y = colours()
    accessibility.check_text(
        a11y, theme, accessibility.printed_texts(imposed.data, kinds), drawings.files(), margin_mm=options.margin
    )
    if a11y.failed:
        raise InaccessibleError(a11y.to_text())
    files: dict[str, bytes] = {}
    if options.split:
        # One file per stock, each printed from its own tray: the kit's pages, laid out once
        # more with the other stock's pages dropped (and numbered within the file).
        for which in STOCKS:
            part = kit.build_pdf(
                layout, theme, setup, drawings, pieces, dataclasses.replace(options, stock=which), summary=summary_line
            )
            files[split_name(plan.pdf_name, which)] = part.data
    else:
        files[plan.pdf_name] = imposed.data
    files.update(_html_edition(plan))
    if options.svg:
        files.update({f"{plan.svg_dir}/{name}.svg": text.encode("utf-8") for name, text in drawings.files().items()})
    if options.previews:
        from boardgen.render import preview  # pdfium and Pillow: only when previews are made
        from boardgen.render.pdf import svg_key, svg_page

        # board.png: cut from the page that shows the set-up whole (the cover), or drawn anew.
        spot = imposed.showcases.get(svg_key(drawings.setup))
        board = spot if spot is not None else svg_page(drawings.setup, theme)
        pngs = preview.previews(imposed.data, kinds, board, dpi=options.preview_dpi, vision=options.preview_vision)
        files.update({f"{plan.preview_dir}/{png}": data for png, data in pngs.items()})
    if report is not None:
        files[plan.json_name] = (
            json.dumps({**report.to_dict(), "accessibility": a11y.to_dict()}, indent=2, sort_keys=True) + "\n"
        ).encode()
    if options.cut is not None:  # issue 22: cut files from the pieces as placed (cut.make)
        from boardgen.cut.make import CutOptions, cut_files

        made, _ = cut_files(
            imposed,
            CutOptions(options.cut, kerf=options.kerf, bed=options.bed),
            stem=plan.pdf_name.removesuffix(".pdf"),
        )
        files.update({f"cut/{cut_name}": data for cut_name, data in made.items()})
    return KitBuild(plan, setup, drawings, pieces, imposed, report, a11y, files, summary)


def _html_edition(plan: KitPlan) -> dict[str, bytes]:
    """With --large-print, the rules' HTML edition (kits.rules_text.rules_html) by its name."""
    if not plan.options.large_print:
        return {}
    lang = plan.options.lang
    page = rules_html(plan.layout.title[lang], plan.kit.rules_text(plan.layout, lang), lang)
    return {plan.html_name: page.encode("utf-8")}


def render_kit(game: str, out_root: Path, options: KitOptions, *, progress: Progress | None = None) -> KitResult:
    """Build the kit in memory (`build_kit`), then replace the whole kit folder at once (see
    kits.output.write_kit). Every input, and the output folder, is checked before the
    playability check (the slow part) starts."""
    plan = plan_kit(game, options)
    folder = out_root / plan.name
    check_output(folder, plan.entries)
    with interruptible() as interrupted:
        built = _build(plan, progress)
        options = plan.options
        if plan.is_reprint:
            interrupted()
            written = [write_atomic(folder / name, data) for name, data in built.files.items()]
            return KitResult(
                plan.name,
                folder,
                folder / plan.pdf_name,
                _kept(options, list(built.pdf.kinds)),
                written,
                built.summary,
                [],
                placements=list(built.pdf.placements),
                kinds=list(built.pdf.kinds),
            )
        written = write_kit(
            folder, dict(built.files), owned=(plan.svg_dir, plan.preview_dir, plan.json_name), before_swap=interrupted
        )
    kinds = list(built.pdf.kinds)
    main = folder / (split_name(plan.pdf_name, "card") if options.split else plan.pdf_name)
    pages = sum(stock(kind) == "card" for kind in kinds) if options.split else len(kinds)  # in `main`
    return KitResult(
        plan.name,
        folder,
        main,
        pages,
        written,
        built.summary,
        built.warnings,
        placements=list(built.pdf.placements),
        kinds=kinds,
    )


def render_all(
    games: list[str], out_root: Path, options: KitOptions, *, at_once: int | None = None
) -> Iterator[tuple[str, KitResult, float]]:
    """(game, its KitResult, seconds from its start) for each game, in order. Up to `at_once`
    games (default: the CPUs) are rendered at the same time, each in a child process with
    its own check beside it (boardgen.processes): a render is mostly one core of drawing,
    and its check leaves the other idle once done. Where no child can be forked they are
    rendered one after the other here. The first error ends the others and is raised."""
    at_once = max(1, at_once or available_cpus())
    waiting = list(games)
    running: deque[tuple[str, float, Beside[KitResult]]] = deque()
    with interruptible():
        try:
            while waiting or running:
                while waiting and len(running) < at_once:
                    game = waiting.pop(0)
                    running.append(
                        (game, time.perf_counter(), beside(functools.partial(_render_one, game, out_root, options)))
                    )
                game, started, pending = running.popleft()
                result = pending.result()
                yield game, result, time.perf_counter() - started
        finally:
            for _, _, pending in running:
                pending.cancel()


def _render_one(game: str, out_root: Path, options: KitOptions, _progress: Progress | None) -> KitResult:
    return render_kit(game, out_root, options)


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
