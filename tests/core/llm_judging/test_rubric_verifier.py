"""The rubric verifier's file reads as Fara's Universal Verifier does (`reading.verifier`), on a
trajectory of Fara's example shape; a JSON reply that does not parse is asked once more."""

from __future__ import annotations

from pathlib import Path

from tests.harness.scripted_llm import Mishap, ScriptedEndpoint
from tests.harness.verifier_files import JUDGE, SECOND, TASK, verifier_root
from webeval_core.llm_judging import ChatTransport, EndpointProfile, JudgeSession, JudgeStatus, make_judge
from webeval_core.reading.scorefiles import read_score_files
from webeval_core.reading.verifier import SuccessCriterion, verifier_outputs


def _folders(tmp_path: Path) -> list[Path]:
    traj = verifier_root(tmp_path) / "WebTailBench_hf" / "traj"
    return [traj / TASK, traj / SECOND]


def test_its_output_is_read_as_a_universal_verifier_s(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tmp_path: Path
) -> None:
    endpoint.model.verdicts = {"longest trail": True}
    session = JudgeSession(make_judge("rubric"), profile, ChatTransport(profile))
    passed, failed = session.judge_folders(_folders(tmp_path))
    assert (passed.status, failed.status) == (JudgeStatus.SUCCESS, JudgeStatus.FAILURE)
    for outcome in (passed, failed):
        scores, _ = read_score_files(outcome.folder)
        found, problems = verifier_outputs(scores)
        assert problems == []
        outputs = {output.judge: output for output in found}
        assert set(outputs) == {JUDGE, session.judge_id}  # Fara's file and ours, side by side
        ours = outputs[session.judge_id]
        assert ours.success_criterion is SuccessCriterion.OUTCOME
        assert ours.outcome_success is (outcome is passed)
        assert [i.criterion for i in ours.rubric_items] == ["Reach the page", "Give the answer"]
        assert ours.rubric_max_points == 5
        assert ours.cp_type_used == "NO_CRITICAL_POINT"
    failing = next(
        o for o in verifier_outputs(read_score_files(failed.folder)[0])[0] if o.judge == session.judge_id
    )
    assert failing.rubric_is_success is False and failing.rubric_earned_points == 0
    assert [(p.steps, p.error_code) for p in failing.failure_points] == [((2,), "2.3")]
    assert failing.codes == ("2.3",)


def test_a_reply_that_is_not_json_is_asked_once_more(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tmp_path: Path
) -> None:
    endpoint.mishaps.append(Mishap("no verdict"))
    session = JudgeSession(make_judge("rubric"), profile, ChatTransport(profile))
    (outcome,) = session.judge_folders(_folders(tmp_path)[:1])
    assert outcome.status is JudgeStatus.FAILURE
    retried = endpoint.requests[1]
    assert "Your reply could not be used: the reply is not JSON" in retried.text
    assert len(endpoint.requests) == 3


def test_two_replies_that_are_not_json_are_an_error(
    endpoint: ScriptedEndpoint, profile: EndpointProfile, tmp_path: Path
) -> None:
    endpoint.mishaps.extend([Mishap("no verdict"), Mishap("no verdict")])
    session = JudgeSession(make_judge("rubric"), profile, ChatTransport(profile))
    (outcome,) = session.judge_folders(_folders(tmp_path)[:1])
    assert outcome.status is JudgeStatus.ERROR
    assert (outcome.reason or "").startswith("the reply is not JSON: 'I looked at the pages")
