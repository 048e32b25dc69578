"""Every module path the docs, the READMEs and the docstrings name exists, so a pointer cannot rot.

What is looked at: each Markdown file the repository keeps, and every docstring of the project's
Python (the packages, pages/, tests/, scripts/, benchmarks/, app.py). What counts as naming a path:
- a slash path whose first folder is one of the project's (`webeval_ui/list_walk.py`,
  `runs/index_columns.TRAJECTORY_COLUMNS`, `trajectory_tabs/context.py`): the file or folder under
  any project folder of that name, then each dotted name after it defined in that module;
- a dotted name beginning with one of the project's packages (`presentation.verifier_tables`,
  `webeval_core.review.disclosure`), anywhere in the text;
- a dotted name in backticks beginning with one of the project's modules (`tones.verdict_badges`)
  or with a module it once had (from the history: such a name is stale), but a file name
  (`summary.json`) or a library's that shares a module's name (`OUTSIDE`). Other names in
  backticks are the libraries' or an example's.
A name is defined in a module by a `def`, a `class`, an assignment, an import or the `__all__` of a
lazy facade; a name after a class is looked for in the class's body.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("webeval_core", "webeval_ui", "pages", "tests", "scripts", "benchmarks")
SKIPPED_DIRS = {"node_modules", "__pycache__", "test-artifacts"}  # what tests and tools write
PACKAGES = ("webeval_core", "webeval_ui", "tests")
OUTSIDE = frozenset({"agentlab"})
"""Libraries named like one of the project's modules (AgentLab, like reading/formats/agentlab.py)."""
# File names are written with their extension (`eval_result.json`, `network.har`, `trace.network`).
FILE_ENDINGS = frozenset(
    {
        "csv", "current", "har", "html", "js", "json", "jsonl", "lock", "log", "md", "mjs", "network",
        "png", "py", "sqlite", "toml", "txt", "start_time",
    }
)  # fmt: skip

# A path followed by a placeholder (`test_<name>.py`) names no one file: left out.
_SLASH = re.compile(r"(?<![\w/.-])([a-z_][\w-]*(?:/[\w.-]*\w)+)(?!\.?[\w<{-])")
_PACKAGE_NAMES = sorted(
    {"webeval_core", "webeval_ui", "trajectory_tabs"}
    | {path.parent.name for path in (REPO / "webeval_core").glob("*/__init__.py")}
)
_PACKAGE_DOTTED = re.compile(rf"(?<![\w./-])((?:{'|'.join(_PACKAGE_NAMES)})(?:\.[A-Za-z_]\w*)+)")
_TICKED_DOTTED = re.compile(r"`([a-z_]\w*(?:\.[A-Za-z_]\w*)+)")


@cache
def _dirs() -> dict[str, list[Path]]:
    """Each folder a path may begin with, by its name: the repository's top folders and every
    Python package's (several may share a name). Other folders' names (`data/`) are too often
    those of a folder the text describes (a bundle's `data/list`) to be held to the repository.
    """
    found: dict[str, list[Path]] = {}
    for entry in REPO.iterdir():
        if entry.is_dir() and entry.name not in SKIPPED_DIRS and not entry.name.startswith("."):
            found.setdefault(entry.name, []).append(entry)
    for source in SOURCES:
        for init in (REPO / source).rglob("__init__.py"):
            if init.parent != REPO / source:
                found.setdefault(init.parent.name, []).append(init.parent)
    return found


@cache
def _modules() -> dict[str, list[Path]]:
    """Each module of the project by its stem (the packages' are unique: tests/core/test_module_names.py)."""
    found: dict[str, list[Path]] = {}
    for source in SOURCES:
        for path in (REPO / source).rglob("*.py"):
            if path.stem != "__init__":
                found.setdefault(path.stem, []).append(path)
    return found


@cache
def _ours() -> frozenset[str]:
    """The names a dotted name of the project begins with: its packages, folders and modules, and
    the modules it has deleted or renamed (a pointer to one of those is stale)."""
    changed = subprocess.run(
        ["git", "log", "--diff-filter=DR", "-M", "--name-status", "--format=", "--", *SOURCES],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    gone = {Path(line.split("\t")[1]).stem for line in changed if line.count("\t") >= 1}
    return frozenset({*PACKAGES, *_dirs(), *_modules(), *gone} - {"__init__"})


def _texts() -> Iterator[tuple[str, str]]:
    listed = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in listed:
        if not name.startswith("sample_runs/"):  # generated from scripts/samplegen's data
            yield name, (REPO / name).read_text(encoding="utf-8")
    pythons = [
        REPO / "app.py",
        *(path for source in SOURCES for path in sorted((REPO / source).rglob("*.py"))),
    ]
    for path in pythons:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                docstring = ast.get_docstring(node)
                if docstring:
                    yield f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 1)}", docstring


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _names_in(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    names: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] = node
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update({t.id: node for t in targets if isinstance(t, ast.Name)})
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value:
                names.update({e.value: node for e in ast.walk(node.value) if isinstance(e, ast.Constant)})
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update({(alias.asname or alias.name).split(".")[0]: node for alias in node.names})
        elif isinstance(node, ast.If | ast.Try):  # TYPE_CHECKING blocks, optional imports
            names.update(_names_in(node.body))
    return names


