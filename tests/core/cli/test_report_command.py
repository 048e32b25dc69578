"""`webeval report` against counts made by hand from the score files, and `webeval verdicts`: the
published figures a team scripts its release with, roles and history included."""

from __future__ import annotations

import csv
import io
import json
import os
from math import sqrt
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Sample, private_copy
from tests.core.cli.helpers import run_cli
from webeval_core.runs import discover_runs

Z95 = 1.959963984540054
"""The textbook two-sided 95% normal quantile."""


@pytest.fixture(autouse=True)
def _private_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBEVAL_ANNOTATIONS", str(tmp_path / "store.sqlite"))
    monkeypatch.delenv("WEBEVAL_ROLES", raising=False)


def _hand_count(
    run_dir: Path, left_out: frozenset[str] = frozenset(), edited: dict[str, float] | None = None
) -> tuple[int, float]:
    """(counted, passed) of a run from its WebArena-Verified score files, read as JSON by hand: a
    success or failure counts its score, an evaluator error and a folder never scored do not."""
    counted, total = 0, 0.0
    for folder in sorted(p for p in run_dir.iterdir() if p.is_dir()):
        if folder.name in left_out:
            continue
        if edited and folder.name in edited:
            counted, total = counted + 1, total + edited[folder.name]
            continue
        if _status(folder) in ("success", "failure"):
            newest = max(
                (folder / "scores").glob("webarena-verified-*.json"), key=lambda p: p.stat().st_mtime
            )
            counted, total = counted + 1, total + float(json.loads(newest.read_text())["score"])
    return counted, total


def _status(folder: Path) -> str | None:
    files = sorted((folder / "scores").glob("webarena-verified-*.json"), key=lambda p: p.stat().st_mtime)
    if not files:
        return None
    return str(json.loads(json.loads(files[-1].read_text())["gpt_response_text"])["result"]["status"])


def _wilson(total: float, n: int) -> tuple[float, float]:
    p = total / n
    denominator = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denominator
    half = Z95 / denominator * sqrt(p * (1 - p) / n + Z95**2 / (4 * n**2))
    return centre - half, centre + half


def _report(root: Path, *options: str) -> dict[str, Any]:
    code, text = run_cli("report", str(root), "--format", "json", *options)
    assert code == 0
    return json.loads(text)


def _wav_runs(root: Path) -> dict[str, Path]:
    return {
        run.key: run.path / "traj"
        for run in discover_runs(root)
        if run.run_id is not None and "WebArenaVerified" in run.key
    }


def test_the_rates_are_hand_counts_of_the_score_files(scored_sample: Sample) -> None:
    lines = {line["group"]: line for line in _report(scored_sample.root)["lines"]}
    runs = _wav_runs(scored_sample.root)
    assert len(runs) == 2
    for key, run_dir in runs.items():
        counted, total = _hand_count(run_dir)
        line = lines[key]
        assert (line["scored"]["counted"], line["scored"]["total"]) == (counted, pytest.approx(total))
        assert line["published"] == line["scored"] and line["edits"] == line["excluded"] == 0
        assert line["scored"]["wilson"] == [pytest.approx(v) for v in _wilson(total, counted)]
        low, high = line["scored"]["bootstrap"]
        assert low <= total / counted <= high


