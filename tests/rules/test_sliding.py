"""Hand-worked positions for the sliding-corridor engine: corridors, pushes, turns, winning."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardgen.data.loader import load
from boardgen.model.sliding import InsertionPoint, build, deal
from boardgen.model.tiles import rotate
from boardgen.rules.players import GreedyPlayer
from boardgen.rules.protocol import Outcome
from boardgen.rules.sliding import (
    SHIFT,
    WALK,
    Board,
    Geometry,
    IllegalMoveError,
    Shift,
    SlidingGame,
    Walk,
    YoungExitGame,
    YoungSlidingGame,
    find_variant,
)

W1, E1, N1, S1 = (InsertionPoint(side, 1) for side in "WENS")
FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"

RING = """
┌─┐
│·│
└─┘
"""

# One loop of 15 squares, a corridor along the bottom row and five closed squares.
LOOPS = """
┌─┐·╷
│·└─┤
└┐··│
·└──┘
┌───┐
"""
LOOP = {
    (0, 0),
    (0, 1),
    (0, 2),
    (1, 2),
    (1, 3),
    (1, 4),
    (0, 4),
    (2, 4),
    (3, 4),
    (3, 3),
    (3, 2),
    (3, 1),
    (2, 1),
    (2, 0),
    (1, 0),
}


@pytest.fixture(scope="module")
def classic():
    return build(load("game", "classic"))


@pytest.fixture(scope="module")
def game(classic):
    return SlidingGame(classic)


def cells(board: Board, bits: int) -> set[tuple[int, int]]:
    return set(board.geometry.cells(bits))


def reach_from(board: Board, row: int, col: int) -> set[tuple[int, int]]:
    return cells(board, board.reach(1 << board.geometry.bit(row, col)))


# -- corridors -------------------------------------------------------------------------


def test_reach_around_a_ring_but_not_into_its_middle():
    board = Board.from_text(RING)
    assert reach_from(board, 0, 0) == {(r, c) for r in range(3) for c in range(3)} - {(1, 1)}
    assert reach_from(board, 1, 1) == {(1, 1)}


def test_reach_on_a_hand_built_5x5_board():
    board = Board.from_text(LOOPS)
    for cell in LOOP:
        assert reach_from(board, *cell) == LOOP
    assert reach_from(board, 4, 2) == {(4, c) for c in range(5)}
    for closed in [(0, 3), (1, 1), (2, 2), (2, 3), (3, 0)]:
        assert reach_from(board, *closed) == {closed}


def test_corridors_do_not_wrap_around_the_edges():
    # Open to the east on the last column and to the west on the first: no joins across.
    board = Board.from_text("""
    ─┼─
    ·│·
    ─┼─
    """)
    assert reach_from(board, 0, 0) == {(0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)}
    assert reach_from(board, 1, 0) == {(1, 0)}


def test_drawing_round_trips_and_rejects_bad_input():
    board = Board.from_text(LOOPS)
    assert board.to_text() == "\n".join(line.strip() for line in LOOPS.strip().splitlines())
    with pytest.raises(ValueError, match="square"):
        Board.from_text("┌─\n│")
    with pytest.raises(ValueError, match="unknown tile characters 'x'"):
        Board.from_text("x·\n··")


# -- pushes ----------------------------------------------------------------------------


def test_one_push_moves_a_column_down_and_ejects_the_bottom_tile():
    board = Board.from_text(LOOPS, spare="│")
    after = board.pushed(N1)
    # Column 1 was ─ · ┐ └ ─ from the top: the spare enters on top, the bottom ─ leaves.
    assert after.to_text() == "\n".join(
        [
            "┌│┐·╷",
            "│─└─┤",
            "└···│",
            "·┐──┘",
            "┌└──┐",
        ]
    )
    assert after.spare_tile.id == "4-1" and after.spare_tile.mask == board.mask_at(board.geometry.bit(4, 1))
    expected_ids = {(0, 1): "spare", (1, 1): "0-1", (2, 1): "1-1", (3, 1): "2-1", (4, 1): "3-1"}
    for row in range(5):
        for col in range(5):
            tile = after.tile_at(row, col)
            assert tile.id == expected_ids.get((row, col), f"{row}-{col}")
            if col != 1:
                assert tile == board.tile_at(row, col)
    assert reach_from(after, 0, 0) == {(0, 0), (1, 0), (2, 0)}


def test_push_from_the_east_turns_the_spare_first():
    board = Board.from_text(RING, spare="─")
    after = board.pushed(E1, rotation=1)  # ─ turned a quarter is │
    assert after.to_text() == "┌─┐\n·││\n└─┘"
    assert after.spare_tile.id == "1-0"
    assert after.tile_at(1, 2).id == "spare" and after.tile_at(1, 1).id == "1-2"


def test_a_push_and_the_opposite_push_restore_the_board():
    board = Board.from_text(LOOPS, spare="┬")
    for point in Geometry(5, [1, 3]).points:
        assert board.pushed(point).pushed(point.opposite) == board


def test_pawn_carry_and_tile_slide_along_a_line():
    push = Geometry(7, [1, 3, 5]).pushes[W1]
    bit = Geometry(7, [1, 3, 5]).bit
    assert push.carry(bit(1, 6)) == bit(1, 0)  # the ejected tile's pawn wraps round
    assert push.carry(bit(1, 2)) == bit(1, 3)
    assert push.carry(bit(2, 2)) == bit(2, 2)
    assert push.slide(bit(1, 6)) == -1 and push.slide(-1) == bit(1, 0)


# -- turns on the classic board ---------------------------------------------------------


def test_first_turn_offers_every_point_and_distinct_rotation(game, classic):
    state = game.initial_state(4, 1)
    spare = state.board.spare_mask
    rotations = len({rotate(spare, t) for t in range(4)})
    moves = game.legal_moves(state)
    assert len(moves) == 12 * rotations
    assert {m.point for m in moves} == set(classic.insertion_points)
    assert state.phase == SHIFT and game.to_move(state) == 0


def test_the_push_just_made_cannot_be_undone_next_turn(game):
    state = game.initial_state(2, 1)
    state = game.apply(state, Shift(W1, 0))
    assert state.phase == WALK and game.to_move(state) == 0
    state = game.apply(state, Walk(state.pawn_cell(0)))
    assert game.to_move(state) == 1 and state.forbidden == E1
    rotations = len({rotate(state.board.spare_mask, t) for t in range(4)})
    moves = game.legal_moves(state)
    assert len(moves) == 11 * rotations and E1 not in {m.point for m in moves}
    with pytest.raises(IllegalMoveError, match="would undo the previous push"):
        game.apply(state, Shift(E1, 0))
    assert game.apply(state, Shift(W1, 0)).last == W1  # pushing the same way again is fine


def test_a_pawn_on_the_ejected_tile_wraps_onto_the_inserted_one(game):
    state = game.initial_state(4, 1)
    bit = game.geometry.bit
    state = state.replaced(pawns=(bit(1, 6), bit(1, 3), bit(3, 3), bit(6, 6)))
    after = game.apply(state, Shift(W1, 0))
    assert [after.pawn_cell(s) for s in range(4)] == [(1, 0), (1, 4), (3, 3), (6, 6)]
    assert after.board.tile_at(1, 0).id == state.board.table[state.board.spare].id
    # The walk is computed from the pawn's new square.
    assert (1, 0) in {m.to for m in game.legal_moves(after)}


def test_walks_must_follow_open_corridors(game):
    state = game.apply(game.initial_state(2, 1), Shift(W1, 0))
    walkable = {m.to for m in game.legal_moves(state)}
    assert state.pawn_cell(0) in walkable
    outside = next((r, c) for r in range(7) for c in range(7) if (r, c) not in walkable)
    with pytest.raises(IllegalMoveError, match="cannot be reached"):
        game.apply(state, Walk(outside))
    with pytest.raises(IllegalMoveError, match="is a shift"):
        game.apply(state, Shift(N1, 0))
    with pytest.raises(IllegalMoveError, match="is a walk"):
        game.apply(game.initial_state(2, 1), Walk((0, 0)))


def one_turn_finds(game, state, card):
    """A shift after which the mover can walk onto `card`'s tile, and that square."""
    tile = game.tile_of[card]
    for move in game.legal_moves(state):
        after = game.apply(state, move)
        square = after.board.locate(tile)
        if square >= 0 and (after.reach >> square) & 1:
            return move, game.geometry.cell(square)
    return None


