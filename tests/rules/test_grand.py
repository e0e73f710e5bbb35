"""Le Grand Labyrinthe: the route graph, every special rule on hand-worked positions, the deck,
the static checks on broken layouts and a small self-play check; the game is the shared race
engine with Grand's deck and routes."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from boardgen.checks.harness import Report, check, play_lineups
from boardgen.data.loader import load
from boardgen.engines import get_engine
from boardgen.errors import DataError
from boardgen.model import race
from boardgen.model.grand import PERIPHERAL, GrandLayout, build, parse_label, static_problems
from boardgen.model.race import MOVE_ON
from boardgen.rules import grand as rules
from boardgen.rules.grand import GrandGame
from boardgen.rules.race import DIE, PASS, Move, RaceGame, RaceState

FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"
DROWNING, PRISON = 1, 3  # hold codes: 1 + the place of "passed" / "replaced" in race.STUCK_UNTIL
OUTSIDE = race.OUTSIDE


def check_grand(layout, seed: int, **options) -> Report:
    return check(get_engine("grand"), layout, seed, **options)


def f(name: str) -> int:
    """A field's index on the track ("12" is 12, peripheral "I" follows 83)."""
    number = parse_label(name)
    assert number is not None
    return number if number < PERIPHERAL else number - PERIPHERAL + 83


@pytest.fixture(scope="module")
def layout() -> GrandLayout:
    return build(load("game", "grand"))


@pytest.fixture(scope="module")
def game(layout: GrandLayout) -> GrandGame:
    return GrandGame(layout)


def at(
    *pos: int,
    dice: tuple[int, int] = (1, 1),
    turn: int = 0,
    stuck: tuple[int, ...] | None = None,
    deck: tuple[int, ...] = (),
) -> RaceState:
    """A hand-built position: seat ``turn % seats`` to play these dice."""
    n = len(pos)
    return RaceState(
        n,
        turn,
        pos,
        (0,) * n,
        dice,
        None,
        11,
        stuck=stuck or (0,) * n,
        route=(0,) * n,
        first_route=(-1,) * n,
        deck=deck,
    )


def card(game: GrandGame, card_id: str) -> int:
    return game.card_ids.index(card_id)


def by_sum(game: GrandGame, state: RaceState, end: int | None = None) -> Move:
    """The move by the sum of the dice (the way ending on `end` where the count branches)."""
    moves = [m for m in game.legal_moves(state) if m.kind == DIE and m.die == sum(state.dice)]
    for m in moves:
        if end is None or game.ends[state.pos[m.piece]][m.die][m.way] == end:
            return m
    raise AssertionError(f"no way to {end}")


def test_layout_counts_and_names(layout: GrandLayout) -> None:
    assert layout.goal == 83 and len(layout.central) == 83 and len(layout.peripheral) == 36
    assert len(layout.cards) == 32 and len(layout.deck) == 16
    assert [s.colour for s in layout.sequences] == ["blue", "green", "red", "yellow"]
    assert static_problems(layout) == []
    # Peripheral labyrinths sit in the corners, clockwise from the top left, each a 3x3 block
    # whose last field is its middle.
    last = layout.size - 1
    corners = [(0, 0), (0, last), (last, last), (last, 0)]
    for k, (row, col) in enumerate(corners):
        centre = layout.cells[PERIPHERAL + 9 * (k + 1)]
        assert abs(centre[0] - row) == 1 and abs(centre[1] - col) == 1


def test_ways_branch_at_three(game: GrandGame) -> None:
    assert sorted(game.walks[OUTSIDE][5]) == sorted([(1, 2, 3, 4, 5), (1, 2, 3, f("I"), f("II"))])
    # Landing on 3 does not choose yet; leaving it does.
    assert game.walks[OUTSIDE][3] == ((1, 2, 3),)
    assert set(game.ends[3][1]) == {4, f("I")}


