"""boardgen's one generator (`boardgen.draws`) against splitmix64's published output and
against itself drawn one at a time."""

from __future__ import annotations

from collections import Counter

import pytest

from boardgen.draws import (
    BLOCK,
    Draws,
    Roller,
    advance,
    below_of,
    drawn_between,
    face,
    next_random,
    random_block,
    roll,
)


def test_splitmix64_gives_the_reference_sequence():
    # Vigna's splitmix64.c with x = 0: the first three outputs of next().
    state, out = 0, []
    for _ in range(3):
        state, z = next_random(state)
        out.append(z)
    assert out == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize("state", [0, 1, 2**63 + 5, 2**64 - 1])
def test_a_block_is_the_draws_one_at_a_time(state):
    rng = Draws.at(state)
    one_by_one = [rng.draw() for _ in range(BLOCK)]
    assert random_block(state) == one_by_one
    assert Draws.at(state).block() == one_by_one
    assert rng.state == advance(state, BLOCK)
    assert drawn_between(state, rng.state) == BLOCK


def test_the_same_seed_draws_the_same_and_every_call_takes_one_draw():
    a, b = Draws(7), Draws(7)
    assert [a.die() for _ in range(20)] == [b.die() for _ in range(20)]
    before = a.state
    a.below(5)
    a.chance(0.5)
    a.choice("xyz")
    a.random()
    assert drawn_between(before, a.state) == 4
    assert Draws(7).state != Draws(8).state
    copy = a.copy()
    assert copy.draw() == a.draw()


def test_below_and_die_cover_their_range_evenly():
    rng = Draws(1)
    counts = Counter(rng.die() for _ in range(6000))
    assert set(counts) == set(range(1, 7))
    assert all(900 < n < 1100 for n in counts.values())
    assert below_of(Draws(3).draw(), 6) == Draws(3).below(6)
    with pytest.raises(ValueError):
        rng.below(0)


@pytest.mark.parametrize("state", [0, 5, 2**63 + 1, 2**64 - 3])
def test_every_way_of_rolling_gives_the_same_faces(state):
    """A die is the high bits of one draw (``draw * sides >> 64``, plus one), whether a
    generator rolls it (`Draws.die`), a bare state does (`roll`) or a block of draws does
    (`Roller`, as the races roll): worked out here from splitmix64's draws by hand."""
    draws, at = [], state
    for _ in range(2 * BLOCK + 3):
        at, z = next_random(at)
        draws.append(z)
    by_hand = [z * 6 // 2**64 + 1 for z in draws]
    rng = Draws.at(state)
    assert [rng.die() for _ in draws] == by_hand
    assert [face(z) for z in draws] == by_hand
    assert roll(state, len(draws))[1] == tuple(by_hand)
    roller, bare = Roller(), state
    rolled: list[int] = []
    for _ in range(len(draws) // 3):  # three dice at a time, across block boundaries
        bare, faces = roller.roll(bare, 3)
        rolled += faces
    assert rolled == by_hand[: len(rolled)]
    roller, bare = Roller(), state
    pairs: list[int] = []
    for _ in range(len(draws) // 2):
        bare, faces = roller.roll(bare, 2)
        pairs += faces
    assert pairs == by_hand[: len(pairs)]
    assert [face(z, 20) for z in draws[:5]] == [Draws.at(state).copy().die(20)] + [
        z * 20 // 2**64 + 1 for z in draws[1:5]
    ]


def test_shuffle_and_sample_are_permutations():
    rng = Draws(5)
    items = list(range(10))
    rng.shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))
    picked = rng.sample(range(10), 4)
    assert len(set(picked)) == 4 and set(picked) <= set(range(10))
    firsts = Counter(Draws(s).sample("abc", 3)[0] for s in range(300))
    assert set(firsts) == set("abc")


def test_choice_is_below_of_its_length_and_draws_nothing_for_one_item():
    for seed in range(50):
        items = "abcdefg"[: 2 + seed % 6]
        a, b = Draws(seed), Draws(seed)
        assert a.choice(items) == items[b.below(len(items))] and a.state == b.state
    one = Draws(3)
    before = one.state
    assert one.choice(["only"]) == "only" and one.state == before  # nothing to choose
    with pytest.raises(IndexError):
        one.choice([])


def test_normals_are_standard_normal_and_the_same_for_the_same_seed():
    values = Draws(11).normals(20001)
    assert len(values) == 20001 and values[:7] == Draws(11).normals(7)
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / len(values)
    assert abs(mean) < 0.03 and abs(variance - 1) < 0.04  # 4 standard errors, about
    inside = sum(abs(v) < 1.959964 for v in values) / len(values)
    assert abs(inside - 0.95) < 0.007
