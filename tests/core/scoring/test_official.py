"""The seam to the official library still fits the installed version.

`scoring.official` relies on names outside the library's public API (internal modules, methods
with a leading underscore). Each is listed in `official.RELIES_ON` with the parameters we pass;
after an upgrade, these tests name exactly what moved, instead of a scoring test failing somewhere.
"""

from __future__ import annotations

import ast
import json
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from webeval_core.reading.response import evaluator_json
from webeval_core.scoring import official

RETRIEVE = {"task_type": "retrieve", "status": "SUCCESS", "retrieved_data": ["Quest Lumaflex™ Band"]}

ROOT = Path(__file__).resolve().parents[3]
PINNED = "1.2.3"
SEAM = ("official.py", "shortcuts.py")  # the modules that may import the library


def test_the_installed_library_is_the_pinned_version() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert f"webarena-verified=={PINNED}" in dependencies
    assert version("webarena-verified") == PINNED, (
        f"webarena_verified {version('webarena-verified')} is installed, the seam was checked with {PINNED}"
    )


@pytest.mark.parametrize("reliance", official.RELIES_ON, ids=lambda r: f"{r.module}.{r.attribute}")
def test_each_relied_on_name_exists_with_the_parameters_used(reliance: official.Reliance) -> None:
    problem = official.reliance_problem(reliance)
    assert problem is None, problem


def test_a_changed_signature_is_named() -> None:
    moved = official.Reliance(
        "webarena_verified.core.evaluation.evaluators.network_event_evaluator",
        "NetworkEventEvaluator._filter_events_by_criteria",
        ("events", "config", "context"),
    )
    assert official.reliance_problem(moved) == (
        "webarena_verified webarena_verified.core.evaluation.evaluators.network_event_evaluator."
        "NetworkEventEvaluator._filter_events_by_criteria no longer takes (events, config, context); "
        "it takes (events, context, config)"
    )
    gone = official.Reliance("webarena_verified.types.eval", "NoSuchThing", None)
    assert (
        official.reliance_problem(gone)
        == "webarena_verified webarena_verified.types.eval.NoSuchThing no longer exists"
    )


def _used_names(tree: ast.AST) -> tuple[set[str], set[str], set[str]]:
    """In a module's source: private attributes used, private names it defines itself, and names
    imported from webarena_verified."""
    used = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
    }
    defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)} | {
        target.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute)
    }
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("webarena_verified")
        for alias in node.names
    }
    return used, defined, imported


@pytest.mark.parametrize("module", SEAM)
def test_every_library_name_the_seam_uses_is_in_the_table(module: str) -> None:
    used, defined, imported = _used_names(ast.parse((ROOT / "webeval_core/scoring" / module).read_text()))
    listed = {part for r in official.RELIES_ON for part in r.attribute.split(".")}
    listed |= {r.module.rsplit(".", 1)[-1] for r in official.RELIES_ON}
    missing = sorted((used - defined - listed) | (imported - listed))
    assert not missing, f"{module} uses {missing} of webarena_verified without listing them in RELIES_ON"


def test_no_other_module_imports_the_library() -> None:
    for path in sorted((ROOT / "webeval_core").rglob("*.py")):
        if path.parent.name == "scoring" and path.name in SEAM:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            modules = (
                [node.module or ""] if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names] if isinstance(node, ast.Import)
                else []
            )  # fmt: skip
            assert not any(m.startswith("webarena_verified") for m in modules), f"{path} imports {modules}"


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(RETRIEVE),
        "  " + json.dumps(RETRIEVE) + "\n",
        "```json\n" + json.dumps(RETRIEVE) + "\n```",
        "```\n" + json.dumps(RETRIEVE) + "\n```",
        "before ```json\n{bad}\n``` after",
        "no json here",
    ],
)
def test_mirror_of_the_evaluators_own_extraction(text: str) -> None:
    """Guards the copy of the evaluator's extraction against upstream changes."""
    upstream = official.extract_agent_response(text)
    # Upstream hands back the unparsed string when the JSON is bad; the mirror says None.
    assert (evaluator_json(text) or None) == (None if isinstance(upstream, str) else upstream)


@pytest.mark.parametrize("config", [None, "sample"])
def test_the_eval_hash_is_named_without_the_library(config: str | None) -> None:
    """Up-to-date checks name the score file without importing the library: the same name."""
    from webarena_verified.core.utils.checksum import compute_evaluator_checksum

    from tests.harness.har_builders import CONFIG
    from webeval_core.reading.task_catalog import load_catalog
    from webeval_core.scoring import UrlConfig

    url_config = UrlConfig.from_dict(CONFIG) if config else None
    engine = official.engine_for(load_catalog(), url_config)
    assert official.eval_hash_for(load_catalog(), url_config) == engine.eval_hash
    assert official._library_checksum() == compute_evaluator_checksum()
    assert engine.eval_hash.startswith(official.eval_hash_for_prefix())
