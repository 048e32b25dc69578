"""Batch summaries and the `webeval score` output built from them."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tests.core.scoring.helpers import (
    mixed_run,
)
from webeval_core import cli
from webeval_core.scoring import (
    score_trajectories,
    summarize_scores,
)


def test_summary(tmp_path: Path) -> None:
    summary = summarize_scores(score_trajectories(mixed_run(tmp_path / "run"), write=False))
    overall = summary.overall
    assert (overall.success, overall.failure, overall.error, overall.excluded) == (3, 3, 1, 1)
    assert overall.scored == 6 and overall.success_rate == 0.5
    assert summary.per_site["reddit"].success == 1 and summary.per_site["reddit"].failure == 1
    assert summary.per_site["unknown"].error == 1
    assert summary.per_site["gitlab"].excluded == 1 and summary.per_site["gitlab"].failure == 2
    assert summary.per_task_type["navigate"].scored == 2
    assert summary.per_task_type["retrieve"].success_rate == 1.0


def test_cli_score_json_and_table(tmp_path: Path) -> None:
    root = tmp_path / "run"
    mixed_run(root)
    out = io.StringIO()
    assert cli.main(["score", str(root), "--jobs", "1", "--json"], out=out) == 0
    payload = json.loads(out.getvalue())
    assert len(payload["results"]) == 8
    row = next(r for r in payload["results"] if r["task_id"] == "404")
    assert (
        row["status"] == "success"
        and row["score"] == 1.0
        and row["eval_hash"].startswith("webarena-verified-")
    )
    assert payload["summary"]["overall"]["success"] == 3
    table = io.StringIO()
    assert cli.main(["score", str(root), "--jobs", "1"], out=table) == 0
    text = table.getvalue()
    assert "overall" in text and "site reddit" in text and "type navigate" in text
    assert "0 written, 6 already up to date" in text
    assert "Errors (1):" in text and "99999" in text
