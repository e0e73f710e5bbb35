"""Lengths: millimetres everywhere inside, points only at the PDF boundary."""

from __future__ import annotations

import re

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH

_UNITS_TO_MM = {"mm": 1.0, "cm": 10.0, "in": MM_PER_INCH, "pt": MM_PER_INCH / 72}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$")


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * PT_PER_MM


def to_mm(points: float) -> float:
    """PDF points to millimetres."""
    return points / PT_PER_MM


def parse_length(value: str | float | int) -> float:
    """Parse '3mm', '0.5in', '12pt' or a bare number (millimetres) into millimetres."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    match = _LENGTH.match(str(value))
    if not match:
        raise ValueError(f"not a length: {value!r} (use e.g. '3mm', '0.5in', '12pt')")
    number, unit = match.groups()
    return float(number) * _UNITS_TO_MM[unit or "mm"]
