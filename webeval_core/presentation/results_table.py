"""The results table a team publishes: per run (or site) its counts, the rate as published and as
scored with 95% intervals, the edits and exclusions between them, and the provenance of the
verdicts (judges, eval hashes, library versions, dataset checksums). One frame, four renderings:
Markdown for a README, CSV for a spreadsheet, LaTeX for a paper, JSON for a script.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

from webeval_core.presentation.wording import UNKNOWN
from webeval_core.review import GroupBy, Rate, ResultLine
from webeval_core.runs import INTERVAL_NAMES
from webeval_core.scoring import EngineInfo
from webeval_core.support.row_files import rows_text
from webeval_core.support.vocabulary import percent, percent_range

if TYPE_CHECKING:
    import pandas as pd


class TableFormat(StrEnum):
    """The renderings of a results table."""

    MARKDOWN = "md"
    CSV = "csv"
    LATEX = "latex"
    JSON = "json"

    @property
    def suffix(self) -> str:
        """The file name's suffix of a download in this format."""
        return "tex" if self == TableFormat.LATEX else self.value


COLUMNS = (
    "trajectories",
    "finished",
    "excluded",
    "edits",
    "to re-check",
    "published",
    "published 95% (Wilson)",
    "published 95% (bootstrap)",
    "scored",
    "scored 95% (Wilson)",
    "judges",
    "eval hashes",
    "library",
    "dataset",
)
"""The table's columns after the group's, in order."""


def results_frame(
    lines: Sequence[ResultLine], engines: Mapping[str, EngineInfo], by: GroupBy
) -> pd.DataFrame:
    """One row per line: counts, both rates (percent, with their counts) and provenance."""
    import pandas as pd

    return pd.DataFrame([_row(line, engines) for line in lines], columns=[by.value, *COLUMNS])


def _row(line: ResultLine, engines: Mapping[str, EngineInfo]) -> list[object]:
    known = [engines[s] for s in line.sources if s in engines]
    return [
        line.group,
        line.trajectories,
        line.finished,
        line.excluded,
        line.edits,
        line.recheck,
        _rate(line.published),
        _interval(line.published.wilson),
        _interval(line.published.bootstrap),
        _rate(line.scored),
        _interval(line.scored.wilson),
        ", ".join(line.judges) or UNKNOWN,
        ", ".join(line.sources) or UNKNOWN,
        ", ".join(sorted({e.version for e in known})) or UNKNOWN,
        ", ".join(sorted({e.data_checksum[:12] for e in known})) or UNKNOWN,
    ]


def _rate(rate: Rate) -> str:
    return UNKNOWN if rate.rate is None else f"{percent(rate.rate)} of {rate.counted}"


def _interval(interval: tuple[float, float] | None) -> str:
    return UNKNOWN if interval is None else percent_range(*interval)


def render_results(
    lines: Sequence[ResultLine], engines: Mapping[str, EngineInfo], by: GroupBy, fmt: TableFormat
) -> str:
    """The table in one format, with a note saying what its figures are."""
    if fmt == TableFormat.JSON:
        return _json(lines, engines, by)
    frame = results_frame(lines, engines, by)
    if fmt == TableFormat.CSV:
        return _csv(lines, engines, by)
    if fmt == TableFormat.LATEX:
        return _latex(frame)
    return _markdown(frame)


def _csv(lines: Sequence[ResultLine], engines: Mapping[str, EngineInfo], by: GroupBy) -> str:
    """Numbers a spreadsheet can compute with: rates as fractions, each interval's two ends apart."""
    head = [by.value, "trajectories", "finished", "excluded", "edits", "to_recheck"]
    for side in ("published", "scored"):
        head += [f"{side}_counted", f"{side}_rate"]
        head += [f"{side}_{kind}_{end}" for kind in ("wilson", "bootstrap") for end in ("low", "high")]
    head += ["judges", "eval_hashes", "library", "dataset_checksums"]
    rows = []
    for line in lines:
        known = [engines[s] for s in line.sources if s in engines]
        row: list[object] = [
            line.group,
            line.trajectories,
            line.finished,
            line.excluded,
            line.edits,
            line.recheck,
        ]
        for rate in (line.published, line.scored):
            row += [rate.counted, _number(rate.rate), *_ends(rate.wilson), *_ends(rate.bootstrap)]
        provenance = [
            " ".join(line.judges),
            " ".join(line.sources),
            " ".join(sorted({e.version for e in known})),
            " ".join(sorted({e.data_checksum for e in known})),
        ]
        rows.append(dict(zip(head, row + provenance, strict=True)))
    return rows_text(rows, "csv", head)


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.6f}"


def _ends(interval: tuple[float, float] | None) -> tuple[str, str]:
    return ("", "") if interval is None else (_number(interval[0]), _number(interval[1]))


NOTE = (
    "Published: edits and exclusions applied; scored: the judges' verdicts as they are. Intervals: "
    + "; ".join(INTERVAL_NAMES)
    + "."
)
"""What every rendering says its figures are."""


def _markdown(frame: pd.DataFrame) -> str:
    def cell(value: object) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    head = "| " + " | ".join(cell(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" if i == 0 else "---:" for i in range(len(frame.columns))) + "|"
    body = [
        "| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False, name=None)
    ]
    return "\n".join([head, rule, *body, "", NOTE]) + "\n"


_LATEX_SPECIAL = {c: "\\" + c for c in "&%$#_{}"} | {
    "~": r"\textasciitilde{}",
    "^": r"\^{}",
    "\\": r"\textbackslash{}",
}


def _latex(frame: pd.DataFrame) -> str:
    def cell(value: object) -> str:
        return "".join(_LATEX_SPECIAL.get(c, c) for c in str(value)).replace("–", "--")

    spec = "l" + "r" * (len(frame.columns) - 1)
    rows = [" & ".join(cell(v) for v in row) + r" \\" for row in frame.itertuples(index=False, name=None)]
    return (
        "\n".join(
            [
                f"% {cell(NOTE)}",
                rf"\begin{{tabular}}{{{spec}}}",
                r"\hline",
                " & ".join(cell(c) for c in frame.columns) + r" \\",
                r"\hline",
                *rows,
                r"\hline",
                r"\end{tabular}",
            ]
        )
        + "\n"
    )


def _json(lines: Sequence[ResultLine], engines: Mapping[str, EngineInfo], by: GroupBy) -> str:
    used = sorted({s for line in lines for s in line.sources if s in engines})
    document = {
        "by": by.value,
        "note": NOTE,
        "lines": [
            {
                **line.model_dump(mode="json"),
                "scored_rate": line.scored.rate,
                "published_rate": line.published.rate,
            }
            for line in lines
        ],
        "engines": {source: engines[source].model_dump(mode="json") for source in used},
    }
    return json.dumps(document, indent=2) + "\n"
