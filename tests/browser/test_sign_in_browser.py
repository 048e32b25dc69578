"""Sign-in through a real OpenID Connect provider (npm `oidc-provider`, tests/harness/oidc_provider.py) in
Chromium, on a server with a roles file and a PostgreSQL store, as `webeval app --auth FILE --roles
FILE --annotations URL` starts it.

Users sign in at the provider's own login page (its discovery document, signed ID token, then
Streamlit's signed cookie): ann and bob (reviewers), vic (no role: a viewer), ops (operator). A viewer writes
nothing by any route (buttons, keys, a crafted `?reviewer=`); ann's annotation carries her verified
identity in the store; ops re-scores and ann cannot; signing out ends the session; a tampered cookie
is refused. The client secret, the cookie secret and the database password appear in no page and
no server log.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs, urlparse

import pytest
import sqlalchemy as sa
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import ARTIFACTS, FIRST_RENDER_MS, VIEWPORT, App
from tests.browser.streamlit_server import free_port, start_server, stop_server
from tests.conftest import private_copy
from tests.harness.oidc_provider import OidcProvider, require_provider, running_provider
from tests.harness.postgres_server import PASSWORD, PostgresServer, running_postgres
from webeval_core.policy.access import READ_ONLY_ENV, ROLES_ENV, SIGN_IN_ENV, AccessPolicy
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.review import (
    OFFICIAL,
    Annotation,
    ReviewQueue,
    Stage,
    judge_verdicts,
    open_store,
    queue_items,
    read_queues,
    save_queue,
)
from webeval_core.review.annotations import Revealed
from webeval_core.runs.index import build_index
from webeval_core.runs.metrics import trajectory_frame
from webeval_core.runs.trajectory_filter import TrajectoryFilter
from webeval_core.runs.viewing import OUTSIDE_REVIEW
from webeval_core.scoring.score_writer import WRITERS_FILE

ROLES = """[roles]
"ann@example.org" = "reviewer"
"bob@example.org" = "reviewer"
"ops@example.org" = "operator"
"""
SERVER_LOG = ARTIFACTS / "server-sign-in.log"
RESCORE = "Re-score with the official evaluator"
USER_COOKIE = "_streamlit_user"  # Streamlit's signed cookie of the signed-in user


@dataclass(frozen=True)
class SignInServer:
    """The app behind sign-in, and what the tests look at."""

    base_url: str
    """The app's loopback URL."""
    provider: OidcProvider
    """The provider users sign in at."""
    store: str
    """The PostgreSQL store's URL (password included)."""
    root: Path
    """The root served (a private scored copy)."""
    item: tuple[str, str]
    """A trajectory (run, task id) with an official verdict."""
    postgres: PostgresServer
    """The store's server (stopped and started mid-journey)."""


