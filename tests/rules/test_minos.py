"""The King Minos rules engine: hand-worked turns for every special field, then properties."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgen.checks.harness import Report, check, simulate
from boardgen.data.loader import Document, load
from boardgen.engines import get_engine
from boardgen.generate.minos import generate
from boardgen.model.minos import build
from boardgen.rules.minos import (
    CROSS,
    DIE,
    PASS,
    RIDE,
    STAY,
    IllegalMoveError,
    MinosGame,
    MinosState,
    Move,
    roll,
)
from boardgen.rules.players import GreedyPlayer, RandomPlayer
from boardgen.rules.simulate import play

OFF = 61
ENGINE = get_engine("minos")


def check_minos(layout, seed: int, **options) -> Report:
    return check(ENGINE, layout, seed, **options)


@pytest.fixture(scope="module")
def game() -> MinosGame:
    return MinosGame(build(load("game", "minos")))


def state(
    seats: int = 2,
    at: dict[int, int] | None = None,
    dice=(3, 4),
    turn: int = 0,
    free: dict[int, int] | None = None,
    offer=None,
    rng: int = 1,
) -> MinosState:
    """A position: `at` maps piece index -> field (others outside), `free` piece -> free_at."""
    count = seats * 4
    pos = [0] * count
    for piece, field in (at or {}).items():
        pos[piece] = field
    free_at = [0] * count
    for piece, when in (free or {}).items():
        free_at[piece] = when
    return MinosState(seats, turn, tuple(pos), tuple(free_at), tuple(dice), offer, rng)


def rng_rolling(*faces: int) -> int:
    """A generator state whose next rolls are `faces`."""
    for candidate in range(100_000):
        rng, ok = candidate, True
        for face in faces:
            rng, got = roll(rng)
            if got != face:
                ok = False
                break
        if ok:
            return candidate
    raise AssertionError(faces)


def die(points: int, piece: int) -> Move:
    return Move(DIE, points, piece)


def play_moves(game: MinosGame, s: MinosState, *moves: Move) -> MinosState:
    for move in moves:
        s = game.apply(s, move)
    return s


# -- entering ----------------------------------------------------------------------------------


def test_no_one_no_entry(game):
    s = state(dice=(3, 4))
    assert game.legal_moves(s) == (Move(PASS),)
    after = game.apply(s, Move(PASS))
    assert after.turn == 1 and game.to_move(after) == 1


def test_a_one_enters_and_the_other_die_moves_the_newcomer(game):
    s = state(dice=(1, 5))
    assert game.legal_moves(s) == (die(1, 0),)
    s = game.apply(s, die(1, 0))
    assert s.pos[0] == 1 and s.dice == (5,)
    s = game.apply(s, die(5, 0))
    assert s.pos[0] == 12  # 1 + 5 = 6, the open door to 12
    assert s.landings == (6, 12)


def test_double_one_enters_two_pieces(game):
    s = play_moves(game, state(dice=(1, 1)), die(1, 0))
    assert set(game.legal_moves(s)) == {die(1, 0), die(1, 1)}
    s = game.apply(s, die(1, 1))
    assert s.pos[:2] == (1, 1) and s.turn == 1


# -- the two dice ------------------------------------------------------------------------------


def test_either_order_on_one_piece_resolves_the_first_field_first(game):
    s = state(at={0: 3}, dice=(3, 2))
    assert set(game.legal_moves(s)) == {die(3, 0), die(2, 0)}
    three_first = play_moves(game, s, die(3, 0), die(2, 0))
    assert three_first.pos[0] == 14  # 3 + 3 = 6 -> 12, then + 2
    two_first = play_moves(game, s, die(2, 0), die(3, 0))
    assert two_first.pos[0] == 8


def test_dice_on_two_pieces(game):
    s = play_moves(game, state(at={0: 8, 1: 20}, dice=(2, 5)), die(2, 0), die(5, 1))
    assert s.pos[:2] == (10, 25)


def test_both_dice_must_be_used_when_possible(game):
    # 3 first would trap the only free piece on 13 and waste the 5.
    s = state(at={0: 10}, dice=(3, 5))
    assert game.legal_moves(s) == (die(5, 0),)
    s = play_moves(game, s, die(5, 0), die(3, 0))
    assert s.pos[0] == 26  # 15 + 3 = 18 -> 26


def test_only_one_die_usable_means_the_higher_one():
    data = copy.deepcopy(generate(0))
    data["lose_turns"].append({"field": 14, "turns": 2})
    game = MinosGame(build(Document("t", "t.toml", data)))
    # From 12 the 1 traps on 13, the 2 traps on 14: either way the other die is lost.
    s = state(at={0: 12, 1: OFF, 2: OFF, 3: OFF}, dice=(1, 2))
    assert game.legal_moves(s) == (die(2, 0),)


def test_bearing_off_the_last_piece_is_always_allowed(game):
    s = state(at={0: 60, 1: OFF, 2: OFF, 3: OFF}, dice=(1, 4))
    assert die(1, 0) in game.legal_moves(s)
    won = game.apply(s, die(1, 0))
    assert game.outcome(won).winner == 0


def test_a_last_die_nobody_can_use_ends_the_turn(game):
    # The only piece bears off with the 3; the 5 cannot be used by the pieces outside.
    s = state(at={0: 58, 1: OFF, 2: OFF}, dice=(3, 5))
    assert game.legal_moves(s) == (die(5, 0),)  # 5 first keeps the 3 usable
    s = play_moves(game, s, die(5, 0))
    assert s.pos[0] == 59 - 12 and s.dice == (3,)  # 63 -> bounce to 59 -> tunnel to 47


# -- sanctuaries and swaps ---------------------------------------------------------------------


def test_sanctuaries_hold_any_number(game):
    s = play_moves(game, state(at={0: 2, 4: 5, 5: 5}, dice=(3, 4)), die(3, 0))
    assert s.pos[0] == 5 and s.pos[4:6] == (5, 5)


def test_arriving_sends_the_occupant_to_where_the_newcomer_came_from(game):
    s = play_moves(game, state(at={0: 8, 4: 11}, dice=(3, 6)), die(3, 0))
    assert s.pos[0] == 11 and s.pos[4] == 8


def test_even_your_own_piece_is_sent_back(game):
    s = play_moves(game, state(at={0: 8, 1: 11}, dice=(3, 6)), die(3, 0))
    assert s.pos[:2] == (11, 8)


def test_after_a_jump_the_occupant_goes_to_where_the_count_started(game):
    s = play_moves(game, state(at={0: 3, 4: 12}, dice=(3, 6)), die(3, 0))
    assert s.pos[0] == 12 and s.pos[4] == 3


def test_a_piece_sent_away_triggers_nothing_and_is_freed(game):
    # The newcomer leaves 13 (it was free there); the occupant of 16 lands on 13 untrapped.
    s = play_moves(game, state(at={0: 13, 4: 16}, dice=(3, 6)), die(3, 0))
    assert s.pos[4] == 13 and s.lost_turns(4) == 0
    # A trapped piece sent away is freed; the newcomer is caught instead.
    s = state(at={0: 10, 1: 20, 4: 13}, free={4: 5}, dice=(3, 6))
    s = game.apply(s, die(3, 0))
    assert s.pos[0] == 13 and s.pos[4] == 10 and s.free_at[4] == 0
    assert s.lost_turns(0) == 3  # the rest of this turn, then two more


# -- fields that move a piece on ---------------------------------------------------------------


@pytest.mark.parametrize("start, points, end", [(4, 2, 12), (16, 2, 26), (19, 2, 26), (40, 2, 56), (58, 1, 47)])
def test_jumps_and_tunnels(game, start, points, end):
    s = play_moves(game, state(at={0: start, 1: 30}, dice=(points, 6)), die(points, 0))
    assert s.pos[0] == end


def test_passing_a_special_field_does_nothing(game):
    s = play_moves(game, state(at={0: 4, 1: 30}, dice=(4, 6)), die(4, 0))
    assert s.pos[0] == 8  # over 6 and 7


# -- lost turns --------------------------------------------------------------------------------


def test_thirteen_holds_the_piece_for_two_turns(game):
    s = play_moves(game, state(at={0: 10, 1: 20}, dice=(3, 5)), die(3, 0))
    assert s.pos[0] == 13 and s.free_at[0] == 6
    assert game.legal_moves(s) == (die(5, 1),)  # the caught piece cannot use the 5
    assert state(at={0: 13}, free={0: 6}, turn=1).lost_turns(0) == 2  # during seat 1's turn
    for turn, lost in ((2, 2), (4, 1), (6, 0)):
        later = state(at={0: 13, 1: 25}, free={0: 6}, dice=(2, 5), turn=turn)
        assert later.lost_turns(0) == lost
        movers = {m.piece for m in game.legal_moves(later)}
        assert (0 in movers) == (lost == 0)


def test_fifty_two_holds_then_tunnels_to_seven_and_offers_a_ride(game):
    s = play_moves(game, state(at={0: 49, 1: 20}, dice=(3, 5)), die(3, 0))
    assert s.pos[0] == 52 and s.offer is None and s.lost_turns(0) == 3
    # Turn 4 is seat 0's second lost turn; the piece is still held there.
    held = state(at={0: 52, 1: 25}, free={0: 6}, dice=(2, 5), turn=4)
    assert all(m.piece != 0 for m in game.legal_moves(held))
    # At the start of turn 6 it goes through the tunnel before the dice are played.
    s = game.apply(state(at={0: 52, 1: 25}, free={0: 6}, dice=(2, 3), turn=5), Move(PASS))
    assert s.turn == 6 and s.pos[0] == 7 and s.offer == (RIDE, 0)
    assert s.landings[-1] == 7
    s = game.apply(s, Move(STAY, 0, 0))
    assert s.offer is None and len(s.dice) == 2


def test_the_tunnel_out_of_fifty_two_swaps_with_a_piece_on_seven(game):
    s = game.apply(state(at={0: 52, 1: 7}, free={0: 6}, dice=(2, 3), turn=5), Move(PASS))
    assert s.pos[0] == 7 and s.pos[1] == 52 and s.lost_turns(1) == 0


# -- exact counts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "start, points, end",
    [
        (29, 2, 31),
        (29, 5, 28),
        (30, 6, 26),
        (56, 2, 58),
        (56, 4, 56),
        (57, 3, 56),
        (60, 1, OFF),
        (58, 3, OFF),
        (60, 5, 57),
        (60, 4, 58),
    ],
)
def test_exact_counts_and_bounces(game, start, points, end):
    s = play_moves(game, state(at={0: start, 1: 20}, dice=(points, 6)), die(points, 0))
    assert s.pos[0] == end


def test_a_bounce_onto_fifty_nine_takes_the_tunnel(game):
    s = play_moves(game, state(at={0: 60, 1: 20}, dice=(3, 6)), die(3, 0))
    assert s.pos[0] == 47 and s.landings == (59, 47)


def test_a_bounce_onto_an_orbit_field_offers_a_ride(game):
    # 55 + 6 overshoots 58 by 3 and comes back to 55 itself: it still ends a count there.
    s = play_moves(game, state(at={0: 55, 1: 20}, dice=(6, 2)), die(6, 0))
    assert s.pos[0] == 55 and s.offer == (RIDE, 0)


def test_fifty_eight_exception(game):
    # Seat 0 on 60 throws 5: into Elysium, back 4 to 57, where seat 1's piece waits.
    s = play_moves(game, state(at={0: 60, 1: 20, 4: 57}, dice=(5, 6)), die(5, 0))
    assert s.pos[0] == 57 and s.pos[4] == 60  # forward past 58 without entering it
    # Seat 1 may now bear off with a 1, no exact count for 58 needed.
    s = state(at={0: 57, 1: 26, 4: 60, 5: 10}, dice=(1, 2), turn=1)
    assert game.apply(s, die(1, 4)).pos[4] == OFF
    # Bouncing back behind 58 again, it must reach 58 by exact count once more.
    s = play_moves(game, state(at={0: 57, 4: 56, 5: 20}, dice=(4, 6), turn=1), die(4, 4))
    assert s.pos[4] == 56


def test_bearing_off_all_four_wins(game):
    s = state(at={0: OFF, 1: OFF, 2: OFF, 3: 59 - 1, 4: 30}, dice=(3, 2))
    s = game.apply(s, die(3, 3))
    assert s.pos[3] == OFF
    outcome = game.outcome(s)
    assert outcome.winner == 0 and outcome.turns == 1
    assert game.legal_moves(s) == ()


# -- the Knight's Orbit ------------------------------------------------------------------------


def test_ride_ends(game):
    assert game.ride_to[7] == (46, 49, 52, 55, 34, 55)
    assert game.ride_to[46] == (49, 52, 55, 34, 55, 52)
    assert game.ride_to[49] == (52, 55, 34, 55, 52, 49)
    assert game.ride_to[55] == (34, 55, 52, 49, 46, 7)
    assert game.ride_to[34] == (55, 52, 49, 46, 7, 46)
    assert 52 not in game.ride_to


def test_landing_on_the_orbit_offers_a_ride_before_the_other_die(game):
    s = play_moves(game, state(at={0: 4, 1: 20}, dice=(3, 5)), die(3, 0))
    assert s.pos[0] == 7 and s.offer == (RIDE, 0)
    assert game.legal_moves(s) == (Move(RIDE, 0, 0), Move(STAY, 0, 0))
    s = game.apply(s, Move(STAY, 0, 0))
    assert s.pos[0] == 7 and set(game.legal_moves(s)) == {die(5, 0), die(5, 1)}


@pytest.mark.parametrize("start, face, end", [(7, 4, 55), (34, 1, 55), (55, 1, 34)])
def test_ride(game, start, face, end):
    s = state(at={0: start, 1: 20}, dice=(2,), offer=(RIDE, 0), rng=rng_rolling(face))
    s = game.apply(s, Move(RIDE, 0, 0))
    assert s.pos[0] == end and s.offer is None and s.dice == (2,)


def test_a_ride_onto_fifty_two_is_the_trap(game):
    s = state(at={0: 7, 1: 20}, dice=(2,), offer=(RIDE, 0), rng=rng_rolling(3))
    s = game.apply(s, Move(RIDE, 0, 0))
    assert s.pos[0] == 52 and s.lost_turns(0) == 3
    assert game.legal_moves(s) == (die(2, 1),)


def test_a_ride_swaps_with_the_piece_where_it_ends(game):
    s = state(at={0: 7, 1: 20, 4: 46}, dice=(2,), offer=(RIDE, 0), rng=rng_rolling(1))
    s = game.apply(s, Move(RIDE, 0, 0))
    assert s.pos[0] == 46 and s.pos[4] == 7


def test_fifty_two_offers_no_ride(game):
    s = play_moves(game, state(at={0: 50, 1: 20}, dice=(2, 6)), die(2, 0))
    assert s.pos[0] == 52 and s.offer is None


# -- the Millstone -----------------------------------------------------------------------------


def test_millstone_crossing(game):
    s = play_moves(game, state(at={0: 41, 1: 20, 4: 50}, dice=(3, 6)), die(3, 0))
    assert s.pos[0] == 44 and s.offer == (CROSS, 0)
    crossed = game.apply(s, Move(CROSS, 0, 0))
    assert crossed.pos[0] == 50 and crossed.pos[4] == 44
    stayed = game.apply(s, Move(STAY, 0, 0))
    assert stayed.pos[0] == 44 and stayed.dice == (6,)


def test_millstone_crossing_backwards(game):
    s = play_moves(game, state(at={0: 48, 1: 20}, dice=(3, 6)), die(3, 0), Move(CROSS, 0, 0))
    assert s.pos[0] == 45


# -- protocol details --------------------------------------------------------------------------


def test_illegal_moves_are_refused(game):
    s = state(dice=(3, 4))
    with pytest.raises(IllegalMoveError, match="3>p0 is not legal here; legal: pass"):
        game.apply(s, die(3, 0))


def test_player_count_is_checked(game):
    with pytest.raises(ValueError, match="for 2 to 4 players, not 5"):
        game.initial_state(5, 1)


def test_interpretations_are_sentences_with_the_layouts_field_numbers(game):
    from boardgen.kits.rules_text import interpretation_blocks
    from boardgen.model.minos import rule_values

    texts = {
        lang: [
            text for kind, text in interpretation_blocks("minos", lang, rule_values(game.layout, lang)) if kind == "li"
        ]
        for lang in ("en", "fr")
    }
    assert len(texts["en"]) == len(texts["fr"]) >= 10
    for en, fr in zip(texts["en"], texts["fr"], strict=True):
        assert en.endswith(".") and fr.endswith(".") and en != fr and "{" not in en + fr
    assert "while a piece waits on 13 or 52," in texts["en"][0]
    assert "attend sur la 13 ou la 52," in texts["fr"][0]
    assert "no piece passes 31, 58 or 61:" in texts["en"][5]
    assert "ne dépasse la 31, la 58 ni la 61\u00a0:" in texts["fr"][5]
    assert "all four pieces" in texts["en"][-1] and "les quatre jetons" in texts["fr"][-1]
    # Another layout's numbers: 13 holds for three turns on 14 instead, three pieces each.
    data = generate(0)
    data["lose_turns"][0] = {"field": 14, "turns": 3}
    data["race"]["pieces_per_player"] = 3
    other = build(Document("t", "t.toml", data))
    english = [text for kind, text in interpretation_blocks("minos", "en", rule_values(other, "en")) if kind == "li"]
    assert "while a piece waits on 14 or 52," in english[0] and "all three pieces" in english[-1]


def test_same_seed_same_game(game):
    players = [GreedyPlayer(), GreedyPlayer()]
    first = play(game, players, 11, turn_cap=2000)
    second = play(game, players, 11, turn_cap=2000)
    assert first == second and first.finished


# -- properties --------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 4), greedy=st.booleans())
def test_playouts_keep_the_rules(game, seed, seats, greedy):
    rng = random.Random(seed)
    player = GreedyPlayer() if greedy else RandomPlayer()
    s = game.initial_state(seats, seed)
    non_sanctuary = [f for f in range(1, OFF) if f not in game.layout.sanctuaries]
    while game.outcome(s) is None:
        assert s.turn < 3000, "playout did not end"
        moves = game.legal_moves(s)
        assert moves
        move = player.choose(game, s, rng)
        before = copy.deepcopy(s)
        after = game.apply(s, move)
        assert s == before  # apply never mutates
        assert len(after.pos) == seats * 4  # pieces are conserved
        assert all(0 <= p <= OFF for p in after.pos)
        assert sum(p == OFF for p in after.pos) >= sum(p == OFF for p in s.pos)
        taken = [p for p in after.pos if p in non_sanctuary]
        assert len(taken) == len(set(taken)), "two pieces share a field"
        assert all(p not in game.layout.forced() for p in after.pos if p)
        s = after
    assert sum(p == OFF for p in s.pos[s.winner * 4 : (s.winner + 1) * 4]) == 4


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 300))
def test_scores_match_the_heuristic_of_the_result(game, seed, steps):
    rng = random.Random(seed)
    s = game.initial_state(3, seed)
    for _ in range(steps):
        if game.outcome(s) is not None:
            return
        s = game.apply(s, rng.choice(game.legal_moves(s)))
    if game.outcome(s) is not None:
        return
    seat = game.to_move(s)
    moves = game.legal_moves(s)
    for move, score in zip(moves, game.score_moves(s, moves, seat), strict=True):
        after = game.apply(s, move)
        if move.kind == DIE and after.offer is None and after.turn == s.turn:
            assert score == pytest.approx(game.heuristic(after, seat))


# -- the playability report --------------------------------------------------------------------


def test_check_reports_self_play_for_every_player_count(game):
    calls = []
    report = check_minos(
        game.layout, 3, games=12, workers=1, progress=lambda done, total, label: calls.append((done, total))
    )
    assert report.playable, report.to_text()
    assert sorted(report.stats["self_play"]) == ["2", "3", "4"]
    assert report.stats["self_play"]["4"]["games"] == 12
    assert calls[-1] == (36, 36)
    assert [c.name for c in report.checks] == [
        "geometry",
        "self-play, 2 players",
        "self-play, 3 players",
        "self-play, 4 players",
        "special fields",
    ]
    data = json.loads(report.to_json())
    assert data["playable"] is True and data["reasons"] == []
    assert "visits" in data["stats"] and data["stats"]["visits"]["games"] == 36
    assert "PLAYABLE" in report.to_text()
    assert "seed 3" in report.summary_line()


def test_check_figures_do_not_depend_on_the_workers(game):
    one = check_minos(game.layout, 5, games=8, workers=1)
    two = check_minos(game.layout, 5, games=8, workers=2)
    assert one.to_dict() == two.to_dict()


def test_check_names_what_fails(game):
    strict = replace(game.layout, playability={"max_mean_rounds": 5, "min_visits": 10**6})
    report = check_minos(strict, 1, games=4, workers=1)
    assert not report.playable
    assert any("rounds on average (maximum 5)" in r for r in report.reasons)
    assert any(r.startswith("special field 13 (Unlucky thirteen: lose-turns) was reached") for r in report.reasons)
    assert any(r.startswith("the Orbit ride was taken") for r in report.reasons)


def test_check_stops_at_broken_geometry(game):
    broken = replace(game.layout, orbit=(7, 46, 49, 52, 55, 33))
    report = check_minos(broken, 1, games=4, workers=1)
    assert not report.playable
    assert report.reasons == ["Orbit fields 55 and 33 are not a knight's move apart"]
    assert "self_play" not in report.stats


def test_simulate_through_the_engine(game):
    stats = simulate(ENGINE, game.layout, games=6, players=2, seed=2, player="random", workers=1)
    assert stats.games == 6 and stats.player_names == ("random", "random")
    assert set(stats.extra) == {"rides", "crossings", "swaps", "traps"}
    assert stats.extra_totals.get("landed:61", 0) >= 4  # the winner bore off four pieces
    with pytest.raises(ValueError, match="for 2 to 4 players, not 5"):
        simulate(ENGINE, game.layout, games=1, players=5, seed=1)
    report = check(ENGINE, game.layout, 2, games=3, workers=1)
    assert report.stats["self_play"]["2"]["games"] == 3
