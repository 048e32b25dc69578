"""The scoring layer: WebArena-Verified verdicts of trajectory folders, and where each check looked.

It owns the official evaluator (`official` is the one module that imports `webarena_verified`),
the typed official result (`results`), the URL config (`config`), one evaluation and its network
provenance (`evaluation`, `provenance`), score files (`store`), scoring folders one by one or in
batches (`trajectories`, `summary`) and reading verdicts back without the evaluator (`verdicts`).

It may import `webeval_core.reading`, `webeval_core.diagnostics` and `webeval_core.parallel`; never
`runs`, `review`, `presentation` or streamlit. The names below are loaded on first use, so
importing this package (the index does, for verdicts) does not load the evaluator.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webeval_core.scoring.config import (
        CONFIG_FILE_NAME,
        RUN_CONFIG_FILE_NAME,
        UrlConfig,
        find_url_config,
        load_url_config,
    )
    from webeval_core.scoring.evaluation import EngineInfo, Evaluation, UrlConfigUse, evaluate, har_problem
    from webeval_core.scoring.provenance import Candidate, FieldDiff, NetworkCheckTrace
    from webeval_core.scoring.results import (
        ENGINE_NAME,
        AssertionResult,
        EvalStatus,
        EvaluatorResult,
        TaskResult,
    )
    from webeval_core.scoring.store import (
        score_file_bytes,
        score_file_path,
        stored_evaluation,
        write_score_file,
    )
    from webeval_core.scoring.summary import ScoreSummary, Tally, summarize_scores
    from webeval_core.scoring.trajectories import (
        ScoreOutcome,
        Status,
        failure_reason,
        score_trajectories,
        score_trajectory,
    )
    from webeval_core.scoring.verdicts import Verdict, read_verdict

_MODULES = {
    "config": ("CONFIG_FILE_NAME", "RUN_CONFIG_FILE_NAME", "UrlConfig", "find_url_config", "load_url_config"),
    "evaluation": ("EngineInfo", "Evaluation", "UrlConfigUse", "evaluate", "har_problem"),
    "provenance": ("Candidate", "FieldDiff", "NetworkCheckTrace"),
    "results": ("ENGINE_NAME", "AssertionResult", "EvalStatus", "EvaluatorResult", "TaskResult"),
    "store": ("score_file_bytes", "score_file_path", "stored_evaluation", "write_score_file"),
    "summary": ("ScoreSummary", "Tally", "summarize_scores"),
    "trajectories": ("ScoreOutcome", "Status", "failure_reason", "score_trajectories", "score_trajectory"),
    "verdicts": ("Verdict", "read_verdict"),
}
_HOME = {name: module for module, names in _MODULES.items() for name in names}

__all__ = [
    "CONFIG_FILE_NAME",
    "ENGINE_NAME",
    "RUN_CONFIG_FILE_NAME",
    "AssertionResult",
    "Candidate",
    "EngineInfo",
    "EvalStatus",
    "Evaluation",
    "EvaluatorResult",
    "FieldDiff",
    "NetworkCheckTrace",
    "ScoreOutcome",
    "ScoreSummary",
    "Status",
    "Tally",
    "TaskResult",
    "UrlConfig",
    "UrlConfigUse",
    "Verdict",
    "evaluate",
    "failure_reason",
    "find_url_config",
    "har_problem",
    "load_url_config",
    "read_verdict",
    "score_file_bytes",
    "score_file_path",
    "score_trajectories",
    "score_trajectory",
    "stored_evaluation",
    "summarize_scores",
    "write_score_file",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
