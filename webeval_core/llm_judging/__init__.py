"""LLM judging: trajectories judged again, on demand, by a model behind any OpenAI-compatible
endpoint (OpenAI, Azure OpenAI, vLLM, Ollama, a gateway), with the published methods (an
outcome judge after WebVoyager's, WebJudge, a rubric verifier of the Universal Verifier's shape).

Owns the endpoint profiles (`endpoints`), sending a request (`chat_transport`: retries, rate,
concurrency; `reply_cache`; `image_parts`), what a judge reads of a trajectory (`judge_material`),
the methods (`outcome_judge`, `webjudge`, `rubric_verifier`, their prompts in `judge_prompts`,
by name in `judge_methods`), the verdict and the judge id (`judge_verdict`), the score file
(`judge_files`, written through `scoring.score_writer`), runs of many (`judge_run`), their
estimate and totals (`cost_estimate`), flips (`judge_flips`) and what the app shows of them
(`judge_views`).

May import: runs, scoring, reading, policy, support. Never imports review, presentation or
streamlit; the openai client and Pillow are imported when a request is sent.
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "JUDGE_METHODS",
    "METHOD_WORDS",
    "PROFILES_ENV",
    "ChatTransport",
    "EndpointProfile",
    "JudgeCallError",
    "JudgeDecision",
    "JudgeEstimate",
    "JudgeMaterial",
    "JudgeOutcome",
    "JudgeReply",
    "JudgeSession",
    "JudgeStatus",
    "OutcomeRow",
    "Provider",
    "ReplyCache",
    "RunTotals",
    "VerdictLine",
    "estimate_run",
    "judge_file_path",
    "judge_id",
    "judge_replies",
    "judged_flips",
    "load_material",
    "load_profile",
    "load_profiles",
    "make_judge",
    "outcome_line",
    "outcome_rows",
    "profiles_path",
    "run_totals",
    "verdicts_of",
]

if TYPE_CHECKING:
    from webeval_core.llm_judging.chat_transport import ChatTransport, JudgeCallError
    from webeval_core.llm_judging.cost_estimate import JudgeEstimate, RunTotals, estimate_run, run_totals
    from webeval_core.llm_judging.endpoints import (
        PROFILES_ENV,
        EndpointProfile,
        Provider,
        load_profile,
        load_profiles,
        profiles_path,
    )
    from webeval_core.llm_judging.judge_files import judge_file_path
    from webeval_core.llm_judging.judge_flips import judged_flips
    from webeval_core.llm_judging.judge_material import JudgeMaterial, load_material
    from webeval_core.llm_judging.judge_methods import JUDGE_METHODS, make_judge
    from webeval_core.llm_judging.judge_run import JudgeOutcome, JudgeSession, JudgeStatus
    from webeval_core.llm_judging.judge_verdict import JudgeDecision, judge_id
    from webeval_core.llm_judging.judge_views import (
        JudgeReply,
        OutcomeRow,
        VerdictLine,
        judge_replies,
        outcome_line,
        outcome_rows,
        verdicts_of,
    )
    from webeval_core.llm_judging.method_names import METHOD_WORDS
    from webeval_core.llm_judging.reply_cache import ReplyCache
else:
    __getattr__ = lazy_getattr(__name__, __file__)
