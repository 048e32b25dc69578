"""No two modules of the core share a name: a module's name says its one concept (`index_db`,
`annotation_db`, `score_writer`, ...), so a name found in a traceback or a review points at one file."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import webeval_core


def test_no_two_core_modules_share_a_name() -> None:
    package = Path(webeval_core.__file__).parent
    places: dict[str, list[str]] = defaultdict(list)
    for path in package.rglob("*.py"):
        if path.name not in ("__init__.py", "__main__.py"):
            places[path.stem].append(str(path.relative_to(package.parent)))
    assert len(places) > 50, "the core's modules were not found"
    assert {name: where for name, where in places.items() if len(where) > 1} == {}
