"""THE columns of a trajectory list, each declared once: a field of `ListedTrajectory`, its type
and docstring, annotated with its `ListColumn` (how the index's row SQL reads it, where a frame
takes it from, its label and help, whether it bears a verdict, where it is shown and exported).

Everything a list is made of comes from these entries: the SELECT of a list page and the typed row
made of its answer (`select_sql`, `listed_row`), the index columns the row SQL copies (`held_sql`),
the frames' columns and types (`runs.metrics`), the app's table (`webeval_ui/trajectory_table`),
every download and `webeval export` (`export_records`), the bundle's list (`bundled_columns`) and
the columns the gate drops in a blind pass (`review.disclosure.VERDICT_COLUMNS`).

A column the index already holds (`index_columns.TRAJECTORY_COLUMNS`) is one entry here::

    layout: Annotated[str | None, held("layout")]
    \"\"\"The folder's layout.\"\"\"

A fact the index does not hold yet is first an index column (`index_columns`); a fact computed
from the judge (`computed`) names its SQL over `row_sql.ROWS`'s rows and the fact of the same
value that `metrics` computes for frames of summaries.
"""

from __future__ import annotations

import functools
import json
import math
import types
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict

from webeval_core.runs.index_columns import TRAJECTORY_COLUMNS
from webeval_core.scoring.verdicts import ABORTED, CORE_LOG_PREFIX, NO_ANSWER, TAGS

if TYPE_CHECKING:
    import pandas as pd

Kind = Literal["text", "number", "flag", "tags", "mapping"]
"""How a column's values are drawn and written: text, a number, a yes/no flag, a list of tags, a
value per name (a column each in a file)."""
Width = Literal["small", "medium", "large"]


class ListColumn(NamedTuple):
    """How one column of a list is read, named and used (the metadata of a `ListedTrajectory` field)."""

    sql: tuple[str, ...]
    """Its SQL over the rows of `row_sql.ROWS` (one expression, or those `convert` combines)."""
    fact: str | None = None
    """The fact of a frame row it is (an index column's name, or one `metrics` computes per
    judge); None: the field's own name."""
    label: str | None = None
    """Its header in the app's table; None: the field's name."""
    help: str | None = None
    """The header's tooltip."""
    convert: Callable[..., Any] | None = None
    """The list row's value from the values of `sql`; None: the one expression's value as it is."""
    verdict: bool = False
    """It shows a verdict, score or failure tag of some judge (hidden in a blind pass)."""
    shown: bool = True
    """A column of the app's trajectory table."""
    exported: bool = True
    """A column of every download of a list and of `webeval export`."""
    bundled: bool = False
    """A column of the bundle's list (`webeval bundle`)."""
    width: Width | None = None
    """Its width in the app's table (None: Streamlit's own)."""
    number_format: str | None = None
    """A number's format in the app's table ("%.2f")."""


_INDEX_DOCS = {column.name: column.doc for column in TRAJECTORY_COLUMNS}


def held(index_column: str, **named: Any) -> ListColumn:
    """A column the index holds as it is (`index_columns.TRAJECTORY_COLUMNS`); its help is the index's."""
    if index_column not in _INDEX_DOCS:
        raise ValueError(f"{index_column!r} is no column of the index (index_columns.TRAJECTORY_COLUMNS)")
    named.setdefault("help", _INDEX_DOCS[index_column])
    return ListColumn(sql=(index_column,), fact=index_column, **named)


def computed(*sql: str, **named: Any) -> ListColumn:
    """A column of what the row SQL computes (`sql` over its rows), the same fact in frames."""
    return ListColumn(sql=sql, **named)


_TAG_RANK = {tag: rank for rank, tag in enumerate(TAGS)}


def tags_of(verdict_tags: str | None, outcome: str | None, core_error: str | None) -> tuple[str, ...]:
    """A row's failure tags as a list shows them: the official verdict's tags (one a line, as the
    index stores them) and outcome tags in `TAGS` order, then core.log's error type.
    """
    tags = set(verdict_tags.split("\n")) if verdict_tags else set()
    if outcome == "no_answer":
        tags.add(NO_ANSWER)
    elif outcome == "aborted":
        tags.add(ABORTED)
    tagged = sorted((t for t in tags if t in _TAG_RANK), key=_TAG_RANK.__getitem__)
    if core_error:
        tagged.append(CORE_LOG_PREFIX + core_error)
    return tuple(tagged)