def _defined(module: Path, attributes: list[str]) -> bool:
    """Whether `attributes` (a name, then names inside it) are found in `module` (a file or package)."""
    if module.is_dir():
        first = module / attributes[0] if attributes else module
        if attributes and (first.is_dir() or first.with_suffix(".py").is_file()):
            return _defined(first if first.is_dir() else first.with_suffix(".py"), attributes[1:])
        module = module / "__init__.py"
    if not attributes:
        return module.is_file()
    body: list[ast.stmt] = _tree(module).body if module.is_file() else []
    for name in attributes:
        node = _names_in(body).get(name)
        if not isinstance(node, ast.ClassDef):
            return node is not None  # past a function, a value or an import: not followed further
        body = node.body
    return True


def _slash_path_exists(named: str) -> bool:
    if named.startswith("benchmarks/results/"):  # what a benchmark writes: it names its benchmark
        return (REPO / "benchmarks" / f"bench_{Path(named).stem}.py").is_file() or (REPO / named).exists()
    first, _, rest = named.partition("/")
    bases = list(_dirs().get(first, []))
    bases.append(REPO / "sample_runs" / first)  # the sample's own paths (its README's, the generator's)
    if first == "webarena_verified":
        spec = importlib.util.find_spec("webarena_verified")
        bases = [Path(spec.origin).parent] if spec and spec.origin else []
    for base in bases:
        whole = base / rest
        if whole.exists():
            return True
        folder, _, last = rest.rpartition("/")
        stem, *attributes = last.split(".")
        module = base / folder / stem
        if module.with_suffix(".py").is_file() and _defined(module.with_suffix(".py"), attributes):
            return True
        if module.is_dir() and _defined(module, attributes):
            return True
    return False


def _dotted_exists(named: str) -> bool:
    first, *attributes = named.split(".")
    if first in PACKAGES:
        return _defined(REPO / first, attributes)
    candidates = [path / "__init__.py" for path in _dirs().get(first, []) if (path / "__init__.py").is_file()]
    candidates += _modules().get(first, [])
    return any(
        _defined(path.parent if path.name == "__init__.py" else path, attributes) for path in candidates
    )


@cache
def _named() -> tuple[tuple[str, str], ...]:
    """Each (where, name) the texts name, as described above."""
    return tuple(_found())


def _found() -> Iterator[tuple[str, str]]:
    for where, text in _texts():
        for match in _SLASH.finditer(text):
            named = match.group(1).rstrip(".")
            if "..." not in named and named.split("/")[0] in _dirs():
                yield where, named
        dotted = [m.group(1) for m in _PACKAGE_DOTTED.finditer(text)]
        dotted += [
            m.group(1) for m in _TICKED_DOTTED.finditer(text) if m.group(1).split(".")[0] in _ours() - OUTSIDE
        ]
        for named in dotted:
            if FILE_ENDINGS.isdisjoint(named.split(".")[1:]):
                yield where, named


def _exists(named: str) -> bool:
    return _slash_path_exists(named) if "/" in named else _dotted_exists(named)


def test_the_texts_name_many_paths() -> None:
    """The test looks where the pointers are (it would pass vacuously on a pattern that finds none)."""
    named = {name for _, name in _named()}
    assert len(named) > 200
    assert {
        "webeval_ui/list_walk.py",
        "runs/index_columns.TRAJECTORY_COLUMNS",
        "tones.verdict_badges",
    } <= named


def test_every_path_named_exists() -> None:
    missing = sorted({f"{where}: {named}" for where, named in _named() if not _exists(named)})
    assert missing == []


@pytest.mark.parametrize(
    "named",
    [
        "webeval_ui/common.py",
        "cli._opened",
        "pages/walk.list_params",
        "presentation.verifier",
        "store.IndexStore",
        "runs/index_db.NoSuchThing",
        "review.disclosure.Gate.no_such_method",
    ],
)
def test_a_stale_pointer_is_found(named: str) -> None:
    assert not _exists(named)