@pytest.fixture(scope="module")
def server(runs_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SignInServer]:
    require_provider()
    folder = tmp_path_factory.mktemp("sign-in")
    root = private_copy(runs_copy, folder / "sample_runs")
    judged = judge_verdicts(build_index(root))
    item = min(key for key, verdicts in judged.items() if OFFICIAL in verdicts)
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    with (
        running_postgres() as postgres,
        running_provider(base_url, ARTIFACTS / "oidc-provider.log") as provider,
    ):
        store = postgres.new_database()
        auth = folder / "auth.toml"
        auth.write_text(provider.secrets_toml(), encoding="utf-8")
        auth.chmod(0o600)
        roles = folder / "roles.toml"
        roles.write_text(ROLES, encoding="utf-8")
        env = {SIGN_IN_ENV: "1", ROLES_ENV: str(roles), READ_ONLY_ENV: "0", "WEBEVAL_ANNOTATIONS": store}
        process, _ = start_server(root, folder / "cache", SERVER_LOG, extra_env=env, port=port, secrets=auth)
        try:
            yield SignInServer(base_url, provider, store, root, item, postgres)
        finally:
            stop_server(process)


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Fresh browser contexts (each its own cookies), closed after the test."""
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def _new_page(browser: Browser, contexts: list[BrowserContext]) -> Page:
    context = browser.new_context(viewport=VIEWPORT)
    contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def _sign_in(page: Page, server: SignInServer, login: str, shot: str | None = None) -> App:
    """Sign in at the provider's login page as `login`; the app's Overview after."""
    app = App(page, server.base_url)
    page.goto(server.base_url)
    button = page.get_by_role("button", name="Sign in")
    expect(button).to_be_visible(timeout=FIRST_RENDER_MS)
    if shot:
        app.shot(shot)
    button.click()
    page.wait_for_url(re.compile(re.escape(server.provider.issuer) + "/interaction/"))
    page.locator("input[name=login]").fill(login)
    page.locator("input[name=password]").fill("anything")
    page.get_by_role("button", name="Sign-in").click()
    page.get_by_role("button", name="Continue").click()  # the consent page
    page.wait_for_url(re.compile(re.escape(server.base_url)))
    app.wait(app.main.locator("h1", has_text="Overview"), timeout=FIRST_RENDER_MS)
    return app


def _sidebar(page: Page) -> str:
    return page.locator("[data-testid='stSidebar']").inner_text()


def _open_tab(app: App, server: SignInServer, tab: str, *expected: str, **query: Any) -> None:
    run, task = server.item
    app.goto("trajectory", f"Task {task}", run=run, task=task, tab=tab, **query)
    app.wait(*expected, timeout=FIRST_RENDER_MS)
    app.assert_no_exception()


def _rows(server: SignInServer) -> list[tuple[str, str | None]]:
    store = open_store(server.store, AccessPolicy(read_only=True))
    try:
        return [(a.reviewer, a.signed_in) for a in store.annotations(OUTSIDE_REVIEW)]
    finally:
        store.close()


def _shown_to(server: SignInServer, who: str) -> int:
    engine = sa.create_engine(server.store.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            query = sa.text("SELECT count(*) FROM shown WHERE reviewer_key = :who")
            return int(connection.execute(query, {"who": who}).scalar() or 0)
    finally:
        engine.dispose()


def _press_save(app: App) -> None:
    """Choose "agent failed" with its key and save with Ctrl+Enter, as a reviewer would."""
    app.main.locator("h1").first.click()  # focus the page, not a text box
    app.page.keyboard.press("f")
    app.page.wait_for_timeout(500)
    app.page.keyboard.press("Control+Enter")
    app.page.wait_for_timeout(1500)
    app.wait()


def test_a_reviewers_annotation_carries_her_verified_identity_and_a_viewer_writes_nothing(
    server: SignInServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    ann = _sign_in(_new_page(browser, contexts), server, "ann", shot="sign-in-prompt")
    vic = _sign_in(_new_page(browser, contexts), server, "vic")
    sidebar = _sidebar(ann.page)
    assert "ann@example.org" in sidebar and "(signed in)" in sidebar and "Role: reviewer" in sidebar
    assert "Role: viewer" in _sidebar(vic.page)
    expect(ann.page.get_by_role("button", name="Sign out")).to_be_visible()
    expect(ann.page.get_by_label("Your name")).to_have_count(0)  # nothing typed names a reviewer

    # A crafted ?reviewer= names nobody: ann saves as herself.
    _open_tab(ann, server, "Annotate", "agent failed", reviewer="ops@example.org")
    ann.shot("sign-in-reviewer-annotate")
    ann.main.get_by_role("button", name="agent failed").click()
    ann.wait()
    ann.main.get_by_role("button", name=re.compile("^Save")).first.click()
    ann.wait("Annotation saved")
    assert _rows(server) == [("ann@example.org", "ann@example.org")]

    # The viewer: no save button, the reason said; keys and a crafted ?reviewer= write nothing.
    _open_tab(vic, server, "Annotate", "is a viewer here", reviewer="ann@example.org")
    vic.shot("sign-in-viewer-annotate")
    assert "vic@example.org is a viewer here" in vic.main.inner_text()
    expect(vic.main.get_by_role("button", name=re.compile("^Save"))).to_have_count(0)
    _press_save(vic)
    _open_tab(vic, server, "Re-score", "a score file needs the operator role", reviewer="ops@example.org")
    expect(vic.main.get_by_role("button", name=RESCORE)).to_have_count(0)
    vic.goto("review", vic.main.locator("h1", has_text="Review"), reviewer="ann@example.org")
    assert "Create queue" not in vic.main.inner_text()
    assert _rows(server) == [("ann@example.org", "ann@example.org")]
    assert _shown_to(server, "vic@example.org") == 0


def test_an_operator_can_rescore_and_a_reviewer_cannot(
    server: SignInServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    ann = _sign_in(_new_page(browser, contexts), server, "ann")
    _open_tab(ann, server, "Re-score", "ann@example.org is a reviewer here")
    expect(ann.main.get_by_role("button", name=RESCORE)).to_have_count(0)
    ann.shot("sign-in-reviewer-rescore")

    ops = _sign_in(_new_page(browser, contexts), server, "ops")
    _open_tab(ops, server, "Re-score", RESCORE)
    ops.main.get_by_role("button", name=RESCORE).click()
    # The sample's score file already holds this verdict: nothing is written, nor anyone recorded.
    ops.wait(ops.main.get_by_text(re.compile(r"Unchanged \(the same verdict\): scores/webarena-verified-")))
    assert not list(server.root.rglob(f"scores/{WRITERS_FILE}"))
    for stale in _official_score_files(server):  # other bytes (as an older writer's): written anew
        stale.write_bytes(stale.read_bytes() + b"\n")
    ops.main.get_by_role("button", name=RESCORE).click()
    ops.wait(ops.main.get_by_text(re.compile(r"Wrote scores/webarena-verified-.*\.json")), timeout=60_000)
    ops.shot("sign-in-operator-rescored")
    written = list(server.root.rglob(f"scores/{WRITERS_FILE}"))
    assert len(written) == 1, written
    assert written[0].read_text().count('"signed_in": "ops@example.org"') == 1


def _official_score_files(server: SignInServer) -> list[Path]:
    """The official evaluator's score files of the server's item."""
    index = build_index(server.root)
    (summary,) = [t for t in index.summaries if (t.run_key, t.task_id) == server.item]
    return sorted((server.root / summary.key / "scores").glob("webarena-verified-*.json"))


def _resigned(cookie_value: str, secret: str, age_days: float) -> str:
    """The cookie's payload signed again with `secret`, as if `age_days` ago (itsdangerous, as
    Streamlit signs it: the cookie's name is the salt)."""

    class _Then(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time() - age_days * 86400)

    payload = URLSafeTimedSerializer(secret, salt=USER_COOKIE).loads(cookie_value)
    return URLSafeTimedSerializer(secret, salt=USER_COOKIE, signer=_Then).dumps(payload)