PATH_SQL = "CASE WHEN rel = '.' THEN :root_text ELSE :root_text || :sep || rel END"
"""A row's folder (`IndexStore.path_text`): the list query passes the root and separator."""

_MODEL = ConfigDict(frozen=True, extra="forbid")


class ListedTrajectory(BaseModel):
    """One row of a trajectory list; each field is a column (in the table's and the files' order)."""

    model_config = _MODEL

    run: Annotated[str, computed("run", fact="run_key", width="medium", bundled=True)]
    """The run key."""
    task_id: Annotated[str, held("task_id", label="task", help=None, width="medium", bundled=True)]
    """The task id (named ids too: alltrails_find_23)."""
    result: Annotated[
        str | None, computed("result", help="As counted in success rates", verdict=True, bundled=True)
    ]
    """The result label (`trajectory_filter.RESULTS`); None when verdicts are withheld."""
    site: Annotated[str | None, held("site", help=None, bundled=True)]
    """Site key from the catalog; None for a task it does not know."""
    task_type: Annotated[str | None, computed("task_type", label="type", bundled=True)]
    """Task type from the catalog."""
    intent: Annotated[str | None, held("intent", help=None, width="large", bundled=True)]
    """The task's intent from the catalog."""
    outcome: Annotated[str | None, held("outcome", help=None, bundled=True)]
    """Answered, no answer, aborted; None when unreadable."""
    status: Annotated[str | None, computed("status", help="WebArena-Verified verdict", verdict=True)]
    """The official verdict's status when the official evaluator is the judge used."""
    score: Annotated[float | None, computed("score", verdict=True, number_format="%.2f")]
    """The judge's raw score."""
    steps: Annotated[int, held("steps", help=None, bundled=True)]
    """Actions taken."""
    duration_s: Annotated[
        float | None, held("duration_s", label="duration (s)", help=None, number_format="%.0f", bundled=True)
    ]
    """Solver time in seconds."""
    tokens: Annotated[int | None, computed("tokens")]
    """Prompt and completion tokens; None when the folder records none (`TrajectorySummary.tokens`)."""
    tags: Annotated[
        tuple[str, ...],
        computed(
            "CASE WHEN used = :official AND judged THEN verdict_tags END",
            "outcome",
            "core_error",
            label="failure tags",
            convert=tags_of,
            verdict=True,
            bundled=True,
        ),
    ]
    """Failure tags: verdict and outcome tags in `TAGS` order, then the core.log error type."""
    answer: Annotated[str | None, held("final_answer", label="answer", help=None, width="medium")]
    """The start of the final answer."""
    intent_template: Annotated[str | None, computed("intent_template", shown=False)]
    """The intent's template from the catalog."""
    outcome_group: Annotated[str, computed("outcome_group", shown=False)]
    """Its outcome group (`trajectory_filter.OUTCOME_GROUPS`)."""
    value: Annotated[float | None, computed("value", verdict=True, shown=False, exported=False)]
    """What it adds to the success rate; None when left out."""
    counted: Annotated[
        bool, computed("value IS NOT NULL", convert=bool, verdict=True, shown=False, exported=False)
    ]
    """Whether it enters the success rate."""
    core_error: Annotated[str | None, held("core_error", shown=False)]
    """core.log's last error type."""
    path: Annotated[str, computed(PATH_SQL, shown=False)]
    """The folder."""
    key: Annotated[str, held("key", shown=False, bundled=True)]
    """The folder's key under the root (unique, unlike task_id)."""
    judge: Annotated[str | None, computed("CASE WHEN judged THEN used END", verdict=True, shown=False)]
    """The judge whose score it carries; None when unscored by any (or verdicts are withheld)."""
    judges_disagree: Annotated[bool, computed("judges_disagree", convert=bool, verdict=True, shown=False)]
    """Whether two of its judges disagree on pass or fail."""
    scores: Annotated[
        dict[str, float | None],
        computed(
            "(SELECT json_group_object(x.judge, x.score) FROM scores x WHERE x.key = rows.key)",
            convert=json.loads,
            verdict=True,
            shown=False,
        ),
    ]
    """Each judge's score by judge (a score file's stem), whichever judge the rates use; a file
    writes a column per judge (`support.row_files`)."""
    layout: Annotated[str | None, held("layout", shown=False)]
    """The folder's layout ('fara' or 'webarena-verified')."""
    screenshots: Annotated[int | None, held("screenshots", shown=False)]
    """Screenshot files in the folder."""
    prompt_tokens: Annotated[int | None, held("prompt_tokens", shown=False)]
    """LLM prompt tokens."""
    completion_tokens: Annotated[int | None, held("completion_tokens", shown=False)]
    """LLM completion tokens."""
    warnings: Annotated[int | None, held("warnings", shown=False)]
    """Problems met reading the folder."""
    unreadable: Annotated[str | None, held("unreadable", shown=False)]
    """Why the folder could not be loaded; None when it could."""
    crash_reason: Annotated[str | None, held("crash_reason", shown=False)]
    """Why its task crashed (aborted, its last attempt raised: `reading.task_state`); None otherwise."""

    def without_verdict(self) -> ListedTrajectory:
        """This row with every column that bears a verdict left out (`TrajectoryPage.withheld`): a
        text or number None, a flag False, no score; of the tags those the folder tells (its
        outcome, core.log's error type).
        """
        blank: dict[str, Any] = {"text": None, "number": None, "flag": False, "mapping": {}}
        update = {c.name: blank.get(c.kind) for c in list_columns() if c.spec.verdict}
        if "tags" in update:
            update["tags"] = tags_of(None, self.outcome, self.core_error)
        return self.model_copy(update=update)


