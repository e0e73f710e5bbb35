"""Le Grand Labyrinthe: the route graph, every special rule on hand-worked positions, the deck,
the static checks on broken layouts and a small self-play check."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from boardgen.data.loader import load
from boardgen.engines import get_engine
from boardgen.errors import DataError
from boardgen.model.grand import PERIPHERAL, START, GrandLayout, build, parse_label, static_problems
from boardgen.rules import grand as rules
from boardgen.rules.grand import DROWNING, FREE, PRISON, GrandGame, Rules, Table, new_table, play_turn
from boardgen.rules.grand_playability import route_figures, run
from boardgen.rules.report import Report, check

FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"


def check_grand(layout, seed: int, **options) -> Report:
    return check(get_engine("grand"), layout, seed, **options)


def f(name: str) -> int:
    number = parse_label(name)
    assert number is not None
    return number


@pytest.fixture(scope="module")
def layout() -> GrandLayout:
    return build(load("game", "grand"))


@pytest.fixture(scope="module")
def game_rules(layout: GrandLayout) -> Rules:
    return rules.rules_for(layout)


def table(game_rules: Rules, *positions: int, seed: int = 0) -> Table:
    t = new_table(game_rules, len(positions), seed)
    t.pos = list(positions)
    return t


class Dice(rules.Chooser):
    """Picks the way ending on a given field (tests choose routes by where they lead)."""

    def __init__(self, end: int | None = None):
        self.end = end

    def pick(self, game_rules: Rules, t: Table, seat: int, ways) -> int:
        ends = [w.path[-1] for w in ways]
        return ends.index(self.end) if self.end in ends else 0


class Rolls:
    """A random stand-in whose dice come from a list (and whose other draws are fixed)."""

    def __init__(self, faces: list[int], chance: float = 0.0):
        self.faces = list(faces)
        self.chance = chance

    def randint(self, low: int, high: int) -> int:
        return self.faces.pop(0)

    def random(self) -> float:
        return self.chance

    def shuffle(self, items: list[int]) -> None:
        items.reverse()


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


def test_ways_branch_at_three(game_rules: Rules) -> None:
    ways = game_rules.ways[START][5]
    assert sorted(w.path for w in ways) == sorted([(1, 2, 3, 4, 5), (1, 2, 3, f("I"), f("II"))])
    # Landing on 3 does not choose yet; leaving it does.
    assert [w.path for w in game_rules.ways[START][3]] == [(1, 2, 3)]
    assert {w.path[-1] for w in game_rules.ways[3][1]} == {4, f("I")}


def test_exact_count_bounces_back_the_way_it_came(game_rules: Rules) -> None:
    # 80 + 5: in to 83 after 3 points, back 2.
    assert [w.path for w in game_rules.ways[80][5]] == [(81, 82, 83, 82, 81)]
    # VII + 4: into IX after 2, back 2 (no move on from a bounce).
    assert [w.path[-1] for w in game_rules.ways[f("VII")][4]] == [f("VII")]


def test_one_die_may_reach_an_exact_field(game_rules: Rules) -> None:
    # 4 + 6 from 80: neither die nor the sum is exact; the sum bounces 7 back from 83.
    assert [w.path[-1] for w in game_rules.roll_ways(80, 4, 6)] == [76]
    # 3 + 2 from 80: the 3 alone enters the lair.
    assert 83 in {w.path[-1] for w in game_rules.roll_ways(80, 3, 2)}


def test_peripheral_centre_moves_on_at_once(game_rules: Rules) -> None:
    ends = {w.path[-1] for w in game_rules.ways[f("VII")][2]}
    assert ends == {f("X"), 21}
    assert {w.path[-1] for w in game_rules.ways[f("XXXIV")][2]} == {f("XXXVI")}
    t = table(game_rules, f("XXXIV"), 1)
    t.rng = Rolls([1, 1])  # type: ignore[assignment]
    play_turn(game_rules, t, Dice())
    assert t.pos[0] == 82
    t = table(game_rules, f("VII"), 1)
    t.rng = Rolls([1, 1])  # type: ignore[assignment]
    play_turn(game_rules, t, Dice(21))
    assert t.pos[0] == 21 and t.route[0] == rules.CENTRAL_ROUTE


def test_blue_field_jumps_and_back_steps_follow_the_arrow(game_rules: Rules) -> None:
    t = table(game_rules, 18, 1)
    t.rng = Rolls([1, 1])  # type: ignore[assignment]
    play_turn(game_rules, t, Dice())
    assert t.pos[0] == f("X")
    assert game_rules.back_path(f("X"), 2) == (20, 19)
    assert game_rules.back_path(f("I"), 2) == (3, 2)
    assert game_rules.back_path(2, 5) == (1, START)


def test_drowning_pawn_is_freed_when_passed(game_rules: Rules) -> None:
    t = table(game_rules, 29, 26)
    t.stuck[0] = DROWNING
    t.turn = 1  # seat 1 plays: 26 + 4 goes through 29 to 30
    t.rng = Rolls([2, 2])  # type: ignore[assignment]
    play_turn(game_rules, t, Dice())
    assert t.pos == [29, 30] and t.stuck == [FREE, DROWNING]


def test_prisoner_is_replaced_and_goes_where_the_newcomer_started(game_rules: Rules) -> None:
    t = table(game_rules, 74, 70)
    t.stuck[0] = PRISON
    t.turn = 1
    t.rng = Rolls([1, 3])  # type: ignore[assignment]
    play_turn(game_rules, t, Dice())
    assert t.pos == [70, 74] and t.stuck == [FREE, PRISON]
    # Passing the prison frees no one.
    t2 = table(game_rules, 74, 70)
    t2.stuck[0] = PRISON
    t2.turn = 1
    t2.rng = Rolls([3, 3])  # type: ignore[assignment]
    play_turn(game_rules, t2, Dice())
    assert t2.pos == [74, 76] and t2.stuck[0] == PRISON


def test_deadlock_frees_the_player_to_play(game_rules: Rules) -> None:
    t = table(game_rules, 29, 74)
    t.stuck = [DROWNING, PRISON]
    t.rng = Rolls([1, 2])  # type: ignore[assignment]
    play_turn(game_rules, t, Dice())
    assert t.pos[0] == 32 and t.stuck == [FREE, PRISON] and t.counters["deadlocks"] == 1
    # Stuck while another pawn is free: no roll, the turn passes.
    t.turn = 1
    play_turn(game_rules, t, Dice())
    assert t.pos[1] == 74 and t.turn == 2


def test_petrified_goes_back_to_the_rooster(game_rules: Rules) -> None:
    t = table(game_rules, 76, 1)
    t.rng = Rolls([1, 2])  # type: ignore[assignment]
    play_turn(game_rules, t, Dice())
    assert t.pos[0] == 1


def test_pun_moves_again_or_draws_a_card(layout: GrandLayout) -> None:
    sure = Rules(dataclasses.replace(layout, pun_success=1.0))
    t = table(sure, 8, 1)
    t.rng = Rolls([1, 2])  # type: ignore[assignment]
    play_turn(sure, t, Dice())
    assert t.pos[0] == 14  # 8 + 3 = 11, a pun, 11 + 3 = 14
    never = Rules(dataclasses.replace(layout, pun_success=0.0))
    t = table(never, 8, 1)
    t.rng = Rolls([1, 2])  # type: ignore[assignment]
    t.deck = [index_of(never, "sirens")]
    play_turn(never, t, Dice())
    assert t.pos[0] == 11 and t.skip[0] == 1 and t.counters["card:sirens"] == 1


def index_of(game_rules: Rules, card_id: str) -> int:
    return next(i for i, card in enumerate(game_rules.deck) if card.id == card_id)


@pytest.mark.parametrize(("card", "start", "expected"), [
    ("first-light", 7, 10), ("eureka", 24, 30), ("primeval-night", 12, 8), ("pegasus", 34, 61),
    ("ariadne", 77, 81),  # 77 + 8: 83 after 6, back 2
])
def test_cards_that_move(game_rules: Rules, card: str, start: int, expected: int) -> None:
    t = table(game_rules, start, 1)
    t.deck = [index_of(game_rules, card)]
    rules.draw(game_rules, t, 0, 6, 0)
    assert t.pos[0] == expected


def test_cards_that_do_not_move(game_rules: Rules) -> None:
    t = table(game_rules, 7, 29, 74)
    t.stuck = [FREE, DROWNING, PRISON]
    t.deck = [index_of(game_rules, "orpheus")]
    rules.draw(game_rules, t, 0, 6, 0)
    assert t.stuck == [FREE, FREE, FREE]
    t.deck = [index_of(game_rules, "fire")]
    assert rules.draw(game_rules, t, 0, 6, 0) is True
    t.deck = [index_of(game_rules, "lever")]
    rules.draw(game_rules, t, 0, 6, 0)
    assert t.pos == [74, 29, 7]  # the pawn nearest the lair was on 74


def test_empty_deck_is_reshuffled(game_rules: Rules) -> None:
    t = table(game_rules, 7, 1)
    t.deck = []
    rules.draw(game_rules, t, 0, 6, 0)
    assert len(t.deck) == 31 and t.counters["reshuffles"] == 1


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
    cut = dataclasses.replace(layout, branches={k: v for k, v in layout.branches.items() if k != 3},
                              jumps={k: v for k, v in layout.jumps.items() if k != 20})
    assert any("reach from the start" in p and "I, II" in p for p in static_problems(cut))
    moved = dict(layout.cells)
    moved[50] = moved[10]
    assert any("fields 49 and 50 do not touch" in p for p in static_problems(dataclasses.replace(layout, cells=moved)))
    short = dataclasses.replace(layout, deck=layout.deck[:-1])
    assert any("not 32" in p for p in static_problems(short))
    lost = dataclasses.replace(layout, deck=(dataclasses.replace(
        layout.deck[0], effect=dataclasses.replace(layout.deck[0].effect, kind="goto", field=999)),))
    assert any("missing field" in p for p in static_problems(lost))


def test_check_passes_and_counts_every_card_and_field(layout: GrandLayout) -> None:
    report = check_grand(layout, 1)
    assert report.playable, report.reasons
    names = [c.name for c in report.checks]
    assert {"track", "route balance", "route policies", "special fields and cards"} <= set(names)
    rows = report.stats["policies"]
    assert {(r["players"], r["policy"]) for r in rows} == {
        (p, q) for p in (2, 3, 4) for q in ("greedy", "central", "peripheral", "mixed")}
    central = next(r for r in rows if r["policy"] == "central" and r["players"] == 2)
    assert central["route_taken"]["central"] == 1.0 and central["route_taken"]["peripheral"] == 0.0


def test_route_gap_threshold_is_read_from_the_layout(layout: GrandLayout) -> None:
    limits = {**layout.playability, "max_route_gap": 0.0, "route_gap_significance": 1.0}
    strict = dataclasses.replace(layout, playability=limits)
    report = check_grand(strict, 1, games=30)
    assert not report.playable
    assert any("route" in reason for reason in report.reasons)


def test_mixed_games_give_each_route_half_the_pawns(layout: GrandLayout) -> None:
    runs = run(layout, 3, 20, 400, [2], policies=("mixed",))
    figures = route_figures(runs[(2, "mixed")])
    assert figures["central"]["taken"] == figures["peripheral"]["taken"] == 20


def test_track_graph_agrees_with_the_engine(layout: GrandLayout, game_rules: Rules) -> None:
    """The shared race model, built from the same layout, walks counts the same way (two
    independent implementations), finds the track consistent, and every step between fields
    that do not touch is an arrow on the board."""
    from boardgen.model import race
    from boardgen.render.svg.grand import arrow_list

    graph = layout.track()
    assert race.track_problems(graph) == []
    arrows = {(layout.index(a), layout.index(b)) for a, b, _ in arrow_list(layout)}
    assert set(race.touching_pairs(graph)) <= arrows
    assert {graph.label(i) for i in graph.with_effect(race.MOVE_ON)} == {"IX", "XVIII", "XXVII", "XXXVI"}
    compared = 0
    # No pawn rests on a peripheral centre: it moves on at once.
    for field in [START, *sorted(f for f in layout.cells if not layout.moves_on(f) or f not in layout.exact)]:
        for points in range(1, 13):
            # The race model's walk stops on a centre; the move on is its own decision there.
            mine = {tuple(layout.index(n) for n in (w.path[:-1] if len(w.path) > 1 and w.path[-2] in layout.exact
                                                    and w.path[-1] in layout.moves_on(w.path[-2]) else w.path))
                    for w in game_rules.ways[field][points]}
            theirs = set(graph.walks(layout.index(field) if field != START else race.OUTSIDE, points))
            assert mine == theirs, (field, points)
            compared += 1
    assert compared > 1300


def test_peripheral_centres_without_exact_count_still_check(layout: GrandLayout) -> None:
    """Plain peripheral centres chain the four labyrinths into one; without the jump out of
    the last one the route runs off its end: the static checks say so instead of failing."""
    plain = dataclasses.replace(layout, exact=frozenset({83}), branches={3: layout.branches[3]})
    assert static_problems(plain) == []
    assert rules.Rules(plain).ways[f("XXXV")][3][0].path == (f("XXXVI"), f("XXXV"), f("XXXIV"))
    stuck = dataclasses.replace(plain, jumps={k: v for k, v in layout.jumps.items() if k != f("XXXVI")})
    problems = static_problems(stuck)
    assert any("centre cannot be reached" in p and "XXXVI" in p for p in problems)


def test_route_players_on_the_protocol(layout: GrandLayout) -> None:
    game = GrandGame(layout)
    for policy, route in (("central", rules.CENTRAL_ROUTE), ("peripheral", rules.PERIPHERAL_ROUTE)):
        player = rules.PLAYERS[policy]()
        state = game.initial_state(2, 11)
        while game.outcome(state) is None and min(state.first_route) < 0 and state.turn < 200:
            state = game.apply(state, player.choose(game, state, random.Random(0)))
        assert state.first_route == (route, route), policy
    with pytest.raises(ValueError):
        rules.RoutePlayer("sideways")
