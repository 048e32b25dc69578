"""The app on a remote root: the scored sample runs in Azure Blob Storage (Azurite), opened by URL.

The same pages as on the local copy: the overview, the list and the trajectory page with its
step screenshot, fetched from the store when shown (and the next one ahead); nothing is written
to the store.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, RENDER_MS
from tests.browser.streamlit_server import REPO, free_port, stop_server, wait_healthy
from tests.browser.test_app_browser import _image_src, _pick, _step_heading
from tests.harness.azurite import RemoteSample, azurite_sample, blob_listing
from webeval_core.runs.discovery import iter_trajectory_dirs
from webeval_core.serving.server import streamlit_command

if TYPE_CHECKING:
    from conftest import App

pytestmark = pytest.mark.browser
__all__ = ["azurite_sample"]  # the session fixture, used here by name


@pytest.fixture(scope="module")
def remote_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's caches: the summary index and the remote mirror."""
    return tmp_path_factory.mktemp("remote-app")


@pytest.fixture(scope="module")
def remote_server(azurite_sample: RemoteSample, remote_home: Path) -> Iterator[str]:
    """The app serving `az://runs/sample_runs` (WEBEVAL_ROOT is the URL, as `webeval app URL` sets it)."""
    home = remote_home
    port = free_port()
    command = streamlit_command(REPO / "app.py", "127.0.0.1", port)
    env = {
        **os.environ,
        "WEBEVAL_ROOT": azurite_sample.url,
        "XDG_CACHE_HOME": str(home / "xdg"),
        "WEBEVAL_REMOTE_CACHE": str(home / "remote"),
    }
    log = ARTIFACTS / "server-remote.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base_url, process, log, 120)
        yield base_url
    finally:
        stop_server(process)


@pytest.fixture
def remote_app(page: Page, remote_server: str) -> App:
    from conftest import App

    page.set_default_timeout(RENDER_MS)
    return App(page, remote_server)


def test_the_pages_read_the_remote_root_as_the_local_one(
    remote_app: App, azurite_sample: RemoteSample, remote_home: Path
) -> None:
    before = blob_listing(azurite_sample.azurite.connection_string, "sample_runs")
    remote_app.goto("", "Overview", "Success by site", timeout=120_000)
    sidebar = remote_app.page.locator("[data-testid='stSidebar']")
    expect(sidebar.get_by_text(f"Remote root: {azurite_sample.url}")).to_be_visible()
    remote_app.assert_app_shell()
    remote_app.assert_no_exception()
    remote_app.shot("remote-overview")

    count = sum(1 for _ in iter_trajectory_dirs(azurite_sample.local))  # of every format
    remote_app.goto("trajectories", "Trajectories", f"{count} of {count} trajectories")
    remote_app.assert_no_exception()

    stepper = _pick(azurite_sample.local, min_steps=4)
    heading = _step_heading(stepper.first_step, stepper.steps)
    remote_app.goto("trajectory", f"Task {stepper.task}", heading, run=stepper.run, task=stepper.task)
    remote_app.shot("remote-trajectory")
    assert _image_src(remote_app)
    # Fetched when shown: the frames of this trajectory only (the step, the next, the filmstrip).
    fetched = list((remote_home / "remote").rglob("*.png"))
    assert fetched
    assert {p.parent.name for p in fetched} == {stepper.path.name}
    expect(remote_app.main.get_by_text("Thought", exact=True)).to_be_visible()
    remote_app.assert_no_exception()

    remote_app.main.get_by_role("button", name="Next ▶").click()
    remote_app.wait(_step_heading(stepper.first_step + 1, stepper.steps))
    assert _image_src(remote_app)
    remote_app.assert_no_exception()
    assert blob_listing(azurite_sample.azurite.connection_string, "sample_runs") == before
