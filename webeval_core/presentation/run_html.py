"""One run as a folder of standalone HTML pages: a report page and a page per trajectory.

For demos and for sending a run's results to someone without the tool: `index.html` gives the
headline figures (with the judge that decided them), success by site and by task type, outcomes,
the failure taxonomy and every trajectory linked to its own page. Charts are drawn with plain
HTML bars, so the pages run no script and open offline (`html.CSP`).
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pandas as pd

from webeval_core.presentation.html import badge, facts, page, pre, table, text
from webeval_core.presentation.redaction import REPORT_NAME, Redactor, redacted_page
from webeval_core.presentation.tones import score_tone
from webeval_core.presentation.trajectory_document import trajectory_html
from webeval_core.reading.task_catalog import TaskCatalog
from webeval_core.reading.trajectory_reader import load_trajectory
from webeval_core.review.publication import ResultLine, figures_in_words
from webeval_core.runs.metrics import (
    Headline,
    breakdown,
    headline,
    outcome_breakdown,
    taxonomy,
    trajectory_frame,
)
from webeval_core.runs.summary import RootIndex, TrajectorySummary
from webeval_core.runs.trajectory_filter import FAIL, PASS
from webeval_core.support.diagnostics import UnreadableError
from webeval_core.support.vocabulary import UNKNOWN, percent

PAGES_FOLDER = "trajectories"
OFFICIAL_JUDGE = "the official WebArena-Verified evaluator"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_NONE = Redactor(None)  # nothing masked: what a caller that names no redactor gets


@dataclass(frozen=True)
class ReportPage:
    """One file of an exported run report."""

    path: str
    """Where it goes, relative to the report folder ("index.html", "trajectories/0001-108.html")."""
    html: str
    """The whole page."""


def page_name(position: int, summary: TrajectorySummary) -> str:
    """The file of a trajectory's page: its position keeps two folders of one task id apart."""
    task = _UNSAFE.sub("_", summary.task_id)[:60] or "task"
    return f"{PAGES_FOLDER}/{position:04d}-{task}.html"


def report_file_stem(run_key: str) -> str:
    """A file name for a run's report: its key with anything but letters, digits, dot and dash replaced."""
    return _UNSAFE.sub("_", run_key).strip("._")[:80] or "run"


def run_members(index: RootIndex, run_key: str) -> list[TrajectorySummary]:
    """The summaries of one run's trajectories, in the run's folder order."""
    return [s for s in index.summaries if s.run_key == run_key]


def trajectory_page(
    summary: TrajectorySummary, catalog: TaskCatalog | None, redactor: Redactor | None = None
) -> str:
    """A trajectory's standalone page (its secrets masked by `redactor`), or a page saying why its
    folder could not be read.
    """
    try:
        trajectory = load_trajectory(summary.path)
    except UnreadableError as exc:
        heading = f'<p><a href="../index.html">&larr; Run report</a></p><h1>Task {text(summary.task_id)}</h1>'
        return page(f"Task {summary.task_id}", [heading, pre(f"This folder could not be read: {exc.reason}")])
    task = catalog.get(trajectory.task_id) if catalog is not None else None
    where = f"{summary.run_key} · {summary.task_id}"
    return redacted_page(
        trajectory, lambda t: trajectory_html(t, task, back="../index.html"), redactor or _NONE, where
    )


def report_pages(
    index: RootIndex,
    run_key: str,
    catalog: TaskCatalog | None,
    published: ResultLine | None = None,
    redactor: Redactor | None = None,
) -> Iterator[ReportPage]:
    """The report page, then one page per trajectory of the run, in order (a few drawn at once on
    threads: decoding and encoding screenshots leave the GIL, so every core works; a few pages
    at a time, so a run of thousands is never held whole).
    """
    members = list(enumerate(run_members(index, run_key), start=1))
    shown = redactor or _NONE
    yield ReportPage(
        path="index.html",
        html=redacted_report(run_report_html(index, run_key, catalog, published), shown, run_key),
    )
    workers = os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="webeval-report") as pool:
        for start in range(0, len(members), 2 * workers):
            batch = members[start : start + 2 * workers]
            pages = pool.map(lambda member: trajectory_page(member[1], catalog, shown), batch)
            for (position, summary), html in zip(batch, pages, strict=True):
                yield ReportPage(path=page_name(position, summary), html=html)


def redacted_report(html: str, redactor: Redactor, run_key: str) -> str:
    """The report page with its texts' secrets masked (task texts, answers in its list)."""
    return redactor.text(html, f"{run_key}: index.html") or html


def judge_of(members: Sequence[TrajectorySummary]) -> str:
    """Who decided the success rate: the official evaluator, else the one score file all scores came from."""
    if any(s.verdict is not None for s in members):
        return OFFICIAL_JUDGE
    names = sorted({name for s in members for name, score in s.scores.items() if score is not None})
    if len(names) == 1:
        return f"the score file {names[0]}.json"
    return "no judge (nothing scored)" if not names else "no single judge (several score files)"


