"""`boardgen export GAME --for tabletop-club`: the kit as a Tabletop Club asset pack, the one open,
documented virtual-table format (the game's docs: "Asset pack structure", "File types"), in
``<kit folder>/tabletop-club/<pack>/``, the pack folder to copy into Tabletop Club's
``assets/`` folder:

- ``pieces/cube/``: the board, a thin box whose top face is the board's drawing;
- ``tokens/cube/``: corridor tiles and wands, thin boxes with the drawing on top and the
  theme's back colour below (they stack, as tokens do);
- ``tokens/cylinder/``: round pieces (Master's object tokens, disc pawns), the drawing on top;
- ``pieces/cube/``: the fold-up standees, upright, their two faces front and back;
- ``pieces/custom/``: the walls blocks, OBJ meshes extruded from their catalogue outline;
- ``cards/``: every card front with the deck's back (``back_face``).

Each folder's ``config.cfg`` gives every object its printed size in centimetres (``scale``,
x across, y up, z deep), its mass, and a description naming the piece and how many copies the
game uses (an asset pack holds designs; players take as many as the description says).
Textures follow the game's UV mappings: a cube's image is 3 x 2 cells (back, left, front / right,
top, bottom), a cylinder's is its side above, its top and bottom discs below.

Tabletop Club's own dice serve for the dice (its default pack has a d6); a set-up table would
be a save file (``.tc``), a format the project does not document, so the pack holds the pieces
and the players lay the board out as the rules sheet says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardgen.errors import UsageError

if TYPE_CHECKING:
    from PIL import Image

    from boardgen.kits.catalogue import PieceDesign

TARGET = "tabletop-club"
BOARD_CM = 0.2  # a board's thickness
TOKEN_CM = 0.2  # a tile's or token's thickness: thick card
CARD_CM = 0.05
STANDEE_CM = 0.1
BLOCK_MM = 4.0  # a walls block's height: glued on thick card
GRAMS_PER_CM3 = 0.7  # card and board, about


@dataclass
class PackExport:
    folder: Path
    files: list[Path]
    sizes: dict[str, int]


def _cm(mm: float) -> str:
    return f"{mm / 10:.3f}".rstrip("0").rstrip(".")


def _scale(w_mm: float, h_mm: float, thick_cm: float, *, upright: bool = False) -> str:
    """Godot's Vector3 of a size in cm: x across, y up, z deep."""
    if upright:
        return f"Vector3({_cm(w_mm)}, {_cm(h_mm)}, {thick_cm:g})"
    return f"Vector3({_cm(w_mm)}, {thick_cm:g}, {_cm(h_mm)})"


def _mass(w_mm: float, h_mm: float, thick_cm: float) -> str:
    return f"{max(0.1, w_mm / 10 * h_mm / 10 * thick_cm * GRAMS_PER_CM3):.2f}"


def _text(value: str) -> str:
    """A Godot ConfigFile string."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _name(piece: PieceDesign) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", piece.file)


def _desc(piece: PieceDesign) -> str:
    copies = f"{piece.count} in the game" if piece.count != 1 else "1 in the game"
    return f"{piece.name} ({piece.id}): {copies}"


class _Folder:
    """One sub-folder of the pack: its images or models and its config.cfg sections."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.files: dict[str, bytes] = {}
        self.sections: list[tuple[str, dict[str, str]]] = []

    def add(self, name: str, data: bytes, **keys: str) -> None:
        self.files[name] = data
        self.sections.append((name, keys))

    def config(self) -> bytes:
        lines = [f"; {self.path}: written by boardgen (sizes in centimetres, masses in grams)"]
        for name, keys in self.sections:
            lines += ["", f"[{name}]", *(f"{key} = {value}" for key, value in keys.items())]
        return ("\n".join(lines) + "\n").encode("utf-8")


def _cube(cell: tuple[int, int], side: str, **faces: Image.Image) -> Image.Image:
    """A cube's texture, 3 x 2 cells of `cell` pixels: back, left, front above; right, top,
    bottom below; a face not given is the plain `side` colour."""
    from PIL import Image

    out = Image.new("RGB", (3 * cell[0], 2 * cell[1]), side)
    for name, (col, row) in CUBE_CELLS.items():
        if name in faces:
            out.paste(faces[name].resize(cell), (col * cell[0], row * cell[1]))
    return out


CUBE_CELLS = {"back": (0, 0), "left": (1, 0), "front": (2, 0), "right": (0, 1), "top": (1, 1), "bottom": (2, 1)}


def _cylinder(top: Image.Image, bottom: Image.Image | None, side: str) -> Image.Image:
    """A cylinder's texture: the side over the upper half, the top and bottom discs below."""
    from PIL import Image, ImageDraw

    d = max(top.size)
    out = Image.new("RGB", (2 * d, 2 * d), side)
    mask = Image.new("L", (d, d), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, d - 1, d - 1), fill=255)
    out.paste(top.resize((d, d)), (0, d), mask)
    if bottom is not None:
        out.paste(bottom.resize((d, d)), (d, d), mask)
    return out


