"""Lengths: millimetres everywhere inside, points only at the PDF boundary."""

from __future__ import annotations

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * PT_PER_MM
