"""Converted drawings kept between renders: an SVG is turned into reportlab shapes once.

svglib's conversion of an SVG into a reportlab drawing is most of a kit's PDF work, and a
person who changes the paper, the margin or one colour renders the same pieces again. The
drawing depends only on

- the SVG text (pictures are inside it, as data: URIs: boardgen never links outside files),
- the fonts svglib may name (the font map: family and weight to registered face),
- the code that converts it: svglib and reportlab versions, this module's format, the PDF
  module and the font module (a digest of their sources).

Those make a SHA-256 key. An entry is ``<cache>/drawings/<key[:2]>/<key>.bin`` (the cache
folder of boardgen.verdicts): a header with the format, the key and a digest of the payload,
then the pickled drawing. An entry that is unreadable, truncated, edited or filed under
another key is ignored (the SVG is converted again and the entry rewritten); a payload is
unpickled only once its digest matches, and then only into reportlab, svglib and Pillow
classes. Writing is best effort: a read-only or full cache only means converting again.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterable
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from boardgen.verdicts import cache_dir

FORMAT = b"boardgen-drawing-2"
MAX_ENTRY_BYTES = 32 << 20
# Folders a cached drawing may name classes from (pickle looks them up by module and name).
_ALLOWED_MODULES = ("reportlab.graphics.", "reportlab.lib.colors", "reportlab.lib.attrmap", "reportlab.lib.validators",
                    "svglib.",
                    "PIL.Image", "PIL.PngImagePlugin", "PIL.JpegImagePlugin")
_ALLOWED_NAMES = {("copyreg", "_reconstructor"), ("builtins", "object"), ("builtins", "set"),
                  ("builtins", "frozenset"), ("builtins", "bytearray"), ("builtins", "complex"),
                  ("builtins", "slice"), ("collections", "OrderedDict")}


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "?"


@cache
def _code_digest() -> str:
    """The converting code: package versions and boardgen's PDF and font modules."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(FORMAT)
    for part in (_version("svglib"), _version("reportlab"), _version("pillow"), sys.version):
        digest.update(part.encode() + b"\0")
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


def _path(key: str) -> Path:
    return cache_dir() / "drawings" / key[:2] / f"{key}.bin"


class _Unpickler(pickle.Unpickler):
    """Builds only the kinds of object a converted drawing is made of."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED_NAMES or module.startswith(_ALLOWED_MODULES):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a drawing")


def load(key: str, accept: Callable[[Any], bool]) -> Any | None:
    """The drawing kept under key if its entry is whole and `accept` takes it, else None."""
    path = _path(key)
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
    try:
        drawing = _Unpickler(io.BytesIO(payload)).load()
    except Exception:  # a payload that passed its digest but will not load: convert again
        return None
    return drawing if accept(drawing) else None


def store(key: str, drawing: Any) -> None:
    """Keep the drawing under key (written whole or not at all; failures are ignored)."""
    try:
        payload = pickle.dumps(drawing, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a drawing that cannot be kept is simply converted next time
        return
    entry = b"\n".join((FORMAT, key.encode(), hashlib.sha256(payload).hexdigest().encode())) + b"\n\n" + payload
    if len(entry) > MAX_ENTRY_BYTES:
        return
    path = _path(key)
    temp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{key[:16]}.", suffix=".part")
        with os.fdopen(handle, "wb") as out:
            out.write(entry)
        os.replace(temp, path)
        temp = None
    except OSError:
        pass
    finally:
        if temp is not None:
            try:
                os.unlink(temp)
            except OSError:
                pass
