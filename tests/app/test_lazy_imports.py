"""First page loads import only what the page draws (issue 12: first loads near the framework's floor).

pandas (most of a second to import), SQLAlchemy (the annotation store, a third of one) and the
remote stores' models are loaded by a server's first page only when that page needs them. Each
check runs in a fresh interpreter: the test process has them all loaded already.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.app.conftest import Sample
from webeval_core.runs.discovery import discover_runs

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("pandas", "sqlalchemy", "webeval_core.remote.stores")
_REPORT = f"import json, sys\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"


def _loaded(script: str, env: dict[str, str] | None = None) -> list[str]:
    """Which of HEAVY a fresh interpreter holds after running `script` from the repository."""
    done = subprocess.run(
        [sys.executable, "-c", script + _REPORT],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def _imports_of(page: str) -> str:
    """The module-level import statements of a page script (the page itself draws on import)."""
    tree = ast.parse((REPO / page).read_text())
    imports = [
        node
        for node in tree.body
        if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.module != "__future__")
    ]
    return ast.unparse(ast.Module(imports, []))


@pytest.mark.parametrize(
    ("page", "needed"),
    [
        ("pages/trajectory.py", []),
        # The overview's charts are built with pandas; its rates as published read the review
        # store's edits and exclusions (SQLAlchemy).
        ("pages/overview.py", ["pandas", "sqlalchemy"]),
    ],
)
def test_a_page_and_the_app_shell_import_only_what_the_page_needs(page: str, needed: list[str]) -> None:
    # What app.py and the page import before drawing anything: a top-level `import pandas` in any
    # module the trajectory page reaches, or `sqlalchemy` in one the overview reaches, fails here.
    script = "import streamlit\n" + _imports_of("app.py") + "\n" + _imports_of(page) + "\n"
    assert _loaded(script) == needed


@pytest.mark.slow
def test_a_first_trajectory_page_opens_no_annotation_store_and_no_remote_store(
    sample: Sample, tmp_path: Path
) -> None:
    # The whole first load (the legacy pages-folder run, then app.py's), in a fresh server process:
    # no review queue is worked, so the annotation store is not opened; the root is a folder.
    run = next(r for r in discover_runs(sample.root) if r.trajectory_dirs)
    script = f"""
from streamlit.testing.v1 import AppTest
at = AppTest.from_file({str(REPO / "app.py")!r}, default_timeout=120)
at.query_params["run"] = {run.key!r}
at.query_params["task"] = {run.trajectory_dirs[0].name!r}
at.switch_page("pages/trajectory.py")
at.run()
assert not at.exception, [e.value for e in at.exception]
assert any(m.value.startswith("**Step ") for m in at.markdown), "the replay was not drawn"
"""
    env = {
        "WEBEVAL_ROOT": str(sample.root),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    # pandas is loaded by the replay's requests of the step, drawn after the screenshot.
    assert [m for m in _loaded(script, env) if m != "pandas"] == []
