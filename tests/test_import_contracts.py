"""The import contracts break on a breach, not only keep on the tree as it is (`lint-imports` in
dev.py's checks): a command that imports a module inside a layer, past its facade, is planted in a
copy of the packages and the `cli-facades` contract names it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "tree"
    for package in ("webeval_core", "webeval_ui", "pages"):
        shutil.copytree(REPO / package, copy / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
    return copy


def _lint(tree: Path, contract: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", "--contract", contract],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_command_importing_past_a_facade_breaks_the_cli_contract(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    planted = "from webeval_core.review.store_opener import open_annotations\n"
    (tree / "webeval_core" / "cli" / "planted_command.py").write_text(planted, encoding="utf-8")
    linted = _lint(tree, "cli-facades")
    assert linted.returncode != 0, linted.stdout
    assert "webeval_core.cli.planted_command -> webeval_core.review.store_opener" in linted.stdout
    assert "1 broken" in linted.stdout
