"""The app on a remote root (Azure Blob Storage through Azurite) beside the same root on disk.

    .venv/bin/python benchmarks/bench_remote.py [--repeats 3] [--output FILE]

The scored sample runs are uploaded to an Azurite started on a free loopback port (installed by
`python3 dev.py test`, see tests/harness/azurite.py). Three servers are started: the app on the local
copy, the app on `az://runs/sample_runs`, and the bare Streamlit app of the same shape
(bench_app.py's floor). From the browser's side, each measure from navigation until the content is
on screen:

- first overview: the first visit of a just-started server (for the remote root this includes
  listing the store and fetching every small file into the mirror; for both, building the index);
- overview again, list (the Trajectories page), and the trajectory page of the sample's longest
  trajectory: the first time (for the remote root its screenshots are fetched then) and again.

Medians of the repeats, printed and written to --output (default test-artifacts/bench_remote.txt).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from benchmarks.bench_app import (
    _TEXT_SHOWN_JS,
    Target,
    _context,
    _visit,
    longest_trajectory,
    visit_overview,
    visit_trajectory,
    write_floor_app,
)
from benchmarks.synthetic_roots import prepare_sample
from dev import CHROMIUM
from tests.browser.streamlit_server import (
    CHROMIUM_ARGS,
    free_port,
    stop_server,
    wait_healthy,
)
from tests.harness.azurite import CONTAINER, require_azurite, running_azurite, upload_tree
from webeval_core.serving.server import streamlit_command

REPO = Path(__file__).resolve().parent.parent


@contextmanager
def app_server(root: str, home: Path, script: Path = REPO / "app.py") -> Iterator[str]:
    """The app (or `script`) on `root`, a folder or a URL, with caches of its own in `home`."""
    port = free_port()
    command = streamlit_command(script, "127.0.0.1", port)
    env = {
        **os.environ,
        "WEBEVAL_ROOT": root,
        "XDG_CACHE_HOME": str(home / "xdg"),
        "WEBEVAL_REMOTE_CACHE": str(home / "remote"),
    }
    home.mkdir(parents=True, exist_ok=True)
    with open(home / "server.log", "wb") as log:
        process = subprocess.Popen(command, cwd=script.parent, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, process, home / "server.log", 180)
        yield base
    finally:
        stop_server(process)


def visit_list(browser: Browser, base: str) -> float:
    context = _context(browser)
    try:
        return _visit(context, f"{base}/trajectories", _TEXT_SHOWN_JS, " trajectories", "list").shown
    finally:
        context.close()


def _timed(browser: Browser, visit: Callable[..., object], *args: object) -> float:
    context = _context(browser)
    try:
        return float(visit(context, *args).shown)  # type: ignore[attr-defined]
    finally:
        context.close()


def measure_app(browser: Browser, root: str, home: Path, target: Target) -> dict[str, float]:
    """One fresh server on `root`: the figures of one repeat, in seconds."""
    with app_server(root, home) as base:
        figures = {"first overview": _timed(browser, visit_overview, base)}
        figures["overview again"] = _timed(browser, visit_overview, base)
        figures["list"] = visit_list(browser, base)
        figures["trajectory page, first"] = _timed(browser, visit_trajectory, base, target)
        figures["trajectory page, again"] = _timed(browser, visit_trajectory, base, target)
    return figures


def measure_floor(browser: Browser, work: Path, target: Target) -> dict[str, float]:
    script = write_floor_app(work, target)
    with app_server(str(work), work / "floor-home", script) as base:
        _timed(browser, visit_overview, base)  # its first load: imports
        return {
            "overview": _timed(browser, visit_overview, base),
            "trajectory": _timed(browser, visit_trajectory, base, target),
        }


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s"


def report(
    local: list[dict[str, float]], remote: list[dict[str, float]], floor: dict[str, list[float]]
) -> str:
    lines = [f"{'measure':<26} {'local':>10} {'remote (Azurite)':>18} {'floor':>10}"]
    for measure in local[0]:
        kind = (
            "trajectory" if measure.startswith("trajectory") else "overview" if "overview" in measure else ""
        )
        lines.append(
            f"{measure:<26} {_median([r[measure] for r in local]):>10}"
            f" {_median([r[measure] for r in remote]):>18}"
            f" {(_median(floor[kind]) if kind else '-'):>10}"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=3, help="fresh servers per root")
    parser.add_argument("--output", type=Path, default=REPO / "test-artifacts" / "bench_remote.txt")
    args = parser.parse_args()
    require_azurite_or_exit()
    with tempfile.TemporaryDirectory(prefix="bench-remote-") as tmp:
        work = Path(tmp)
        sample = prepare_sample(REPO / "sample_runs", work)
        target = longest_trajectory(sample)
        (work / "azurite-data").mkdir()
        with running_azurite(work / "azurite-data") as azurite, sync_playwright() as playwright:
            started = time.perf_counter()
            files = upload_tree(azurite.connection_string, sample, "sample_runs")
            print(f"uploaded {files} files in {time.perf_counter() - started:.1f} s", flush=True)
            os.environ["AZURE_STORAGE_CONNECTION_STRING"] = azurite.connection_string
            url = f"az://{CONTAINER}/sample_runs"
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            local, remote = [], []
            floor: dict[str, list[float]] = {"overview": [], "trajectory": []}
            for repeat in range(args.repeats):
                local.append(measure_app(browser, str(sample), work / f"local-{repeat}", target))
                remote.append(measure_app(browser, url, work / f"remote-{repeat}", target))
                for kind, value in measure_floor(browser, work, target).items():
                    floor[kind].append(value)
                print(f"repeat {repeat + 1}/{args.repeats} done", flush=True)
            browser.close()
    text = (
        f"bench_remote: the sample runs ({target.steps}-step trajectory page), medians of"
        f" {args.repeats} fresh servers\n" + report(local, remote, floor)
    )
    print(text)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text + "\n")
    return 0


def require_azurite_or_exit() -> None:
    try:
        require_azurite()
    except BaseException as exc:  # pytest.skip outside pytest: say why and stop
        raise SystemExit(f"bench_remote: {exc}") from None


if __name__ == "__main__":
    sys.exit(main())
