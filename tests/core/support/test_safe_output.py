"""Strict JSON, terminal text and spreadsheet cells: what leaves for another program's reader."""

from __future__ import annotations

import json
import math

import pytest

from webeval_core.support.safe_output import (
    cell_from_spreadsheet,
    finite,
    spreadsheet_cell,
    spreadsheet_row,
    strict_json,
    terminal_text,
)


def _reject_constant(name: str) -> None:
    raise ValueError(f"not strict JSON: {name}")


def test_strict_json_writes_null_for_nan_and_infinities() -> None:
    payload = {"a": math.nan, "b": [math.inf, -math.inf, 1.5], "c": ({"d": math.nan},), "e": "NaN"}

    text = strict_json(payload, indent=2)

    assert json.loads(text, parse_constant=_reject_constant) == {
        "a": None,
        "b": [None, None, 1.5],
        "c": [{"d": None}],
        "e": "NaN",
    }


def test_finite_keeps_other_values() -> None:
    assert finite({"x": 1, "y": 2.5, "z": None, "w": True}) == {"x": 1, "y": 2.5, "z": None, "w": True}


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),  # a window-title change
        ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),  # a cleared screen
        ("108\n  999        answered", "108\\n  999        answered"),  # a forged row
        ("a\rb\tc", "a\\rb\\tc"),
        ("\x9b31m", "\\x9b31m"),  # C1 control sequence introducer
        ("abc\u202edcba", "abc\\u202edcba"),  # right-to-left override
        ("café ✓", "café ✓"),
    ],
)
def test_terminal_text_shows_controls_as_escapes(raw: str, shown: str) -> None:
    assert terminal_text(raw) == shown


@pytest.mark.parametrize("formula", ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx"])
def test_formula_like_strings_are_prefixed(formula: str) -> None:
    assert spreadsheet_cell(formula) == "'" + formula


def test_numbers_and_plain_strings_are_unchanged() -> None:
    row = spreadsheet_row({"score": -1.0, "steps": -3, "task": "108", "note": "a=b", "none": None})
    assert row == {"score": -1.0, "steps": -3, "task": "108", "note": "a=b", "none": None}


@pytest.mark.parametrize(
    "text", ["=1+1", "+1", "-x", "@SUM(A1)", "'=already", "''+twice", "plain", "'quoted"]
)
def test_a_cell_reads_back_as_it_was_written(text: str) -> None:
    cell = spreadsheet_cell(text)
    assert not str(cell).startswith(("=", "+", "-", "@"))
    assert cell_from_spreadsheet(cell) == text