# --- the columns, as every use reads them -----------------------------------------------------


class Column(NamedTuple):
    """One column of the list: its field's name, its declaration and what its type makes of it."""

    name: str
    """The field's name: the frame's column, the files' header, the URL-free name of the column."""
    spec: ListColumn
    """Its declaration."""
    kind: Kind
    """How its values are drawn and written."""
    dtype: str | None
    """Its pandas dtype in a frame (None: objects, a tuple of tags)."""

    @property
    def fact(self) -> str:
        """The fact of a frame row it is."""
        return self.spec.fact or self.name

    @property
    def label(self) -> str:
        """Its header in the app's table."""
        return self.spec.label or self.name


def list_columns() -> tuple[Column, ...]:
    """The columns of the list, in order (`ListedTrajectory` as this module holds it now: a test
    may put a model with one more field in its place).
    """
    return _columns_of(ListedTrajectory)


@functools.cache
def _columns_of(model: type[BaseModel]) -> tuple[Column, ...]:
    columns = []
    for name, field in model.model_fields.items():
        spec = next((m for m in field.metadata if isinstance(m, ListColumn)), None)
        if spec is None:
            raise TypeError(f"{model.__name__}.{name} has no ListColumn: how is it read?")
        kind, dtype = _kind(field.annotation)
        columns.append(Column(name, spec, kind, dtype))
    return tuple(columns)


def _kind(annotation: Any) -> tuple[Kind, str | None]:
    """What a field's type makes of its column: its kind and its frame's dtype."""
    options = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else (annotation,)
    optional = type(None) in options
    base = next(o for o in options if o is not type(None))
    if get_origin(base) is tuple:
        return "tags", None
    if get_origin(base) is dict:
        return "mapping", None
    if base is bool:
        return "flag", "bool"
    if base is int:
        return "number", "Int64" if optional else "int64"
    if base is float:
        return "number", "float64"
    return "text", "str"


def column_names() -> tuple[str, ...]:
    """Every column's name, in order (a trajectory frame's columns)."""
    return tuple(column.name for column in list_columns())


def verdict_columns() -> frozenset[str]:
    """The columns that show a verdict, score or failure tag of some judge."""
    return frozenset(column.name for column in list_columns() if column.spec.verdict)


def shown_columns() -> tuple[Column, ...]:
    """The columns of the app's trajectory table, in order."""
    return tuple(column for column in list_columns() if column.spec.shown)


def exported_columns() -> tuple[str, ...]:
    """The columns of every download of a list and of `webeval export`, in order."""
    return tuple(column.name for column in list_columns() if column.spec.exported)


