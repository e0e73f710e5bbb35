"""What each print service takes, as published by the service: card sizes it prints (trim, in
millimetres), the bleed around each face, the resolution, the safe zone, how faces are supplied
(one PNG a face, or one PDF a deck) and the total ink limit of its CMYK files.

Sizes are those of boardgen's card sizes (`model.sliding.CARD_SIZES`) that the service offers;
a layout whose cards are another size is refused with the sizes the service does print.
"""

from __future__ import annotations

from dataclasses import dataclass

INCH = 25.4


@dataclass(frozen=True)
class Service:
    key: str
    name: str
    # boardgen card size name -> the service's own name for it and the face's size in pixels
    # (trim and bleed at the service's resolution, as the service publishes it)
    sizes: dict[str, tuple[str, tuple[int, int]]]
    bleed_mm: float
    dpi: int
    safe_mm: float  # text and art that matter stay this far inside the trim
    faces: str  # "png": one image a face; "pdf": one PDF a deck; "press": PDF/X sheets of every piece
    ink_limit: int | None = None  # total ink, percent, at any point (CMYK files)
    url_hint: str = ""

    def pixels(self, size: str | None, trim: tuple[float, float]) -> tuple[int, int]:
        """A face's size in pixels: the service's published size for a card size it prints,
        else trim plus bleed on every side at its resolution."""
        if size in self.sizes:
            return self.sizes[size][1]
        w, h = ((side + 2 * self.bleed_mm) / INCH * self.dpi for side in trim)
        return round(w), round(h)


SERVICES: dict[str, Service] = {
    # 1/8 in bleed at 300 dpi: poker 2.75 x 3.75 in = 825 x 1125 px; safe zone 1/4 in (75 px) from the edge.
    "tgc": Service("tgc", "The Game Crafter",
                   {"poker": ("Poker (2.5 x 3.5 in)", (825, 1125)), "bridge": ("Bridge (2.25 x 3.5 in)", (750, 1125)),
                    "mini-us": ("Mini (1.75 x 2.5 in)", (600, 825)), "tarot": ("Tarot (2.75 x 4.75 in)", (900, 1500))},
                   bleed_mm=INCH / 8, dpi=300, safe_mm=INCH / 8, faces="png"),
    # 3 mm bleed at 300 dpi: a 63 x 88 mm card is supplied as 69 x 94 mm (815 x 1110 px).
    "mpc": Service("mpc", "MakePlayingCards",
                   {"standard": ("Standard poker (63 x 88 mm)", (815, 1110)),
                    "bridge": ("Bridge (57 x 89 mm)", (744, 1122)),
                    "mini-us": ("Mini (44 x 63 mm)", (591, 815)), "tarot": ("Tarot (70 x 120 mm)", (898, 1488))},
                   bleed_mm=3.0, dpi=300, safe_mm=3.0, faces="png"),
    # One PDF per deck, back of card 1 then its front, and so on; 1/8 in bleed; PDF/X-1a:2003, CMYK,
    # total ink at most 240 %.
    "drivethru": Service("drivethru", "DriveThruCards",
                         {"poker": ("Poker (2.5 x 3.5 in)", (825, 1125)),
                          "bridge": ("Bridge (2.25 x 3.5 in)", (750, 1125)),
                          "mini-us": ("Mini (1.75 x 2.5 in)", (600, 825)),
                          "tarot": ("Tarot (2.75 x 4.75 in)", (900, 1500))},
                         bleed_mm=INCH / 8, dpi=300, safe_mm=INCH / 8, faces="pdf", ink_limit=240),
    # A factory (LongPack and the like): PDF/X, CMYK, 3 mm bleed, the die line in a spot colour.
    "press": Service("press", "a print factory (PDF/X press files)", {}, bleed_mm=3.0, dpi=300, safe_mm=3.0,
                     faces="press", ink_limit=300),
}
