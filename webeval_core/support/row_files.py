"""THE writers of rows to a file, one per format (CSV, JSON lines): the app's downloads, `webeval
export`, `webeval annotations export` and `webeval report --format csv` write their rows with
them, so one list has the same columns and cells wherever it is downloaded.

A row is a mapping of column to a plain value (text, number, bool, None, or a list of texts).
A new format is one `RowFormat` in `ROW_FORMATS`: the CLI's `--format` choices and the app's
downloads read it.
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from webeval_core.support.safe_output import spreadsheet_cell, strict_json

Row = Mapping[str, Any]
"""One row: its cells by column."""

LIST_SEPARATOR = "; "
"""How a list in one cell (a row's failure tags) is written in a text cell."""


class RowFormat(NamedTuple):
    """One way of writing rows to a file."""

    name: str
    """Its name (`--format`, the file's suffix)."""
    mime: str
    """Its media type (the app's download)."""
    write: Callable[[Sequence[Row], Sequence[str]], str]
    """The rows' text, their columns in this order."""


def _csv_cell(value: Any) -> Any:
    """A cell of CSV: a list as one text, a formula-like text shown as text, numbers as numbers."""
    if isinstance(value, list | tuple):
        value = LIST_SEPARATOR.join(str(v) for v in value)
    return spreadsheet_cell(value)


def csv_text(rows: Sequence[Row], columns: Sequence[str]) -> str:
    """The rows as CSV with a header (an empty cell for None; a column of mappings, a judge's
    score by judge, as a column per name: `<column>:<name>`).
    """
    cells = [cell for column in columns for cell in _cells(rows, column)]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([header for header, _ in cells])
    writer.writerows([_csv_cell(read(row)) for _, read in cells] for row in rows)
    return buffer.getvalue()


def _cells(rows: Sequence[Row], column: str) -> list[tuple[str, Callable[[Row], Any]]]:
    """The CSV columns of one column of the rows: itself, or one per name its mappings hold."""
    values = [row.get(column) for row in rows]
    if not any(isinstance(value, Mapping) for value in values):
        return [(column, lambda row: row.get(column))]
    names = sorted({name for value in values if isinstance(value, Mapping) for name in value})
    return [(f"{column}:{name}", functools.partial(_named, column, name)) for name in names]


def _named(column: str, name: str, row: Row) -> Any:
    value = row.get(column)
    return value.get(name) if isinstance(value, Mapping) else None


def jsonl_text(rows: Sequence[Row], columns: Sequence[str]) -> str:
    """The rows as JSON lines, an object a row (strict JSON: NaN is null)."""
    return "".join(strict_json({column: row.get(column) for column in columns}) + "\n" for row in rows)


CSV = RowFormat("csv", "text/csv", csv_text)
JSONL = RowFormat("jsonl", "application/jsonl", jsonl_text)
ROW_FORMATS = {row_format.name: row_format for row_format in (CSV, JSONL)}
"""Every format rows are written in, by name."""


def columns_of(rows: Iterable[Row]) -> list[str]:
    """Every column the rows hold, in the order they first appear."""
    return list(dict.fromkeys(column for row in rows for column in row))


def rows_text(rows: Sequence[Row], fmt: str, columns: Sequence[str] | None = None) -> str:
    """The rows in format `fmt` (a name of `ROW_FORMATS`); `columns`: the header when given
    (written even without rows), else every column the rows hold.
    """
    return ROW_FORMATS[fmt].write(rows, list(columns) if columns is not None else columns_of(rows))
