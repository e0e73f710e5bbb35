"""Hostile input to the surfaces added late (issue 37): numeric options that are not finite,
house rules texts that are not regular files of text, PDFs handed to preflight that would
exhaust memory, disk or time. Each is refused with one clear line naming what is wrong.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.errors import DataError, UsageError
from boardgen.options import KitOptions, check_kit_options

# Numeric options ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, option",
    [
        (["--kerf", "nan", "--cut", "laser"], "--kerf"),
        (["--kerf", "inf", "--cut", "laser"], "--kerf"),
        (["--gap", "inf"], "--gap"),
        (["--gap", "-inf"], "--gap"),
        (["--margin", "nan"], "--margin"),
        (["--margin", "1e999"], "--margin"),
        (["--overlap", "nan"], "--overlap"),
        (["--back-offset", "nan,0"], "--back-offset"),
        (["--back-offset", "0,inf"], "--back-offset"),
        (["--bed", "nanx400", "--cut", "laser"], "--bed"),
    ],
)
def test_a_number_that_is_not_finite_is_refused_naming_the_option(tmp_path: Path, args: list[str], option: str) -> None:
    result = CliRunner().invoke(
        cli, ["render", "classic", "--no-check", "--no-preview", "--no-svg", "-o", str(tmp_path), *args]
    )
    assert result.exit_code == 2, result.output
    assert option in result.stderr
    assert "Traceback" not in result.output
    assert not any(tmp_path.rglob("*")), "nothing is written for a refused option"


@pytest.mark.parametrize(
    "command", [["tune", "classic", "--margin", "nan"], ["dice", "--face", "inf"], ["dice", "--margin", "nan"]]
)
def test_other_commands_refuse_nan_and_inf(tmp_path: Path, command: list[str]) -> None:
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 2, result.output
    assert command[-2] in result.stderr and "must be a finite number" in result.stderr


@pytest.mark.parametrize(
    "options, named",
    [
        (KitOptions(kerf=float("nan")), "--kerf"),
        (KitOptions(kerf=float("inf")), "--kerf"),
        (KitOptions(kerf=3.0), "--kerf"),
        (KitOptions(bed=(float("inf"), 400.0)), "--bed"),
        (KitOptions(bed=(600.0, float("nan"))), "--bed"),
        (KitOptions(gap=float("nan")), "gap"),
        (KitOptions(margin=float("inf")), "margin"),
        (KitOptions(back_offset=(float("nan"), 0.0)), "back offset"),
    ],
)
def test_the_python_api_refuses_them_too(options: KitOptions, named: str) -> None:
    with pytest.raises(UsageError, match=named):
        check_kit_options(options)


# House rules and other text files of the user's --------------------------------------------

LAYOUT = 'extends = "classic"\n[game]\nrules = "house"\n'


def run_cli(*args: str, cwd: Path, seconds: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI in its own process, killed if it outlives `seconds` (a FIFO that blocks must fail
    this test, not hang the suite)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cwd / "cache")}
    try:
        return subprocess.run(
            [sys.executable, "-m", "boardgen", *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=seconds,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"boardgen {' '.join(args)} still running after {seconds} s")


def house_rules(folder: Path, make: Callable[[Path], None]) -> Path:
    (folder / "g.toml").write_text(LAYOUT, encoding="utf-8")
    make(folder / "house.en.md")
    return folder / "g.toml"


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _link(path: Path) -> None:
    (path.parent / "elsewhere.md").write_text("# Rules\nplay\n", encoding="utf-8")
    path.symlink_to(path.parent / "elsewhere.md")


def _latin1(path: Path) -> None:
    path.write_bytes(b"# Rules\nplay well\nthe caf\xe9 rule\n")


def _huge(path: Path) -> None:
    with path.open("wb") as out:  # sparse: 400 MB that take no disk
        out.truncate(400 * 1024 * 1024)


def _one_word(path: Path) -> None:
    path.write_text("# Rules\n" + "a" * 1_000_000 + "\n", encoding="utf-8")


def _long_word(path: Path) -> None:
    path.write_text("# Rules\nplay\n" + "a" * 60_000 + "\n", encoding="utf-8")


def _long_paragraph(path: Path) -> None:
    path.write_text("# Rules\n" + "word " * 12_000 + "\n", encoding="utf-8")


@pytest.mark.parametrize(
    "make, says, line",
    [
        (_fifo, "house.en.md: is a FIFO (named pipe), not a regular file", None),
        (_link, "house.en.md: is a symbolic link", None),
        (_latin1, "house.en.md:3: not UTF-8 text: byte 0xe9 at column 8", 3),
        (_huge, "house.en.md: file larger than 64 KiB (419,430,400 bytes)", None),
        (_one_word, "house.en.md: file larger than 64 KiB (1,000,009 bytes)", None),
        (_long_word, "house.en.md:3: a word of 60,000 characters; a word of a rules text has at most 200", 3),
        (_long_paragraph, "house.en.md:2: a paragraph of 60,000 characters", 2),
    ],
    ids=["fifo", "link", "not-utf8", "400MB", "1MB-word", "60k-word", "60k-paragraph"],
)
def test_house_rules_that_are_not_a_small_text_file_are_refused(
    tmp_path: Path, make: Callable[[Path], None], says: str, line: int | None
) -> None:
    layout = house_rules(tmp_path, make)
    started = time.monotonic()
    done = run_cli(
        "render",
        str(layout),
        "--no-check",
        "--no-preview",
        "--no-svg",
        "-o",
        str(tmp_path / "out"),
        cwd=tmp_path,
        seconds=60,
    )
    took = time.monotonic() - started
    assert done.returncode == 2, done.stderr[-600:]
    assert "Traceback" not in done.stderr
    assert says in done.stderr, done.stderr[-600:]
    assert done.stderr.startswith("boardgen: error: ")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))
    # A loose bound on a loaded machine: the refusal comes before anything is flowed or drawn.
    assert took < 30, f"{took:.1f} s"


def test_house_rules_within_the_bounds_still_print(tmp_path: Path) -> None:
    """Words and paragraphs just under the bounds: a kit with the text in it."""
    from pypdf import PdfReader

    def make(path: Path) -> None:
        path.write_text("# House rules\n" + ("b" * 200 + " ") * 19 + "\nplay the zebra rule\n", encoding="utf-8")

    layout = house_rules(tmp_path, make)
    done = run_cli(
        "render",
        str(layout),
        "--no-check",
        "--no-preview",
        "--no-svg",
        "-o",
        str(tmp_path / "out"),
        cwd=tmp_path,
        seconds=120,
    )
    assert done.returncode == 0, done.stderr[-600:]
    pdf = next((tmp_path / "out").rglob("*.pdf"))
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "zebra" in text


@pytest.mark.parametrize(
    "make, says",
    [
        (_fifo, "is a FIFO (named pipe), not a regular file"),
        (_link, "is a symbolic link"),
        (_huge, "file larger than 1024 KiB (419,430,400 bytes)"),
    ],
    ids=["fifo", "link", "400MB"],
)
def test_a_layout_that_is_not_a_regular_file_is_refused(
    tmp_path: Path, make: Callable[[Path], None], says: str
) -> None:
    target = tmp_path / "mine.toml"
    if make is _link:
        (tmp_path / "real.toml").write_text('extends = "classic"\n', encoding="utf-8")
        target.symlink_to(tmp_path / "real.toml")
    else:
        make(target)
    done = run_cli("validate", str(target), cwd=tmp_path, seconds=60)
    assert done.returncode == 2, done.stderr[-600:]
    assert f"mine.toml: {says}" in done.stderr, done.stderr[-600:]


def test_a_csv_deck_that_is_a_link_is_refused(tmp_path: Path) -> None:
    from boardgen.engines import load_game

    (tmp_path / "real.csv").write_text("id,en\nbook,Book\n", encoding="utf-8")
    (tmp_path / "cards.csv").symlink_to(tmp_path / "real.csv")
    (tmp_path / "g.toml").write_text('extends = "classic"\ntreasures = "cards.csv"\n', encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_game(str(tmp_path / "g.toml"))
    assert any(p.file.endswith("cards.csv") and "symbolic link" in p.message for p in caught.value.problems)


# Preflight of anyone's PDF -----------------------------------------------------------------

needs_gs = pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript is not installed")

# The CLI in a process that reports its own peak memory and its children's (Ghostscript's) at exit:
# their sum bounds the peak of the whole process tree, which runs one child at a time.
PEAK_DRIVER = """
import resource, sys
sys.argv = ["boardgen", *sys.argv[1:]]
try:
    from boardgen.cli import main
    main()
