"""How every live view words a run in progress: the app's live page and `webeval watch` print
the same lines from the same `LiveProgress` and the index's headline.
"""

from __future__ import annotations

from datetime import UTC, datetime

from webeval_core.presentation.wording import UNKNOWN, moment, over_in_words, plural
from webeval_core.runs.intervals import wilson_interval
from webeval_core.runs.judges import judge_label
from webeval_core.runs.metrics import Headline
from webeval_core.runs.run_watch import LiveProgress, WatchedTask
from webeval_core.support.vocabulary import percent, percent_range

__all__ = ["live_lines", "pace_line", "progress_line", "rate_line", "restarted", "silence", "watched_line"]


def progress_line(progress: LiveProgress) -> str:
    """`312 of 812 tasks over (300 finished, 12 aborted (3 crashed)) · 48 running · 2 stalled · 3
    restarted`.
    """
    of = f"of {progress.expected}" if progress.expected_told else f"of {progress.expected} seen"
    over = over_in_words(progress.finished, progress.aborted, progress.crashed)
    parts = [
        f"{progress.over} {of} over ({over})",
        f"{progress.running} running",
        f"{progress.stalled} stalled (silent over {silence(progress.window_s)})",
    ]
    if progress.restarted:
        parts.append(f"{progress.restarted} restarted")
    return " · ".join(parts)


def rate_line(headline: Headline | None, judge: str | None = None) -> str:
    """The success rate so far, among the finished tasks a verdict counts, with its 95% interval
    and the judge whose verdicts they are; unfinished tasks are named, never counted.
    """
    label = judge_label(judge) if judge is not None else ""
    # "the harness's own reward (...)" brings its article: "verdicts of the the harness's" otherwise
    by = (
        f" · verdicts of {label if label.startswith('the ') else f'the {label}'}" if judge is not None else ""
    )
    if headline is None or not headline.counted or headline.success_rate is None:
        return f"success so far: none counted yet (no finished task has a verdict){by}"
    counted = plural(headline.counted, "finished task")
    said = f"success so far {percent(headline.success_rate)} of {counted} counted"
    interval = wilson_interval(headline.success_rate * headline.counted, headline.counted)
    if interval is not None:
        said += f" (95% CI {percent_range(*interval)})"
    if headline.unfinished:
        said += f" · {headline.unfinished} unfinished not counted"
    return said + by


def pace_line(progress: LiveProgress) -> str:
    """Throughput over the last half hour and the finish it points to."""
    rate = progress.throughput_per_hour
    if progress.done:
        return "the run is over"
    if rate is None:
        return "pace: no task finished in the last 30 min; finish unknown"
    eta = progress.eta
    finish = moment(datetime.fromtimestamp(eta, UTC)) if eta is not None else UNKNOWN
    left = f" (in {silence(eta - progress.at)})" if eta is not None else ""
    return f"pace: {rate:.0f} tasks an hour over the last 30 min · finish about {finish}{left}"


def silence(seconds: float) -> str:
    """A span as the live views write it: `45 s`, `12 min`, `3 h 05 min`."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = int(seconds // 60)
    if minutes < 90:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def watched_line(task: WatchedTask) -> str:
    """One unfinished task: `task 17 · stalled, silent 14 min · 6 steps, last left_click on …`."""
    said = f"task {task.task_id} · {task.state.value}, silent {silence(task.silent_s)}"
    said += f" · {plural(task.steps, 'step')}"
    if task.last_step:
        said += f", last {task.last_step}"
    if task.restarted_at is not None:
        said += f" · {restarted(task.restarted_at)}"
    return said


def restarted(when: datetime) -> str:
    """When a resumed task started again: `restarted at 15:02 (the run's local time)` (core.log
    writes the run's local time, without its zone).
    """
    return f"restarted at {when:%H:%M} (the run's local time)"


def live_lines(
    progress: LiveProgress, headline: Headline | None, judge: str | None = None
) -> tuple[str, ...]:
    """The lines a terminal prints for a run: progress, rate (its judge named), pace, each stalled task."""
    lines = [progress_line(progress), rate_line(headline, judge), pace_line(progress)]
    lines.extend(watched_line(task) for task in progress.stalled_tasks)
    return tuple(lines)
