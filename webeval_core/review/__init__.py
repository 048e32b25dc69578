"""Review: human judgements of trajectories and verdicts (annotations), kept outside the input tree.

May import: reading, scoring, runs and diagnostics. Never imports presentation.
"""

from typing import TYPE_CHECKING

from webeval_core.exports import lazy_getattr

__all__ = [
    "LABELS",
    "Annotation",
    "add_annotation",
    "annotations_as_rows",
    "default_annotations_file",
    "latest",
    "read_annotations",
]

if TYPE_CHECKING:
    from webeval_core.review.annotations import (
        LABELS,
        Annotation,
        add_annotation,
        annotations_as_rows,
        default_annotations_file,
        latest,
        read_annotations,
    )
else:
    __getattr__ = lazy_getattr(__name__, __file__)
