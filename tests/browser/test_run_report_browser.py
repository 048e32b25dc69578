"""The exported run report opens offline in Chromium and leads to each trajectory's page."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, Request, expect

from tests.browser.conftest import ARTIFACTS
from tests.conftest import Sample
from webeval_core.cli import main
from webeval_core.runs.index import build_index

if TYPE_CHECKING:
    from conftest import App

pytestmark = pytest.mark.browser


@pytest.fixture
def report(scored_sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    run = next(r for r in build_index(scored_sample.root).runs if r.model == "fara-7b")
    target = tmp_path / "report"
    argv = ["export", str(scored_sample.root), "--run", run.key, "--format", "html", "-o", str(target)]
    assert main(argv, out=io.StringIO()) == 0
    return target


def test_the_report_opens_offline_and_links_to_a_failure(page: Page, report: Path) -> None:
    requests: list[str] = []

    def record(request: Request) -> None:
        requests.append(request.url)

    page.on("request", record)
    page.goto((report / "index.html").as_uri())
    expect(page.get_by_text("Judge: the official WebArena-Verified evaluator.")).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "run-report.png"), full_page=True)

    failed_row = page.locator("tr", has=page.locator(".badge", has_text="fail")).first
    failed_row.locator("a").click()
    expect(page.get_by_role("heading", name="Expected vs actual")).to_be_visible()
    expect(page.get_by_role("heading", name="Official verdict")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "run-report-trajectory.png"))
    page.get_by_role("link", name="Run report").click()
    expect(page.get_by_role("heading", name="Headline")).to_be_visible()

    assert [url for url in requests if not url.startswith(("file://", "data:"))] == []


def test_the_overview_downloads_a_runs_report(app: App, tmp_path: Path) -> None:
    app.goto("", "Overview", "Success by site")
    app.main.get_by_role("button", name="Prepare run report").click()
    button = app.main.get_by_role("button", name=re.compile(r"Download report \(\d+(\.\d)? (MB|KB) zip\)"))
    expect(button).to_be_visible(timeout=60_000)
    app.shot("overview-run-report-download")
    archive = app.download(button, tmp_path, timeout=60_000)
    with zipfile.ZipFile(archive) as report:
        names = report.namelist()
        index = report.read("index.html").decode("utf-8")
    pages = [name for name in names if name.startswith("trajectories/")]
    assert pages and "Success by site" in index
    assert all(f'href="{name}"' in index for name in pages)
    app.assert_no_exception()
