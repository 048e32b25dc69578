"""queries: every count, breakdown and list computed in SQL equals the pandas path's (metrics)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import SAMPLE_RUNS, Sample
from tests.core.runs.test_index_db import SUMMARIES
from tests.core.runs.test_metrics import A, B, summary, verdict
from webeval_core.reading.task_catalog import TaskCatalog, load_catalog
from webeval_core.runs import metrics as m
from webeval_core.runs import trajectory_filter as tf
from webeval_core.runs.discovery import Run
from webeval_core.runs.index_db import IndexStore, StoredFolder, run_row
from webeval_core.runs.judges import order_judges
from webeval_core.runs.listing.list_columns import column_names
from webeval_core.runs.listing.queries import BarChoice, IndexQueries
from webeval_core.runs.refresh import refresh_index
from webeval_core.runs.viewing import OUTSIDE_REVIEW
from webeval_core.scoring import verdicts as vd
from webeval_core.support.vocabulary import UNKNOWN

# More shapes than SUMMARIES: tags the taxonomy counts, a no answer the evaluator errored on, a task
# id the catalog reads as a number (" 7"), a rubric judge below and above its mark.
EXTRA = (
    summary(A, "108", v=verdict("failure", 0.0, vd.WRONG_VALUES, vd.WRONG_TASK_TYPE), core_error="KeyError"),
    summary(A, "109", outcome="no_answer", v=verdict("error", 0.0, vd.SCORING_ERROR)),
    summary(A, "110", v=verdict("success", 1.0), scores={"mmrubric_0.8-5-3": 0.85}, steps=3),
    summary(B, " 7", v=verdict("success", 1.0), scores={"mmrubric_0.8-5-3": 0.5}, duration_s=12.5),
    summary(B, "aborted-1", outcome="aborted", core_error="TimeoutError", prompt_tokens=5),
    summary(B, "8", outcome="no_answer", scores={"gpt_eval": 1.0}),
)


@pytest.fixture(scope="module")
def catalog() -> TaskCatalog:
    return load_catalog()


@pytest.fixture
def synthetic(tmp_path: Path) -> IndexStore:
    """An index file of root /r holding test_store's SUMMARIES and EXTRA."""
    stored = IndexStore(Path("/r"), tmp_path / "cache")
    with stored.transaction() as db:
        stored.put_runs(db, [run_row(Run(key=key, path=Path("/r") / key), key) for key in (A, B)])
        rows = [(s.key, StoredFolder(1, -1, None, True), s) for s in (*SUMMARIES, *EXTRA)]
        stored.put_summaries(db, rows)
    return stored


