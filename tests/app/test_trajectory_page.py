"""AppTest of the trajectory page on a scored copy of sample_runs/ (and small built folders).

Covers: choosing a trajectory, deep links (run/task/step/tab), stepping (buttons, slider,
filmstrip), every layout and log generation, expected vs actual, the network views and their
jump to the replay, the evidence tab, re-scoring (one trajectory and a run) and "what if".
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import Sample
from tests.harness.builders import Act, fara_folder, snapshot
from webeval_core.presentation.wording import download_name
from webeval_core.reading.formats import formats
from webeval_core.reading.response import parse_agent_response
from webeval_core.reading.task_catalog import load_catalog
from webeval_core.reading.trajectory_reader import Trajectory, load_trajectory
from webeval_core.runs.discovery import discover_runs, run_of
from webeval_core.scoring import CONFIG_FILE_NAME, score_trajectory

PAGE = "pages/trajectory.py"
OpenPage = Callable[..., AppTest]  # conftest's `app` factory


@cache
def _sample(root: Path) -> tuple[tuple[str, Trajectory], ...]:
    return tuple((run.key, load_trajectory(d)) for run in discover_runs(root) for d in run.trajectory_dirs)


def _find(root: Path, predicate: Callable[[Trajectory], bool]) -> tuple[str, Trajectory]:
    found = next(((key, t) for key, t in _sample(root) if predicate(t)), None)
    assert found is not None, "sample_runs/ lacks a trajectory this test needs"
    return found


def _markdown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def _step_heading(at: AppTest) -> str:
    return next(m for m in _markdown(at) if m.startswith(("**Step ", "**Screenshot ")))


def _show_tab(at: AppTest, tab: str) -> None:
    """Switch tabs as a click would: the browser rewrites `tab` in the URL, the widget follows."""
    at.query_params.pop("tab", None)
    at.session_state["tab"] = tab
    at.run()
    assert not at.exception, at.exception


def _stepped(t: Trajectory) -> bool:
    return t.layout == "fara" and len(t.steps) >= 4 and sum(s.screenshot is not None for s in t.steps) >= 4


def _isolated_copy(source: Path, tmp_path: Path, folders: list[Path]) -> Path:
    """A root of its own holding `folders` (same relative paths) and the URL config, unscored."""
    root = tmp_path / "root"
    for folder in folders:
        target = root / folder.relative_to(source)
        shutil.copytree(folder, target, symlinks=True)
        shutil.rmtree(target / "scores", ignore_errors=True)
    for config in source.rglob(CONFIG_FILE_NAME):
        target = root / config.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(config, target)
    return root


# --- choosing and deep links ----------------------------------------------------------------


def test_without_params_the_user_picks_run_and_task(app: OpenPage, sample: Sample) -> None:
    run_key, trajectory = _find(sample.root, _stepped)
    at = app(PAGE, sample.root)
    assert any("Choose a run and a task" in i.value for i in at.info)
    at.selectbox(key="run").select(run_key).run()
    at.selectbox(key="task").select(trajectory.task_id).run()
    assert not at.exception
    assert at.title[0].value == f"Task {trajectory.task_id}"
    assert _step_heading(at).startswith(f"**Step 1 of {len(trajectory.steps)}**")


def test_deep_link_restores_run_task_step_and_tab(app: OpenPage, sample: Sample) -> None:
    run_key, trajectory = _find(sample.root, _stepped)
    at = app(PAGE, sample.root, run=run_key, task=trajectory.task_id, step="3", tab="Evidence")
    assert at.title[0].value == f"Task {trajectory.task_id}"
    assert at.session_state["tab"] == "Evidence"
    assert any(s.value.startswith("Score files") for s in at.subheader)
    assert not any(m.startswith("**Step ") for m in _markdown(at))  # hidden tabs are not rendered
    _show_tab(at, "Replay")
    assert _step_heading(at).startswith(f"**Step 3 of {len(trajectory.steps)}**")


def test_unknown_step_in_the_url_falls_back_to_the_first(app: OpenPage, sample: Sample) -> None:
    run_key, trajectory = _find(sample.root, _stepped)
    at = app(PAGE, sample.root, run=run_key, task=trajectory.task_id, step="9999")
    assert _step_heading(at).startswith("**Step 1 of")


# --- stepping -------------------------------------------------------------------------------


def test_buttons_slider_and_filmstrip_change_the_step(app: OpenPage, sample: Sample) -> None:
    run_key, trajectory = _find(sample.root, _stepped)
    at = app(PAGE, sample.root, run=run_key, task=trajectory.task_id)
    at.button(key="_next").click().run()
    assert _step_heading(at).startswith("**Step 2 of")
    assert at.query_params["step"] == "2"
    at.button(key="_next").click().run()
    at.button(key="_prev").click().run()
    assert _step_heading(at).startswith("**Step 2 of")
    at.select_slider(key="_step_slider").set_value(4).run()
    assert _step_heading(at).startswith("**Step 4 of")
    assert at.query_params["step"] == "4"
    at.button(key="_film_1").click().run()
    assert _step_heading(at).startswith("**Step 1 of")
    assert at.button(key="_prev").disabled
    assert not at.exception


@pytest.fixture
def long_root(tmp_path: Path) -> Path:
    """One 100-step Fara trajectory (clicks, typing, scrolls) in a run folder."""
    acts = []
    for k in range(1, 101):
        if k % 3 == 0:
            acts.append(Act("type", {"text": f"query {k}", "coordinate": [700, 400]}, thought=f"Type {k}"))
        elif k % 3 == 1:
            acts.append(Act("left_click", {"coordinate": [100 + k * 10, 80 + k * 7]}, thought=f"Click {k}"))
        else:
            acts.append(Act("scroll", {"coordinate": [700, 450], "pixels": -500}, thought=f"Scroll {k}"))
    root = tmp_path / "long"
    fara_folder(root / "runs" / "sys" / "model" / "user" / "bench" / "0" / "traj", "108", actions=acts)
    return root


def test_filmstrip_is_a_window_around_the_current_step(app: OpenPage, long_root: Path) -> None:
    at = app(PAGE, long_root, run="runs/sys/model/user/bench/0", task="108", step="50")
    film = sorted(
        int(b.key.removeprefix("_film_")) for b in at.button if b.key and b.key.startswith("_film_")
    )
    assert film == list(range(46, 55))
    assert _step_heading(at).startswith("**Step 50 of 100**")
    at.button(key="_film_54").click().run()
    film = sorted(
        int(b.key.removeprefix("_film_")) for b in at.button if b.key and b.key.startswith("_film_")
    )
    assert film == list(range(50, 59))
    at.select_slider(key="_step_slider").set_value(100).run()
    film = sorted(
        int(b.key.removeprefix("_film_")) for b in at.button if b.key and b.key.startswith("_film_")
    )
    assert film == list(range(92, 101))
    assert at.button(key="_next").disabled


def test_every_layout_and_log_generation_renders(app: OpenPage, sample: Sample) -> None:
    kinds: dict[tuple[str, str | None, bool], tuple[str, Trajectory]] = {}
    for key, t in _sample(sample.root):
        kinds.setdefault((t.layout, t.log_generation, bool(t.screenshots)), (key, t))
    assert {layout for layout, _, _ in kinds} == {f.name for f in formats()}  # the other harnesses: four
    assert len({generation for _, generation, _ in kinds}) >= 3
    for (layout, _, _), (run_key, trajectory) in kinds.items():
        at = app(PAGE, sample.root, run=run_key, task=trajectory.task_id)
        if trajectory.steps or trajectory.screenshots:
            assert _step_heading(at)
        else:
            assert any("Nothing to replay" in i.value for i in at.info), layout
        for tab in ("Expected vs actual", "Network", "Evidence", "Judges", "Re-score"):
            _show_tab(at, tab)
            assert not at.exception, (layout, tab, at.exception)


def test_agent_text_is_never_rendered_as_markdown(app: OpenPage, tmp_path: Path) -> None:
    hostile = "[click me](http://evil.example) **bold** <img src=x onerror=alert(1)> :red[x]"
    acts = [Act("left_click", {"coordinate": [10, 10]}, thought=hostile, url="http://evil.example/[x](y)")]
    root = tmp_path / "hostile"
    folder = fara_folder(root / "r", "108", actions=acts, final_answer=hostile)
    outside = tmp_path / "outside.png"
    shutil.copy(folder / "screenshot1.png", outside)
    (folder / "screenshot0.png").unlink()
    (folder / "screenshot0.png").symlink_to(outside)
    at = app(PAGE, root, run="r", task="108")
    for tab in ("Replay", "Expected vs actual", "Evidence"):
        _show_tab(at, tab)
        assert not at.exception
        for element in (*at.markdown, *at.caption, *at.info, *at.warning, *at.error):
            assert "](http://evil" not in element.value, element.value
            assert "<img" not in element.value
    _show_tab(at, "Replay")
    assert any("No screenshot for this step" in i.value for i in at.info)  # the outside link is not opened
    assert any(t.value == hostile for t in at.text)  # the thought, verbatim, as plain text
    assert any(t.value == "http://evil.example/[x](y)" for t in at.text)  # the URL too
    arguments = next(df.value for df in at.dataframe if list(df.value.columns) == ["argument", "value"])
    assert arguments.values.tolist() == [["action", "left_click"], ["coordinate", "[10, 10]"]]  # one per row


def test_a_broken_har_is_reported_and_the_replay_still_works(app: OpenPage, tmp_path: Path) -> None:
    root = tmp_path / "broken"
    folder = fara_folder(root / "r", "108")
    (folder / "network.har").write_text('{"log": {"entries": [{"request": ', encoding="utf-8")
    at = app(PAGE, root, run="r", task="108")
    assert _step_heading(at).startswith("**Step 1 of")
    _show_tab(at, "Network")
    assert any("looks truncated" in e.value for e in at.error)


# --- expected vs actual, network, evidence --------------------------------------------------


def _naming(t: Trajectory) -> str | None:
    return parse_agent_response(t.final_answer_text).naming if t.final_answer_text else None


def test_expected_vs_actual_shows_fields_naming_and_assertions(app: OpenPage, sample: Sample) -> None:
    catalog = load_catalog()
    run_key, trajectory = _find(
        sample.root, lambda t: _naming(t) == "action/results" and catalog.get(t.task_id) is not None
    )
    at = app(PAGE, sample.root, run=run_key, task=trajectory.task_id, tab="Expected vs actual")
    assert any("`action`/`results`" in i.value for i in at.info)
    assert any(c.value.startswith("Naming: action/results") for c in at.caption)
    fields = at.dataframe[0].value
    assert list(fields.columns) == ["field", "match", "expected", "agent, normalized", "agent"]
    assert {"task_type", "status"} <= set(fields["field"])
    assert set(fields["match"]) <= {"✓", "✗", "?"}


def test_expected_vs_actual_marks_the_wrong_field(app: OpenPage, sample: Sample) -> None:
    def wrong_values(t: Trajectory) -> bool:
        if t.final_answer_text is None or _naming(t) == "unparsed":
            return False
        outcome = score_trajectory(t, write=False, config_root=sample.root)
        results = outcome.evaluation.result.evaluators_results if outcome.evaluation else ()
        return any(a.assertion_name.startswith("retrieved_data") for r in results for a in r.all_assertions)

    run_key, trajectory = _find(sample.root, wrong_values)
    at = app(PAGE, sample.root, run=run_key, task=trajectory.task_id, tab="Expected vs actual")
    fields = at.dataframe[0].value.set_index("field")
    assert fields.loc["retrieved_data", "match"] == "✗"
    assert any(b.startswith(":red-badge[failure]") for b in _markdown(at))


def _network_mismatch(root: Path) -> Callable[[Trajectory], bool]:
    """A trajectory whose failed network check kept a request with a wrong field."""

    def mismatch(t: Trajectory) -> bool:
        task = load_catalog().get(t.task_id)
        if not (task and task.network_checks and t.har_path and t.steps):
            return False
        outcome = score_trajectory(t, write=False, config_root=root)
        traces = outcome.evaluation.network if outcome.evaluation else ()
        return any(
            trace.passed is False
            and any(c.kept and c.step and not all(f.matches for f in c.fields) for c in trace.candidates)
            for trace in traces
        )

    return mismatch


def test_network_tab_lists_requests_and_a_selected_one_jumps_to_its_step(
    app: OpenPage, sample: Sample
) -> None:
    run_key, trajectory = _find(sample.root, _network_mismatch(sample.root))
    at = app(PAGE, sample.root, run=run_key, task=trajectory.task_id, tab="Network")
    requests = at.dataframe[0].value
    assert {"entry", "method", "status", "url", "step"} <= set(requests.columns)
    at.toggle(key="_net_static").set_value(False).run()
    everything = at.dataframe[0].value
    needle = str(everything["url"].iloc[-1])[-12:]
    at.text_input(key="_net_q").input(needle).run()
    assert 0 < len(at.dataframe[0].value) < len(everything)
    at.text_input(key="_net_q").input("").run()
    row = int(everything["step"].last_valid_index())
    step = int(everything["step"][row])
    at.session_state["_network_table"] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    assert any(s.value == f"Request {everything['entry'][row]}" for s in at.subheader)
    at.button(key="_request_step").click().run()
    assert at.session_state["tab"] == "Replay"
    assert at.query_params["step"] == str(step)
    assert _step_heading(at).startswith(f"**Step {step} of")
    during = everything[everything["step"] == step]
    assert at.expander[-1].label == f"Requests during this step ({len(during)})"
    assert not _request_tables(at)  # drawn only when opened (the step's arguments are a table too)
    at.session_state["_step_requests"] = True  # what opening the expander in the browser sets
    at.run()
    assert _request_tables(at)[0]["url"].tolist() == during["url"].tolist()


def _request_tables(at: AppTest) -> list[pd.DataFrame]:
    return [df.value for df in at.dataframe if "url" in df.value.columns]


def test_network_tab_names_the_navigate_limitation_where_it_decided(app: OpenPage, sample: Sample) -> None:
    intended = json.loads((sample.root / "intended_verdicts.json").read_text(encoding="utf-8"))
    rel = next(rel for rel, plan in intended.items() if plan["scenario"] == "navigate_left")
    folder = sample.root / rel
    at = app(PAGE, sample.root, run=run_of(sample.root, folder).key, task=folder.name, tab="Network")
    assert any("known upstream limitation" in w.value for w in at.warning)


def test_network_checks_show_considered_kept_and_field_diffs(app: OpenPage, sample: Sample) -> None:
    run_key, trajectory = _find(sample.root, _network_mismatch(sample.root))
    outcome = score_trajectory(trajectory, write=False, config_root=sample.root)
    assert outcome.evaluation is not None
    traces = outcome.evaluation.network
    at = app(PAGE, sample.root, run=run_key, task=trajectory.task_id, tab="Network")
    assert any(s.value == f"Network checks ({len(traces)})" for s in at.subheader)
    explanations = {t.value for t in at.text}
    assert all(trace.explanation in explanations for trace in traces)
    badges = _markdown(at)
    assert any(b.startswith(":red-badge[check ") and "failed" in b for b in badges)
    candidates = [df.value for df in at.dataframe if "kept" in df.value.columns]
    assert len(candidates) == sum(1 for t in traces if t.candidates)
    assert all(df["kept"].any() for df in candidates)
    diffs = [
        df.value
        for df in at.dataframe
        if list(df.value.columns)[:4] == ["field", "match", "expected", "actual"]
    ]
    assert any((df["match"] == "✗").any() for df in diffs)
    failed = next(t for t in traces if t.passed is False)
    kept = next(c for c in failed.candidates if c.kept)
    position = next(
        i
        for i, df in enumerate(at.dataframe)
        if "kept" in df.value.columns and kept.url in set(df.value["url"])
    )
    rows = list(at.dataframe[position].value["entry"])
    at.session_state[f"_candidates_{failed.position}"] = {
        "selection": {"rows": [rows.index(kept.har_index)], "columns": [], "cells": []}
    }
    at.run()
    assert at.session_state["tab"] == "Replay"
    assert _step_heading(at).startswith(f"**Step {kept.step} of")


def test_evidence_tab_shows_score_files_core_log_and_raw_files(app: OpenPage, sample: Sample) -> None:
    run_key, trajectory = _find(
        sample.root, lambda t: bool(t.core_log) and bool(t.scores) and t.times is not None
    )
    at = app(PAGE, sample.root, run=run_key, task=trajectory.task_id, tab="Evidence")
    assert any(s.value == f"Score files ({len(trajectory.scores)})" for s in at.subheader)
    core = next(
        df.value
        for df in at.dataframe
        if list(df.value.columns) == ["line", "time", "level", "logger", "message"]
    )
    assert len(core) == len(trajectory.core_log)
    assert any(e.label == "web_surfer.log" for e in at.expander)


def test_evidence_tab_shows_the_beginning_of_a_long_log(app: OpenPage, tmp_path: Path) -> None:
    root = tmp_path / "long log"
    folder = fara_folder(root / "r", "108")
    log = folder / "web_surfer.log"
    with log.open("ab") as out:
        out.write(b"# padding\n" * 8000)  # 80 KB
    at = app(PAGE, root, run="r", task="108", tab="Evidence")
    shown = next(c.value for c in at.code if c.value.startswith(log.read_text(encoding="utf-8")[:200]))
    assert shown.endswith("\n… (first 64 KB shown)")
    assert len(shown.encode("utf-8")) < log.stat().st_size


# --- re-scoring -----------------------------------------------------------------------------


@pytest.fixture
def unscored(sample: Sample, tmp_path: Path) -> tuple[Path, str, Trajectory]:
    """A private root holding the answered trajectories of one run, without score files."""
    run = next(
        r for r in discover_runs(sample.root) if any(_stepped(load_trajectory(d)) for d in r.trajectory_dirs)
    )
    folders = [d for d in run.trajectory_dirs if load_trajectory(d).outcome == "answered"][:3]
    root = _isolated_copy(sample.root, tmp_path, folders)
    trajectory = load_trajectory(root / folders[0].relative_to(sample.root))
    return root, run.key, trajectory


def test_rescore_writes_the_score_file_and_shows_before_and_after(
    app: OpenPage, unscored: tuple[Path, str, Trajectory]
) -> None:
    root, run_key, trajectory = unscored
    assert not (trajectory.path / "scores").exists()
    at = app(PAGE, root, run=run_key, task=trajectory.task_id, tab="Re-score")
    at.button(key="_rescore_one").click().run()
    assert not at.exception
    written = list((trajectory.path / "scores").glob("webarena-verified-*.json"))
    assert len(written) == 1
    assert any(c.value.startswith("Wrote scores/webarena\\-verified") for c in at.caption)
    table = next(df.value for df in at.dataframe if "after" in df.value.columns)
    assert table["before"].isna().all() and table["after"].notna().all()
    assert any(m.startswith(":") and "webarena\\-verified" in m for m in _markdown(at))  # the new badge


def test_what_if_shows_a_verdict_and_writes_nothing(
    app: OpenPage, unscored: tuple[Path, str, Trajectory]
) -> None:
    root, run_key, trajectory = unscored
    before = snapshot(root)
    at = app(PAGE, root, run=run_key, task=trajectory.task_id, tab="Re-score")
    area = next(a for a in at.text_area if a.key and a.key.startswith("_whatif_text"))
    area.input("this is not JSON").run()
    at.button(key="_whatif_run").click().run()
    assert not at.exception
    assert ":red-badge[failure]" in _markdown(at)
    assert any(
        df.value["assertion"].eq("agent_response_invalid_format").any()
        for df in at.dataframe
        if "assertion" in df.value.columns
    )
    expected = load_catalog().get(trajectory.task_id)
    assert expected is not None
    area = next(a for a in at.text_area if a.key and a.key.startswith("_whatif_text"))
    area.input(json.dumps(expected.expected.model_dump(mode="json"))).run()
    at.button(key="_whatif_run").click().run()
    assert not at.exception
    assert snapshot(root) == before


def test_rescoring_a_run_reports_progress_results_and_writes_files(
    app: OpenPage, unscored: tuple[Path, str, Trajectory]
) -> None:
    root, run_key, trajectory = unscored
    at = app(PAGE, root, run=run_key, task=trajectory.task_id, tab="Re-score")
    at.radio(key="_rescore_scope").set_value(
        next(o for o in at.radio(key="_rescore_scope").options if o.startswith("this run"))
    )
    at.button(key="_rescore_many").click().run()
    assert not at.exception
    folders = [d for r in discover_runs(root) for d in r.trajectory_dirs]
    assert all(list((d / "scores").glob("webarena-verified-*.json")) for d in folders)
    metrics = {m.label: m.value for m in at.metric}
    assert int(metrics["success"]) + int(metrics["failure"]) == len(folders)
    results = next(df.value for df in at.dataframe if "reused" in df.value.columns)
    assert len(results) == len(folders)


def test_evidence_tab_offers_the_trajectory_as_a_standalone_html_page(
    app: OpenPage, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.runtime.media_file_manager import MediaFileManager

    deferred: list[tuple[Callable[[], object], object, object]] = []
    register = MediaFileManager.add_deferred

    def record(
        self: MediaFileManager, data: Callable[[], object], mime: object, *args: object, **kw: object
    ) -> str:
        deferred.append((data, mime, kw.get("file_name")))
        return register(self, data, mime, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(MediaFileManager, "add_deferred", record)
    run_key, trajectory = _find(sample.root, _stepped)
    at = app(PAGE, sample.root, run=run_key, task=trajectory.task_id)
    assert not at.get("download_button")  # only the Evidence tab offers it
    _show_tab(at, "Evidence")
    (button,) = at.get("download_button")
    assert button.label == "Download as a standalone HTML page"
    assert button.proto.ignore_rerun
    # Deferred: the page is built when the user clicks, not on every run of the tab.
    assert button.proto.deferred_file_id and not button.proto.url
    (build, mime, file_name), *_ = deferred
    # Named by its run and task: two runs' trajectories of one task never share a name.
    assert (mime, file_name) == ("text/html", download_name(run_key, trajectory.task_id))
    assert file_name.endswith(f"-{trajectory.task_id}.html") and "WebArenaVerified_sample" in file_name
    page = build()
    assert isinstance(page, str) and page.startswith("<!DOCTYPE html>")
    assert f"<h1>Task {trajectory.task_id}</h1>" in page
    assert page.count('<article id="step-') == len(trajectory.steps)
