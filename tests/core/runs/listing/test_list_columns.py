"""The list's columns, each one entry of `ListedTrajectory`: what the entries make."""

from __future__ import annotations

from typing import Annotated

import pytest

from webeval_core.review.disclosure import VERDICT_COLUMNS
from webeval_core.runs.index_columns import TRAJECTORY_COLUMNS
from webeval_core.runs.listing import list_columns
from webeval_core.runs.listing.list_columns import ListedTrajectory, computed, held


def test_a_held_column_must_be_one_the_index_holds() -> None:
    assert held("screenshots").help == {c.name: c.doc for c in TRAJECTORY_COLUMNS}["screenshots"]
    with pytest.raises(ValueError, match="no column of the index"):
        held("screenshot_count")


def test_a_field_without_its_column_declaration_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    class Undeclared(ListedTrajectory):
        extra: int
        """A field no `ListColumn` says how to read."""

    monkeypatch.setattr(list_columns, "ListedTrajectory", Undeclared)
    with pytest.raises(TypeError, match=r"Undeclared\.extra has no ListColumn"):
        list_columns.list_columns()


def test_each_field_is_one_column_in_order_its_type_making_its_kind() -> None:
    columns = {c.name: c for c in list_columns.list_columns()}
    assert list(columns) == list(ListedTrajectory.model_fields)
    kinds = {name: (c.kind, c.dtype) for name, c in columns.items()}
    assert kinds["intent"] == ("text", "str")
    assert kinds["tokens"] == ("number", "Int64")  # missing where the folder records none
    assert kinds["score"] == ("number", "float64")
    assert kinds["judges_disagree"] == ("flag", "bool")
    assert kinds["tags"] == ("tags", None)
    assert kinds["scores"] == ("mapping", None)
    assert columns["answer"].fact == "final_answer" and columns["task_id"].label == "task"


def test_the_row_sql_copies_every_held_column_and_a_page_selects_each_columns_sql() -> None:
    from webeval_core.runs.listing.row_sql import rows_sql

    sql = rows_sql()
    assert all(f"t.{fact}" in sql for fact in list_columns.held_facts())
    assert "t.layout" in sql and "t.summary" not in sql  # only what a column reads
    expressions = [e for c in list_columns.list_columns() for e in c.spec.sql]
    assert list_columns.select_sql() == ", ".join(expressions)


def test_the_gate_drops_the_columns_that_bear_a_verdict() -> None:
    verdicts = list_columns.verdict_columns()
    assert {"result", "status", "score", "tags", "scores"} <= verdicts
    assert verdicts <= VERDICT_COLUMNS
    assert not {"run", "task_id", "intent", "steps"} & verdicts


def test_a_computed_column_takes_its_fact_by_name() -> None:
    column = computed("CASE WHEN judged THEN used END", shown=False)
    assert column.sql == ("CASE WHEN judged THEN used END",) and column.fact is None

    class WithJudge(ListedTrajectory):
        judge_again: Annotated[str | None, computed("used", fact="judge", shown=False)]
        """The judge used, again."""

    (added,) = [c for c in list_columns._columns_of(WithJudge) if c.name == "judge_again"]
    assert added.fact == "judge"


def test_a_listed_row_is_what_the_models_constructor_makes() -> None:
    columns = list_columns.list_columns()
    values: list[object] = []
    expected: dict[str, object] = {}
    for number, column in enumerate(columns):
        if column.name == "tags":
            values += ["agent_response.task_type_mismatch", "no_answer", "Timeout"]
            expected["tags"] = list_columns.tags_of(*values[-3:])
        elif column.name == "scores":
            values.append('{"rubric": 0.5}')
            expected["scores"] = {"rubric": 0.5}
        elif column.spec.convert is bool:
            values.append(1)
            expected[column.name] = True
        elif column.kind == "number":
            values.append(float(number) if column.dtype == "float64" else number)
            expected[column.name] = values[-1]
        else:
            values.append(f"value {number}")
            expected[column.name] = f"value {number}"

    row = list_columns.listed_row(values)

    made = ListedTrajectory.model_construct(**expected)
    assert row == made
    assert row.model_dump() == made.model_dump()
    assert list(vars(row)) == list(vars(made)) == list(ListedTrajectory.model_fields)
    assert row.model_fields_set == made.model_fields_set
    assert row.tags[-1] == "core.log: Timeout"


def test_docs_name_every_exported_column_in_order() -> None:
    """docs/researchers.md says what `webeval export` writes: the list's exported columns."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[4] / "docs" / "researchers.md").read_text(encoding="utf-8")
    said = text[text.index("`export --format csv|jsonl` writes") :].split("### ", 1)[0]
    positions = [said.find(f"`{name}`") for name in list_columns.exported_columns()]
    assert -1 not in positions and positions == sorted(positions)
