"""AppTest of the Universal Verifier in full: the Judges tab on a score file written by hand from
the reference (every field shown, each code named), a failure point opening the replay at its
step, the replay's flagged steps, the run report's rows and differences, an older generation, and
the overview's error-taxonomy charts filtering the list."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.test_overview import click, figure, table
from tests.harness.verifier_files import (
    EXAMPLE_SHAPED_REASONING,
    EXAMPLE_SHAPED_RESPONSE,
    HAND_WRITTEN_CODES,
    HAND_WRITTEN_RESPONSE,
    JUDGE,
    OLDER_RESPONSE,
    RUN,
    SECOND,
    TASK,
    strings_of,
    verifier_root,
)
from webeval_core.reading.taxonomy import code_label
from webeval_ui.state import failure_table_key, flag_key
from webeval_ui.untrusted import inert

PAGE = "pages/trajectory.py"
OpenPage = Callable[..., AppTest]


def _shown(at: AppTest) -> str:
    """Every text the page drew: texts, captions, Markdown, warnings, and table and grid cells."""
    parts: list[Any] = [e.value for kind in ("text", "caption", "markdown", "warning") for e in at.get(kind)]
    for grid in (*at.table, *at.dataframe):
        parts.extend(grid.value.to_numpy().ravel())
    return "\n".join(map(str, parts))


def test_every_field_of_the_hand_written_file_is_shown_with_codes_named(
    app: OpenPage, tmp_path: Path
) -> None:
    at = app(PAGE, verifier_root(tmp_path), run=RUN, task=TASK, tab="Judges")
    shown = _shown(at)
    # st.table renders Markdown, so its cells are escaped; grids and st.text show the text itself.
    missing = [
        s for s in strings_of(json.loads(HAND_WRITTEN_RESPONSE)) if s not in shown and inert(s) not in shown
    ]
    assert missing == []
    assert inert("decided by both verdicts, ANDed (success_criterion: both)") in shown
    for code in HAND_WRITTEN_CODES:
        assert code_label(code) in shown or inert(code_label(code)) in shown, code
    assert "violated" in shown and "no permission · info provided · task specified" in shown
    assert not at.exception


def test_a_failure_point_opens_the_replay_at_its_step(app: OpenPage, tmp_path: Path) -> None:
    at = app(PAGE, verifier_root(tmp_path), run=RUN, task=TASK, tab="Judges")
    at.session_state[failure_table_key(JUDGE)] = {"selection": {"rows": [1], "columns": [], "cells": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["tab"] == "Replay"
    assert at.query_params["step"] == "3"
    assert any(m.value.startswith("**Step 3 of 5**") for m in at.markdown)
    assert [w.value for w in at.warning] == [
        inert(f"⚑ {JUDGE}: 3.2.1 API-sniffing — Read the trail list from a JSON endpoint.")
    ]


def test_the_failure_points_grid_keeps_its_paragraphs_below_it(app: OpenPage, tmp_path: Path) -> None:
    at = app(PAGE, verifier_root(tmp_path), run=RUN, task=TASK, tab="Judges")
    grid = next(d.value for d in at.dataframe if "what happened" in d.value.columns)
    # Short columns only: paragraphs in a grid make it scroll sideways.
    assert list(grid.columns) == ["steps", "step", "code", "category", "type", "what happened"]
    accounts = next(e for e in at.expander if e.label.startswith("The agent's reasoning"))
    table = accounts.table[0].value
    assert list(table.columns) == ["steps", "agent reasoning", "evidence", "impact"]
    assert len(table) == len(grid) and (table["evidence"] != "").any()


def test_the_replay_marks_every_flagged_step(app: OpenPage, tmp_path: Path) -> None:
    at = app(PAGE, verifier_root(tmp_path), run=RUN, task=TASK, step="1")
    assert not at.warning  # step 1 is not flagged
    assert [at.button(key=flag_key(step)).label for step in (2, 3, 4, 5)] == ["⚑ 2", "⚑ 3", "⚑ 4", "⚑ 5"]
    at.button(key=flag_key(2)).click().run()
    assert at.query_params["step"] == "2"
    flags = at.warning[0].value
    assert inert("6.4 Fine-grained grounding error") in flags and inert("2.3 Output fabrication") in flags


def test_the_run_report_rows_and_their_differences(app: OpenPage, tmp_path: Path) -> None:
    at = app(PAGE, verifier_root(tmp_path), run=RUN, task=TASK, tab="Judges")
    assert [s.value for s in at.subheader] == ["Run report"]
    assert inert(f"{RUN}/verify_report.jsonl") in "\n".join(c.value for c in at.caption)
    assert any("disagrees with the score file on 1 field" in w.value for w in at.warning)
    differences = at.table[-1].value
    assert differences.values.tolist() == [[inert(JUDGE), inert("first_failure_step"), "3", "2"]]
    mine, errors = (frame.value for frame in at.dataframe[-2:])
    assert mine["first failure step"].tolist() == [3]
    assert errors["status"].tolist() == ["error"]
    assert errors["error"].tolist() == ["TimeoutError: the judge did not answer"]


def test_a_named_reviewer_sees_only_this_trajectory_s_error_rows(
    app: OpenPage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another trajectory's error row may hold its verdicts: for a reviewer whose views are
    recorded it is on that trajectory's page, not listed here unrecorded."""
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", str(tmp_path / "annotations.sqlite"))
    at = app(PAGE, verifier_root(tmp_path), run=RUN, task=TASK, tab="Judges", reviewer="cat")
    assert "**Error rows of the report about this trajectory** (0)" in [m.value for m in at.markdown]
    assert "TimeoutError: the judge did not answer" not in _shown(at)