def pack_files(build: Any) -> dict[str, bytes]:
    """Every file of the pack, by path inside it, from the build's catalogue."""
    from boardgen.export.tts import _Images, _png, block_obj
    from boardgen.kits.catalogue import back_design

    theme = build.plan.theme
    images = _Images(theme)
    back_colour = theme.colour("ink")
    folders = {
        name: _Folder(name) for name in ("pieces/cube", "tokens/cube", "tokens/cylinder", "pieces/custom", "cards")
    }
    cards = build.catalogue.of_kind("card")
    for piece in build.catalogue:
        w, h = piece.trim
        name = _name(piece)
        if piece.kind in ("score-pad", "die"):
            continue  # written on (the score pad, on paper); Tabletop Club's own dice
        if piece.kind == "board":
            top = images.face(piece)
            folders["pieces/cube"].add(
                f"{name}.png",
                _png(_cube(top.size, "#f4efe6", top=top)),
                desc=_text(_desc(piece)),
                scale=_scale(w, h, BOARD_CM),
                mass=_mass(w, h, BOARD_CM),
            )
        elif piece.kind == "card":
            folders["cards"].add(
                f"{name}.png",
                _png(images.face(piece)),
                desc=_text(_desc(piece)),
                scale=_scale(w, h, CARD_CM),
                mass=_mass(w, h, CARD_CM),
            )
        elif piece.kind == "block":
            model = block_obj(piece, BLOCK_MM, unit_mm=10.0)
            texture = f"{name}.png"
            folders["pieces/custom"].files[texture] = _png(images.drawing(piece))
            folders["pieces/custom"].add(
                f"{name}.obj", model.encode("utf-8"), desc=_text(_desc(piece)), mass=_mass(w, h, BLOCK_MM / 10)
            )
        elif piece.outline.shape == "circle":
            folders["tokens/cylinder"].add(
                f"{name}.png",
                _png(_cylinder(images.face(piece), None, back_colour)),
                desc=_text(_desc(piece)),
                scale=_scale(w, h, TOKEN_CM),
                mass=_mass(w, h, TOKEN_CM),
            )
        elif piece.outline.folds:  # a fold-up standee: its two faces between its fold lines
            (_, foot), _ = piece.outline.folds[0]
            (_, middle), _ = piece.outline.folds[1]
            (_, top_fold), _ = piece.outline.folds[2]
            face_h = middle - foot
            # The first face is drawn upside down on the sheet: folded, it stands upright.
            front = images.face(piece, (0.0, foot, w, face_h)).rotate(180)
            back = images.face(piece, (0.0, middle, w, top_fold - middle))
            folders["pieces/cube"].add(
                f"{name}.png",
                _png(_cube(front.size, back_colour, front=front, back=back)),
                desc=_text(_desc(piece)),
                scale=_scale(w, face_h, STANDEE_CM, upright=True),
                mass=_mass(w, face_h, STANDEE_CM),
            )
        else:  # a corridor tile, a wand: flat, drawing on top
            top = images.face(piece)
            folders["tokens/cube"].add(
                f"{name}.png",
                _png(_cube(top.size, back_colour, top=top)),
                desc=_text(_desc(piece)),
                scale=_scale(w, h, TOKEN_CM),
                mass=_mass(w, h, TOKEN_CM),
            )
    if cards:
        folders["cards"].files["back.png"] = _png(images.face(back_design(cards)))
        folders["cards"].sections.insert(0, ("*", {"back_face": _text("back.png")}))
        folders["cards"].sections.insert(1, ("back.png", {"ignore": "true"}))
    out: dict[str, bytes] = {}
    for folder in folders.values():
        if not folder.files:
            continue
        out.update({f"{folder.path}/{name}": data for name, data in folder.files.items()})
        out[f"{folder.path}/config.cfg"] = folder.config()
    return out


PACK_README = """\
Tabletop Club asset pack made by boardgen: copy the folder next to this file into one of the
folders Tabletop Club reads asset packs from (its own assets/ folder, or an assets/ folder in
your Documents, Downloads or Desktop folder under TabletopClub/), then start the game: every
piece is in the objects menu under the pack's name, at its printed size. Each piece's
description says how many the game uses. Set the board up as the rules sheet says; use the
game's own six-sided dice.
"""


def export_pack(game: str, out_root: Path, options: Any) -> PackExport:
    """Write `<kit folder>/tabletop-club/`: the pack and a README (see the module docstring)."""
    from boardgen.kit import build_kit, plan_kit
    from boardgen.kits.output import check_output, interruptible, write_kit

    options = replace(options, previews=False, svg=False)
    plan = plan_kit(game, options)
    folder = out_root / plan.name
    check_output(folder, [f"{TARGET}/"])
    build = build_kit(game, options)  # refused (exit 4) when the layout fails its check, unless --force
    pack = re.sub(r"[^A-Za-z0-9_ -]+", "_", f"boardgen {plan.layout.title[plan.options.lang]}").strip() or "boardgen"
    if len(pack) > 80:
        raise UsageError(f"the pack's name {pack!r} is too long for a folder")
    with interruptible() as interrupted:
        files = {f"{TARGET}/{pack}/{path}": data for path, data in pack_files(build).items()}
        files[f"{TARGET}/README.txt"] = PACK_README.encode("utf-8")
        written = write_kit(folder, files, owned=(TARGET,), before_swap=interrupted)
    return PackExport(folder / TARGET, written, {path: len(data) for path, data in files.items()})