def test_exact_count_bounces_back_the_way_it_came(game: GrandGame) -> None:
    # 80 + 5: in to 83 after 3 points, back 2.
    assert game.walks[80][5] == ((81, 82, 83, 82, 81),)
    # VII + 4: into IX after 2, back 2.
    assert game.ends[f("VII")][4] == (f("VII"),)


def test_the_exact_count_is_made_with_the_sum_of_the_dice(layout: GrandLayout, game: GrandGame) -> None:
    # The source: "le total des points obtenus aux dés". The bundled kit plays it so.
    assert not layout.exact_one_die
    # 3 + 2 from 80: the sum 5 bounces 2 back from 83 to 81; the 3 alone is not a move.
    s = at(80, 1, dice=(3, 2))
    assert game.legal_moves(s) == (Move(DIE, 5, 0),) and game.apply(s, Move(DIE, 5, 0)).pos[0] == 81


def test_one_die_may_reach_an_exact_field_in_the_variant(layout: GrandLayout) -> None:
    variant = GrandGame(dataclasses.replace(layout, exact_one_die=True))
    # 4 + 6 from 80: neither die nor the sum is exact; the sum bounces 7 back from 83.
    assert [variant.ends[80][m.die][m.way] for m in variant.legal_moves(at(80, 1, dice=(4, 6)))] == [76]
    # 3 + 2 from 80: the 3 alone enters the lair and wins.
    s = at(80, 1, dice=(3, 2))
    assert Move(DIE, 3, 0) in variant.legal_moves(s) and variant.apply(s, Move(DIE, 3, 0)).winner == 0


def test_the_sheet_offers_the_one_die_finish_as_a_variant_and_allows_teams() -> None:
    sheets = Path(__file__).parent.parent.parent / "layouts" / "rules"
    en = (sheets / "grand.en.md").read_text(encoding="utf-8")
    fr = (sheets / "grand.fr.md").read_text(encoding="utf-8")
    assert "Rule of this kit" not in en and "**Variant, the one-die finish (optional" in en
    assert "Règle de ce kit" not in fr and "**Variante, l’arrivée à un dé (facultative" in fr
    assert "players or teams (a team shares one pawn)" in en and "joueurs ou équipes" in fr
    # The limit of roll-again turns (the layout's, filled in when the sheet is printed: see
    # tests/test_round4_grand_rules.py) and the change-places tie-break are printed.
    assert "at most {max_extra_turns} turns in a row" in en and "{max_extra_turns} tours de suite au plus" in fr
    assert "comes first in the order of play" in en and "vient le premier dans l’ordre du jeu" in fr
    # No two pawns share a drowning field or the prison, stuck or freed, as the engine plays it.
    # (The fields are the layout's, filled in when the sheet is printed.)
    assert "No two pawns share {stuck_fields}" in en and "Deux pions ne partagent jamais" in fr


def test_peripheral_centre_moves_on_at_once(game: GrandGame) -> None:
    # XXXIV + 2: exactly on XXXVI, which sends the pawn on to 82.
    s = game.apply(at(f("XXXIV"), 1), by_sum(game, at(f("XXXIV"), 1)))
    assert s.pos[0] == 82 and s.landings == (f("XXXVI"), 82)
    # VII + 2: exactly on IX; the player chooses, in the same turn, X or 21.
    s = game.apply(at(f("VII"), 1), by_sum(game, at(f("VII"), 1)))
    assert s.pos[0] == f("IX") and s.offer == (MOVE_ON, 0) and s.seat == 0
    assert [game.ways_on[f("IX")][m.way] for m in game.legal_moves(s)] == [f("X"), 21]
    s = game.apply(s, Move(MOVE_ON, 0, 0, 1))
    assert s.pos[0] == 21 and s.route[0] == rules.CENTRAL_ROUTE and s.seat == 1


