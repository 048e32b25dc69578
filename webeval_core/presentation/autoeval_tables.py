"""Online-Mind2Web's own judge (`reading.mind2web_judges`) as the Judges tab shows it: each
screenshot WebJudge scored, and whether it reached the final judgement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from webeval_core.reading.mind2web_judges import AutoEvalRecord

if TYPE_CHECKING:
    import pandas as pd


def autoeval_verdict(record: AutoEvalRecord) -> str:
    """The line's verdict in words: success, failure, or why there is none."""
    if record.predicted_label is None:
        return "no verdict (its label is missing or malformed)"
    return "success" if record.predicted_label == 1 else "failure"


def image_judgements_table(record: AutoEvalRecord) -> pd.DataFrame:
    """A row per screenshot scored, in order: its score and whether it was at or above the
    threshold (the screenshots the final judgement saw, the latest 50 of them), and the reply.
    """
    import pandas as pd

    rows = [
        {
            "screenshot": image.position,
            "score": image.score,
            "shown to the final judgement": image.score is not None and image.score >= record.threshold,
            "reply": image.response,
        }
        for image in record.images
    ]
    return pd.DataFrame(rows, columns=["screenshot", "score", "shown to the final judgement", "reply"])
