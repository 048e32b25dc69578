"""Walking a list of trajectories: where one stands in it, and which comes before, after, or fails next.

The list is the index's query of a filter (`runs.listing.queries.IndexQueries.walk_items`) in its shown
order; the trajectory page steps through it without going back to the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from webeval_core.runs.listing.queries import WalkItem


class Walk(BaseModel):
    """One trajectory's place in a list, by summary key (the folder relative to the root)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    position: int
    """Its place in the list, from 1."""
    total: int
    """How many trajectories the list holds."""
    previous: str | None
    """Key of the trajectory before it; None at the start."""
    next: str | None
    """Key of the trajectory after it; None at the end."""
    next_failure: str | None
    """Key of the first failure after it (counted in the success rate, below full marks); None when none."""


def walk_of(listed: Sequence[WalkItem], key: str) -> Walk | None:
    """`key`'s place in `listed` (the list's trajectories in order); None when absent."""
    keys = [item.key for item in listed]
    if key not in keys:
        return None
    at = keys.index(key)
    following = [item.key for item in listed[at + 1 :] if item.failed]
    return Walk(
        position=at + 1,
        total=len(keys),
        previous=keys[at - 1] if at > 0 else None,
        next=keys[at + 1] if at + 1 < len(keys) else None,
        next_failure=following[0] if following else None,
    )
