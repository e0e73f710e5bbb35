"""Ghostscript, when it is installed: PDF/X conversion (output intent, CMYK) and CMYK rasters to
measure ink. It is optional and never bundled (it is AGPL): without it, the commands that need it
say which package to install and exit with code 6.
"""

from __future__ import annotations

import resource
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from boardgen.errors import BoardgenError

# Where Debian's ghostscript package (and most others) keep the CMYK profile Ghostscript uses.
PROFILE_DIRS = (
    Path("/usr/share/color/icc/ghostscript"),
    Path("/usr/share/ghostscript/iccprofiles"),
    Path("/opt/homebrew/share/ghostscript/iccprofiles"),
    Path("/usr/local/share/ghostscript/iccprofiles"),
)
TIMEOUT_S = 300


@dataclass(frozen=True)
class Limits:
    """What one Ghostscript child may take, set on the child itself (resource limits), not only a
    wait: its address space, its CPU seconds, the size of any file it writes, and the wall time."""

    memory_bytes: int
    cpu_seconds: int
    file_bytes: int
    wall_seconds: float


# Measuring a file handed to preflight (untrusted: anyone's PDF): an 11.8 KB PDF of huge pages took
# 4.7 GiB and 3 GiB of disk, a PostScript loop ran 300 s. A batch of kit pages at 50 dpi takes
# well under a second of CPU and 100 MiB.
RASTER_LIMITS = Limits(memory_bytes=768 * 1024**2, cpu_seconds=20, file_bytes=512 * 1024**2, wall_seconds=30)
# Converting a kit boardgen drew itself to PDF/X (trusted, but large): the old 300 s, bounded memory.
PDFX_LIMITS = Limits(memory_bytes=2 * 1024**3, cpu_seconds=TIMEOUT_S, file_bytes=2 * 1024**3, wall_seconds=TIMEOUT_S)
# How much of what Ghostscript says is kept for a message (its output goes to a file, not memory).
SAID_BYTES = 4096


class GhostscriptLimit(BoardgenError):
    """Ghostscript went over a bound set on it (memory, CPU, file size, time) on a file."""

    exit_code = 2


@contextmanager
def private_folder() -> Iterator[Path]:
    """A folder of our own for Ghostscript's files (mkdtemp: mode 0700, in TMPDIR), removed
    afterwards whatever happens."""
    folder = Path(tempfile.mkdtemp(prefix="boardgen-gs-"))
    try:
        folder.chmod(0o700)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(command: Sequence[str], folder: Path, limits: Limits, what: str) -> tuple[int, str]:
    """Run Ghostscript within `limits` (its output into files of `folder`, not our memory):
    its exit code and the start of what it said. A bound reached is a GhostscriptLimit naming it."""

    def bounded() -> None:  # in the child, before Ghostscript starts
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    said = folder / "gs-said.txt"
    with said.open("wb") as out:
        try:
            done = subprocess.run(
                list(command),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=limits.wall_seconds,
                check=False,
                preexec_fn=bounded,
                cwd=folder,
            )
        except subprocess.TimeoutExpired:
            raise GhostscriptLimit(
                f"{what}: Ghostscript took more than {limits.wall_seconds:g} s and was stopped; the file is refused"
            ) from None
    with said.open("rb") as handle:
        text = handle.read(SAID_BYTES).decode("utf-8", "replace").strip()
    code = done.returncode
    if code in (-signal.SIGXCPU, -signal.SIGKILL):
        raise GhostscriptLimit(
            f"{what}: Ghostscript used more than {limits.cpu_seconds} s of CPU and was stopped; the file is refused"
        )
    if code == -signal.SIGXFSZ:
        raise GhostscriptLimit(
            f"{what}: Ghostscript wrote a file over {limits.file_bytes // 1024**2} MiB and was "
            "stopped; the file is refused"
        )
    if code != 0 and ("VMerror" in text or "out of memory" in text.lower() or code == -signal.SIGSEGV):
        raise GhostscriptLimit(
            f"{what}: Ghostscript needed more than {limits.memory_bytes // 1024**2} MiB of "
            "memory and was stopped; the file is refused"
        )
    return code, text


class MissingGhostscript(BoardgenError):
    """A print-shop file needs Ghostscript, and it is not installed."""

    exit_code = 6


def executable() -> str | None:
    for name in ("gs", "gswin64c", "gswin32c"):
        found = shutil.which(name)
        if found:
            return found
    return None


def require(what: str) -> str:
    found = executable()
    if found is None:
        raise MissingGhostscript(
            f"{what} needs Ghostscript for PDF/X and CMYK, and it is not installed: install the "
            "'ghostscript' package (Debian/Ubuntu: apt-get install ghostscript; Fedora: dnf install ghostscript; "
            "macOS: brew install ghostscript; Windows: the installer from ghostscript.com), then run this again. "
            "The PNG files for tgc and mpc need no Ghostscript."
        )
    return found


