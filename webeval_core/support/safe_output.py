"""Output that cannot be turned against its reader: strict JSON, terminal text, spreadsheet cells.

Folder names, task ids, answers and file contents are written by others. Whatever of them leaves
for a strict JSON parser, a terminal or a spreadsheet goes through one function here, so that a
NaN, an escape sequence or a formula in the input is shown as data and never acted upon.
No third-party import: the CLI uses this module on every command.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

# C0 controls (newline and tab included: one record per line), DEL, C1 controls, and the
# Unicode marks that reorder or hide the text around them (bidi overrides and isolates, line and
# paragraph separators, zero-width joiners and BOM), which can make a line read as another.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# What makes a spreadsheet read a cell as a formula (OWASP's list): `=`, `+`, `-`, `@`, tab, CR.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_text(text: object) -> str:
    r"""`text` with every control character shown as an escape (`\x1b`, `\n`, `\u202e`).

    A terminal then prints the input as it is written: no colour, title, hyperlink or cleared
    screen, and a newline in a folder name cannot start a row of its own. Backslashes are left
    as they are, so ordinary Windows paths and regexes stay readable.
    """
    return _CONTROL.sub(_visible, str(text))


def finite(value: Any) -> Any:
    """`value` (plain JSON data) with every NaN and infinite float replaced by None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite(item) for item in value]
    return value


def strict_json(payload: object, indent: int | None = None) -> str:
    """`payload` as strict JSON (RFC 8259): NaN and infinities become null, never `NaN`.

    Other objects (paths, datetimes) are written as their text, as the CLI always did.
    """
    return json.dumps(finite(payload), indent=indent, ensure_ascii=False, allow_nan=False, default=str)


def spreadsheet_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: a string starting a formula gets a leading `'`.

    Only strings are changed; numbers stay numbers (a negative score column stays numeric). A
    string that already starts with `'` and a formula character is prefixed too, so that
    `cell_from_spreadsheet` gives back exactly what was written.
    """
    if isinstance(value, str) and value.lstrip("'").startswith(_FORMULA_START):
        return "'" + value
    return value


def cell_from_spreadsheet(cell: str) -> str:
    """The text `spreadsheet_cell` made a cell from (for reading our own CSV back)."""
    return cell[1:] if cell.startswith("'") and cell.lstrip("'").startswith(_FORMULA_START) else cell


def spreadsheet_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """`spreadsheet_cell` applied to every value of a CSV row (column names are our own)."""
    return {key: spreadsheet_cell(value) for key, value in row.items()}
