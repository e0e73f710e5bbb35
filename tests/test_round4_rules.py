"""Issue 40, rules sheets as a player reads them: Grand's numbers come from its layout, the
seat compensation's left-over card is said (and not counted as found), "nearest the lair" is
something players can count, and the README's tune example only names keys that can change.
Read from the printed PDF (pdfplumber), the engine's game records and the README's TOML."""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path

import pdfplumber

from boardgen.data.paths import layouts_root
from boardgen.engines import get_engine, load_game
from boardgen.kit import build_kit
from boardgen.options import KitOptions
from boardgen.rules.players import GreedyPlayer
from boardgen.rules.simulate import play

ROOT = Path(__file__).resolve().parents[1]


def _rules_text(game: str, lang: str = "en") -> str:
    kit = build_kit(game, KitOptions(only=("rules",), lang=lang, check=False, previews=False))
    parts = []
    with pdfplumber.open(io.BytesIO(kit.pdf.data)) as pdf:
        for page in pdf.pages:  # the rules are set in two columns: each read down on its own
            for x0, x1 in ((0, page.width / 2), (page.width / 2, page.width)):
                parts.append(page.crop((x0, 0, x1, page.height)).extract_text() or "")
    # Words broken at a line's end by a hyphen are joined again.
    return re.sub(r"-\n(?=[a-zà-ÿ])", "", "\n".join(parts)).replace("\n", " ")


def _layout_copy(tmp_path: Path, game: str, change: tuple[str, str]) -> str:
    text = (layouts_root() / "games" / f"{game}.toml").read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / f"{game}-mine.toml"
    path.write_text(
        text.replace(change[0], change[1], 1).replace(f'id = "{game}"', f'id = "{game}-mine"', 1), encoding="utf-8"
    )
    return str(path)


def test_grand_prints_its_pun_chance_and_fields_from_the_layout(tmp_path: Path) -> None:
    layout = _layout_copy(tmp_path, "grand", ("pun_success = 0.5", "pun_success = 0.3"))
    for lang, said, old in (
        ("en", "a pun is found 30 % of the time", "half the time"),
        ("fr", "trouvé 30 % du temps", "une fois sur deux"),
        ("de", "in 30 % der Fälle gelingt", "jedes zweite Mal"),
    ):
        text = re.sub(r"\s+", " ", _rules_text(layout, lang))
        assert said in text and old not in text, lang  # was "half the time" whatever the layout said
    text = re.sub(r"\s+", " ", _rules_text("grand"))
    _, model = load_game("grand")
    assert f"Cut out the {len(model.cards)} event cards" in text
    opens = sorted(model.card_fields)
    assert "Open fields " + ", ".join(map(str, opens[:-1])) + f" and {opens[-1]} (a card)" in text
    assert f"The Minotaur’s lair {model.goal}:" in text


def test_the_compensations_left_over_card_is_said_and_not_counted_as_found(tmp_path: Path) -> None:
    layout = _layout_copy(tmp_path, "classic", ("[tune]", "[compensation]\nfirst_seat_fewer_cards = 1\n\n[tune]"))
    text = re.sub(r"\s+", " ", _rules_text(layout))
    assert "the first player is dealt one card fewer: the card left over goes back in the box unseen" in text
    engine, model = load_game(layout)
    game = engine.game(model)
    dealt = model.deal[2]
    for seed in range(3):
        record = play(game, [GreedyPlayer(), GreedyPlayer()], seed, turn_cap=400)
        assert record.scores is not None and record.scores[0] <= dealt - 1, record.scores  # was dealt: 1 too many
        if record.winner == 0:
            assert record.scores[0] == dealt - 1


def test_nearest_the_lair_is_counted_in_fields_on_the_sheet() -> None:
    for lang, measure in (
        ("en", "fewer fields still to walk to it, counted the shortest way"),
        ("fr", "moins de cases à parcourir"),
        ("de", "weniger Felder bis dorthin"),
    ):
        text = re.sub(r"\s+", " ", _rules_text("grand", lang))
        assert measure in text, lang
        assert "fewer turns to go" not in text
    assert int(get_engine("grand").version) >= 6  # the version that changed the measure, or a later one


def test_the_readme_tune_example_names_only_keys_a_layout_can_change() -> None:
    """The tune example (the README's tune section, now docs/tuning.md)."""
    readme = (ROOT / "docs" / "tuning.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```toml\n(.*?)```", readme, re.S) if b.startswith("[tune]"))
    keys = tomllib.loads(block)["tune"]
    layouts = {
        name: tomllib.loads((layouts_root() / "games" / f"{name}.toml").read_text(encoding="utf-8"))
        for name in ("classic", "grand")
    }
    for key in keys:
        if key == "seed":
            continue
        assert not key.startswith("deck."), key  # a deck must keep its 32 cards: such a trial never passes
        head = key.split(".")[0]
        assert head in ("deal", "compensation") or any(head in data for data in layouts.values()), key
