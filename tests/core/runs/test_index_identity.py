"""Issue 25: the faster index gives exactly the summaries the slower one gave, on every folder.

The index of the sample runs, the issue-13 hostile corpus and verifier folders (every generation,
nested and odd shapes) is built twice: by today's code, and with the verifier test put back as it
was (one breadth-first `find` per key, `isinstance(..., Mapping)` throughout). Every summary must
be equal, field by field.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.harness.hostile import hostile_root
from tests.harness.verifier_files import odd_verifier_root
from webeval_core.reading import verifier
from webeval_core.runs.index import build_index
from webeval_core.runs.summary import TrajectorySummary

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "sample_runs"

# Score responses whose verifier keys sit at every depth the search reaches, one past it, under a
# list (never searched), as None (not found), or beside an official evaluation's `engine`.
ODD_RESPONSES: dict[str, Any] = {
    "top": {"rubric_is_success": 1, "engine": {"name": "x"}},
    "second": {"a": {"first_point_of_failure": {"step": 2, "error_code": "2.1"}}},
    "third": {"a": {"b": {"cp_type_used": "irreversible"}}},
    "too_deep": {"a": {"b": {"c": {"outcome_success": True}}}},
    "in_a_list": {"a": [{"task_verification": {"ok": True}}], "engine": {}},
    "none": {"verifier_success": None, "a": {"verifier_reasoning": None}},
    "scalar_values": {"a": 1, "b": "text", "c": 1.5, "d": True, "e": None, "f": [1, 2]},
    "array": [{"rubric_items": []}],
}


def _old_holds_any(self: verifier.FieldReader, keys: frozenset[str]) -> bool:
    """The test as it was before issue 25: one `find` per key, each walking with the ABC."""
    return any(_old_find(self.response, key) is not None for key in sorted(keys))


def _old_find(response: Any, key: str) -> Any:
    level: list[Any] = [response]
    for _ in range(3):
        deeper: list[Any] = []
        for item in level:
            if isinstance(item, Mapping):
                if item.get(key) is not None:
                    return item[key]
                deeper.extend(v for v in item.values() if isinstance(v, Mapping))
        level = deeper
    return None


def _summaries(root: Path, cache: Path) -> dict[str, dict[str, Any]]:
    index = build_index(root, cache_dir=cache, use_cache=False, workers=1)
    return {s.key: _fields(s) for s in index.summaries}


def _fields(summary: TrajectorySummary) -> dict[str, Any]:
    return json.loads(summary.model_dump_json())


@pytest.fixture
def odd_root(tmp_path: Path) -> Path:
    return odd_verifier_root(tmp_path / "verifiers", ODD_RESPONSES)


def _both(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    new = _summaries(root, tmp_path / "new")
    with monkeypatch.context() as patch:
        patch.setattr(verifier.FieldReader, "holds_any", _old_holds_any)
        old = _summaries(root, tmp_path / "old")
    assert new.keys() == old.keys()
    assert [key for key in new if new[key] != old[key]] == []
    assert new == old


def test_the_sample_runs_index_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "sample"
    shutil.copytree(SAMPLE, root, symlinks=True)
    _both(root, tmp_path, monkeypatch)


def test_the_hostile_corpus_indexes_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with hostile_root(tmp_path / "hostile") as corpus:
        _both(corpus.root, tmp_path, monkeypatch)


def test_verifier_folders_index_as_before(
    odd_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _both(odd_root, tmp_path, monkeypatch)


@pytest.mark.parametrize("name", sorted(ODD_RESPONSES))
def test_one_walk_finds_what_a_walk_per_key_finds(name: str) -> None:
    response = ODD_RESPONSES[name]
    fields = verifier.FieldReader(response, "scores/judge.json")  # type: ignore[arg-type]
    keys = verifier.VERIFIER_KEYS
    assert fields.holds_any(keys) == _old_holds_any(fields, keys)
    assert fields.holds_any(keys) == any(fields.find(key)[0] is not None for key in keys)