def test_ending_a_walk_on_the_target_turns_the_card(game):
    # A deal whose first card can be found on the first turn.
    state, (move, cell) = next(
        (state, found)
        for state in map(lambda s: game.initial_state(2, s), range(50))
        if (found := one_turn_finds(game, state, state.cards[0][0]))
    )
    done = game.apply(game.apply(state, move), Walk(cell))
    assert done.cards[0] == state.cards[0][1:] and done.found(0) == 1
    assert done.cards[1] == state.cards[1] and game.to_move(done) == 1
    assert done.turn == 1 and game.outcome(done) is None


def test_reaching_a_card_further_down_the_pile_turns_nothing(game):
    state = game.initial_state(2, 1)
    card, (move, cell) = next(
        (c, found) for c in state.cards[0][1:] + state.cards[1] if (found := one_turn_finds(game, state, c))
    )
    assert card != state.cards[0][0]
    assert game.apply(game.apply(state, move), Walk(cell)).cards == state.cards


def test_with_every_card_turned_the_walk_home_wins(game):
    state = game.initial_state(2, 1)
    state = state.replaced(cards=((), state.cards[1]))
    after = game.apply(state, Shift(W1, 0))
    assert game.outcome(after) is None
    won = game.apply(after, Walk((0, 0)))
    assert won.winner == 0 and game.outcome(won) == Outcome(0, 1, (12, 0))
    assert game.legal_moves(won) == ()
    with pytest.raises(IllegalMoveError, match="over"):
        game.apply(won, Shift(N1, 0))


