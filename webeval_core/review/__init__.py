"""Review: human judgements of trajectories, kept in an annotation store outside the input tree.

annotations  the labels (outcome, process, task, environment, taxonomy codes) and the Annotation model
store        the store: SQLite by default, PostgreSQL for a team (one SQLAlchemy code path)
store_opener THE way a process opens the annotation store (location, policy, earlier versions' data)
legacy       earlier versions' JSON-lines annotations, imported on first use
judges       each automatic judge's verdict as an outcome
agreement    reviewer-reviewer and judge-reviewer agreement (kappa, accuracy, precision, recall, F1,
             false-positive rate)
failure_agreement  reviewers against each verifier's first point of failure, in the one taxonomy
disagreement every pair of judges and the trajectories on which they disagree
cuaverifierbench  the trajectories and annotations tables in CUAVerifierBench's shape
queues       review queues: a saved filter, a mode and who it is assigned to; progress, the next item
disclosure   THE gate: what of verdicts and others' labels a named reviewer may be shown, recorded
             before it is shown; their blind pass
trajectory_seen  one trajectory as its viewer may see it: its own verdict files through the gate
exchange     export and import as CSV / JSON lines
corrections  proposed task corrections, checked by the official task model and tried on the attempts
verdict_edits  a person's verdict in place of a judge's, on the record: who, why, what it replaced
exclusions   trajectories or tasks left out of the published figures, and the data's proposals
publication  every rate as scored and as published, with what separates them (the results table)
annotation_commands  what `webeval annotations ...` does (cli/annotations_command.py parses the arguments)

May import: reading, scoring, runs and diagnostics. Never imports presentation.
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "ENVIRONMENT_ERRORS",
    "ENV_VARIABLE",
    "EXCLUSION_RECORD",
    "LABEL_TEXT",
    "OFFICIAL",
    "OTHERS_COLUMNS",
    "PUBLICATION_COLUMNS",
    "REVIEWERS",
    "REVIEW_COLUMNS",
    "VERDICT_COLUMNS",
    "VERDICT_EDIT_RECORD",
    "Agreement",
    "Annotation",
    "AnnotationStore",
    "BlindPass",
    "ConfusionCell",
    "CorrectionKind",
    "Disclosure",
    "Dismissal",
    "Draft",
    "EditAction",
    "EditInForce",
    "Exclusion",
    "ExclusionAction",
    "ExclusionProposal",
    "FailureAgreement",
    "Flip",
    "Gate",
    "GroupBy",
    "ImportRejectedError",
    "Item",
    "JudgeAgreement",
    "JudgeFailure",
    "JudgePair",
    "LabelViewer",
    "MachineVerdict",
    "Outcome",
    "Process",
    "ProposalSource",
    "PublishedStatus",
    "PublishedTrajectory",
    "QueueRefusedError",
    "Rate",
    "ResultLine",
    "ReviewQueue",
    "ReviewerAgreement",
    "ReviewerProgress",
    "RowsShown",
    "Saved",
    "SeenTrajectory",
    "Shown",
    "Stage",
    "StoreError",
    "TaskCorrection",
    "TaskLabel",
    "VerdictEdit",
    "VerdictRequest",
    "Withheld",
    "agreement_report",
    "apply_request",
    "binary_scores",
    "blind_pass",
    "blind_passes",
    "by_item",
    "cohen_kappa",
    "command_for",
    "corrected_task",
    "corrections_as_tasks",
    "counted_by",
    "current",
    "default_location",
    "dismiss",
    "done_in",
    "edited",
    "engines_of",
    "excluded_by",
    "exclusions_in_force",
    "export_rows",
    "failure_report",
    "false_positive_rate",
    "figure_labels",
    "figures_in_words",
    "has_password",
    "history",
    "in_force",
    "judge_pairs",
    "judge_verdicts",
    "listing_document",
    "listing_lines",
    "majority",
    "mask",
    "next_item",
    "open_annotations",
    "open_proposals",
    "open_store",
    "own_labels",
    "proposals_from",
    "publication_columns",
    "published",
    "published_one",
    "published_root",
    "published_runs",
    "queue_items",
    "queue_progress",
    "queues_on",
    "rate_of",
    "read_corrections",
    "read_dismissals",
    "read_edits",
    "read_exclusions",
    "read_failures",
    "read_import",
    "read_legacy",
    "read_queues",
    "result_line",
    "results",
    "review_columns",
    "review_list_columns",
    "reviewed",
    "reviewer_key",
    "reviewers_majority",
    "rows_as_text",
    "run_command",
    "save_correction",
    "save_edit",
    "save_exclusion",
    "save_judgement",
    "save_queue",
    "summary_verdicts",
    "trajectory_seen_by",
    "try_correction",
    "undecided_proposals",
    "verifier_halves",
    "with_reviewers",
    "write_edit",
]

if TYPE_CHECKING:
    from webeval_core.review.agreement_stats import (
        Agreement,
        ConfusionCell,
        Item,
        JudgeAgreement,
        ReviewerAgreement,
        agreement_report,
        binary_scores,
        cohen_kappa,
        false_positive_rate,
        majority,
    )
    from webeval_core.review.annotation_commands import command_for, run_command
    from webeval_core.review.annotation_db import (
        ENV_VARIABLE,
        AnnotationStore,
        LabelViewer,
        StoreError,
        default_location,
        has_password,
        mask,
        open_store,
        own_labels,
    )
    from webeval_core.review.annotations import (
        LABEL_TEXT,
        Annotation,
        Draft,
        Outcome,
        Process,
        Shown,
        Stage,
        TaskLabel,
        current,
        reviewer_key,
    )
    from webeval_core.review.corrections import (
        CorrectionKind,
        Flip,
        TaskCorrection,
        corrected_task,
        corrections_as_tasks,
        read_corrections,
        save_correction,
        try_correction,
    )
    from webeval_core.review.disagreement import (
        REVIEWERS,
        JudgePair,
        judge_pairs,
        review_list_columns,
        reviewers_majority,
        verifier_halves,
        with_reviewers,
    )
    from webeval_core.review.disclosure import (
        OTHERS_COLUMNS,
        VERDICT_COLUMNS,
        BlindPass,
        Gate,
        RowsShown,
        blind_pass,
        blind_passes,
        done_in,
        figure_labels,
    )
    from webeval_core.review.exchange import (
        REVIEW_COLUMNS,
        ImportRejectedError,
        export_rows,
        read_import,
        review_columns,
        rows_as_text,
    )
    from webeval_core.review.exclusions import (
        ENVIRONMENT_ERRORS,
        EXCLUSION_RECORD,
        Dismissal,
        Exclusion,
        ExclusionAction,
        ExclusionProposal,
        ProposalSource,
        dismiss,
        excluded_by,
        exclusions_in_force,
        open_proposals,
        proposals_from,
        read_dismissals,
        read_exclusions,
        save_exclusion,
        undecided_proposals,
    )
    from webeval_core.review.failure_agreement import (
        FailureAgreement,
        JudgeFailure,
        failure_report,
        read_failures,
    )
    from webeval_core.review.judge_outcomes import OFFICIAL, judge_verdicts, summary_verdicts
    from webeval_core.review.judging import Saved, save_judgement
    from webeval_core.review.legacy import read_legacy
    from webeval_core.review.publication import (
        PUBLICATION_COLUMNS,
        GroupBy,
        PublishedTrajectory,
        Rate,
        ResultLine,
        by_item,
        counted_by,
        edited,
        engines_of,
        figures_in_words,
        publication_columns,
        published,
        published_one,
        published_root,
        published_runs,
        rate_of,
        result_line,
        results,
        write_edit,
    )
    from webeval_core.review.queues import (
        QueueRefusedError,
        ReviewerProgress,
        ReviewQueue,
        next_item,
        queue_items,
        queue_progress,
        queues_on,
        read_queues,
        reviewed,
        save_queue,
    )
    from webeval_core.review.store_opener import open_annotations
    from webeval_core.review.trajectory_seen import SeenTrajectory, trajectory_seen_by
    from webeval_core.review.verdict_commands import (
        VerdictRequest,
        apply_request,
        listing_document,
        listing_lines,
    )
    from webeval_core.review.verdict_edits import (
        VERDICT_EDIT_RECORD,
        EditAction,
        EditInForce,
        MachineVerdict,
        PublishedStatus,
        VerdictEdit,
        history,
        in_force,
        read_edits,
        save_edit,
    )
    from webeval_core.runs.viewing import Disclosure, Withheld
else:
    __getattr__ = lazy_getattr(__name__, __file__)
