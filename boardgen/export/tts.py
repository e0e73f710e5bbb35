"""`boardgen export GAME --for tts` (and ``ttpg``): the whole checked kit as a Tabletop Simulator
saved object, set up as the check played it, in ``<kit folder>/<target>/``:

- ``<game>.json``: the saved object (`Saves/Saved Objects/`), its objects in `ObjectStates`: the
  board as a locked ``Custom_Board`` with a snap point on every square or field, every loose
  piece where the start puts it (boardgen.export.table): tiles, tokens and disc pawns as
  ``Custom_Tile`` (front and back), standees as ``Figurine_Custom``, walls blocks as
  ``Custom_Model`` (an OBJ extruded from the block's outline), dice as ``Die_6``, each deck as a
  ``DeckCustom``, face down, top card first as the seed deals it;
- ``<game>.png``: the thumbnail TTS shows beside a saved object;
- ``images/``: one RGB PNG a face (at most MAX_PX a side), a sheet of at most 10 x 7 faces a
  deck, the hidden-card face in its last slot; ``models/``: the OBJ meshes.

Sizes: the table's unit is MM_PER_UNIT mm (TTS's ruler reads one unit as an inch) and each kind
of object's size at scale 1 is a constant below (TILE_SHORT_UNITS, CARD_UNITS): the scale of
every object is its printed size over that. The board's one (BOARD_SHORT_UNITS) is the least
sure of them: `board_scale` (``--tts-scale``) corrects it after a check with the in-game ruler
(docs/virtual-tables.md).

Image addresses are ``file:///`` paths to where the files are written, or ``base_url`` + the
file's path in the folder when the user hosts the folder.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from boardgen.errors import UsageError
from boardgen.export.table import Deck, Placed, Table, table

if TYPE_CHECKING:
    from PIL import Image

    from boardgen.data.theme import Theme
    from boardgen.kits.catalogue import PieceDesign

# One TTS unit, in mm: the in-game ruler reads distances in inches, one unit each.
MM_PER_UNIT = 25.4
# A Custom_Tile at scale 1: its image's shorter side is 2 units, the longer one follows the
# image's aspect (measured in an emulator calibrated on printed slots of a public mod).
TILE_SHORT_UNITS = 2.0
# A Custom_Board and a Figurine_Custom at scale 1: taken as a Custom_Tile's (not measured; the
# board's is corrected with --tts-scale).
BOARD_SHORT_UNITS = 2.0
FIGURE_SHORT_UNITS = 2.0
# A card at scale 1, width x height in units.
CARD_UNITS = (2.2, 3.1)
# Flat images lie with their top towards the object's local -z: turned half round, the board's
# top edge is away from the first seat (+z) and its left edge on the left (-x).
IMAGE_TURN = 180.0
DPI = 150  # the faces' resolution: sharp at arm's length on a screen, small to load
MAX_PX = 4096  # TTS's largest texture side
SHEET_MAX = (10, 7)  # a deck sheet's columns and rows at most; the last slot is the hidden face
BOARD_Y, PIECE_Y, STACK_Y = 1.0, 1.2, 1.4  # heights above the table's centre, units
TILE_THICKNESS = 0.1  # units: about 2.5 mm, a thick card
BLOCK_MM = 4.0  # a walls block's height: glued on thick card
COLOUR = {"r": 1.0, "g": 1.0, "b": 1.0}
TARGETS = ("tts", "ttpg")


@dataclass
class TableExport:
    folder: Path
    files: list[Path] = field(default_factory=list)
    sizes: dict[str, int] = field(default_factory=dict)
    verdict: str = ""
    build: Any = None  # the boardgen.kit.KitBuild it was made from


def check_base_url(url: str | None) -> str | None:
    """`--base-url`: an http(s) address of the hosted folder, ending in '/'."""
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"--base-url: {url!r} is not an http:// or https:// address of the folder you host")
    return url if url.endswith("/") else url + "/"


def _guid(*parts: object) -> str:
    """A stable six-hex-digit GUID (TTS's own form) from what the object is."""
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(
    x: float,
    z: float,
    y: float,
    rot_y: float = 0.0,
    *,
    flip: bool = False,
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0),
) -> dict[str, float]:
    return {
        "posX": round(x, 4),
        "posY": y,
        "posZ": round(z, 4),
        "rotX": 0.0,
        "rotY": round(rot_y % 360, 4),
        "rotZ": 180.0 if flip else 0.0,
        "scaleX": round(scale[0], 5),
        "scaleY": round(scale[1], 5),
        "scaleZ": round(scale[2], 5),
    }


