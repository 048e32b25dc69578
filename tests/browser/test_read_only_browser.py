"""A read-only server bound to 0.0.0.0 (browsed through 127.0.0.1), as `webeval app --host 0.0.0.0`
starts it without sign-in: every page and every trajectory tab works in Chromium, the writing
controls say why they are absent, and afterwards the root, the annotation store (a SQLite file, or a
PostgreSQL database whose password never appears in the log or on a page) and the scores are unchanged.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from playwright.sync_api import Page

from tests.browser.conftest import ARTIFACTS, FIRST_RENDER_MS, App
from tests.browser.streamlit_server import start_server, stop_server
from tests.conftest import private_copy
from tests.harness.builders import snapshot
from tests.harness.postgres_server import PASSWORD, running_postgres
from webeval_core.policy.access import READ_ONLY_ENV, AccessPolicy, serves_read_only
from webeval_core.review import (
    OFFICIAL,
    Annotation,
    ReviewQueue,
    Stage,
    judge_verdicts,
    open_store,
    save_queue,
)
from webeval_core.runs.index import build_index
from webeval_core.runs.trajectory_filter import TrajectoryFilter
from webeval_core.runs.viewing import OUTSIDE_REVIEW
from webeval_ui.page_links import PAGE_REGISTRY
from webeval_ui.trajectory_tabs.tab_registry import TABS

HOST = "0.0.0.0"
READ_ONLY = "This server is read-only"
# Every page of the app's registry; the Trajectory page is walked tab by tab below.
PAGES = [(page.url_path, page.title) for name, page in PAGE_REGISTRY.items() if name != "trajectory"]
# What a tab shows once drawn in read-only mode, when it says something of its own.
TAB_TEXT = {"Re-score": f"{READ_ONLY}: re-scoring", "Annotate": f"{READ_ONLY}: annotations are not saved"}


def _fill(location: str, item: tuple[str, str]) -> None:
    """What a writable server left in the store: one annotation by ann and one queue."""
    store = open_store(location, AccessPolicy())
    store.add(
        Annotation(
            run=item[0],
            task_id=item[1],
            reviewer="ann",
            stage=Stage.INFORMED,
            outcome="failure",
            created=datetime(2026, 1, 1, tzinfo=UTC),
        )
    )
    save_queue(store, ReviewQueue(name="everything", stage=Stage.INFORMED, criteria=TrajectoryFilter()))
    store.close()


def _item(root: Path) -> tuple[str, str]:
    judged = judge_verdicts(build_index(root))
    return min(item for item, verdicts in judged.items() if OFFICIAL in verdicts)


def _walk(page: Page, base_url: str, item: tuple[str, str], name: str) -> list[str]:
    """Every page and every trajectory tab, as reviewer bob (named by a link); the texts seen."""
    app = App(page, base_url)
    seen: list[str] = []
    for path, title in PAGES:
        app.goto(path, app.main.locator("h1", has_text=title), reviewer="bob")
        app.assert_no_exception()
        seen.append(app.main.inner_text())
    app.goto("tasks", app.main.locator("h1", has_text="Tasks"), task="108", reviewer="bob")
    app.main.get_by_text("Propose a correction of this task").click()
    app.wait("A proposal needs a reason")
    run, task = item
    app.goto("trajectory", f"Task {task}", run=run, task=task, reviewer="bob", timeout=FIRST_RENDER_MS)
    for tab in TABS:
        app.main.get_by_role("tab", name=tab).click()
        page.wait_for_timeout(300)  # the click's rerun starts before the wait looks at the state
        # A tab's first draw loads its modules (the evaluator, the HAR reader): as patient as a first page.
        app.wait(*([TAB_TEXT[tab]] if tab in TAB_TEXT else []), timeout=FIRST_RENDER_MS)
        app.assert_no_exception()
        seen.append(app.main.inner_text())
        if tab == "Re-score":
            app.main.get_by_role("button", name="Show the verdict").click()
            page.wait_for_timeout(300)
            app.wait(re.compile(r"^score \d"))
            app.assert_no_exception()
            app.shot(f"read-only-{name}-rescore")
        if tab == "Annotate":
            app.shot(f"read-only-{name}-annotate")
    app.goto("review", app.main.locator("h1", has_text="Review"), reviewer="bob")
    app.shot(f"read-only-{name}-review")
    seen.append(page.url)
    return seen


def _server_env(store: str) -> dict[str, str]:
    # What `webeval app --host 0.0.0.0` (no --writable, no sign-in) hands its server.
    read_only = serves_read_only(HOST, read_only=False, writable=False)
    return {"WEBEVAL_ANNOTATIONS": store, READ_ONLY_ENV: "1" if read_only else "0"}


def test_a_read_only_server_on_every_address_changes_nothing(
    page: Page, runs_copy: Path, tmp_path: Path
) -> None:
    root = private_copy(runs_copy, tmp_path / "sample_runs")
    item = _item(root)
    store_file = tmp_path / "store" / "annotations.sqlite"
    store_file.parent.mkdir()
    _fill(str(store_file), item)
    before, stored = snapshot(root), store_file.read_bytes()
    process, base_url = start_server(
        root,
        tmp_path / "cache",
        ARTIFACTS / "server-read-only.log",
        host=HOST,
        extra_env=_server_env(str(store_file)),
    )
    try:
        seen = _walk(page, base_url, item, "sqlite")
    finally:
        stop_server(process)
    assert any(f"{READ_ONLY}: new queues are not saved here" in text for text in seen)
    assert snapshot(root) == before  # no score file, no index, nothing else in the root
    assert store_file.read_bytes() == stored
    # A reader of a WAL database keeps SQLite's shared-memory index beside it; its log stays empty.
    wal = store_file.with_name("annotations.sqlite-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    assert {p.name for p in store_file.parent.iterdir()} <= {
        "annotations.sqlite",
        wal.name,
        f"{store_file.name}-shm",
    }


def test_a_read_only_server_on_postgres_never_shows_its_password(
    page: Page, runs_copy: Path, tmp_path: Path
) -> None:
    root = private_copy(runs_copy, tmp_path / "sample_runs")
    item = _item(root)
    with running_postgres() as postgres:
        url = postgres.new_database()
        assert PASSWORD in url
        _fill(url, item)
        log = ARTIFACTS / "server-read-only-postgres.log"
        process, base_url = start_server(root, tmp_path / "cache", log, host=HOST, extra_env=_server_env(url))
        try:
            seen = _walk(page, base_url, item, "postgres")
        finally:
            stop_server(process)
        store = open_store(url, AccessPolicy(read_only=True))
        assert [a.reviewer for a in store.annotations(OUTSIDE_REVIEW)] == ["ann"]
        assert len(store.records("queue")) == 1
        assert store.shown(*item, "bob") == set()
        store.close()
    assert any("***" in text for text in seen)  # the Review page names the store, masked
    for text in [*seen, log.read_text(errors="replace")]:
        assert PASSWORD not in text
