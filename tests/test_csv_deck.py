"""A deck from a CSV file beside the layout (one row per card, a column per language) is the
same deck as in TOML, checked the same way, its problems at the CSV's lines."""

from __future__ import annotations

import csv
import re
import tomllib
from pathlib import Path

import pytest

from boardgen.data.languages import LANGUAGE_CODE
from boardgen.data.loader import layouts_root, load
from boardgen.engines import load_game
from boardgen.errors import DataError

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")


def as_csv(game: str, key: str, folder: Path, columns: list[str]) -> tuple[Path, Path]:
    """The bundled layout with its `key` array moved into key.csv (columns: dotted keys, a bare
    language code for the name); returns the layout and the CSV."""
    source = (layouts_root() / "games" / f"{game}.toml").read_text(encoding="utf-8")
    cards = tomllib.loads(source)[key]
    table = folder / f"{key}.csv"
    with table.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for card in cards:
            row = []
            for column in columns:
                value = card
                for part in ["name", column] if LANGUAGE_CODE.match(column) else column.split("."):
                    value = value.get(part, "") if isinstance(value, dict) else ""
                row.append(value)
            writer.writerow(row)
    text = re.sub(rf"\[\[{key}\]\]\n(?:(?!\n\[).)*?\n(?=\n|\[)", "", source, flags=re.S)
    assert f"[[{key}]]" not in text
    layout = folder / f"{game}-csv.toml"
    layout.write_text(f'{key} = "{key}.csv"\n' + text, encoding="utf-8")
    return layout, table


def test_treasures_from_csv_equal_the_same_deck_in_toml(tmp_path):
    layout, table = as_csv("classic", "treasures", tmp_path, ["id", "en", "fr", "de", "art"])
    assert table.read_text(encoding="utf-8").splitlines()[1] == "book,Book,Grimoire,Zauberbuch,"
    assert load("game", str(layout)).data == load("game", "classic").data
    _, from_csv = load_game(str(layout))
    _, from_toml = load_game("classic")
    assert from_csv.treasures == from_toml.treasures and from_csv.loose == from_toml.loose


def test_objects_with_numbers_from_csv_equal_master(tmp_path):
    layout, _ = as_csv("master", "objects", tmp_path, ["id", "value", "en", "fr", "de", "art"])
    assert load("game", str(layout)).data == load("game", "master").data


def test_event_cards_with_tables_from_csv_equal_grand(tmp_path):
    columns = [
        "id",
        "sequence",
        "count",
        "title.en",
        "title.fr",
        "title.de",
        "text.en",
        "text.fr",
        "text.de",
        "effect.kind",
        "effect.steps",
        "effect.turns",
        "effect.field",
    ]
    layout, _ = as_csv("grand", "deck", tmp_path, columns)
    assert load("game", str(layout)).data == load("game", "grand").data


def test_a_bad_card_is_reported_at_its_csv_line(tmp_path):
    layout, table = as_csv("classic", "treasures", tmp_path, ["id", "en", "fr", "de"])
    lines = table.read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4].replace("crown", "Crown", 1)  # the fourth card, on line 5
    lines.insert(6, "")  # a blank line is skipped, and the lines after it keep their numbers
    lines[8] = "skull," + lines[8].split(",", 1)[1].replace("Skull", "", 1)  # no English name: fine in TOML too
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load("game", str(layout))
    problems = [str(p) for p in caught.value.problems]
    assert problems == [
        f"{table}:5: treasures[3].id: 'Crown' does not match the expected form lower-case "
        "letters, digits and '-', e.g. 'my-game'"
    ]


@pytest.mark.parametrize(
    "header, said",
    [
        ("id,en,en", "column 'en' appears twice"),
        ("id,Name", "column 2 'Name': a column is a key such as id, art, en, title.fr (at most four parts)"),
        ("id,a.b.c.d.e", "column 2 'a.b.c.d.e': a column is a key such as id, art, en, title.fr (at most four parts)"),
        (",".join(f"c{n}" for n in range(65)), "65 columns; a deck has at most 64"),
    ],
)
def test_a_bad_header_is_reported_on_line_1(tmp_path, header, said):
    layout, table = as_csv("classic", "treasures", tmp_path, ["id", "en"])
    rows = table.read_text(encoding="utf-8").splitlines()
    table.write_text("\n".join([header] + rows[1:]) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load("game", str(layout))
    assert str(caught.value.problems[0]) == f"{table}:1: {said}"


def test_a_csv_out_of_the_folder_or_missing_is_named(tmp_path):
    layout, _ = as_csv("classic", "treasures", tmp_path, ["id", "en", "fr"])
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text.replace('"treasures.csv"', '"../treasures.csv"', 1), encoding="utf-8")
    with pytest.raises(DataError, match=r":1: treasures: '\.\./treasures\.csv' leads outside this file's folder"):
        load("game", str(layout))
    layout.write_text(text.replace('"treasures.csv"', '"cards.csv"', 1), encoding="utf-8")
    with pytest.raises(DataError, match=r":1: treasures: 'cards\.csv': no such CSV file beside the layout"):
        load("game", str(layout))


def test_a_language_missing_from_a_csv_deck_is_one_missing_column(tmp_path):
    from boardgen.data.languages import LanguageError
    from boardgen.kit import render_kit
    from boardgen.options import KitOptions

    layout, table = as_csv("classic", "treasures", tmp_path, ["id", "en", "art"])
    with pytest.raises(LanguageError) as caught:
        render_kit(str(layout), tmp_path / "out", KitOptions(lang="fr", previews=False, check=False))
    assert [str(p) for p in caught.value.problems] == [
        f"{table}:1: treasures: no 'fr' text in 24 cards (lines 2-25): fill a column 'fr'"
    ]


def test_a_missing_picture_names_the_csv_file_line_column_and_the_closest_picture(tmp_path):
    from boardgen.data.theme import load_theme
    from boardgen.render.art import require_pictures

    layout, table = as_csv("classic", "treasures", tmp_path, ["id", "en", "fr", "de", "art"])
    lines = table.read_text(encoding="utf-8").splitlines()
    lines[1] += "crwn"  # the first card, on line 2, a typo for 'crown'
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _, game = load_game(str(layout))
    with pytest.raises(DataError) as caught:
        require_pictures(load_theme("classic"), game)
    assert [str(p) for p in caught.value.problems] == [
        f"{table}:2: treasures[0].art: no picture 'crwn' (line 2, column 'art'); the closest picture is 'crown'; "
        "or give the theme a file for it in [art] (layouts/themes/classic.toml)"
    ]


def test_an_unclosed_quote_says_where_it_opened(tmp_path):
    layout, table = as_csv("classic", "treasures", tmp_path, ["id", "en", "fr", "de"])
    lines = table.read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5].replace(",", ',"', 2).replace(',"', ",", 1)  # line 6: the French name opens a quote
    assert lines[5].count('"') == 1
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load("game", str(layout))
    said = [str(p) for p in caught.value.problems]
    assert (
        f"{table}:6: a quote opens on line 6 (column 3 'fr') and never closes, so every line after it would be "
        'one cell: close it, and write a quote inside a cell as two ("")' in said
    )
    # A quoted cell with a quote doubled inside it, even across lines, is fine.
    lines[5] = lines[5].replace(',"', ',"Trousseau ""doré""\n', 1) + '"'
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    from boardgen.data.decks import unclosed_quote

    assert unclosed_quote(table.read_text(encoding="utf-8")) is None
