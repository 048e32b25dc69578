"""The pages' view of an index file: runs' heads at once, a run's folders and summaries when asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.runs.test_index_db import summaries_store
from tests.core.runs.test_metrics import A, B
from webeval_core.runs.index_db import IndexStore
from webeval_core.runs.view import IndexView


@pytest.fixture
def store(tmp_path: Path) -> IndexStore:
    return summaries_store(tmp_path)


def test_a_view_reads_one_run_at_a_time(store: IndexStore) -> None:
    view = IndexView(store)
    assert view.summaries_of(B) == store.summaries(B)
    assert view.summaries_of("no such run") == ()
    assert view.run(A) is not None and view.run(A).trajectory_dirs[1] == Path("/r") / A / "1"  # type: ignore[union-attr]
    report = view.root_index([B])
    assert [r.key for r in report.runs] == [B] and report.summaries == store.summaries(B)


def test_a_view_reads_folders_only_when_asked(store: IndexStore) -> None:
    view = IndexView(store)
    assert "runs" not in vars(view)  # made on first use: a page of one trajectory never needs them
    assert view.run_heads == store.run_heads()
    assert view.run(B) == store.run(B)
    assert view.runs == store.runs() and view.counts == store.counts()
    assert [s.key for s in view.summaries] == [s.key for s in store.summaries()]
