"""No two modules of the project share a name: a module's name says its one concept (`index_db`,
`annotation_db`, `score_writer`, `write_controls`, ...), so a name found in a traceback or a review
points at one file, whether it lies in the core, the app's shared package or the pages."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("webeval_core", "webeval_ui", "pages")


def test_no_two_modules_share_a_name() -> None:
    places: dict[str, list[str]] = defaultdict(list)
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            if path.name not in ("__init__.py", "__main__.py"):
                places[path.stem].append(str(path.relative_to(REPO)))
    assert len(places) > 100, "the project's modules were not found"
    assert {name: where for name, where in places.items() if len(where) > 1} == {}


def test_app_py_imports_only_streamlit_and_the_app_package() -> None:
    """app.py is not in import-linter's graph (a script, not a package): held here to the same rule."""
    lines = (REPO / "app.py").read_text(encoding="utf-8").splitlines()
    imported = {line.split()[1].split(".")[0] for line in lines if line.startswith(("import ", "from "))}
    assert imported == {"__future__", "streamlit", "webeval_ui"}
