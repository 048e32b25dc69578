"""The task catalog: the installed 812 tasks, other dataset files, and plain reasons for bad ones."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webeval_core.reading.task_catalog import default_dataset_path, load_catalog
from webeval_core.support.diagnostics import UnreadableError


def test_default_catalog_has_the_official_counts() -> None:
    catalog = load_catalog()
    types = [t.task_type for t in catalog.tasks.values()]
    assert len(catalog) == 812
    assert catalog.is_default
    assert (types.count("mutate"), types.count("retrieve"), types.count("navigate")) == (374, 325, 113)
    assert sum(1 for t in catalog.tasks.values() if t.network_checks) == 488
    assert sum(len(t.network_checks) for t in catalog.tasks.values()) == 663
    statuses = [t.expected.status for t in catalog.tasks.values()]
    assert statuses.count("SUCCESS") == 772 and statuses.count("NOT_FOUND_ERROR") == 28
    assert catalog.checksum == hashlib.sha256(default_dataset_path().read_bytes()).hexdigest()


def test_task_fields_and_network_check_defaults() -> None:
    catalog = load_catalog()
    bio = catalog.get("399")
    assert bio is not None
    assert bio.sites == ("reddit",) and bio.site_key == "reddit"
    assert bio.task_type == "mutate" and bio.expected.retrieved_data is None
    (check,) = bio.network_checks
    assert check.position == 1
    assert (check.http_method, check.response_status) == ("POST", 302)
    assert check.last_event_only is False and check.should_not_exist is False
    todos = catalog.get(44)
    assert todos is not None
    (nav,) = todos.network_checks
    assert nav.url == ("__GITLAB__/dashboard/todos", "__GITLAB__/dashboard/todos?state=pending")
    # Defaults are the evaluator's: GET, 200, last event only.
    assert (nav.http_method, nav.response_status, nav.last_event_only) == ("GET", 200, True)
    first = catalog.get(0)
    assert first is not None
    assert first.intent_template_id == 279 and first.instantiation_dict["n"] == 1
    assert first.expected.retrieved_data == ["Quest Lumaflex™ Band"]
    assert first.results_schema == {"type": "array", "items": {"type": "string"}}


@pytest.mark.parametrize("key", ["abc", "", "-1", "99999", 99999])
def test_unknown_task_ids(key: str | int) -> None:
    assert load_catalog().get(key) is None


def test_loading_does_not_import_the_evaluator() -> None:
    code = (
        "import sys; from webeval_core.reading.task_catalog import load_catalog; load_catalog();"
        " print('webarena_verified' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def _subset(tmp_path: Path, ids: list[int]) -> Path:
    raw = json.loads(default_dataset_path().read_text())
    path = tmp_path / "subset.json"
    path.write_text(json.dumps([t for t in raw if t["task_id"] in ids]))
    return path


def test_another_dataset_file_and_cache(tmp_path: Path) -> None:
    path = _subset(tmp_path, [0, 44, 399])
    catalog = load_catalog(path)
    assert sorted(catalog.tasks) == [0, 44, 399]
    assert not catalog.is_default
    assert catalog.checksum == hashlib.sha256(path.read_bytes()).hexdigest()
    assert load_catalog(path) is catalog  # unchanged file: cached
    path.write_text(json.dumps(json.loads(path.read_text())[:2]))
    assert sorted(load_catalog(path).tasks) == [0, 44]  # changed file: reloaded


def _task(**changes: object) -> dict[str, object]:
    task = json.loads(default_dataset_path().read_text())[0]
    task.update(changes)
    return task


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("", "not valid JSON (line 1, column 1"),
        ('[{"task_id": 1,', "not valid JSON"),
        ('{"tasks": []}', "expected a JSON list of tasks, found an object"),
        ("[]", "holds no tasks"),
        (json.dumps([_task(intent=None) | {"intent": None}]), "'intent' must be a non-empty string"),
        (
            json.dumps([{k: v for k, v in _task().items() if k != "eval"}]),
            "task #1 (task_id 0): missing eval",
        ),
        (json.dumps([_task(), _task()]), "task_id 0 appears more than once"),
        (json.dumps([_task(sites=["amazon"])]), "unknown site 'amazon'"),
        (json.dumps([_task(eval=[])]), "no AgentResponseEvaluator"),
        (json.dumps([_task(task_id="7")]), "'task_id' must be an integer, found a string"),
    ],
)
def test_bad_dataset_files_give_plain_reasons(tmp_path: Path, content: str, reason: str) -> None:
    path = tmp_path / "tasks.json"
    path.write_text(content)
    with pytest.raises(UnreadableError) as caught:
        load_catalog(path)
    assert reason in caught.value.reason


def test_missing_dataset_file(tmp_path: Path) -> None:
    with pytest.raises(UnreadableError, match="dataset file not found"):
        load_catalog(tmp_path / "nope.json")


def test_special_task_files_and_odd_ids_are_refused_plainly(tmp_path: Path) -> None:
    fifo = tmp_path / "tasks.json"
    os.mkfifo(fifo)
    with pytest.raises(UnreadableError) as caught:
        load_catalog(fifo)
    assert caught.value.reason == "the dataset file is a FIFO, not a regular file; not opened"
    catalog = load_catalog()
    assert catalog.get("\u00b2") is None and catalog.get("1" * 5000) is None and catalog.get("7") is not None
