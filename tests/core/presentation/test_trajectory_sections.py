"""HTML exports carry the folder's task, each judge in full, and the WebArena-Verified field-by-field diff."""

from __future__ import annotations

from html import escape
from pathlib import Path

from tests.conftest import Sample
from tests.harness.verifier_files import JUDGE, RUN, TASK, verifier_root
from webeval_core.presentation.trajectory_document import standalone_page
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.runs.index import build_index
from webeval_core.scoring import stored_evaluation


def test_a_verifier_judged_page_has_the_task_rubric_reasoning_and_failure_points(tmp_path: Path) -> None:
    page = standalone_page(load_trajectory(verifier_root(tmp_path) / RUN / "traj" / TASK))
    assert "Find the longest trail." in page
    assert "task_data.json: task_proposal" in page
    assert f"<h3>{escape(JUDGE)}</h3>" in page
    assert "Open the park page" in page  # a rubric criterion
    assert escape("The answer gives 14.2 miles; the page shown says 16.3 miles.") in page
    assert "6.4 Fine-grained grounding error" in page  # a failure point, its code named
    assert "Clicked beside the search box." in page
    assert "Not a task of the WebArena-Verified catalog" not in page


def test_a_webarena_failure_shows_the_fields_that_differ(scored_sample: Sample) -> None:
    failed = [
        s for s in build_index(scored_sample.root).summaries if s.verdict and s.verdict.status == "failure"
    ]
    shown = 0
    for summary in failed:
        trajectory = load_trajectory(summary.path)
        assert summary.verdict is not None
        evaluation = stored_evaluation(trajectory.scores[summary.verdict.source].path)
        assert evaluation is not None
        page = standalone_page(trajectory)
        assert "<h3>Field by field</h3>" in page
        for trace in evaluation.network:
            assert escape(trace.explanation) in page
            assert "compared: " not in page  # the raw JSON the export used to show
            shown += 1
    assert shown > 0, "the sample has a failing network check"


def test_a_run_report_s_trajectory_pages_carry_the_task_and_the_judges(tmp_path: Path) -> None:
    from webeval_core.presentation.run_html import report_pages

    root = verifier_root(tmp_path)
    index = build_index(root)
    run_key = next(run.key for run in index.runs if run.key.endswith(RUN))
    pages = {page.path: page.html for page in report_pages(index, run_key, None)}
    judged = next(html for path, html in pages.items() if TASK in path)
    assert "Find the longest trail." in judged
    assert "Clicked beside the search box." in judged


def test_a_network_check_s_page_says_what_the_app_says(tmp_path: Path) -> None:
    """A navigate check that ignored a matching page load: the exported page carries the explanation,
    the limitation that decided it, and the matching entry field by field, as the Network tab does."""
    from tests.core.scoring.helpers import NAVIGATE
    from tests.harness.har_builders import GITLAB, document, wav_folder, xhr
    from webeval_core.presentation.tables import check_notes
    from webeval_core.scoring import score_trajectory

    folder = wav_folder(
        tmp_path,
        44,
        NAVIGATE,
        [
            document(f"{GITLAB}/dashboard/todos", at=1),
            xhr(f"{GITLAB}/dashboard/todos", at=2),
            document(f"{GITLAB}/explore", at=3),
        ],
    )
    outcome = score_trajectory(folder, config_root=tmp_path)
    assert outcome.status == "failure" and outcome.evaluation is not None
    (trace,) = outcome.evaluation.network
    page = standalone_page(load_trajectory(folder))
    assert escape(trace.explanation) in page
    (note,) = check_notes(trace)
    assert "known upstream limitation" in note and escape(note) in page
    assert f"<h5>Entry {trace.kept[-1]} (kept)</h5>" in page