def cmyk_profile() -> Path:
    """The CMYK ICC profile that ships with Ghostscript (default_cmyk.icc)."""
    for folder in PROFILE_DIRS:
        candidate = folder / "default_cmyk.icc"
        if candidate.is_file():
            return candidate
    gs = require("a CMYK conversion")
    for candidate in sorted(Path(gs).resolve().parent.parent.glob("share/**/default_cmyk.icc")):
        return candidate
    raise MissingGhostscript("Ghostscript is installed but its CMYK profile (default_cmyk.icc) was not found")


def _ps_string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def _pdfx_def(profile: Path, version: str, title: str) -> str:
    """Ghostscript's PDFX_def.ps, filled in: the document's PDF/X version and the output intent
    made from the CMYK profile."""
    return f"""%!
[ /GTS_PDFXVersion {_ps_string(version)} /Title {_ps_string(title)} /Trapped /False /DOCINFO pdfmark
[/_objdef {{icc_PDFX}} /type /stream /OBJ pdfmark
[{{icc_PDFX}} << /N 4 >> /PUT pdfmark
[{{icc_PDFX}} {_ps_string(str(profile))} (r) file /PUT pdfmark
[/_objdef {{OutputIntent_PDFX}} /type /dict /OBJ pdfmark
[{{OutputIntent_PDFX}} <<
  /Type /OutputIntent /S /GTS_PDFX
  /OutputCondition (CMYK, Ghostscript default_cmyk.icc)
  /OutputConditionIdentifier (Custom)
  /RegistryName (http://www.color.org)
  /Info (boardgen press file)
  /DestOutputProfile {{icc_PDFX}}
>> /PUT pdfmark
[{{Catalog}} << /OutputIntents [ {{OutputIntent_PDFX}} ] >> /PUT pdfmark
"""


def to_pdfx(pdf: bytes, *, version: str, title: str) -> bytes:
    """The PDF converted by Ghostscript to CMYK PDF/X: every colour in DeviceCMYK (spot colours
    kept as Separation), black text as pure K, the output intent from Ghostscript's CMYK
    profile, the page boxes kept."""
    gs = require("PDF/X")
    profile = cmyk_profile()
    with private_folder() as folder:
        (folder / "in.pdf").write_bytes(pdf)
        (folder / "pdfx_def.ps").write_text(_pdfx_def(profile, version, title), encoding="ascii")
        command = [
            gs,
            "-q",
            "-dBATCH",
            "-dNOPAUSE",
            "-dSAFER",
            f"--permit-file-read={profile}",
            # Pages stay as drawn: the mirrored bleed's upside-down text made Ghostscript turn a board.
            "-sDEVICE=pdfwrite",
            "-dPDFX",
            "-dAutoRotatePages=/None",
            "-dCompatibilityLevel=1.4",
            "-sColorConversionStrategy=CMYK",
            "-sProcessColorModel=DeviceCMYK",
            "-dBlackText",
            "-dNOOUTERSAVE",
            "-dEmbedAllFonts=true",
            # Pictures kept lossless and at their resolution: JPEG would move the limited ink.
            "-dAutoFilterColorImages=false",
            "-sColorImageFilter=FlateEncode",
            "-dDownsampleColorImages=false",
            "-dAutoFilterGrayImages=false",
            "-sGrayImageFilter=FlateEncode",
            "-dDownsampleGrayImages=false",
            f"-sOutputICCProfile={profile}",
            "-o",
            str(folder / "out.pdf"),
            str(folder / "pdfx_def.ps"),
            str(folder / "in.pdf"),
        ]
        code, said = run(command, folder, PDFX_LIMITS, "PDF/X")
        out = folder / "out.pdf"
        if code != 0 or not out.is_file():
            raise BoardgenError(f"Ghostscript could not make the PDF/X file: {said[:400]}")
        return out.read_bytes()


def cmyk_pages(
    pdf: bytes, *, dpi: int, batches: Sequence[tuple[int, int]] | None = None, limits: Limits = RASTER_LIMITS
) -> Generator[Path, None, None]:
    """Each page rasterised by Ghostscript in CMYK (raw TIFF, 8 bits a channel, as the file's
    CMYK values), for measuring total ink: one file at a time, in a private folder, each
    removed once the next is asked for, and the folder removed at the end. `batches` are the
    (first, last) page ranges rasterised by one Ghostscript run each (None: all in one), so
    that the disk holds one batch at most; every run is held to `limits`."""
    gs = require("measuring ink")
    with private_folder() as folder:
        source = folder / "in.pdf"
        source.write_bytes(pdf)
        for first, last in batches or [(0, 0)]:
            pages = [] if not first else [f"-dFirstPage={first}", f"-dLastPage={last}"]
            command = [
                gs,
                "-q",
                "-dBATCH",
                "-dNOPAUSE",
                "-dSAFER",
                "-sDEVICE=tiff32nc",
                f"-r{dpi}",
                "-dUseTrimBox=false",
                *pages,
                "-o",
                str(folder / "page-%04d.tif"),
                str(source),
            ]
            code, said = run(command, folder, limits, "measuring ink")
            if code != 0:
                raise BoardgenError(f"Ghostscript could not rasterise the file: {said[:400]}")
            for path in sorted(folder.glob("page-*.tif")):
                try:
                    yield path
                finally:
                    path.unlink(missing_ok=True)
