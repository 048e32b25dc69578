"""Lazy re-exports for the package facades (PEP 562).

A facade lists its public names twice on purpose: in `__all__` (what users may import) and in an
`if TYPE_CHECKING:` block of imports (where each name lives, for type checkers and readers). At run
time nothing is imported until a name is first used, so `import webeval_core.reading.trajectory_reader` does
not pay for pandas, Pillow or the official evaluator; this module reads the same import block to
know where to fetch each name. `tests/core/test_facade.py` checks that the two lists agree.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any


def exported_modules(init_file: str | Path) -> dict[str, str]:
    """Each name imported under `if TYPE_CHECKING:` in a facade file, mapped to its module."""
    tree = ast.parse(Path(init_file).read_text(encoding="utf-8"))
    where: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module:
                    where.update({alias.asname or alias.name: statement.module for alias in statement.names})
    return where


def lazy_getattr(package: str, init_file: str) -> Callable[[str], Any]:
    """A module `__getattr__` that imports a facade's name from its module on first use."""
    where = exported_modules(init_file)

    def __getattr__(name: str) -> Any:  # noqa: N807 (the name Python looks up on a module)
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(importlib.import_module(package), name, value)  # later lookups skip this function
        return value

    return __getattr__