def _object(
    name: str,
    guid: str,
    transform: dict[str, float],
    nickname: str,
    description: str = "",
    piece: str = "",
    **extra: Any,
) -> dict[str, Any]:
    """The fields every saved object has (see tests/fixtures/tts_saved_object.json); the GM's
    notes name the catalogue piece it is (``tile:07``)."""
    return {
        "GUID": guid,
        "Name": name,
        "Transform": transform,
        "Nickname": nickname,
        "Description": description,
        "GMNotes": piece,
        "ColorDiffuse": dict(COLOUR),
        "Locked": False,
        "Grid": False,
        "Snap": True,
        "IgnoreFoW": False,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "GridProjection": False,
        "Hands": False,
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        **extra,
    }


def _pixels(mm: tuple[float, float], dpi: int = DPI) -> tuple[int, int]:
    w, h = (max(1, round(side / 25.4 * dpi)) for side in mm)
    big = max(w, h)
    if big > MAX_PX:
        w, h = max(1, w * MAX_PX // big), max(1, h * MAX_PX // big)
    return w, h


def _trim_box(piece: PieceDesign) -> tuple[float, float, float, float]:
    """The trim's box in the drawing, mm: left, top, width, height."""
    if piece.outline.shape == "polygon":
        xs = [x for x, _ in piece.outline.points]
        ys = [y for _, y in piece.outline.points]
        return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
    i = piece.outline.inset
    w, h = piece.trim
    return i, i, w, h


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG", dpi=(DPI, DPI))
    return buffer.getvalue()


class _Images:
    """The faces, rasterised once each by the print exports' route (export.press.rgb_raster)."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.files: dict[str, bytes] = {}
        self.whole: dict[str, Image.Image] = {}

    def drawing(self, piece: PieceDesign) -> Image.Image:
        """The whole drawing (bleed and margins included) at DPI, within MAX_PX."""
        if piece.id not in self.whole:
            from boardgen.export.press import rgb_raster

            self.whole[piece.id] = rgb_raster(piece, self.theme, _pixels(piece.size))
        return self.whole[piece.id]

    def face(self, piece: PieceDesign, box: tuple[float, float, float, float] | None = None) -> Image.Image:
        """The drawing cut to its trim's box (or to `box`, drawing mm)."""
        whole = self.drawing(piece)
        left, top, w, h = box or _trim_box(piece)
        sx, sy = whole.size[0] / piece.size[0], whole.size[1] / piece.size[1]
        return whole.crop((round(left * sx), round(top * sy), round((left + w) * sx), round((top + h) * sy)))

    def add(self, name: str, image: Image.Image) -> str:
        if name not in self.files:
            self.files[name] = _png(image)
        return name


def _plain(colour: str, size: tuple[int, int] = (64, 64)) -> Image.Image:
    from PIL import Image

    return Image.new("RGB", size, colour)


class _Writer:
    def __init__(self, build: Any, target: str, url_root: str, board_scale: float) -> None:
        self.build, self.target, self.url_root, self.board_scale = build, target, url_root, board_scale
        self.images = _Images(build.plan.theme)
        self.models: dict[str, bytes] = {}
        self.table: Table = table(build)
        board = self.table.board
        self.board_w, self.board_h = board.trim
        self.back_name = self.images.add("back-plain.png", _plain(build.plan.theme.colour("paper")))

    def url(self, path: str) -> str:
        return self.url_root + quote(path)

    def world(self, at: tuple[float, float]) -> tuple[float, float]:
        """Board mm (origin top-left, y down) to the table's x and z (units; the board's centre
        at the origin, its top edge towards +z)."""
        return (at[0] - self.board_w / 2) / MM_PER_UNIT, (self.board_h / 2 - at[1]) / MM_PER_UNIT

    # -- the objects -------------------------------------------------------------------------------

    def board(self, note: str) -> dict[str, Any]:
        piece = self.table.board
        name = self.images.add(f"{piece.file}.png", self.images.face(piece))
        scale = min(piece.trim) / MM_PER_UNIT / BOARD_SHORT_UNITS * self.board_scale
        snaps = []
        for at in self.table.snaps:
            x, z = self.world(at)
            # A snap point is in the board's own frame: scaled by it and turned with it.
            snaps.append({"Position": {"x": round(-x / scale, 4), "y": 0.1, "z": round(-z / scale, 4)}})
        return _object(
            "Custom_Board",
            _guid("board"),
            _transform(0.0, 0.0, BOARD_Y, IMAGE_TURN, scale=(scale, 1.0, scale)),
            self.build.plan.layout.title[self.build.plan.options.lang],
            note,
            piece.id,
            Locked=True,
            CustomImage={
                "ImageURL": self.url(f"images/{name}"),
                "ImageSecondaryURL": "",
                "ImageScalar": 1.0,
                "WidthScale": 0.0,
            },
            AttachedSnapPoints=snaps,
        )

    def piece(self, placed: Placed, n: int) -> dict[str, Any]:
        piece = placed.piece
        x, z = self.world(placed.at)
        rot = IMAGE_TURN + 90.0 * placed.turns
        guid = _guid(piece.id, n)
        if piece.kind == "die":
            return _object("Die_6", guid, _transform(x, z, STACK_Y, 0.0), piece.name, piece.id, piece.id)
        if piece.kind == "block":
            return self.block(placed, guid, x, z)
        if piece.kind == "pawn" and piece.outline.folds:
            return self.standee(placed, guid, x, z)
        name = self.images.add(f"{piece.file}.png", self.images.face(piece))
        scale = min(piece.trim) / MM_PER_UNIT / TILE_SHORT_UNITS
        tile_type = 2 if piece.outline.shape == "circle" else 3 if piece.outline.shape == "rounded" else 0
        y = STACK_Y if piece.kind == "token" else PIECE_Y
        return _object(
            "Custom_Tile",
            guid,
            _transform(x, z, y, rot, flip=placed.face_down, scale=(scale, 1.0, scale)),
            piece.name,
            f"{piece.id}: {placed.where}",
            piece.id,
            CustomImage={
                "ImageURL": self.url(f"images/{name}"),
                "ImageSecondaryURL": self.url(f"images/{self.back_name}"),
                "ImageScalar": 1.0,
                "WidthScale": 0.0,
                "CustomTile": {"Type": tile_type, "Thickness": TILE_THICKNESS, "Stackable": False, "Stretch": True},
            },
        )

    def standee(self, placed: Placed, guid: str, x: float, z: float) -> dict[str, Any]:
        """A fold-up standee as a figure: its two faces, between its fold lines."""
        piece = placed.piece
        ys = sorted({a[1] for a, _ in piece.outline.folds})
        w = piece.trim[0]
        front = self.images.face(piece, (0.0, ys[0], w, ys[1] - ys[0]))
        back = self.images.face(piece, (0.0, ys[1], w, ys[2] - ys[1])).rotate(180)
        front_name = self.images.add(f"{piece.file}-front.png", front)
        back_name = self.images.add(f"{piece.file}-back.png", back)
        scale = min(w, ys[1] - ys[0]) / MM_PER_UNIT / FIGURE_SHORT_UNITS
        return _object(
            "Figurine_Custom",
            guid,
            _transform(x, z, STACK_Y, IMAGE_TURN, scale=(scale, scale, scale)),
            piece.name,
            f"{piece.id}: {placed.where}",
            piece.id,
            CustomImage={
                "ImageURL": self.url(f"images/{front_name}"),
                "ImageSecondaryURL": self.url(f"images/{back_name}"),
                "ImageScalar": 1.0,
                "WidthScale": 0.0,
            },
        )

    def block(self, placed: Placed, guid: str, x: float, z: float) -> dict[str, Any]:
        piece = placed.piece
        image = self.images.add(f"{piece.file}.png", self.images.drawing(piece))
        model = f"{piece.file}.obj"
        self.models[model] = block_obj(piece).encode()
        return _object(
            "Custom_Model",
            guid,
            _transform(x, z, PIECE_Y, IMAGE_TURN),
            piece.name,
            f"{piece.id}: {placed.where}",
            piece.id,
            CustomMesh={
                "MeshURL": self.url(f"models/{model}"),
                "DiffuseURL": self.url(f"images/{image}"),
                "NormalURL": "",
                "ColliderURL": "",
                "Convex": False,
                "MaterialIndex": 3,
                "TypeIndex": 0,
                "CastShadows": True,
            },
        )

    def deck(self, deck: Deck, number: int) -> dict[str, Any]:
        """A DeckCustom of the deck's cards, top first, face down; its faces on sheets of at
        most 10 x 7, the hidden face (the back) in each sheet's last slot."""
        designs = list(dict.fromkeys(deck.cards))
        per_sheet = SHEET_MAX[0] * SHEET_MAX[1] - 1
        custom: dict[str, Any] = {}
        card_id: dict[str, int] = {}
        back_image = self.images.face(deck.back) if deck.back is not None else _plain("#808080", (200, 300))
        back_name = self.images.add(f"deck{number}-back.png", back_image)
        for sheet_no, start in enumerate(range(0, len(designs), per_sheet)):
            chunk = designs[start : start + per_sheet]
            deck_key = number * 10 + sheet_no + 1
            cols = min(SHEET_MAX[0], len(chunk) + 1)
            rows = math.ceil((len(chunk) + 1) / cols)
            faces = [self.images.face(card) for card in chunk]
            cell = faces[0].size
            from PIL import Image

            sheet = Image.new("RGB", (cell[0] * cols, cell[1] * rows), "white")
            for k, face in enumerate([*faces, *([None] * (cols * rows - len(faces) - 1)), back_image.resize(cell)]):
                if face is not None:
                    sheet.paste(face.resize(cell), ((k % cols) * cell[0], (k // cols) * cell[1]))
            name = self.images.add(f"deck{number}-sheet{sheet_no + 1}.png", sheet)
            custom[str(deck_key)] = {
                "FaceURL": self.url(f"images/{name}"),
                "BackURL": self.url(f"images/{back_name}"),
                "NumWidth": cols,
                "NumHeight": rows,
                "BackIsHidden": True,
                "UniqueBack": False,
                "Type": 0,
            }
            for k, card in enumerate(chunk):
                card_id[card.id] = deck_key * 100 + k
        first = deck.cards[0]
        w, h = first.trim
        scale = (w / MM_PER_UNIT / CARD_UNITS[0], 1.0, h / MM_PER_UNIT / CARD_UNITS[1])
        x, z = self.world(deck.at)
        cards = []
        for n, card in enumerate(deck.cards):
            key = str(card_id[card.id] // 100)
            cards.append(
                _object(
                    "Card",
                    _guid("card", number, n),
                    _transform(x, z, STACK_Y, IMAGE_TURN, flip=True, scale=scale),
                    card.name,
                    card.id,
                    card.id,
                    CardID=card_id[card.id],
                    SidewaysCard=False,
                    Hands=True,
                    CustomDeck={key: custom[key]},
                )
            )
        return _object(
            "DeckCustom",
            _guid("deck", number),
            _transform(x, z, STACK_Y, IMAGE_TURN, flip=True, scale=scale),
            f"{first.kind} deck",
            "shuffled as the seed deals: the top card first",
            SidewaysCard=False,
            Hands=False,
            DeckIDs=[card_id[c.id] for c in deck.cards],
            CustomDeck=custom,
            ContainedObjects=cards,
        )

    def save(self, note: str) -> dict[str, Any]:
        objects = [self.board(note)]
        objects += [self.piece(placed, n) for n, placed in enumerate(self.table.pieces)]
        objects += [self.deck(deck, n) for n, deck in enumerate(self.table.decks, start=1)]
        plan = self.build.plan
        return {
            "SaveName": f"{plan.layout.title[plan.options.lang]} (boardgen, seed {plan.seed})",
            "GameMode": "",
            "Date": "",
            "VersionNumber": "",
            "Gravity": 0.5,
            "PlayArea": 0.5,
            "Table": "",
            "Sky": "",
            "Note": note,
            "Rules": "",
            "XmlUI": "",
            "LuaScript": "",
            "LuaScriptState": "",
            "TabStates": {},
            "ObjectStates": objects,
        }


def block_obj(piece: PieceDesign, height_mm: float = BLOCK_MM, *, unit_mm: float = MM_PER_UNIT) -> str:
    """A walls block as an OBJ mesh: its outline (drawing mm) extruded `height_mm`, in units of
    `unit_mm` (TTS's by default), centred on the outline's box, x along the drawing's x and z
    along its y (an OBJ is read mirrored in x and the model is turned half round like the
    images: it lies as drawn).
    The top face takes the block's drawing as its texture."""
    points = list(piece.outline.points)
    if _area(points) < 0:
        points.reverse()  # counter-clockwise in (x, z): normals out below
    left, top, w, h = _trim_box(piece)
    cx, cz = left + w / 2, top + h / 2
    k = 1 / unit_mm
    n = len(points)
    lines = [f"# {piece.id}: {piece.name}, extruded {height_mm:g} mm (boardgen)", "o block"]
    for y in (height_mm * k, 0.0):
        lines += [f"v {(x - cx) * k:.6f} {y:.6f} {(z - cz) * k:.6f}" for x, z in points]
    lines += [f"vt {x / piece.size[0]:.6f} {1 - z / piece.size[1]:.6f}" for x, z in points]
    faces: list[tuple[int, int, int]] = []
    for a, b, c in _triangulate(points):
        faces.append((a, c, b))  # top (y up): clockwise in (x, z) seen from above is outward here
        faces.append((n + a, n + b, n + c))
    for i in range(n):
        j = (i + 1) % n
        faces += [(i, j, n + j), (i, n + j, n + i)]
    lines += ["f " + " ".join(f"{v + 1}/{v % n + 1}" for v in face) for face in faces]
    return "\n".join(lines) + "\n"


def _area(points: list[tuple[float, float]]) -> float:
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True)) / 2


def _triangulate(points: list[tuple[float, float]]) -> list[tuple[int, int, int]]:
    """Ear clipping of a simple counter-clockwise polygon (a polyomino's outline)."""

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    left = list(range(len(points)))
    out = []
    while len(left) > 3:
        for k in range(len(left)):
            a, b, c = left[k - 1], left[k], left[(k + 1) % len(left)]
            pa, pb, pc = points[a], points[b], points[c]
            if cross(pa, pb, pc) <= 1e-9:
                continue  # reflex or straight: no ear here
            if any(
                cross(pa, pb, points[m]) >= -1e-9
                and cross(pb, pc, points[m]) >= -1e-9
                and cross(pc, pa, points[m]) >= -1e-9
                and points[m] not in (pa, pb, pc)
                for m in left
                if m not in (a, b, c)
            ):
                continue
            out.append((a, b, c))
            left.pop(k)
            break
        else:
            raise ValueError("the outline is not a simple polygon")
    out.append((left[0], left[1], left[2]))
    return out


def note_text(build: Any) -> str:
    """The save's note: the game, the seed and the verdict in words."""
    plan = build.plan
    verdict = build.summary or ("not checked for playability (--no-check)" if build.report is None else "")
    return (
        f"{plan.layout.title[plan.options.lang]} ({plan.name}), seed {plan.seed}, made by boardgen.\nVerdict: {verdict}"
    )


def export_table(
    game: str,
    out_root: Path,
    options: Any,
    target: str = "tts",
    *,
    base_url: str | None = None,
    board_scale: float = 1.0,
) -> TableExport:
    """Write the `target` folder (tts or ttpg) of `game`'s kit (see the module docstring)."""
    from boardgen.kit import build_kit, plan_kit
    from boardgen.kits.output import check_output, interruptible, write_kit

    if target not in TARGETS:
        raise UsageError(f"unknown virtual table {target!r}; tables: {', '.join(TARGETS)}")
    root = check_base_url(base_url)
    if not (board_scale > 0 and math.isfinite(board_scale)):
        raise UsageError(f"--tts-scale: {board_scale!r} is not a positive number")
    options = replace(options, previews=False, svg=False)
    plan = plan_kit(game, options)
    folder = out_root / plan.name
    check_output(folder, [f"{target}/"])
    build = build_kit(game, options)  # refused here (exit 4) when the layout fails its check, unless --force
    url_root = root if root is not None else (folder.resolve() / target).as_uri() + "/"
    writer = _Writer(build, target, url_root, board_scale)
    note = note_text(build)
    stem = plan.name
    with interruptible() as interrupted:
        save = writer.save(note)
        files: dict[str, bytes] = {f"{target}/images/{name}": data for name, data in writer.images.files.items()}
        files.update({f"{target}/models/{name}": data for name, data in writer.models.items()})
        files[f"{target}/{stem}.json"] = (json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode()
        thumb = writer.images.face(writer.table.board).copy()
        thumb.thumbnail((256, 256))
        files[f"{target}/{stem}.png"] = _png(thumb)
        if target == "ttpg":
            files[f"{target}/README.txt"] = TTPG_README.encode()
        written = write_kit(folder, files, owned=(target,), before_swap=interrupted)
    return TableExport(folder / target, written, {path: len(data) for path, data in files.items()}, note, build)


TTPG_README = """\
Tabletop Playground: this folder is a Tabletop Simulator saved object (the .json, its images/
and models/), the form Tabletop Playground's TTS importer reads. Tabletop Playground's own
package format (object templates with packed textures) is not publicly documented well enough
to be written from outside the editor, so boardgen does not write it.

To load: in Tabletop Playground open the Package Manager, choose the TTS import and give it the
.json file; the importer copies the images it names into a new package.
"""
