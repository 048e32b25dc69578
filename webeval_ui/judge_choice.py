"""Whose verdicts a page's rates use: the judge picker, its default and the caption naming it."""

from __future__ import annotations

import streamlit as st

from webeval_core.runs import IndexView, default_judge, judge_label, order_judges
from webeval_ui.state import Key
from webeval_ui.untrusted import inert


def judge_picker(index: IndexView) -> str | None:
    """The judge whose verdicts a page's rates use; a choice only when the root has several.

    Rates never mix judges: every row of the frame takes this one judge's score.
    """
    judges = order_judges(index.store.judges())
    if len(judges) <= 1:
        return root_default_judge(index)
    return st.selectbox(
        "Judge",
        judges,
        format_func=judge_label,
        key=Key.JUDGE,
        bind="query-params",
        help="Whose verdicts the success rates and results use; judges are never averaged together.",
    )


def root_default_judge(index: IndexView) -> str | None:
    """The judge a page's rates use until one is picked: the core's one rule (`runs.default_judge`)."""
    return default_judge(index.store.judges())


def judge_caption(judge: str | None) -> str:
    """Names the judge behind a page's rates, for a caption (inert: judge names are file names)."""
    return "No verdicts yet." if judge is None else f"Verdicts of the {inert(judge_label(judge))}."
