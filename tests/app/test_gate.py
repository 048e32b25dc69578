"""The gate is not optional (issue 49, point 1): every page, tab and download, opened by four viewers.

(a) a named reviewer whose blind pass has items pending, (b) a named reviewer with no queue, (c) a
viewer (a role that saves nothing), (d) nobody. Whatever verdict a page draws for (b) is in the
store's `shown` records when the page has run; nothing is drawn for (a); (c) and (d) are shown
verdicts and nothing is recorded for them. A page written here without any review call draws no
verdict: the index's queries answer none without a viewer.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import Sample
from webeval_core.review import (
    OFFICIAL,
    OTHERS_COLUMNS,
    VERDICT_COLUMNS,
    ReviewQueue,
    Stage,
    judge_verdicts,
    open_store,
    save_queue,
)
from webeval_core.runs import FAIL, PASS, run_labels
from webeval_core.runs.index import build_index
from webeval_core.runs.trajectory_filter import TrajectoryFilter
from webeval_core.scoring.verdicts import SCORING_ERROR
from webeval_ui.page_links import PAGES
from webeval_ui.state import Key
from webeval_ui.trajectory_tabs import tab_registry
from webeval_ui.trajectory_tabs.context import TabContext
from webeval_ui.trajectory_tabs.navigation import TABS

OpenPage = Callable[..., AppTest]
Item = tuple[str, str]
QUEUE = "blind all"


class Persona(NamedTuple):
    """Who opens the pages."""

    reviewer: str
    """The name in the sidebar (empty: nobody)."""
    queue: str
    """The queue worked (empty: none)."""
    viewer: bool = False
    """A role that may save nothing (roles file)."""


PERSONAS = {
    "blind reviewer": Persona("ann", QUEUE),
    "reviewer": Persona("cat", ""),
    "viewer": Persona("vic", "", viewer=True),
    "nobody": Persona("", ""),
}


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    location = str(tmp_path / "annotations.sqlite")
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", location)
    # Ann's (the blind reviewer's): open to anyone, it would hold its items for cat too (Gate.elsewhere).
    queue = ReviewQueue(name=QUEUE, stage=Stage.BLIND, criteria=TrajectoryFilter(), reviewers=("ann",))
    save_queue(open_store(location), queue)
    return location


@pytest.fixture
def open_as(
    app: OpenPage, store_file: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., AppTest]:
    """Open a page as a persona (by name), with more query parameters."""

    def make(persona: str, page: str, **query: str) -> AppTest:
        who = PERSONAS[persona]
        if who.viewer:
            roles = tmp_path / "roles.toml"
            roles.write_text('[roles]\n"ann" = "reviewer"\n"cat" = "reviewer"\n', encoding="utf-8")
            monkeypatch.setenv("WEBEVAL_ROLES", str(roles))
        named = {"reviewer": who.reviewer} if who.reviewer else {}
        worked = {"queue": who.queue} if who.queue else {}
        return app(page, **named, **worked, **query)

    return make


def _scored_item(sample: Sample) -> Item:
    judged = judge_verdicts(build_index(sample.root))
    return min(item for item, verdicts in judged.items() if OFFICIAL in verdicts)


_SHOWING = (VERDICT_COLUMNS | OTHERS_COLUMNS) - {"counted"}
_JUDGED = ("status", "score", "judge", "human")
"""Columns whose value is a judge's (or reviewers') verdict whenever it is filled."""
_VERDICT_RESULTS = frozenset({PASS, FAIL, SCORING_ERROR})
"""Results only a judge tells (aborted, no answer, unscored are the folder's)."""
_BADGE = re.compile(r"(evaluator|judge) \([^)]*\): ")
"""A judge's verdict in a trajectory's header (`verdict_badges`)."""


def drawn_verdicts(at: AppTest, sample: Sample, item: Item | None = None) -> set[Item]:
    """The trajectories whose verdict (score, tag, result, others' label) the page drew: rows of a
    table naming a run and a task beside a filled verdict column, and the header of `item`'s page.
    """
    keys = {label: key for key, label in run_labels(build_index(sample.root).runs).items()}
    drawn: set[Item] = set()
    for table in at.main.dataframe:
        drawn |= _rows_with_verdicts(table.value, keys)
    if item is not None and any(_BADGE.search(str(b.proto.body)) for b in at.main.get("badge")):
        drawn.add(item)
    return drawn


def _rows_with_verdicts(frame: pd.DataFrame, keys: dict[str, str]) -> set[Item]:
    task = next((c for c in ("task_id", "task") if c in frame.columns), None)
    if task is None or "run" not in frame.columns:
        return set()
    judged = [c for c in _JUDGED if c in frame.columns]
    filled = (frame[judged].notna() & (frame[judged].astype(str) != "")).any(axis=1)
    if "result" in frame.columns:
        filled |= frame["result"].isin(_VERDICT_RESULTS)
    for flag in ("disagree", "judges_disagree"):
        if flag in frame.columns:
            filled |= frame[flag].fillna(False).astype(bool)
    rows = frame[filled]
    return {(keys.get(str(run), str(run)), str(t)) for run, t in zip(rows["run"], rows[task], strict=True)}


def _views(sample: Sample) -> Iterator[tuple[str, dict[str, str]]]:
    """Every page of PAGES, and every tab of a scored trajectory's page, with its query."""
    item = _scored_item(sample)
    for page in sorted(PAGES):
        yield PAGES[page], {"run": item[0], "task": item[1]} if page == "trajectory" else {}
    for tab in TABS:
        yield PAGES["trajectory"], {"run": item[0], "task": item[1], "tab": tab}


VIEWS = [f"page {p}" for p in sorted(PAGES)] + [f"tab {t}" for t in TABS]


def _view(sample: Sample, view: str) -> tuple[str, dict[str, str]]:
    return dict(zip(VIEWS, _views(sample), strict=True))[view]


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("persona", sorted(PERSONAS))
def test_every_view_draws_only_what_the_gate_recorded(
    open_as: Callable[..., AppTest], sample: Sample, store_file: str, persona: str, view: str
) -> None:
    page, query = _view(sample, view)
    at = open_as(persona, page, **query)
    item = (query["run"], query["task"]) if "run" in query else None
    drawn = drawn_verdicts(at, sample, item)
    who = PERSONAS[persona]
    store = open_store(store_file)
    if persona == "blind reviewer":  # every item of the root is pending in her pass
        assert drawn == set(), f"{view} drew verdicts of pending items: {sorted(drawn)[:3]}"
        assert store.revealed(who.reviewer) == set()
    elif persona == "reviewer":
        missing = drawn - store.revealed(who.reviewer)
        assert not missing, f"{view} drew verdicts not recorded as shown: {sorted(missing)[:3]}"
    else:  # shown what everyone is shown; nothing recorded (nobody there may save a judgement)
        assert store.revealed(who.reviewer or "nobody") == set()


def test_the_overview_list_records_what_it_draws(
    open_as: Callable[..., AppTest], sample: Sample, store_file: str
) -> None:
    """Issue 49's reproduction: a reviewer named on the Overview sees its list's verdicts; they are
    recorded, so her later save from a blind queue over those items is informed."""
    at = open_as("reviewer", PAGES["overview"])
    drawn = drawn_verdicts(at, sample)
    assert drawn, "the Overview's list drew no verdict: this test would prove nothing"
    assert drawn <= open_store(store_file).revealed("cat")


@pytest.mark.parametrize("persona", sorted(PERSONAS))
def test_the_run_report_download_records_its_run(
    open_as: Callable[..., AppTest], sample: Sample, store_file: str, persona: str
) -> None:
    """The Overview's run report holds every verdict of its run: made for a named reviewer only
    once they are recorded as shown; a blind pass offers none."""
    at = open_as(persona, PAGES["overview"])
    prepare = [b for b in at.button if b.label == "Prepare run report"]
    if persona == "blind reviewer":
        assert not prepare
        return
    prepare[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [d for d in at.get("download_button") if "Download report" in str(d.proto.label)]
    run = str(at.selectbox(key=Key.REPORT_RUN).value)
    items = {(s.run_key, s.task_id) for s in build_index(sample.root).summaries if s.run_key == run}
    revealed = open_store(store_file).revealed(PERSONAS[persona].reviewer or "nobody")
    assert items <= revealed if persona == "reviewer" else revealed == set()


def _unaware_page() -> None:
    """A page written tomorrow that forgets the gate: it reads the index's queries as loaders give
    them and draws their rows, rates and charts' counts."""
    import pandas as pd
    import streamlit as st

    from webeval_core.runs import page_frame
    from webeval_ui.loaders import current_queries

    queries = current_queries()
    page = queries.page(None)
    st.dataframe(page_frame(page))
    st.dataframe(queries.frame(None))
    for run, head in queries.headlines(None, None).items():
        st.metric(run, f"{head.success_rate}")
    st.dataframe(pd.DataFrame([r.model_dump() for r in queries.results(None, None)]))
    st.dataframe(pd.DataFrame([r.model_dump() for r in queries.taxonomy(None, None)]))
    st.write(sorted(queries.tags(None)), [w.failed for w in queries.walk_items(None)])


@pytest.mark.parametrize("persona", ["reviewer", "nobody"])
def test_a_page_that_forgets_the_gate_shows_no_verdict(
    sample: Sample, store_file: str, monkeypatch: pytest.MonkeyPatch, persona: str
) -> None:
    monkeypatch.setenv("WEBEVAL_ROOT", str(sample.root))
    at = AppTest.from_function(_unaware_page, default_timeout=60)
    if PERSONAS[persona].reviewer:
        at.query_params["reviewer"] = PERSONAS[persona].reviewer
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    tables = [df.value for df in at.dataframe]
    assert len(tables[0]) == len(build_index(sample.root).summaries)  # every row, no verdict in it
    for table in tables:
        assert _SHOWING.isdisjoint(table.columns) or table.empty, list(table.columns)
    assert not at.metric  # no rate
    assert drawn_verdicts(at, sample) == set()
    assert "True" not in str(at.markdown) and "pass" not in str(at.json)
    assert open_store(store_file).revealed("cat") == set()


def test_the_reader_finds_a_drawn_verdict(sample: Sample) -> None:
    """The checks above are only as good as this: a table row with a run, a task and a verdict is
    found; one without a verdict column, or with the column empty, is not."""
    run = build_index(sample.root).runs[0]
    label = run_labels([run])[run.key]
    keys = {label: run.key}
    with_verdict = pd.DataFrame({"run": [label, label], "task_id": ["1", "2"], "result": ["pass", None]})
    assert _rows_with_verdicts(with_verdict, keys) == {(run.key, "1")}
    assert _rows_with_verdicts(pd.DataFrame({"run": [label], "task_id": ["1"], "steps": [3]}), keys) == set()


def _unaware_tab(context: TabContext) -> None:
    """A tab written tomorrow that forgets the gate (and says it bears no verdict): it draws what
    the context's trajectory holds of its verdicts, and what the context computes of them."""
    import streamlit as st

    trajectory = context.trajectory
    for name, score in sorted(trajectory.scores.items()):
        st.metric(f"score {name}", f"{score.score}")
    if trajectory.eval_result is not None:
        st.json(trajectory.eval_result)
    if trajectory.harness is not None and trajectory.harness.reward is not None:
        st.metric("harness reward", f"{trajectory.harness.reward}")
    outcome = context.live_outcome()
    if outcome is not None:
        st.metric("live verdict", outcome.status)
    for path in context.verify_reports():
        st.text(f"verify report {path}")


@pytest.fixture
def unaware_tab(monkeypatch: pytest.MonkeyPatch) -> str:
    """The tab above, added to the trajectory page's registry as a new tab would be; its label."""
    module = types.ModuleType("webeval_ui.trajectory_tabs.unaware_tab")
    module.render = _unaware_tab  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    added = (*tab_registry.TAB_REGISTRY, tab_registry.Tab("Unaware", "unaware", verdicts=False))
    monkeypatch.setattr(tab_registry, "TAB_REGISTRY", added)
    monkeypatch.setattr(tab_registry, "TABS", tuple(tab.label for tab in added))
    return "Unaware"


def _unaware_drawn(at: AppTest) -> list[str]:
    return (
        [m.label for m in at.metric]
        + [str(j.value) for j in at.json]
        + [t.value for t in at.text if t.value.startswith("verify report")]
    )


@pytest.mark.parametrize("who", ["blind reviewer", "store cannot record", "reviewer"])
def test_a_tab_that_forgets_the_gate_shows_no_verdict(
    open_as: Callable[..., AppTest],
    sample: Sample,
    unaware_tab: str,
    monkeypatch: pytest.MonkeyPatch,
    who: str,
) -> None:
    """The tab gets the trajectory only as the gate lets it through: nothing of its verdicts for a
    pending blind item or when the store cannot record them as shown; a reviewer the gate records
    (the control: the tab does draw them) sees them."""
    run, task = _scored_item(sample)
    if who == "store cannot record":  # a server that refuses every connection: nothing is recorded
        monkeypatch.setenv("WEBEVAL_ANNOTATIONS", "postgresql://nobody@127.0.0.1:9/webeval")
    at = open_as(
        "reviewer" if who != "blind reviewer" else who,
        PAGES["trajectory"],
        run=run,
        task=task,
        tab=unaware_tab,
    )
    drawn = _unaware_drawn(at)
    if who == "reviewer":
        assert any(label.startswith("score ") for label in drawn) and "live verdict" in drawn, drawn
    else:
        assert drawn == [], drawn
        assert drawn_verdicts(at, sample, (run, task)) == set()
