"""`webeval` on hostile input: strict JSON out, inert terminal text, CSV cells that are not formulas."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder, png_bytes, write_score, write_times

# A window-title change, a hyperlink and a screen clear: what a terminal would act upon.
TITLE = "\x1b]0;pwned\x07"
HYPERLINK = "\x1b]8;;https://example.invalid\x07click\x1b]8;;\x07"
CLEAR = "\x1b[2J\x1b[H"
# A folder whose name, printed raw, would add a row of its own to `ls`'s table.
FORGED_ROW = "evil\n  999        answered       1  success   -"


def _strict(text: str) -> object:
    def reject(name: str) -> None:
        raise AssertionError(f"not strict JSON: {name}")

    return json.loads(text, parse_constant=reject)


@pytest.fixture
def hostile_root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    fara_folder(root, "108", final_answer=f"{TITLE}{HYPERLINK}{CLEAR} done")
    fara_folder(root, FORGED_ROW + TITLE)
    formula = fara_folder(root, "=1+1", final_answer="@SUM(A1:A9)")
    write_score(formula, "judge", -1.0, "negative on purpose")
    nan = fara_folder(root, "nan")
    write_score(nan, "judge", math.nan, "NaN score")
    write_times(nan, duration=math.inf)
    return root


def test_ls_escapes_controls_and_a_newline_cannot_forge_a_row(hostile_root: Path) -> None:
    code, text = run_cli("ls", str(hostile_root))

    assert code == 0
    assert "\x1b" not in text and "\x07" not in text
    assert "evil\\n  999" in text and "\\x1b]0;pwned\\x07" in text
    assert not any(line.startswith("  999") for line in text.splitlines())
    rows = [line for line in text.splitlines() if line.startswith("  ") and "answered" in line]
    assert len(rows) == 4


def test_show_escapes_the_answer_and_the_folder(hostile_root: Path) -> None:
    code, text = run_cli("show", str(hostile_root / "108"))
    assert code == 0
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]8;;https://example.invalid\\x07click" in text

    code, text = run_cli("show", str(hostile_root / (FORGED_ROW + TITLE)))
    assert code == 0
    assert "\x1b" not in text
    assert "Folder:   " in text and "evil\\n  999" in text


def test_errors_on_stderr_are_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run_cli("show", str(tmp_path / f"missing{CLEAR}"))
    err = capsys.readouterr().err
    assert code == 1
    assert "\x1b" not in err and "missing\\x1b[2J" in err


def test_json_output_is_strict(hostile_root: Path) -> None:
    code, text = run_cli("show", str(hostile_root / "nan"), "--json")
    assert code == 0
    shown = _strict(text)
    assert isinstance(shown, dict)
    assert shown["scores"]["judge"]["score"] is None

    code, text = run_cli("ls", str(hostile_root), "--json")
    assert code == 0
    _strict(text)

    code, text = run_cli("export", str(hostile_root), "--format", "jsonl")
    assert code == 0
    rows = [_strict(line) for line in text.splitlines()]
    assert len(rows) == 4


def test_csv_cells_never_start_a_formula_and_numbers_stay_numbers(hostile_root: Path) -> None:
    code, text = run_cli("export", str(hostile_root), "--format", "csv")

    assert code == 0
    rows = list(csv.DictReader(io.StringIO(text)))
    formula = next(r for r in rows if r["task_id"].endswith("=1+1"))
    assert formula["task_id"] == "'=1+1"
    assert formula["answer"] == "'@SUM(A1:A9)"
    assert formula["path"].startswith("/")  # an absolute path is not a formula: left as it is
    assert formula["scores:judge"] == "-1.0"
    for row in rows:
        for value in row.values():
            assert _is_number(value) or not value.startswith(("=", "+", "-", "@", "\t", "\r")), value


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# Measured: ~130 MB with every screenshot a 170-megapixel PNG (pandas and Pillow loaded),
# 970 MB before the cap.
HTML_RSS_LIMIT_KB = 160 * 1024
_MEASURE = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def test_show_html_with_huge_declared_screenshots_stays_small(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path / "root", "108")
    bomb = png_bytes(10_000, 17_000)
    for screenshot in folder.glob("screenshot*.png"):
        screenshot.write_bytes(bomb)
    page = tmp_path / "page.html"
    command = [sys.executable, "-m", "webeval_core.cli", "show", str(folder), "--html", str(page)]
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}

    measured = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command], env=env, capture_output=True, text=True, check=True
    )

    assert int(measured.stdout) < HTML_RSS_LIMIT_KB, f"{int(measured.stdout) // 1024} MB"
    html = page.read_text(encoding="utf-8")
    assert "declares 10000 x 17000 pixels" not in html  # the message is drawn in the frame
    assert html.count("data:image/jpeg;base64,") == 5  # one placeholder frame per step


def _webeval(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The real command in its own process: a FIFO that blocked it would hit the timeout."""
    command = [sys.executable, "-m", "webeval_core.cli", *argv]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=240, check=False)


@pytest.mark.slow
def test_ls_score_and_show_go_through_the_whole_attack_corpus(tmp_path: Path) -> None:
    from tests.harness.hostile import hostile_root, snapshot_tree

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_DATA_HOME": str(tmp_path / "data")}
    with hostile_root(tmp_path / "corpus") as corpus:
        outside = snapshot_tree(corpus.outside)
        root = str(corpus.root)

        listed = _webeval("ls", root, "--json", env=env)
        assert listed.returncode == 0, listed.stderr
        listing = _strict(listed.stdout)
        assert isinstance(listing, dict)
        shown = {t["path"] for run in listing["runs"] for t in run["trajectories"]}
        shown |= {u["path"] for u in listing["unreadable"]}
        assert {str(folder) for folder in corpus.folders} <= shown

        scored = _webeval("score", root, "--json", "--jobs", "2", env=env)
        assert scored.returncode == 0, scored.stderr
        results = _strict(scored.stdout)
        assert isinstance(results, dict)
        by_path = {r["path"]: r for r in results["results"]}
        assert all(by_path[str(folder)]["status"] != "error" for folder in corpus.normal), by_path

        for case in ("fifo_log", "fifo_screenshot", "fifo_score", "crashed", "nan_numbers"):
            shown_case = _webeval("show", str(corpus.cases[case]), "--json", env=env)
            assert shown_case.returncode in (0, 1), shown_case.stderr
            if shown_case.returncode == 0:
                _strict(shown_case.stdout)
        assert snapshot_tree(corpus.outside) == outside
