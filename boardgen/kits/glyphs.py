"""Every character a kit will print against the theme's fonts, before anything is drawn: a
theme whose fonts lack several characters (or two of its fonts each lack some) is told all
of them at once, with the keys that use them, instead of the first as the drawing meets it.
"""

from __future__ import annotations

import re
from typing import Any

from boardgen.data import languages
from boardgen.errors import DataError, Problem, quote

# Which font draws what: the title on the cover and the board, the body the printed pages
# (the tagline, the rules), the labels every word on the pieces (names, card texts).
TITLE_KEYS = (("game", "title"),)
BODY_KEYS = (("game", "tagline"),)


def _printed(layout: Any, lang: str, rules: list[tuple[str, str]]) -> dict[str, list[tuple[str, str]]]:
    """(where, text) pairs by font role."""
    doc = layout.doc
    by_role: dict[str, list[tuple[str, str]]] = {"title": [], "body": [], "labels": []}
    for key, text in languages.texts(doc.data):
        if lang not in text:
            continue
        role = "title" if key in TITLE_KEYS else "body" if key in BODY_KEYS else "labels"
        path, dotted, line = doc.where(*key)
        by_role[role].append((f"{path}:{line}: {dotted}" if line else f"{path}: {dotted}", text[lang]))
    for _kind, paragraph in rules:
        where = f"the rules text ({paragraph.split(':', 1)[0]})"
        by_role["body"].append((where, re.sub(r"<[^>]+>", "", paragraph)))
    return by_role


def glyph_problems(theme: Any, layout: Any, lang: str, rules: list[tuple[str, str]]) -> list[Problem]:
    """One problem per font role of the theme that lacks characters the kit prints, naming
    them and where they are used; none when every character can be drawn."""
    from boardgen.data import fonts

    problems = []
    for role, used in _printed(layout, lang, rules).items():
        family = theme.fonts.get(role)
        if family is None or not used:
            continue
        if family not in fonts.families():
            continue  # the theme's own check reports the family
        missing: dict[str, list[str]] = {}
        for where, text in used:
            for char in fonts.missing_glyphs(text, family):
                places = missing.setdefault(char, [])
                said = where if where.startswith("the rules") else f"{where} ({quote(text, 40)})"
                if said not in places:
                    places.append(said)
        if not missing:
            continue
        chars = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in sorted(missing)[:12])
        more = f" and {len(missing) - 12} more" if len(missing) > 12 else ""
        wheres = list(dict.fromkeys(w for places in missing.values() for w in places))
        shown = "; ".join(wheres[:4]) + (f" and {len(wheres) - 4} more" if len(wheres) > 4 else "")
        path, dotted, line = theme.doc.where("fonts", role)
        problems.append(Problem(path, dotted, f"font {family!r} has no glyph for {chars}{more}, used in {shown}", line))
    return problems


def check_glyphs(theme: Any, layout: Any, lang: str) -> None:
    """DataError listing every font role that lacks characters the kit prints (the rules text
    as written: its placeholders are filled with digits and the layout's own words)."""
    from boardgen.kits.rules_text import read_rules, rules_file

    path = rules_file(layout.rules, lang, layout.doc.path)
    problems = glyph_problems(theme, layout, lang, [("p", path.name + ": " + read_rules(path))])
    if problems:
        raise DataError(problems)