def _reload_with(app: App, cookie: Any, value: str, shot: str) -> bool:
    """Reload with the user cookie set to `value`; whether the user is signed in after."""
    app.page.context.add_cookies([cast("Any", {**cookie, "value": value})])
    app.page.reload()
    signed_in = app.page.get_by_text("(signed in)")
    expect(app.page.get_by_role("button", name="Sign in").or_(signed_in).first).to_be_visible(
        timeout=FIRST_RENDER_MS
    )
    app.shot(shot)
    return signed_in.count() > 0


def test_sign_out_ends_the_session_and_a_tampered_or_expired_cookie_is_refused(
    server: SignInServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    app = _sign_in(_new_page(browser, contexts), server, "ann")
    (cookie,) = [c for c in app.page.context.cookies() if c["name"] == USER_COOKIE]
    secret = server.provider.cookie_secret
    # Signed again as the server signs it, a day ago: still her session (the re-signing is right).
    assert _reload_with(app, cookie, _resigned(cookie["value"], secret, 1), "sign-in-resigned-cookie")
    # The same payload signed 40 days ago (the cookie lives 30 days and a day of grace): expired.
    assert not _reload_with(app, cookie, _resigned(cookie["value"], secret, 40), "sign-in-expired-cookie")
    # Another identity signed with a key that is not the server's: a forgery.
    forged = URLSafeTimedSerializer("not-the-secret", salt=USER_COOKIE).dumps(
        '{"is_logged_in": true, "email": "ops@example.org", "sub": "ops"}'
    )
    assert not _reload_with(app, cookie, forged, "sign-in-tampered-cookie")
    assert "ops@example.org" not in app.page.inner_text("body")

    page = _sign_in(_new_page(browser, contexts), server, "ann").page
    page.get_by_role("button", name="Sign out").click()
    # Streamlit clears its cookie and sends the browser to the provider's sign-out page.
    page.wait_for_url(re.compile(re.escape(server.provider.issuer)))
    page.get_by_role("button", name="Yes, sign me out").click()
    page.wait_for_url(re.compile(re.escape(server.base_url)))
    page.goto(server.base_url)
    expect(page.get_by_role("button", name="Sign in")).to_be_visible(timeout=FIRST_RENDER_MS)
    assert not [c for c in page.context.cookies() if c["name"].startswith("_streamlit_user")]


def test_no_secret_reaches_a_page_a_url_or_the_server_log(
    server: SignInServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    app = _sign_in(_new_page(browser, contexts), server, "ops")
    seen: list[str] = []
    for path, title in (("home", "Overview"), ("review", "Review"), ("trajectories", "Trajectories")):
        app.goto(path, app.main.locator("h1", has_text=title))
        seen += [app.page.content(), app.page.url]
    _open_tab(app, server, "Annotate", "agent failed")
    seen += [app.page.content(), app.page.url]
    time.sleep(0.5)  # the server's last lines reach its log
    seen.append(SERVER_LOG.read_text(errors="replace"))
    secrets = {
        "client secret": server.provider.client_secret,
        "cookie secret": server.provider.cookie_secret,
        "database password": PASSWORD,
    }
    for name, secret in secrets.items():
        assert not [text for text in seen if secret in text], f"the {name} was shown or logged"


def _user_cookies(page: Page) -> list[Any]:
    return [c for c in page.context.cookies() if c["name"].startswith(USER_COOKIE)]


def _aged(cookie_value: str, secret: str, hours: float) -> str:
    """The cookie's payload with its sign-in time (`iat`) moved `hours` back, signed as the server signs."""
    serializer = URLSafeTimedSerializer(secret, salt=USER_COOKIE)
    payload = json.loads(serializer.loads(cookie_value))
    payload["iat"] = int(payload["iat"] - hours * 3600)
    return str(serializer.dumps(json.dumps(payload)))


def _refused_to(
    browser: Browser, contexts: list[BrowserContext], server: SignInServer, cookies: list[Any]
) -> Page:
    """A new browser given `cookies` (copied from another); it must be asked to sign in."""
    page = _new_page(browser, contexts)
    page.context.add_cookies(cookies)
    page.goto(server.base_url)
    expect(page.get_by_role("button", name="Sign in")).to_be_visible(timeout=FIRST_RENDER_MS)
    assert "(signed in)" not in page.inner_text("body")
    return page


def test_sign_out_ends_every_session_of_the_identity_copied_cookies_and_other_tabs_included(
    server: SignInServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    """Issue 34, item 3: a sign-out is recorded server-side; a copied cookie and a tab opened
    before it are signed out at their next request, and a sign-in older than the maximum age is too."""
    app = _sign_in(_new_page(browser, contexts), server, "ann")
    copied = _user_cookies(app.page)
    assert copied
    # Older than the 12 h a sign-in lasts (its iat moved back, signed with the server's key): refused.
    (cookie,) = [c for c in copied if c["name"] == USER_COOKIE]
    old = {**cookie, "value": _aged(cookie["value"], server.provider.cookie_secret, 13)}
    _refused_to(browser, contexts, server, [old]).screenshot(path=str(ARTIFACTS / "sign-out-too-old.png"))

    second = App(app.page.context.new_page(), server.base_url)  # a second tab of the same browser
    second.page.set_default_timeout(20_000)
    second.goto("trajectories", second.main.locator("h1", has_text="Trajectories"))
    assert "(signed in)" in _sidebar(second.page)
    before = _sign_outs(server)

    app.page.get_by_role("button", name="Sign out").click()
    app.page.wait_for_url(re.compile(re.escape(server.provider.issuer)))
    app.page.get_by_role("button", name="Yes, sign me out").click()
    app.page.wait_for_url(re.compile(re.escape(server.base_url)))
    assert _sign_outs(server) == before + 1  # recorded in the team's store, not only in this browser

    # The second tab's session is still open on the server: its next request signs it out.
    second.page.locator("[data-testid='stSidebar']").get_by_role("link", name="Review").click()
    expect(second.page.get_by_role("button", name="Sign in")).to_be_visible(timeout=FIRST_RENDER_MS)
    second.shot("sign-out-second-tab")
    # The cookie copied before the sign-out, in another browser: refused, and it saves nothing.
    thief = _refused_to(browser, contexts, server, copied)
    run, task = server.item
    thief.goto(f"{server.base_url}/trajectory?run={run}&task={task}&tab=Annotate")
    expect(thief.get_by_role("button", name="Sign in")).to_be_visible(timeout=FIRST_RENDER_MS)
    thief.screenshot(path=str(ARTIFACTS / "sign-out-copied-cookie.png"))
    rows = _rows(server)
    # Signing in again afterwards works: a new sign-in is newer than the sign-out.
    again = _sign_in(_new_page(browser, contexts), server, "ann")
    assert "(signed in)" in _sidebar(again.page)
    assert _rows(server) == rows


def _sign_outs(server: SignInServer) -> int:
    engine = sa.create_engine(server.store.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            query = sa.text("SELECT count(*) FROM sign_outs WHERE identity_key = 'ann@example.org'")
            return int(connection.execute(query).scalar() or 0)
    finally:
        engine.dispose()


GATE_QUEUE = "gate pass"


def _gate_queue(server: SignInServer) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """A blind queue of the scored item's run, saved as the Review page saves one: its items, and
    those of them with an official verdict."""
    criteria = TrajectoryFilter(runs=frozenset({server.item[0]}))
    queue = ReviewQueue(name=GATE_QUEUE, stage=Stage.BLIND, criteria=criteria)
    store = open_store(server.store)
    try:
        if GATE_QUEUE not in read_queues(store):
            save_queue(store, queue)
    finally:
        store.close()
    index = build_index(server.root)
    judged = judge_verdicts(index)
    items = queue_items(trajectory_frame(index, load_catalog()), queue, judged)
    return items, [i for i in items if OFFICIAL in judged.get(i, {})]


def _annotation_of(server: SignInServer, who: str, item: tuple[str, str]) -> list[Annotation]:
    store = open_store(server.store, AccessPolicy(read_only=True))
    try:
        return [a for a in store.annotations_of(*item, OUTSIDE_REVIEW) if a.reviewer == who]
    finally:
        store.close()


def _revealed_to(server: SignInServer, who: str) -> set[tuple[str, str]]:
    store = open_store(server.store, AccessPolicy(read_only=True))
    try:
        return store.revealed(who)
    finally:
        store.close()


def _press(app: App, key: str) -> None:
    app.main.locator("h1").first.click()  # the page, not a text box, has the focus
    app.wait()
    app.page.keyboard.press(key)
    app.wait()


def test_blind_means_blind_on_every_page_for_signed_in_reviewers(
    server: SignInServer, browser: Browser, contexts: list[BrowserContext]
) -> None:
    """Issue 34, items 1, 2, 5, 6, 7 and 9 as a team meets them: two reviewers and a viewer signed in
    through the provider, on the PostgreSQL store, keyboard first; the store stopped mid-journey."""
    everything, items = _gate_queue(server)
    ann = _sign_in(_new_page(browser, contexts), server, "ann")
    bob = _sign_in(_new_page(browser, contexts), server, "bob")  # no earlier test showed bob anything
    # Signing in lands on the Overview: its list shows the other runs' verdicts, and keeps blank
    # those of the blind queue bob is still to work, so landing spends none of his blind judgements.
    assert not _revealed_to(server, "bob@example.org") & set(everything)
    bob.wait("still to be judged blind")
    bob.shot("gate-landing-holds-the-blind-queue")
    _compare_before_the_pass_makes_the_save_informed(ann, server, items[0])
    _the_pass_shows_no_verdict_and_its_tools_use_none(bob, server)
    _an_outage_in_another_tab_reveals_nothing(bob, server, items[1])
    _a_revealed_item_leaves_the_pass(bob, items, len(everything))
    vic = _sign_in(_new_page(browser, contexts), server, "vic")
    vic.goto("review", "is a viewer here", queue=GATE_QUEUE)
    assert "still counts" not in vic.main.inner_text()
    expect(vic.main.get_by_role("button", name="Open next item")).to_have_count(0)
    vic.shot("gate-viewer-review")


def _compare_before_the_pass_makes_the_save_informed(
    ann: App, server: SignInServer, item: tuple[str, str]
) -> None:
    """Item 1: Compare runs showed ann the verdict before her blind pass: recorded before it was drawn."""
    ann.goto("compare", ann.main.locator("h1", has_text="Compare runs"))
    ann.wait("Tasks x runs")
    assert item in _revealed_to(server, "ann@example.org")
    ann.goto("trajectory", "agent failed", run=item[0], task=item[1], queue=GATE_QUEUE, tab="Annotate")
    assert "blind review: verdicts hidden" not in ann.main.inner_text()  # revealed: no blind pass left
    _press(ann, "f")
    # The key's run must have drawn its choice before the save is pressed (on a loaded machine the
    # page can still read idle right after a key).
    ann.wait(ann.main.locator("[data-testid='stBaseButton-primary']", has_text="agent failed"))
    _press(ann, "Control+Enter")
    ann.wait("Saved as informed")
    (row,) = _annotation_of(server, "ann@example.org", item)
    assert (row.stage, row.revealed) == (Stage.INFORMED, Revealed.VERDICT)


def _the_pass_shows_no_verdict_and_its_tools_use_none(bob: App, server: SignInServer) -> None:
    """Items 2, 7 and 9: verdict pages closed, the list and its download without verdicts, the queue
    tools with no verdict criterion, a taken queue name refused."""
    for page in ("compare", "query", "tasks", "home"):
        bob.goto(page, "this page shows verdicts, so it stays closed", queue=GATE_QUEUE)
        assert not bob.main.locator("[data-testid='stDataFrame']").count(), page
    bob.goto("trajectories", "Blind review: verdicts", queue=GATE_QUEUE)
    saved = bob.download(bob.main.get_by_role("button", name="Download these rows (CSV)"), server.root.parent)
    header = next(csv.reader(io.StringIO(saved.read_text())))
    assert {"status", "score", "tags", "result", "human", "judges_disagree"}.isdisjoint(header), header
    bob.goto("review", bob.main.locator("h1", has_text="Review"), queue=GATE_QUEUE)
    bob.main.get_by_text("New queue").click()
    bob.wait()
    form = bob.main.inner_text()
    assert "Runs" in form and "Verdicts" not in form and "Failures first" not in form
    bob.main.get_by_label("Name").fill(GATE_QUEUE)
    bob.main.get_by_label("Name").press("Enter")  # submits the form
    bob.wait("exists already")
    bob.shot("gate-queue-name-taken")


def _an_outage_in_another_tab_reveals_nothing(bob: App, server: SignInServer, item: tuple[str, str]) -> None:
    """Item 6: the store stopped while another tab opens the item outside the queue: nothing is shown,
    so the blind save after the store is back is blind."""
    tab = App(bob.page.context.new_page(), server.base_url)
    server.postgres.stop()
    try:
        tab.goto("trajectory", "Verdicts are hidden", run=item[0], task=item[1], tab="Evidence")
        tab.shot("gate-outage-nothing-revealed")
        assert "webarena-verified:" not in tab.main.inner_text()
    finally:
        server.postgres.start()
    assert item not in _revealed_to(server, "bob@example.org")
    query = {"run": item[0], "task": item[1], "queue": GATE_QUEUE, "tab": "Annotate"}
    bob.goto("trajectory", "blind review: verdicts hidden", **query)
    _press(bob, "s")
    _press(bob, "Control+Enter")
    bob.wait("Annotation saved (blind)")
    (row,) = _annotation_of(server, "bob@example.org", item)
    assert (row.stage, row.revealed) == (Stage.BLIND, Revealed.NONE)


def _a_revealed_item_leaves_the_pass(bob: App, items: list[tuple[str, str]], size: int) -> None:
    """Item 5: an item revealed outside the queue (held there until bob asks for its verdicts) is
    done, informed: the queue moves past it."""
    revealed = items[0]
    bob.goto("trajectory", "still to be judged blind", run=revealed[0], task=revealed[1], tab="Annotate")
    release = bob.main.get_by_role("button", name="Show its verdicts")
    release.focus()
    bob.page.keyboard.press("Enter")  # asked for, from the keyboard: shown, recorded, done informed
    bob.wait("Informed")
    bob.shot("gate-released-outside-the-queue")
    bob.goto("review", bob.main.locator("h1", has_text="Review"), queue=GATE_QUEUE)
    bob.wait(f"2 / {size} done by you")  # items[1] saved blind, items[0] revealed
    bob.shot("gate-review-progress")
    bob.main.get_by_role("button", name="Open next item").click()
    bob.wait("blind review: verdicts hidden")
    opened = parse_qs(urlparse(bob.page.url).query)
    assert (opened["run"][0], opened["task"][0]) not in items[:2]  # never back to a done item
