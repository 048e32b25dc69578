"""The index's queries answer verdicts only to a viewer (runs/viewing.py, issue 49 point 1): without
one, rows without verdicts and no rate; with one, what is returned is disclosed to it first, and
when it refuses, the rows come without verdicts and were chosen by no verdict either.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from tests.conftest import Sample
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.listing.list_columns import verdict_columns
from webeval_core.runs.listing.queries import IndexQueries
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.trajectory_filter import FAIL, TrajectoryFilter
from webeval_core.runs.viewing import OUTSIDE_REVIEW, Disclosure, Item, Withheld


class Recorder:
    """A viewer that records what it is asked to disclose, and may refuse (a store that is down)."""

    def __init__(self, *, refuse: bool = False, closed: str = "") -> None:
        self.asked: list[frozenset[Item]] = []
        self.refuse = refuse
        self.closed_reason = closed

    def closed(self) -> str:
        return self.closed_reason

    def disclose(self, items: Iterable[Item]) -> Disclosure:
        wanted = frozenset(items)
        self.asked.append(wanted)
        if self.refuse:
            return Disclosure(shown=frozenset(), withheld=wanted, why=Withheld.NOT_RECORDED, detail="down")
        return Disclosure(shown=wanted)

    def holds(self, items: Iterable[Item]) -> frozenset[Item]:
        return frozenset()


@pytest.fixture(scope="module")
def queries(scored_sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> IndexQueries:
    store = IndexStore(scored_sample.root, tmp_path_factory.mktemp("cache"))
    refresh_index(store, workers=1)
    return IndexQueries(store, load_catalog())


def _verdicts(queries: IndexQueries) -> list[tuple[str | None, float | None, str | None]]:
    return [(r.result, r.score, r.judge) for r in queries.page(None).rows]


def test_without_a_viewer_rows_come_without_verdicts_and_figures_empty(queries: IndexQueries) -> None:
    page = queries.page(None)
    assert page.withheld == Withheld.NO_VIEWER and page.total == len(page.rows) > 0
    assert {(r.result, r.status, r.score, r.judge, r.value) for r in page.rows} == {(None,) * 5}
    assert verdict_columns().isdisjoint(queries.frame(None).columns)
    assert queries.headlines(None, None) == {} and queries.headline(None, None) is None
    assert (
        queries.results(None, None) == () and queries.taxonomy(None, None) == () and queries.tags(None) == ()
    )
    assert queries.task_attempts(None) == {} and not any(w.failed for w in queries.walk_items(None))
    # A criterion of verdicts is not obeyed: choosing by it would tell the verdict.
    assert queries.page(None, TrajectoryFilter(results=frozenset({FAIL}))).total == page.total
    seen = queries.seen_by(OUTSIDE_REVIEW)
    assert any(result is not None for result, _, _ in _verdicts(seen))
    assert 0 < seen.page(None, TrajectoryFilter(results=frozenset({FAIL}))).total < page.total


def test_a_viewer_is_asked_before_the_rows_are_returned(queries: IndexQueries) -> None:
    viewer = Recorder()
    page = queries.seen_by(viewer).page(None)
    assert page.withheld is None
    judged = {(r.run, r.task_id) for r in page.rows if r.judge is not None}
    assert viewer.asked == [judged] and judged
    assert queries.viewer is None  # the copy carries the viewer; the shared queries none


def test_a_refused_record_withholds_and_chooses_again_without_verdicts(queries: IndexQueries) -> None:
    refusing = queries.seen_by(Recorder(refuse=True))
    page = refusing.page(None, TrajectoryFilter(results=frozenset({FAIL})))
    assert (page.withheld, page.detail) == (Withheld.NOT_RECORDED, "down")
    assert page.total == queries.page(None).total  # chosen again by what reads no verdict
    assert {r.result for r in page.rows} == {None}


def test_a_closed_viewer_gets_no_figure(queries: IndexQueries) -> None:
    closed = queries.seen_by(Recorder(closed="blind pass"))
    assert closed.headlines(None, None) == {} and closed.breakdown(None, None, "site") == ()
    page = closed.page(None)
    assert page.withheld == Withheld.BLIND_PASS and {r.score for r in page.rows} == {None}


class Holding(Recorder):
    """A viewer holding some items of a blind queue it does not work (`review.Gate.elsewhere`)."""

    def __init__(self, held: frozenset[Item]) -> None:
        super().__init__()
        self.held = held

    def disclose(self, items: Iterable[Item]) -> Disclosure:
        wanted = frozenset(items)
        held = wanted & self.held
        return Disclosure(shown=wanted - held, withheld=held, why=Withheld.BLIND_PASS, detail="in q")

    def holds(self, items: Iterable[Item]) -> frozenset[Item]:
        return frozenset(items) & self.held


def test_items_held_by_another_blind_queue_lose_their_verdicts_row_by_row(queries: IndexQueries) -> None:
    judged = [(r.run, r.task_id) for r in queries.seen_by(OUTSIDE_REVIEW).page(None).rows if r.judge]
    held = frozenset(judged[:3])
    page = queries.seen_by(Holding(held)).page(None)
    assert page.withheld is None and (page.held, page.detail) == (3, "in q")
    blank = {(r.run, r.task_id) for r in page.rows if r.judge is None}
    assert held <= blank and {(r.run, r.task_id) for r in page.rows if r.judge} == set(judged) - held
    # Chosen by a verdict, the choice itself would tell the held rows': chosen again without it.
    chosen = queries.seen_by(Holding(held)).page(None, TrajectoryFilter(results=frozenset({FAIL})))
    assert chosen.withheld == Withheld.BLIND_PASS and chosen.total == page.total


def test_next_failure_never_stops_at_an_item_held_blind(queries: IndexQueries) -> None:
    failed = [(r.run, r.task_id) for r in queries.seen_by(OUTSIDE_REVIEW).page(None).rows if r.value == 0]
    walk = queries.seen_by(Holding(frozenset(failed[:1]))).walk_items(None)
    stops = sum(w.failed for w in walk)
    assert (
        failed
        and stops
        == len(failed) - 1
        == sum(w.failed for w in queries.seen_by(OUTSIDE_REVIEW).walk_items(None)) - 1
    )
