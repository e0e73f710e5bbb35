"""Playability checks run before printing: one per engine, refusing an unplayable layout."""

from __future__ import annotations

from collections.abc import Callable


def check_for(force: bool) -> Callable | None:
    """The pre-print check; engines without one yet are printed unchecked."""
    return None