def test_blue_field_jumps_and_back_steps_follow_the_arrow(game: GrandGame) -> None:
    s = game.apply(at(18, 1), by_sum(game, at(18, 1)))
    assert s.pos[0] == f("X")
    assert game.track.back_steps(f("X"), 2) == 19
    assert game.track.back_steps(f("I"), 2) == 2
    assert game.track.back_steps(2, 5) == 1


def test_drowning_pawn_is_freed_when_passed(game: GrandGame) -> None:
    # Seat 1 plays 26 + 4: through 29 (freeing the drowning pawn) to 30, where it drowns.
    s = at(29, 26, dice=(2, 2), turn=1, stuck=(DROWNING, 0))
    s = game.apply(s, by_sum(game, s))
    assert s.pos == (29, 30) and s.stuck == (0, DROWNING) and "rescued" in s.events


def test_stopping_on_a_drowning_pawn_takes_its_place(game: GrandGame) -> None:
    # The rules sheet: the stuck pawn goes, free, to where the newcomer's count started.
    s = at(29, 27, dice=(1, 1), turn=1, stuck=(DROWNING, 0))
    s = game.apply(s, by_sum(game, s))
    assert s.pos == (27, 29) and s.stuck == (0, DROWNING) and s.events == ("replaced",)


def test_prisoner_is_replaced_and_goes_where_the_newcomer_started(game: GrandGame) -> None:
    s = at(74, 70, dice=(1, 3), turn=1, stuck=(PRISON, 0))
    s = game.apply(s, by_sum(game, s))
    assert s.pos == (70, 74) and s.stuck == (0, PRISON)
    # Passing the prison frees no one.
    s = at(74, 70, dice=(3, 3), turn=1, stuck=(PRISON, 0))
    s = game.apply(s, by_sum(game, s))
    assert s.pos == (74, 76) and s.stuck[0] == PRISON


def test_deadlock_frees_the_player_to_play(game: GrandGame) -> None:
    # Seat 1 (in the prison) cannot roll; then every pawn is stuck: seat 0 is freed.
    s = at(29, 74, turn=1, stuck=(DROWNING, PRISON))
    assert game.legal_moves(s) == (Move(PASS),)
    s = game.apply(s, Move(PASS))
    assert s.seat == 0 and s.stuck == (0, PRISON) and s.events == ("deadlock",)
    assert all(m.kind == DIE for m in game.legal_moves(s))
    # Stuck while another pawn is free: no roll, the turn passes.
    s = at(29, 40, turn=0, stuck=(DROWNING, 0))
    assert game.legal_moves(s) == (Move(PASS),) and game.apply(s, Move(PASS)).pos == (29, 40)


def test_petrified_goes_back_to_the_rooster(game: GrandGame) -> None:
    s = game.apply(at(76, 1, dice=(1, 2)), by_sum(game, at(76, 1, dice=(1, 2))))
    assert s.pos[0] == 1 and s.landings == (79, 1)


def test_pun_moves_again_or_draws_a_card(layout: GrandLayout) -> None:
    sure = GrandGame(dataclasses.replace(layout, pun_success=1.0))
    s = sure.apply(at(8, 1, dice=(1, 2)), by_sum(sure, at(8, 1, dice=(1, 2))))
    assert s.pos[0] == 14 and s.events == ("again",)  # 8 + 3 = 11, a pun, 11 + 3 = 14
    never = GrandGame(dataclasses.replace(layout, pun_success=0.0))
    start = at(8, 1, dice=(1, 2), deck=(card(never, "sirens"),))
    s = never.apply(start, by_sum(never, start))
    assert s.pos[0] == 11 and s.lost_turns(0) == 1 and s.events == (f"card:{card(never, 'sirens')}",)


@pytest.mark.parametrize(
    ("card_id", "field", "expected"),
    [
        ("first-light", 7, 10),
        ("eureka", 24, 30),
        ("primeval-night", 12, 8),
        ("pegasus", 34, 61),
        ("ariadne", 77, 81),  # 77 + 8: 83 after 6, back 2
    ],
)
def test_cards_that_move(game: GrandGame, card_id: str, field: int, expected: int) -> None:
    # A count of 2 ends on the card field, whose top card is the one named.
    start = at(field - 2, 1, deck=(card(game, card_id),))
    assert game.apply(start, by_sum(game, start)).pos[0] == expected


