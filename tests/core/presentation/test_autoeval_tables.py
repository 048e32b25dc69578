"""Online-Mind2Web's own WebJudge as the Judges tab shows it: the verdict in words, each screenshot's
score and whether it reached the final judgement (at or above the threshold)."""

from __future__ import annotations

from webeval_core.presentation.autoeval_tables import autoeval_verdict, image_judgements_table
from webeval_core.reading.mind2web_judges import AutoEvalRecord, ImageJudgement


def _record(label: int | None, scores: tuple[int | None, ...] = (), threshold: int = 3) -> AutoEvalRecord:
    images = tuple(
        ImageJudgement(position=n, score=s, response=f"Score: {s}") for n, s in enumerate(scores, 1)
    )
    return AutoEvalRecord(
        judge="webjudge-online-mind2web-o4-mini", file="x.json", line=1, mode="WebJudge_Online_Mind2Web_eval",
        model="o4-mini", threshold=threshold, task_id="a1", predicted_label=label, images=images,
    )  # fmt: skip


def test_the_verdict_in_words() -> None:
    assert [autoeval_verdict(_record(label)) for label in (1, 0)] == ["success", "failure"]
    assert autoeval_verdict(_record(None)).startswith("no verdict")


def test_screenshots_at_or_above_the_threshold_reached_the_final_judgement() -> None:
    table = image_judgements_table(_record(1, (2, 3, None, 5), threshold=3))
    assert table["screenshot"].tolist() == [1, 2, 3, 4]
    assert table["shown to the final judgement"].tolist() == [False, True, False, True]
    assert table["reply"].tolist()[1] == "Score: 3"
    assert image_judgements_table(_record(1)).empty