@pytest.fixture(scope="module")
def sample_store(scored_sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> IndexStore:
    """The index of the scored copy of sample_runs/ (official verdicts beside the sample's judges)."""
    store = IndexStore(scored_sample.root, tmp_path_factory.mktemp("cache"))
    refresh_index(store, workers=1)
    return store


def _judges(store: IndexStore) -> list[str | None]:
    return [None, *order_judges(store.judges())]


def assert_same(store: IndexStore, catalog: TaskCatalog, judge: str | None) -> None:
    """Every figure of `queries` equals the pandas path's over the same index and judge."""
    frame = m.stored_frame(store, catalog, judge)
    queries = IndexQueries(store, catalog, viewer=OUTSIDE_REVIEW)
    runs = sorted(set(frame["run"]))
    assert queries.headlines(None, judge) == {run: m.headline(frame[frame["run"] == run]) for run in runs}
    assert queries.headline(None, judge) == m.headline(frame)
    assert queries.headline(runs[:1], judge) == m.headline(frame[frame["run"] == runs[0]])
    for by in ("site", "task_type", "intent_template"):
        expected = m.breakdown(frame, by).sort_values(["run", by], kind="stable")
        got = [
            (r.run, r.value, r.trajectories, r.counted, r.passed, r.success_rate)
            for r in queries.breakdown(None, judge, by)
        ]
        assert got == [
            (run, value, n, c, p, None if pd.isna(rate) else pytest.approx(rate))
            for run, value, n, c, p, rate in expected.itertuples(index=False)
        ]
    # In the pandas path's order, run by run (results: in RESULTS order, like outcome groups).
    results = frame.groupby(["run", "result"]).size().reset_index()
    rank = {name: i for i, name in enumerate(tf.RESULTS)}
    results = results.sort_values(["run", "result"], key=lambda c: c.map(rank) if c.name == "result" else c)
    assert [(r.run, r.value, r.trajectories) for r in queries.results(None, judge)] == list(
        results.itertuples(index=False, name=None)
    )
    # The taxonomy in its order: verdict and outcome tags, then core.log types; most frequent first.
    taxonomy = [(r.run, r.value, r.trajectories) for r in queries.taxonomy(None, judge)]
    assert taxonomy == list(m.taxonomy(frame).itertuples(index=False, name=None))

    assert list(queries.tags(judge)) == m.tag_options(frame)
    for measure in ("steps", "duration_s", "tokens"):
        stats = frame.groupby("run")[measure].agg(["count", "mean", "min", "median", "max"]).reset_index()
        got_stats = [
            (s.run, s.count, s.mean, s.min, s.median, s.max)
            for s in queries.distribution(None, judge, measure)
        ]
        assert got_stats == [
            (run, n, *(None if pd.isna(v) else pytest.approx(v) for v in (mean, low, mid, high)))
            for run, n, mean, low, mid, high in stats.itertuples(index=False)
        ]
    assert_same_list(queries, frame, judge, tf.TrajectoryFilter())


def assert_same_list(
    queries: IndexQueries, frame: pd.DataFrame, judge: str | None, criteria: tf.TrajectoryFilter
) -> None:
    """A paged list of `criteria` holds the rows `filter_frame` keeps, in frame order, all columns."""
    expected = m.filter_frame(frame, criteria)
    assert queries.headline(None, judge, criteria) == m.headline(expected)
    page = queries.page(judge, criteria)
    assert page.total == len(expected)
    got = pd.DataFrame([row.model_dump() for row in page.rows], columns=list(column_names()))
    pd.testing.assert_frame_equal(
        got.astype(expected.dtypes.to_dict()), expected.reset_index(drop=True), check_dtype=False
    )
    # The pages' frame of those rows (pandas over the SQL's answer) is the same (an empty frame's
    # number columns are typed by no value).
    got_frame = queries.frame(judge, criteria)
    pd.testing.assert_frame_equal(
        got_frame, expected.reset_index(drop=True), check_dtype=got_frame.empty is False
    )
    walk = queries.walk_items(judge, criteria)
    assert [w.key for w in walk] == expected["key"].tolist()
    assert [w.failed for w in walk] == (expected["counted"] & (expected["value"] < 1)).tolist()
    # A list named key by key keeps those of its keys the criteria keep, in the list's order.
    some = set(expected["key"].tolist()[::3])
    named = queries.walk_items(judge, criteria.model_copy(update={"keys": frozenset(some | {"no/such"})}))
    assert [w.key for w in named] == [k for k in expected["key"].tolist() if k in some]


@pytest.mark.parametrize("judge", [None, "official", "gpt_eval", "mmrubric_0.8", "mmrubric_0.8-5-3"])
def test_a_synthetic_index_counts_as_the_pandas_path(
    synthetic: IndexStore, catalog: TaskCatalog, judge: str | None
) -> None:
    assert_same(synthetic, catalog, judge)


def test_the_sample_runs_count_as_the_pandas_path(sample_store: IndexStore, catalog: TaskCatalog) -> None:
    assert len(_judges(sample_store)) > 2  # the official evaluator and the sample's own judges
    for judge in _judges(sample_store):
        assert_same(sample_store, catalog, judge)


def test_without_a_catalog_task_types_are_unknown_and_sites_come_from_the_index(
    synthetic: IndexStore,
) -> None:
    queries = IndexQueries(synthetic, None, viewer=OUTSIDE_REVIEW)
    rows = queries.breakdown(None, None, "task_type")
    assert {r.value for r in rows} == {UNKNOWN}
    assert sum(r.trajectories for r in rows) == len(SUMMARIES) + len(EXTRA)
    # The index holds each WebArena-Verified task's site (runs/index_columns.py), whatever catalog
    # the queries are given.
    with_catalog = IndexQueries(synthetic, load_catalog(), viewer=OUTSIDE_REVIEW).breakdown(
        None, None, "site"
    )
    assert queries.breakdown(None, None, "site") == with_catalog


FILTERS = (
    tf.TrajectoryFilter(runs=frozenset({B})),
    tf.TrajectoryFilter(sites=frozenset({UNKNOWN})),
    tf.TrajectoryFilter(results=frozenset({tf.PASS, vd.NO_ANSWER}), runs=frozenset({A})),
    tf.TrajectoryFilter(outcome_groups=frozenset({tf.ANSWERED})),
    tf.TrajectoryFilter(statuses=frozenset({"failure", UNKNOWN})),
    tf.TrajectoryFilter(tags=frozenset({vd.WRONG_VALUES, vd.ABORTED})),
    tf.TrajectoryFilter(tags=frozenset({vd.CORE_LOG_PREFIX + "TimeoutError"})),
    tf.TrajectoryFilter(text="12 OPEN"),
    tf.TrajectoryFilter(text="7"),
    tf.TrajectoryFilter(judges_disagree=True),
    tf.TrajectoryFilter(task_types=frozenset({"retrieve"}), intent_templates=frozenset({UNKNOWN})),
)


@pytest.mark.parametrize("criteria", FILTERS, ids=range(len(FILTERS)))
def test_filtered_lists_are_the_filtered_frame(
    synthetic: IndexStore, catalog: TaskCatalog, criteria: tf.TrajectoryFilter
) -> None:
    for judge in (None, "gpt_eval"):
        assert_same_list(
            IndexQueries(synthetic, catalog, viewer=OUTSIDE_REVIEW),
            m.stored_frame(synthetic, catalog, judge),
            judge,
            criteria,
        )


def test_the_sample_filtered_by_text_and_site(sample_store: IndexStore, catalog: TaskCatalog) -> None:
    frame = m.stored_frame(sample_store, catalog, None)
    site = str(frame["site"].dropna().iloc[0])
    intent_word = str(frame["intent"].dropna().iloc[0]).split()[1].upper()
    for criteria in (tf.TrajectoryFilter(sites=frozenset({site})), tf.TrajectoryFilter(text=intent_word)):
        assert len(m.filter_frame(frame, criteria)) > 0
        assert_same_list(IndexQueries(sample_store, catalog, viewer=OUTSIDE_REVIEW), frame, None, criteria)


def test_pages_split_the_list_and_keep_its_total(synthetic: IndexStore, catalog: TaskCatalog) -> None:
    queries = IndexQueries(synthetic, catalog, viewer=OUTSIDE_REVIEW)
    whole = queries.page(None).rows
    pages = [queries.page(None, offset=start, limit=4) for start in range(0, len(whole), 4)]
    assert [row for p in pages for row in p.rows] == list(whole)
    assert {p.total for p in pages} == {len(whole)}
    beyond = queries.page(None, offset=len(whole) + 10, limit=4)
    assert beyond.rows == () and beyond.total == len(whole)


def test_clicked_bars_keep_one_bar_of_every_chart(synthetic: IndexStore, catalog: TaskCatalog) -> None:
    queries = IndexQueries(synthetic, catalog, viewer=OUTSIDE_REVIEW)
    results = [
        BarChoice(run=A, field="results", value=tf.PASS),
        BarChoice(run=B, field="results", value=tf.FAIL),
    ]
    tags = [BarChoice(run=A, field="tags", value=vd.CORE_LOG_PREFIX + "KeyError")]
    either = {r.key for r in queries.page(None, bars=[results]).rows}
    frame = m.stored_frame(synthetic, catalog, None)
    expected = set(frame[(frame["run"] == A) & (frame["result"] == tf.PASS)]["key"]) | set(
        frame[(frame["run"] == B) & (frame["result"] == tf.FAIL)]["key"]
    )
    assert either == expected and either
    tagged = {r.key for r in queries.page(None, bars=[tags]).rows}
    assert tagged == {f"{A}/108"}
    assert {r.key for r in queries.page(None, bars=[results, tags]).rows} == either & tagged


@pytest.mark.parametrize("judge", [None, "gpt_eval"])
def test_a_few_runs_asked_first_count_as_in_every_run_s_rows(
    synthetic: IndexStore, catalog: TaskCatalog, judge: str | None
) -> None:
    frame = m.stored_frame(synthetic, catalog, judge)
    fresh = IndexQueries(
        synthetic, catalog, viewer=OUTSIDE_REVIEW
    )  # no table yet: B's rows alone are made first
    only_b = frame[frame["run"] == B]
    assert fresh.headlines([B], judge) == {B: m.headline(only_b)}
    assert_same_list(fresh, frame, judge, tf.TrajectoryFilter(runs=frozenset({B}), judges_disagree=True))
    assert_same_list(fresh, frame, judge, tf.TrajectoryFilter(runs=frozenset({B})))
    assert fresh.headlines(None, judge) == {run: m.headline(part) for run, part in frame.groupby("run")}
    assert fresh.headline([A], judge) == m.headline(frame[frame["run"] == A])


def test_after_a_few_choices_of_runs_every_run_s_rows_are_read(
    synthetic: IndexStore, catalog: TaskCatalog
) -> None:
    frame = m.stored_frame(synthetic, catalog, None)
    fresh = IndexQueries(synthetic, catalog, viewer=OUTSIDE_REVIEW)
    for _ in range(3):  # the same choices again and again: one table each, then every run's
        for runs in ([A], [B], [A, B], [B, A]):
            expected = m.headline(frame[frame["run"].isin(runs)])
            assert fresh.headline(runs, None) == expected


def test_the_run_of_a_key(synthetic: IndexStore) -> None:
    queries = IndexQueries(synthetic, None, viewer=OUTSIDE_REVIEW)
    assert queries.run_of(f"{B}/8") == B
    assert queries.run_of("no/such/key") is None


def test_an_unknown_breakdown_is_refused(synthetic: IndexStore) -> None:
    with pytest.raises(ValueError, match="no breakdown"):
        IndexQueries(synthetic, None, viewer=OUTSIDE_REVIEW).breakdown(
            None, None, "intent; DROP TABLE trajectories"
        )


def test_the_repository_sample_is_never_written(sample_store: IndexStore) -> None:
    assert sample_store.root != SAMPLE_RUNS  # the index is of the scored copy


def test_failure_codes_counted_by_category_and_code_and_filtered(tmp_path: Path) -> None:
    judge = "mmrubric_0.8-5-3"
    coded = (
        summary(A, "1", scores={judge: 0.0}, failure_codes={judge: ("2.3", "2.1", "7.1")}),
        summary(A, "2", scores={judge: 0.0}, failure_codes={judge: ("3.2.1",), "gpt_eval": ("2.3",)}),
        summary(B, "1", scores={judge: 1.0}),
        summary(B, "2", scores={judge: 0.0}, failure_codes={judge: ("2.4",)}),
    )
    stored = IndexStore(Path("/r"), tmp_path / "cache")
    with stored.transaction() as db:
        stored.put_runs(db, [run_row(Run(key=key, path=Path("/r") / key), key) for key in (A, B)])
        stored.put_summaries(db, [(s.key, StoredFolder(1, -1, None, True), s) for s in coded])
    queries = IndexQueries(stored, None, viewer=OUTSIDE_REVIEW)
    by_category = [(r.run, r.judge, r.code, r.trajectories) for r in queries.failure_codes(None, judge)]
    assert by_category == [
        (A, "gpt_eval", "2", 1),
        (A, judge, "2", 1),  # two codes of category 2 in one trajectory: counted once
        (A, judge, "3", 1),
        (A, judge, "7", 1),
        (B, judge, "2", 1),
    ]
    by_code = [
        (r.run, r.code) for r in queries.failure_codes([A], judge, by_category=False) if r.judge == judge
    ]
    assert by_code == [(A, "2.1"), (A, "2.3"), (A, "3.2.1"), (A, "7.1")]
    pooled = queries.failure_codes(None, judge, pool="all")
    assert {(r.judge, r.code): r.trajectories for r in pooled}[judge, "2"] == 2

    def listed(**kw: object) -> list[str]:
        page = queries.page(judge, tf.TrajectoryFilter(**kw))  # type: ignore[arg-type]
        return [row.key for row in page.rows]

    assert listed(failure_codes={f"{judge}: 2 Hallucination"}) == [f"{A}/1", f"{B}/2"]
    assert listed(failure_codes={f"{judge}:3.2"}) == [f"{A}/2"]  # 3.2 keeps 3.2.1
    assert listed(failure_codes={"gpt_eval: 2 Hallucination"}) == [f"{A}/2"]  # judges apart
    bars = [[BarChoice(run=B, field="failure_codes", value=f"{judge}:2")]]
    assert [r.key for r in queries.page(judge, bars=bars).rows] == [f"{B}/2"]
    with stored.transaction() as db:
        stored.drop_trajectories(db, [f"{A}/1"])
    assert (
        IndexQueries(stored, None, viewer=OUTSIDE_REVIEW).failure_codes([A], judge, by_category=False)[0].code
        == "2.3"
    )  # gpt_eval's
