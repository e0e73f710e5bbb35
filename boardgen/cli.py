"""The `boardgen` command line: a thin layer over the kit, check and data functions."""

from __future__ import annotations

import errno
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from boardgen import __version__
from boardgen import options as bounds
from boardgen.engines import engine_names, game_names
from boardgen.errors import BoardgenError, Interrupted, UsageError, shorten
from boardgen.generate import GENERATORS, sizes_help

# Only what every command needs is imported here: `boardgen --help` stays fast, and each
# command imports the rest (the loader and its schema validator, the PDF libraries, json)
# itself. tests/test_cli_imports.py holds the start to that.

DEFAULT_GAME = "classic"


class BoardgenGroup(click.Group):
    """Turns every BoardgenError into one clear line and its exit code: no traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BoardgenError as exc:
            click.echo(f"boardgen: error: {exc.format()}", err=True)
            ctx.exit(exc.exit_code)
        except Interrupted as exc:
            click.echo("boardgen: interrupted", err=True)
            ctx.exit(exc.exit_code)
        except click.ClickException as exc:
            # click quotes a bad value whole, megabytes or not (its stub marks message Final)
            exc.message = shorten(exc.message, 300)  # type: ignore[misc]
            raise
        except OSError as exc:
            # A name over 255 bytes (or a path over 4096) fails wherever it is first looked at.
            if exc.errno != errno.ENAMETOOLONG:
                raise
            named = f"{shorten(str(exc.filename), 120)}: " if exc.filename else ""
            click.echo(f"boardgen: error: {named}file name too long (at most 255 bytes a name, 4096 a path)", err=True)
            ctx.exit(UsageError.exit_code)


def _progress_bar(label: str) -> tuple[Any, Callable[[int, int, str], None] | None]:
    """A progress callback: a bar on a terminal, silence otherwise."""
    if not sys.stderr.isatty():
        return None, None
    bar = click.progressbar(length=1, label=label, file=sys.stderr)
    state = {"done": 0}

    def update(done: int, total: int, _label: str) -> None:
        bar.length = total
        bar.update(done - state["done"])
        state["done"] = done

    return bar, update


def _checked(check: Callable[[Any], Any]) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A click callback applying one of boardgen.options' checks: a bad value is a usage error
    naming the option (exit 2), before any work."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is None:
            return None
        try:
            return check(value)
        except UsageError as exc:
            raise UsageError(f"{param.opts[-1]}: {exc}") from None

    return callback


SEED = click.IntRange(0, bounds.SEED_MAX)
LANG_HELP = (
    "Language to print, a BCP 47 code (en, fr, es, pt-BR): one the game has, with a strings file "
    "bundled, in $XDG_DATA_HOME/boardgen/strings/ or beside the layout (see docs/languages.md)."
)


def _language(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A language code as the data files spell it (pt-br -> pt-BR); whether the game can print
    it is known once the game is read (it names the languages it can)."""
    from boardgen.data.languages import LANGUAGE_CODE, normalise

    if value is None:
        return None
    code = normalise(value.strip())
    if not LANGUAGE_CODE.match(code):
        raise UsageError(
            f"{param.opts[-1]}: {shorten(value, 40)!r} is not a language code; give a BCP 47 "
            "code such as en, fr, es, pt-BR (see `boardgen list` for what each game prints)"
        )
    return code


def _use_fallback(lang: str, fallback: str | None) -> None:
    from boardgen.data import strings

    strings.use_fallback(fallback)
    if fallback is not None and fallback != lang:
        strings.strings(fallback)  # an unknown fallback is refused before any work


class FiniteFloat(click.FloatRange):
    """A float option that refuses nan and inf (click's float and FloatRange take both: a nan
    kerf compared with no bound and wrote cut files of nan coordinates), naming the option as
    boardgen.options' checks do. An option with such a check as its callback (--margin,
    --overlap, --gap) keeps type=float: the check refuses nan and inf in its own words."""

    name = "float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            named = param.opts[-1] if param is not None and param.opts else "a number"
            raise UsageError(f"{named}: must be a finite number, got {shorten(str(value), 60)}")
        return super().convert(number, param, ctx)


FINITE = FiniteFloat()


class _Languages(click.Choice[str]):
    """--lang: the languages with a strings file, listed on first use (listing them reads the
    bundled folder and loads the TOML reader, which `boardgen --help` does without)."""

    def __init__(self) -> None:
        self.case_sensitive = True

    @property
    def choices(self) -> tuple[str, ...]:  # type: ignore[override]
        from boardgen.data.strings import LANGUAGES

        return LANGUAGES


LANG = _Languages()
BED = "600x400"  # --bed's default: KitOptions.bed


def _complete(kind: str, incomplete: str) -> list[click.shell_completion.CompletionItem]:
    """Bundled names of `kind` plus the .toml files of the current folder, for shell completion."""
    from click.shell_completion import CompletionItem

    from boardgen.data.loader import bundled_names

    found = [CompletionItem(n) for n in bundled_names(kind) if n.startswith(incomplete)]
    found += [CompletionItem(str(p), type="file") for p in sorted(Path(".").glob(incomplete + "*.toml"))]
    return found


