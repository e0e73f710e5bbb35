"""Labyrinthe Master engine: hand-worked positions, properties, solver, checks and fixtures."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen.checks.harness import Report, check, simulate
from boardgen.checks.master import check_recipes
from boardgen.data.loader import load
from boardgen.engines import get_engine
from boardgen.errors import DataError
from boardgen.kits.rules_text import interpretation_blocks
from boardgen.model.master import build, rule_values, setup
from boardgen.model.sliding import InsertionPoint
from boardgen.rules.master import (
    PASS,
    TAKEN,
    USE,
    WAND,
    MasterGame,
    deal_recipes,
    turns_to_token,
)
from boardgen.rules.players import GreedyPlayer, RandomPlayer
from boardgen.rules.protocol import Outcome
from boardgen.rules.simulate import play
from boardgen.rules.sliding import SHIFT, Board, IllegalMoveError, Shift, Walk

FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"
LAYOUT = build(load("game", "master"))
GAME = MasterGame(LAYOUT)
IDS = [o.id for o in LAYOUT.by_value]
ENGINE = get_engine("master")


def check_master(layout, seed: int, **options) -> Report:
    return check(ENGINE, layout, seed, **options)


def simulate_master(layout, **options):
    return simulate(ENGINE, layout, **options)


N1, N5, W1 = (InsertionPoint(side, i) for side, i in (("N", 1), ("N", 5), ("W", 1)))
CROSSES = "\n".join(["┼" * 7] * 7)  # every square open every way: all squares in reach
WALLS = "\n".join(["·" * 7] * 7)  # every square closed: nobody moves
# Where the objects a test does not name lie: rows 0, 6 and 5, out of every test's way.
FILLER = [(r, c) for r in (6, 0, 5) for c in range(7)]
RECIPES = (("horse-dung", "fir-cone", "mistletoe"), ("fir-cone", "black-rooster", "mistletoe"))

seeds = st.integers(min_value=0, max_value=2**31 - 1)
players = st.integers(min_value=2, max_value=4)


def tokens(named: dict[tuple[int, int], str], taken: int = 0) -> dict[tuple[int, int], str]:
    """`named` plus every other object still on the board on a filler square."""
    out = dict(named)
    free = (cell for cell in FILLER if cell not in named)
    for object_id in IDS[taken:]:
        if object_id not in named.values():
            out[next(free)] = object_id
    return out


def position(named, *, board=CROSSES, pawns=((2, 2), (2, 4)), taken=(), wands=None, recipes=RECIPES, spare="┼"):
    return GAME.start(
        Board.from_text(board, spare=spare),
        len(pawns),
        tokens=tokens(named, len(taken)),
        recipes=recipes,
        pawns=pawns,
        taken=taken,
        wands=wands,
    )


def where(state, object_id: str) -> tuple[int, int] | None:
    square = state.tokens[GAME.rank[object_id]]
    return None if square == TAKEN else state.board.geometry.cell(square)


def turn(state, point, to, rotation=0):
    """Shift at `point`, then walk to `to`."""
    return GAME.apply(GAME.apply(state, Shift(point, rotation)), Walk(to))


# -- hand-worked positions ---------------------------------------------------------------


def test_a_token_on_the_pushed_off_tile_rides_onto_the_inserted_one():
    state = position({(1, 6): "horse-dung", (1, 2): "fir-cone", (3, 3): "oak-leaf"}, pawns=((2, 2), (1, 6)))
    ejected = state.board.tiles[state.board.geometry.bit(1, 6)]
    after = GAME.apply(state, Shift(W1))
    assert where(after, "horse-dung") == (1, 0)  # wrapped round with the tile pushed in
    assert where(after, "fir-cone") == (1, 3)  # rode its tile one square east
    assert where(after, "oak-leaf") == (3, 3)  # off the line: stays
    assert after.pawn_cell(1) == (1, 0)  # the pawn on the ejected tile wraps the same way
    assert after.board.spare == ejected  # the ejected tile is the spare, without its token
    assert after.taken == ()  # being carried onto a square is not arriving


def test_a_shift_carries_pawn_and_token_together_and_staying_takes_nothing():
    state = position({(1, 6): "horse-dung"}, pawns=((1, 6), (2, 4)))
    after = turn(state, W1, (1, 0))
    assert where(after, "horse-dung") == (1, 0)
    assert after.taken == ()  # the pawn rode along and stayed: no arrival


def test_only_the_lowest_token_can_be_taken():
    state = position({(2, 3): "fir-cone", (3, 3): "horse-dung"})
    state = turn(state, N5, (2, 3))  # red walks onto the 2 while the 1 is on the board
    assert state.taken == () and where(state, "fir-cone") == (2, 3)
    assert state.phase == WAND and state.seat == 0
    state = GAME.apply(state, PASS)
    state = turn(state, N1, (3, 3))  # yellow arrives on the 1 and takes it
    assert state.taken == (1,) and where(state, "horse-dung") is None
    assert state.lowest == GAME.rank["fir-cone"]


def test_standing_on_the_lowest_token_takes_nothing_but_arriving_does():
    # Red stands on the 2, which it could not take before; now the 1 is gone.
    state = position({(2, 3): "fir-cone"}, pawns=((2, 3), (2, 4)), taken=(1,))
    stayed = turn(state, N5, (2, 3))
    assert stayed.taken == (1,) and where(stayed, "fir-cone") == (2, 3)
    # Yellow arrives on the same square: a pawn standing there does not protect the token.
    yellow = turn(GAME.apply(stayed, PASS), N1, (2, 3))
    assert yellow.taken == (1, 1)
    assert yellow.pawn_cell(0) == yellow.pawn_cell(1) == (2, 3)


def test_walking_past_the_lowest_token_takes_nothing():
    state = position({(2, 3): "horse-dung"})
    passed = turn(state, N5, (2, 6))  # red's corridor runs over (2, 3) to (2, 6)
    assert passed.taken == ()


def test_a_wand_plays_a_whole_extra_turn_once():
    state = position({(2, 3): "fir-cone"}, pawns=((2, 3), (2, 4)), taken=(1,))
    state = turn(state, N5, (2, 2))  # red steps off the 2
    assert (state.phase, state.seat, state.turn) == (WAND, 0, 1)
    assert list(GAME.legal_moves(state)) == [USE, PASS]
    with pytest.raises(IllegalMoveError, match="play a wand or pass"):
        GAME.apply(state, Walk((2, 3)))
    assert GAME.events(GAME.apply(state, PASS)) == ()
    state = GAME.apply(state, USE)
    assert GAME.events(state) == ("wands_used",)  # what self-play counts
    assert (state.phase, state.seat, state.wands, state.extra) == (SHIFT, 0, (2, 3), True)
    assert state.forbidden == N5.opposite  # the extra turn follows the same push rules
    state = turn(state, N1, (2, 3))  # and comes back: an arrival on a later turn
    assert state.taken == (1, 0)
    # No second wand after the extra turn: yellow is to shift.
    assert (state.phase, state.seat, state.turn, state.extra) == (SHIFT, 1, 2, False)


def test_without_wands_the_turn_passes_at_once():
    state = position({(3, 3): "oak-leaf"}, wands=(0, 3))
    state = turn(state, N5, (2, 3))
    assert (state.phase, state.seat) == (SHIFT, 1)


def test_final_score_by_hand():
    # Objects 1..20 are gone: red took the odd values (1 + 3 + ... + 19 = 100), yellow the
    # even ones (2 + 4 + ... + 20 = 110). Red arrives on the mistletoe (25).
    state = position({(3, 3): "mistletoe"}, taken=(0, 1) * 10, wands=(2, 1))
    end = turn(state, N5, (3, 3))
    # Red: 100 + 25, recipe horse dung (its own) and mistletoe: + 2 x 20, 2 wands: + 6.
    # Yellow: 110, recipe fir cone and black rooster (its own; not the mistletoe): + 2 x 20,
    # 1 wand: + 3.
    assert GAME.scores(end) == (125 + 40 + 6, 110 + 40 + 3) == (171, 153)
    assert GAME.outcome(end) == Outcome(0, 1, (171, 153))
    assert end.over and GAME.legal_moves(end) == ()  # no wand after the last object
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.apply(end, USE)


def test_equal_best_scores_share_the_victory():
    # Red took the 1 and the 2, yellow the 3: 3 points each, same wands, no recipe objects.
    state = position({}, taken=(0, 0, 1), recipes=(("toad", "snake", "emerald"), ("weasel", "snake", "spider")))
    outcome = GAME.outcome(state.replaced(over=True))
    assert outcome is not None
    assert outcome.winner is None and outcome.scores == (3 + 9, 3 + 9)


def test_illegal_moves_say_why():
    state = position({(3, 3): "horse-dung"}, board=WALLS, spare="·")
    with pytest.raises(IllegalMoveError, match="starts with a shift"):
        GAME.apply(state, Walk((2, 2)))
    walked = GAME.apply(state, Shift(N5))
    with pytest.raises(IllegalMoveError, match="cannot be reached"):
        GAME.apply(walked, Walk((3, 3)))
    nxt = GAME.apply(GAME.apply(walked, Walk((2, 2))), PASS)
    with pytest.raises(IllegalMoveError, match="undo"):
        GAME.apply(nxt, Shift(N5.opposite))


def test_the_engine_plays_the_printed_set_up():
    start = setup(LAYOUT, 7)
    state = GAME.initial_state(3, 7)
    assert GAME.token_cells(state) == start.tokens
    assert state.board.to_text() == Board.from_deal(start.deal).to_text()
    assert [state.pawn_cell(s) for s in range(3)] == [s.at for s in LAYOUT.starts[:3]]
    cards = deal_recipes(start.recipes, 3, 7)
    assert len(set(cards)) == 3 and set(cards) <= set(start.recipes)
    assert state.recipes == tuple(tuple(GAME.rank[o] for o in card) for card in cards)
    assert state.wands == (3, 3, 3) and GAME.scores(state) == (9, 9, 9)
    assert GAME.initial_state(3, 7) == state
    with pytest.raises(ValueError, match="for 2 to 4 players"):
        GAME.initial_state(5, 7)


def test_interpretations_are_in_both_languages():
    en, fr = (interpretation_blocks("master", lang, rule_values(LAYOUT, lang)) for lang in ("en", "fr"))
    assert len(en) == len(fr) > 5 and [kind for kind, _ in en] == ["h"] + ["li"] * (len(en) - 1)
    for (_, english), (_, french) in zip(en[1:], fr[1:], strict=True):
        assert english.strip() and french.strip() and english != french
    # The object that ends the game is named from the layout, in each language.
    assert any("the mistletoe is taken" in text for _, text in en)
    assert any("«\u00a0gui\u00a0»" in text for _, text in fr)


# -- properties ----------------------------------------------------------------------------


def check_invariants(state) -> None:
    on_board = [sq for sq in state.tokens if sq != TAKEN]
    assert state.on_board() + len(state.taken) == len(IDS) == 21
    assert sum(len(state.taken_by(s)) for s in range(len(state.pawns))) == len(state.taken)
    assert all(sq == TAKEN for sq in state.tokens[: len(state.taken)])
    assert len(set(on_board)) == len(on_board)  # tokens never share a square
    squares = set(state.board.geometry.squares)
    assert set(on_board) <= squares and set(state.pawns) <= squares
    assert min(GAME.scores(state)) >= 0
    assert all(0 <= w <= LAYOUT.wands_per_player for w in state.wands)


@settings(max_examples=25, deadline=None)
@given(seeds, players, st.integers(min_value=0, max_value=300))
def test_random_play_conserves_tokens_and_never_mutates(seed, count, decisions):
    rng = random.Random(seed)
    state = GAME.initial_state(count, seed)
    for _ in range(decisions):
        check_invariants(state)
        if GAME.outcome(state) is not None:
            break
        moves = GAME.legal_moves(state)
        assert moves
        move = rng.choice(list(moves))
        # Everything the position holds, as plain data (what == compares): a snapshot, not a
        # deep copy, which copied the board's shared geometry tables at every decision.
        before = state.key()
        after = GAME.apply(state, move)
        assert state.key() == before
        state = after


@settings(max_examples=10, deadline=None)
@given(seeds, players)
def test_greedy_playouts_finish_with_sane_scores(seed, count):
    record = play(GAME, [GreedyPlayer() for _ in range(count)], seed, turn_cap=400)
    assert record.finished and record.turns <= 400
    assert record.scores is not None
    assert len(record.scores) == count and min(record.scores) >= 0
    best = max(record.scores)
    assert (record.winner is None) == (record.scores.count(best) > 1)
    # Every object is taken, each worth its value, plus bonuses and wands.
    total = sum(o.value for o in LAYOUT.objects)
    assert sum(record.scores) >= total


@settings(max_examples=10, deadline=None)
@given(seeds, players, st.integers(min_value=1, max_value=80))
def test_random_playouts_stop_at_the_turn_cap(seed, count, cap):
    record = play(GAME, [RandomPlayer() for _ in range(count)], seed, turn_cap=cap)
    assert record.turns <= cap and (record.finished or record.turns == cap)


@settings(max_examples=15, deadline=None)
@given(seeds, st.data())
def test_the_solver_agrees_with_one_turn_lookahead(seed, data):
    state = GAME.initial_state(2, seed)
    pawn = data.draw(st.sampled_from(GAME.homes))
    token = data.draw(st.sampled_from(state.tokens))
    solution = turns_to_token(state.board, pawn, token, max_turns=2)
    assert (solution.turns == 1) == GAME.can_take(state.board, None, pawn, token)


# -- solver --------------------------------------------------------------------------------


def test_solver_on_hand_boards():
    open_board = Board.from_text(CROSSES)
    bit = open_board.geometry.bit
    assert turns_to_token(open_board, bit(2, 2), bit(5, 5)).turns == 1
    walls = Board.from_text(WALLS, spare="·")
    stuck = turns_to_token(walls, bit(2, 2), bit(3, 3), max_turns=10)
    assert stuck.turns is None and stuck.proven and stuck.exhausted
    with pytest.raises(ValueError, match="already stands"):
        turns_to_token(walls, bit(2, 2), bit(2, 2))


# -- checks, fixtures and self-play ------------------------------------------------------------


def fixture(name: str):
    return build(load("game", str(FIXTURES / f"master_{name}.toml")))


def test_check_master_passes_the_bundled_layout():
    report = check_master(LAYOUT, 1, games=20, workers=1)
    assert report.playable, report.to_text()
    names = [c.name for c in report.checks]
    assert names[:6] == ["tile inventory", "fixed tiles", "insertion points", "starts", "tokens", "recipes"]
    assert names[6:] == ["reachability"] + [f"self-play, {n} players" for n in (2, 3, 4)]
    assert report.summary_line().startswith("passed (seed 1): every object within ")
    assert "Turns to reach each object" in report.to_text()
    data = json.loads(report.to_json())
    extra = data["stats"]["self_play"]["2"]["extra"]
    assert extra["score_min"] <= extra["score_mean"] <= extra["score_max"]


def test_token_squares_outside_the_inner_square_fail_the_check():
    report = check_master(fixture("tokens_outside"), 1, games=10, workers=1)
    assert not report.playable
    assert report.reasons == [
        "token squares outside the inner 5x5 (rows and columns 1-5): [0, 0], [0, 1], [0, 2], "
        "[0, 3], [0, 4], [1, 0], [2, 0], [3, 0], [4, 0]"
    ]
    assert report.summary_line().startswith("FAILED (seed 1): token squares outside")


def test_objects_out_of_reach_fail_the_check():
    report = check_master(fixture("reach_one_turn"), 1, workers=1)
    assert not report.playable
    assert "object 'oak-leaf' cannot be reached from the red start [2, 2] within 1 turn" in report.reasons
    assert all("within 1 turn" in reason for reason in report.reasons)


@pytest.mark.parametrize(
    "name, messages",
    [
        ("tokens_count", ["master_tokens_count.toml:6: tokens.area: 16 token squares for 21 objects"]),
        (
            "recipes_broken",
            [
                "recipes.fixed: card 1 shows an object twice: horse-dung, horse-dung, black-snail",
                "recipes.fixed: 'horse-dung' is on 4 cards, expected 3",
                "recipes.fixed: 'black-snail' is on 2 cards, expected 3",
                "recipes.fixed: cards 2 and 3 are alike",
            ],
        ),
    ],
)
def test_negative_fixture(name, messages):
    with pytest.raises(DataError) as info:
        fixture(name)
    shown = [str(p) for p in info.value.problems]
    for message in messages:
        assert any(line.endswith(message) for line in shown), info.value.format()


def test_fixed_recipes_are_dealt_as_printed():
    layout = fixture("recipes_fixed")
    start = setup(layout, 3)
    assert start.recipes == layout.fixed_recipes
    assert check_recipes(layout, start) == []
    broken = replace(start, recipes=start.recipes[:20] + (start.recipes[0],))
    assert "recipe cards: cards 1 and 21 are alike" in check_recipes(layout, broken)


def test_simulate_master_is_reproducible_and_reports_scores():
    one = simulate_master(LAYOUT, games=20, players=3, seed=4, workers=1)
    two = simulate_master(LAYOUT, games=20, players=3, seed=4, workers=2)
    assert one.to_dict() == two.to_dict()
    assert one.completion_rate == 1.0
    assert set(one.extra) == {"score_mean", "score_min", "score_max", "winner_margin", "wands_used"}
    with pytest.raises(ValueError, match="planner"):
        simulate_master(LAYOUT, games=1, players=2, seed=0, player="planner")
    with pytest.raises(ValueError, match="not 5"):
        simulate_master(LAYOUT, games=1, players=5, seed=0)


def test_greedy_plays_a_wand_only_to_win_a_race():
    # Yellow has just moved and the 1 is in everyone's reach: a race worth a wand only if
    # the token is worth more than the wand's 3 points to yellow.
    state = position({(3, 3): "horse-dung"}, pawns=((2, 2), (2, 4)))
    state = GAME.apply(GAME.apply(turn(state, N5, (2, 2)), PASS), Shift(N1))
    state = GAME.apply(state, Walk((2, 4)))
    assert state.phase == WAND and state.seat == 1
    assert not GAME.wand_pays(state)  # 1 point (not on yellow's card) < 3 for the wand
    on_card = state.replaced(recipes=(state.recipes[0], (0, 1, 20)))
    assert GAME.wand_pays(on_card)  # 1 + 20 on its card: worth the wand
    alone = on_card.replaced(pawns=(GAME.geometry.bit(3, 3), on_card.pawns[1]))
    assert not GAME.wand_pays(alone)  # red stands on the 1 and cannot take it next turn
