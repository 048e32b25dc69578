"""Scoring: WebArena-Verified verdicts of trajectory folders, and where each network check looked.

Owns the official evaluator (`official` is the one module that imports `webarena_verified`, behind
functions with our own names), the typed official result (`results`), the URL config (`config`),
one evaluation and its network provenance (`evaluation`, `provenance`), score files (`store`),
scoring folders one by one or in batches (`trajectories`, `summary`), on a Dask cluster
(`cluster`) and reading verdicts back without loading the evaluator (`verdicts`).

May import: reading, remote (a cluster worker's copy of a store's folders), diagnostics and
parallel. Never imports runs, review, presentation or streamlit. Names load on first use, so
reading a verdict (the index does) never loads the evaluator.
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "ABORTED",
    "CONFIG_FILE_NAME",
    "ENGINE_NAME",
    "NO_ANSWER",
    "RESPONSE_EVALUATOR",
    "RUN_CONFIG_FILE_NAME",
    "AssertionResult",
    "Candidate",
    "ClusterError",
    "EngineInfo",
    "EvalStatus",
    "Evaluation",
    "EvaluatorResult",
    "FieldDiff",
    "FlipReport",
    "NetworkCheckTrace",
    "ScoreOutcome",
    "ScoreSummary",
    "ScoreWriteError",
    "SeenVerdict",
    "Status",
    "Tally",
    "TaskResult",
    "UrlConfig",
    "UrlConfigUse",
    "Verdict",
    "check_submission",
    "cluster_root",
    "commit_outcome",
    "evaluate",
    "evaluate_trajectory",
    "failure_reason",
    "find_url_config",
    "flip_report",
    "har_problem",
    "load_url_config",
    "read_verdict",
    "read_verdict_with_result",
    "scheduler_address",
    "score_file_bytes",
    "score_file_path",
    "score_on_cluster",
    "score_trajectories",
    "score_trajectory",
    "stored_engine",
    "stored_evaluation",
    "stored_task_result",
    "summarize_scores",
    "task_problem",
    "verdicts_before",
    "write_score_file",
]

if TYPE_CHECKING:
    from webeval_core.scoring.cluster import ClusterError, cluster_root, scheduler_address, score_on_cluster
    from webeval_core.scoring.config import (
        CONFIG_FILE_NAME,
        RUN_CONFIG_FILE_NAME,
        UrlConfig,
        find_url_config,
        load_url_config,
    )
    from webeval_core.scoring.evaluation import (
        EngineInfo,
        Evaluation,
        UrlConfigUse,
        evaluate,
        har_problem,
        stored_engine,
    )
    from webeval_core.scoring.flips import FlipReport, SeenVerdict, flip_report, verdicts_before
    from webeval_core.scoring.official import task_problem
    from webeval_core.scoring.packaging import check_submission
    from webeval_core.scoring.provenance import Candidate, FieldDiff, NetworkCheckTrace
    from webeval_core.scoring.results import (
        ENGINE_NAME,
        RESPONSE_EVALUATOR,
        AssertionResult,
        EvalStatus,
        EvaluatorResult,
        TaskResult,
    )
    from webeval_core.scoring.score_writer import (
        ScoreWriteError,
        score_file_bytes,
        score_file_path,
        stored_evaluation,
        write_score_file,
    )
    from webeval_core.scoring.scorer import (
        ScoreOutcome,
        Status,
        commit_outcome,
        evaluate_trajectory,
        failure_reason,
        score_trajectories,
        score_trajectory,
    )
    from webeval_core.scoring.tallies import ScoreSummary, Tally, summarize_scores
    from webeval_core.scoring.verdicts import (
        ABORTED,
        NO_ANSWER,
        Verdict,
        read_verdict,
        read_verdict_with_result,
        stored_task_result,
    )
else:
    __getattr__ = lazy_getattr(__name__, __file__)