finally:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    sys.stderr.write(f"\\nPEAK-KIB {own} {children}\\n")
"""
GIB_KIB = 1024 * 1024


def blank_pdf(path: Path, pages: int, side_pt: float) -> Path:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(side_pt, side_pt)
    with path.open("wb") as out:
        writer.write(out)
    return path


def preflight_measured(tmp_path: Path, pdf: Path) -> tuple[subprocess.CompletedProcess[str], float, int, list[str]]:
    """`boardgen preflight PDF --for press` in its own process with a private TMPDIR: the run, its
    seconds, the peak memory of the process tree (KiB) and what it left in TMPDIR."""
    private = tmp_path / "tmpdir"
    private.mkdir()
    env = {**os.environ, "TMPDIR": str(private), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-c", PEAK_DRIVER, "preflight", str(pdf), "--for", "press"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"preflight of {pdf.name} still running after 120 s")
    took = time.monotonic() - started
    own, children = (int(v) for v in done.stderr.rsplit("PEAK-KIB ", 1)[1].split())
    return done, took, own + children, sorted(p.name for p in private.iterdir())


def test_a_pdf_of_sixty_huge_pages_is_refused_before_anything_is_rasterised(tmp_path: Path) -> None:
    pdf = blank_pdf(tmp_path / "huge.pdf", 60, 14400)
    assert pdf.stat().st_size < 20_000  # tiny, as the attack's 11.8 KB
    done, took, peak, left = preflight_measured(tmp_path, pdf)
    assert done.returncode == 2, done.stderr[-600:]
    assert "huge.pdf page 1: 5080 x 5080 mm, over the 1300 mm a side preflight measures" in done.stderr
    assert peak < GIB_KIB and took < 30 and left == []


def test_too_many_pages_or_too_much_paper_are_refused_naming_the_bound(tmp_path: Path) -> None:
    from boardgen.export.preflight import MAX_PAGES, MAX_TOTAL_M2

    many = blank_pdf(tmp_path / "many.pdf", MAX_PAGES + 1, 72)
    result = CliRunner().invoke(cli, ["preflight", str(many), "--for", "press"])
    assert result.exit_code == 2 and f"{MAX_PAGES + 1} pages, over the {MAX_PAGES}" in result.stderr
    wide = blank_pdf(tmp_path / "wide.pdf", 30, 3685)  # 30 pages of 1.3 x 1.3 m: each within the side bound
    result = CliRunner().invoke(cli, ["preflight", str(wide), "--for", "press"])
    assert result.exit_code == 2 and f"over the {MAX_TOTAL_M2:g} m2 preflight measures" in result.stderr


@pytest.mark.parametrize(
    "prefix", [b"%!PS\n{} loop\n", b"\n", b" ", b"\xef\xbb\xbf"], ids=["postscript", "newline", "space", "bom"]
)
def test_anything_before_the_pdf_header_is_refused(tmp_path: Path, prefix: bytes) -> None:
    inner = blank_pdf(tmp_path / "inner.pdf", 1, 595).read_bytes()
    pdf = tmp_path / "prefixed.pdf"
    pdf.write_bytes(prefix + inner)
    from pypdf import PdfReader

    assert len(PdfReader(pdf).pages) == 1  # pypdf reads it: only the header check stands in the way
    done, took, peak, left = preflight_measured(tmp_path, pdf)
    assert done.returncode == 2, done.stderr[-600:]
    assert "prefixed.pdf: not a readable PDF: a PDF starts with %PDF- at its first byte" in done.stderr
    assert peak < GIB_KIB and took < 30 and left == []


def test_an_endless_postscript_loop_is_refused(tmp_path: Path) -> None:
    pdf = tmp_path / "loop.pdf"
    pdf.write_bytes(b"%!PS-Adobe-3.0\n{ 1 pop } loop\n")
    done, took, peak, left = preflight_measured(tmp_path, pdf)
    assert done.returncode == 2 and "loop.pdf: not a readable PDF" in done.stderr
    assert peak < GIB_KIB and took < 30 and left == []


@needs_gs
def test_ghostscript_itself_is_bounded_in_cpu_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bounds on the child hold even for what the header check would have refused: the
    endless loop run straight through the raster loop is stopped by its CPU limit."""
    from boardgen.export import ghostscript

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    limits = ghostscript.Limits(memory_bytes=512 * 1024**2, cpu_seconds=2, file_bytes=64 * 1024**2, wall_seconds=25)
    started = time.monotonic()
    with pytest.raises(ghostscript.GhostscriptLimit, match="more than 2 s of CPU|more than 25 s"):
        list(ghostscript.cmyk_pages(b"%!PS\n{ 1 pop } loop\n", dpi=50, limits=limits))
    assert time.monotonic() - started < 30
    assert list(tmp_path.iterdir()) == []


