"""webeval_core: read web-agent trajectory folders, score them with WebArena-Verified, aggregate runs.

This module is the public facade: `from webeval_core import load_trajectory, score_trajectory`.
Behind it the data flows one way through layers, each a subpackage with its own public names:

    reading/       files -> models (trajectory folders, HAR traces, the task dataset)
    scoring/       models -> verdicts (the official evaluator, its provenance, score files)
    runs/          folders -> runs, a cached index, metrics
    review/        human annotations: store, queues, agreement with the judges
    presentation/  tables, frames, overlays, charts and the HTML page that views show

UI-free on purpose (never imports streamlit): the CLI (`webeval`) and the Streamlit app are two
faces of this package. Names are imported on first use, so importing one layer stays cheap.
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr
from webeval_core.version import __version__

__all__ = [
    "Annotation",
    "Diagnostic",
    "Evaluation",
    "Har",
    "RootIndex",
    "Run",
    "ScoreOutcome",
    "Step",
    "Task",
    "TaskCatalog",
    "Trajectory",
    "TrajectorySummary",
    "UnreadableError",
    "Verdict",
    "__version__",
    "agreement_report",
    "build_index",
    "discover_runs",
    "load_catalog",
    "load_trajectory",
    "open_annotations",
    "read_har",
    "read_verdict",
    "score_trajectories",
    "score_trajectory",
    "summarize_scores",
    "trajectory_frame",
    "trajectory_html",
]

if TYPE_CHECKING:
    from webeval_core.presentation import trajectory_html
    from webeval_core.reading import (
        Har,
        Step,
        Task,
        TaskCatalog,
        Trajectory,
        load_catalog,
        load_trajectory,
        read_har,
    )
    from webeval_core.review import Annotation, agreement_report, open_annotations
    from webeval_core.runs import (
        RootIndex,
        Run,
        TrajectorySummary,
        build_index,
        discover_runs,
        trajectory_frame,
    )
    from webeval_core.scoring import (
        Evaluation,
        ScoreOutcome,
        Verdict,
        read_verdict,
        score_trajectories,
        score_trajectory,
        summarize_scores,
    )
    from webeval_core.support.diagnostics import Diagnostic, UnreadableError
else:
    __getattr__ = lazy_getattr(__name__, __file__)