def _complete_game(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    return _complete("game", incomplete)


def _complete_theme(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    return _complete("theme", incomplete)


def _complete_paper(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    from click.shell_completion import CompletionItem

    from boardgen.render.imposition import PAPERS

    return [CompletionItem(name) for name in PAPERS if name.startswith(incomplete.lower())]


@click.group(cls=BoardgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="boardgen")
def cli() -> None:
    """Print-ready kits for labyrinth board games: board, tiles, cards, pawns, rules."""


@cli.command("list")
def list_command() -> None:
    """Show the bundled games, themes, paper sizes and print services."""
    from boardgen.data.languages import languages
    from boardgen.data.loader import bundled_names
    from boardgen.data.strings import available, counts, user_data_folder
    from boardgen.engines import load_game
    from boardgen.kits.rules_text import printable
    from boardgen.render.imposition import PAPERS

    click.echo("Games:")
    for name in game_names():
        engine, layout = load_game(name)
        has = languages("game", layout.doc.data)
        click.echo(
            f"  {name:<10} {layout.title.get('en') or layout.title[has[0]]}"
            f" ({counts('en', engine.player_counts(layout))} players; "
            f"prints in {', '.join(printable(layout, engine.name)) or 'none'})"
        )
    click.echo("Themes:")
    for name in bundled_names("theme"):
        click.echo(f"  {name}")
    click.echo("Papers (mm):")
    for name, (w, h) in PAPERS.items():
        click.echo(f"  {name:<10} {w:g} x {h:g}")
    click.echo("  WxH        any size: 300x400 (mm), 210x297mm, 8.5x11in, 21x29.7cm")
    click.echo(
        f"Languages: {', '.join(available())} (a game prints in those its layout and rules text have; "
        f"your own go in {user_data_folder()}/strings and /rules, or beside your layout)"
    )
    from boardgen.export.services import services, user_folder

    click.echo(f"Print services (export --for, preflight --for; your own in {user_folder()}):")
    for key, found in services().items():
        click.echo(f"  {key:<10} {found.name}")


@cli.command()
@click.argument("game", required=False, shell_complete=_complete_game)
@click.option("--all", "all_games", is_flag=True, help="Render every bundled game.")
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(path_type=Path),
    default=Path("output"),
    show_default=True,
    help="Folder for the kits (one subfolder per game).",
)
@click.option(
    "--paper",
    default="a4",
    show_default=True,
    shell_complete=_complete_paper,
    help="a4, letter, a3, legal, tabloid, or WxH: 210x297mm, 8.5x11in (a bare WxH is mm; up to A0).",
)
@click.option(
    "--theme",
    default="classic",
    show_default=True,
    shell_complete=_complete_theme,
    help="Theme name or path to a theme .toml.",
)
@click.option("--seed", type=SEED, default=None, help="Seed for the starting layout (default: the game's).")
@click.option("--lang", default="en", show_default=True, callback=_language, metavar="CODE", help=LANG_HELP)
@click.option(
    "--fallback",
    default=None,
    callback=_language,
    metavar="CODE",
    help="Print the words a partial strings file lacks in this language (e.g. en), saying which.",
)
@click.option(
    "--margin",
    type=float,
    default=8.0,
    show_default=True,
    callback=_checked(bounds.margin),
    help="Unprintable margin per side, mm (0 to 30).",
)
@click.option(
    "--joint",
    type=click.Choice(["butt", "overlap"]),
    default="butt",
    show_default=True,
    help="Board sheets: butt joints taped behind, or an overlap glue band.",
)
@click.option(
    "--overlap",
    type=float,
    default=10.0,
    show_default=True,
    callback=_checked(bounds.overlap),
    help="Glue band width, mm (1 to 40).",
)
@click.option(
    "--orientation",
    type=click.Choice(["auto", "portrait", "landscape"]),
    default="auto",
    show_default=True,
    help="Board sheet orientation (auto: fewest sheets).",
)
@click.option(
    "--backs",
    type=click.Choice(["duplex", "fold", "none"]),
    default="duplex",
    show_default=True,
    help="Card backs: duplex pages, fold-over sheets, or none.",
)
@click.option(
    "--flip",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    help="Duplex flip edge of your printer.",
)
@click.option(
    "--back-offset",
    default=None,
    metavar="X,Y",
    callback=_checked(bounds.back_offset),
    help="Move the card backs by X,Y mm as seen from the front (+X right, +Y down; each at most 10 "
    "and within the printable area) to fix a printer's misregistration, measured with the "
    "duplex test mark under the first card sheet.",
)
@click.option(
    "--sheets",
    default=None,
    metavar="N,N-M",
    callback=_checked(bounds.sheets),
    help="Reprint only these board sheets (e.g. 2 or 1,3 or 2-4) into a file of their own.",
)
@click.option(
    "--only",
    default=None,
    metavar="PART,PART",
    callback=_checked(bounds.parts),
    help="Reprint only these parts into a file of their own: "
    + ", ".join(bounds.PARTS)
    + "; or single pieces by id: "
    + ", ".join(f"{k}:ID" for k in bounds.PIECES)
    + " (`boardgen show GAME` lists them), e.g. --only card:book,tile:07 or --only tokens,pawn:red.",
)
@click.option(
    "--gap",
    type=float,
    default=0.0,
    show_default=True,
    callback=_checked(bounds.gap),
    help="Millimetres between cards, tiles and tokens, each with its own crop marks, for scissors "
    "(0: butted on shared cut lines, for a guillotine).",
)
@click.option(
    "--split",
    is_flag=True,
    help="Write the card pages and the paper pages into two files, <kit>-card.pdf and <kit>-paper.pdf, "
    "one for each printer tray.",
)
@click.option(
    "--cut",
    "cut_machine",
    default=None,
    type=click.Choice(["silhouette", "silhouette-4", "cricut", "scanncut", "laser"]),
    help="Also write cut files for this machine into <kit folder>/cut/: print-and-cut pages with "
    "registration marks and a DXF (Silhouette) or SVG (ScanNCut) per page, PNG + SVG per mat "
    "(Cricut Print Then Cut), or SVG + DXF per laser bed.",
)
@click.option(
    "--kerf",
    type=FiniteFloat(*bounds.KERF_MM),
    default=0.0,
    show_default=True,
    metavar="MM",
    help="With --cut laser: the beam's width; cut paths run half of it outside each piece "
    "(e.g. 0.08 paper, 0.15 card, 0.2 for 3 mm board).",
)
@click.option(
    "--bed",
    default=BED,
    show_default=True,
    metavar="WxH",
    help="With --cut laser: the laser's bed in millimetres; pieces are laid out on as many beds as needed.",
)
@click.option("--no-preview", is_flag=True, help="Skip the PNG previews.")
@click.option(
    "--preview-dpi",
    type=click.IntRange(30, 600),
    default=None,
    metavar="DPI",
    help="Resolution of every PNG preview, 30 to 600 (default: board.png 150, pages 60).",
)
@click.option("--no-svg", is_flag=True, help="Skip writing the SVG files.")
@click.option("--force", is_flag=True, help="Render even if the playability check fails.")
@click.option(
    "--recheck", is_flag=True, help="Run the playability check again even if this layout and seed were checked before."
)
@click.option(
    "--no-check",
    is_flag=True,
    help="Skip the playability check (a draft): the cover says the kit is not checked, no report is written.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Accessibility findings (colours, text size, contrast) are errors (exit 5), not warnings.",
)
@click.option(
    "--preview-vision",
    type=click.Choice(["deuteranopia", "protanopia", "tritanopia", "grey"]),
    default=None,
    help="Write the PNG previews as seen with this colour vision, into preview/<pdf name>-<vision>/.",
)
@click.option(
    "--large-print",
    is_flag=True,
    help="The rules in 18 pt type, one column (with --only rules: the rules alone), and an HTML "
    "edition of them with headings beside the PDF (<pdf name>-rules.html).",
)
def render(
    game: str | None,
    all_games: bool,
    output: Path,
    paper: str,
    theme: str,
    seed: int | None,
    lang: str,
    fallback: str | None,
    margin: float,
    joint: str,
    overlap: float,
    orientation: str,
    backs: str,
    flip: str,
    back_offset: tuple[float, float] | None,
    sheets: tuple[int, ...] | None,
    only: tuple[str, ...] | None,
    gap: float,
    split: bool,
    cut_machine: str | None,
    kerf: float,
    bed: str,
    no_preview: bool,
    preview_dpi: int | None,
    no_svg: bool,
    force: bool,
    recheck: bool,
    no_check: bool,
    strict: bool,
    preview_vision: str | None,
    large_print: bool,
) -> None:
    """Write the kit of GAME (default: classic): PDF, SVGs, previews and playability report."""
    from boardgen.errors import UnplayableError
    from boardgen.options import KitOptions

    if all_games and game:
        raise UsageError("give a game or --all, not both")
    if no_check and (recheck or force):
        raise UsageError(f"give --no-check or {'--recheck' if recheck else '--force'}, not both")
    names = game_names() if all_games else [game or DEFAULT_GAME]
    _use_fallback(lang, fallback)
    options = KitOptions(
        paper=paper,
        margin=margin,
        theme=theme,
        lang=lang,
        seed=seed,
        joint=joint,
        overlap=overlap,
        orientation=orientation,
        backs=backs,
        flip=flip,
        back_offset=back_offset or (0.0, 0.0),
        board_sheets=sheets,
        only=only,
        gap=gap,
        split=split,
        cut=cut_machine,
        kerf=kerf,
        bed=_bed(bed, cut_machine),
        previews=not no_preview,
        preview_dpi=preview_dpi,
        svg=not no_svg,
        force=force,
        recheck=recheck,
        check=not no_check,
        strict=strict,
        preview_vision=preview_vision,
        large_print=large_print,
    )
    try:
        for result, took in _render_each(names, output, options):
            click.echo(f"{result.pdf} ({result.pages} pages, {result.pdf.stat().st_size / 1024:.0f} KiB, {took:.1f} s)")
            if result.summary:
                click.echo(f"  playability: {result.summary}")
            elif no_check and sheets is None and only is None:
                click.echo("  playability: not checked (--no-check)")
            for path in result.files:
                if path.parent.name == "cut":  # the cut files, each named (README.txt says how to use them)
                    click.echo(f"  cut: {path}")
                elif path.suffix == ".pdf" and path != result.pdf:  # --split: the paper file beside the card file
                    click.echo(f"  also: {path} ({path.stat().st_size / 1024:.0f} KiB)")
            for warning in result.warnings:
                click.echo(f"  warning: {warning}", err=True)
            _say_fallback(lang)
    except UnplayableError as exc:
        if len(names) > 1:
            raise
        from boardgen.tune import hint  # the tuner's modules only for a failed render

        raise UnplayableError(f"{exc}\n{hint(names[0], seed)}") from None


def _validate_language(lang: str, game: str | None) -> None:
    from boardgen.authoring import language_problems

    problems, read = language_problems(lang, game)
    if problems:
        click.echo(f"{lang}: {len(problems)} still to translate or fix:", err=True)
        for problem in problems:
            click.echo(f"  {problem}", err=True)
        sys.exit(2)
    click.echo(f"{lang}: complete ({len(read)} files: {', '.join(read)})")


def _say_fallback(lang: str) -> None:
    from boardgen.data.strings import fallback, fell_back

    keys = fell_back(lang)
    if keys:
        click.echo(f"  fallback: {len(keys)} words printed in {fallback()}, not {lang}: {', '.join(keys)}", err=True)


def _bed(text: str, cut_machine: str | None) -> tuple[float, float]:
    """--bed as millimetres. boardgen.cut.laser (and shapely with it) is loaded only for a laser
    or a bed given: the default bed of a render without --cut laser is KitOptions's."""
    from boardgen.options import KitOptions

    if cut_machine != "laser" and text == BED:
        return KitOptions.bed
    from boardgen.cut.laser import bed_size

    return bed_size(text)


def _render_each(names: list[str], output: Path, options: Any) -> Iterator[tuple[Any, float]]:
    """(KitResult, seconds) for each game in turn: one game with its progress bar,
    several (--all) rendered side by side (boardgen.kit.render_all)."""
    from boardgen.kit import render_all, render_kit

    if len(names) > 1:
        for _game, result, took in render_all(names, output, options):
            yield result, took
        return
    for name in names:
        started = time.perf_counter()
        bar, progress = _progress_bar(f"checking {name}")
        try:
            result = render_kit(name, output, options, progress=progress)
        finally:
            if bar is not None:
                bar.render_finish()
        yield result, time.perf_counter() - started


@cli.command()
@click.argument("game", required=False, shell_complete=_complete_game)
@click.option("--seed", type=SEED, default=None, help="Seed of the layout (default: the game's).")
@click.option(
    "--lang",
    default=None,
    callback=_language,
    metavar="CODE",
    help="Check a translation instead: every key and rules line still missing in CODE, at its file "
    "and line (GAME given: that layout's texts too; else every bundled game's rules texts).",
)
@click.option(
    "--games",
    type=click.IntRange(1, bounds.GAMES_MAX),
    default=None,
    help="Self-play games per player count (default: the layout's).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--theme",
    default="classic",
    show_default=True,
    shell_complete=_complete_theme,
    help="Theme whose colours the accessibility check judges (text sizes are measured by render).",
)
@click.option("--strict", is_flag=True, help="Accessibility findings are errors (exit 5), not warnings.")
@click.option(
    "--details", is_flag=True, help="Every check with its figures and bounds, each player count's self-play statistics."
)
def validate(
    game: str | None,
    seed: int | None,
    lang: str | None,
    games: int | None,
    as_json: bool,
    theme: str,
    strict: bool,
    details: bool,
) -> None:
    """Check that GAME's layout is playable: static checks, solver, self-play. Exit 4 if not.
    Then the accessibility of its colours with THEME (exit 5 with --strict if it finds any).
    With --lang: what a translation still lacks instead (exit 2 if anything)."""
    from boardgen.checks.accessibility import check_colours
    from boardgen.checks.harness import check
    from boardgen.data.theme import load_theme
    from boardgen.engines import load_game

    if lang is not None:
        _validate_language(lang, game)
        return
    game = game or DEFAULT_GAME
    engine, layout = load_game(game)
    looks = load_theme(theme)  # a broken theme fails before the check
    a11y = check_colours(looks, engine.colour_groups(layout, looks), strict=strict)
    seed = layout.default_seed if seed is None else seed
    bar, progress = _progress_bar(f"checking {layout.id}")
    try:
        report = check(engine, layout, seed, games=games, progress=progress)
        if games is None:  # the verdict a render would reach: keep it for the next render
            from boardgen import verdicts

            verdicts.store(verdicts.verdict_key(engine.name, engine.version, layout.doc.data, seed), report.to_dict())
    finally:
        if bar is not None:
            bar.render_finish()
    if as_json:
        import json

        click.echo(json.dumps({**report.to_dict(), "accessibility": a11y.to_dict()}, indent=2, ensure_ascii=False))
    elif details:
        click.echo(report.to_text() + "\n\n" + a11y.to_text())
    else:
        from boardgen.checks.words import in_words

        click.echo(in_words(report, layout) + "\n\n" + a11y.to_text())
    if not report.playable:
        from boardgen.tune import hint

        click.echo(hint(game, seed), err=True)
        sys.exit(4)
    if a11y.failed:
        sys.exit(5)


@cli.command()
@click.argument("game", default=DEFAULT_GAME, shell_complete=_complete_game)
@click.option("--games", type=click.IntRange(1, bounds.GAMES_MAX), default=200, show_default=True)
@click.option("--players", type=click.IntRange(1, bounds.PLAYERS_MAX), default=4, show_default=True)
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
def simulate(game: str, games: int, players: int, seed: int, as_json: bool) -> None:
    """Self-play GAME with greedy players and print the statistics."""
    import json

    from boardgen.checks.harness import simulate as run
    from boardgen.engines import load_game

    engine, layout = load_game(game)
    if not layout.players[0] <= players <= layout.players[1]:
        raise UsageError(f"{layout.id} is for {layout.players[0]}-{layout.players[1]} players, not {players}")
    try:
        engine.check_players(layout, players)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    bar, progress = _progress_bar(f"playing {layout.id}")
    try:
        stats = run(engine, layout, games=games, players=players, seed=seed, progress=progress)
    finally:
        if bar is not None:
            bar.render_finish()
    click.echo(json.dumps(stats.to_dict(), indent=2, sort_keys=True) if as_json else stats.to_text())


@cli.command()
@click.argument("game", default=DEFAULT_GAME, shell_complete=_complete_game)
@click.option(
    "--pairs",
    type=click.IntRange(1, bounds.PAIRS_MAX),
    default=1000,
    show_default=True,
    help="Random (pawn square, treasure) pairs.",
)
@click.option("--seed", type=SEED, default=None, help="Seed of the layout (default: the game's).")
@click.option("--pair-seed", type=SEED, default=0, show_default=True, help="Seed choosing the pairs.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
def solve(game: str, pairs: int, seed: int | None, pair_seed: int, as_json: bool) -> None:
    """Fewest turns (shift + move) from a square to a treasure, over random pairs (sliding games)."""
    import json

    from boardgen.checks.sliding import solve_pairs
    from boardgen.engines import load_game

    engine, layout = load_game(game)
    if not engine.solves:
        raise UsageError(f"solve works on sliding-corridor games; {layout.id} is a {engine.name} game")
    if pairs < 1:
        raise UsageError("--pairs must be at least 1")
    seed = layout.default_seed if seed is None else seed
    bar, progress = _progress_bar(f"solving {layout.id}")
    try:
        summary = solve_pairs(layout, seed, pairs=pairs, rng_seed=pair_seed, progress=progress)
    finally:
        if bar is not None:
            bar.render_finish()
    click.echo(json.dumps(summary.to_dict(), indent=2, sort_keys=True) if as_json else summary.to_text())


def _first_passing(text: str, tries: int) -> tuple[int, int | None]:
    """The layout's default seed, and it again if the whole check passes with it, else the
    nearest that does (boardgen.tune.nearest_passing_seed, up to `tries` more), else None."""
    import tempfile

    from boardgen import verdicts
    from boardgen.checks.harness import check
    from boardgen.engines import load_game
    from boardgen.tune import nearest_passing_seed

    with tempfile.TemporaryDirectory(prefix="boardgen-generate-") as folder:
        path = Path(folder) / "generated.toml"
        path.write_text(text, encoding="utf-8")
        engine, layout = load_game(str(path))
        first = int(layout.default_seed)
        report = check(engine, layout, first)
        # Kept as validate keeps it: a render of the file written reuses the verdict.
        verdicts.store(verdicts.verdict_key(engine.name, engine.version, layout.doc.data, first), report.to_dict())
        if report.playable:
            return first, first
        return first, nearest_passing_seed(engine, layout, first, tries=tries)


@cli.command()
@click.argument("game", type=click.Choice(list(GENERATORS)))
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--size", type=click.IntRange(3, 25), default=None, help="Squares per side: " + sizes_help() + ".")
@click.option("--id", "new_id", default=None, help="Id of the new layout (default: the file name).")
@click.option(
    "-o", "--output", "output", type=click.Path(path_type=Path), required=True, help="Layout file to write (TOML)."
)
@click.option("--force", is_flag=True, help="Replace an existing file.")
@click.option(
    "--tries",
    type=click.IntRange(0, 40),
    default=8,
    show_default=True,
    help="Starting layouts (default_seed) tried beside --seed until one passes the check "
    "(0: write the layout unchecked).",
)
def generate(game: str, seed: int, size: int | None, new_id: str | None, output: Path, force: bool, tries: int) -> None:
    """Generate a new GAME layout from a seed and write it as a layout file.

    classic and master grow the bundled 7x7 board to --size N: fixed tiles on every square with
    two even coordinates, turned as the bundled board turns them; loose tiles for the free
    squares plus a spare, in the bundled proportions (12 straight : 16 corners : 6 T).

    classic: treasures on the fixed and loose T-junctions and a share of the loose corners
    (at least the classic's 24 where the board allows); starts on the corners.

    master: pawns on the four fixed tiles nearest the centre on its diagonals (the corners on
    5x5); object tokens on a symmetric patch grown from the centre at the master's density
    (21 on 49 squares), at most 33: 9, 21, 33, 33, 33 tokens for sizes 5, 7, 9, 11, 13,
    valued 1, 2, ... with the mistletoe last, worth 5 more; one recipe card per object; the
    turn cap and the solver's budget grow with the board.

    minos, walls, grand: a new arrangement of the fields (minos: on a 9x9 or 11x11 mosaic),
    blocks or corridors from the seed, checked as the bundled layout is.

    Boards under 7x7 are for 2-3 players. Check the result with `boardgen validate FILE`."""
    import re

    from boardgen.authoring import check_name
    from boardgen.errors import UnplayableError
    from boardgen.kits.output import check_target, write_atomic

    maker = GENERATORS[game]
    size = maker.check_size(game, size)
    # A layout id is lower-case letters, digits and '-': a file name's other characters become '-'.
    default_id = "-".join(part for part in re.split(r"[^a-z0-9]+", output.stem.lower()) if part)
    text = maker.make(size, seed, check_name(new_id or default_id or "layout"))
    check_target(output, replace=force)  # a file in the way is refused before any check
    if tries == 0:
        write_atomic(output, text.encode("utf-8"), replace=force)
        click.echo(
            f"{output}: {game} layout for seed {seed} ({size}x{size}), not checked; check it with "
            f"`boardgen validate {output}`"
        )
        return
    first, passing = _first_passing(text, tries)
    if passing is None:
        raise UnplayableError(
            f"{game} {size}x{size} from seed {seed}: no starting layout of seeds near {first} "
            f"({tries + 1} tried) passes the check; try another --seed, or write it with "
            "--tries 0 and run `boardgen tune` on it"
        )
    text = re.sub(r"(?m)^default_seed = \d+$", f"default_seed = {passing}", text, count=1)
    write_atomic(output, text.encode("utf-8"), replace=force)
    said = (
        f"its starting layout (default_seed = {first}) passes the check"
        if passing == first
        else f"its starting layout for default_seed = {first} fails the check, so default_seed = {passing}, the "
        "nearest that passes, is written"
    )
    click.echo(f"{output}: {game} layout from seed {seed} ({size}x{size}); {said}")


@cli.command()
@click.argument("game", shell_complete=_complete_game)
@click.option("--seed", type=SEED, default=None, help="Start from this seed (default: the layout's).")
@click.option(
    "--trials",
    type=click.IntRange(1, 10_000),
    default=60,
    show_default=True,
    help="Most trials (a small grid may settle sooner).",
)
@click.option("--workers", type=click.IntRange(1, 256), default=None, help="Processes (default: the CPUs).")
@click.option(
    "--study",
    "study_url",
    default=None,
    metavar="URL",
    help="Share the study through a journal file or a database URL (sqlite:///, postgresql://, "
    "mysql+pymysql://; docs/tuning.md): "
    "several processes or machines running the same command split its trials.",
)
@click.option(
    "--margin",
    type=FiniteFloat(0.1, 1.0),
    default=0.8,
    show_default=True,
    help="Every seat gap at most this share of the layout's max_seat_gap.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help="Layout file to write (default: ID-tuned.toml here).",
)
def tune(
    game: str,
    seed: int | None,
    trials: int,
    workers: int | None,
    study_url: str | None,
    margin: float,
    output: Path | None,
) -> None:
    """Search what GAME's [tune] table may change for the smallest change that passes the check with
    margin; write it as a layout file, checked again in full, and say what changed in one sentence."""
    from boardgen.rules.simulate import available_cpus
    from boardgen.tune import tune as search
    from boardgen.tune import write_answer

    outcome = search(
        game,
        seed=seed,
        trials=trials,
        workers=workers or available_cpus(),
        study_url=study_url,
        margin=margin,
        report=lambda line: click.echo(line, err=True),
    )
    click.echo(write_answer(game, outcome, output, seed=seed))


@cli.command()
@click.argument("kind", default="game", type=click.Choice(["game", "theme", *engine_names()]))
def schema(kind: str) -> None:
    """Print the JSON Schema of layout files (by engine; game: the sliding game's) or theme
    files, for editors."""
    import json

    from boardgen.authoring import with_descriptions
    from boardgen.data.loader import export_schema
    from boardgen.data.paths import layouts_root
    from boardgen.engines import get_engine

    engine = get_engine("sliding" if kind in ("game", "theme") else kind).schema
    if not (layouts_root() / "schema" / f"{engine}.schema.json").exists():
        raise UsageError(f"no schema for {kind!r} yet")

    which = "theme" if kind == "theme" else "game"
    click.echo(json.dumps(with_descriptions(which, export_schema(which, engine)), indent=2))


@cli.command()
@click.option("--count", type=click.IntRange(1, 12), default=2, show_default=True, help="How many dice.")
@click.option("--face", type=FINITE, default=16.0, show_default=True, help="Side of a die face, mm (10 to 40).")
@click.option(
    "--paper",
    default="a4",
    show_default=True,
    shell_complete=_complete_paper,
    help="a4, letter, a3, legal, tabloid, or WxH: 210x297mm, 8.5x11in (a bare WxH is mm; up to A0).",
)
@click.option(
    "--margin",
    type=float,
    default=8.0,
    show_default=True,
    callback=_checked(bounds.margin),
    help="Unprintable margin per side, mm (0 to 30).",
)
@click.option(
    "--theme",
    default="classic",
    show_default=True,
    shell_complete=_complete_theme,
    help="Theme name or path to a theme .toml.",
)
@click.option("--lang", default="en", show_default=True, callback=_language, metavar="CODE", help=LANG_HELP)
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(path_type=Path),
    default=Path("output"),
    show_default=True,
    help="Folder to write dice/dice-PAPER.pdf into.",
)
def dice(count: int, face: float, paper: str, margin: float, theme: str, lang: str, output: Path) -> None:
    """Print a sheet of die nets on their own: cut, fold and glue them into dice."""
    import math

    from boardgen.data.strings import strings
    from boardgen.data.theme import load_theme
    from boardgen.kits.dice import dice_sheet
    from boardgen.kits.output import write_atomic
    from boardgen.options import KitOptions, kit_file_name

    if not math.isfinite(face):
        raise UsageError("--face: give the side of a die face in millimetres, e.g. 16")
    options = KitOptions(paper=paper, margin=margin, theme=theme, lang=lang)
    bounds.check_kit_options(options)
    strings(lang)
    pdf, _ = dice_sheet(load_theme(theme), options, count=count, face_mm=face)
    path = write_atomic(output / "dice" / kit_file_name("dice", options), pdf)
    click.echo(f"{path} ({count} dice, faces {face:g} mm)")


@cli.group()
def new() -> None:
    """Write an editable copy of a bundled game or theme into the current folder."""


def _write_new(name: str, text: str, directory: Path, force: bool) -> Path:
    from boardgen.kits.output import write_atomic

    target = directory / f"{name}.toml"
    if target.exists() and not force:
        raise UsageError(f"{target} already exists (use --force to replace it)")
    write_atomic(target, text.encode("utf-8"))
    return target


@new.command("theme")
@click.argument("name")
@click.option("--from", "base", default="classic", show_default=True, help="Theme to start from (name or file).")
@click.option(
    "-C",
    "--dir",
    "directory",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("."),
    help="Folder to write NAME.toml into (default: the current folder).",
)
@click.option("--force", is_flag=True, help="Replace an existing NAME.toml.")
def new_theme(name: str, base: str, directory: Path, force: bool) -> None:
    """Write NAME.toml: a theme extending --from, every key listed with what it changes."""
    from boardgen.authoring import new_theme as make

    target = _write_new(name, make(name, base), directory, force)
    click.echo(f"{target}: edit it, then `boardgen serve classic --theme {target}` to watch it live")


@new.command("game")
@click.argument("name")
@click.option("--from", "base", required=True, help="Game to copy (bundled name or file).")
@click.option(
    "-C",
    "--dir",
    "directory",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("."),
    help="Folder to write NAME.toml into (default: the current folder).",
)
@click.option("--force", is_flag=True, help="Replace an existing NAME.toml.")
def new_game(name: str, base: str, directory: Path, force: bool) -> None:
    """Write NAME.toml: a copy of the --from game's layout with the id NAME."""
    from boardgen.authoring import new_game as make

    target = _write_new(name, make(name, base), directory, force)
    click.echo(f"{target}: `boardgen show {target}` lists what you can change; `boardgen validate {target}` checks it")


@new.command("language")
@click.argument("code")
@click.option("--from", "base", default="en", show_default=True, help="Bundled language to translate from.")
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Folder to write strings/CODE.toml and rules/*.CODE.md into (default: your data folder, "
    "$XDG_DATA_HOME/boardgen, where every render finds them).",
)
@click.option("--force", is_flag=True, help="Replace existing files.")
def new_language(code: str, base: str, output: Path | None, force: bool) -> None:
    """Write CODE's strings file and every bundled rules text as commented copies to translate."""
    from boardgen.authoring import new_language as make
    from boardgen.data.languages import LANGUAGE_CODE, normalise
    from boardgen.data.strings import user_data_folder
    from boardgen.kits.output import write_atomic

    lang = normalise(code)
    if not LANGUAGE_CODE.match(lang):
        raise UsageError(f"{shorten(code, 40)!r} is not a language code; give a BCP 47 code such as es, pt-BR")
    folder = output if output is not None else user_data_folder()
    files = make(lang, base)
    existing = [folder / name for name in files if (folder / name).exists()]
    if existing and not force:
        raise UsageError(f"{existing[0]} already exists (use --force to replace {len(existing)} files)")
    for name, text in files.items():
        write_atomic(folder / name, text.encode("utf-8"))
    click.echo(
        f"{folder}: strings/{lang}.toml and {len(files) - 1} rules texts to translate from {base}; "
        f"`boardgen validate --lang {lang}` lists what is left"
    )


@cli.command()
@click.argument("what", default="pictures")
@click.option(
    "--contact-sheet",
    "contact",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="With `pictures`: also write a PNG of every picture with its name.",
)
@click.option(
    "--theme",
    default="classic",
    show_default=True,
    shell_complete=_complete_theme,
    help="With --contact-sheet: the theme drawing the pictures (yours replace ours).",
)
@click.option("--force", is_flag=True, help="With --contact-sheet: replace an existing file.")
def show(what: str, contact: Path | None, theme: str, force: bool) -> None:
    """List what can be changed in a game or a theme (name or file), or the bundled `pictures`."""
    from boardgen import authoring
    from boardgen.data.files import read_text
    from boardgen.data.loader import load, resolve
    from boardgen.data.paths import layouts_root

    if contact is not None and what != "pictures":
        raise UsageError("--contact-sheet goes with `boardgen show pictures`")
    if what == "pictures":
        names = authoring.bundled_pictures()
        if contact is not None:
            from boardgen.data.theme import load_theme
            from boardgen.kits.output import write_atomic
            from boardgen.render.pdf import svg_page
            from boardgen.render.preview import png_of_pdf_page
            from boardgen.render.svg.contact import contact_sheet_svg

            look = load_theme(theme)
            write_atomic(contact, png_of_pdf_page(svg_page(contact_sheet_svg(names, look), look), 110), replace=force)
            click.echo(f"{contact}: contact sheet of {len(names)} pictures")
        click.echo(f"{len(names)} bundled pictures (use them by name in a layout, or replace them in a theme's [art]):")
        for start in range(0, len(names), 4):
            click.echo("  " + "".join(f"{n:<20}" for n in names[start : start + 4]).rstrip())
        return
    kinds = []
    for kind in ("game", "theme"):
        try:
            resolve(kind, what)
            kinds.append(kind)
        except BoardgenError:
            continue
    if not kinds:
        raise UsageError(f"{what!r} is neither a game nor a theme (see `boardgen list`), nor `pictures`")
    # A file of one's own (NAME.toml, or a bare NAME found in this folder) is what its tables say.
    found = resolve(kinds[0], what)
    own = not found.resolve().is_relative_to(layouts_root().resolve())
    if "game" in kinds and (not own or "[game]" in read_text(found, what="a layout or theme")):
        from boardgen.engines import load_game
        from boardgen.kits.reprint import parts_of, piece_ids

        doc = load("game", what)
        try:
            engine, layout = load_game(what)
            ids = piece_ids(engine.kit(), layout)
            parts = parts_of(engine.kit(), ids)
        except BoardgenError:
            ids, parts = {}, []  # a layout being edited may not build yet: its tables are still worth listing
        click.echo(authoring.describe_game(doc, ids, parts))
    else:
        from boardgen.data.theme import load_theme

        click.echo(authoring.describe_theme(load_theme(what)))


@cli.command()
@click.argument("game", default=DEFAULT_GAME, shell_complete=_complete_game)
@click.option(
    "--theme",
    default="classic",
    show_default=True,
    shell_complete=_complete_theme,
    help="Theme name or path to a theme .toml.",
)
@click.option("--lang", default="en", show_default=True, callback=_language, metavar="CODE", help=LANG_HELP)
@click.option("--seed", type=click.IntRange(min=0), default=None, help="Seed of the layout (default: the game's).")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port on 127.0.0.1 (0: any free port).",
)
@click.option("--open/--no-open", "open_browser", default=False, help="Open the page in your browser.")
def serve(game: str, theme: str, lang: str, seed: int | None, port: int, open_browser: bool) -> None:
    """Show GAME's board and pieces on a local page that redraws whenever a file changes.

    GAME and --theme may be bundled names or paths to your own .toml files; edit them (or a
    picture they use) and the page follows within a second. Ctrl-C stops it.
    """
    from boardgen.data.strings import own_folder, use_layout_folder
    from boardgen.serve import LivePreview, kit_drawer, make_server, watch_roots

    use_layout_folder(own_folder(game))  # strings files beside a layout of the user's
    preview = LivePreview(kit_drawer(game, theme, lang, seed), watch_roots(game, theme))
    preview.current()
    try:
        server = make_server(preview, f"{game} ({theme})", port)
    except OSError as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}; try --port 0") from None
    import signal

    # Ctrl-C (even where the shell started us with it ignored) and a polite kill both stop it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        click.echo(f"Serving {game} with theme {theme} at {url} (Ctrl-C to stop)", err=True)
        if open_browser:
            import webbrowser

            webbrowser.open(url)
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    finally:
        server.server_close()


SERVICE_HELP = (
    "A print service, by the name of its file in layouts/services/ or in your own data folder "
    "(`boardgen list` shows them): "
)


@cli.command()
@click.argument("game", required=False, shell_complete=_complete_game)
@click.option(
    "--for",
    "service",
    required=True,
    metavar="SERVICE",
    help=SERVICE_HELP + "tgc (The Game Crafter) and mpc (MakePlayingCards): a PNG per card face; drivethru "
    "(DriveThruCards): a PDF/X-1a deck, back then front; press (a print factory): PDF/X pages "
    "of every piece with bleed, boxes and a die-cut line, and the die lines as SVG.",
)
@click.option(
    "--cards",
    default=None,
    metavar="SIZE",
    help="Draw the cards at this size for a service that does not print the layout's "
    "(e.g. poker, mini-us); the message of a refused size lists the service's sizes.",
)
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(path_type=Path),
    default=Path("output"),
    show_default=True,
    help="Folder for the kits: the files go to <kit folder>/<service>/.",
)
@click.option(
    "--paper",
    default="a4",
    show_default=True,
    shell_complete=_complete_paper,
    help="As for render (the pieces' sizes do not depend on it).",
)
@click.option("--theme", default="classic", show_default=True, shell_complete=_complete_theme)
@click.option("--seed", type=SEED, default=None, help="Seed for the starting layout (default: the game's).")
@click.option("--lang", default="en", show_default=True, callback=_language, metavar="CODE", help=LANG_HELP)
@click.option(
    "--bed",
    default="220x220",
    show_default=True,
    metavar="WxH",
    help="--for 3d: the printer's bed in mm; the plates fill it and a larger board is cut to fit.",
)
@click.option("--base", type=FINITE, default=1.6, show_default=True, help="--for 3d: the tiles' base, mm.")
@click.option("--wall", type=FINITE, default=3.0, show_default=True, help="--for 3d: the walls' height, mm.")
@click.option("--braille", default=None, metavar="LANG", help="--for 3d: the braille's language (default: --lang).")
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    help="tts, ttpg: the http(s) address you host the exported folder at (default: file:/// paths).",
)
@click.option(
    "--tts-scale",
    type=FiniteFloat(min=0.01, max=100.0),
    default=1.0,
    show_default=True,
    help="tts, ttpg: correct the board's size after checking it with the in-game ruler (docs/virtual-tables.md).",
)
@click.option(
    "--force", is_flag=True, help="tts, ttpg, tabletop-club: export a layout that fails its playability check."
)
@click.option("--no-check", "no_check", is_flag=True, help="tts, ttpg, tabletop-club: skip the playability check.")
def export(
    game: str | None,
    service: str,
    cards: str | None,
    output: Path,
    paper: str,
    theme: str,
    seed: int | None,
    lang: str,
    bed: str,
    base: float,
    wall: float,
    braille: str | None,
    base_url: str | None,
    tts_scale: float,
    force: bool,
    no_check: bool,
) -> None:
    """Write GAME's pieces as a print service takes them, with a preflight report; --for tts or
    ttpg: the whole checked kit set up on a virtual table; --for tabletop-club: its pieces as a
    Tabletop Club asset pack (docs/virtual-tables.md); --for 3d: as solids to 3D-print (STL,
    3MF) with braille (docs/3d-and-touch.md)."""
    from boardgen.export import export_kit
    from boardgen.options import KitOptions

    options = KitOptions(paper=paper, theme=theme, lang=lang, seed=seed)
    if service == "3d":
        from boardgen.export.mesh import cli_export

        return cli_export(
            game or DEFAULT_GAME, output, options, bed=bed, base=base, wall=wall, braille=braille, cards=cards
        )
    if service in ("tts", "ttpg"):
        from boardgen.export.tts import export_table

        if cards is not None:
            raise UsageError("--cards is for the card print services; a virtual table keeps the layout's sizes")
        made = export_table(
            game or DEFAULT_GAME,
            output,
            KitOptions(paper=paper, theme=theme, lang=lang, seed=seed, force=force, check=not no_check),
            service,
            base_url=base_url,
            board_scale=tts_scale,
        )
        click.echo(f"{made.folder} ({len(made.files)} files, {sum(made.sizes.values()) / 1024:.0f} KiB)")
        click.echo(made.verdict)
        return
    if service == "tabletop-club":
        from boardgen.export.tabletop_club import export_pack

        if cards is not None or base_url is not None or tts_scale != 1.0:
            raise UsageError("--cards, --base-url and --tts-scale are not for --for tabletop-club")
        pack = export_pack(
            game or DEFAULT_GAME,
            output,
            KitOptions(paper=paper, theme=theme, lang=lang, seed=seed, force=force, check=not no_check),
        )
        click.echo(f"{pack.folder} ({len(pack.files)} files, {sum(pack.sizes.values()) / 1024:.0f} KiB)")
        return
    if base_url is not None or tts_scale != 1.0 or force or no_check:
        raise UsageError("--base-url, --tts-scale, --force and --no-check are for --for tts and ttpg")
    result = export_kit(game or DEFAULT_GAME, output, options, service, cards=cards)
    for path in result.files:
        size = path.stat().st_size
        click.echo(f"{path} ({size / 1024:.0f} KiB)")
    problems = result.report["problems"]
    click.echo(
        f"preflight: {len(result.report['files'])} files, "
        + ("no problems" if not problems else f"{len(problems)} problems")
    )
    for problem in problems:
        click.echo(f"  problem: {problem}", err=True)
    if problems:
        sys.exit(7)


def _manifest_pieces(file: Path) -> list[str] | None:
    """What each page of an exported PDF is, from the manifest.csv beside it (None without one,
    or one that does not list the file): preflight's messages name the piece."""
    import csv

    from boardgen.data.files import read_bytes
    from boardgen.export import manifest_pieces

    manifest = file.parent / "manifest.csv"
    if file.suffix.lower() != ".pdf" or not manifest.is_file() or manifest.is_symlink():
        return None
    try:
        text = read_bytes(manifest, limit=4 * 1024**2, what="a manifest", usual="").decode("utf-8")
        return manifest_pieces(text, file.name)
    except (BoardgenError, UnicodeDecodeError, ValueError, csv.Error):
        return None  # a manifest boardgen did not write: the pages are named by number alone


@cli.command()
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--for", "service", required=True, metavar="SERVICE", help=SERVICE_HELP + "tgc, mpc, drivethru, press, ..."
)
@click.option("--json", "as_json", is_flag=True, help="The whole report as JSON.")
def preflight(file: Path, service: str, as_json: bool) -> None:
    """Check a PDF or PNG as SERVICE would: boxes, bleed, fonts, colour spaces, resolution, ink, die line,
    and what each face's bleed and safe band hold (a manifest.csv beside the file names the pieces)."""
    import json

    from boardgen.data.files import read_bytes
    from boardgen.export.preflight import MAX_PDF_BYTES, report_files
    from boardgen.export.services import service as find_service

    chosen = find_service(service)

    if file.suffix.lower() not in (".pdf", ".png"):
        raise UsageError(f"{file}: preflight reads .pdf and .png files")
    # A regular file (no FIFO, no link) of at most MAX_PDF_BYTES; its content is checked by preflight.
    data = read_bytes(file, limit=MAX_PDF_BYTES, what="a file for preflight", usual="")
    pieces = _manifest_pieces(file)
    try:
        report = report_files({file.name: data}, chosen, {file.name: pieces} if pieces else None)
    except BoardgenError:
        raise
    except Exception as exc:  # a file pypdf or Pillow cannot read
        raise UsageError(
            f"{file}: not a readable {file.suffix[1:].upper()} ({type(exc).__name__}: {str(exc)[:200]})"
        ) from None
    if as_json:
        click.echo(json.dumps(report, indent=2, sort_keys=True))
    else:
        for entry in report["files"]:
            for key, value in sorted(entry.items()):
                if key not in ("problems", "file", "page_boxes", "hint"):
                    click.echo(f"{key}: {value}")
        click.echo("problems: " + ("none" if not report["problems"] else ""))
        for problem in report["problems"]:
            click.echo(f"  {problem}")
        for hint in report.get("hints", []):
            click.echo(f"hint: {hint}")
    if report["problems"]:
        sys.exit(7)


def main() -> None:
    # numpy's BLAS starts a thread per CPU when imported, to spin beside the colour check's
    # few 3x3 products: one is enough, and it leaves the CPUs to the check's self-play and
    # the render (a thread less to be running at a fork, too). A value the user set stays.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    cli(prog_name="boardgen")


__all__ = ["cli", "main"]