@needs_gs
def test_ghostscript_is_bounded_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.export import ghostscript

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    limits = ghostscript.Limits(memory_bytes=256 * 1024**2, cpu_seconds=20, file_bytes=64 * 1024**2, wall_seconds=25)
    grows = b"%!PS\n/d 10 dict def 0 { 1 add dup d exch 1000000 string put } loop\n"  # a MB more each turn, kept
    with pytest.raises(ghostscript.GhostscriptLimit, match="more than 256 MiB of memory"):
        list(ghostscript.cmyk_pages(grows, dpi=50, limits=limits))
    assert list(tmp_path.iterdir()) == []


def cmyk_pdf(path: Path, inks: list[tuple[float, float, float, float]]) -> Path:
    """A page per ink, each with one square of that CMYK colour (0 to 1 a channel)."""
    from reportlab.pdfgen import canvas

    page = canvas.Canvas(str(path), pagesize=(300, 300))
    for c, m, y, k in inks:
        page.setFillColorCMYK(c, m, y, k)
        page.rect(50, 50, 200, 200, stroke=0, fill=1)
        page.showPage()
    page.save()
    return path


@needs_gs
def test_ink_is_measured_page_by_page_in_batches_and_the_folder_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from boardgen.export import preflight

    private = tmp_path / "tmp"
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    inks = [(0, 0, 0, 1.0), (1.0, 1.0, 0, 0), (1.0, 0, 0, 0), (0.2, 0.2, 0.2, 0)]  # 100, 200, 100, 60 %
    data = cmyk_pdf(tmp_path / "inks.pdf", inks).read_bytes()
    from pypdf import PdfReader

    sizes = preflight.page_sizes(PdfReader(tmp_path / "inks.pdf"), "inks.pdf")
    # One page a Ghostscript run: four runs, and the highest of the four pages found.
    monkeypatch.setattr(preflight, "RASTER_BATCH_BYTES", 1)
    assert preflight.batches(sizes) == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert preflight.max_ink(data, sizes) == 200
    assert list(private.iterdir()) == []
    monkeypatch.setattr(preflight, "RASTER_BATCH_BYTES", 256 * 1024**2)
    assert preflight.batches(sizes) == [(1, 4)]
    assert preflight.max_ink(data, sizes) == 200
    assert preflight.max_ink(cmyk_pdf(tmp_path / "k.pdf", [(0, 0, 0, 1.0)]).read_bytes()) == 100
    assert list(private.iterdir()) == []


