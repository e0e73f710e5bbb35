"""Corridor tiles as 4-bit open-side masks (N=1, E=2, S=4, W=8) and their rotations."""

from __future__ import annotations

from dataclasses import dataclass

N, E, S, W = 1, 2, 4, 8
SIDES = {"N": N, "E": E, "S": S, "W": W}
# (row, col) step when leaving a square through a side.
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}


def mask_of(sides: str) -> int:
    """'NES' -> 0b0111."""
    mask = 0
    for letter in sides:
        mask |= SIDES[letter]
    return mask


def sides_of(mask: int) -> str:
    return "".join(letter for letter, bit in SIDES.items() if mask & bit)


def rotate(mask: int, quarter_turns: int = 1) -> int:
    """Turn a tile clockwise by quarter turns: N->E->S->W->N."""
    for _ in range(quarter_turns % 4):
        mask = ((mask << 1) | (mask >> 3)) & 0b1111
    return mask


def rotations(mask: int) -> list[int]:
    """The distinct orientations of a tile, in quarter-turn order from its own."""
    seen: list[int] = []
    for turns in range(4):
        turned = rotate(mask, turns)
        if turned not in seen:
            seen.append(turned)
    return seen


def quarter_turns_between(base: int, target: int) -> int | None:
    """How many clockwise quarter turns take base to target, or None if no rotation does."""
    for turns in range(4):
        if rotate(base, turns) == target:
            return turns
    return None


@dataclass(frozen=True)
class Tile:
    """One corridor tile: its shape, its current open sides and what is printed on it."""

    id: str
    shape: str
    mask: int
    treasure: str | None = None
    start: str | None = None
    fixed: bool = False

    def turned(self, quarter_turns: int) -> Tile:
        return Tile(self.id, self.shape, rotate(self.mask, quarter_turns), self.treasure, self.start, self.fixed)

    def with_mask(self, mask: int) -> Tile:
        return Tile(self.id, self.shape, mask, self.treasure, self.start, self.fixed)