def test_with_every_card_turned_elsewhere_is_not_home(game):
    state = game.initial_state(2, 1)
    state = state.replaced(cards=((), state.cards[1]))
    after = game.apply(state, Shift(W1, 0))
    elsewhere = next(m.to for m in game.legal_moves(after) if m.to != (0, 0))
    assert game.apply(after, Walk(elsewhere)).winner is None


def test_younger_players_find_any_card_then_still_go_home(classic):
    game = YoungSlidingGame(classic)
    state = game.initial_state(2, 1)
    card, (move, cell) = next((c, found) for c in state.cards[0][1:] if (found := one_turn_finds(game, state, c)))
    done = game.apply(game.apply(state, move), Walk(cell))
    assert card not in done.cards[0] and len(done.cards[0]) == 11 and done.winner is None
    # Without the agreement, the last treasure does not win: home does.
    final = state.replaced(cards=((card,), state.cards[1]))
    last = game.apply(game.apply(final, move), Walk(cell))
    assert last.cards[0] == () and last.winner is None and cell != (0, 0)


# Every card turned, seat 0 on (2, 2): its corridor runs west to (2, 0), whose tile opens
# off the board (the only such side on this board); the pushes of rows 1 and 3 leave it be.
EXIT_BOARD = """
┌───┐
│···│
──┘·│
│···│
└───┘
"""


@pytest.fixture(scope="module")
def five():
    return build(load("game", str(FIXTURES / "five.toml")))


def exit_position(game):
    board = Board.from_text(EXIT_BOARD, spare="·")
    bit = board.geometry.bit
    state = game.start(board, 2, 0)
    return state.replaced(pawns=(bit(2, 2), bit(4, 4)), cards=((), state.cards[1]))