def test_a_fifo_or_a_link_given_to_preflight_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.pdf")
    done = run_cli("preflight", str(tmp_path / "pipe.pdf"), "--for", "press", cwd=tmp_path, seconds=60)
    assert done.returncode == 2 and "pipe.pdf: is a FIFO (named pipe)" in done.stderr
    blank_pdf(tmp_path / "real.pdf", 1, 595)
    (tmp_path / "link.pdf").symlink_to(tmp_path / "real.pdf")
    done = run_cli("preflight", str(tmp_path / "link.pdf"), "--for", "press", cwd=tmp_path, seconds=60)
    assert done.returncode == 2 and "link.pdf: is a symbolic link" in done.stderr


def test_content_streams_that_decompress_past_the_bound_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small file of streams that inflate a thousandfold: read one at a time, counted, refused
    past MAX_CONTENT_BYTES (made small here to keep the test quick)."""
    import zlib

    from pypdf import PdfWriter
    from pypdf.generic import NameObject, StreamObject

    from boardgen.export import preflight
    from boardgen.export.services import service

    writer = PdfWriter()
    for index in range(4):
        page = writer.add_blank_page(595, 842)
        stream = StreamObject()
        stream.set_data(zlib.compress(b" " * 3_000_000 + b"%d 0 0 rg" % index, 9))
        stream[NameObject("/Filter")] = NameObject("/FlateDecode")
        page[NameObject("/Contents")] = writer._add_object(stream)
    path = tmp_path / "inflates.pdf"
    with path.open("wb") as out:
        writer.write(out)
    data = path.read_bytes()
    assert len(data) < 100_000
    monkeypatch.setattr(preflight, "MAX_CONTENT_BYTES", 8 * 1024**2)
    with pytest.raises(UsageError, match="inflates.pdf: its content streams decompress to more than 8 MiB"):
        preflight.report_pdf(data, service("tgc"), name="inflates.pdf")
    monkeypatch.setattr(preflight, "MAX_CONTENT_BYTES", 16 * 1024**2)
    report = preflight.report_pdf(data, service("tgc"), name="inflates.pdf")
    assert report["pages"] == 4
