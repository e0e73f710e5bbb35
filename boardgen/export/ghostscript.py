"""Ghostscript, when it is installed: PDF/X conversion (output intent, CMYK) and CMYK rasters to
measure ink. It is optional and never bundled (it is AGPL): without it, the commands that need it
say which package to install and exit with code 6.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from boardgen.errors import BoardgenError

# Where Debian's ghostscript package (and most others) keep the CMYK profile Ghostscript uses.
PROFILE_DIRS = (Path("/usr/share/color/icc/ghostscript"), Path("/usr/share/ghostscript/iccprofiles"),
                Path("/opt/homebrew/share/ghostscript/iccprofiles"), Path("/usr/local/share/ghostscript/iccprofiles"))
TIMEOUT_S = 300


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
            "The PNG files for tgc and mpc need no Ghostscript.")
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
    with tempfile.TemporaryDirectory(prefix="boardgen-gs-") as tmp:
        folder = Path(tmp)
        (folder / "in.pdf").write_bytes(pdf)
        (folder / "pdfx_def.ps").write_text(_pdfx_def(profile, version, title), encoding="ascii")
        command = [gs, "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", f"--permit-file-read={profile}",
                   # Pages stay as drawn: the mirrored bleed's upside-down text made Ghostscript turn a board.
                   "-sDEVICE=pdfwrite", "-dPDFX", "-dAutoRotatePages=/None", "-dCompatibilityLevel=1.4",
                   "-sColorConversionStrategy=CMYK",
                   "-sProcessColorModel=DeviceCMYK", "-dBlackText", "-dNOOUTERSAVE", "-dEmbedAllFonts=true",
                   # Pictures kept lossless and at their resolution: JPEG would move the limited ink.
                   "-dAutoFilterColorImages=false", "-sColorImageFilter=FlateEncode", "-dDownsampleColorImages=false",
                   "-dAutoFilterGrayImages=false", "-sGrayImageFilter=FlateEncode", "-dDownsampleGrayImages=false",
                   f"-sOutputICCProfile={profile}", "-o", str(folder / "out.pdf"),
                   str(folder / "pdfx_def.ps"), str(folder / "in.pdf")]
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
        out = folder / "out.pdf"
        if done.returncode != 0 or not out.is_file():
            said = (done.stderr or done.stdout).strip()[:400]
            raise BoardgenError(f"Ghostscript could not make the PDF/X file: {said}")
        return out.read_bytes()


def cmyk_pages(pdf: bytes, *, dpi: int) -> list[bytes]:
    """Each page rasterised by Ghostscript in CMYK (raw TIFF, 8 bits a channel, as the file's
    CMYK values), for measuring total ink."""
    gs = require("measuring ink")
    with tempfile.TemporaryDirectory(prefix="boardgen-gs-") as tmp:
        folder = Path(tmp)
        (folder / "in.pdf").write_bytes(pdf)
        command = [gs, "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{dpi}",
                   "-dUseTrimBox=false", "-o", str(folder / "page-%04d.tif"), str(folder / "in.pdf")]
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip()[:400]
            raise BoardgenError(f"Ghostscript could not rasterise the file: {said}")
        return [path.read_bytes() for path in sorted(folder.glob("page-*.tif"))]