def test_cards_that_do_not_move(game: GrandGame) -> None:
    start = at(5, 29, 74, stuck=(0, DROWNING, PRISON), deck=(card(game, "orpheus"),))
    assert game.apply(start, by_sum(game, start)).stuck == (0, 0, 0)
    start = at(5, 29, 74, deck=(card(game, "fire"),))
    s = game.apply(start, by_sum(game, start))
    assert s.seat == 0 and s.again == 1  # another whole turn at once
    start = at(5, 29, 74, stuck=(0, DROWNING, PRISON), deck=(card(game, "lever"),))
    s = game.apply(start, by_sum(game, start))
    assert s.pos == (74, 29, 7) and s.stuck == (0, DROWNING, 0)  # the pawn nearest the lair was on 74


def test_empty_deck_is_reshuffled(game: GrandGame) -> None:
    s = game.apply(at(5, 1), by_sum(game, at(5, 1)))
    assert len(s.deck) == 31 and s.events[0] == "reshuffle"


def test_protocol_game_plays_to_the_end_reproducibly(layout: GrandLayout) -> None:
    game = GrandGame(layout)

    def play(seed: int) -> tuple[int, int]:
        state = game.initial_state(3, seed)
        while game.outcome(state) is None and state.turn < 3000:
            moves = game.legal_moves(state)
            state = game.apply(state, moves[-1])
        outcome = game.outcome(state)
        assert outcome is not None and outcome.winner is not None
        return outcome.winner, outcome.turns

    assert play(5) == play(5)
    with pytest.raises(ValueError):
        game.initial_state(5, 1)


def test_broken_layouts_are_refused(layout: GrandLayout) -> None:
    with pytest.raises(DataError) as error:
        build(load("game", str(FIXTURES / "grand_broken.toml")))
    text = str(error.value)
    assert "XL" in text and "does not exist" in text and "is already field 2" in text
    # Cut the branch into the peripheral labyrinths: they can no longer be reached.
    cut = dataclasses.replace(
        layout,
        branches={k: v for k, v in layout.branches.items() if k != 3},
        jumps={k: v for k, v in layout.jumps.items() if k != 20},
    )
    assert any("reach field(s) I, II" in p and "from the start" in p for p in static_problems(cut))
    moved = dict(layout.cells)
    moved[50] = moved[10]
    assert any("fields 49 and 50 do not touch" in p for p in static_problems(dataclasses.replace(layout, cells=moved)))
    short = dataclasses.replace(layout, deck=layout.deck[:-1])
    assert any("not 32" in p for p in static_problems(short))
    lost = dataclasses.replace(
        layout,
        deck=(
            dataclasses.replace(layout.deck[0], effect=dataclasses.replace(layout.deck[0].effect, kind="goto", to=999)),
        ),
    )
    assert any("missing field" in p for p in static_problems(lost))


def test_check_passes_and_counts_every_card_and_field(layout: GrandLayout) -> None:
    report = check_grand(layout, 1)  # the verdict `boardgen validate grand` gives
    assert report.playable, report.reasons
    # Every lineup's games are counted (as many as sequential sampling played, at most all).
    assert report.stats["visits"]["games"] == report.stats["sampling"]["games_played"] <= 3 * (150 + 60 + 60 + 300)
    assert all(count > 0 for count in report.stats["visits"]["cards"].values())
    names = [c.name for c in report.checks]
    assert {"track", "route balance", "route policies", "special fields and cards"} <= set(names)
    rows = report.stats["policies"]
    assert {(r["players"], r["policy"]) for r in rows} == {
        (p, q) for p in (2, 3, 4) for q in ("greedy", "central", "peripheral", "mixed", "mixed-swapped")
    }
    central = next(r for r in rows if r["policy"] == "central" and r["players"] == 2)
    assert central["route_taken"]["central"] == 1.0 and central["route_taken"]["peripheral"] == 0.0


