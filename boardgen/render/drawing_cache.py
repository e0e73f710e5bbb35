"""Converted drawings kept between renders: an SVG is turned into reportlab shapes once.

svglib's conversion of an SVG into a reportlab drawing is most of a kit's PDF work, and a
person who changes the paper, the margin or one colour renders the same pieces again. The
drawing depends only on

- the SVG text (pictures are inside it, as data: URIs: boardgen never links outside files),
- the fonts svglib may name (the font map: family and weight to registered face),
- the code that converts it: svglib, reportlab and Pillow as installed (their files' sizes
  and times), this module's format, the PDF module and the font module (their sources).

Those make a SHA-256 key. An entry is ``<cache>/drawings/<key[:2]>/<key>.bin`` (the cache
folder of boardgen.verdicts): a header with the format, the key and a digest of the payload,
then the pickled drawing. An entry that is unreadable, truncated, edited or filed under
another key is ignored (the SVG is converted again and the entry rewritten); a payload is
unpickled only once its digest matches, and then only into reportlab, svglib and Pillow
classes. Writing is best effort: a read-only or full cache only means converting again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import os
import pickle
import sys
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from boardgen.verdicts import cache_dir, keep

FORMAT = b"boardgen-drawing-2"
MAX_ENTRY_BYTES = 32 << 20
# Folders a cached drawing may name classes from (pickle looks them up by module and name).
_ALLOWED_MODULES = ("reportlab.graphics.", "reportlab.lib.colors", "reportlab.lib.attrmap", "reportlab.lib.validators",
                    "svglib.",
                    "PIL.Image", "PIL.PngImagePlugin", "PIL.JpegImagePlugin")
_ALLOWED_NAMES = {("copyreg", "_reconstructor"), ("builtins", "object"), ("builtins", "set"),
                  ("builtins", "frozenset"), ("builtins", "bytearray"), ("builtins", "complex"),
                  ("builtins", "slice"), ("collections", "OrderedDict")}


def _installed(package: str, *files: str) -> str:
    """Where a package's code is and which version of it (its files' sizes and times), found
    without importing it: svglib itself is only imported when something is converted."""
    spec = importlib.util.find_spec(package)
    origin = spec.origin if spec is not None else None
    if origin is None:
        return f"{package}: ?"
    out = [package]
    for name in ("__init__.py", *files):
        path = os.path.join(os.path.dirname(origin), name)
        try:
            stat = os.stat(path)
            out.append(f"{path} {stat.st_size} {stat.st_mtime_ns}")
        except OSError:
            out.append(f"{path} ?")
    return " ".join(out)


@cache
def _code_digest() -> str:
    """The converting code: svglib, reportlab's drawing and Pillow as installed, the Python
    version (pickles), and boardgen's PDF and font modules."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(FORMAT)
    for package, files in (("svglib", ("svglib.py", "fonts.py", "utils.py")), ("reportlab", ("graphics/shapes.py",)),
                           ("PIL", ("Image.py",))):
        digest.update(_installed(package, *files).encode() + b"\0")
    digest.update(sys.version.encode())
    for name in ("pdf.py", "fonts.py", "drawing_cache.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def drawing_key(svg: str, fonts: Iterable[tuple[str, str]]) -> str:
    """The key of an SVG converted with these fonts ((svg family and weight, registered face) pairs)."""
    digest = hashlib.sha256(_code_digest().encode())
    for name, face in sorted(fonts):
        digest.update(f"{name}\0{face}\n".encode())
    digest.update(b"\0svg\0")
    digest.update(svg.encode("utf-8"))
    return digest.hexdigest()


def _path(key: str, folder: str = "drawings") -> Path:
    return cache_dir() / folder / key[:2] / f"{key}.bin"


def _read(key: str, folder: str) -> bytes | None:
    """The payload of the entry under key, if the entry is whole and really that key's."""
    path = _path(key, folder)
    try:
        with path.open("rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_ENTRY_BYTES:
                return None
            data = handle.read()
    except OSError:
        return None
    head, _, payload = data.partition(b"\n\n")
    lines = head.split(b"\n")
    if len(lines) != 3 or lines[0] != FORMAT or lines[1] != key.encode():
        return None
    if lines[2] != hashlib.sha256(payload).hexdigest().encode():
        return None
    return payload


def _write(key: str, folder: str, payload: bytes) -> None:
    """Keep payload under key (written whole or not at all; failures are ignored)."""
    entry = b"\n".join((FORMAT, key.encode(), hashlib.sha256(payload).hexdigest().encode())) + b"\n\n" + payload
    if len(entry) > MAX_ENTRY_BYTES:
        return
    keep(_path(key, folder), entry)


class _Unpickler(pickle.Unpickler):
    """Builds only the kinds of object a converted drawing is made of."""

    def __init__(self, data: bytes, substitutes: Mapping[tuple[str, str], Any],
                 modules: tuple[str, ...] = _ALLOWED_MODULES) -> None:
        super().__init__(io.BytesIO(data))
        self.substitutes = substitutes
        self.modules = modules

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in self.substitutes:
            return self.substitutes[(module, name)]
        if (module, name) in _ALLOWED_NAMES or module.startswith(self.modules):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a drawing")


def load(key: str, accept: Callable[[Any], bool],
         substitutes: Mapping[tuple[str, str], Any] | None = None) -> Any | None:
    """The drawing kept under key if its entry is whole and `accept` takes it, else None.
    substitutes: classes to build instead of the ones named (module, name) in the entry."""
    payload = _read(key, "drawings")
    if payload is None:
        return None
    try:
        drawing = _Unpickler(payload, substitutes or {}).load()
    except Exception:  # a payload that passed its digest but will not load: convert again
        return None
    return drawing if accept(drawing) else None


def store(key: str, drawing: Any) -> None:
    """Keep the drawing under key (written whole or not at all; failures are ignored)."""
    _keep_pickled(key, "drawings", drawing)


def _keep_pickled(key: str, folder: str, thing: Any) -> None:
    """Keep `thing` pickled under key; one that cannot be pickled is simply made again next time."""
    try:
        payload = pickle.dumps(thing, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return
    _write(key, folder, payload)


# A kit's SVGs ---------------------------------------------------------------------------------
#
# Drawing a kit's pieces (svgwrite, the pictures, text fitted to the fonts) is the other large
# part of a render that only changes when its inputs do: the layout (its data after extends),
# the seed, the language, the theme (its data and the bytes of every picture and font file it
# names), the bundled data and fonts (their files' sizes and times), svgwrite and lxml as
# installed, and boardgen's own code (every source file). Those make the key of the kit's SVG
# texts, kept as JSON in ``<cache>/kit-svgs``.


def _tree_state(root: Path) -> str:
    out = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            try:
                stat = os.stat(path)
            except OSError:
                continue
            out.append(f"{os.path.relpath(path, root)} {stat.st_size} {stat.st_mtime_ns}")
    return "\n".join(out)


@cache
def _drawing_code_digest() -> str:
    """Every boardgen source file, the bundled data and fonts, svgwrite and lxml as installed."""
    from importlib import resources

    from boardgen.data.paths import layouts_root

    fonts_root = Path(str(resources.files("boardgen.fonts")))  # as render.fonts finds them
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(FORMAT + b" kit-svgs")
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    for root in (layouts_root(), fonts_root):
        digest.update(_tree_state(root).encode())
    for package_name, files in (("svgwrite", ("drawing.py", "base.py")), ("lxml", ())):
        digest.update(_installed(package_name, *files).encode() + b"\0")
    digest.update(sys.version.encode())
    return digest.hexdigest()


def kit_svgs_key(kit: str, layout_data: Any, seed: int, lang: str, theme_data: Any,
                 theme_files: Iterable[Path]) -> str | None:
    """The key of a kit's SVGs; None when an input cannot be read (then nothing is kept)."""
    digest = hashlib.sha256(_drawing_code_digest().encode())
    try:
        blob = json.dumps([kit, seed, lang, layout_data, theme_data], sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False, default=repr)
        digest.update(blob.encode("utf-8", "surrogatepass"))
        for path in sorted(set(theme_files)):
            digest.update(str(path).encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    except (OSError, TypeError, ValueError, RecursionError):
        return None
    return digest.hexdigest()


def load_svgs(key: str) -> tuple[str, dict[str, Any]] | None:
    """(kind of drawings, fields) kept under key: each field an SVG text or a name -> SVG table."""
    payload = _read(key, "kit-svgs")
    if payload is None:
        return None
    try:
        entry = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(entry, dict) and isinstance(entry.get("kind"), str) and isinstance(entry.get("fields"), dict)):
        return None
    for value in entry["fields"].values():
        if isinstance(value, dict):
            if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
                return None
        elif not isinstance(value, str):
            return None
    return entry["kind"], entry["fields"]


def store_svgs(key: str, kind: str, fields: dict[str, Any]) -> None:
    _write(key, "kit-svgs", json.dumps({"kind": kind, "fields": fields}, ensure_ascii=False).encode("utf-8"))


# Parsed fonts --------------------------------------------------------------------------------
#
# reportlab reads a TrueType file's tables in Python each time a face is registered (a tenth of
# a second for the bundled four). The parsed face is kept under a key of the file (path, size,
# time), its registered name and reportlab as installed, in ``<cache>/fonts``.


def font_key(name: str, path: Path) -> str | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    material = f"{name}\0{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}\0"
    material += _installed("reportlab", "pdfbase/ttfonts.py", "pdfbase/pdfmetrics.py") + sys.version
    return hashlib.sha256(FORMAT + b" font " + material.encode("utf-8", "surrogatepass")).hexdigest()


def load_font(key: str) -> Any | None:
    """The font object kept under key, built only from reportlab's font classes; else None."""
    payload = _read(key, "fonts")
    if payload is None:
        return None
    try:
        return _Unpickler(payload, {}, ("reportlab.pdfbase.ttfonts",)).load()
    except Exception:  # a payload that passed its digest but will not load: parse again
        return None


def store_font(key: str, font: Any) -> None:
    _keep_pickled(key, "fonts", font)


# Size ----------------------------------------------------------------------------------------

MAX_CACHE_BYTES = 256 << 20  # kit SVGs, drawings and fonts together
PRUNED_TO = 192 << 20


def prune(limit: int = MAX_CACHE_BYTES, keep: int = PRUNED_TO) -> None:
    """When the kept SVGs, drawings and fonts pass `limit` bytes, remove the oldest entries
    until `keep` remain (anything removed is simply made again when needed)."""
    entries = []
    for folder in ("kit-svgs", "drawings", "fonts"):
        for path in (cache_dir() / folder).glob("*/*.bin"):
            try:
                stat = path.stat()
            except OSError:
                continue
            entries.append((stat.st_mtime_ns, stat.st_size, path))
    total = sum(size for _, size, _ in entries)
    if total <= limit:
        return
    for _, size, path in sorted(entries):
        try:
            path.unlink()
        except OSError:
            continue
        total -= size
        if total <= keep:
            return
