"""`render --only rules --large-print` (issue 34): the rules in 18 pt type, one column, read back
with pdfplumber, and the HTML edition beside the PDF parsed with the standard library's parser:
one title, a heading for each of the rules' headings, in the kit's language."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.engines import load_game
from boardgen.options import KitOptions, kit_file_name


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("large")
    result = CliRunner().invoke(
        cli, ["render", "classic", "--only", "rules", "--large-print", "--no-check", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out / "classic"


def test_the_rules_are_set_in_18_pt_in_one_column(large: Path) -> None:
    pdf_path = large / kit_file_name("classic", KitOptions(only=("rules",), large_print=True))
    with pdfplumber.open(pdf_path) as pdf:
        chars = [c for page in pdf.pages for c in page.chars]
        sizes = Counter(round(c["size"], 1) for c in chars)
        assert sizes.most_common(1)[0][0] == 18.0  # the body text
        assert sum(n for s, n in sizes.items() if s >= 18.0) > 0.9 * len(chars)  # all but the running heads
        width = pdf.pages[0].width
        for page in pdf.pages:
            lines = page.extract_text_lines()
            body = [line for line in lines if line["chars"][0]["size"] >= 18.0]
            assert body
            # One column: every line starts at the left margin (a bullet's runover a little in).
            assert all(line["x0"] < width / 4 for line in body)
            assert max(line["x1"] for line in body) > width * 0.6


class Outline(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.lang = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "html":
            self.lang = dict(attrs).get("lang") or ""


def test_an_html_edition_with_headings_is_written_beside_it(large: Path) -> None:
    page = (large / "classic-a4-large-print-only-rules-rules.html").read_text(encoding="utf-8")
    parsed = Outline()
    parsed.feed(page)
    engine, layout = load_game("classic")
    blocks = engine.kit().rules_text(layout, "en")
    assert parsed.lang == "en"
    assert parsed.tags.count("h1") == 1
    assert parsed.tags.count("h2") == sum(kind == "h" for kind, _ in blocks)
    assert parsed.tags.count("li") == sum(kind == "li" for kind, _ in blocks)
    assert layout.title["en"] in page


def test_large_print_is_a_variant_of_its_own() -> None:
    assert "large-print" in kit_file_name("classic", KitOptions(large_print=True))
    assert "large-print" not in kit_file_name("classic", KitOptions())
