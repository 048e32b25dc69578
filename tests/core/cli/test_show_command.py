"""`webeval show DIR`: text, JSON, and a standalone HTML page written only where it may be."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Sample
from tests.core.cli.helpers import run_cli
from tests.harness.builders import fara_folder


def test_show_json_has_the_documented_keys(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "alltrails_find_23")

    code, text = run_cli("show", str(folder), "--json")

    assert code == 0
    payload = json.loads(text)
    for key in ("task_id", "layout", "outcome", "final_answer", "steps", "screenshots", "duration_s",
                "token_usage", "scores", "warnings"):  # fmt: skip
        assert key in payload, key
    assert payload["layout"] == "fara"
    assert payload["outcome"] == "answered"
    step = payload["steps"][1]
    assert set(step) >= {"index", "action", "arguments", "thought", "url", "timestamp", "screenshot", "point"}
    assert step["action"] == "left_click"
    assert "thoughts" not in step["arguments"]
    assert all((folder / rel).is_file() for rel in payload["screenshots"])


def test_show_text_names_task_and_steps(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path, "t1", generation="solver", naming="solver")
    code, text = run_cli("show", str(folder))
    assert code == 0
    assert "Task t1" in text
    assert "Outcome:  answered" in text


def test_show_unreadable_folder_exits_1_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    code, _ = run_cli("show", str(folder))
    assert code == 1
    err = capsys.readouterr().err
    assert str(folder) in err
    assert "Traceback" not in err


def test_show_html_writes_a_standalone_page_and_reports_it(tmp_path: Path) -> None:
    folder = fara_folder(tmp_path / "runs", "alltrails_find_23")
    target = tmp_path / "out" / "demo.html"
    target.parent.mkdir()

    code, text = run_cli("show", str(folder), "--html", str(target))

    assert code == 0
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<h1>Task alltrails_find_23</h1>" in page
    assert page.count('src="data:image/jpeg;base64,') == 5
    size_kb = round(target.stat().st_size / 1e3)
    report = target.name + ".redaction.json"
    assert text == f"Wrote {target} ({size_kb} KB, 5 steps); redacted: no secret found ({report})\n"


def test_show_html_never_overwrites_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = fara_folder(tmp_path / "runs", "t1")
    target = tmp_path / "demo.html"
    target.write_text("keep me")

    code, _ = run_cli("show", str(folder), "--html", str(target))

    assert code == 1
    err = capsys.readouterr().err
    assert f"{target}: already exists; pass --force to overwrite it" in err
    assert target.read_text() == "keep me"

    code, text = run_cli("show", str(folder), "--html", str(target), "--force")
    assert code == 0
    assert text.startswith(f"Wrote {target} (")
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("inside", ["demo.html", "scores/demo.html", "../t1/demo.html"])
def test_show_html_refuses_a_file_inside_the_trajectory_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], inside: str
) -> None:
    from tests.harness.builders import snapshot

    folder = fara_folder(tmp_path, "t1")
    (folder / "scores").mkdir()
    before = snapshot(folder)
    target = folder / inside

    code, _ = run_cli("show", str(folder), "--html", str(target))

    assert code == 1
    err = capsys.readouterr().err
    assert f"{target}: is inside the trajectory folder {folder}" in err
    assert "Traceback" not in err
    assert snapshot(folder) == before


def test_show_html_of_an_unreadable_folder_exits_1_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    target = tmp_path / "demo.html"

    code, text = run_cli("show", str(folder), "--html", str(target))

    assert code == 1
    assert text == ""
    err = capsys.readouterr().err
    assert f"webeval show: {folder}: not a trajectory folder" in err
    assert "Traceback" not in err
    assert not target.exists()


def test_show_html_names_a_missing_target_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = fara_folder(tmp_path / "runs", "t1")
    target = tmp_path / "no such folder" / "demo.html"
    code, _ = run_cli("show", str(folder), "--html", str(target))
    assert code == 1
    assert (
        f"{target}: cannot be written: the folder {target.parent} does not exist" in capsys.readouterr().err
    )


def test_show_prints_the_task_and_why_a_verifier_failed_it(tmp_path: Path) -> None:
    from tests.harness.verifier_files import JUDGE, RUN, TASK, verifier_root

    folder = verifier_root(tmp_path) / RUN / "traj" / TASK
    code, text = run_cli("show", str(folder))
    assert code == 0
    assert "Task:     Find the longest trail." in text
    assert f"Judge {JUDGE}: failure: The answer gives 14.2 miles" in text
    assert (
        "first failure at step 2 [6.4 Fine-grained grounding error]: Clicked beside the search box." in text
    )
    assert "  task: ambiguous [7.1" in text  # the task checked from its text: said, with its code named


def test_the_first_failure_is_the_earliest_step_whatever_the_files_order(tmp_path: Path) -> None:
    """Verifiers list their points of failure in no promised order: the first is the earliest step
    (as verify_report.jsonl's first_failure_step), in `show` as in the reviewers' agreement."""
    from tests.harness.verifier_files import HAND_WRITTEN_RESPONSE, JUDGE, RUN, TASK, verifier_root
    from webeval_core.reading import load_trajectory
    from webeval_core.reading.verifier import verifier_outputs

    response = json.loads(HAND_WRITTEN_RESPONSE)
    points = response["first_point_of_failure"]["failure_points"]
    response["first_point_of_failure"]["failure_points"] = [points[1], points[0]]  # steps 3-4, then 2
    folder = verifier_root(tmp_path, json.dumps(response)) / RUN / "traj" / TASK
    (output,) = (o for o in verifier_outputs(load_trajectory(folder).scores)[0] if o.judge == JUDGE)
    assert output.first_failure is not None and output.first_failure.step_numbers == "2"
    _, text = run_cli("show", str(folder))
    assert "first failure at step 2 [6.4" in text


def test_show_prints_the_catalog_task_and_the_official_reason(scored_sample: Sample) -> None:
    from webeval_core.runs.index import build_index

    failed = [
        s for s in build_index(scored_sample.root).summaries if s.verdict and s.verdict.status == "failure"
    ]
    assert failed
    code, text = run_cli("show", str(failed[0].path))
    assert code == 0
    assert "Task:     " in text and "(not stated" not in text
    assert "Verdict:  failure" in text
    assert "Why:      " in text


def test_every_official_verdict_gets_a_line_and_an_unscored_task_says_so(tmp_path: Path) -> None:
    """A success is a verdict too (the official CLI's eval_result.json): `show` says it as the
    app's header does, and a WebArena-Verified folder nothing judged says "not scored"."""
    from tests.harness.builders import wav_folder

    _, scored = run_cli("show", str(wav_folder(tmp_path, "108", eval_result=True)))
    assert "Verdict:  success, score 1, from eval_result.json" in scored.splitlines()
    _, unscored = run_cli("show", str(wav_folder(tmp_path, "107")))
    assert "Verdict:  not scored" in unscored.splitlines()


def test_show_json_names_each_code_it_gives(tmp_path: Path) -> None:
    from tests.harness.verifier_files import JUDGE, RUN, TASK, verifier_root

    folder = verifier_root(tmp_path) / RUN / "traj" / TASK
    _, text = run_cli("show", str(folder), "--json")
    (verifier,) = (v for v in json.loads(text)["verifiers"] if v["judge"] == JUDGE)
    assert verifier["first_failure"]["error"] == {"code": "6.4", "name": "Fine-grained grounding error"}
    codes = {code["code"]: code["name"] for code in verifier["codes"]}
    assert {"6.4", "3.2.1", "2.3", "7.1"} <= set(codes)  # failure points' codes, then the task's
    assert all(codes.values())


def test_show_and_its_page_give_the_reasoning_fara_wrote_in_the_rubric_check(tmp_path: Path) -> None:
    """Fara's example shape: `outcome_reasoning` empty, the justification in
    `rubric_outcome_verification.reasoning`; `show` and `show --html` give it, not "(no reasoning)"."""
    from tests.harness.verifier_files import (
        EXAMPLE_SHAPED_REASONING,
        EXAMPLE_SHAPED_RESPONSE,
        JUDGE,
        RUN,
        TASK,
        verifier_root,
    )

    folder = verifier_root(tmp_path, EXAMPLE_SHAPED_RESPONSE) / RUN / "traj" / TASK
    code, text = run_cli("show", str(folder))
    assert code == 0
    assert f"Judge {JUDGE}: success: {EXAMPLE_SHAPED_REASONING}" in text
    assert "(no reasoning)" not in text

    target = tmp_path / "page.html"
    assert run_cli("show", str(folder), "--html", str(target))[0] == 0
    assert EXAMPLE_SHAPED_REASONING in target.read_text(encoding="utf-8")
