"""`boardgen export GAME --for SERVICE`: a kit's pieces as a print service takes them, written
into ``<kit folder>/<service>/`` (the rest of the kit folder is left as it is, and the service's
folder is replaced whole, like a kit).

Every face and its quantity comes from the kit's piece catalogue (boardgen.kits.catalogue); the
services are data (boardgen.export.services):

- png (tgc, mpc): one PNG per card design at the service's exact pixel size, its quantity in
  the file name when the game uses it more than once (``front-03-minotaur-x2.png``), the back
  once per deck;
- pdf (drivethru): one PDF per deck, the back of card 1, then its front, and so on for every
  card the game uses (each copy of a design), in CMYK with the total ink limited, converted to
  the service's PDF/X by Ghostscript;
- press: every piece design one page a face with the service's bleed, TrimBox and BleedBox,
  the die line (the catalogue's trim outline) in a `die-cut` spot colour set to overprint,
  converted to PDF/X by Ghostscript, and each die line again as SVG.

Each service's folder has ``manifest.csv``: every file, the piece it shows and how many copies
to print. Every file is checked with `boardgen.export.preflight` before the folder is swapped in.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardgen.errors import UsageError
from boardgen.export.services import Service, services
from boardgen.export.services import service as find_service
from boardgen.kits.catalogue import Catalogue, PieceDesign, back_design

__all__ = ["ExportResult", "export_kit", "faces", "services"]


@dataclass
class ExportResult:
    folder: Path
    files: list[Path] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)


def _card_size_name(layout_doc: Any) -> str | tuple[float, float]:
    size = layout_doc.data.get("cards", {}).get("size", "mini-euro")
    return size if isinstance(size, str) else (float(size[0]), float(size[1]))


def _with_cards(engine: Any, doc: Any, size: str, bleed: float) -> Any:
    """The layout again, its cards drawn at `size` with `bleed`: the service's size and bleed."""
    from boardgen.data.loader import Document

    data = copy.deepcopy(doc.data)
    data.setdefault("cards", {})
    data["cards"]["size"] = size
    data["cards"]["bleed_mm"] = bleed
    return engine.build(Document(doc.name, doc.path, data, doc.lines, dict(doc.sources)))


def _sizes_text(service: Service) -> str:
    return ", ".join(f"{name} ({said})" for name, (said, _) in service.sizes.items())


def faces(pieces: Catalogue, press: bool) -> list[PieceDesign]:
    """The designs to export, in the catalogue's order: the card fronts, then the deck's back,
    for a card service; every piece for press (the paper score pad left out), each deck's back
    after its cards."""
    out: list[PieceDesign] = []
    for piece in pieces:
        if piece.kind == "score-pad" or (not press and piece.kind != "card"):
            continue
        out.append(piece)
    cards = pieces.of_kind("card")
    if cards:
        out.append(back_design(cards))
    return out


def _quantity(piece: PieceDesign) -> str:
    return f"-x{piece.count}" if piece.count > 1 else ""


def _manifest(rows: list[tuple[str, PieceDesign, int]]) -> bytes:
    """file,piece,name,quantity: how many copies of each file's face to print."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["file", "piece", "name", "quantity"])
    for path, piece, quantity in rows:
        writer.writerow([path, piece.id, piece.name, quantity])
    return out.getvalue().encode("utf-8")


def piece_name(face: PieceDesign) -> str:
    """A piece as preflight's messages and manifest.csv name it: its id and name."""
    return f"{face.id}, {face.name}"


def manifest_pieces(manifest: str, pdf: str) -> list[str] | None:
    """What each page of `pdf` (its file name) is, from the manifest.csv an export wrote beside
    it: a press file's pages are the rows of its die lines, in order; a deck's (one row a face,
    the back last) are the back and a front, as many times as the front's quantity. None when
    the manifest does not list the file."""
    reader = csv.DictReader(io.StringIO(manifest))
    rows = list(reader)
    if not rows or not {"file", "piece", "name", "quantity"} <= set(reader.fieldnames or ()):
        return None
    named = [f"{row['piece']}, {row['name']}" for row in rows]
    deck = [k for k, row in enumerate(rows) if row["file"].rsplit("/", 1)[-1] == pdf]
    if deck:
        if len(deck) != len(rows) or len(rows) < 2:
            return None
        counts = [int(row["quantity"]) if row["quantity"].isdigit() else 1 for row in rows[:-1]]
        return [one for k, count in enumerate(counts) for one in (named[-1], named[k]) * min(count, 500)]
    if pdf.endswith("-press.pdf") and all("/dielines/" in row["file"] for row in rows):
        return named
    return None


