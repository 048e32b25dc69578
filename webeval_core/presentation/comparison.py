"""Two runs compared: the Compare page's view model (which pair it opens on, the headline figures,
the flips, the tasks both ran, the matrix's rows, each result's tone) and its tables (paired
statistics in percentage points, with n; error-taxonomy counts side by side). The page lays out
what these give.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import pandas as pd
from pydantic import BaseModel, ConfigDict

from webeval_core.presentation.tones import Tone, cell_style
from webeval_core.presentation.wording import PointsChange, points_change
from webeval_core.reading.taxonomy import category_label, code_label, sorted_codes
from webeval_core.runs.listing.queries import CodeCountRow
from webeval_core.runs.metrics import (
    CHANGES,
    FAIL_TO_PASS,
    NOT_COMPARABLE,
    ONLY_A,
    ONLY_B,
    PASS_TO_FAIL,
    Headline,
    change_counts,
)
from webeval_core.runs.statistics import TEST_NAMES, PairedStatistics
from webeval_core.runs.trajectory_filter import FAIL, PASS
from webeval_core.scoring import NO_ANSWER
from webeval_core.support.vocabulary import percent

__all__ = [
    "RESULT_TONES",
    "PairFigures",
    "code_counts_table",
    "default_pair",
    "flips",
    "in_both",
    "matrix_rows",
    "pair_figures",
    "result_style",
    "statistics_caption",
    "statistics_table",
]

RESULT_TONES: dict[str, Tone] = {
    PASS: "good",
    FAIL: "bad",
    NO_ANSWER: "bad",
    PASS_TO_FAIL: "bad",
    FAIL_TO_PASS: "good",
}
"""How a result or a change reads in the comparison's tables."""


def result_style(value: object) -> str:
    """A comparison cell's style: its result's tone."""
    return cell_style(RESULT_TONES.get(str(value)))


def default_pair(tasks: Mapping[str, frozenset[str]], keys: Sequence[str]) -> tuple[int, int]:
    """Positions of the runs the page opens on: the first two that share a task (runs of different
    benchmarks have no flips to show); else the first two.
    """
    for i, a in enumerate(keys):
        for j in range(i + 1, len(keys)):
            if tasks.get(a, frozenset()) & tasks.get(keys[j], frozenset()):
                return i, j
    return 0, 1


class PairFigures(BaseModel):
    """What the page's headline says of two runs."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    success_a: str
    """Run A's success rate, written."""
    success_b: str
    """Run B's success rate, written."""
    moved: PointsChange | None
    """B's rate against A's, in points (None when either has none)."""
    counts: dict[str, int]
    """Tasks per change (`CHANGES`: pass -> fail, fail -> pass, ..., only in B)."""

    @property
    def shown_changes(self) -> tuple[tuple[str, int], ...]:
        """The four changes the headline shows beside the rates."""
        return tuple((change, self.counts[change]) for change in CHANGES[:4])

    @property
    def left_out(self) -> str:
        """What the figures leave out, in words."""
        return (
            f"{self.counts[NOT_COMPARABLE]} tasks not comparable (aborted, unscored or scoring error on a"
            f" side); {self.counts[ONLY_A]} only in A, {self.counts[ONLY_B]} only in B."
        )


def pair_figures(
    heads: Mapping[str, Headline], comparison: pd.DataFrame, run_a: str, run_b: str
) -> PairFigures:
    """The headline of two runs from their headlines and their task-by-task comparison."""
    rate_a, rate_b = (heads[run].success_rate if run in heads else None for run in (run_a, run_b))
    counts = change_counts(comparison)
    moved = points_change(rate_a, rate_b)
    if moved is not None and (counts.get(ONLY_A, 0) or counts.get(ONLY_B, 0)):
        # Rates over different tasks (a harness's 3 tasks against Fara's 41): no arrow, and said
        # (in few words: the delta box cuts at ~20 characters),
        # so it is not read as the paired difference the statistics below test.
        moved = PointsChange(f"{moved.text}, unpaired", moved=False)
    return PairFigures(success_a=percent(rate_a), success_b=percent(rate_b), moved=moved, counts=counts)


def statistics_caption(overall: PairedStatistics) -> str:
    """The overall test in one sentence, before the table of every group."""
    return (
        f"On the {overall.tasks} tasks scored in both runs: {TEST_NAMES[0]}, p = {overall.p_value:.4f} "
        f"on {overall.pass_to_fail + overall.fail_to_pass} flips; {TEST_NAMES[1]}: "
        f"[{overall.ci_low * 100:+.1f}, {overall.ci_high * 100:+.1f}] points. "
        "Then per site and per task type; n is the number of tasks each row tests."
    )


def flips(comparison: pd.DataFrame) -> pd.DataFrame:
    """The tasks that went from pass to fail or back."""
    return comparison[comparison["change"].isin([PASS_TO_FAIL, FAIL_TO_PASS])]


def in_both(comparison: pd.DataFrame) -> pd.DataFrame:
    """The tasks both runs hold (what can be stepped side by side)."""
    return comparison[~comparison["change"].isin([ONLY_A, ONLY_B])]


def matrix_rows(comparison: pd.DataFrame, shown: Collection[str]) -> pd.DataFrame:
    """The matrix's rows: those of the changes chosen, all when none is."""
    return comparison[comparison["change"].isin(list(shown))] if shown else comparison


def statistics_table(statistics: Sequence[PairedStatistics]) -> pd.DataFrame:
    """One row per group of tasks: n, both rates, B - A with its interval, flips, McNemar's p."""
    return pd.DataFrame(
        [
            {
                "tasks": s.group,
                "n": s.tasks,
                "A": percent(s.success_a),
                "B": percent(s.success_b),
                "B - A": f"{s.difference * 100:+.1f} pts",
                "95% interval": f"[{s.ci_low * 100:+.1f}, {s.ci_high * 100:+.1f}] pts",
                "pass → fail": s.pass_to_fail,
                "fail → pass": s.fail_to_pass,
                "McNemar p": round(s.p_value, 4),
            }
            for s in statistics
        ]
    )


def code_counts_table(
    rows: Sequence[CodeCountRow], run_a: str, run_b: str, *, by_category: bool
) -> pd.DataFrame:
    """Trajectories per verifier and error category (or code) in run A and run B, and B - A.

    A row per (verifier, category) either run has, in the taxonomy's order; a run without it counts 0.
    """
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for row in rows:
        counts.setdefault((row.judge, row.code), {})[row.run] = row.trajectories
    order = {code: i for i, code in enumerate(sorted_codes([code for _, code in counts]))}
    named = category_label if by_category else code_label
    table = []
    for judge, code in sorted(counts, key=lambda k: (k[0], order[k[1]])):
        a, b = counts[judge, code].get(run_a, 0), counts[judge, code].get(run_b, 0)
        table.append(
            {
                "verifier": judge,
                "category" if by_category else "code": named(code),
                "A": a,
                "B": b,
                "B - A": b - a,
            }
        )
    return pd.DataFrame(table, columns=["verifier", "category" if by_category else "code", "A", "B", "B - A"])
