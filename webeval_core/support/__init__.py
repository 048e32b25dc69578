"""Utilities every layer stands on: Diagnostic and UnreadableError (diagnostics), forked workers
(parallel), strict JSON, terminal text and CSV cells (safe_output), the one writer of rows per file
format (row_files: CSV, JSON lines), the facades' lazy re-exports (exports), the user's cache
folder and its `scores-written` marker (user_cache), the words every layer writes alike
(vocabulary: the missing value, a rate, a figure).

May import: nothing of the core.
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "ROW_FORMATS",
    "UNDEFINED",
    "UNKNOWN",
    "Diagnostic",
    "UnreadableError",
    "agreement_figure",
    "cache_folder",
    "finite",
    "map_in_processes",
    "percent",
    "percent_range",
    "rows_text",
    "spreadsheet_cell",
    "strict_json",
    "terminal_text",
    "unsaid_notices",
    "worker_count",
]

if TYPE_CHECKING:
    from webeval_core.support.diagnostics import Diagnostic, UnreadableError
    from webeval_core.support.parallel import map_in_processes, worker_count
    from webeval_core.support.row_files import ROW_FORMATS, rows_text
    from webeval_core.support.safe_output import finite, spreadsheet_cell, strict_json, terminal_text
    from webeval_core.support.user_cache import cache_folder, unsaid_notices
    from webeval_core.support.vocabulary import UNDEFINED, UNKNOWN, agreement_figure, percent, percent_range
else:
    __getattr__ = lazy_getattr(__name__, __file__)
