"""Utilities every layer stands on: Diagnostic and UnreadableError (diagnostics), forked workers
(parallel), strict JSON, terminal text and CSV cells (safe_output), the facades' lazy re-exports
(exports).

May import: nothing of the core.
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "Diagnostic",
    "UnreadableError",
    "finite",
    "spreadsheet_cell",
]

if TYPE_CHECKING:
    from webeval_core.support.diagnostics import Diagnostic, UnreadableError
    from webeval_core.support.safe_output import finite, spreadsheet_cell
else:
    __getattr__ = lazy_getattr(__name__, __file__)