def test_an_older_generation_shows_what_it_holds(app: OpenPage, tmp_path: Path) -> None:
    at = app(PAGE, verifier_root(tmp_path, OLDER_RESPONSE), run=RUN, task=TASK, tab="Judges")
    assert not at.exception
    shown = _shown(at)
    assert "earlier generation" in [b.proto.label for b in at.get("badge")] or "earlier generation" in shown
    assert '{"step": 4, "reason": "miscount"}' in shown
    assert "the file does not say which verdict decided it" in shown


def test_the_overview_charts_error_categories_and_filters_the_list(app: OpenPage, tmp_path: Path) -> None:
    at = app("pages/overview.py", verifier_root(tmp_path), view="Outcomes and failures")
    categories = figure(at, "chart_failure_category")
    (trace,) = categories["data"]
    assert trace["y"] == ["2 Hallucination", "3 Execution &amp; Strategy", "6 Tool Interaction",
                          "7 Task Ambiguity", "8 Invalid Task"]  # fmt: skip
    assert trace["x"] == [2, 1, 1, 1, 1]  # 2: both failed trajectories
    codes = figure(at, "chart_failure_code")["data"][0]
    assert "3.2.1 API-sniffing" in codes["y"] and "7.2 Ambiguous task" in codes["y"]
    click(at, "chart_failure_category", trace["customdata"][0])
    assert table(at)["task_id"].tolist() == [TASK, SECOND]
    click(at, "chart_failure_category", trace["customdata"][1])  # 3 Execution & Strategy
    assert table(at)["task_id"].tolist() == [TASK]


def test_two_runs_compare_their_error_categories(app: OpenPage, tmp_path: Path) -> None:
    root = verifier_root(tmp_path)
    other = root / "WebTailBench_b"
    shutil.copytree(root / RUN, other)
    (other / "traj" / SECOND / "scores" / f"{JUDGE}.json").unlink()  # B: one trajectory fewer in 2
    at = app("pages/compare.py", root, a=RUN, b="WebTailBench_b")
    counts = next(d.value for d in at.dataframe if "verifier" in d.value.columns)
    assert counts.values.tolist() == [
        [JUDGE, "2 Hallucination", 2, 1, -1],
        [JUDGE, "3 Execution & Strategy", 1, 1, 0],
        [JUDGE, "6 Tool Interaction", 1, 1, 0],
        [JUDGE, "7 Task Ambiguity", 1, 1, 0],
        [JUDGE, "8 Invalid Task", 1, 1, 0],
    ]
    at.segmented_control(key="taxonomy_level").set_value("code").run()
    counts = next(d.value for d in at.dataframe if "verifier" in d.value.columns)
    assert counts["code"].tolist()[:2] == ["2.1 Output contradiction", "2.3 Output fabrication"]
    assert counts["B - A"].tolist()[0] == -1


def test_the_trajectories_page_filters_by_error_code(app: OpenPage, tmp_path: Path) -> None:
    chosen = [f"{JUDGE}: 2 Hallucination", f"{JUDGE}: 2.1 Output contradiction"]
    at = app("pages/trajectories.py", verifier_root(tmp_path), codes=chosen)
    assert at.multiselect(key="codes").value == chosen
    assert table(at)["task_id"].tolist() == [TASK, SECOND]
    at.multiselect(key="codes").set_value([f"{JUDGE}: 3.2.1 API-sniffing"]).run()
    assert table(at)["task_id"].tolist() == [TASK]


def test_the_reasoning_fara_wrote_in_the_rubric_check_fills_the_judges_tab(
    app: OpenPage, tmp_path: Path
) -> None:
    at = app(PAGE, verifier_root(tmp_path, EXAMPLE_SHAPED_RESPONSE), run=RUN, task=TASK, tab="Judges")
    assert not at.exception
    verdicts = next(f.value for f in (*at.table, *at.dataframe) if "reasoning" in f.value.columns)
    outcome = verdicts[verdicts["verdict"] == "outcome"]
    assert outcome["reasoning"].tolist() in ([EXAMPLE_SHAPED_REASONING], [inert(EXAMPLE_SHAPED_REASONING)])


def test_online_mind2webs_own_webjudge_is_shown_in_full(app: OpenPage, tmp_path: Path) -> None:
    from tests.harness.mind2web_writer import Judged, write_autoeval, write_result

    results = tmp_path / "seeact"
    write_result(results, "a1", ["TYPE: Lisbon", "CLICK: Search", "ANSWER"], "Hotel Avenida")
    write_autoeval(results, tmp_path / "seeact_result", [Judged("a1", False, image_scores=(1, 4, 2))])
    at = app(PAGE, tmp_path, run="seeact", task="a1", tab="Judges")
    assert not at.exception, [e.value for e in at.exception]
    shown = _shown(at)
    assert 'Thoughts: The agent reached the page that holds the answer.\nStatus: "failure"' in shown
    assert "1. Find the answer the task asks for." in shown  # its key points
    assert "**Screenshots scored** (1 of 3 shown to the final judgement)" in shown
    (scored,) = [d.value for d in at.dataframe if "shown to the final judgement" in d.value.columns] or [
        t.value for t in at.table if "shown to the final judgement" in t.value.columns
    ]
    assert scored["score"].tolist() == [1, 4, 2]
    assert any(
        inert("webjudge-online-mind2web-o4-mini") in m.value for m in at.markdown if "badge[" in m.value
    )
    assert shown.count('Status: "failure"') == 1  # not shown again among the judges' replies
