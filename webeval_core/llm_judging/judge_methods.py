"""The judging methods by name: what `--judge NAME` and the app's picker offer."""

from __future__ import annotations

from collections.abc import Callable

from webeval_core.llm_judging.judge_verdict import Judge
from webeval_core.llm_judging.outcome_judge import OutcomeJudge
from webeval_core.llm_judging.rubric_verifier import RubricVerifier
from webeval_core.llm_judging.webjudge import WebJudge

JUDGE_METHODS: dict[str, Callable[[], Judge]] = {
    OutcomeJudge.name: OutcomeJudge,
    WebJudge.name: WebJudge,
    RubricVerifier.name: RubricVerifier,
}
"""Each method's name and how it is made."""


def make_judge(name: str) -> Judge:
    """The method of that name.

    Raises:
        KeyError: no method has it (the message lists those that exist).
    """
    if name not in JUDGE_METHODS:
        raise KeyError(f"no judge {name!r} (there are: {', '.join(JUDGE_METHODS)})")
    return JUDGE_METHODS[name]()
