"""Query page: a SELECT from the URL shows its rows; a write is refused; rows naming trajectories open."""

from __future__ import annotations

from tests.app.conftest import Sample, expected

PAGE = "pages/query.py"


def test_the_example_query_runs_and_a_row_opens_its_trajectory(app, sample: Sample) -> None:
    at = app(PAGE)
    assert not at.error
    rows = at.dataframe[-1].value
    assert {"rel", "run_key", "task_id", "judge", "score"} <= set(rows.columns)
    assert len(rows) > 0
    assert "select one to open it" in " ".join(c.value for c in at.caption)


def test_a_query_from_the_url_counts_trajectories(app, sample: Sample) -> None:
    _, frame = expected(sample.root)
    at = app(PAGE, sql="SELECT COUNT(*) AS n FROM trajectories")
    rows = at.dataframe[-1].value
    assert list(rows.columns) == ["n"]
    assert rows["n"].iloc[0] == len(frame)
    assert "select one" not in " ".join(c.value for c in at.caption)


def test_a_write_is_refused_and_changes_nothing(app, sample: Sample) -> None:
    _, frame = expected(sample.root)
    at = app(PAGE, sql="DELETE FROM trajectories")
    assert "Only SELECT" in at.error[0].value
    at.text_area(key="sql").set_value("SELECT COUNT(*) AS n FROM trajectories").run()
    assert not at.error
    assert at.dataframe[-1].value["n"].iloc[0] == len(frame)
