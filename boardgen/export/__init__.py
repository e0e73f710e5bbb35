"""`boardgen export GAME --for SERVICE`: a kit's pieces as a print service takes them, written
into ``<kit folder>/<service>/`` (the rest of the kit folder is left as it is, and the service's
folder is replaced whole, like a kit).

- tgc, mpc: one PNG per card face at the service's exact pixel size (the back once per deck);
- drivethru: one PDF per deck, the back of card 1, then its front, and so on, in CMYK with the
  total ink limited, converted to PDF/X-1a by Ghostscript;
- press: every piece one page a face with 3 mm bleed, TrimBox and BleedBox, the die line in a
  `die-cut` spot colour set to overprint, converted to PDF/X-3 by Ghostscript, and each die
  line again as SVG.
Every file is checked with `boardgen.export.preflight` before the folder is swapped in.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardgen.errors import UsageError
from boardgen.export.services import SERVICES, Service

__all__ = ["SERVICES", "ExportResult", "export_kit"]


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


def _faces(drawings: Any, layout: Any, press: bool) -> list[Any]:
    """The faces to export, in the kit's order: cards (fronts, then the back) for a card
    service; every piece for press (the set-up picture and the paper score pad left out)."""
    from boardgen.export.press import CARD_CORNER_MM, Face
    from boardgen.render.imposition import svg_size

    files: dict[str, str] = drawings.files()
    blocks = {f"block-{b.id}": b for b in getattr(layout, "blocks", ())}
    out = []
    for name, svg in files.items():
        is_card = name.startswith("card-")
        if not is_card and not press:
            continue
        if name in ("setup", "score-pad"):
            continue
        if is_card:
            out.append(Face(name, svg, tuple(layout.card_size_mm), layout.bleed_mm, "rounded", CARD_CORNER_MM))
            continue
        size = svg_size(svg)
        if size is None:
            continue
        w, h = size
        block = blocks.get(name)
        if block is not None:  # a wall block: its polyomino outline, as the kit cuts it
            from boardgen.render.svg.walls import block_outline

            out.append(Face(name, svg, (w, h), shape="polygon", points=block_outline(block, layout.pitch_mm)))
        elif name.startswith("die-"):  # a die net: the cross with its glue tabs, as the kit cuts it
            from boardgen.render.svg.pieces import die_net_face, die_net_outline

            out.append(Face(name, svg, (w, h), shape="polygon", points=die_net_outline(die_net_face(h))[0]))
        elif abs(w - h) < 1e-6 and re.search(rf'<circle[^>]*id="{re.escape(name)}-face"', svg):
            # A round piece drawn with 1 mm round its cut circle.
            out.append(Face(name, svg, (w - 2.0, h - 2.0), 1.0, "circle"))
        else:
            out.append(Face(name, svg, (w, h)))
    if not press:
        backs = [f for f in out if f.name == "card-back"]
        out = [f for f in out if f.name != "card-back"] + backs
    return out


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

    service = SERVICES[service_key]
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
        if getattr(layout, "card_size_mm", None) is None:
            raise UsageError(f"{layout.id} has no cards for {service.name} to print; "
                             f"`export {game} --for press` writes press files of its pieces")
        wanted = cards if cards is not None else _card_size_name(layout.doc)
        if not isinstance(wanted, str) or wanted not in service.sizes:
            shown = wanted if isinstance(wanted, str) else f"{wanted[0]:g} x {wanted[1]:g} mm"
            raise UsageError(f"{service.name} does not print {shown} cards ({layout.id}'s "
                             f"{'chosen' if cards else 'cards'}); it prints {_sizes_text(service)}: give "
                             f"--cards NAME to draw the cards at one of those sizes")
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
    faces = _faces(drawings, layout, service.faces == "press")
    deck = re.sub(r"[^A-Za-z0-9_-]+", "_", layout.id)
    files: dict[str, bytes] = {}
    with interruptible() as interrupted:
        if service.faces == "png":
            for k, face in enumerate(faces, start=1):
                label = "back" if face.name == "card-back" else f"front-{k:02d}-{face.name.removeprefix('card-')}"
                image = rgb_raster(face, theme, service.pixels(size, face.trim))
                files[f"{service.key}/{deck}/{label}.png"] = png_bytes(image, service.dpi)
                interrupted()
        elif service.faces == "pdf":
            profile = str(ghostscript.cmyk_profile())
            back = next(f for f in faces if f.name == "card-back")
            limit = service.ink_limit or 300
            back_cmyk = to_cmyk(rgb_raster(back, theme, service.pixels(size, back.trim)), profile, limit)
            pages = []
            for face in faces:
                if face is back:
                    continue
                front = to_cmyk(rgb_raster(face, theme, service.pixels(size, face.trim)), profile, limit)
                pages += [(back_cmyk, back.trim), (front, face.trim)]
                interrupted()
            raw = raster_deck_pdf(pages, bleed=service.bleed_mm, dpi=service.dpi, title=f"{layout.title[options.lang]}")
            files[f"{service.key}/{deck}-deck.pdf"] = ghostscript.to_pdfx(raw, version="PDF/X-1a:2003",
                                                                          title=layout.title[options.lang])
        else:
            raw = press_pdf(faces, theme, bleed=service.bleed_mm, title=layout.title[options.lang])
            files[f"{service.key}/{deck}-press.pdf"] = ghostscript.to_pdfx(raw, version="PDF/X-3:2002",
                                                                           title=layout.title[options.lang])
            for face in faces:
                files[f"{service.key}/dielines/{face.name}.svg"] = dieline_svg(face, bleed=service.bleed_mm).encode()
        report = preflight.report_files(files, service)
        files[f"{service.key}/preflight.json"] = (json.dumps(report, indent=2, sort_keys=True) + "\n").encode()
        written = write_kit(folder, files, owned=(service.key,), before_swap=interrupted)
    return ExportResult(folder / service.key, written, report)
