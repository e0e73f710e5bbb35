"""Le Grand Labyrinthe's four sequences are told apart by more than their tints: pink (Art) and
mint (Science) are alike with deuteranopia, so each field carries its sequence's symbol."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

from boardgen.checks.accessibility import check_colours
from boardgen.data.theme import load_theme
from boardgen.engines import load_game
from boardgen.model.grand import PERIPHERAL, label
from boardgen.render.svg.grand import board_svg


def test_the_tints_alone_fail_deuteranopia_and_the_symbols_on_every_field_pass():
    engine, layout = load_game("grand")
    classic = load_theme("classic")
    # Today's board: the tints and nothing else on the fields (a theme drawing no symbols).
    plain = replace(classic, symbols={})
    bare = check_colours(plain, engine.colour_groups(layout, plain))
    assert any(
        re.match(r"colours: sequences Science and Philosophy and Art are 10\.\d apart in deuteranopia", f)
        for f in bare.findings
    ), bare.findings
    report = check_colours(classic, engine.colour_groups(layout, classic))
    assert report.findings == []
    assert report.summary_line("en").endswith("(each sequence's symbol on its fields, player symbols)")
    # The cue is on the board: every tinted field draws its sequence's symbol, one symbol a sequence.
    root = ET.fromstring(board_svg(layout, classic, lang="en"))
    ids = {element.get("id") for element in root.iter()}
    by_sequence: dict[int, set[str]] = {}
    for field in layout.cells:
        if field in layout.jumps and field < PERIPHERAL:  # the blue jump fields: blue, without a sequence tint
            continue
        found = [i for i in ids if i and i.startswith(f"field-{label(field)}-sequence-symbol-")]
        assert len(found) == 1, label(field)
        by_sequence.setdefault(layout.sequence_of(field), set()).add(found[0].rsplit("-", 1)[1])
    symbols = [next(iter(s)) for _, s in sorted(by_sequence.items())]
    assert all(len(s) == 1 for s in by_sequence.values()) and len(set(symbols)) == 4
    assert symbols == [classic.symbol(seq.colour) for seq in layout.sequences]
