"""The playability report: static checks on deals, negative fixtures, report formats."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from boardgen.checks.harness import Report, check, simulate
from boardgen.checks.sliding import DEFAULTS, solve_pairs, static_checks
from boardgen.data.loader import load
from boardgen.engines import get_engine
from boardgen.errors import DataError
from boardgen.model.sliding import Deal, build, deal
from boardgen.model.tiles import Tile, mask_of

FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"
ENGINE = get_engine("sliding")


def check_sliding(layout, seed: int, **options) -> Report:
    return check(ENGINE, layout, seed, **options)


def simulate_sliding(layout, **options):
    return simulate(ENGINE, layout, **options)


def fixture(name: str):
    return build(load("game", str(FIXTURES / f"{name}.toml")))


@pytest.fixture(scope="module")
def classic():
    return build(load("game", "classic"))


@pytest.fixture(scope="module")
def printed(classic) -> Deal:
    return deal(classic, 1)


def put(the_deal: Deal, row: int, col: int, tile: Tile) -> Deal:
    grid = [list(line) for line in the_deal.grid]
    grid[row][col] = tile
    return replace(the_deal, grid=tuple(tuple(line) for line in grid))


def find(the_deal: Deal, test) -> tuple[int, int, Tile]:
    return next((r, c, t) for r, line in enumerate(the_deal.grid) for c, t in enumerate(line) if test(t))


def problems(the_deal: Deal) -> list[str]:
    return [p for check in static_checks(the_deal) for p in check.problems]


# -- static checks on deals ------------------------------------------------------------


def test_the_printed_classic_deal_passes_every_static_check(printed):
    checks = static_checks(printed)
    assert [c.name for c in checks] == [
        "tile inventory",
        "treasures",
        "fixed tiles",
        "starts",
        "cards",
        "insertion points",
    ]
    assert all(c.ok for c in checks)


def test_a_tile_dealt_twice_breaks_the_inventory_and_the_treasures(printed):
    row, col, straight = find(printed, lambda t: t.shape == "straight")
    r, c, owl = find(printed, lambda t: t.treasure == "owl")
    found = problems(put(printed, row, col, owl))
    assert "tile inventory: 11 straight tiles on the board and spare, the layout declares 12" in found
    assert "tile inventory: 21 corner tiles on the board and spare, the layout declares 20" in found
    assert f"tile inventory: tile {owl.id!r} is dealt 2 times" in found
    places = sorted([f"[{row}, {col}]", f"[{r}, {c}]"])
    assert f"treasure 'owl' is on 2 tiles: {', '.join(places)}" in found


def test_a_treasure_missing_from_the_deal_is_reported_twice_over(printed):
    row, col, owl = find(printed, lambda t: t.treasure == "owl")
    found = problems(put(printed, row, col, replace(owl, treasure=None)))
    assert found == ["treasure 'owl' is on no tile", "card 'owl' has no treasure on the board or the spare"]


def test_an_undeclared_treasure_is_reported(printed):
    row, col, owl = find(printed, lambda t: t.treasure == "owl")
    found = problems(put(printed, row, col, replace(owl, treasure="unicorn")))
    assert f"treasure 'unicorn' on [{row}, {col}] is not declared in the layout's treasures" in found


def test_a_fixed_tile_turned_or_displaced_is_reported(printed, classic):
    book = classic.fixed[(0, 2)]
    turned = problems(put(printed, 0, 2, book.with_mask(mask_of("NES"))))
    assert turned == ["fixed tile at [0, 2] is open 'NES', the layout declares 'ESW'"]
    row, col, loose = find(printed, lambda t: t.shape == "tee" and not t.fixed)
    swapped = put(put(printed, 0, 2, loose), row, col, book)
    found = problems(swapped)
    assert f"square [0, 2] must hold its fixed tee 'ESW', found tile {loose.id!r}" in found


def test_a_tile_turned_into_another_shape_is_reported(printed):
    row, col, straight = find(printed, lambda t: t.shape == "straight")
    found = problems(put(printed, row, col, straight.with_mask(mask_of("NE"))))
    assert found == [f"tile {straight.id!r} (straight) is open 'NE', not a rotation of 'NS'"]


def test_a_start_moved_off_its_tile_is_reported(printed, classic):
    red = classic.fixed[(0, 0)]
    found = problems(put(printed, 0, 0, replace(red, start=None)))
    assert found == ["start 'red' at [0, 0] is on tile 'fixed-0-0', not on its start tile"]


# -- negative fixtures ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, message",
    [
        ("missing_treasure", "treasures[23].id: treasure 'moth' is on no tile"),
        ("duplicate_treasure", "tiles.loose[1].treasures[6]: treasure 'owl' is already on a loose corner tile"),
        ("wrong_inventory", "tiles.loose: expected 34 loose tiles (33 free squares + 1 spare), got 33"),
        ("deal_too_big", "deal.2: 2 players x 13 cards needs 26 cards, the deck has 24"),
    ],
)
def test_layouts_the_loader_refuses(name, message):
    with pytest.raises(DataError) as caught:
        fixture(name)
    assert any(str(p).endswith(message) for p in caught.value.problems), caught.value.format()


@pytest.mark.parametrize(
    "name, reasons",
    [
        ("start_off_corner", ["start 'red' at [2, 2] is not on a corner of the 5x5 board"]),
        ("start_facing_out", ["start 'red' at [0, 0] is open 'NW': no side opens onto the board"]),
        (
            "unreachable_treasure",
            [
                "treasure 'idol' can never be reached from the red start [0, 0]: every board the "
                "pushes can make was searched",
                "treasure 'idol' can never be reached from the blue start [4, 4]: every board the "
                "pushes can make was searched",
            ],
        ),
    ],
)
def test_layouts_the_check_refuses(name, reasons):
    report = check_sliding(fixture(name), 1)
    assert not report.playable
    assert report.reasons == reasons
    payload = json.loads(report.to_json())
    assert payload["playable"] is False and payload["reasons"] == reasons


def test_self_play_that_cannot_finish_is_refused():
    report = check_sliding(fixture("turn_cap_too_low"), 1)
    assert report.reasons == [
        f"self-play, {k} players: 0.0% of 3 games finished within 3 turns (minimum 95%)" for k in (2, 3, 4)
    ]
    assert report.summary_line() == (
        "FAILED (seed 1): self-play, 2 players: 0.0% of 3 games finished within 3 turns (minimum 95%) (and 2 more)"
    )


@pytest.mark.parametrize("name", ["five", "nine"])
def test_other_board_sizes_work_from_data_alone(name):
    layout = fixture(name)
    report = check_sliding(layout, 2, games=6)
    assert report.playable, report.to_text()
    assert report.stats["turns_to_target"]
    assert set(report.stats["self_play"]) == {"2", "3", "4"}


# -- the report -------------------------------------------------------------------------


def test_the_classic_report_in_every_format(classic):
    calls = []
    report = check_sliding(classic, 1, games=4, progress=lambda done, total, label: calls.append((done, total, label)))
    assert report.playable and report.reasons == []
    total = 4 * 24 + 3 * 4
    assert calls[-1] == (total, total, "self-play, 4 players")
    assert [done for done, _, _ in calls] == list(range(1, total + 1))
    assert {label for _, _, label in calls} == {
        "solver",
        "self-play, 2 players",
        "self-play, 3 players",
        "self-play, 4 players",
    }
    data = report.to_dict()
    assert list(data)[:4] == ["game", "seed", "playable", "reasons"]
    assert sum(data["stats"]["turns_to_target"].values()) == 96
    assert json.loads(report.to_json()) == data
    text = report.to_text()
    assert text.startswith("classic (seed 1): PLAYABLE")
    assert "reachability: 96 start/treasure pairs" in text
    line = report.summary_line()
    assert line.startswith("passed (seed 1): every treasure within ")
    assert line.endswith("; 12 of 12 self-played games (2-4 players) finished")
    assert "\n" not in line


def test_thresholds_come_from_the_layout_then_the_caller(classic):
    limits = ENGINE.thresholds(classic, games_per_player_count=7, turn_cap=None)
    assert limits["games_per_player_count"] == 7
    assert limits["turn_cap"] == classic.playability["turn_cap"]
    assert set(DEFAULTS) <= set(limits)


def test_solve_pairs_is_reproducible_and_prints_a_table(classic):
    one = solve_pairs(classic, 1, pairs=30, rng_seed=5)
    two = solve_pairs(classic, 1, pairs=30, rng_seed=5)
    assert one.to_dict() == two.to_dict()
    data = one.to_dict()
    assert data["pairs"] == 30 and sum(data["turns_to_target"].values()) == 30
    assert data["unresolved"] == []
    assert "turns   pairs   share" in one.to_text()


def test_simulate_sliding_reports_turn_branching(classic):
    stats = simulate_sliding(classic, games=3, players=2, seed=4)
    data = stats.to_dict()
    assert data["games"] == 3 and data["seats"] == 2 and data["finished"] == 3
    assert data["extra"]["turn_branching"] > data["branching_mean"]
    with pytest.raises(ValueError, match="no deal for 5 players"):
        simulate_sliding(classic, games=1, players=5, seed=1)
