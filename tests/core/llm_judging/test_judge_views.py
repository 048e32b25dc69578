"""The judges that reply in words, as the Judges tab shows them: a harness's own reward said in words."""

from __future__ import annotations

from pathlib import Path

from webeval_core.llm_judging.judge_views import judge_replies
from webeval_core.reading.harness_record import HarnessRecord, harness_score
from webeval_core.reading.scorefiles import ScoreFile


def test_a_harness_reward_is_said_whose_it_is_where_it_was_read_and_what_it_means() -> None:
    # Its score file holds no reply: the card was a bare "harness-agentlab · failure (0)".
    record = HarnessRecord(
        harness="AgentLab / BrowserGym",
        reward=0.0,
        reward_meaning="the mean of the evaluators' scores, not the official all-or-nothing verdict",
    )
    scores = harness_score("agentlab", Path("/runs/study/ep/summary_info.json"), 0.0)
    (reply,) = judge_replies(scores, record)
    assert reply.judge == "harness-agentlab" and reply.verdict == "failure (0)"
    assert reply.reply.startswith(
        "AgentLab / BrowserGym's own reward for the episode, 0, read from summary_info.json."
    )
    assert "The mean of the evaluators' scores, not the official all-or-nothing verdict." in reply.reply
    assert "never mixed with it" in reply.reply
    # Without its record (none given) it still says what the judge is.
    (bare,) = judge_replies(scores)
    assert bare.reply.startswith("The harness's own reward for the episode, 0, read from summary_info.json.")


def test_a_judge_that_replies_in_words_keeps_its_reply() -> None:
    scores = {
        "webvoyager": ScoreFile(
            name="webvoyager", path=Path("scores/webvoyager.json"), score=1.0, response_text="SUCCESS: done"
        )
    }
    (reply,) = judge_replies(scores, HarnessRecord(harness="Harbor (ATIF)"))
    assert reply.reply == "SUCCESS: done" and reply.verdict == "success (1)"