def test_route_gap_threshold_is_read_from_the_layout(layout: GrandLayout) -> None:
    limits = {**layout.playability, "max_route_gap": 0.0, "route_gap_significance": 1.0}
    strict = dataclasses.replace(layout, playability=limits)
    report = check_grand(strict, 1, games=30)
    assert not report.playable
    assert any("route" in reason for reason in report.reasons)


def test_mixed_games_give_each_route_half_the_pawns(layout: GrandLayout) -> None:
    engine = get_engine("grand")
    lineups = [lineup for lineup in engine.self_play_lineups(layout, 2) if lineup.name.startswith("mixed")]
    played = play_lineups(engine, layout, {2: lineups}, games=20, seed=3, turn_cap=400, workers=1)
    for *_, sim in played:
        assert sim.extra_totals["route:central"] == sim.extra_totals["route:peripheral"] == 20
        assert sim.extra_totals.get("won:central", 0) + sim.extra_totals.get("won:peripheral", 0) == sim.finished


def test_grand_is_a_race_game_on_the_shared_pool(layout: GrandLayout) -> None:
    engine = get_engine("grand")
    assert isinstance(engine.game(layout), RaceGame)
    names = [lineup.seats for lineup in engine.self_play_lineups(layout, 3)]
    assert names[0] == ("greedy",) * 3 and ("central", "peripheral", "central") in names


def test_track_graph_and_arrows(layout: GrandLayout) -> None:
    """The track is consistent, and every step between fields that do not touch is an arrow
    on the board."""
    from boardgen.render.svg.grand import arrow_list

    graph = layout.track()
    assert race.track_problems(graph) == []
    arrows = {(layout.index(a), layout.index(b)) for a, b, _ in arrow_list(layout)}
    assert set(race.touching_pairs(graph)) <= arrows
    assert {graph.label(i) for i in graph.with_effect(race.MOVE_ON)} == {"IX", "XVIII", "XXVII", "XXXVI"}


def test_peripheral_centres_without_exact_count_still_check(layout: GrandLayout) -> None:
    """Plain peripheral centres chain the four labyrinths into one (a step from one corner to
    the next has no arrow, and the check says so); without the jump out of the last one the
    route runs off its end: the static checks say so instead of failing."""
    plain = dataclasses.replace(layout, exact=frozenset({83}), branches={3: layout.branches[3]})
    assert static_problems(plain) == [
        f"fields {a} and {b} do not touch" for a, b in (("IX", "X"), ("XVIII", "XIX"), ("XXVII", "XXVIII"))
    ]
    # A count goes through XXXVI along its arrow (the track's next field).
    assert GrandGame(plain).walks[f("XXXV")][3] == ((f("XXXVI"), 82, 83),)
    stuck = dataclasses.replace(plain, jumps={k: v for k, v in layout.jumps.items() if k != parse_label("XXXVI")})
    problems = static_problems(stuck)
    assert any("XXXVI leads nowhere" in p for p in problems)


def test_route_players_on_the_protocol(layout: GrandLayout, game: GrandGame) -> None:
    for policy, route in (("central", rules.CENTRAL_ROUTE), ("peripheral", rules.PERIPHERAL_ROUTE)):
        player = rules.PLAYERS[policy]()
        state = game.initial_state(2, 11)
        while game.outcome(state) is None and min(state.first_route) < 0 and state.turn < 200:
            state = game.apply(state, player.choose(game, state, random.Random(0)))
        assert state.first_route == (route, route), policy
    with pytest.raises(ValueError):
        rules.RoutePlayer("sideways")


GOLDEN = Path(__file__).parent.parent / "golden" / "grand-check-seed5-games40.json"


