"""`webeval` itself: the parser built from the command modules, `--version`, the console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from webeval_core.cli import main
from webeval_core.version import __version__

ROOT = Path(__file__).resolve().parents[3]
SAMPLE_RUNS = ROOT / "sample_runs"


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"webeval {__version__}\n"


def _webeval(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webeval_core.cli", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_quick_exit_keeps_the_exit_code_and_all_the_output(tmp_path: Path) -> None:
    """`score` and `index` end without the interpreter's teardown: their output still arrives whole,
    their files are written, and a failure still exits 1."""
    root = tmp_path / "cli-run"
    shutil.copytree(SAMPLE_RUNS / "webarena-verified-cli", root)
    done = _webeval(
        "score",
        str(root),
        "--config",
        str(SAMPLE_RUNS / "webarena-verified-config.json"),
        "--json",
        "--force",
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]  # whole: flushed before the process ended
    assert len(results) == len(list(root.iterdir())) >= 5
    assert all(Path(r["path"], "scores").is_dir() for r in results)
    indexed = _webeval("index", str(root), cwd=ROOT)
    assert indexed.returncode == 0 and f"Indexed {len(results)} trajectories" in indexed.stdout
    missing = _webeval("score", str(tmp_path / "nowhere"), cwd=ROOT)
    assert missing.returncode == 1 and "nowhere" in missing.stderr


def test_the_console_script_is_run() -> None:
    script = Path(sys.executable).parent / "webeval"
    assert "import run" in script.read_text()
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, f"webeval {__version__}\n")