@pytest.mark.slow
def test_edits_and_exclusions_move_the_published_rate_only(scored_sample: Sample, tmp_path: Path) -> None:
    root = private_copy(scored_sample.root, tmp_path / "runs")
    key, run_dir = min(_wav_runs(root).items())
    before = {line["group"]: line for line in _report(root)["lines"]}[key]
    failed = next(t for t in sorted(p.name for p in run_dir.iterdir()) if _status(run_dir / t) == "failure")
    code, said = run_cli(
        "verdicts", "set", str(root), "--run", key, "--task", failed, "--verdict", "success",
        "--reason", "the right total, as text", "--as", "ann",
    )  # fmt: skip
    assert code == 0 and f"task {failed}" in said
    assert (
        run_cli("verdicts", "exclude", str(root), "--task", "556", "--reason", "site down", "--as", "ann")[0]
        == 0
    )
    after = {line["group"]: line for line in _report(root)["lines"]}[key]
    assert after["scored"] == before["scored"]
    counted, total = _hand_count(run_dir, left_out=frozenset({"556"}), edited={failed: 1.0})
    assert (after["published"]["counted"], after["published"]["total"]) == (counted, pytest.approx(total))
    assert after["edits"] == 1 and after["excluded"] == int((run_dir / "556").is_dir())

    # Exports carry them: the rows' published columns, and the audit's records with who and why.
    code, exported = run_cli("export", str(root), "--with-annotations")
    assert code == 0
    rows = {(r["run"], r["task_id"]): r for r in csv.DictReader(io.StringIO(exported))}
    assert rows[(key, failed)]["published"] == "pass by ann (edit)"
    assert rows[(key, failed)]["edit_reason"] == "the right total, as text"
    assert {r["excluded_reason"] for (_, task), r in rows.items() if task == "556"} == {"site down"}
    html = tmp_path / "html"
    assert run_cli("export", str(root), "--run", key, "--format", "html", "-o", str(html))[0] == 0
    assert (
        "as published" in (html / "index.html").read_text() and "1 edit" in (html / "index.html").read_text()
    )
    audit = tmp_path / "audit.jsonl"
    assert run_cli("annotations", "export", str(root), "--audit", str(audit))[0] == 0
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    bodies = {r["kind"]: json.loads(r["body"]) for r in records if r["kind"] in ("verdict_edit", "exclusion")}
    assert bodies["verdict_edit"]["reason"] == "the right total, as text"
    assert bodies["exclusion"]["author"] == "ann"

    code, listed = run_cli("verdicts", "list", str(root), "--json", "--history")
    document = json.loads(listed)
    assert [e["edit"]["task_id"] for e in document["edits"]] == [failed]
    assert [e["task_id"] for e in document["exclusions"]] == ["556"]
    assert len(document["edit_history"]) == 1 and len(document["exclusion_history"]) == 1
    # Undo is another row: the figure is back, the history keeps both.
    assert (
        run_cli(
            "verdicts",
            "withdraw",
            str(root),
            "--run",
            key,
            "--task",
            failed,
            "--reason",
            "wrong after all",
            "--as",
            "bob",
        )[0]
        == 0
    )
    back = {line["group"]: line for line in _report(root)["lines"]}[key]
    assert back["edits"] == 0
    assert (
        len(json.loads(run_cli("verdicts", "list", str(root), "--json", "--history")[1])["edit_history"]) == 2
    )


def test_a_viewer_and_a_reviewer_are_refused(
    scored_sample: Sample, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roles = tmp_path / "roles.toml"
    roles.write_text('[roles]\n"rev" = "reviewer"\n"adj" = "adjudicator"\n', encoding="utf-8")
    key = min(_wav_runs(scored_sample.root))
    for who in ("vic", "rev"):
        code, _ = run_cli(
            "verdicts", "set", str(scored_sample.root), "--roles", str(roles), "--run", key, "--task", "11",
            "--verdict", "success", "--reason", "fine", "--as", who,
        )  # fmt: skip
        assert code == 1
        assert "needs the adjudicator role" in capsys.readouterr().err
    assert "WEBEVAL_ROLES" not in os.environ  # the roles file is read, the process's environment kept
    code, _ = run_cli(
        "verdicts", "exclude", str(scored_sample.root), "--roles", str(roles), "--task", "11",
        "--reason", "fine", "--as", "adj",
    )  # fmt: skip
    assert code == 0


@pytest.mark.parametrize("fmt", ["md", "csv", "latex"])
def test_every_format_carries_both_figures_and_the_provenance(scored_sample: Sample, fmt: str) -> None:
    code, text = run_cli("report", str(scored_sample.root), "--format", fmt)
    assert code == 0
    json_lines = _report(scored_sample.root)["lines"]
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        assert [r["run"] for r in rows] == [line["group"] for line in json_lines]
        for row, line in zip(rows, json_lines, strict=True):
            if line["scored_rate"] is None:  # the live-web run: the root's default judge scored none
                assert row["scored_rate"] == "" and line["judges"] == []
                continue
            assert float(row["scored_rate"]) == pytest.approx(line["scored_rate"], abs=1e-6)
        assert any(r["library"] == "1.2.3" and len(r["dataset_checksums"]) == 64 for r in rows)
        return
    assert "as they are" in text and "Wilson" in text  # what the figures are
    assert text.count("webarena-verified-1.2.3-") >= 2
    if fmt == "latex":
        assert r"\begin{tabular}" in text and "WebArenaVerified\\_sample" in text


@pytest.mark.slow
def test_an_812_task_run_counts_as_its_score_files(scored_sample: Sample, tmp_path: Path) -> None:
    from benchmarks.synthetic_roots import build_runs

    root = tmp_path / "large"
    assert build_runs(scored_sample.root, root, 812) == 812
    ((key, run_dir),) = _wav_runs(root).items()
    counted, total = _hand_count(run_dir)
    (line, *_) = _report(root)["lines"]
    assert line["group"] == key and line["trajectories"] == 812
    assert (line["scored"]["counted"], line["scored"]["total"]) == (counted, pytest.approx(total))
    assert line["scored"]["wilson"] == [pytest.approx(v) for v in _wilson(total, counted)]
