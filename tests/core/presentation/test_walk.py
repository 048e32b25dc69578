"""walk_of: a trajectory's place in a list, its neighbours and the next failure."""

from __future__ import annotations

from webeval_core.presentation.walk import walk_of
from webeval_core.runs.listing.queries import WalkItem

# Result -> failed (counted in the success rate, below full marks), as the list query says.
PASS, FAIL, NO_ANSWER, ABORTED = False, True, True, False


def _listed(*failed: bool) -> list[WalkItem]:
    return [WalkItem(key=f"t{i}", failed=f) for i, f in enumerate(failed)]


def test_the_middle_of_a_list_has_both_neighbours_and_the_next_failure_after_it() -> None:
    walk = walk_of(_listed(FAIL, PASS, PASS, ABORTED, NO_ANSWER, FAIL), "t1")
    assert walk is not None
    assert (walk.position, walk.total) == (2, 6)
    assert (walk.previous, walk.next) == ("t0", "t2")
    assert walk.next_failure == "t4"  # aborted runs are not failures; the failure before it is behind


def test_the_ends_of_a_list_have_no_neighbour_beyond_them() -> None:
    first, last = walk_of(_listed(PASS, FAIL), "t0"), walk_of(_listed(PASS, FAIL), "t1")
    assert first is not None and last is not None
    assert first.previous is None and first.next == "t1" and first.next_failure == "t1"
    assert last.next is None and last.next_failure is None and last.position == last.total == 2


def test_a_trajectory_not_in_the_list_has_no_place() -> None:
    assert walk_of(_listed(PASS), "elsewhere") is None
    assert walk_of(_listed(), "t0") is None
