"""No module of the core passes 600 lines: one that grows past it is split by concept."""

from __future__ import annotations

from pathlib import Path

import webeval_core

LIMIT = 600


def test_no_core_module_passes_600_lines() -> None:
    package = Path(webeval_core.__file__).parent
    sizes = {
        str(path.relative_to(package.parent)): len(path.read_text(encoding="utf-8").splitlines())
        for path in package.rglob("*.py")
    }
    assert sizes, "no module found"
    assert {name: lines for name, lines in sizes.items() if lines > LIMIT} == {}