def test_the_check_reports_what_it_reported_before(update_golden: bool) -> None:
    """The whole check (static checks, every lineup's self-play, the closing checks) gives the
    report kept in tests/golden, byte for byte (regenerate it with ``pytest --update-golden``
    only when the rules, the players or the generator change on purpose, and say so)."""
    engine = get_engine("grand")
    report = check(engine, engine.build(load("game", "grand")), 5, games=40, workers=1)
    text = report.to_json() + "\n"
    if update_golden:
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_self_play_in_place_plays_the_games_apply_plays(game: GrandGame) -> None:
    """The one position played in place (self-play) and `apply` (a frozen position in, a new
    one out) are the same rules: the same moves lead to the same positions and events."""
    rng = random.Random(3)
    for seed in range(6):
        state = game.initial_state(3, seed)
        position = game.position(3, seed)
        assert position.snapshot() == state
        while game.outcome(state) is None and state.turn < 120:
            moves = game.legal_moves(state)
            assert list(game.legal_moves(position)) == list(moves)
            move = rng.choice(list(moves))
            state = game.apply(state, move)
            game.play(position, move)
            assert position.snapshot() == state
            assert game.events(position) == game.events(state)
        assert game.outcome(position) == game.outcome(state)


# -- the rules as the source writes them (issue 25) --------------------------------------------


def test_a_pun_after_a_card_repeats_the_dice_count(layout: GrandLayout) -> None:
    # 32 + 2 reaches the open field 34; "move back 3" takes the pawn to the pun field 31; the
    # pun moves it again by the dice's 2 (to 33), not by the card's 3.
    sure = GrandGame(dataclasses.replace(layout, pun_success=1.0))
    start = at(32, 1, dice=(1, 1), deck=(card(sure, "sketch"),))
    s = sure.apply(start, by_sum(sure, start))
    assert s.pos[0] == 33 and s.events == (f"card:{card(sure, 'sketch')}", "again")


def test_no_two_pawns_share_a_drowning_field_even_once_freed(game: GrandGame) -> None:
    # The pawn on 29 was freed where it swims (by a card, say); a newcomer stopping there still
    # takes its place, as the sheet says: it goes to where the newcomer's count started.
    s = at(29, 27, dice=(1, 1), turn=1)
    s = game.apply(s, by_sum(game, s))
    assert s.pos == (27, 29) and s.stuck == (0, DROWNING) and s.events == ("replaced",)
    s = at(74, 72, dice=(1, 1), turn=1)
    s = game.apply(s, by_sum(game, s))
    assert s.pos == (72, 74) and s.stuck == (0, PRISON)


def test_the_rebirth_field_is_where_a_petrified_pawn_goes(layout: GrandLayout) -> None:
    reborn = GrandGame(dataclasses.replace(layout, rebirth=5))
    start = at(76, 1, dice=(1, 2))
    s = reborn.apply(start, by_sum(reborn, start))
    assert s.pos[0] == 5 and s.landings == (79, 5)


def test_a_no_access_corner_may_not_lead_into_a_peripheral_labyrinth(layout: GrandLayout) -> None:
    assert static_problems(layout) == []
    branches = {**layout.branches, 11: (12, PERIPHERAL + 1)}
    broken = dataclasses.replace(layout, branches=branches)
    broken.__dict__.pop("_graph", None)
    problems = static_problems(broken)
    assert any("field 11 leads into the peripheral labyrinth (to I)" in p for p in problems), problems


def test_change_places_takes_the_first_in_the_order_of_play_of_equally_near_pawns(game: GrandGame) -> None:
    # Seat 0 ends on the open field 7 and draws "change places"; seats 1 and 2 are equally near
    # the lair (both on 40): the pawn of seat 1, first in the order of play, is taken.
    start = at(5, 40, 40, deck=(card(game, "lever"),))
    s = game.apply(start, by_sum(game, start))
    assert s.pos == (40, 7, 40) and "swap" in s.events