def run_report_html(
    index: RootIndex, run_key: str, catalog: TaskCatalog | None, published: ResultLine | None = None
) -> str:
    """The report page of one run: headline, breakdowns, taxonomy and the linked trajectory list;
    `published`: the run's results line, whose rate as published the headline says beside the scored.
    """
    run = index.run(run_key)
    if run is None:
        raise KeyError(run_key)
    members = run_members(index, run_key)
    frame = trajectory_frame(RootIndex(root=index.root, runs=(run,), summaries=tuple(members)), catalog)
    judge = judge_of(members)
    parts = [
        f"<header><h1>{text(run.label)}</h1>",
        facts([("Run folder", run.key), *((k, v) for k, v in run.metadata.items() if v)]),
        "</header>",
        _headline_section(headline(frame), judge, published),
        _rate_section("Success by site", breakdown(frame, "site"), "site"),
        _rate_section("Success by task type", breakdown(frame, "task_type"), "task_type"),
        _outcome_section(frame),
        _taxonomy_section(frame),
        _trajectory_section(members, frame),
        '<p class="caption">Exported by webeval. Every page opens offline; nothing is loaded.</p>',
    ]
    return page(f"{run.label} · webeval run report", parts)


def _card(value: str, label: str) -> str:
    figure = f'<div class="value">{text(value)}</div><div class="label">{text(label)}</div>'
    return f'<div class="card">{figure}</div>'


def _headline_section(numbers: Headline, judge: str, published: ResultLine | None) -> str:
    cards = [
        _card(percent(numbers.success_rate), f"success ({numbers.passed} of {numbers.counted} counted)"),
        _card(str(numbers.trajectories), "trajectories"),
        _card(str(numbers.no_answer), "no answer (counted as failures)"),
        _card(str(numbers.aborted), "aborted (left out)"),
        _card(str(numbers.scoring_errors), "scoring errors (left out)"),
        _card(str(numbers.unscored), "answered, not scored (left out)"),
        _card(str(numbers.unreadable), "unreadable folders (left out)"),
    ]
    cards_html = f'<div class="cards">{"".join(cards)}</div>'
    rates = f"<p>Success rate: {text(figures_in_words(published))}.</p>" if published is not None else ""
    return f"<section><h2>Headline</h2><p>Judge: {text(judge)}.</p>{rates}{cards_html}</section>"


def _bar(rate: float | None) -> str:
    width = 0.0 if rate is None or pd.isna(rate) else max(0.0, min(1.0, float(rate))) * 100
    return f'<div class="bar"><span style="width: {width:.1f}%"></span></div>'


def _rate_section(title: str, rates: pd.DataFrame, by: str) -> str:
    rows = [
        (
            text(row[by] if row[by] != UNKNOWN else "not in the catalog"),
            _bar(row["success_rate"]),
            text(percent(row["success_rate"])),
            text(f"{row['passed']} / {row['counted']}"),
            text(row["trajectories"]),
        )
        for _, row in rates.iterrows()
    ]
    headers = (by.replace("_", " "), "", "success", "passed / counted", "trajectories")
    return f"<section><h2>{text(title)}</h2>{table(headers, rows, numeric=frozenset({2, 3, 4}))}</section>"


def _outcome_section(frame: pd.DataFrame) -> str:
    counts = outcome_breakdown(frame)
    results = frame["result"].value_counts()
    rows = [(text(str(r.outcome_group).replace("_", " ")), text(r.trajectories)) for r in counts.itertuples()]
    split = f"{int(results.get(PASS, 0))} passed, {int(results.get(FAIL, 0))} failed among the answered ones."
    return (
        "<section><h2>Outcomes</h2>"
        + table(("outcome", "trajectories"), rows, numeric=frozenset({1}))
        + f'<p class="caption">{text(split)}</p></section>'
    )


def _taxonomy_section(frame: pd.DataFrame) -> str:
    tags = taxonomy(frame)
    if tags.empty:
        return '<section><h2>Failure taxonomy</h2><p class="muted">No failure tags.</p></section>'
    total = len(frame)
    rows = [
        (text(r.tag), text(r.trajectories), text(f"{r.trajectories / total:.0%}")) for r in tags.itertuples()
    ]
    return (
        "<section><h2>Failure taxonomy</h2>"
        + table(("tag", "trajectories", "share"), rows, numeric=frozenset({1, 2}))
        + '<p class="caption">A trajectory can carry several tags; core.log errors come last.</p></section>'
    )


def _trajectory_section(members: Sequence[TrajectorySummary], frame: pd.DataFrame) -> str:
    rows = []
    for position, (summary, row) in enumerate(zip(members, frame.itertuples(), strict=True), start=1):
        link = f'<a href="{text(page_name(position, summary))}">{text(summary.task_id)}</a>'
        score = None if pd.isna(row.score) else float(row.score)
        rows.append(
            (
                link,
                text(row.site or ""),
                text(row.task_type or ""),
                badge(str(row.result), score_tone(score) or ""),
                text(summary.steps),
                text((summary.final_answer or "")[:160]),
            )
        )
    headers = ("task", "site", "type", "result", "steps", "answer (start)")
    listing = table(headers, rows, numeric=frozenset({4}))
    return f"<section><h2>Trajectories ({len(members)})</h2>{listing}</section>"


def report_zip(
    index: RootIndex,
    run_key: str,
    catalog: TaskCatalog | None,
    published: ResultLine | None = None,
    redactor: Redactor | None = None,
) -> bytes:
    """The whole report as one zip file (for a download): unzip, open index.html; secrets masked by
    `redactor` (the default profile unless told), its report in the zip.
    """
    redactor = redactor or Redactor()
    buffer = io.BytesIO()
    # Level 1: the pages are mostly base64 of compressed images, whose only slack (6 bits a byte)
    # the fastest level already takes; higher levels cost seconds for a few percent.
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for each in report_pages(index, run_key, catalog, published, redactor):
            archive.writestr(each.path, each.html)
        archive.writestr(REPORT_NAME, redactor.report().model_dump_json(indent=2))
    return buffer.getvalue()
