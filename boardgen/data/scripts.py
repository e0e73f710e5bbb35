"""Which writing systems boardgen can put on paper as they are read.

Its fonts (DejaVu) draw Latin, Greek and Cyrillic letter by letter, left to right, which is how
those scripts are printed. Right-to-left scripts (Arabic, Hebrew, Syriac, Thaana, N'Ko) need
their words reordered (the Unicode bidirectional algorithm), and Arabic and the Brahmic scripts
(Devanagari, Bengali, Tamil...) need their letters joined and reordered by a shaping engine
(HarfBuzz); reportlab draws neither, so such text would print reversed or as broken letters.
It is refused before anything is drawn, naming the script and what is missing.
"""

from __future__ import annotations

import unicodedata

# Blocks whose letters a shaping engine must join, reorder or stack (first, last, name).
SHAPED_BLOCKS = (
    (
        0x0900,
        0x0DFF,
        "Brahmic (Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala)",
    ),
    (0x0E80, 0x0FFF, "Lao / Tibetan"),
    (0x1000, 0x109F, "Myanmar"),
    (0x1780, 0x18AF, "Khmer / Mongolian"),
    (0xA8E0, 0xA8FF, "Devanagari Extended"),
)


def script_name(char: str) -> str:
    """The script a character's Unicode name starts with ('ARABIC', 'HEBREW'), title-cased."""
    name = unicodedata.name(char, "")
    return name.split(" ")[0].title() if name else f"U+{ord(char):04X}"


def unprintable(text: str) -> str | None:
    """Why `text` cannot be printed as it is read, or None if it can."""
    for char in text:
        bidi = unicodedata.bidirectional(char)
        if bidi in ("R", "AL", "RLE", "RLO", "RLI"):
            script = script_name(char)
            joined = " and joining its letters (Arabic shaping)" if bidi == "AL" else ""
            return (
                f"{script} is written right to left: boardgen cannot yet reorder right-to-left text "
                f"(the Unicode bidirectional algorithm){joined}, so it would print reversed; "
                "only left-to-right scripts print (Latin, Greek, Cyrillic)"
            )
        code = ord(char)
        for first, last, name in SHAPED_BLOCKS:
            if first <= code <= last and unicodedata.category(char) != "Nd":
                return (
                    f"{script_name(char)} ({name}) needs a shaping engine to join and reorder its letters, "
                    "which boardgen does not have yet, so it would print broken; only Latin, Greek and "
                    "Cyrillic print"
                )
    return None