def export_kit(game: str, out_root: Path, options: Any, service_key: str, *, cards: str | None = None) -> ExportResult:
    """Write the files of `service_key` for `game` (see the module docstring)."""
    from boardgen.data.strings import strings
    from boardgen.data.theme import load_theme
    from boardgen.engines import load_game
    from boardgen.export import ghostscript, preflight  # submodules of this package
    from boardgen.export.press import dieline_svg, png_bytes, press_pdf, raster_deck_pdf, rgb_raster, to_cmyk
    from boardgen.kit import draw_kit
    from boardgen.kits.output import check_output, interruptible, kit_id, write_kit
    from boardgen.options import check_kit_options

    service = find_service(service_key)
    check_kit_options(options)
    engine, layout = load_game(game)  # first: a layout of the user's may bring its own language
    strings(options.lang)
    theme = load_theme(options.theme)
    name = kit_id(game, layout.id)
    folder = out_root / name
    check_output(folder, [f"{service.key}/"])
    if service.faces in ("pdf", "press"):
        ghostscript.require(f"export --for {service.key}")  # known before any drawing
    if service.faces != "press":
        if not engine.prints_cards:
            raise UsageError(
                f"{layout.id} has no cards for {service.name} to print; "
                f"`export {game} --for press` writes press files of its pieces"
            )
        wanted = cards if cards is not None else _card_size_name(layout.doc)
        if not isinstance(wanted, str) or wanted not in service.sizes:
            shown = wanted if isinstance(wanted, str) else f"{wanted[0]:g} x {wanted[1]:g} mm"
            raise UsageError(
                f"{service.name} does not print {shown} cards ({layout.id}'s "
                f"{'chosen' if cards else 'cards'}); it prints {_sizes_text(service)}: give "
                f"--cards NAME to draw the cards at one of those sizes"
            )
        layout = _with_cards(engine, layout.doc, wanted, service.bleed_mm)
        size: str | None = wanted
    elif cards is not None:
        raise UsageError("--cards is for the card services (tgc, mpc, drivethru); press keeps the layout's sizes")
    else:
        size = None
    kit = engine.kit()
    seed = layout.default_seed if options.seed is None else options.seed
    setup = kit.setup(layout, seed)
    drawings = draw_kit(kit, layout, theme, setup, seed, options.lang)
    chosen = faces(kit.catalogue(layout, drawings), service.faces == "press")
    deck = re.sub(r"[^A-Za-z0-9_-]+", "_", layout.id)
    files: dict[str, bytes] = {}
    pieces: dict[str, list[str]] = {}  # what each page of a PDF is, for preflight's messages
    rows: list[tuple[str, PieceDesign, int]] = []
    with interruptible() as interrupted:
        if service.faces == "png":
            for k, face in enumerate(chosen, start=1):
                label = "back" if face.kind == "card-back" else f"front-{k:02d}-{face.label}{_quantity(face)}"
                path = f"{service.key}/{deck}/{label}.png"
                image = rgb_raster(face, theme, service.pixels(size, face.trim))
                files[path] = png_bytes(image, service.dpi)
                rows.append((path, face, face.count))
                interrupted()
        elif service.faces == "pdf":
            profile = str(ghostscript.cmyk_profile())
            back = chosen[-1]
            limit = service.ink_limit or 300
            back_cmyk = to_cmyk(rgb_raster(back, theme, service.pixels(size, back.trim)), profile, limit)
            pages = []
            for face in chosen[:-1]:
                front = to_cmyk(rgb_raster(face, theme, service.pixels(size, face.trim)), profile, limit)
                pages += [(back_cmyk, back.trim), (front, face.trim)] * face.count
                interrupted()
            raw = raster_deck_pdf(pages, bleed=service.bleed_mm, dpi=service.dpi, title=f"{layout.title[options.lang]}")
            path = f"{service.key}/{deck}-deck.pdf"
            files[path] = ghostscript.to_pdfx(raw, version=service.pdfx, title=layout.title[options.lang])
            pieces[path] = [piece_name(one) for face in chosen[:-1] for one in (back, face) * face.count]
            rows += [(path, face, face.count) for face in chosen]
        else:
            raw = press_pdf(chosen, theme, bleed=service.bleed_mm, title=layout.title[options.lang])
            path = f"{service.key}/{deck}-press.pdf"
            files[path] = ghostscript.to_pdfx(raw, version=service.pdfx, title=layout.title[options.lang])
            pieces[path] = [piece_name(face) for face in chosen]
            for face in chosen:
                die = f"{service.key}/dielines/{face.file}.svg"
                files[die] = dieline_svg(face, bleed=service.bleed_mm).encode()
                rows.append((die, face, face.count))
        report = preflight.report_files(files, service, pieces)
        report["quantities"] = {face.id: face.count for face in chosen}
        files[f"{service.key}/manifest.csv"] = _manifest(rows)
        files[f"{service.key}/preflight.json"] = (json.dumps(report, indent=2, sort_keys=True) + "\n").encode()
        written = write_kit(folder, files, owned=(service.key,), before_swap=interrupted)
    return ExportResult(folder / service.key, written, report)
