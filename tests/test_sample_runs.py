"""`sample_runs/` is what `scripts/make_sample_runs.py` produces, stays small, and has the mix it claims.

The tree is regenerated once per session into a temporary folder (in another time zone, to prove the output
does not depend on the machine's) and compared file by file with the committed one.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_runs"
SCRIPT = ROOT / "scripts" / "make_sample_runs.py"
RUNS = SAMPLE / "runs"
RUN = Path("demo", "WebArenaVerified_sample", "0", "traj")
FARA = RUNS / "WebSurfer-fara-100-max_n_images-3" / "fara-7b" / RUN
SOM = RUNS / "WebSurfer-som-100" / "gpt-4o-som" / RUN
# fara-7b on tasks of the live web (WebTailBench's shape), judged by the Universal Verifier only.
LIVE_RUN = RUNS / "WebSurfer-fara-100-max_n_images-3" / "fara-7b" / "demo" / "WebTailBench_sample" / "0"
LIVE = LIVE_RUN / "traj"
JUDGE = "mmrubric_0.8-5-3"
LOCAL_OFFSET = timedelta(hours=-8)  # the sample's logs are naive local time in UTC-08:00
CORE_LINE = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \[(INFO|WARNING|ERROR)\] webeval\.core\.\w+ - "
)
BRIEF_SCENARIOS = {
    "right_answer", "wrong_values", "wrong_task_type", "not_found_correct", "fenced_json", "json_in_prose",
    "action_results_naming", "malformed", "no_answer", "aborted", "crash_no_answer", "mutate_request_present",
    "mutate_request_missing", "mutate_request_wrong", "navigate_right", "navigate_wrong",
}  # fmt: skip

pytestmark = [
    pytest.mark.skipif(not SAMPLE.is_dir(), reason="sample_runs/ has not been generated"),
    # url_normalize (used by the official evaluator) warns about an idna argument on every URL
    pytest.mark.filterwarnings("ignore:Transitional processing is deprecated:DeprecationWarning"),
]


def _verdicts() -> dict[str, dict[str, Any]]:
    return json.loads((SAMPLE / "intended_verdicts.json").read_text(encoding="utf-8"))


def _trajectories() -> list[Path]:
    return sorted(p for p in RUNS.glob("*/*/*/*/*/traj/*") if p.is_dir())


def _harness_trajectories() -> list[Path]:
    from webeval_core.runs.discovery import iter_trajectory_dirs

    return sorted(iter_trajectory_dirs(SAMPLE / "via-other-harnesses"))


def _log_events(folder: Path) -> list[dict[str, Any]]:
    events = []
    for line in (folder / "web_surfer.log").read_text(encoding="utf-8").splitlines():
        if line.startswith("{"):
            with contextlib.suppress(json.JSONDecodeError):  # a line cut off by a crash
                events.append(json.loads(line))
    return events


def _utc(local_iso: str) -> datetime:
    return (datetime.fromisoformat(local_iso) - LOCAL_OFFSET).replace(tzinfo=UTC)


def _same(a: Path, b: Path) -> bool:
    """Same bytes; for PNGs, same pixels is enough: other zlib builds may compress identical images
    differently."""
    if a.read_bytes() == b.read_bytes():
        return True
    if a.suffix != ".png":
        return False
    with Image.open(a) as x, Image.open(b) as y:
        return x.size == y.size and x.convert("RGB").tobytes() == y.convert("RGB").tobytes()


def _tree(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()}


@pytest.fixture(scope="session")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sample") / "sample_runs"
    env = {**os.environ, "TZ": "Asia/Kolkata"}
    done = subprocess.run([sys.executable, str(SCRIPT), "--out", str(out)], env=env, cwd=ROOT, check=False,
                          capture_output=True, text=True, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.mark.slow
def test_committed_tree_is_what_the_generator_produces(regenerated: Path) -> None:
    committed, fresh = _tree(SAMPLE), _tree(regenerated)
    assert sorted(committed) == sorted(fresh), "file lists differ: re-run scripts/make_sample_runs.py"
    different = [name for name in sorted(committed) if not _same(committed[name], fresh[name])]
    assert not different, f"{len(different)} files differ, e.g. {different[:5]}: re-run the generator"


def test_sample_stays_small() -> None:
    files = [p for p in SAMPLE.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    blocks = sum(getattr(p.stat(), "st_blocks", 0) * 512 for p in files)
    assert size < 15_000_000
    assert blocks < 15 * 1024 * 1024  # what `du -sh` reports


def test_both_models_run_the_same_real_tasks_over_all_sites_and_types() -> None:
    from webarena_verified.api import WebArenaVerified

    dataset = {t.task_id: t for t in WebArenaVerified().get_tasks()}
    fara = {int(p.name) for p in FARA.iterdir()}
    som = {int(p.name) for p in SOM.iterdir()}
    assert fara == som and len(fara) >= 40
    assert fara <= set(dataset)
    sites = {str(s.value) for t in fara for s in dataset[t].sites}
    assert sites >= {"shopping", "shopping_admin", "reddit", "gitlab", "wikipedia", "map"}
    types = {dataset[t].expected_agent_response.task_type.lower() for t in fara}
    assert types == {"retrieve", "navigate", "mutate"}
    cli = sorted((SAMPLE / "webarena-verified-cli").iterdir())
    assert len(cli) == 5
    assert all({f.name for f in p.iterdir()} == {"agent_response.json", "network.har", "scores"} for p in cli)


def test_intended_verdicts_cover_every_trajectory_and_the_claimed_mix() -> None:
    from webeval_core.reading import load_trajectory

    verdicts = _verdicts()
    folders = {p.relative_to(SAMPLE).as_posix() for p in _trajectories()}
    folders |= {p.relative_to(SAMPLE).as_posix() for p in (SAMPLE / "webarena-verified-cli").iterdir()}
    folders |= {p.relative_to(SAMPLE).as_posix() for p in _harness_trajectories()}
    assert set(verdicts) == folders
    scenarios = Counter(v["scenario"] for v in verdicts.values())
    assert set(scenarios) >= BRIEF_SCENARIOS
    assert {v["expected_status"] for v in verdicts.values()} == {"success", "failure", "error", None}
    for rel, v in verdicts.items():
        named = load_trajectory(SAMPLE / rel).task_id if "harness" in v else rel.rsplit("/", 1)[1]
        assert str(v["task_id"]) == named, rel
        # Not scored: aborted runs, and tasks of the live web (no official evaluator).
        not_scored = ("aborted", "crash_no_answer", "live_answer")
        assert (v["expected_status"] is None) == (v["scenario"] in not_scored)
        assert (v["scenario"] == "live_answer") == rel.startswith(LIVE.relative_to(SAMPLE).as_posix())
    # The published schema's naming and prose-wrapped JSON only pass once the answer is extracted and mapped.
    for v in verdicts.values():
        if v["scenario"] in ("action_results_naming", "json_in_prose"):
            assert (v["expected_status"], v["raw_text_status"]) == ("success", "failure")


def test_raw_answers_get_the_recorded_official_verdicts() -> None:
    from webarena_verified.api import WebArenaVerified
    from webarena_verified.types.config import WebArenaVerifiedConfig

    wa = WebArenaVerified(config=WebArenaVerifiedConfig.from_file(SAMPLE / "webarena-verified-config.json"))
    for rel, v in _verdicts().items():
        if v["raw_text_status"] is None or "harness" in v:  # the harnesses' runs: the test below
            continue
        folder = SAMPLE / rel
        if rel.startswith("webarena-verified-cli/"):
            text = (folder / "agent_response.json").read_text(encoding="utf-8").strip()
        else:
            answer = json.loads((folder / f"{v['task_id']}_final_answer.json").read_text(encoding="utf-8"))
            text = answer["final_answer"]
        har = folder / "network.har"
        result = wa.evaluate_task(task_id=v["task_id"], agent_response=text, network_trace=har)
        assert result.model_dump(mode="json")["status"] == v["raw_text_status"], rel


def test_other_harnesses_runs_replay_the_planned_answers_with_their_verdicts() -> None:
    from webeval_core.reading import load_trajectory
    from webeval_core.scoring.verdicts import read_verdict

    formats = set()
    for folder in _harness_trajectories():
        v = _verdicts()[folder.relative_to(SAMPLE).as_posix()]
        trajectory = load_trajectory(folder)
        formats.add(trajectory.layout)
        source = json.loads((FARA if v["model"] == "fara-7b" else SOM).joinpath(
            str(v["task_id"]), f"{v['task_id']}_final_answer.json").read_text(encoding="utf-8"))  # fmt: skip
        # cube-harness's is its submit_response action's arguments, the same response as JSON text.
        assert trajectory.final_answer_text == source["final_answer"], folder
        verdict = read_verdict(trajectory.scores, trajectory.eval_result)
        assert verdict is not None and verdict.status == v["expected_status"], folder
        own = [s.score for name, s in trajectory.scores.items() if name.startswith("harness-")]
        assert own == (
            [] if v["harness"] == "online-mind2web" else [float(v["raw_text_status"] == "success")]
        )
    assert formats == {"agentlab", "cube-harness", "online-mind2web", "harbor-atif"}
    # Online-Mind2Web's own WebJudge, beside its results folder: a false positive on task 11.
    webjudge = {
        t.task_id: t.scores["webjudge-online-mind2web-o4-mini"].score
        for t in map(load_trajectory, _harness_trajectories())
        if t.layout == "online-mind2web"
    }
    assert webjudge == {"108": 1.0, "11": 1.0, "27": 0.0}


def _official_score_files(root: Path) -> list[Path]:
    return sorted(root.rglob("scores/webarena-verified-*.json"))


def test_official_verdicts_are_committed_and_a_fresh_scoring_reproduces_them_byte_for_byte(
    tmp_path: Path,
) -> None:
    from webeval_core.runs.discovery import iter_trajectory_dirs
    from webeval_core.scoring import score_trajectories

    committed = _official_score_files(SAMPLE)
    answered = [rel for rel, v in _verdicts().items() if v["expected_status"] is not None]
    assert len(committed) == len(answered)  # every answered trajectory; aborted ones are left out
    copy = tmp_path / "sample_runs"
    shutil.copytree(SAMPLE, copy)
    for path in _official_score_files(copy):
        path.unlink()
    outcomes = score_trajectories(list(iter_trajectory_dirs(copy)), config_root=copy)
    assert sum(o.score_file is not None and not o.reused for o in outcomes) == len(committed)
    fresh = [p.relative_to(copy) for p in _official_score_files(copy)]
    assert fresh == [p.relative_to(SAMPLE) for p in committed]
    different = [p for p in committed if p.read_bytes() != (copy / p.relative_to(SAMPLE)).read_bytes()]
    assert not different, f"fresh verdicts differ from the committed ones: {different[:3]}"


def test_scoring_the_committed_sample_changes_nothing(tmp_path: Path) -> None:
    copy = tmp_path / "sample_runs"
    shutil.copytree(SAMPLE, copy)
    before = {name: path.read_bytes() for name, path in _tree(copy).items()}
    command = [sys.executable, "-m", "webeval_core.cli", "score", str(copy)]
    done = subprocess.run(command, cwd=ROOT, check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"Score files: 0 written, {len(_official_score_files(SAMPLE))} already up to date." in done.stdout
    assert {name: path.read_bytes() for name, path in _tree(copy).items()} == before


def test_trajectory_folders_have_the_fara_files() -> None:
    verdicts = _verdicts()
    extra_usage = 0
    for folder in _trajectories():
        scenario = verdicts[folder.relative_to(SAMPLE).as_posix()]["scenario"]
        names = {p.name for p in folder.iterdir()}
        assert {"web_surfer.log", "core.log"} <= names
        answer_file = folder / f"{folder.name}_final_answer.json"
        if scenario == "crash_no_answer":
            assert not answer_file.exists() and "network.har" not in names
            continue
        text = answer_file.read_text(encoding="utf-8")
        assert not text.endswith("\n") and text.startswith('{\n  "final_answer"')
        answer = json.loads(text)
        assert list(answer) == [
            "final_answer", "env_state_json", "env_state_raw", "screenshots", "is_aborted", "is_rel_paths",
            "token_usage",
        ]  # fmt: skip
        assert answer["is_aborted"] == (scenario == "aborted")
        if scenario == "no_answer":
            assert answer["final_answer"] == "<no_answer>"
        assert all((folder / s).is_file() for s in answer["screenshots"])
        extra_usage += any("num_calls" in u for u in answer["token_usage"].values())
        assert ("network.har" in names) == (scenario not in ("har_missing", "live_answer"))
        times = json.loads((folder / "times.json").read_text(encoding="utf-8"))
        assert times["end_time"] - times["start_time"] == pytest.approx(times["duration"])
    assert extra_usage >= 3


def test_screenshots_use_both_namings_at_viewport_size() -> None:
    for folder in FARA.iterdir():
        shots = sorted(int(p.stem.removeprefix("screenshot")) for p in folder.glob("screenshot*.png"))
        assert shots == list(range(len(shots)))
    for folder in SOM.iterdir():
        shots = sorted(int(p.stem.removeprefix("screenshot_")) for p in folder.glob("screenshot_*.png"))
        assert shots == list(range(1, len(shots) + 1))
    with Image.open(FARA / "108" / "screenshot0.png") as im:
        assert im.size == (1440, 900)
    assert max(len(list(p.glob("*.png"))) for p in FARA.iterdir()) >= 61  # one long over-budget run


def test_logs_come_in_three_generations() -> None:
    generations: Counter[str] = Counter()
    for folder in _trajectories():
        events = _log_events(folder)
        if not events:
            continue
        if any(e.get("source") == "WebSurfer-SummarizedAction" for e in events):
            generations["solver"] += 1
            assert any(e["type"] == "LLMCallEvent" for e in events)
        elif any(e.get("action") == "computer_use" for e in events):
            generations["fara"] += 1
            for e in events:
                if e.get("action") == "computer_use" and "coordinate" in e["arguments"]:
                    x, y = e["arguments"]["coordinate"]
                    assert 0 <= x <= 1428 and 0 <= y <= 896  # model space, not PNG pixels
        else:
            generations["text"] += 1
            assert all(e["type"] == "OtherEvent" for e in events)
            assert any(re.match(r"Observation#\d+: ", e["message"]) for e in events)
    assert generations["fara"] >= 30 and generations["solver"] >= 30 and generations["text"] >= 3


def test_times_follow_the_local_time_convention() -> None:
    for folder in FARA.iterdir():
        events = _log_events(folder)
        if not events or not (folder / "times.json").exists():
            continue
        times = json.loads((folder / "times.json").read_text(encoding="utf-8"))
        first = _utc(events[0]["timestamp"]).timestamp()
        assert 0 < first - times["start_time"] < 10
        steps = [_utc(e["timestamp"]).timestamp() for e in events if "\nThought #" in e.get("message", "")]
        assert all(3 <= b - a <= 25 for a, b in itertools.pairwise(steps))


def test_har_files_parse_and_requests_fire_inside_their_step() -> None:
    from webarena_verified.types.tracing import NetworkTrace

    for har in sorted(SAMPLE.rglob("network.har")):
        data = json.loads(har.read_text(encoding="utf-8"))
        assert data["log"]["version"] == "1.2" and data["log"]["creator"]["name"] == "Playwright"
        assert NetworkTrace.from_content(har).evaluation_events
        for entry in data["log"]["entries"]:
            assert entry["startedDateTime"].endswith("Z") and entry["_resourceType"]
    for folder in [*FARA.iterdir(), *SOM.iterdir()]:
        if not (folder / "network.har").exists():
            continue
        events = _log_events(folder)
        # (start, end) of each action: its log line and its observation / summary line
        starts = [e["timestamp"] for e in events if "\nThought #" in e.get("message", "")]
        starts += [e["timestamp"] for e in events if e.get("source") == "WebSurfer" and e.get("action")]
        ends = [e["timestamp"] for e in events if e.get("message", "").startswith("Observation#")]
        ends += [e["timestamp"] for e in events if e.get("source") == "WebSurfer-SummarizedAction"]
        windows = [(_utc(a), _utc(b)) for a, b in zip(sorted(starts), sorted(ends), strict=True)]
        entries = json.loads((folder / "network.har").read_text(encoding="utf-8"))["log"]["entries"]
        for entry in entries:
            if entry["request"]["method"] == "GET":
                continue
            t = datetime.fromisoformat(entry["startedDateTime"])
            assert any(a <= t < b for a, b in windows), f"{folder}: {entry['request']['url']} outside steps"


def test_core_logs_have_the_lifecycle_and_errors_of_several_kinds() -> None:
    errors = set()
    for folder in _trajectories():
        lines = (folder / "core.log").read_text(encoding="utf-8").splitlines()
        assert CORE_LINE.match(lines[0]) and "] Start" in lines[0]
        logged = [line for line in lines if CORE_LINE.match(line)]
        assert logged
        errors |= {line.split(": ", 1)[0] for line in lines if re.match(r"^[\w.]+(Error|Pool): ", line)}
    assert len(errors) >= 3


def test_other_judges_score_files_are_present() -> None:
    gpt = json.loads((FARA / "108" / "scores" / "gpt_eval.json").read_text(encoding="utf-8"))
    assert isinstance(gpt["gpt_response_text"], str) and "SUCCESS" in gpt["gpt_response_text"]
    rubric = json.loads((FARA / "11" / "scores" / "mmrubric_0.8-5-3.json").read_text(encoding="utf-8"))
    assert json.loads(rubric["gpt_response_text"])["rubric_items"]


def test_url_config_is_the_official_shape() -> None:
    config = json.loads((SAMPLE / "webarena-verified-config.json").read_text(encoding="utf-8"))
    assert config["environments"]["__SHOPPING_ADMIN__"]["urls"] == ["http://localhost:7780/admin"]
    assert set(config["environments"]) == {
        "__SHOPPING__", "__SHOPPING_ADMIN__", "__REDDIT__", "__GITLAB__", "__WIKIPEDIA__", "__MAP__"
    }  # fmt: skip


def test_the_live_run_has_universal_verifier_files_of_both_generations_and_a_run_report() -> None:
    """Issue 22: failure points on real steps, a critical-point violation, an ambiguous task, an
    older generation, and a verify_report.jsonl with an error row and a row that disagrees."""
    from webeval_core.presentation.verifier_tables import report_differences
    from webeval_core.reading import load_trajectory
    from webeval_core.reading.verifier import verifier_outputs
    from webeval_core.reading.verifyreport import find_verify_reports, read_verify_report

    outputs = {}
    for folder in sorted(LIVE.iterdir()):
        trajectory = load_trajectory(folder)
        assert not (folder / "network.har").exists()
        assert json.loads((folder / "task_data.json").read_text(encoding="utf-8"))["task_proposal"]
        (output,), problems = verifier_outputs(trajectory.scores)
        assert problems == [] and output.judge == JUDGE
        # Every failure point names steps the trajectory has (action-history steps, 1-based).
        assert set(output.flagged_steps) <= set(range(1, len(trajectory.steps) + 1)), folder.name
        outputs[folder.name] = (folder, output)
    generations = Counter(output.is_universal for _, output in outputs.values())
    assert generations[True] >= 3 and generations[False] >= 1
    universal = [o for _, o in outputs.values() if o.is_universal]
    assert all(o.success_criterion is not None and o.failure is not None for o in universal)
    assert any(o.cp_violation for o in universal)
    assert any(o.task_verification and o.task_verification.is_ambiguous for o in universal)
    assert {p.error_code for o in universal for p in o.failure_points} >= {"1.2", "4.2"}
    older = next(o for _, o in outputs.values() if not o.is_universal)
    assert older.failure is not None and older.failure.reasoning and not older.failure_points

    (report_path,) = find_verify_reports(next(iter(outputs.values()))[0], SAMPLE)
    assert report_path == LIVE_RUN / "verify_report.jsonl"
    report, problems = read_verify_report(report_path)
    assert problems == [] and len(report.rows) == len(outputs)
    errors = [row for row in report.rows if row.is_error]
    assert len(errors) == 1 and errors[0].error
    differing = {
        row.task_id
        for row in report.rows
        if not row.is_error and report_differences(row, [outputs[str(row.task_id)][1]])
    }
    assert len(differing) == 1