def test_agreeing_not_to_go_home_a_player_leaves_by_a_corridor_off_the_edge(five):
    game = YoungExitGame(five)
    state = exit_position(game)
    assert cells(state.board, game.finish(state.board, 0)) == {(2, 0)}
    walk = game.apply(state, Shift(InsertionPoint("W", 3), 0))
    assert cells(walk.board, walk.reach) == {(2, 0), (2, 1), (2, 2)}
    assert game.apply(walk, Walk((2, 1))).winner is None  # inside the labyrinth still
    out = game.apply(walk, Walk((2, 0)))
    assert out.winner == 0 and game.outcome(out) == Outcome(0, 1, (5, 0))
    assert list(game.best_moves(walk)) == [Walk((2, 0))]  # greedy heads for the way out
    # The same walk under the other endings: the start square is (0, 0), so nobody wins.
    for other in (YoungSlidingGame(five), SlidingGame(five)):
        there = other.apply(other.apply(exit_position(other), Shift(InsertionPoint("W", 3), 0)), Walk((2, 0)))
        assert there.winner is None


def test_exits_follow_the_tiles_and_a_push_can_cut_the_way_out(five):
    game = YoungExitGame(five)
    # A straight spare pushed in at the west end of row 1 opens a new way out there; the
    # tile pushed off the east end (closed to the east) takes no exit away.
    board = Board.from_text(EXIT_BOARD, spare="─")
    assert cells(board, game.finish(board.pushed(W1), 0)) == {(1, 0), (2, 0)}
    state = exit_position(game)
    # Pushing column 1 from the north carries the open (2, 1) down: the row-2 corridor
    # breaks, and the exit at (2, 0) stays out of reach.
    walk = game.apply(state, Shift(InsertionPoint("N", 1), 0))
    assert (2, 1) not in cells(walk.board, walk.reach)
    assert game.apply(walk, Walk((2, 2))).winner is None
    assert cells(walk.board, game.finish(walk.board, 0)) == {(2, 0)}


def test_deal_sizes_come_from_the_layout(game, classic):
    for players, size in classic.deal.items():
        state = game.initial_state(players, 7)
        assert [len(c) for c in state.cards] == [size] * players
        dealt = [c for cards in state.cards for c in cards]
        assert len(set(dealt)) == len(dealt)
    with pytest.raises(ValueError, match="no deal for 5"):
        game.initial_state(5, 1)


def test_initial_state_is_the_printed_deal(game, classic):
    state = game.initial_state(4, 3)
    printed = deal(classic, 3)
    assert state.board.grid == printed.grid and state.board.spare_tile == printed.spare
    assert [state.pawn_cell(s) for s in range(4)] == [s.at for s in classic.starts]


def test_variants_are_found_by_name():
    assert find_variant("classic") is SlidingGame
    assert find_variant("young") is YoungSlidingGame
    assert find_variant("young-exit") is YoungExitGame
    with pytest.raises(ValueError, match="unknown variant 'junior'"):
        find_variant("junior")


def test_turn_moves_perft_on_the_first_turn(game):
    # Complete turns (shift, rotation, walk) on offer, counted two ways.
    state = game.initial_state(4, 1)
    naive = sum(len(game.legal_moves(game.apply(state, m))) for m in game.legal_moves(state))
    assert game.count_turns(state) == naive


def test_self_play_events_sample_the_turns_on_offer_every_eighth_turn(game):
    """`events` after each decision: every `branching_every` turns, the complete turns the
    shift phase offered, counted here one shift at a time."""
    rng, player = random.Random(3), GreedyPlayer()
    state = game.position(3, 3)
    totals: dict[str, float] = {}
    expected: dict[str, float] = {}
    while game.outcome(state) is None and state.turn < 60:
        if state.phase == SHIFT and state.turn % game.branching_every == 0:
            turns = sum(len(game.legal_moves(game.apply(state, m))) for m in game.legal_moves(state))
            expected["turn_branching"] = expected.get("turn_branching", 0) + turns
            expected["branching_samples"] = expected.get("branching_samples", 0) + 1
        game.play(state, player.choose(game, state, rng))
        for event in game.events(state):
            key, amount = (event, 1) if isinstance(event, str) else event
            totals[key] = totals.get(key, 0) + amount
    assert totals == expected and expected["branching_samples"] >= 3