def bundled_columns() -> tuple[str, ...]:
    """The columns of the bundle's list, in order."""
    return tuple(column.name for column in list_columns() if column.spec.bundled)


def frame_facts() -> tuple[str, ...]:
    """The facts a frame row is made of, in column order (`metrics`)."""
    return tuple(column.fact for column in list_columns())


def held_facts() -> tuple[str, ...]:
    """The index columns the list reads as they are (the row SQL copies each from `trajectories`)."""
    return tuple(
        dict.fromkeys(c.fact for c in list_columns() if c.spec.sql == (c.fact,) and c.fact in _INDEX_DOCS)
    )


# --- the list query's SELECT and its rows -------------------------------------------------------


def select_sql() -> str:
    """The SELECT list of a list page over the rows of `row_sql.ROWS`, in column order."""
    return ", ".join(expression for column in list_columns() for expression in column.spec.sql)


def path_params(root_text: str, sep: str) -> dict[str, str]:
    """The parameters `PATH_SQL` reads."""
    return {"root_text": root_text, "sep": sep}


def listed_row(values: Sequence[Any]) -> ListedTrajectory:
    """The typed row of one answer of `select_sql` (our own query's columns: not validated again)."""
    row: ListedTrajectory = _reader_of(ListedTrajectory)(values)
    return row


@functools.cache
def _reader_of(model: type[BaseModel]) -> Callable[[Sequence[Any]], Any]:
    """How a row of `model` is made of one answer of `select_sql`: the columns of one expression
    taken as they are in one C call, the others converted.
    """
    plain: list[tuple[str, int]] = []
    converted: list[tuple[str, int, int, Callable[..., Any]]] = []
    at = 0
    for column in _columns_of(model):
        width = len(column.spec.sql)
        if column.spec.convert is None and width == 1:
            plain.append((column.name, at))
        else:
            converted.append((column.name, at, at + width, column.spec.convert or _first))
        at += width
    names = tuple(name for name, _ in plain)
    take = itemgetter(*(position for _, position in plain))
    order = tuple(column.name for column in _columns_of(model))
    every = frozenset(order)
    new, assign = object.__new__, object.__setattr__

    def read(values: Sequence[Any]) -> Any:
        fields = dict.fromkeys(order)  # in the model's order, as its constructor leaves them
        fields.update(zip(names, take(values), strict=True))
        for name, start, stop, convert in converted:
            fields[name] = convert(*values[start:stop])
        # What `model.model_construct(**fields)` makes (test_list_columns compares them), its four
        # attributes set directly: that constructor is most of a page's time at 30 fields a row.
        row = new(model)
        assign(row, "__dict__", fields)
        assign(row, "__pydantic_fields_set__", set(every))
        assign(row, "__pydantic_extra__", None)
        assign(row, "__pydantic_private__", None)
        return row

    return read


def _first(value: Any) -> Any:
    return value


# --- what a download writes ---------------------------------------------------------------------


def export_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A trajectory frame's rows as every download and `webeval export` write them: the exported
    columns it holds, in order, then the columns it has beyond the list's (a review's), a missing
    value None.
    """
    names = set(column_names())
    exported = [c for c in exported_columns() if c in frame.columns]
    extra = [c for c in frame.columns if c not in names]
    return [
        {name: plain_cell(value) for name, value in record.items()}
        for record in frame[exported + extra].to_dict("records")
    ]


def bundle_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A trajectory frame's rows as the bundle's list holds them (its bundled columns)."""
    return [
        {name: plain_cell(value) for name, value in record.items()}
        for record in frame[list(bundled_columns())].to_dict("records")
    ]


def plain_cell(value: Any) -> Any:
    """A cell as a file says it: a missing value (None, NaN, pandas' NA) is None, a tuple a list."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, tuple | list):
        return list(value)
    if isinstance(value, dict):
        return {key: plain_cell(v) for key, v in value.items()}
    if type(value).__name__ == "NAType":
        return None
    return value.item() if hasattr(value, "item") else value


def rows_of(rows: Iterable[ListedTrajectory]) -> list[tuple[Any, ...]]:
    """Listed rows as tuples in column order (a frame is made from tuples several times faster)."""
    read = attrgetter(*column_names())  # one C call a row
    return [read(row) for row in rows]
